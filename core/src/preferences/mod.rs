//! Preferences: a person's custom instructions and default model (Settings), and the server's
//! settings an admin changes at run time (Admin): open sign-up, the models on offer, the tools
//! whose approvals never offer a grant, and the approvals routed to someone other than the
//! person who asked. The
//! environment says where the server's start (`PALAVER_OPEN_SIGNUP`, `PALAVER_MODELS`); what an
//! admin saves is kept in the database, so every instance reads the same.

pub mod service;
pub mod store;

use crate::db::Pool;
use crate::error::AppResult;
use crate::llm::Models;
use palaver_wire::approvers::ApprovalRoute;
use palaver_wire::body::ModelOption;

const OPEN_SIGNUP: &str = "open_signup";
const HIDDEN_MODELS: &str = "hidden_models";
const UNGRANTED_TOOLS: &str = "ungranted_tools";
const APPROVAL_ROUTES: &str = "approval_routes";

/// What the server offers now: the configured models less those an admin took off, and whether
/// anyone may sign up.
#[derive(Clone, Debug, Default)]
pub struct ServerChoices {
    /// An admin's choice, else the environment's.
    pub open_signup: Option<bool>,
    pub hidden_models: Vec<String>,
    /// Tools (by name) whose approvals never offer a grant: every call is asked about.
    pub ungranted_tools: Vec<String>,
    /// Where approvals of given tools go instead of to the person who asked.
    pub approval_routes: Vec<ApprovalRoute>,
}

impl ServerChoices {
    pub async fn read(pool: &Pool) -> AppResult<ServerChoices> {
        let mut choices = ServerChoices::default();
        let keys = [OPEN_SIGNUP, HIDDEN_MODELS, UNGRANTED_TOOLS, APPROVAL_ROUTES];
        for (key, value) in store::server_settings(pool, keys).await? {
            match key.as_str() {
                OPEN_SIGNUP => choices.open_signup = value.parse().ok(),
                HIDDEN_MODELS => choices.hidden_models = serde_json::from_str(&value)?,
                UNGRANTED_TOOLS => choices.ungranted_tools = serde_json::from_str(&value)?,
                _ => choices.approval_routes = serde_json::from_str(&value)?,
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
