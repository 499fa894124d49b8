use budget::ContextItem;

// A plain integer `tokens` field always has a count: no estimate is made.
#[derive(ContextItem)]
#[context(estimator = "calibrated")]
struct Counted {
    #[context(content)]
    text: String,
    #[context(tokens)]
    tokens: u32,
}

#[derive(ContextItem)]
enum Entry {
    #[context(estimator = "ratios")]
    Counted(#[context(content)] String, #[context(tokens)] usize),
    // An optional count falls back to the estimator: accepted.
    #[context(estimator = "calibrated")]
    Maybe(#[context(content)] String, #[context(tokens)] Option<usize>),
}

fn main() {}
