//! [`UnknownName`]: a name parsed into one of a closed set of values
//! matched none of them.

use std::fmt;

/// A name that is not one of the known names of a closed set (a content
/// type, an encoding); the message lists them and the closest one.
///
/// ```
/// use budget::estimate::{ContentType, Encoding};
///
/// let error = "markdwon".parse::<ContentType>().unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "unknown content type \"markdwon\": expected \"code\", \"prose\", \"yaml\" or \"markdown\"; did you mean \"markdown\"?"
/// );
/// assert_eq!("o200k".parse::<Encoding>().unwrap_err().name, "o200k");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnknownName {
    /// What was being named (`content type`, `encoding`).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names it could have been.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}: expected ", self.what, self.name)?;
        let last = self.expected.len().saturating_sub(1);
        for (index, name) in self.expected.iter().enumerate() {
            let separator = match index {
                0 => "",
                _ if index == last => " or ",
                _ => ", ",
            };
            write!(f, "{separator}{name:?}")?;
        }
        if let Some(close) = crate::closest(&self.name, self.expected.iter().copied()) {
            write!(f, "; did you mean {close:?}?")?;
        }
        Ok(())
    }
}
