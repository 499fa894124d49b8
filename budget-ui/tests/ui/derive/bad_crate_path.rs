use budget::ContextItem;

#[derive(ContextItem)]
#[context(crate = "not a path")]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
