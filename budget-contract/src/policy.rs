//! What to do when a step breaks its contract: fail fast (the default) or
//! auto-clamp (only when asked for explicitly).

use std::ffi::OsStr;
use std::fmt;
use std::str::FromStr;

use crate::ContractError;

/// The environment variable that selects the policy: `fail_fast` or
/// `auto_clamp`. Read only by [`policy_from_env`].
pub const POLICY_ENV_VAR: &str = "PIPELINE_LIMITS_POLICY";

/// What the check does with a step whose terms exceed the window.
///
/// Missing or invalid required values are errors under both policies.
///
/// ```
/// use budget::contract::Policy;
///
/// assert_eq!(Policy::default(), Policy::FailFast);
/// assert_eq!(" Auto_Clamp ".parse::<Policy>()?, Policy::AutoClamp);
/// assert_eq!(Policy::AutoClamp.to_string(), "auto_clamp");
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// The first violating step is an error naming the step, every term and
    /// the excess. The default.
    #[default]
    FailFast,
    /// Lower the pipeline-wide `max_context_tokens` to what the worst-case
    /// step allows, then a step's output limit if it still does not fit
    /// (see [`clamp_steps`](crate::clamp_steps)); each reduction is
    /// logged with `tracing::warn!` and returned. Configuration files are
    /// never written. A clamp that would reach 0 or below is an error.
    AutoClamp,
}

impl Policy {
    /// The configuration spelling: `fail_fast` or `auto_clamp`.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::FailFast => "fail_fast",
            Policy::AutoClamp => "auto_clamp",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = ContractError;

    /// Parses `fail_fast` or `auto_clamp`, ignoring surrounding whitespace
    /// and ASCII case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        [Policy::FailFast, Policy::AutoClamp]
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| ContractError::UnknownPolicy {
                origin: "policy".to_owned(),
                value: text.to_owned(),
            })
    }
}

/// The policy requested by [`POLICY_ENV_VAR`] in the process environment:
/// `None` when unset or blank. This is the only place the crate reads the
/// environment; pass its result to
/// [`Checker::policy_override`](crate::Checker::policy_override).
///
/// ```
/// use budget::contract::{Checker, ModelConfig, PromptStore, policy_from_env};
///
/// let model = ModelConfig::new(8_192, Some(1_024))?;
/// let prompts = PromptStore::new("prompts");
/// let checker = Checker::new(&model, &prompts).policy_override(policy_from_env()?);
/// # let _ = checker;
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
///
/// # Errors
/// [`ContractError::UnknownPolicy`] when the variable holds anything other
/// than `fail_fast` or `auto_clamp` (including non-UTF-8 bytes).
pub fn policy_from_env() -> Result<Option<Policy>, ContractError> {
    parse_policy_var(std::env::var_os(POLICY_ENV_VAR).as_deref())
}

/// Interprets a value of [`POLICY_ENV_VAR`] without touching the
/// environment: `None` or a blank value means "not set".
///
/// ```
/// use budget::contract::{Policy, parse_policy_var};
/// use std::ffi::OsStr;
///
/// assert_eq!(parse_policy_var(None)?, None);
/// assert_eq!(parse_policy_var(Some(OsStr::new("")))?, None);
/// assert_eq!(parse_policy_var(Some(OsStr::new("auto_clamp")))?, Some(Policy::AutoClamp));
/// assert!(parse_policy_var(Some(OsStr::new("clamp"))).is_err());
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
///
/// # Errors
/// [`ContractError::UnknownPolicy`] for any other value.
pub fn parse_policy_var(value: Option<&OsStr>) -> Result<Option<Policy>, ContractError> {
    let Some(raw) = value else { return Ok(None) };
    let unknown = || ContractError::UnknownPolicy {
        origin: POLICY_ENV_VAR.to_owned(),
        value: raw.to_string_lossy().into_owned(),
    };
    let text = raw.to_str().ok_or_else(unknown)?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| unknown())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_values() {
        assert_eq!(
            parse_policy_var(Some(OsStr::new("fail_fast"))).unwrap(),
            Some(Policy::FailFast)
        );
        assert_eq!(
            parse_policy_var(Some(OsStr::new("AUTO_CLAMP\n"))).unwrap(),
            Some(Policy::AutoClamp)
        );
        assert_eq!(parse_policy_var(Some(OsStr::new("   "))).unwrap(), None);
        let err = parse_policy_var(Some(OsStr::new("autoclamp"))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "PIPELINE_LIMITS_POLICY: unknown limits policy \"autoclamp\": expected \"fail_fast\" or \"auto_clamp\""
        );
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_env_value_is_an_error() {
        use std::os::unix::ffi::OsStrExt;
        let raw = OsStr::from_bytes(b"auto_clamp\xff");
        assert!(matches!(
            parse_policy_var(Some(raw)),
            Err(ContractError::UnknownPolicy { .. })
        ));
    }
}
