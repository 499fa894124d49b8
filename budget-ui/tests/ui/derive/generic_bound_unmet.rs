use budget::ContextItem;

#[derive(ContextItem)]
struct Doc<T> {
    #[context(content)]
    body: T,
}

fn tokens(item: &impl ContextItem) -> u64 {
    item.tokens()
}

fn main() {
    let _ = tokens(&Doc { body: 42u32 });
}
