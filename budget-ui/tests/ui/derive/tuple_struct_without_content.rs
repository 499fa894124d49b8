use budget::ContextItem;

#[derive(ContextItem)]
struct Note(String);

fn main() {}
