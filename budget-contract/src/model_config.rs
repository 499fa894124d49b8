//! The model config (JSON): `model_context_window` and `model_max_tokens`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{ContractError, SourceLocation, read_config_file};

/// A model's limits, in tokens.
///
/// Loaded from JSON such as
/// `{"model_context_window": 16384, "model_max_tokens": 1024}`; other keys
/// (a model name, a provider) are ignored. `model_context_window` is
/// required and must be > 0. `model_max_tokens` is the default output limit
/// of steps that set none; it must be > 0 when present and is only required
/// when such a step exists.
///
/// ```
/// use budget::contract::ModelConfig;
///
/// let model = ModelConfig::from_json_str(
///     r#"{"name": "gpt-4o-mini", "model_context_window": 16384, "model_max_tokens": 1024}"#,
///     "model.json",
/// )?;
/// assert_eq!(model.context_window(), 16_384);
/// assert_eq!(model.max_tokens(), Some(1_024));
///
/// let broken = ModelConfig::from_json_str("{\n  \"model_context_window\": 16384,\n}", "model.json");
/// assert_eq!(
///     broken.unwrap_err().to_string(),
///     "model.json:3:1: invalid JSON: trailing comma"
/// );
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModelConfig {
    context_window: u64,
    max_tokens: Option<u64>,
    path: Option<PathBuf>,
}

#[derive(Deserialize)]
struct RawModelConfig {
    model_context_window: Option<i64>,
    model_max_tokens: Option<i64>,
}

impl ModelConfig {
    /// A model config built in code; `context_window` and `max_tokens` must be > 0.
    ///
    /// ```
    /// use budget::contract::ModelConfig;
    ///
    /// assert!(ModelConfig::new(8_192, None).is_ok());
    /// assert_eq!(
    ///     ModelConfig::new(0, None).unwrap_err().to_string(),
    ///     "<model config>: model_context_window 0 must be > 0"
    /// );
    /// ```
    ///
    /// # Errors
    /// [`ContractError::NotPositive`] for a zero value.
    pub fn new(context_window: u64, max_tokens: Option<u64>) -> Result<Self, ContractError> {
        let zero = |field| ContractError::NotPositive {
            location: SourceLocation::file("<model config>"),
            field,
            value: 0,
        };
        if context_window == 0 {
            return Err(zero("model_context_window"));
        }
        if max_tokens == Some(0) {
            return Err(zero("model_max_tokens"));
        }
        Ok(Self {
            context_window,
            max_tokens,
            path: None,
        })
    }

    /// Reads and validates the JSON model config at `path` (a regular file
    /// of at most [`MAX_CONFIG_FILE_BYTES`](crate::MAX_CONFIG_FILE_BYTES)).
    ///
    /// # Errors
    /// [`ContractError::Read`], [`ContractError::Json`] (with line and
    /// column), [`ContractError::Missing`] or [`ContractError::NotPositive`].
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ContractError> {
        let path = path.as_ref();
        let text = read_config_file(path).map_err(|source| ContractError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::from_json_str(&text, path)
    }

    /// Parses and validates a JSON model config; `path` is used in errors.
    ///
    /// # Errors
    /// As [`ModelConfig::load`], except reading.
    pub fn from_json_str(json: &str, path: impl AsRef<Path>) -> Result<Self, ContractError> {
        let path = path.as_ref();
        let raw: RawModelConfig = serde_json::from_str(json).map_err(|e| ContractError::Json {
            location: SourceLocation::at(
                path,
                u64::try_from(e.line()).unwrap_or(0),
                u64::try_from(e.column()).unwrap_or(0),
            ),
            message: json_message(&e),
        })?;
        Self::validated(raw.model_context_window, raw.model_max_tokens, path)
    }

    fn validated(
        window: Option<i64>,
        max_tokens: Option<i64>,
        path: &Path,
    ) -> Result<Self, ContractError> {
        let location = || SourceLocation::file(path);
        let window = window.ok_or_else(|| ContractError::Missing {
            location: location(),
            field: "model_context_window",
        })?;
        let context_window = positive(window, "model_context_window", location())?;
        let max_tokens = max_tokens
            .map(|v| positive(v, "model_max_tokens", location()))
            .transpose()?;
        Ok(Self {
            context_window,
            max_tokens,
            path: Some(path.to_owned()),
        })
    }

    /// The context window, in tokens (> 0).
    pub const fn context_window(&self) -> u64 {
        self.context_window
    }

    /// The model's default output limit, in tokens, if configured.
    pub const fn max_tokens(&self) -> Option<u64> {
        self.max_tokens
    }

    /// The file it was loaded from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

/// `value` as `u64` when it is > 0, otherwise [`ContractError::NotPositive`].
pub(crate) fn positive(
    value: i64,
    field: &'static str,
    location: SourceLocation,
) -> Result<u64, ContractError> {
    u64::try_from(value)
        .ok()
        .filter(|&v| v > 0)
        .ok_or(ContractError::NotPositive {
            location,
            field,
            value,
        })
}

/// `value` as `u64` when it is >= 0, otherwise [`ContractError::Negative`].
pub(crate) fn non_negative(
    value: i64,
    field: &'static str,
    location: SourceLocation,
) -> Result<u64, ContractError> {
    u64::try_from(value).map_err(|_| ContractError::Negative {
        location,
        field,
        value,
    })
}

/// serde_json appends " at line L column C"; the location is reported separately.
fn json_message(error: &serde_json::Error) -> String {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_window_is_an_error() {
        let err = ModelConfig::from_json_str(r#"{"model_max_tokens": 100}"#, "m.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.json: required setting model_context_window is missing"
        );
    }

    #[test]
    fn zero_and_negative_values_are_errors() {
        let err =
            ModelConfig::from_json_str(r#"{"model_context_window": -5}"#, "m.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.json: model_context_window -5 must be > 0"
        );
        let err = ModelConfig::from_json_str(
            r#"{"model_context_window": 5, "model_max_tokens": 0}"#,
            "m.json",
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "m.json: model_max_tokens 0 must be > 0");
    }

    #[test]
    fn malformed_json_names_file_line_and_column() {
        let json = "{\n  \"model_context_window\": 8192\n  \"model_max_tokens\": 512\n}";
        let err = ModelConfig::from_json_str(json, "cfg/model.json").unwrap_err();
        match &err {
            ContractError::Json { location, .. } => {
                assert_eq!(location.path, Path::new("cfg/model.json"));
                assert_eq!(location.line, Some(3));
            }
            other => panic!("expected a JSON error, got {other:?}"),
        }
        assert_eq!(
            err.to_string(),
            "cfg/model.json:3:3: invalid JSON: expected `,` or `}`"
        );
    }

    #[test]
    fn wrong_type_is_a_json_error_with_line() {
        let err = ModelConfig::from_json_str("{\"model_context_window\": \"big\"}", "m.json")
            .unwrap_err();
        assert!(
            matches!(err, ContractError::Json { ref location, .. } if location.line == Some(1)),
            "{err}"
        );
    }

    #[test]
    fn loads_from_file_and_remembers_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.json");
        std::fs::write(&path, r#"{"model_context_window": 4096}"#).unwrap();
        let model = ModelConfig::load(&path).unwrap();
        assert_eq!(model.context_window(), 4096);
        assert_eq!(model.max_tokens(), None);
        assert_eq!(model.path(), Some(path.as_path()));
        let missing = ModelConfig::load(dir.path().join("nope.json")).unwrap_err();
        assert!(matches!(missing, ContractError::Read { .. }));
    }
}
