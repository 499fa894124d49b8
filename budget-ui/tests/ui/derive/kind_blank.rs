use budget::ContextItem;

#[derive(ContextItem)]
#[context(kind = "  ")]
struct Output {
    #[context(content)]
    text: String,
}

fn main() {}
