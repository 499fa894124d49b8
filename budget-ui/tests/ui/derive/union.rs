use budget::ContextItem;

#[derive(ContextItem)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
