use budget::ContextItem;

#[derive(ContextItem)]
struct OnField {
    #[context(content, estimator = "calibrated")]
    text: String,
}

#[derive(ContextItem)]
struct Note {
    #[context(content)]
    text: String,
}

// Each variant with fields takes its own estimator.
#[derive(ContextItem)]
#[context(estimator = "calibrated")]
enum OnEnum {
    Note(Note),
}

fn main() {}
