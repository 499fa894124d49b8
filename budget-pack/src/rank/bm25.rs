//! [`Query`] and BM25F: how well each file matches a query, with rare
//! terms weighing more than common ones.

// Looked up for every term of every path and defined name: a fast hash.
use rustc_hash::FxHashMap as HashMap;

use aho_corasick::{AhoCorasick, Input, MatchKind};
use memchr::memmem;

use crate::parallel::parallel_map_beside;
use crate::rank::role::FileRole;
use crate::rank::terms::{distinct_terms, for_each_term};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalization.
const B: f64 = 0.75;
/// How much a term in the file's path counts, against one in its text.
const PATH_WEIGHT: f64 = 3.0;
/// How much a term in a name the file defines counts.
const SYMBOL_WEIGHT: f64 = 2.0;
/// The factor on tests' and docs' scores when the query does not ask for
/// them.
const ASIDE_FACTOR: f64 = 0.5;

/// Query terms that ask for tests.
const TEST_TERMS: &[&str] = &["spec", "test", "testing", "tests", "unittest"];
/// The factor on a change log's score when the query does not ask for
/// one: it lists every change by the names it touched, so it matches most
/// queries about the code and shows none of it. Measured with
/// `scripts/localize.py` (changed files whole or outlined), in a first
/// version that let any query term in the file's name keep the match:
/// held-out 71% → 77%, the tuning set 56% → 55%; leaving change logs out
/// of the match gave 76% and 55%.
const CHANGE_LOG_FACTOR: f64 = 0.3;

/// The factor on a licence's or notice's score when the query does not
/// ask for one: legal prose matches rare English words of a query
/// (`addendum`) and says nothing of the code.
const LEGAL_FACTOR: f64 = 0.1;
/// Query terms that ask for a licence or notice.
const LEGAL_TERMS: &[&str] = &["copyright", "licence", "license", "notice"];

/// Query terms that ask for a change log.
const CHANGE_LOG_TERMS: &[&str] = &["changelog", "history", "news", "release"];
/// Query terms that ask for documentation.
const DOC_TERMS: &[&str] = &[
    "doc",
    "docs",
    "documentation",
    "guide",
    "readme",
    "tutorial",
];

/// A query as terms ([`for_each_term`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    terms: Vec<String>,
}

/// One file as BM25 sees it.
pub struct Document<'a> {
    /// Its `/`-separated path.
    pub path: &'a str,
    /// Its text.
    pub text: &'a str,
    /// The names it defines.
    pub symbols: &'a [&'a str],
    /// Its role, from its path.
    pub role: FileRole,
}

impl Query {
    /// The query's distinct terms; `None` when it has none (empty, or only
    /// stop words and punctuation).
    pub fn parse(text: &str) -> Option<Self> {
        let terms = distinct_terms(text);
        (!terms.is_empty()).then_some(Self { terms })
    }

    /// Its terms, in order of first appearance.
    #[cfg(test)]
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// A matcher of definitions against this query.
    pub fn definitions(&self) -> DefinitionMatcher {
        DefinitionMatcher {
            matcher: TextMatcher::new(&self.terms),
            index: self
                .terms
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), i))
                .collect(),
        }
    }

    fn asks_for(&self, terms: &[&str]) -> bool {
        self.terms.iter().any(|t| terms.contains(&t.as_str()))
    }

    /// [`Self::scores_beside`] with nothing beside.
    #[cfg(test)]
    pub fn scores(&self, documents: &[Document<'_>]) -> Vec<f64> {
        self.scores_beside(documents, || ()).1
    }

    /// The BM25F score of each document, `0.0` for one that contains no
    /// query term; tests' and docs' scores are halved, change logs' cut to
    /// [`CHANGE_LOG_FACTOR`] and licences' to [`LEGAL_FACTOR`] unless the
    /// query names them (`test`, `docs`, `readme`, `changelog`, `release`,
    /// `license`, …). Computed on every core, with `beside` run on this
    /// thread while the other cores start on them (work of one core, which
    /// would leave them idle); `beside`'s result and the scores.
    ///
    /// A term's frequency in a document is its count in the text (see
    /// [`TextMatcher`]) plus [`PATH_WEIGHT`] × its count among the path's
    /// terms plus [`SYMBOL_WEIGHT`] × its count among the defined names'
    /// terms; a document's length is its text's length in bytes.
    pub fn scores_beside<R>(
        &self,
        documents: &[Document<'_>],
        beside: impl FnOnce() -> R,
    ) -> (R, Vec<f64>) {
        let index: HashMap<&str, usize> = self
            .terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let count_terms =
            |text: &str, scratch: &mut String, frequencies: &mut [f64], weight: f64| {
                for_each_term(text, scratch, |term| {
                    if let Some(&i) = index.get(term) {
                        frequencies[i] += weight;
                    }
                });
            };
        let matcher = TextMatcher::new(&self.terms);
        let cores = TermCores::new(&self.terms);
        let (beside, frequencies) = parallel_map_beside(
            documents,
            |document| {
                let mut frequencies = vec![0.0; self.terms.len()];
                let mut scratch = String::new();
                matcher.count(document.text, &mut frequencies);
                count_terms(document.path, &mut scratch, &mut frequencies, PATH_WEIGHT);
                for symbol in document.symbols.iter().filter(|s| cores.may_be_in(s)) {
                    count_terms(symbol, &mut scratch, &mut frequencies, SYMBOL_WEIGHT);
                }
                frequencies
            },
            beside,
        );
        let lengths: Vec<f64> = documents.iter().map(|d| d.text.len() as f64).collect();
        let asks_for_tests = self.asks_for(TEST_TERMS);
        let asks_for_docs = self.asks_for(DOC_TERMS);
        let asks_for_change_log = self.asks_for(CHANGE_LOG_TERMS);
        let asks_for_legal = self.asks_for(LEGAL_TERMS);
        let scores = bm25(&frequencies, &lengths)
            .into_iter()
            .zip(documents)
            .map(|(score, document)| {
                let factor = match document.role {
                    FileRole::Tests if !asks_for_tests => ASIDE_FACTOR,
                    FileRole::Docs | FileRole::Readme if !asks_for_docs => ASIDE_FACTOR,
                    FileRole::ChangeLog if !asks_for_change_log => CHANGE_LOG_FACTOR,
                    FileRole::Legal if !asks_for_legal => LEGAL_FACTOR,
                    _ => 1.0,
                };
                score * factor
            })
            .collect();
        (beside, scores)
    }
}

/// What text that yields a query term ([`for_each_term`]) must hold, in
/// some ASCII case: the term's first `_`-separated part without a final
/// `y` (`policies` gives `policy`). Splitting every defined name of every
/// file into terms costs more than ruling most of them out this way.
struct TermCores {
    /// Each core, lower case, as a search.
    cores: Vec<memmem::Finder<'static>>,
}

impl TermCores {
    fn new(terms: &[String]) -> Self {
        let cores = terms
            .iter()
            .map(|term| {
                let first = term.split('_').next().unwrap_or_default();
                let core = first.strip_suffix('y').unwrap_or(first);
                memmem::Finder::new(core.to_ascii_lowercase().as_bytes()).into_owned()
            })
            .collect();
        Self { cores }
    }

    /// Whether `text` may yield one of the terms: `false` only when it
    /// cannot. (Non-ASCII text may change length as it is lower-cased:
    /// it always may.)
    fn may_be_in(&self, text: &str) -> bool {
        if !text.is_ascii() {
            return true;
        }
        // Names are short: folded on the stack, then searched.
        let mut stack = [0u8; 64];
        let mut heap = Vec::new();
        let folded = match stack.get_mut(..text.len()) {
            Some(folded) => folded,
            None => {
                heap.resize(text.len(), 0);
                &mut heap[..]
            }
        };
        for (to, from) in folded.iter_mut().zip(text.bytes()) {
            *to = from.to_ascii_lowercase();
        }
        self.cores.iter().any(|core| core.find(folded).is_some())
    }
}

/// How well each definition in a file matches a query, for a [focused
/// outline](crate::outline::focus).
pub struct DefinitionMatcher {
    matcher: TextMatcher,
    index: HashMap<String, usize>,
}

impl DefinitionMatcher {
    /// The BM25 score of each of a file's definitions (`(name, text)`)
    /// among the file's definitions, a term in its name counting
    /// [`SYMBOL_WEIGHT`] more: a term every definition holds weighs
    /// nothing, so a file's own subject (`json` in a JSON parser) does not
    /// make all of it relevant. `0.0` for one that holds no term.
    pub fn scores(&self, definitions: &[(&str, &str)]) -> Vec<f64> {
        let mut scratch = String::new();
        let frequencies: Vec<Vec<f64>> = definitions
            .iter()
            .map(|(name, text)| {
                let mut frequencies = vec![0.0; self.index.len()];
                self.matcher.count(text, &mut frequencies);
                for_each_term(name, &mut scratch, |term| {
                    if let Some(&i) = self.index.get(term) {
                        frequencies[i] += SYMBOL_WEIGHT;
                    }
                });
                frequencies
            })
            .collect();
        let lengths: Vec<f64> = definitions.iter().map(|(_, t)| t.len() as f64).collect();
        bm25(&frequencies, &lengths)
    }
}

/// The BM25 score of each document from its terms' `frequencies` and its
/// length.
fn bm25(frequencies: &[Vec<f64>], lengths: &[f64]) -> Vec<f64> {
    let n = frequencies.len() as f64;
    let terms = frequencies.first().map_or(0, Vec::len);
    let average_length = (lengths.iter().sum::<f64>() / n.max(1.0)).max(1.0);
    let idf: Vec<f64> = (0..terms)
        .map(|i| {
            let df = frequencies.iter().filter(|f| f[i] > 0.0).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    frequencies
        .iter()
        .zip(lengths)
        .map(|(frequencies, length)| {
            let norm = 1.0 - B + B * length / average_length;
            frequencies
                .iter()
                .zip(&idf)
                .map(|(&tf, idf)| idf * tf * (K1 + 1.0) / (tf + K1 * norm))
                .sum()
        })
        .collect()
}

/// Counts query terms in text (ASCII case folded): an occurrence counts
/// when it starts and ends at an identifier part's boundary (see
/// [`for_each_term`]: a non-word character, `_`, or a `camelCase` change).
/// Each term is searched in the forms that fold to it: itself, its plural
/// (`station` → `stations`, `policy` → `policies`), and for a compound term
/// also without `_` (`get_event_loop` finds `getEventLoop`).
///
/// Every file's text is searched when a query is given, once, as it is:
/// one vectorized search finds where any term's forms may start (the
/// first bytes of the prefix they share, in every ASCII case), and the
/// forms are compared there; one automaton for all forms reads a byte at
/// a time, several times slower, and a lower-cased copy of each text cost
/// a pass and its memory.
pub struct TextMatcher {
    searches: Vec<Search>,
    /// Where a search's prefix may start: its first [`HEAD`] bytes in
    /// every ASCII case, found by one vectorized search of the text as it
    /// is (no folded copy).
    heads: Option<AhoCorasick>,
}

/// How many of a prefix's first bytes the vectorized search looks for.
const HEAD: usize = 3;

/// The forms that share a prefix.
struct Search {
    /// The prefix (lower case).
    prefix: Vec<u8>,
    /// The forms (lower case), each with its term.
    forms: Vec<(Vec<u8>, usize)>,
}

impl TextMatcher {
    /// A matcher for `terms` (as [`for_each_term`] gives them).
    pub fn new(terms: &[String]) -> Self {
        let mut searches = Vec::new();
        for (i, term) in terms.iter().enumerate() {
            let term = term.to_ascii_lowercase();
            // A term and its plurals share one search; its compound form
            // (without `_`) has its own.
            let mut forms = vec![term.clone()];
            if !term.ends_with('s') {
                forms.push(format!("{term}s"));
            }
            if let Some(stem) = term.strip_suffix('y') {
                forms.push(format!("{stem}ies"));
            }
            let prefix = common_prefix(&forms);
            let mut groups = if prefix.is_empty() {
                forms.into_iter().map(|form| vec![form]).collect()
            } else {
                vec![forms]
            };
            if term.contains('_') {
                groups.push(vec![term.replace('_', "")]);
            }
            for group in groups.into_iter().filter(|group| !group[0].is_empty()) {
                searches.push(Search {
                    prefix: common_prefix(&group).as_bytes().to_vec(),
                    forms: group
                        .into_iter()
                        .map(|form| (form.into_bytes(), i))
                        .collect(),
                });
            }
        }
        let mut heads: Vec<Vec<u8>> = searches
            .iter()
            .flat_map(|search| case_variants(&search.prefix[..search.prefix.len().min(HEAD)]))
            .collect();
        heads.sort_unstable();
        heads.dedup();
        let heads = (!heads.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .build(&heads)
                .expect("a few short patterns make an automaton")
        });
        Self { searches, heads }
    }

    /// Adds each term's occurrences in `text` to `frequencies` (by term).
    pub fn count(&self, text: &str, frequencies: &mut [f64]) {
        let Some(heads) = &self.heads else {
            return;
        };
        let bytes = text.as_bytes();
        // Occurrences may overlap (`aa` twice in `aaa`): every start is
        // visited, each search's prefix checked there.
        let mut from = 0;
        while let Some(found) = heads.find(Input::new(bytes).range(from..)) {
            let start = found.start();
            from = start + 1;
            if !starts_part(bytes, start) {
                continue;
            }
            let rest = &bytes[start..];
            let begins = |lower: &[u8]| {
                rest.get(..lower.len())
                    .is_some_and(|b| b.eq_ignore_ascii_case(lower))
            };
            for search in self.searches.iter().filter(|search| begins(&search.prefix)) {
                for (form, term) in &search.forms {
                    if begins(form) && ends_part(bytes, start + form.len()) {
                        frequencies[*term] += 1.0;
                    }
                }
            }
        }
    }

    /// Every form, with its term.
    #[cfg(test)]
    fn forms(&self) -> impl Iterator<Item = &(Vec<u8>, usize)> {
        self.searches.iter().flat_map(|search| &search.forms)
    }
}

/// `bytes` in every ASCII case: each letter lower and upper case.
fn case_variants(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut variants = vec![Vec::new()];
    for &byte in bytes {
        let cases = if byte.is_ascii_alphabetic() {
            vec![byte.to_ascii_lowercase(), byte.to_ascii_uppercase()]
        } else {
            vec![byte]
        };
        variants = variants
            .into_iter()
            .flat_map(|variant| {
                cases.iter().map(move |&case| {
                    let mut longer = variant.clone();
                    longer.push(case);
                    longer
                })
            })
            .collect();
    }
    variants
}

/// The longest prefix all of `forms` share (`""` for none).
fn common_prefix(forms: &[String]) -> &str {
    let Some((first, rest)) = forms.split_first() else {
        return "";
    };
    let mut length = first.len();
    for form in rest {
        length = first
            .bytes()
            .zip(form.bytes())
            .take(length)
            .take_while(|(a, b)| a == b)
            .count();
    }
    // Cut back to a character boundary (forms are UTF-8).
    while !first.is_char_boundary(length) {
        length -= 1;
    }
    &first[..length]
}

/// Letters, digits and non-ASCII bytes make up words.
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte >= 0x80
}

/// Whether an identifier part can start at `at`.
fn starts_part(bytes: &[u8], at: usize) -> bool {
    let Some(&before) = at.checked_sub(1).and_then(|i| bytes.get(i)) else {
        return true;
    };
    let first = bytes[at];
    !is_word(before)
        || first.is_ascii_uppercase()
            && (before.is_ascii_lowercase()
                || before.is_ascii_digit()
                || before.is_ascii_uppercase()
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_lowercase))
}

/// Whether an identifier part can end just before `at`.
fn ends_part(bytes: &[u8], at: usize) -> bool {
    let Some(&after) = bytes.get(at) else {
        return true;
    };
    let last = bytes[at - 1];
    !is_word(after)
        || after.is_ascii_uppercase()
            && (last.is_ascii_lowercase()
                || last.is_ascii_digit()
                || last.is_ascii_uppercase()
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc<'a>(path: &'a str, text: &'a str) -> Document<'a> {
        Document {
            path,
            text,
            symbols: &[],
            role: FileRole::of(path),
        }
    }

    #[test]
    fn queries_split_like_code() {
        let query = Query::parse("fix(etag): plugins.radiko: the getEventLoop").unwrap();
        assert_eq!(
            query.terms(),
            [
                "fix",
                "etag",
                "plugin",
                "radiko",
                "get",
                "event",
                "loop",
                "get_event_loop"
            ]
        );
        assert_eq!(Query::parse("the of !!"), None);
    }

    /// BM25 by hand: two documents of equal length, "loop" in both, "etag"
    /// in one: the rare term decides.
    #[test]
    fn rare_terms_weigh_more_and_scores_match_the_formula() {
        let docs = [doc("a.py", "loop etag"), doc("b.py", "loop loop")];
        let scores = Query::parse("loop etag").unwrap().scores(&docs);
        // N = 2; df(loop) = 2, df(etag) = 1; both 9 bytes long, so norm = 1.
        let idf = |df: f64| (1.0f64 + (2.0 - df + 0.5) / (df + 0.5)).ln();
        let part = |tf: f64| tf * 2.2 / (tf + 1.2);
        let a = idf(2.0) * part(1.0) + idf(1.0) * part(1.0);
        let b = idf(2.0) * part(2.0);
        assert!((scores[0] - a).abs() < 1e-12 && (scores[1] - b).abs() < 1e-12);
        assert!(scores[0] > scores[1]);
    }

    #[test]
    fn text_matches_stop_at_identifier_parts() {
        let terms = [
            "event".to_owned(),
            "policy".to_owned(),
            "get_event_loop".to_owned(),
        ];
        let matcher = TextMatcher::new(&terms);
        let mut f = [0.0; 3];
        matcher.count(
            "Event events getEventLoop get_event_loop EVENT_LOOP eventual prevent policies",
            &mut f,
        );
        // event: Event, events, Event (in getEventLoop), event (get_event_loop), EVENT.
        assert_eq!(f, [5.0, 1.0, 2.0]);
    }

    /// The search stated plainly: every occurrence of every form, by one
    /// overlapping, case-folding Aho–Corasick search, kept where it starts
    /// and ends a part.
    fn counted_by_aho_corasick(terms: &[String], text: &str) -> Vec<f64> {
        let matcher = TextMatcher::new(terms);
        let forms: Vec<&(Vec<u8>, usize)> = matcher.forms().collect();
        let patterns: Vec<&[u8]> = forms.iter().map(|(f, _)| f.as_slice()).collect();
        let searcher = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&patterns)
            .unwrap();
        let bytes = text.as_bytes();
        let mut frequencies = vec![0.0; terms.len()];
        for found in searcher.find_overlapping_iter(text) {
            if starts_part(bytes, found.start()) && ends_part(bytes, found.end()) {
                frequencies[forms[found.pattern().as_usize()].1] += 1.0;
            }
        }
        frequencies
    }

    #[test]
    fn a_long_name_is_searched_whole() {
        let cores = TermCores::new(&["event_loop".to_owned(), "policy".to_owned()]);
        let long = |middle: &str| format!("{}{middle}{}", "x".repeat(70), "y".repeat(70));
        assert!(cores.may_be_in(&long("EVENTS")));
        assert!(cores.may_be_in(&long("Polici")));
        assert!(!cores.may_be_in(&long("Loop_even")));
    }

    proptest::proptest! {
        #[test]
        fn a_name_ruled_out_yields_no_query_term(
            query in "[a-dA-D_ ]{1,12}|policies|get_event_loop",
            name in "[a-dA-D_]{1,10}|getEventLoop|Policies|policyList|É[a-d]",
        ) {
            if let Some(query) = Query::parse(&query) {
                let cores = TermCores::new(&query.terms);
                let mut yields = false;
                for_each_term(&name, &mut String::new(), |term| {
                    yields |= query.terms.iter().any(|t| t == term);
                });
                proptest::prop_assert!(!yields || cores.may_be_in(&name));
            }
        }
    }

    #[test]
    fn occurrences_may_overlap() {
        // `aa` at 0 does not end a part; `aa` at 1 (`Aa`) is one.
        let mut f = [0.0];
        TextMatcher::new(&["aa".to_owned()]).count("aAa", &mut f);
        assert_eq!(f, [1.0]);
    }

    proptest::proptest! {
        #[test]
        fn the_search_finds_what_aho_corasick_finds(
            terms in proptest::collection::vec("[a-e_]{1,4}|aa|policy|é1", 1..5),
            parts in proptest::collection::vec(
                "[a-eA-E]{1,3}|[ _.\\n]|[0-9]|aaa|aA|policies|POLICY|é1|É",
                0..60,
            ),
        ) {
            let text = parts.concat();
            let mut found = vec![0.0; terms.len()];
            TextMatcher::new(&terms).count(&text, &mut found);
            proptest::prop_assert_eq!(found, counted_by_aho_corasick(&terms, &text));
        }
    }

    #[test]
    fn paths_and_symbols_count_and_tests_step_aside() {
        let symbols = ["Resolver"];
        let docs = [
            doc("src/resolver.rs", "x"),
            Document {
                path: "src/dns.rs",
                text: "x",
                symbols: &symbols,
                role: FileRole::Code,
            },
            doc("tests/resolver.rs", "x"),
            doc("src/other.rs", "resolver"),
        ];
        let scores = Query::parse("resolver").unwrap().scores(&docs);
        assert!(scores[0] > scores[1] && scores[1] > scores[3], "{scores:?}");
        assert!((scores[2] - scores[0] * 0.5).abs() < 1e-12);
        let asked = Query::parse("resolver tests").unwrap().scores(&docs);
        assert!(asked[2] >= asked[0], "{asked:?}");
        assert_eq!(Query::parse("absent").unwrap().scores(&docs), [0.0; 4]);
    }
}
