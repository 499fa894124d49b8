use budget::ContextItem;

#[derive(ContextItem)]
#[context(content)]
struct Message {
    text: String,
}

fn main() {}
