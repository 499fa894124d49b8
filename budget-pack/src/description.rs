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
    let mut head = Head::of(text);
    let start = header_end(&mut head);
    docstring_after_comments(&mut head, start)
        .or_else(|| module_doc(&mut head, start))
        .or_else(|| {
            (start..)
                .map_while(|i| head.line(i))
                .find(|line| says_something(line))
        })
        .map(cut)
}

/// The first [`HEAD_LINES`] lines of a text, trimmed, each split off the
/// text only when a rule first reads it: most files are described by
/// their first few lines.
struct Head<'t> {
    read: Vec<&'t str>,
    rest: std::iter::Take<std::str::Lines<'t>>,
}

impl<'t> Head<'t> {
    fn of(text: &'t str) -> Self {
        Self {
            read: Vec::new(),
            rest: text.lines().take(HEAD_LINES),
        }
    }

    /// Line `index` (from 0), trimmed, if the head has that many.
    fn line(&mut self, index: usize) -> Option<&'t str> {
        while self.read.len() <= index {
            self.read.push(self.rest.next()?.trim());
        }
        Some(self.read[index])
    }
}

/// The quotes a Python docstring opens with.
const DOCSTRING_QUOTES: [&str; 4] = ["\"\"\"", "'''", "r\"\"\"", "r'''"];

/// A Python docstring after leading `#` comments (authors, modelines) from
/// line `from`: the docstring is the module's documentation, the comments
/// are not.
fn docstring_after_comments<'t>(head: &mut Head<'t>, from: usize) -> Option<&'t str> {
    let mut rest = from;
    while head
        .line(rest)
        .is_some_and(|l| l.is_empty() || (l.starts_with('#') && !l.starts_with("#!")))
    {
        rest += 1;
    }
    let quoted = head
        .line(rest)
        .is_some_and(|l| DOCSTRING_QUOTES.iter().any(|q| l.starts_with(q)));
    if rest > from && quoted {
        module_doc(head, rest)
    } else {
        None
    }
}

/// The index of the first line after a shebang, blank lines and a leading
/// comment block that is a licence or copyright notice.
fn header_end(head: &mut Head<'_>) -> usize {
    let mut i = 0;
    if head.line(0).is_some_and(|l| l.starts_with("#!")) {
        i = 1;
    }
    loop {
        while head.line(i).is_some_and(str::is_empty) {
            i += 1;
        }
        let block = comment_block(head, i);
        if block > 0 && (i..i + block).any(|j| head.line(j).is_some_and(is_legal)) {
            i += block;
            continue;
        }
        return i;
    }
}

/// How many lines from line `from` form one comment block (`//`, `#`,
/// `--`, `;` line comments, or a `/* … */` block, which runs to the end of
/// the head when it is not closed).
fn comment_block(head: &mut Head<'_>, from: usize) -> usize {
    let Some(first) = head.line(from) else {
        return 0;
    };
    let mut end = from;
    if first.starts_with("/*") {
        while let Some(line) = head.line(end) {
            end += 1;
            if line.contains("*/") {
                break;
            }
        }
        return end - from;
    }
    let comment = |line: &str, marker: &str| {
        line.starts_with(marker) && !line.starts_with("#!") && !is_directive(line)
    };
    let Some(marker) = ["//", "#", "--", ";"]
        .into_iter()
        .find(|m| comment(first, m))
    else {
        return 0;
    };
    while head.line(end).is_some_and(|line| comment(line, marker)) {
        end += 1;
    }
    end - from
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

/// The first line of the module documentation at line `from`.
fn module_doc<'t>(head: &mut Head<'t>, from: usize) -> Option<&'t str> {
    let first = head.line(from)?;
    // Python docstring, possibly with the text on the next line.
    for quote in DOCSTRING_QUOTES {
        if let Some(rest) = first.strip_prefix(quote) {
            let close = &quote[quote.len() - 3..];
            let inline = rest.trim_end_matches(close).trim();
            if !inline.is_empty() {
                return Some(inline);
            }
            return (from + 1..)
                .map_while(|i| head.line(i))
                .take_while(|l| !l.starts_with(close))
                .find(|l| says_something(l));
        }
    }
    // Rust inner or outer docs, Javadoc-style blocks, comment blocks, headings.
    let block = comment_block(head, from).max(usize::from(first.starts_with("//!")));
    let doc = (from..from + block.max(1))
        .map_while(|i| head.line(i))
        .filter(|l| !is_directive(l))
        .map(strip_comment)
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
