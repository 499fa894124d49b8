//! The built-in model registry against LiteLLM's model registry
//! (`model_prices_and_context_window.json` of litellm 1.110.2, installed by
//! `scripts/references.sh`): every profile LiteLLM also lists has the same
//! window (LiteLLM's `max_input_tokens`, or input plus output where the
//! provider states both, as for GPT-5) and maximum output, except the
//! disagreements listed here with the provider's own figure.

use std::path::PathBuf;

use budget_prompt::profile::ModelRegistry;

/// (model, why ours differs from LiteLLM's figure).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "gpt-4",
        "OpenAI's model page gives 8,192 output tokens; LiteLLM 4,096",
    ),
    (
        "gemini-2.5-pro",
        "Google's model page gives 65,536 output tokens; LiteLLM 65,535",
    ),
    ("gemini-2.5-flash", "as gemini-2.5-pro"),
    ("gemini-2.5-flash-lite", "as gemini-2.5-pro"),
    (
        "gemini-3.5-flash",
        "as gemini-2.5-pro (LiteLLM's `gemini/` entry agrees: 65,536)",
    ),
    ("gemini-3-flash-preview", "as gemini-3.5-flash"),
    (
        "mistral-nemo-instruct-2407",
        "open weights limit output only by the window: ours plans 8,192 (the servers' common default), LiteLLM lists the API's 128,000",
    ),
];

#[test]
fn registry_matches_litellm() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/references/files/litellm_models.json");
    let data = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: run scripts/references.sh", path.display()));
    let litellm: serde_json::Value = serde_json::from_str(&data).unwrap();
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for profile in ModelRegistry::builtin().profiles() {
        let names = std::iter::once(&profile.name).chain(&profile.aliases);
        let entry = names
            .flat_map(|n| {
                ["", "gemini/", "deepseek/", "anthropic/", "mistral/"].map(|p| format!("{p}{n}"))
            })
            .find_map(|key| litellm.get(&key).map(|v| (key, v)));
        let Some((key, entry)) = entry else { continue };
        compared += 1;
        let input = entry["max_input_tokens"].as_u64().unwrap_or(0);
        let output = entry["max_output_tokens"].as_u64().unwrap_or(0);
        let window_ok = profile.context_window == input || profile.context_window == input + output;
        let output_ok = profile.max_output_tokens == output;
        let known = KNOWN_DIFFERENCES
            .iter()
            .any(|(name, _)| *name == profile.name);
        if (window_ok && output_ok) == known {
            mismatches.push(format!(
                "{} (LiteLLM {key}): ours {}/{}, LiteLLM {input}/{output}{}",
                profile.name,
                profile.context_window,
                profile.max_output_tokens,
                if known {
                    ", listed as a known difference but now agrees"
                } else {
                    ""
                }
            ));
        }
    }
    assert!(
        compared >= 25,
        "only {compared} profiles found in LiteLLM's registry"
    );
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}
