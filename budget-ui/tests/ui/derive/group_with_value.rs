use budget::ContextItem;

#[derive(ContextItem)]
struct ToolCall {
    #[context(content)]
    arguments: String,
    #[context(group = 7)]
    call_id: u64,
}

#[derive(ContextItem)]
struct ToolResult {
    #[context(content)]
    output: String,
    #[context(group("call_1"))]
    call_id: u64,
}

fn main() {}
