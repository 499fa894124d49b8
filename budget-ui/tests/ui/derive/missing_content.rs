use budget::ContextItem;

#[derive(ContextItem)]
struct Message {
    text: String,
    #[context(priority)]
    priority: i64,
}

fn main() {}
