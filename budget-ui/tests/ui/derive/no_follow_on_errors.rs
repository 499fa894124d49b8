use budget::scorer::PriorityScorer;
use budget::{ContextBudget, ContextItem, Pipeline};

// The bad attribute is the only error: the stub impl keeps every use of
// the type below from adding "ContextItem is not implemented" errors.
#[derive(ContextItem)]
#[context(kind = "")]
struct Message {
    #[context(content)]
    text: String,
}

fn main() {
    let items = vec![Message { text: "hi".into() }];
    let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
    let budget = ContextBudget::new(100, 100).unwrap();
    let _ = pipeline.run(&items, &budget);
    let _ = items[0].content_type();
    let _: &dyn ContextItem = &items[0];
}
