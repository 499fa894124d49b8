//! A file's one-line description for LINKED and SUMMARY entries: its
//! module documentation (Rust `//!`, a Python docstring, a leading `/** */`
//! or `//` comment block, a Markdown heading), else its first line that
//! says something. Never a bare quote, a shebang, a licence header or an
//! import.

/// Lines of a file read for its description.
const HEAD_LINES: usize = 200;

/// Characters a description keeps.
const MAX_CHARS: usize = 80;

/// The description of a file's `text`, at most [`MAX_CHARS`] characters:
/// a slice of the text.
pub fn description(text: &str) -> Option<&str> {
    // The documentation is at the top: the first lines are enough.
    let lines: Vec<&str> = text.lines().take(HEAD_LINES).map(str::trim).collect();
    let start = header_end(&lines);
    let body = &lines[start..];
    docstring_after_comments(body)
        .or_else(|| module_doc(body))
        .or_else(|| body.iter().copied().find(|line| says_something(line)))
        .map(cut)
}

/// A Python docstring after leading `#` comments (authors, modelines):
/// the docstring is the module's documentation, the comments are not.
fn docstring_after_comments<'t>(lines: &[&'t str]) -> Option<&'t str> {
    let skipped = lines
        .iter()
        .take_while(|l| l.is_empty() || (l.starts_with('#') && !l.starts_with("#!")))
        .count();
    let rest = &lines[skipped..];
    let quoted = ["\"\"\"", "'''", "r\"\"\"", "r'''"]
        .iter()
        .any(|q| rest.first().is_some_and(|l| l.starts_with(q)));
    if skipped > 0 && quoted {
        module_doc(rest)
    } else {
        None
    }
}

/// The index of the first line after a shebang, blank lines and a leading
/// comment block that is a licence or copyright notice.
fn header_end(lines: &[&str]) -> usize {
    let mut i = 0;
    if lines.first().is_some_and(|l| l.starts_with("#!")) {
        i = 1;
    }
    loop {
        while lines.get(i).is_some_and(|l| l.is_empty()) {
            i += 1;
        }
        let block = comment_block(&lines[i..]);
        if block > 0 && lines[i..i + block].iter().any(|l| is_legal(l)) {
            i += block;
            continue;
        }
        return i;
    }
}

/// How many lines at the start of `lines` form one comment block (`//`,
/// `#`, `--`, `;` line comments, or a `/* … */` block).
fn comment_block(lines: &[&str]) -> usize {
    let Some(first) = lines.first() else {
        return 0;
    };
    if first.starts_with("/*") {
        return lines
            .iter()
            .position(|l| l.contains("*/"))
            .map_or(lines.len(), |end| end + 1);
    }
    let comment = |line: &str, marker: &str| {
        line.starts_with(marker) && !line.starts_with("#!") && !is_directive(line)
    };
    let marker = ["//", "#", "--", ";"]
        .into_iter()
        .find(|m| comment(first, m));
    match marker {
        Some(marker) => lines.iter().take_while(|l| comment(l, marker)).count(),
        None => 0,
    }
}

/// Whether a line belongs to a licence or copyright notice.
fn is_legal(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    [
        "copyright",
        "licence",
        "license",
        "spdx-",
        "all rights reserved",
        "(c) ",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// The first line of the module documentation at the top of `lines`.
fn module_doc<'t>(lines: &[&'t str]) -> Option<&'t str> {
    let first = *lines.first()?;
    // Python docstring, possibly with the text on the next line.
    for quote in ["\"\"\"", "'''", "r\"\"\"", "r'''"] {
        if let Some(rest) = first.strip_prefix(quote) {
            let close = &quote[quote.len() - 3..];
            let inline = rest.trim_end_matches(close).trim();
            if !inline.is_empty() {
                return Some(inline);
            }
            return lines[1..]
                .iter()
                .take_while(|l| !l.starts_with(close))
                .copied()
                .find(|l| says_something(l));
        }
    }
    // Rust inner or outer docs, Javadoc-style blocks, comment blocks, headings.
    let block = comment_block(lines).max(usize::from(first.starts_with("//!")));
    let doc = lines[..block.max(1)]
        .iter()
        .filter(|l| !is_directive(l))
        .map(|l| strip_comment(l))
        .find(|l| says_something(l));
    doc.or_else(|| {
        Some(first)
            .filter(|line| !is_directive(line))?
            .strip_prefix('#')
            .map(|h| h.trim_start_matches('#').trim())
    })
    .filter(|l| says_something(l))
}

/// `line` without its comment markers.
fn strip_comment(line: &str) -> &str {
    line.trim_start_matches(['/', '!', '*', '#', '-', ';'])
        .trim_end_matches("*/")
        .trim()
}

/// Whether a line carries words: not blank, not only punctuation or quotes,
/// not a shebang, an import, a licence line, a bare opening, a Rust
/// attribute or a C preprocessor line.
fn says_something(line: &str) -> bool {
    let text = strip_comment(line);
    let words = text.chars().filter(|c| c.is_alphanumeric()).count();
    words >= 3
        && !line.starts_with("#!")
        && !is_directive(line)
        && !line.contains("-*-")
        && !is_legal(line)
        && ![
            "import ",
            "from ",
            "use ",
            "#include",
            "package ",
            "require(",
            "extern crate",
            "mod ",
            "using ",
            "@",
        ]
        .iter()
        .any(|prefix| text.starts_with(prefix))
        && !["\"\"\"", "'''", "{", "}", "(", ")"].contains(&text)
}

/// Whether `line` is code that starts with `#`: a Rust attribute
/// (`#[cfg(test)]`) or a C preprocessor line (`#ifndef SDS_H`). A comment
/// or a Markdown heading puts a space after its `#`.
fn is_directive(line: &str) -> bool {
    line.strip_prefix('#')
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c == '[' || c.is_ascii_alphabetic())
}

/// `line` cut to [`MAX_CHARS`] characters.
fn cut(line: &str) -> &str {
    let text = strip_comment(line);
    text.char_indices()
        .nth(MAX_CHARS)
        .map_or(text, |(end, _)| &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_docs_come_first() {
        let cases = [
            ("//! Tide prediction.\nfn x() {}", "Tide prediction."),
            (
                "#!/usr/bin/env python3\n\"\"\"Parse command-line options.\"\"\"\nimport os\n",
                "Parse command-line options.",
            ),
            (
                "\"\"\"\nBase64 encodings.\n\nMore text.\n\"\"\"\nimport binascii\n",
                "Base64 encodings.",
            ),
            (
                "# Copyright 2001 Python Software Foundation\n# Licensed under the PSF licence.\n\n\"\"\"Heap queue algorithm.\"\"\"\n",
                "Heap queue algorithm.",
            ),
            (
                "/*\n * Copyright (c) 2020 Example\n * SPDX-License-Identifier: MIT\n */\n/** Fast ring buffer. */\nclass Ring {}\n",
                "Fast ring buffer.",
            ),
            (
                "// Package bytesx adds byte helpers.\npackage bytesx\n",
                "Package bytesx adds byte helpers.",
            ),
            ("# Tide tables\n\nSome text.\n", "Tide tables"),
            (
                "# Author: Steven J. Bethard <steven@example.org>.\n\n\"\"\"Command-line parsing library\n\nMore.\n\"\"\"\n",
                "Command-line parsing library",
            ),
            (
                "# -*- Mode: Python; tab-width: 4 -*-\n#       Id: asynchat.py\n\nr\"\"\"A class supporting chat-style protocols.\"\"\"\n",
                "A class supporting chat-style protocols.",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(description(text), Some(expected), "{text:?}");
        }
    }

    #[test]
    fn never_a_bare_quote_shebang_licence_or_import() {
        let cases = [
            ("#!/bin/sh\nset -e\necho building the site\n", "set -e"),
            (
                "import errno\nimport os\n\ndef retry_on_eintr(call):\n    pass\n",
                "def retry_on_eintr(call):",
            ),
            (
                "\"\"\"\n\"\"\"\nx = compute_default_value()\n",
                "x = compute_default_value()",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(description(text), Some(expected), "{text:?}");
        }
        // Attributes and preprocessor lines are code, not comments.
        let attributed = "#![warn(missing_docs)]\nuse std::io;\n#[cfg(feature = \"std\")]\nuse std::fs;\nconst INPUT: &[u8] = b\"input\";\n";
        assert_eq!(
            description(attributed),
            Some("const INPUT: &[u8] = b\"input\";")
        );
        let header = "#ifndef SDS_H\n#define SDS_H\n#include <stdio.h>\ntypedef char *sds;\n";
        assert_eq!(description(header), Some("typedef char *sds;"));
        assert_eq!(description("# \n"), None);
        assert_eq!(description("{\n}\n"), None);
        assert_eq!(
            description(&"x".repeat(100)).map(|d| d.chars().count()),
            Some(80)
        );
    }
}
