use budget::ContextItem;

#[derive(ContextItem)]
#[context(tier = "raw", tiers(raw = 0.8))]
struct Doc {
    #[context(content)]
    text: String,
    #[context(score)]
    score: f64,
}

fn main() {}
