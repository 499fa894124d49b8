use budget::ContextItem;

// Every bad `estimator` value is reported, each at the value.
#[derive(ContextItem)]
#[context(estimator = "calibrate")]
struct Misspelt {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
#[context(estimator = "o200k_base")]
struct Unknown {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
#[context(estimator = calibrated)]
struct Unquoted {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
#[context(estimator = 4)]
struct NotAPath {
    #[context(content)]
    text: String,
}

#[derive(ContextItem)]
#[context(estimator = "ratios", estimator = "calibrated")]
struct Twice {
    #[context(content)]
    text: String,
}

fn main() {}
