use budget::ContextItem;

#[derive(ContextItem)]
struct Message {
    #[context(content)]
    text: String,
    #[context(weight)]
    weight: f64,
}

fn main() {}
