//! User-part templates: text with `{{ name }}` placeholders.

use std::fmt;

/// A `{{` without a matching `}}`.
///
/// ```
/// use budget_runtime::contract::render_empty;
///
/// let err = render_empty("Hi {{ name").unwrap_err();
/// assert_eq!(err.offset_chars, 3);
/// assert_eq!(err.to_string(), "unclosed `{{` at character 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnclosedPlaceholder {
    /// 0-based character offset of the `{{`.
    pub offset_chars: usize,
}

impl fmt::Display for UnclosedPlaceholder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unclosed `{{{{` at character {}", self.offset_chars)
    }
}

impl std::error::Error for UnclosedPlaceholder {}

/// Renders a template with every placeholder empty: each `{{ … }}` (up to
/// the first `}}` after it) is removed and all other text is kept verbatim.
/// This is the fixed part of a user message, whatever the values will be.
///
/// ```
/// use budget_runtime::contract::render_empty;
///
/// assert_eq!(render_empty("Question: {{ question }}\nAnswer briefly.")?, "Question: \nAnswer briefly.");
/// assert_eq!(render_empty("no placeholders }}")?, "no placeholders }}");
/// # Ok::<(), budget_runtime::contract::UnclosedPlaceholder>(())
/// ```
///
/// # Errors
/// [`UnclosedPlaceholder`] when a `{{` is never closed.
pub fn render_empty(template: &str) -> Result<String, UnclosedPlaceholder> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after_open = &rest[open + 2..];
        let Some(close) = after_open.find("}}") else {
            let consumed = template.len() - rest.len() + open;
            return Err(UnclosedPlaceholder {
                offset_chars: template[..consumed].chars().count(),
            });
        };
        rest = &after_open[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_every_placeholder() {
        assert_eq!(render_empty("{{a}}{{ b }}x{{c}}").unwrap(), "x");
        assert_eq!(render_empty("").unwrap(), "");
        assert_eq!(
            render_empty("Context:\n{{ context }}\n---").unwrap(),
            "Context:\n\n---"
        );
    }

    #[test]
    fn placeholder_ends_at_first_close() {
        assert_eq!(render_empty("{{ a }} b }}").unwrap(), " b }}");
    }

    #[test]
    fn unclosed_offset_counts_characters() {
        assert_eq!(render_empty("é {{x}} ü {{ y").unwrap_err().offset_chars, 10);
    }
}
