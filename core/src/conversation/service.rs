//! Conversation actions, shared by the JSON API (`/gpt/histories…`) and the server functions:
//! list, create, read (authorize, then the view), rename, delete and stop.

use std::collections::HashMap;

use crate::db::Pool;

use super::BlocksSettings;
use super::access::{HistoryAccess, authorize_history};
use super::kept_checks::checked_documents;
use super::running::RunningTurns;
use super::store::{FreshCheck, ReadView};
use super::{pages, store, window};
use crate::accounts::auth::Caller;
use crate::error::{AppError, AppResult, Error};
use crate::live::LiveHub;
use crate::llm::Models;
use crate::preferences::ServerChoices;
use palaver_wire::body::ModelOption;
use palaver_wire::conversation::model::{HistorySummary, HistoryView, Rating, check_title};
use palaver_wire::conversation::page::{PageCursor, PageRequest, Paged};
use palaver_wire::conversation::window::{RowsWanted, WINDOW_ROWS};
use palaver_wire::live::{HistoryChange, HistoryChanged, LiveEvent};

/// The conversations service (a substate of the app's state): the database, how replies are
/// checked as documents, and the running turns it can stop.
#[derive(Clone)]
pub struct Conversations {
    pub pool: Pool,
    /// Replies are block documents; `None` keeps them markdown.
    pub blocks: Option<BlocksSettings>,
    pub running: RunningTurns,
    /// Where changes are told to the owner's tabs and devices.
    pub live: LiveHub,
    /// The models a conversation may choose.
    pub models: Models,
}

/// The most characters of a search that are looked for.
pub const SEARCH_MAX_LENGTH: usize = 200;

impl Conversations {
    pub fn new(
        pool: Pool,
        blocks: Option<BlocksSettings>,
        running: RunningTurns,
        live: LiveHub,
        models: Models,
    ) -> Self {
        Self { pool, blocks, running, live, models }
    }

    pub(super) async fn tell(&self, caller: &Caller, history_id: &str, change: HistoryChange, title: Option<String>) {
        let event = HistoryChanged { history_id: history_id.to_string(), change, title };
        self.live.publish(&caller.user.id, LiveEvent::HistoryChanged(event)).await;
    }

    /// A page of the caller's archived conversations (`archived`) or of the others, most
    /// recently active first (ties broken by id), after `page.before`; with `search`, those whose
    /// title or messages hold it (a search of only spaces lists them all). One statement.
    pub async fn list_page(
        &self,
        caller: &Caller,
        search: Option<&str>,
        archived: bool,
        page: &PageRequest,
    ) -> AppResult<Paged<Vec<HistorySummary>>> {
        let search: Option<String> = search
            .map(str::trim)
            .filter(|search| !search.is_empty())
            .map(|search| search.chars().take(SEARCH_MAX_LENGTH).collect());
        let mut found =
            pages::store::page_of_histories(&self.pool, &caller.user.id, archived, search.as_deref(), page).await?;
        let limit = usize::try_from(page.limit).unwrap_or(usize::MAX);
        let more = found.len() > limit;
        found.truncate(limit);
        let next_before = if more { found.last().map(|last| PageCursor::after(last).encode()) } else { None };
        Ok(Paged { data: found, more, next_before })
    }

    /// The conversations of `list_page`, each whole: six statements a page, however many
    /// conversations it holds. One deleted between the list and its read is left out.
    pub async fn document_page(
        &self,
        caller: &Caller,
        search: Option<&str>,
        archived: bool,
        page: &PageRequest,
    ) -> AppResult<Paged<Vec<HistoryView>>> {
        let Paged { data, more, next_before } = self.list_page(caller, search, archived, page).await?;
        let ids: Vec<String> = data.into_iter().map(|summary| summary.id).collect();
        let views = pages::store::load_histories(&self.pool, &ids).await?;
        let states = pages::store::block_states_of(&self.pool, &ids).await?;
        let running = pages::store::running_among(&self.pool, &ids).await?;
        let mut views = self.as_shown(views, states).await?;
        for view in &mut views {
            view.running = running.contains(&view.id);
        }
        Ok(Paged { data: views, more, next_before })
    }

    /// The models a conversation of the caller's may run on now (an admin may have taken some
    /// off), the server's default first; the one marked default is the one a conversation that
    /// chose none runs on for the caller (their own default, else the server's).
    pub async fn model_options(&self, caller: &Caller) -> AppResult<Vec<ModelOption>> {
        let preferred = crate::preferences::service::user_preferences(&self.pool, &caller.user.id).await?.default_model;
        Ok(ServerChoices::read(&self.pool).await?.model_options(&self.models, preferred.as_deref()))
    }

    /// Checks a model a request names: configured and on offer.
    async fn check_model(&self, model: &str) -> AppResult<()> {
        ServerChoices::read(&self.pool).await?.check_model(&self.models, model).map_err(AppError::BadRequest)?;
        Ok(())
    }

    /// Starts an empty conversation owned by the caller, on `model` (else the default).
    pub async fn create(&self, caller: &Caller, model: Option<&str>) -> AppResult<HistoryView> {
        if let Some(model) = model {
            self.check_model(model).await?;
        }
        let mut created = store::create_history(&self.pool, &caller.user.id, model).await?;
        self.tell(caller, &created.id, HistoryChange::Created, None).await;
        // Nothing in it to read or check: shown as a read would show it.
        created.model = Some(self.models.for_conversation(created.model.as_deref()).id.clone());
        Ok(created)
    }

    /// Checks that the caller may read a conversation (its owner, or an admin).
    pub async fn authorize_read(&self, caller: &Caller, id: &str) -> AppResult<()> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Read).await
    }

    /// One conversation, for its owner or an admin.
    pub async fn read(&self, caller: &Caller, id: &str) -> AppResult<HistoryView> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Read).await?;
        self.view_now(id).await?.ok_or(AppError::HistoryNotFound.into())
    }

    /// The view, and whether a turn runs on the conversation now.
    async fn view_now(&self, id: &str) -> AppResult<Option<HistoryView>> {
        let Some(mut view) = self.view(id).await? else { return Ok(None) };
        view.running = self.running.is_running(id).await;
        Ok(Some(view))
    }

    /// Gives a conversation the caller owns a new title.
    pub async fn rename(&self, caller: &Caller, id: &str, title: &str) -> AppResult<HistorySummary> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        let title = check_title(title).map_err(AppError::BadRequest)?;
        let renamed = store::rename_history(&self.pool, id, &title).await?.ok_or(AppError::HistoryNotFound)?;
        self.tell(caller, id, HistoryChange::Renamed, renamed.title.clone()).await;
        Ok(renamed)
    }

    /// Rates the row at `index` of a conversation the caller owns (`None` takes it away).
    pub async fn rate(&self, caller: &Caller, id: &str, index: u64, rating: Option<Rating>) -> AppResult<()> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        store::rate_row(&self.pool, id, index, rating)
            .await?
            .ok_or_else(|| AppError::BadRequest("promptIndex out of range".into()).into())
    }

    /// Chooses the model a conversation the caller owns runs on from its next turn.
    pub async fn choose_model(&self, caller: &Caller, id: &str, model: &str) -> AppResult<HistorySummary> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        self.check_model(model).await?;
        store::set_history_model(&self.pool, id, model).await?.ok_or(AppError::HistoryNotFound.into())
    }

    /// Deletes a conversation the caller owns: it stops any turn running on it, leaves the
    /// lists, reads as not found, and its pending ask can no longer be listed or answered.
    pub async fn delete(&self, caller: &Caller, id: &str) -> AppResult<()> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        if !store::delete_history(&self.pool, id).await? {
            return Err(AppError::HistoryNotFound.into());
        }
        self.running.stop(id).await;
        self.tell(caller, id, HistoryChange::Deleted, None).await;
        Ok(())
    }

    /// Stops the turn running on a conversation the caller owns; false when none was running.
    /// With `stream`, only the turn of that stream (the one a tab shows).
    pub async fn stop(&self, caller: &Caller, id: &str, stream: Option<&str>) -> AppResult<bool> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        Ok(match stream {
            Some(stream) => self.running.stop_stream(id, stream).await,
            None => self.running.stop(id).await,
        })
    }

    /// A conversation as clients see it, without an access check (see `as_shown`).
    pub async fn view(&self, id: &str) -> AppResult<Option<HistoryView>> {
        let Some(read) = store::read_history(&self.pool, id).await? else { return Ok(None) };
        let states = pages::store::block_states_of(&self.pool, &[id.to_string()]).await?;
        Ok(self.as_shown(vec![read], states).await?.pop())
    }

    /// The rows a read wants of a conversation the caller may read (a window of it: the newest,
    /// those before a window, or a window's last exchange on), as `read` shows them: a fixed
    /// number of statements however long the conversation is.
    pub async fn read_window(&self, caller: &Caller, id: &str, wanted: RowsWanted) -> AppResult<HistoryView> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Read).await?;
        let read = window::store::read_rows(&self.pool, id, wanted, WINDOW_ROWS).await?;
        let read = read.ok_or(AppError::HistoryNotFound)?;
        let states = pages::store::block_states_of(&self.pool, &[id.to_string()]).await?;
        let mut view = self.as_shown(vec![read], states).await?.pop().ok_or(AppError::HistoryNotFound)?;
        view.running = self.running.is_running(id).await;
        Ok(view)
    }

    /// Conversations as clients see them: each names the model it runs on, and each document
    /// reply carries its check (kept with it, or made again when this server's block settings
    /// changed since: `kept_checks`), with the blocks host actions changed since (`states`, by
    /// conversation).
    async fn as_shown(
        &self,
        reads: Vec<ReadView>,
        mut states: HashMap<String, Vec<(String, String)>>,
    ) -> AppResult<Vec<HistoryView>> {
        let settings = self.blocks.clone().unwrap_or_default();
        let fingerprint = settings.fingerprint();
        let reads: Vec<(ReadView, Vec<(String, String)>)> = reads
            .into_iter()
            .map(|mut read| {
                read.view.model = Some(self.models.for_conversation(read.view.model.as_deref()).id.clone());
                let saved = states.remove(&read.view.id).unwrap_or_default();
                (read, saved)
            })
            .collect();
        // Parsing and checking a document is CPU work: off the async workers.
        let kept_with = fingerprint.clone();
        let (views, fresh): (Vec<HistoryView>, Vec<Vec<FreshCheck>>) = tokio::task::spawn_blocking(move || {
            reads.into_iter().map(|(read, saved)| checked_documents(&settings, &kept_with, read, saved)).unzip()
        })
        .await
        .map_err(Error::internal)?;
        let fresh: Vec<FreshCheck> = fresh.into_iter().flatten().collect();
        // A read shows what it checked even when keeping it fails: the next read checks again.
        if let Err(err) = store::keep_block_checks(&self.pool, &fingerprint, &fresh).await {
            tracing::warn!(%err, "block checks made on a read could not be kept");
        }
        Ok(views)
    }
}
