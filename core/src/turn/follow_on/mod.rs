//! A turn cut off while a call of it followed a task (MCP's tasks extension) goes on after its
//! process stops: the task was stored with the turn's draft the moment the server made it, so
//! the sweeper that finds the draft does not save the turn as interrupted. It starts a turn of
//! the owner's in its place, which takes the draft over in one transaction (its rows stored,
//! the reply so far kept), follows the same task on the server, and goes on from its result as
//! the cut-off turn would have. The task never runs twice: only its result is fetched.
//!
//! What is not picked up: a stdio server's tasks end with the process that started it (the
//! server is asked, and says it knows no such task: the model is told); the step's calls after
//! the task's were never run nor stored, so the model sees its step as far as it ran. A turn
//! that cannot be started (its owner is gone, say) is saved as interrupted, as any other.

pub mod store;

use serde_json::json;

use super::draft::store::StoredDraft;
use super::pending::held_call::HeldCall;
use super::run::Turn;
use super::{TurnInput, TurnRequest, TurnRunner};
use crate::accounts::auth::{Caller, CallerVia};
use crate::error::{AppError, AppResult};
use palaver_contract::asks::AskSurface;
use store::TakeOver;

/// The cut-off turn a follow-on turn goes on from, and (once admitted) what it took over.
#[derive(Clone, Debug)]
pub struct FollowOn {
    pub(super) dead_turn: String,
    /// The call and its task, from the cut-off turn's draft.
    pub(super) task: Option<Box<HeldCall>>,
    /// The reply as far as it had streamed: the follow-on turn's reply goes on from it.
    pub(super) reply: String,
}

impl TurnRunner {
    /// Starts a turn that goes on from `draft`'s (its turn was cut off while a call of it
    /// followed a task). `AppError::ReplyRunning` when the draft is not to be taken: its turn
    /// runs still, or another sweeper took it first; another error when the turn cannot go on
    /// (the draft is then saved as interrupted).
    pub(super) async fn follow_on(&self, draft: &StoredDraft) -> AppResult<()> {
        let owner = crate::accounts::store::user_by_id(&self.pool, &draft.user_id).await?;
        // The turn speaks as the conversation's owner, as every turn does.
        let caller = Caller { user: owner.ok_or(AppError::UserNotFound)?, via: CallerVia::Session };
        let input =
            TurnInput::FollowOn(FollowOn { dead_turn: draft.turn_id.clone(), task: None, reply: String::new() });
        let request = TurnRequest::plain(caller, Some(draft.history_id.clone()), input, AskSurface::Full);
        // The turn runs on by itself; its events are in its log for any client that attaches.
        self.start(request).await.map(drop)
    }

    /// Takes the cut-off turn's draft over for the follow-on turn `turn_id` (admitted on
    /// `history_id` in the place `running_key`): its rows are stored, and the follow-on turn's
    /// first draft, with the task, takes its place.
    pub(super) async fn take_over(
        &self,
        history_id: &str,
        turn_id: &str,
        owner_id: &str,
        running_key: &str,
        follow_on: &mut FollowOn,
    ) -> AppResult<()> {
        let next = store::NextDraft { turn_id, history_id, user_id: owner_id, running_key };
        let instance_id = self.running.instance_id();
        let other_instances = self.running.other_instances();
        match store::take_over_draft(&self.pool, &follow_on.dead_turn, &next, instance_id, other_instances).await? {
            TakeOver::Taken(task, reply) => {
                (follow_on.task, follow_on.reply) = (Some(task), reply);
                Ok(())
            }
            TakeOver::Running => Err(AppError::ReplyRunning.into()),
            TakeOver::Unfollowable => {
                Err(AppError::BadRequest("The cut-off turn has no task to follow on from.".into()).into())
            }
        }
    }
}

impl Turn {
    /// The follow-on turn's start: the cut-off turn replayed as far as it got, its reply so far
    /// kept, and its call's task followed again to its result (or to what it asks).
    pub(super) async fn prepare_follow_on(&mut self) -> Option<String> {
        let TurnInput::FollowOn(follow_on) = &self.transcript.input else { return None };
        let (mut held, reply) = (*follow_on.task.clone()?, follow_on.reply.clone());
        self.replay_unfinished_turn();
        self.output.reply = reply;
        self.lifecycle.draft.follow(Some(held.clone()));
        if let Some(pause) = self.send_held_call_again(&mut held).await {
            self.lifecycle.held_pause = Some(pause);
        }
        Some(json!({"followedTask": held.input.task_id}).to_string())
    }
}
