use budget::ContextItem;

#[derive(ContextItem)]
struct ToolResult {
    #[context(content)]
    output: String,
    #[context(group)]
    call_id: String,
}

fn main() {}
