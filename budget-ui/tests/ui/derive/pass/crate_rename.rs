//! `#[context(crate = "...")]` points the generated code at a renamed
//! `budget` dependency.
#![deny(warnings)]

extern crate budget as my_budget;

use my_budget::ContextItem;

#[derive(my_budget::ContextItem)]
#[context(crate = "my_budget", kind = "Memory")]
struct Fact {
    #[context(content)]
    text: String,
}

#[derive(my_budget::ContextItem)]
#[context(crate = "::my_budget")]
enum Entry {
    Fact(Fact),
}

fn main() {
    let entry = Entry::Fact(Fact {
        text: "renamed".to_owned(),
    });
    assert_eq!(entry.content(), "renamed");
    assert_eq!(*entry.kind(), my_budget::ContextKind::MEMORY);
    assert_eq!(Fact { text: String::new() }.content_type(), my_budget::estimate::ContentType::Markdown);
}
