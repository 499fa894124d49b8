use budget::ContextItem;

/// Does not implement `Estimator`.
struct Words;

#[derive(ContextItem)]
#[context(estimator = Words)]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
