use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content = true)]
    text: String,
}

fn main() {}
