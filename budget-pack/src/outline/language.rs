//! The grammars, and which of their node kinds are functions (whose
//! bodies a skeleton leaves out) and definitions (whose names the
//! reference graph uses).

/// A language with a grammar here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
}

impl Language {
    /// The language of the file at `path`, by its extension.
    pub fn of(path: &str) -> Option<Self> {
        let name = path.rsplit(['/', '\\']).next()?;
        let (_, extension) = name.rsplit_once('.')?;
        Some(match extension.to_ascii_lowercase().as_str() {
            "rs" => Self::Rust,
            "py" | "pyi" => Self::Python,
            "js" | "mjs" | "cjs" | "jsx" => Self::JavaScript,
            "ts" | "mts" | "cts" => Self::TypeScript,
            "tsx" => Self::Tsx,
            "go" => Self::Go,
            "java" => Self::Java,
            "c" | "h" => Self::C,
            "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => Self::Cpp,
            _ => return None,
        })
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Self::Rust => tree_sitter_rust::LANGUAGE.into(),
            Self::Python => tree_sitter_python::LANGUAGE.into(),
            Self::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Self::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Self::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Self::Go => tree_sitter_go::LANGUAGE.into(),
            Self::Java => tree_sitter_java::LANGUAGE.into(),
            Self::C => tree_sitter_c::LANGUAGE.into(),
            Self::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }

    /// Whether a left-out body reads `...` after the docstring (Python)
    /// rather than `{ … }`.
    pub fn is_python(self) -> bool {
        self == Self::Python
    }
}

/// Node kinds of functions and methods, in every grammar here: their
/// `body` field, when it is a block ([`BLOCK_KINDS`]), is left out of a
/// skeleton.
pub const FUNCTION_KINDS: &[&str] = &[
    "arrow_function",
    "compact_constructor_declaration",
    "constructor_declaration",
    "func_literal",
    "function_declaration",
    "function_definition",
    "function_expression",
    "function_item",
    "generator_function",
    "generator_function_declaration",
    "method_declaration",
    "method_definition",
];

/// Node kinds of a function's block body (an arrow function's expression
/// body is kept: it is short, and it is the signature's value).
pub const BLOCK_KINDS: &[&str] = &[
    "block",
    "compound_statement",
    "constructor_body",
    "statement_block",
];

/// Node kinds that define a name, in every grammar here.
pub const DEFINITION_KINDS: &[&str] = &[
    // Rust
    "const_item",
    "enum_item",
    "function_item",
    "function_signature_item",
    "macro_definition",
    "mod_item",
    "static_item",
    "struct_item",
    "trait_item",
    "type_item",
    "union_item",
    // Python
    "class_definition",
    "function_definition",
    // JavaScript, TypeScript
    "abstract_class_declaration",
    "class_declaration",
    "enum_declaration",
    "function_declaration",
    "generator_function_declaration",
    "interface_declaration",
    "method_definition",
    "type_alias_declaration",
    // Go
    "method_declaration",
    "type_spec",
    // Java
    "annotation_type_declaration",
    "record_declaration",
    // C, C++
    "class_specifier",
    "enum_specifier",
    "namespace_definition",
    "struct_specifier",
    "type_definition",
    "union_specifier",
];
