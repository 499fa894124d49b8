use budget::ContextItem;

#[derive(ContextItem)]
struct Counter {
    #[context(content)]
    count: u32,
}

fn main() {}
