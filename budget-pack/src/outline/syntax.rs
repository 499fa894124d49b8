//! The walk over a syntax tree that collects definitions and the bodies a
//! skeleton leaves out.

use std::ops::Range;

use tree_sitter::{Node, Parser};

use super::language::{BLOCK_KINDS, DEFINITION_KINDS, FUNCTION_KINDS, Language};
use super::parsed::{Body, Parsed, ParsedSpan, body_rows, narrow, narrow_range};

/// Kinds that are a declarator's name.
const NAME_KINDS: &[&str] = &[
    "destructor_name",
    "field_identifier",
    "identifier",
    "property_identifier",
    "type_identifier",
];

/// What the syntax tree of `text` in `language` says; `None` if the
/// parser gives up or the text is 4 GiB or more.
pub fn parse(language: Language, text: &str) -> Option<Parsed> {
    u32::try_from(text.len()).ok()?;
    let mut parser = Parser::new();
    parser.set_language(&language.grammar()).ok()?;
    let tree = parser.parse(text, None)?;
    let mut parsed = Parsed::default();
    // Depth-first, in source order, never into a function's body: what is
    // defined in there is local.
    let mut stack = vec![tree.root_node()];
    let mut cursor = tree.walk();
    while let Some(node) = stack.pop() {
        let kind = node.kind();
        let body = FUNCTION_KINDS
            .contains(&kind)
            .then(|| node.child_by_field_name("body"))
            .flatten()
            .filter(|body| BLOCK_KINDS.contains(&body.kind()));
        // `NS_BEGIN namespace detail { … }` (a macro before a namespace)
        // parses as a function with an error whose body holds the file:
        // it is no function, and what it holds is not local.
        if body.is_some_and(|body| node.has_error() && defines_inside(body, &mut cursor)) {
            stack.extend(
                node.children(&mut cursor)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            );
            continue;
        }
        let defined = DEFINITION_KINDS
            .contains(&kind)
            .then(|| defined_name(node, text))
            .flatten();
        if let Some(name) = defined.clone() {
            parsed.definitions.push(name);
        }
        if let Some(name) = defined.or_else(|| body.and_then(|_| defined_name(node, text))) {
            parsed.spans.push(span(node, body, name, text));
        }
        if let Some(body) = body {
            parsed.bodies.push(Body {
                bytes: narrow_range(body.byte_range()),
                docstring: docstring(body).filter(|_| language.is_python()),
            });
        }
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        stack.extend(
            children
                .into_iter()
                .rev()
                .filter(|child| Some(child.id()) != body.map(|b| b.id())),
        );
    }
    parsed.bodies.sort_by_key(|body| body.bytes.start);
    Some(parsed)
}

/// The byte range of the docstring a Python function `body` opens with.
fn docstring(body: Node<'_>) -> Option<Range<u32>> {
    body.named_child(0)
        .filter(|statement| statement.kind() == "expression_statement")
        .and_then(|statement| statement.named_child(0))
        .filter(|expression| expression.kind() == "string")
        .map(|string| narrow_range(string.byte_range()))
}

/// Node kinds that only appear at a namespace's or a file's level (or in
/// a class): a function body that holds one is not a function's.
const OUTER_KINDS: &[&str] = &[
    "class_specifier",
    "function_definition",
    "namespace_definition",
    "struct_specifier",
    "template_declaration",
];

/// Whether `body` directly holds a definition of [`OUTER_KINDS`].
fn defines_inside<'t>(body: Node<'t>, cursor: &mut tree_sitter::TreeCursor<'t>) -> bool {
    body.named_children(cursor)
        .any(|child| OUTER_KINDS.contains(&child.kind()))
}

/// The rows of a definition `node` whose name is at `name`, with its
/// function `body` (if it has one) and the first and last rows of the
/// nodes around it.
fn span(node: Node<'_>, body: Option<Node<'_>>, name: Range<u32>, text: &str) -> ParsedSpan {
    let mut context = Vec::new();
    let mut parent = node.parent();
    while let Some(around) = parent {
        if around.parent().is_some() && around.start_position().row != around.end_position().row {
            context.push(narrow(around.start_position().row));
            context.push(narrow(around.end_position().row));
        }
        parent = around.parent();
    }
    context.sort_unstable();
    context.dedup();
    ParsedSpan {
        name,
        first: narrow(node.start_position().row),
        last: narrow(node.end_position().row),
        body: body
            .map(|b| {
                let rows = (b.start_position().row, b.end_position().row);
                body_rows(text, b.byte_range(), rows)
            })
            .map(narrow_range),
        context,
    }
}

/// The byte range of the name a definition node defines: its `name`
/// field, or the name at the end of its `declarator` chain (C and C++
/// functions and typedefs).
fn defined_name(node: Node<'_>, text: &str) -> Option<Range<u32>> {
    let mut current = node.child_by_field_name("name").or_else(|| {
        // C's `struct s;` and typedefs: only definitions with a body or a declarator.
        node.child_by_field_name("declarator")
    })?;
    // Through pointer, function, array and qualified declarators.
    for _ in 0..16 {
        if NAME_KINDS.contains(&current.kind()) {
            return text
                .get(current.byte_range())
                .filter(|n| !n.is_empty())
                .map(|_| narrow_range(current.byte_range()));
        }
        current = current
            .child_by_field_name("declarator")
            .or_else(|| current.child_by_field_name("name"))?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Outline;

    fn parse(language: Language, text: &str) -> Outline<'_> {
        super::parse(language, text)
            .unwrap()
            .outline(language.is_python(), text)
            .unwrap()
    }

    #[test]
    fn rust_bodies_go_and_signatures_stay() {
        let text = "/// Adds.\npub fn add(a: u32, b: u32) -> u32 {\n    let c = a + b;\n    c\n}\n\npub struct Tally {\n    used: u64,\n}\n\nimpl Tally {\n    /// Used.\n    pub fn used(&self) -> u64 {\n        fn helper() {}\n        self.used + 0 + 0 + 0 + 0\n    }\n}\n";
        let o = parse(Language::Rust, text);
        assert_eq!(o.definitions, ["add", "Tally", "used"]);
        assert_eq!(
            o.skeleton.as_deref(),
            Some(
                "/// Adds.\npub fn add(a: u32, b: u32) -> u32 { … }\n\npub struct Tally {\n    used: u64,\n}\n\nimpl Tally {\n    /// Used.\n    pub fn used(&self) -> u64 { … }\n}\n"
            )
        );
    }

    #[test]
    fn python_keeps_the_docstrings_first_paragraph() {
        let text = "import os\n\nclass Loop:\n    \"\"\"An event loop.\n\n    Long story.\n    \"\"\"\n\n    def run(self, until):\n        \"\"\"Run until done.\n\n        More detail here.\n        \"\"\"\n        while True:\n            step()\n            step()\n\n    def stop(self): return 1\n";
        let o = parse(Language::Python, text);
        assert_eq!(o.definitions, ["Loop", "run", "stop"]);
        assert_eq!(
            o.skeleton.as_deref(),
            Some(
                "import os\n\nclass Loop:\n    \"\"\"An event loop.\n\n    Long story.\n    \"\"\"\n\n    def run(self, until):\n        \"\"\"Run until done.\n        \"\"\"\n        ...\n\n    def stop(self): ...\n"
            )
        );
    }

    #[test]
    fn c_names_come_through_declarators() {
        let text = "typedef struct node { int v; } node_t;\nstatic int *find(node_t *n, int v) {\n    while (n) { if (n->v == v) return &n->v; n = 0; }\n    return 0;\n}\n";
        let o = parse(Language::C, text);
        assert_eq!(o.definitions, ["node_t", "node", "find"]);
        assert!(
            o.skeleton
                .unwrap()
                .contains("static int *find(node_t *n, int v) { … }")
        );
    }

    #[test]
    fn a_macro_before_a_namespace_does_not_hide_what_it_holds() {
        // nlohmann/json's headers: tree-sitter reads the macro and the
        // namespace as a function whose body is the whole namespace.
        let text = "NS_BEGIN\nnamespace detail\n{\ntemplate<typename T>\nclass reader\n{\n  public:\n    bool parse(T t)\n    {\n        bool ok = t.ok();\n        ok = ok && t.valid();\n        ok = ok || t.retry();\n        return ok;\n    }\n};\n\nint helper(int x)\n{\n    int y = x * 2;\n    y = y + x * 3;\n    y = y - x / 5;\n    return y;\n}\n}\nNS_END\n";
        let o = parse(Language::Cpp, text);
        assert_eq!(o.definitions, ["reader", "parse", "helper"]);
        assert_eq!(
            o.skeleton.as_deref(),
            Some(
                "NS_BEGIN\nnamespace detail\n{\ntemplate<typename T>\nclass reader\n{\n  public:\n    bool parse(T t)\n    { … }\n};\n\nint helper(int x)\n{ … }\n}\nNS_END\n"
            )
        );
    }

    #[test]
    fn go_java_and_typescript_methods() {
        let go = "package io\n\nfunc (r *Reader) Read(p []byte) (int, error) {\n\treturn copy(p, r.buf), nil\n}\n\ntype Reader struct{ buf []byte }\n";
        let o = parse(Language::Go, go);
        assert_eq!(o.definitions, ["Read", "Reader"]);
        let java = "class Box { int size() { return items.length * 2 + offset - 1; } }\n";
        assert_eq!(parse(Language::Java, java).definitions, ["Box", "size"]);
        let ts = "export interface Shape { area(): number }\nexport function scale(s: Shape, k: number): Shape {\n  const factor = k * k;\n  const scaled = { area: () => s.area() * factor };\n  return scaled;\n}\n";
        let o = parse(Language::TypeScript, ts);
        assert_eq!(o.definitions, ["Shape", "scale"]);
        assert!(
            o.skeleton
                .unwrap()
                .contains("export function scale(s: Shape, k: number): Shape { … }")
        );
    }

    type Rows = (String, usize, usize, Option<(usize, usize)>);

    /// (name, first row, last row, body rows) of each span.
    fn spans(language: Language, text: &str) -> Vec<Rows> {
        parse(language, text)
            .spans
            .iter()
            .map(|s| {
                (
                    s.name.to_owned(),
                    s.first,
                    s.last,
                    s.body.clone().map(|b| (b.start, b.end)),
                )
            })
            .collect()
    }

    #[test]
    fn spans_name_their_rows_and_the_body_rows_a_skeleton_leaves_out() {
        let rust = "impl Tally {\n    pub fn used(&self) -> u64 {\n        self.used\n    }\n}\n";
        assert_eq!(
            spans(Language::Rust, rust),
            [("used".to_owned(), 1, 3, Some((2, 3)))]
        );
        assert_eq!(parse(Language::Rust, rust).spans[0].context, [0, 4]);
        let python = "class A:\n    def f(self):\n        x = 1\n        return x\n    def g(self): return 2\n";
        assert_eq!(
            spans(Language::Python, python),
            [
                ("A".to_owned(), 0, 4, None),
                ("f".to_owned(), 1, 3, Some((2, 4))),
                ("g".to_owned(), 4, 4, Some((5, 5))),
            ]
        );
        // Allman braces: the opener and closer lines stay.
        let c = "int f(int a)\n{\n    a += 1;\n    return a;\n}\n";
        assert_eq!(
            spans(Language::C, c),
            [("f".to_owned(), 0, 4, Some((2, 4)))]
        );
    }

    #[test]
    fn a_file_without_bodies_has_no_skeleton() {
        let o = parse(
            Language::Rust,
            "pub struct A;\npub trait B { fn b(&self); }\n",
        );
        assert_eq!(o.definitions, ["A", "B", "b"]);
        assert_eq!(o.skeleton, None);
    }

    #[test]
    fn broken_source_still_outlines() {
        let o = parse(
            Language::Python,
            "def f(:\n    return 1\nclass C:\n    pass\n",
        );
        assert!(o.definitions.contains(&"C"));
    }

    #[test]
    fn a_minified_line_of_functions_outlines_each() {
        let text = "function tide(h){return h*2};".repeat(5_000);
        let o = parse(Language::JavaScript, &text);
        assert_eq!(o.definitions.len(), 5_000);
        assert!(o.definitions.iter().all(|&name| name == "tide"));
        // Each body shares its row with what precedes and follows it.
        assert!(o.spans.iter().all(|s| s.body == Some(1..1)));
    }

    #[test]
    fn a_body_of_one_character_past_its_opener_owns_its_rows() {
        let rust = "fn a()\n{\n    1\n}\nfn b() { 2 } // b\nfn c() {é}\n";
        assert_eq!(
            spans(Language::Rust, rust),
            [
                ("a".to_owned(), 0, 3, Some((2, 3))),
                ("b".to_owned(), 4, 4, Some((5, 5))),
                ("c".to_owned(), 5, 5, Some((6, 6))),
            ]
        );
        // A two-byte character alone on the body's only row.
        let python = "def f():\n    é\n";
        assert_eq!(
            spans(Language::Python, python),
            [("f".to_owned(), 0, 1, Some((1, 2)))]
        );
    }
}
