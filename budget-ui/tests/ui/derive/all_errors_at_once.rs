use budget::ContextItem;

// Every bad attribute of the struct is reported in one compilation.
#[derive(ContextItem)]
#[context(kind = "Tool Output", content_type = "rust", tiers(raw = 2.0))]
struct Output {
    #[context(content, content_type = "cobol")]
    text: String,
    #[context(scroe)]
    score: f64,
    #[context(tokens = 5)]
    tokens: usize,
}

fn main() {}
