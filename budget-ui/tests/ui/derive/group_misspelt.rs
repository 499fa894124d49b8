use budget::ContextItem;

#[derive(ContextItem)]
struct ToolCall {
    #[context(content)]
    arguments: String,
    #[context(grup)]
    call_id: u64,
}

fn main() {}
