use budget::ContextItem;

#[derive(ContextItem)]
struct Doc<T> {
    #[context(content)]
    body: T,
}

fn tokens(item: &impl ContextItem) -> i64 {
    item.tokens()
}

fn main() {
    let _ = tokens(&Doc { body: 42u32 });
}
