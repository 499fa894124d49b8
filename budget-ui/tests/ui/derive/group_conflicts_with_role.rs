use budget::ContextItem;

#[derive(ContextItem)]
struct ToolCall {
    #[context(content)]
    arguments: String,
    #[context(tokens, group)]
    call_id: u64,
}

fn main() {}
