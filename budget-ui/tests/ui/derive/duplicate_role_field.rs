use budget::ContextItem;

#[derive(ContextItem)]
struct Hit {
    #[context(content)]
    text: String,
    #[context(score)]
    similarity: f64,
    #[context(score)]
    rerank: f64,
}

fn main() {}
