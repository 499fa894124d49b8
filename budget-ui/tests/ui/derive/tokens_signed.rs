use budget::ContextItem;

// Token counts are unsigned: a signed field cannot hold one.
#[derive(ContextItem)]
struct Doc {
    #[context(content)]
    body: String,
    #[context(tokens)]
    tokens: Option<i64>,
}

fn main() {}
