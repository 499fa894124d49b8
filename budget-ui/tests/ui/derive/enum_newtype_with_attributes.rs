use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
enum Entry {
    #[context(kind = "Document")]
    Doc(Doc),
}

fn main() {}
