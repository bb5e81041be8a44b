//! Preferences: a person's custom instructions and default model (Settings), and the server's
//! settings an admin changes at run time (Admin): open sign-up and the models on offer. The
//! environment says where the server's start (`PALAVER_OPEN_SIGNUP`, `PALAVER_MODELS`); what an
//! admin saves is kept in the database, so every instance reads the same.

pub mod service;
pub mod store;

use crate::db::Pool;
use crate::error::AppResult;
use crate::llm::Models;
use palaver_wire::body::ModelOption;

const OPEN_SIGNUP: &str = "open_signup";
const HIDDEN_MODELS: &str = "hidden_models";

/// What the server offers now: the configured models less those an admin took off, and whether
/// anyone may sign up.
#[derive(Clone, Debug, Default)]
pub struct ServerChoices {
    /// An admin's choice, else the environment's.
    pub open_signup: Option<bool>,
    pub hidden_models: Vec<String>,
}

impl ServerChoices {
    pub async fn read(pool: &Pool) -> AppResult<ServerChoices> {
        let mut choices = ServerChoices::default();
        for (key, value) in store::server_settings(pool, [OPEN_SIGNUP, HIDDEN_MODELS]).await? {
            match key.as_str() {
                OPEN_SIGNUP => choices.open_signup = value.parse().ok(),
                _ => choices.hidden_models = serde_json::from_str(&value)?,
            }
        }
        Ok(choices)
    }

    /// Whether a configured model is on offer (the default always is).
    pub fn offers(&self, models: &Models, id: &str) -> bool {
        id == models.default_choice().id || !self.hidden_models.iter().any(|hidden| hidden == id)
    }

    /// What the picker lists, `preferred` (a person's default model, while it is on offer)
    /// marked as the default in the server's place.
    pub fn model_options(&self, models: &Models, preferred: Option<&str>) -> Vec<ModelOption> {
        let preferred = preferred.filter(|id| self.offers(models, id) && models.check(id).is_ok());
        models
            .options()
            .into_iter()
            .filter(|option| self.offers(models, &option.id))
            .map(|option| match preferred {
                Some(preferred) => ModelOption { default: option.id == preferred, ..option },
                None => option,
            })
            .collect()
    }

    /// Checks a model a request names: configured and on offer.
    pub fn check_model(&self, models: &Models, id: &str) -> Result<(), String> {
        models.check(id)?;
        if !self.offers(models, id) {
            return Err(format!("The model \"{id}\" is not offered on this server any more."));
        }
        Ok(())
    }
}
