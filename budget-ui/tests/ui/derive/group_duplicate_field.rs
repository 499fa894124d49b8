use budget::ContextItem;

#[derive(ContextItem)]
struct ToolResult {
    #[context(content)]
    output: String,
    #[context(group)]
    call_id: u64,
    #[context(group)]
    turn: u64,
}

#[derive(ContextItem)]
struct ToolCall {
    #[context(content)]
    arguments: String,
    #[context(group)]
    #[context(group)]
    call_id: u64,
}

fn main() {}
