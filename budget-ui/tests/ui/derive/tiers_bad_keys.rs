use budget::ContextItem;

#[derive(ContextItem)]
#[context(tiers(row = 0.8, scale = 10))]
struct Doc {
    #[context(content)]
    text: String,
    #[context(score)]
    score: f64,
}

#[derive(ContextItem)]
#[context(tiers = 0.5)]
struct Other {
    #[context(content)]
    text: String,
    #[context(score)]
    score: f64,
}

fn main() {}
