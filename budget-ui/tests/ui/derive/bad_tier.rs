use budget::ContextItem;

#[derive(ContextItem)]
#[context(tier = "full")]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
