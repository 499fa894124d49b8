use budget::ContextItem;

#[derive(ContextItem)]
struct Event {
    #[context(content)]
    text: String,
    #[context(tags)]
    tags: u32,
    #[context(link)]
    url: u64,
    #[context(pinned)]
    pinned: u8,
    #[context(metadata)]
    metadata: Vec<String>,
}

fn main() {}
