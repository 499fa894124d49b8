use budget::ContextItem;

#[derive(ContextItem)]
struct ToolResult {
    #[context(content)]
    output: String,
    #[context(group)]
    turn: usize,
}

fn main() {}
