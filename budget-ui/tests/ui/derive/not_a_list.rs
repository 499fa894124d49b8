use budget::ContextItem;

#[derive(ContextItem)]
#[context]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
