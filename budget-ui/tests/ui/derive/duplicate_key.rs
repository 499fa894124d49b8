use budget::ContextItem;

#[derive(ContextItem)]
#[context(kind = "Document")]
#[context(kind = "Memory")]
struct Note {
    #[context(content, content)]
    text: String,
}

fn main() {}
