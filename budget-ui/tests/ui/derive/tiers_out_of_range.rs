use budget::ContextItem;

#[derive(ContextItem)]
#[context(tiers(raw = 7, linked = -0.1))]
struct Doc {
    #[context(content)]
    text: String,
    #[context(score)]
    score: f64,
}

fn main() {}
