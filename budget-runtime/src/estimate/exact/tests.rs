use super::*;
use crate::estimate::compiled;
use crate::{Estimator, estimate::ContentType};

fn both() -> [ExactCounter; 2] {
    Encoding::ALL.map(|e| ExactCounter::new(e).unwrap())
}

#[test]
fn known_small_counts() {
    // Counts checked by hand against the token boundaries of each encoding.
    let [o200k, cl100k] = both();
    for (text, o, c) in [
        ("", 0, 0),
        ("hello world", 2, 2),
        ("Hello, world!", 4, 4), // Hello , ␣world !
    ] {
        assert_eq!(o200k.count_tokens(text), o, "o200k_base {text:?}");
        assert_eq!(cl100k.count_tokens(text), c, "cl100k_base {text:?}");
    }
    // Special-token text is ordinary text: several tokens, not one.
    assert!(o200k.count_tokens("<|endoftext|>") > 1);
    assert!(cl100k.count_tokens("<|endoftext|>") > 1);
}

#[test]
fn counting_up_to_a_limit_stops_at_the_limit() {
    let [o200k, _] = both();
    // "Hello, world!" is 4 tokens: Hello | , | ␣world | !
    assert_eq!(o200k.count_tokens_up_to("Hello, world!", 4), Some(4));
    assert_eq!(o200k.count_tokens_up_to("Hello, world!", 100), Some(4));
    assert_eq!(o200k.count_tokens_up_to("Hello, world!", 3), None);
    assert_eq!(o200k.count_tokens_up_to("Hello, world!", 0), None);
    assert_eq!(o200k.count_tokens_up_to("", 0), Some(0));
}

/// Cut at line starts into chunks of a few bytes, every text counts as
/// a whole, in both encodings: newlines before `/`, spaces, tabs,
/// punctuation runs, CRLF, digits, CJK and emoji. (It fails when a cut
/// is allowed before `/`.)
#[test]
fn chunked_counts_equal_whole_counts() {
    use proptest::prelude::*;
    let tokenizers = [&compiled::O200K, &compiled::CL100K];
    let piece = prop::sample::select(vec![
        "\n",
        "\n\n",
        "\r\n",
        "/",
        "//",
        ";",
        " ",
        "\t",
        "fn",
        "Main",
        "x1",
        "123456",
        "。",
        "日本語",
        "🦀",
        "'s",
        "  ",
        "-->",
        "\u{a0}",
        "é",
        "\n/",
        "*/\n",
    ]);
    let texts = prop::collection::vec(piece, 0..120).prop_map(|p| p.concat());
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(512));
    runner
        .run(&(texts, 1usize..40), |(text, chunk)| {
            for tokenizer in &tokenizers {
                prop_assert_eq!(
                    count_in_chunks(tokenizer, &text, chunk),
                    tokenizer.count(&text),
                    "{:?}",
                    text
                );
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn cut_points_are_the_first_safe_cut_past_each_chunk() {
    assert_eq!(cut_points("ab\ncd\n ef\n/gh\nij", 1), [3, 6, 14]);
    assert_eq!(cut_points("no newline at all", 2), [10, 13]);
    assert!(cut_points("日本語の テキスト\n\n", 2).is_empty());
}

#[test]
fn counter_is_an_estimator_that_ignores_content_type() {
    let [exact, _] = both();
    let as_dyn: &dyn Estimator = &exact;
    for ct in ContentType::ALL {
        assert_eq!(
            as_dyn.estimate("fn main() {}", ct),
            exact.count_tokens("fn main() {}")
        );
    }
}

#[test]
fn tokenizers_are_shared_across_threads() {
    let a = ExactCounter::new(Encoding::Cl100kBase).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| ExactCounter::new(Encoding::Cl100kBase).unwrap()))
            .collect();
        for h in handles {
            let b = h.join().unwrap();
            let (Backend::Compiled(a), Backend::Compiled(b)) = (&a.backend, &b.backend) else {
                panic!("compiled counters");
            };
            assert!(std::ptr::eq(*a, *b), "one per process");
        }
    });
}
