use budget::ContextItem;

#[derive(ContextItem)]
#[context(kind = ToolOutput)]
struct Output {
    #[context(content)]
    text: String,
}

fn main() {}
