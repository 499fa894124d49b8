use budget::ContextItem;

#[derive(ContextItem)]
#[context(kind = "tool_output")]
struct Output {
    #[context(content)]
    text: String,
}

fn main() {}
