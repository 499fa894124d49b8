//! User-part templates: text with one `{}` where the runtime inserts the
//! part's source text (Python `str.format` syntax: `{{` and `}}` are literal
//! braces).

use thiserror::Error;

/// A template the runtime could not fill.
///
/// ```
/// use budget::contract::{TemplateError, render_empty};
///
/// assert_eq!(render_empty("### User:\n{}\n\n")?, "### User:\n\n\n");
/// assert_eq!(render_empty("{{literal}} {}")?, "{literal} ");
/// assert_eq!(render_empty("no slot").unwrap_err(), TemplateError::NoSlot);
/// assert_eq!(render_empty("{} and {}").unwrap_err(), TemplateError::SecondSlot { offset_chars: 7 });
/// # Ok::<(), TemplateError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// No `{}` at all.
    #[error("the template has no `{{}}` slot for its source text")]
    NoSlot,
    /// A second `{}`: the runtime fills only one.
    #[error("a second `{{}}` at character {offset_chars}; a template has exactly one")]
    SecondSlot {
        /// Character offset of the second slot.
        offset_chars: usize,
    },
    /// A brace that is neither `{}`, `{{` nor `}}`.
    #[error(
        "unmatched or named brace at character {offset_chars}; write `{{{{` or `}}}}` for a literal brace"
    )]
    StrayBrace {
        /// Character offset of the brace.
        offset_chars: usize,
    },
}

/// The template with its `{}` replaced by nothing and `{{`/`}}` unescaped:
/// the fixed text a user part always costs.
///
/// # Errors
/// [`TemplateError`] when the template has no slot, two slots, or a stray
/// brace.
pub fn render_empty(template: &str) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(template.len());
    let mut slots = 0usize;
    let mut chars = template.chars().enumerate().peekable();
    while let Some((offset, c)) = chars.next() {
        match (c, chars.peek().map(|&(_, next)| next)) {
            ('{', Some('{')) | ('}', Some('}')) => {
                out.push(c);
                chars.next();
            }
            ('{', Some('}')) => {
                slots += 1;
                if slots > 1 {
                    return Err(TemplateError::SecondSlot {
                        offset_chars: offset,
                    });
                }
                chars.next();
            }
            ('{' | '}', _) => {
                return Err(TemplateError::StrayBrace {
                    offset_chars: offset,
                });
            }
            _ => out.push(c),
        }
    }
    if slots == 0 {
        return Err(TemplateError::NoSlot);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_templates() {
        assert_eq!(
            render_empty("\n<<<USER_QUESTION:\n{}\nUSER_QUESTION\n\n").unwrap(),
            "\n<<<USER_QUESTION:\n\nUSER_QUESTION\n\n"
        );
        assert_eq!(
            render_empty("<<<EVIDENCE:\n{}\nEVIDENCE")
                .unwrap()
                .chars()
                .count(),
            22
        );
    }

    #[test]
    fn braces() {
        assert_eq!(
            render_empty("{name}").unwrap_err(),
            TemplateError::StrayBrace { offset_chars: 0 }
        );
        assert_eq!(
            render_empty("é {} }").unwrap_err(),
            TemplateError::StrayBrace { offset_chars: 5 }
        );
        assert_eq!(render_empty("{{}}{}").unwrap(), "{}");
    }
}
