use budget::ContextItem;

#[derive(ContextItem)]
struct Review {
    #[context(content)]
    text: String,
    #[context(score, scale = 0)]
    stars: f64,
}

fn main() {}
