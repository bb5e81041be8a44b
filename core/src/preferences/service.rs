//! What callers do with preferences: read and save a person's own, and (admins) the server's.
//! What every turn reads of a person's preferences is kept in memory until a save anywhere says
//! it changed (`kept`), so every save goes through [`Preferences`].

use super::{APPROVAL_ROUTES, HIDDEN_MODELS, OPEN_SIGNUP, ServerChoices, UNGRANTED_TOOLS, store};
use crate::db::Pool;
use crate::error::{AppError, AppResult};
use crate::kept::Kept;
use crate::llm::Models;
use crate::signals::Signals;
use palaver_wire::approvers::ApprovalRoute;
use palaver_wire::preferences::{INSTRUCTIONS_MAX_CHARS, ModelOffer, ServerSettings, UserPreferences};

/// A person's preferences as stored now (the defaults until they save any).
pub async fn user_preferences(pool: &Pool, user_id: &str) -> AppResult<UserPreferences> {
    Ok(store::user_preferences(pool, user_id)
        .await?
        .map(|(instructions, default_model)| UserPreferences { instructions, default_model })
        .unwrap_or_default())
}

/// The preferences service. Cloning shares it.
#[derive(Clone)]
pub struct Preferences {
    pool: Pool,
    people: Kept<UserPreferences>,
}

impl Preferences {
    pub fn new(pool: Pool, signals: &Signals) -> Self {
        Self { pool, people: Kept::new("preferences", signals) }
    }

    /// What the server offers now. Read afresh each time: an operator may write the settings'
    /// rows outside Palaver (the browser tests' fixtures do), which no signal tells.
    pub async fn server_choices(&self) -> AppResult<ServerChoices> {
        ServerChoices::read(&self.pool).await
    }

    /// A person's preferences (the defaults until they save any).
    pub async fn of(&self, user_id: &str) -> AppResult<UserPreferences> {
        self.people.read(user_id, || user_preferences(&self.pool, user_id)).await
    }

    /// Saves a person's preferences: instructions of at most [`INSTRUCTIONS_MAX_CHARS`], a
    /// default model among those on offer (none: the server's).
    pub async fn save_user_preferences(
        &self,
        models: &Models,
        user_id: &str,
        preferences: UserPreferences,
    ) -> AppResult<UserPreferences> {
        let instructions = preferences.instructions.trim().to_string();
        let length = instructions.chars().count();
        if length > INSTRUCTIONS_MAX_CHARS {
            let why =
                format!("Custom instructions can be at most {INSTRUCTIONS_MAX_CHARS} characters; these are {length}.");
            return Err(AppError::BadRequest(why).into());
        }
        let default_model = preferences.default_model.filter(|id| !id.trim().is_empty());
        if let Some(id) = &default_model {
            self.server_choices().await?.check_model(models, id).map_err(AppError::BadRequest)?;
        }
        store::save_user_preferences(&self.pool, user_id, &instructions, default_model.as_deref()).await?;
        self.people.changed(user_id).await;
        Ok(UserPreferences { instructions, default_model })
    }

    /// The server's settings as an admin sees them (the caller checks who asks);
    /// `open_signup_at_start` is the environment's.
    pub async fn server_settings(&self, models: &Models, open_signup_at_start: bool) -> AppResult<ServerSettings> {
        let choices = self.server_choices().await?;
        let offers = models
            .options()
            .into_iter()
            .map(|option| ModelOffer {
                offered: choices.offers(models, &option.id),
                id: option.id,
                label: option.label,
                default: option.default,
            })
            .collect();
        Ok(ServerSettings {
            open_signup: choices.open_signup.unwrap_or(open_signup_at_start),
            models: offers,
            ungranted_tools: choices.ungranted_tools,
            approval_routes: choices.approval_routes,
        })
    }

    /// Saves what an admin chose (the caller checks who asks): whether anyone may sign up, and
    /// which models are offered (the default always is; a model not configured is refused).
    pub async fn save_server_settings(
        &self,
        models: &Models,
        open_signup: bool,
        offered: &[String],
    ) -> AppResult<ServerSettings> {
        for id in offered {
            models.check(id).map_err(AppError::BadRequest)?;
        }
        let hidden: Vec<String> = models
            .options()
            .into_iter()
            .filter(|option| !option.default && !offered.contains(&option.id))
            .map(|option| option.id)
            .collect();
        store::save_server_setting(&self.pool, OPEN_SIGNUP, &open_signup.to_string()).await?;
        store::save_server_setting(&self.pool, HIDDEN_MODELS, &serde_json::to_string(&hidden)?).await?;
        self.server_settings(models, open_signup).await
    }

    /// Saves the tools whose approvals never offer a grant (the caller checks who asks): names as
    /// the model calls them (an MCP server's as `<server>__<tool>`), blank ones left out.
    pub async fn save_ungranted_tools(&self, tools: &[String]) -> AppResult<()> {
        let mut names: Vec<String> =
            tools.iter().map(|name| name.trim().to_string()).filter(|name| !name.is_empty()).collect();
        names.sort();
        names.dedup();
        if names.len() > MOST_UNGRANTED_TOOLS {
            return Err(AppError::BadRequest(format!("List at most {MOST_UNGRANTED_TOOLS} tools.")).into());
        }
        if let Some(odd) = names.iter().find(|name| name.chars().count() > 128 || name.chars().any(char::is_whitespace))
        {
            return Err(AppError::BadRequest(format!(
                "“{odd}” is not a tool name: a name has no spaces and at most 128 characters."
            ))
            .into());
        }
        store::save_server_setting(&self.pool, UNGRANTED_TOOLS, &serde_json::to_string(&names)?).await
    }

    /// Saves where approvals of given tools go (the caller checks who asks, and names each
    /// approver by id): a rule names a tool or a server, and asks for one approval or two.
    pub async fn save_approval_routes(&self, routes: &[ApprovalRoute]) -> AppResult<()> {
        for (index, route) in routes.iter().enumerate() {
            let number = index + 1;
            if route.tool.is_some() == route.server.is_some() {
                return Err(AppError::BadRequest(format!(
                    "Rule {number}: name either a \"tool\" or a \"server\", not both or neither."
                ))
                .into());
            }
            if !(1..=2).contains(&route.approvals) {
                return Err(AppError::BadRequest(format!(
                    "Rule {number}: \"approvals\" is 1, or 2 for two distinct approvers."
                ))
                .into());
            }
        }
        store::save_server_setting(&self.pool, APPROVAL_ROUTES, &serde_json::to_string(routes)?).await
    }
}

/// The most tool names the list of tools that never offer a grant holds.
const MOST_UNGRANTED_TOOLS: usize = 200;
