//! The models a conversation may run on: `PALAVER_MODEL` (the default) and the choices of
//! `PALAVER_MODELS`, each built once at start-up with its context budget.

use std::sync::Arc;

use super::{ChatModel, ProviderSettings, model_from_spec};
use palaver_wire::body::ModelOption;

/// One model a person may pick: its spec (`provider:model`, the id stored per conversation),
/// the label the picker shows, the model itself, and how many tokens a request to it may
/// hold (its context budget: the turn sends what fits).
#[derive(Clone)]
pub struct ModelChoice {
    pub id: String,
    pub label: String,
    pub model: Arc<dyn ChatModel>,
    pub context_tokens: u32,
}

/// The budget of a model no setting and no known family gives one (a local model's window is
/// often small: give it with `;context=`).
pub const FALLBACK_CONTEXT_TOKENS: u32 = 32_000;

/// A model's context budget when its entry names none: `configured` (`PALAVER_CONTEXT_TOKENS`)
/// when set, else the window its provider documents for the families Palaver is run with
/// (Claude 200k; GPT-4.1 1,047,576; GPT-5 400k; GPT-4o 128k), else, for the demo and the mock,
/// 64k (the browser tests' longest conversation, a 100,000-character message and a
/// 20,000-character reply, fits; a test that wants less sets `;context=`), else
/// [`FALLBACK_CONTEXT_TOKENS`].
pub fn default_context_tokens(spec: &str, configured: Option<u32>) -> u32 {
    if let Some(tokens) = configured {
        return tokens;
    }
    let (provider, model) = spec.split_once(':').unwrap_or((spec, ""));
    let families: [(&str, &str, u32); 6] = [
        ("anthropic", "claude", 200_000),
        ("openai", "gpt-4.1", 1_047_576),
        ("openai", "gpt-5", 400_000),
        ("openai", "gpt-4o", 128_000),
        ("demo", "", 64_000),
        ("mock", "", 64_000),
    ];
    families
        .iter()
        .find(|(family_provider, prefix, _)| provider == *family_provider && model.starts_with(prefix))
        .map_or(FALLBACK_CONTEXT_TOKENS, |(.., tokens)| *tokens)
}

/// An entry's own budget, written after it as `;context=TOKENS`: the spec without it, and it.
fn split_context(entry: &str) -> Result<(&str, Option<u32>), String> {
    let Some((spec, option)) = entry.rsplit_once(';') else { return Ok((entry, None)) };
    let tokens = option
        .trim()
        .strip_prefix("context=")
        .and_then(|tokens| tokens.trim().parse::<u32>().ok())
        .filter(|tokens| *tokens > 0)
        .ok_or_else(|| format!("\"{entry}\": write a model's context budget as \";context=<tokens>\"."))?;
    Ok((spec.trim(), Some(tokens)))
}

impl ModelChoice {
    /// Whether the model is offered tools and asks: an image model (its id says `image`) is
    /// not, as in the reference (Q.5).
    pub fn takes_tools(&self) -> bool {
        !self.id.contains("image")
    }
}

/// The configured models; the first is the default.
#[derive(Clone)]
pub struct Models(Arc<Vec<ModelChoice>>);

impl Models {
    /// `default_spec` (when set) first, then the entries of `choices`: comma-separated
    /// `provider:model`, each with an optional `=Label` and an optional `;context=TOKENS` (its
    /// budget, else [`default_context_tokens`]). With neither, the demo agent.
    pub fn from_settings(
        default_spec: Option<&str>,
        choices: Option<&str>,
        mock_log: Option<std::path::PathBuf>,
        providers: &ProviderSettings,
    ) -> Result<Models, String> {
        let mut entries: Vec<Entry> = Vec::new();
        for entry in choices.unwrap_or_default().split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
            let (entry, context) = split_context(entry).map_err(|err| format!("PALAVER_MODELS: {err}"))?;
            let (spec, label) = match entry.split_once('=') {
                Some((spec, label)) => (spec.trim(), Some(label.trim()).filter(|label| !label.is_empty())),
                None => (entry, None),
            };
            if entries.iter().any(|known| known.spec == spec) {
                return Err(format!("PALAVER_MODELS names \"{spec}\" twice."));
            }
            entries.push(Entry { spec: spec.to_string(), label: label.map(str::to_string), context });
        }
        match default_spec.map(split_context).transpose().map_err(|err| format!("PALAVER_MODEL: {err}"))? {
            Some((spec, context)) => match entries.iter().position(|known| known.spec == spec) {
                Some(index) => {
                    entries[index].context = context.or(entries[index].context);
                    entries[..=index].rotate_right(1)
                }
                None => entries.insert(0, Entry { spec: spec.to_string(), label: None, context }),
            },
            None if entries.is_empty() => entries.push(Entry { spec: "demo".into(), label: None, context: None }),
            None => {}
        }
        let choices = entries
            .into_iter()
            .map(|Entry { spec, label, context }| {
                let model = model_from_spec(&spec, mock_log.clone(), providers)
                    .map_err(|err| format!("PALAVER_MODELS: {err}"))?;
                let context_tokens = context.unwrap_or_else(|| default_context_tokens(&spec, providers.context_tokens));
                Ok(ModelChoice { label: label.unwrap_or_else(|| spec.clone()), id: spec, model, context_tokens })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Models(Arc::new(choices)))
    }

    pub fn default_choice(&self) -> &ModelChoice {
        &self.0[0]
    }

    /// The choice stored for a conversation; the default when none was stored, or when the
    /// stored one is no longer configured.
    pub fn for_conversation(&self, stored: Option<&str>) -> &ModelChoice {
        stored.and_then(|id| self.0.iter().find(|choice| choice.id == id)).unwrap_or_else(|| self.default_choice())
    }

    /// Checks a model a request names: it must be one of the configured ones.
    pub fn check(&self, id: &str) -> Result<(), String> {
        if self.0.iter().any(|choice| choice.id == id) {
            return Ok(());
        }
        let offered: Vec<&str> = self.0.iter().map(|choice| choice.id.as_str()).collect();
        Err(format!("Unknown model \"{id}\". This server offers: {}.", offered.join(", ")))
    }

    /// What the picker lists.
    pub fn options(&self) -> Vec<ModelOption> {
        let default = &self.default_choice().id;
        self.0
            .iter()
            .map(|choice| ModelOption {
                id: choice.id.clone(),
                label: choice.label.clone(),
                default: &choice.id == default,
            })
            .collect()
    }

    /// Only `model`, for tests and embedders that configure no choices.
    pub fn single(model: Arc<dyn ChatModel>) -> Models {
        let id = model.name().to_string();
        let context_tokens = default_context_tokens(&id, None);
        Models(Arc::new(vec![ModelChoice { label: id.clone(), id, model, context_tokens }]))
    }
}

/// One entry of the settings: its spec, label and budget, as written.
struct Entry {
    spec: String,
    label: Option<String>,
    context: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(models: &Models) -> Vec<(String, String, bool)> {
        models.options().into_iter().map(|option| (option.id, option.label, option.default)).collect()
    }

    fn from(default: Option<&str>, choices: Option<&str>) -> Result<Models, String> {
        Models::from_settings(default, choices, None, &ProviderSettings::default())
    }

    #[test]
    fn the_default_comes_first_and_keeps_its_label() {
        let models = from(Some("demo"), Some("openai:gpt-4o=GPT-4o, demo=Demo agent")).unwrap();
        assert_eq!(
            ids(&models),
            [("demo".into(), "Demo agent".into(), true), ("openai:gpt-4o".into(), "GPT-4o".into(), false)]
        );
        let added = from(Some("demo"), Some("openai:gpt-4o")).unwrap();
        assert_eq!(ids(&added)[0], ("demo".into(), "demo".into(), true));
        assert_eq!(ids(&added)[1], ("openai:gpt-4o".into(), "openai:gpt-4o".into(), false));
    }

    #[test]
    fn without_a_default_the_first_choice_is_it() {
        let models = from(None, Some("openai:a=A,openai:b")).unwrap();
        assert_eq!(models.default_choice().id, "openai:a");
        assert_eq!(from(None, None).unwrap().default_choice().id, "demo");
        assert_eq!(from(None, Some(" , ")).unwrap().default_choice().id, "demo");
    }

    #[test]
    fn bad_settings_say_what_is_wrong() {
        assert_eq!(from(None, Some("demo,demo")).err().unwrap(), "PALAVER_MODELS names \"demo\" twice.");
        let unknown = from(None, Some("gemini:pro")).err().unwrap();
        assert!(unknown.starts_with("PALAVER_MODELS: Unknown model \"gemini:pro\""), "{unknown}");
    }

    #[test]
    fn each_model_has_a_context_budget() {
        let models =
            from(Some("demo;context=9000"), Some("openai:gpt-4o=GPT-4o,openai:gpt-4.1=GPT-4.1;context=50000")).unwrap();
        let budgets: Vec<(&str, u32)> =
            models.0.iter().map(|choice| (choice.id.as_str(), choice.context_tokens)).collect();
        assert_eq!(budgets, [("demo", 9_000), ("openai:gpt-4o", 128_000), ("openai:gpt-4.1", 50_000)]);
        assert_eq!(default_context_tokens("openai:gpt-4.1-mini", None), 1_047_576);
        assert_eq!(default_context_tokens("anthropic:claude-sonnet-4-5", None), 200_000);
        assert_eq!(default_context_tokens("openai:llama3.1", None), FALLBACK_CONTEXT_TOKENS);
        assert_eq!(default_context_tokens("mock:script.json", None), 64_000);
        assert_eq!(default_context_tokens("anthropic:claude-opus-4", Some(64_000)), 64_000);
        let bad = from(None, Some("openai:a;context=lots")).err().unwrap();
        assert!(bad.contains("\";context=<tokens>\""), "{bad}");
    }

    #[test]
    fn a_conversation_falls_back_to_the_default() {
        let models = from(Some("demo"), Some("openai:gpt-4o")).unwrap();
        assert_eq!(models.for_conversation(Some("openai:gpt-4o")).id, "openai:gpt-4o");
        assert_eq!(models.for_conversation(Some("openai:retired")).id, "demo");
        assert_eq!(models.for_conversation(None).id, "demo");
        assert!(models.check("openai:gpt-4o").is_ok());
        assert_eq!(
            models.check("openai:other").err().unwrap(),
            "Unknown model \"openai:other\". This server offers: demo, openai:gpt-4o."
        );
    }
}
