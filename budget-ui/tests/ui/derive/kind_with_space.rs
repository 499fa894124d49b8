use budget::ContextItem;

#[derive(ContextItem)]
#[context(kind = "Tool Output")]
struct Output {
    #[context(content)]
    text: String,
}

fn main() {}
