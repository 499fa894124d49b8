use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content, link)]
    text: String,
}

fn main() {}
