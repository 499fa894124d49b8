use budget::ContextItem;

#[derive(ContextItem)]
#[context(group)]
struct ToolCall {
    #[context(content)]
    arguments: String,
}

#[derive(ContextItem)]
enum Turn {
    #[context(group)]
    Call {
        #[context(content)]
        arguments: String,
    },
}

fn main() {}
