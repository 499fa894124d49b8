use budget::ContextItem;

#[derive(ContextItem)]
#[context(knd = "ToolOutput")]
struct Output {
    #[context(content)]
    text: String,
}

fn main() {}
