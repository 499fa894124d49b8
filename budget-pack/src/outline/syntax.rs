//! The walk over a syntax tree that collects definitions and the bodies a
//! skeleton leaves out.

use tree_sitter::{Node, Parser};

use super::focus::Span;
use super::language::{BLOCK_KINDS, DEFINITION_KINDS, FUNCTION_KINDS, Language};
use super::{Outline, saves_enough};

/// Kinds that are a declarator's name.
const NAME_KINDS: &[&str] = &[
    "destructor_name",
    "field_identifier",
    "identifier",
    "property_identifier",
    "type_identifier",
];

/// The outline of `text` in `language`; `None` if the parser gives up.
pub fn outline(language: Language, text: &str) -> Option<Outline<'_>> {
    let mut parser = Parser::new();
    parser.set_language(&language.grammar()).ok()?;
    let tree = parser.parse(text, None)?;
    let mut definitions = Vec::new();
    let mut bodies = Vec::new();
    let mut spans = Vec::new();
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
        if let Some(name) = defined {
            definitions.push(name);
        }
        if let Some(name) = defined.or_else(|| body.and_then(|_| defined_name(node, text))) {
            spans.push(span(node, body, name, text));
        }
        if let Some(body) = body {
            bodies.push(body);
        }
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        stack.extend(
            children
                .into_iter()
                .rev()
                .filter(|child| Some(child.id()) != body.map(|b| b.id())),
        );
    }
    bodies.sort_by_key(Node::start_byte);
    let skeleton = Some(skeleton(language, text, &bodies)).filter(|s| saves_enough(s, text));
    Some(Outline {
        definitions,
        skeleton,
        spans,
        comment: if language.is_python() { "#" } else { "//" },
    })
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

/// The lines of a definition `node` named `name`, with its function
/// `body` (if it has one) and the first and last lines of the nodes
/// around it.
fn span<'t>(node: Node<'_>, body: Option<Node<'_>>, name: &'t str, text: &str) -> Span<'t> {
    let mut context = Vec::new();
    let mut parent = node.parent();
    while let Some(around) = parent {
        if around.parent().is_some() && around.start_position().row != around.end_position().row {
            context.push(around.start_position().row);
            context.push(around.end_position().row);
        }
        parent = around.parent();
    }
    context.sort_unstable();
    context.dedup();
    Span {
        name,
        first: node.start_position().row,
        last: node.end_position().row,
        body: body.map(|b| body_lines(b, text)),
        context,
    }
}

/// The rows a left-out `body` takes on its own (half-open, possibly
/// empty): every row it spans, but the first when something precedes the
/// body on it or it holds only the opener (`{`), and the last when
/// something follows the body on it or it holds only the closer (`}`).
fn body_lines(body: Node<'_>, text: &str) -> std::ops::Range<usize> {
    let line_start = |byte: usize| text[..byte].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |byte: usize| text[byte..].find('\n').map_or(text.len(), |i| byte + i);
    let (start, end) = (body.start_byte(), body.end_byte());
    let own_first = text[line_start(start)..start].trim().is_empty()
        && text[start..line_end(start).min(end)].trim().len() > 1;
    let own_last = text[end..line_end(end)].trim().is_empty()
        && text[line_start(end).max(start)..end].trim().len() > 1;
    let first = body.start_position().row + usize::from(!own_first);
    let past = body.end_position().row + usize::from(own_last);
    first..past.max(first)
}

/// The name a definition node defines: its `name` field, or the name at
/// the end of its `declarator` chain (C and C++ functions and typedefs).
fn defined_name<'t>(node: Node<'_>, text: &'t str) -> Option<&'t str> {
    let mut current = node.child_by_field_name("name").or_else(|| {
        // C's `struct s;` and typedefs: only definitions with a body or a declarator.
        node.child_by_field_name("declarator")
    })?;
    // Through pointer, function, array and qualified declarators.
    for _ in 0..16 {
        if NAME_KINDS.contains(&current.kind()) {
            return text.get(current.byte_range()).filter(|n| !n.is_empty());
        }
        current = current
            .child_by_field_name("declarator")
            .or_else(|| current.child_by_field_name("name"))?;
    }
    None
}

/// `text` with each of `bodies` (sorted, not overlapping) replaced by its
/// elision.
fn skeleton(language: Language, text: &str, bodies: &[Node<'_>]) -> String {
    let mut out = String::with_capacity(text.len() / 2);
    let mut copied = 0;
    for body in bodies {
        let range = body.byte_range();
        if range.start < copied {
            continue;
        }
        out.push_str(&text[copied..range.start]);
        if language.is_python() {
            python_body(&mut out, *body, text);
        } else {
            out.push_str("{ … }");
        }
        copied = range.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// A Python body left out: its docstring's first paragraph, if it has a
/// docstring, then `...` on the body's indentation.
fn python_body(out: &mut String, body: Node<'_>, text: &str) {
    let start = body.start_byte();
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..start];
    let indent = if indent.trim().is_empty() { indent } else { "" };
    let docstring = body
        .named_child(0)
        .filter(|statement| statement.kind() == "expression_statement")
        .and_then(|statement| statement.named_child(0))
        .filter(|expression| expression.kind() == "string");
    match docstring.and_then(|d| text.get(d.byte_range())) {
        Some(docstring) => {
            out.push_str(first_paragraph(docstring, indent).as_ref());
            out.push('\n');
            out.push_str(indent);
            out.push_str("...");
        }
        None => out.push_str("..."),
    }
}

/// A docstring cut after its first paragraph, closed with its own quotes.
fn first_paragraph<'d>(docstring: &'d str, indent: &str) -> std::borrow::Cow<'d, str> {
    let quotes = ["\"\"\"", "'''"]
        .into_iter()
        .find(|q| docstring.ends_with(q) && docstring.len() >= 6);
    let Some(quotes) = quotes else {
        return docstring.into();
    };
    let blank = docstring.match_indices('\n').map(|(i, _)| i).find(|&i| {
        docstring[i + 1..]
            .trim_start_matches([' ', '\t'])
            .starts_with('\n')
    });
    match blank {
        Some(cut) if cut + quotes.len() < docstring.len() - quotes.len() => {
            format!("{}\n{indent}{quotes}", docstring[..cut].trim_end()).into()
        }
        _ => docstring.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(language: Language, text: &str) -> Outline<'_> {
        outline(language, text).unwrap()
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
}
