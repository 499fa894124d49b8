use budget::ContextItem;

#[derive(ContextItem)]
#[context(tiers(raw = 0.3, linked = 0.5))]
struct Doc {
    #[context(content)]
    text: String,
    #[context(score)]
    score: f64,
}

fn main() {}
