use budget::ContextItem;

#[derive(ContextItem)]
struct Chunk {
    #[context(content)]
    text: String,
    #[context(tokens)]
    tokens: String,
}

fn main() {}
