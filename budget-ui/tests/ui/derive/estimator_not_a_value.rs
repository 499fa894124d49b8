use budget::{ContextItem, Estimator, estimate::ContentType};

/// An estimator type with fields: `estimator` needs a value of it.
struct Scaled {
    factor: u64,
}

impl Estimator for Scaled {
    fn estimate(&self, text: &str, _: ContentType) -> u64 {
        self.factor * text.len() as u64
    }
}

#[derive(ContextItem)]
#[context(estimator = Scaled)]
struct Doc {
    #[context(content)]
    text: String,
}

fn main() {}
