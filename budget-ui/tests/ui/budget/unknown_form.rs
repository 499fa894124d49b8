use budget::budget;

fn main() {
    let _ = budget!(contracts { context_window: 16_384 });
}
