use budget::ContextItem;

#[derive(ContextItem)]
struct Event {
    #[context(content)]
    text: String,
    #[context(timestamp)]
    at: String,
}

fn main() {}
