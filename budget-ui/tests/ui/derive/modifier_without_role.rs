use budget::ContextItem;

#[derive(ContextItem)]
struct Doc {
    #[context(content)]
    text: String,
    #[context(content_type = "code")]
    snippet: String,
    #[context(scale = 10)]
    rating: f64,
}

fn main() {}
