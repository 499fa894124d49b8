use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
#[context(kind = "Document")]
enum Entry {
    Doc(Doc),
    #[context(crate = "budget")]
    Other {
        #[context(content)]
        text: String,
    },
}

fn main() {}
