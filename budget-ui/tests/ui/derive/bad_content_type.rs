use budget::ContextItem;

#[derive(ContextItem)]
#[context(content_type = "rust")]
struct Snippet {
    #[context(content, content_type = "yml")]
    text: String,
}

fn main() {}
