//! [`Encoding`]: the OpenAI byte-pair encodings the library knows.

use std::fmt;

/// An OpenAI byte-pair encoding. It selects the fitted coefficients of the
/// [`CalibratedEstimator`](crate::estimate::CalibratedEstimator) and, with the
/// `exact` feature, the vocabulary of the exact
/// [`ExactCounter`](crate::estimate::ExactCounter).
///
/// ```
/// use budget::estimate::Encoding;
///
/// assert_eq!("o200k_base".parse::<Encoding>(), Ok(Encoding::O200kBase));
/// assert_eq!(Encoding::Cl100kBase.to_string(), "cl100k_base");
/// assert_eq!(Encoding::default(), Encoding::O200kBase);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Encoding {
    /// `o200k_base`: GPT-4o, GPT-4.1, o1, o3, o4-mini and later models.
    #[default]
    O200kBase,
    /// `cl100k_base`: GPT-4, GPT-3.5-turbo and the `text-embedding-3` models.
    Cl100kBase,
}

impl Encoding {
    /// Every encoding, in declaration order.
    pub const ALL: [Self; 2] = [Self::O200kBase, Self::Cl100kBase];

    /// The encoding's name as tiktoken spells it (`"o200k_base"`, …).
    ///
    /// ```
    /// assert_eq!(budget::estimate::Encoding::O200kBase.name(), "o200k_base");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Self::O200kBase => "o200k_base",
            Self::Cl100kBase => "cl100k_base",
        }
    }

    /// The encoding with this name, if any (usable in `const`).
    ///
    /// ```
    /// use budget::estimate::Encoding;
    /// assert_eq!(Encoding::from_name("cl100k_base"), Some(Encoding::Cl100kBase));
    /// assert_eq!(Encoding::from_name("p50k_base"), None);
    /// ```
    pub const fn from_name(name: &str) -> Option<Self> {
        match name.as_bytes() {
            b"o200k_base" => Some(Self::O200kBase),
            b"cl100k_base" => Some(Self::Cl100kBase),
            _ => None,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Encoding {
    type Err = crate::estimate::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_name(s).ok_or_else(|| crate::estimate::UnknownName {
            what: "encoding",
            name: s.to_owned(),
            expected: &["o200k_base", "cl100k_base"],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for encoding in Encoding::ALL {
            assert_eq!(encoding.name().parse::<Encoding>(), Ok(encoding));
        }
    }

    #[test]
    fn unknown_names_are_errors_with_the_name() {
        let err = "O200K_BASE".parse::<Encoding>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown encoding \"O200K_BASE\": expected \"o200k_base\" or \"cl100k_base\"; did you mean \"o200k_base\"?"
        );
        let err = "gpt2".parse::<Encoding>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown encoding \"gpt2\": expected \"o200k_base\" or \"cl100k_base\""
        );
    }
}
