// The field traits are sealed (and hidden: only the derive names them): a
// user type cannot opt into a role by implementing one; it is reported as
// not a supported field type. (The list of implementors in the message
// depends on the `chrono` feature.)
use budget::ContextItem;
use budget::__private_v0_1::budget_runtime::__derive::FlagField;

struct Toggle(bool);

impl FlagField for Toggle {
    fn as_flag(&self) -> bool {
        self.0
    }
}

#[derive(ContextItem)]
struct Note {
    #[context(content)]
    text: String,
    #[context(pinned)]
    pinned: Toggle,
}

fn main() {}
