//! A context that fits the model: each call sends the system prompt, the tools and the newest
//! whole turns that fit the model's budget ([`fit`] says how tokens are counted); the turn now
//! running (its message, a pending ask's call and answer, its approvals) always goes. When
//! older turns are cut, a running summary of them, made by the model and stored, goes before
//! them in the system prompt. The summary is remade only once the cut passes what it covers:
//! a new one covers a quarter of the room more than it must. A summary that cannot be made
//! leaves the cut without one.

mod fit;
mod store;
mod summary;

use sha2::{Digest, Sha256};

use super::run::{Fitted, Turn};
use crate::llm::{CallPurpose, ModelMessage, ModelRequest};
use fit::{Sizes, reply_headroom, running_start, summary_reserve, text_tokens, tools_tokens};
use palaver_wire::conversation::model::HistoryRow;
use store::StoredSummary;
use summary::SUMMARY_INTRO;

/// A stored summary that still describes the messages before `cover`.
struct Covering {
    cover: usize,
    text: String,
}

/// The fingerprint of the messages a summary covers, as the model is shown them.
fn covered_hash(messages: &[ModelMessage]) -> String {
    let mut hasher = Sha256::new();
    for message in messages {
        hasher.update(serde_json::to_vec(message).unwrap_or_default());
    }
    hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect()
}

fn is_user_row(row: &HistoryRow) -> bool {
    matches!(row, HistoryRow::User { .. })
}

impl Turn {
    /// The request of the turn's next model call, fitted to the model's budget (the first
    /// call fits it; later steps only add to the running turn).
    pub(super) async fn model_request(&mut self) -> ModelRequest {
        // Read at each step: an app the person uses while the turn runs tells the next step.
        // (Its size is bounded, and counted when the first call fits the conversation.) Only the
        // app of a host tool's call in the version shown can have told it anything.
        let host_calls = self
            .transcript
            .rows
            .iter()
            .chain(&self.output.new_rows)
            .any(|row| matches!(row, HistoryRow::ToolCall { ask: None, client_tool: false, .. }));
        let section = match host_calls {
            true => crate::conversation::app_contexts::model_section(&self.runner.pool, &self.ids.history_id).await,
            false => Ok(None),
        };
        self.transcript.apps_section = section.unwrap_or_else(|err| {
            tracing::warn!(?err, "what the apps show was not read; the model is not told it");
            None
        });
        let fitted = match self.transcript.fitted.take() {
            Some(fitted) => fitted,
            None => self.fit(self.offer.context_tokens, false).await,
        };
        let mut system = self.system_prompt();
        if let Some(summary) = &fitted.summary {
            system = format!("{system}\n\n{SUMMARY_INTRO}\n{summary}");
        }
        if let Some(apps) = &self.transcript.apps_section {
            system = format!("{system}\n\n{apps}");
        }
        let messages = self.transcript.messages.get(fitted.cut..).unwrap_or_default().to_vec();
        self.transcript.fitted = Some(fitted);
        ModelRequest { system, messages, tools: self.tool_definitions(), purpose: CallPurpose::Turn }
    }

    /// The model refused the request as too long: fits it again in half the budget. False
    /// when it was shrunk once already, or half the budget sends no less.
    pub(super) async fn shrink_context(&mut self) -> bool {
        let (budget, cut) = match &self.transcript.fitted {
            Some(fitted) if !fitted.shrunk => (fitted.budget / 2, fitted.cut),
            _ => return false,
        };
        tracing::info!(
            history = self.ids.history_id,
            budget,
            "the model found the conversation too long: sending less"
        );
        let refitted = self.fit(budget, true).await;
        let sends_less = refitted.cut > cut;
        self.transcript.fitted = Some(refitted);
        sends_less
    }

    async fn fit(&mut self, budget: u32, shrunk: bool) -> Fitted {
        let fixed = text_tokens(&self.system_prompt())
            .saturating_add(text_tokens(self.transcript.apps_section.as_deref().unwrap_or_default()))
            .saturating_add(tools_tokens(&self.tool_definitions()))
            .saturating_add(reply_headroom(budget));
        let allowance = budget.saturating_sub(fixed);
        let running = running_start(&self.transcript.messages, self.transcript.replayed_len);
        let sizes = Sizes::of(&self.transcript.messages, running);
        let whole = Fitted { cut: 0, summary: None, budget, shrunk };
        if sizes.total() <= allowance {
            return whole;
        }
        let reserve = summary_reserve(budget);
        let needed = sizes.cut_for(allowance.saturating_sub(reserve));
        if needed == 0 {
            return whole;
        }
        let stored = self.stored_summary(running).await;
        if let Some(stored) = stored.as_ref().filter(|stored| stored.cover >= needed) {
            return Fitted { cut: stored.cover, summary: Some(stored.text.clone()), budget, shrunk };
        }
        let target = sizes.cut_for(allowance.saturating_sub(reserve) / 4 * 3).max(needed);
        let (earlier, from) = stored.map_or((None, 0), |stored| (Some(stored.text), stored.cover));
        let uncovered = &self.transcript.messages[from.min(target)..target];
        match summary::summarise(self.model.as_ref(), earlier, uncovered, budget, reserve).await {
            Ok((text, usage)) => {
                self.record.add_usage(&usage);
                self.save_summary(target, &text).await;
                Fitted { cut: target, summary: Some(text), budget, shrunk }
            }
            Err(err) => {
                let history = &self.ids.history_id;
                tracing::warn!(%err, history, "the earlier messages could not be summarised: they are left out");
                Fitted { cut: needed, summary: None, budget, shrunk }
            }
        }
    }

    /// The conversation's stored summary, when it still describes the messages it covers
    /// (none of them replaced since) and ends before the running turn.
    async fn stored_summary(&self, running: usize) -> Option<Covering> {
        let stored = match store::summary(&self.runner.pool, &self.ids.history_id).await {
            Ok(stored) => stored?,
            Err(err) => {
                tracing::warn!(?err, history = self.ids.history_id, "the conversation's summary could not be read");
                return None;
            }
        };
        let rows = &self.transcript.rows;
        let through =
            usize::try_from(stored.through_row).ok().filter(|&through| rows.get(through).is_some_and(is_user_row))?;
        let turns = rows[..through].iter().filter(|row| is_user_row(row)).count();
        let messages = &self.transcript.messages;
        let cover = messages
            .iter()
            .enumerate()
            .filter(|(_, message)| matches!(message, ModelMessage::User { .. }))
            .nth(turns)
            .map(|(index, _)| index)
            .filter(|&cover| cover <= running)?;
        (covered_hash(&messages[..cover]) == stored.covered_hash).then_some(Covering { cover, text: stored.text })
    }

    /// Stores the summary of the messages before `cover` (a message of the person's), by the
    /// row that message is (or, the running turn's own, will be) stored as.
    async fn save_summary(&self, cover: usize, text: &str) {
        let messages = &self.transcript.messages;
        let turns = messages[..cover].iter().filter(|message| matches!(message, ModelMessage::User { .. })).count();
        let rows = &self.transcript.rows;
        let through = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| is_user_row(row))
            .nth(turns)
            .map_or(rows.len(), |(index, _)| index);
        let summary = StoredSummary {
            through_row: i64::try_from(through).unwrap_or(i64::MAX),
            covered_hash: covered_hash(&messages[..cover]),
            text: text.to_string(),
        };
        if let Err(err) = store::save_summary(&self.runner.pool, &self.ids.history_id, &summary).await {
            tracing::warn!(?err, history = self.ids.history_id, "the conversation's summary could not be stored");
        }
    }
}
