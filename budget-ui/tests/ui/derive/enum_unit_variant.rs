use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
enum Entry {
    Doc(Doc),
    Empty,
}

fn main() {}
