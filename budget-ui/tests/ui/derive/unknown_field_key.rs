use budget::ContextItem;

#[derive(ContextItem)]
struct Message {
    #[context(contnet)]
    text: String,
}

fn main() {}
