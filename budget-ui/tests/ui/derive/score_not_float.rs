use budget::ContextItem;

#[derive(ContextItem)]
struct Review {
    #[context(content)]
    text: String,
    #[context(score)]
    stars: u8,
}

fn main() {}
