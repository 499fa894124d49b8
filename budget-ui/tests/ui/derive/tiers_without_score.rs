use budget::ContextItem;

#[derive(ContextItem)]
#[context(tiers(raw = 0.8))]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
