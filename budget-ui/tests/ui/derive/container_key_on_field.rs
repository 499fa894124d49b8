use budget::ContextItem;

#[derive(ContextItem)]
struct Message {
    #[context(content, kind = "Message")]
    text: String,
}

fn main() {}
