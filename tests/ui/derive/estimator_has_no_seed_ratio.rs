use budget::{ContextItem, estimate::EstimationRatio};

// `EstimationRatio` states the seed ratio a type is estimated at; a type
// estimated otherwise does not implement it.
#[derive(ContextItem)]
#[context(estimator = "calibrated")]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {
    let _ = <Doc as EstimationRatio>::CHARS_PER_TOKEN;
}
