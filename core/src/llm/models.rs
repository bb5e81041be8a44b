//! The models a conversation may run on: `PALAVER_MODEL` (the default) and the choices of
//! `PALAVER_MODELS`, each built once at start-up.

use std::sync::Arc;

use super::{ChatModel, ProviderSettings, model_from_spec};
use palaver_wire::body::ModelOption;

/// One model a person may pick: its spec (`provider:model`, the id stored per conversation),
/// the label the picker shows, and the model itself.
#[derive(Clone)]
pub struct ModelChoice {
    pub id: String,
    pub label: String,
    pub model: Arc<dyn ChatModel>,
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
    /// `provider:model`, each with an optional `=Label`. With neither, the demo agent.
    pub fn from_settings(
        default_spec: Option<&str>,
        choices: Option<&str>,
        mock_log: Option<std::path::PathBuf>,
        providers: &ProviderSettings,
    ) -> Result<Models, String> {
        let mut entries: Vec<(String, Option<String>)> = Vec::new();
        for entry in choices.unwrap_or_default().split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
            let (spec, label) = match entry.split_once('=') {
                Some((spec, label)) => (spec.trim(), Some(label.trim()).filter(|label| !label.is_empty())),
                None => (entry, None),
            };
            if entries.iter().any(|(known, _)| known == spec) {
                return Err(format!("PALAVER_MODELS names \"{spec}\" twice."));
            }
            entries.push((spec.to_string(), label.map(str::to_string)));
        }
        match default_spec {
            Some(spec) => match entries.iter().position(|(known, _)| known == spec) {
                Some(index) => entries[..=index].rotate_right(1),
                None => entries.insert(0, (spec.to_string(), None)),
            },
            None if entries.is_empty() => entries.push(("demo".into(), None)),
            None => {}
        }
        let choices = entries
            .into_iter()
            .map(|(spec, label)| {
                let model = model_from_spec(&spec, mock_log.clone(), providers)
                    .map_err(|err| format!("PALAVER_MODELS: {err}"))?;
                Ok(ModelChoice { label: label.unwrap_or_else(|| spec.clone()), id: spec, model })
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
        Models(Arc::new(vec![ModelChoice { label: id.clone(), id, model }]))
    }
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
