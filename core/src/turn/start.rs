//! Starting a turn, in three steps: its admission (the checks that fail before a stream opens:
//! its place among the user's running turns, a redo's retraction, the conversation, the cancel
//! or the answer, the model), the turn built in its place (registered, its first draft
//! stored), and the turn spawned in its own task — all before the client hears it started.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::answer::Answer;
use super::draft_clock::DraftClock;
use super::redo::Retract;
use super::run::{EventStream, Lifecycle, Offer, Output, Previews, RequestRecord, Transcript, Turn, TurnIds};
use super::tools::ToolRegistry;
use super::{
    TurnHandle, TurnInput, TurnRequest, TurnRunner, check_prompt, check_system_prompt, client_tools, draft, waiting,
};
use crate::conversation::access::{HistoryAccess, authorize_owned};
use crate::conversation::running::{Registration, Reservation};
use crate::conversation::store as histories;
use crate::conversation::turn_log::TurnLog;
use crate::db::new_id;
use crate::error::{AppError, AppResult};
use palaver_contract::asks::AskSurface;
use palaver_wire::conversation::model::TurnEvent;
use palaver_wire::live::{HistoryChange, HistoryChanged, HistoryRef, LiveEvent};

/// Where an admitted request leaves off: an answer that went on in a running turn, or a turn
/// ready to run.
enum Admitted {
    Resumed(TurnHandle),
    Turn(Box<Ready>),
}

/// A turn admitted to its conversation, ready to be registered and run.
struct Ready {
    turn_id: String,
    owner_id: String,
    history_id: String,
    surface: AskSurface,
    model: Arc<dyn crate::llm::ChatModel>,
    offer: Offer,
    transcript: Transcript,
    /// Its first draft is stored (a redo stores it with its retraction).
    drafted: bool,
}

impl TurnRunner {
    /// Admits the request, builds its turn and spawns it in its own task. Before this returns (and so
    /// before a client hears the turn started), the turn holds its place among the user's
    /// running turns and its message is stored with what a sweeper needs to save it as
    /// interrupted: a message acknowledged is never lost.
    pub async fn start(&self, request: TurnRequest) -> AppResult<TurnHandle> {
        if let Some(model) = &request.model {
            self.preferences.server_choices().await?.check_model(&self.models, model).map_err(AppError::BadRequest)?;
        }
        if let Some(system_prompt) = &request.system_prompt {
            check_system_prompt(system_prompt)?;
        }
        client_tools::check(&request.client_tools, &self.tools())?;
        // An answer to a running tool's question goes on in a turn that is counted already.
        let resumes = match (&request.input, &request.history_id) {
            (TurnInput::Answer { tool_call_id, .. }, Some(history)) => self.waiting.is_waiting(history, tool_call_id),
            _ => false,
        };
        // Taking the pending ask (an answer, or a prompt's cancel) and joining the
        // conversation's queue of turns happen as one step, so a turn that came second cannot
        // take its place in the queue first (held until the turn is registered).
        let _admission = match &request.history_id {
            Some(history_id) => Some(self.running.admit(history_id).await),
            None => None,
        };
        // Taken before anything is written, so a refused turn changes nothing; given back when
        // the request fails.
        let reservation = match resumes {
            true => None,
            false => Some(self.running.reserve(&request.caller.user.id, self.settings.max_turns_per_user).await?),
        };
        let running_key = reservation.as_ref().map(|reservation| reservation.key.clone());
        let handle = match Box::pin(self.admit(request, running_key.as_deref())).await {
            Ok(Admitted::Turn(ready)) => {
                let (turn, events) = self.build_turn(*ready, reservation).await?;
                return Ok(self.spawn_turn(turn, events).await);
            }
            Ok(Admitted::Resumed(handle)) => Ok(handle),
            Err(err) => Err(err),
        };
        // No turn of its own runs: the place goes back.
        if let Some(reservation) = reservation {
            self.running.release(reservation).await;
        }
        handle
    }

    /// Admits a request to its conversation: the checks that fail before a stream opens, and
    /// what a turn does before it runs (the redo's retraction, the conversation, the cancel or
    /// the answer, the model). `running_key` is the turn's place, for the draft a redo stores
    /// with its retraction.
    async fn admit(&self, mut request: TurnRequest, running_key: Option<&str>) -> AppResult<Admitted> {
        let mut owner_id = request.caller.user.id.clone();
        let decider = request.decider();
        let turn_id = new_id();
        let mut cancelled_by_redo = None;
        let mut attached = None;
        let mut drafted = false;
        if let Some(redo) = request.redo {
            let (Some(history_id), TurnInput::Prompt(edited), Some(running_key)) =
                (request.history_id.as_deref(), &request.input, running_key)
            else {
                return Err(AppError::BadRequest(
                    "To regenerate or edit a message, send historyId and an optional prompt, not askResponse.".into(),
                )
                .into());
            };
            let edited = Some(edited.as_str()).filter(|edited| !edited.trim().is_empty());
            let retract =
                Retract { from: redo.from, edited, seen_rows: redo.seen_rows, attachments: &request.attachments };
            let (prompt, files, cancelled) =
                self.retract(&request.caller, history_id, &turn_id, running_key, retract, &decider).await?;
            (cancelled_by_redo, attached, drafted) = (cancelled, Some(files), true);
            request.input = TurnInput::Prompt(prompt);
        }
        let (history_id, conversation, resolved, cancelled, turn_granted) = match request.input {
            TurnInput::Prompt(ref prompt) => {
                check_prompt(prompt)?;
                if attached.is_none() {
                    attached = Some(self.load_attachments(&owner_id, &request.attachments).await?);
                }
                let (mut conversation, mut turn_granted) = match &request.history_id {
                    Some(id) => {
                        let read = self.conversation(id).await?;
                        authorize_owned(&request.caller, read.view.user_id.as_deref(), HistoryAccess::Write)?;
                        (read.view, read.turn_granted)
                    }
                    None => {
                        let created =
                            histories::create_history(&self.pool, &owner_id, request.model.as_deref()).await?;
                        let change = HistoryChanged {
                            history_id: created.id.clone(),
                            change: HistoryChange::Created,
                            title: None,
                        };
                        self.live.publish(&owner_id, LiveEvent::HistoryChanged(change)).await;
                        (created, false)
                    }
                };
                let history_id = conversation.id.clone();
                let cancelled = match cancelled_by_redo {
                    Some(cancelled) => Some(cancelled),
                    None if conversation.pending_ask.is_some() => {
                        let cancelled = self.cancel_for_prompt(&history_id, &turn_id, &decider).await?;
                        // Cancelled or expired, the ask's rows changed; or answered meanwhile,
                        // which may have given a grant for its turn.
                        let read = self.conversation(&history_id).await?;
                        (conversation, turn_granted) = (read.view, read.turn_granted);
                        cancelled
                    }
                    None => None,
                };
                // A new message starts a new turn: the last one's turn grants are over.
                if turn_granted {
                    crate::grants::store::end_turn_grants(&self.pool, &history_id).await?;
                }
                (history_id, conversation, None, cancelled, false)
            }
            TurnInput::Answer { ref tool_call_id, ref response } => {
                let Some(history_id) = request.history_id.clone() else {
                    return Err(AppError::BadRequest("historyId is required with askResponse".into()).into());
                };
                // The owner answers, or the approver an approval was routed to: the turn runs as
                // the owner either way.
                let (answerer, pending) =
                    self.answerer(&request.caller, &history_id, request.read_pending.take()).await?;
                owner_id = answerer.owner_id.clone();
                let answer = Answer { tool_call_id, response, pending, from_app: request.from_app.as_deref() };
                let resolved = self.resolve_answer(&history_id, &turn_id, answer, &decider, &answerer).await?;
                // An elicitation's turn is still running: the answer goes on in it.
                if resolved.pending.asked_by_call.is_some() {
                    let (sender, events) = mpsc::channel(64);
                    let stream_id = new_id();
                    let answer = waiting::Resumed::Answer {
                        response: resolved.response.clone(),
                        events: sender,
                        stream_id: stream_id.clone(),
                    };
                    if self.waiting.resume(&history_id, tool_call_id, answer) {
                        self.live
                            .publish(&owner_id, LiveEvent::TurnStarted(HistoryRef { history_id: history_id.clone() }))
                            .await;
                        return Ok(Admitted::Resumed(TurnHandle { history_id, stream_id, events }));
                    }
                }
                // Read after the answer stored any grant it gave.
                let read = self.conversation(&history_id).await?;
                (history_id, read.view, Some(resolved), None, read.turn_granted)
            }
            TurnInput::ToolResults(ref results) => {
                let Some(history_id) = request.history_id.clone() else {
                    return Err(AppError::BadRequest("historyId is required with tool results".into()).into());
                };
                let conversation = self.conversation(&history_id).await?.view;
                authorize_owned(&request.caller, conversation.user_id.as_deref(), HistoryAccess::Write)?;
                let rows = conversation.rows;
                // The results are stored now, as the rows that answer the calls: of two turns
                // resumed by them, one goes on and the other is told they were answered.
                let answers = client_tools::result_rows(&rows, results);
                let stale = || AppError::StaleAsk { tool_call_id: results[0].call_id.clone() };
                let Some(answers) = answers.filter(|_| !results.is_empty()) else { return Err(stale().into()) };
                let ids: Vec<&str> = results.iter().map(|result| result.call_id.as_str()).collect();
                if !client_tools::append_client_results(&self.pool, &history_id, &turn_id, &ids, &answers).await? {
                    return Err(stale().into());
                }
                let conversation = self.conversation(&history_id).await?.view;
                (history_id, conversation, None, None, false)
            }
            TurnInput::FollowOn(ref mut follow_on) => {
                let (Some(history_id), Some(running_key)) = (request.history_id.clone(), running_key) else {
                    return Err(AppError::BadRequest("A follow-on turn needs its conversation.".into()).into());
                };
                let conversation = self.conversation(&history_id).await?.view;
                authorize_owned(&request.caller, conversation.user_id.as_deref(), HistoryAccess::Write)?;
                self.take_over(&history_id, &turn_id, &owner_id, running_key, follow_on).await?;
                drafted = true;
                let conversation = self.conversation(&history_id).await?.view;
                (history_id, conversation, None, None, false)
            }
        };
        // A model the request names is the conversation's from now on (both ways in checked the
        // caller may write to it; a new one was created with it).
        let chosen = match request.model {
            Some(model) if request.history_id.is_some() => {
                histories::set_history_model(&self.pool, &history_id, &model)
                    .await?
                    .ok_or(AppError::HistoryNotFound)?;
                Some(model)
            }
            Some(model) => Some(model),
            None => conversation.model,
        };
        // The conversation's model while it is on offer, else the owner's default, else the server's.
        let preferences = self.preferences.of(&owner_id).await?;
        let server_choices = self.preferences.server_choices().await?;
        let offered = |id: &String| server_choices.offers(&self.models, id);
        let chosen = chosen.filter(offered).or(preferences.default_model.filter(offered));
        let choice = self.models.for_conversation(chosen.as_deref());
        let instructions = Some(preferences.instructions).filter(|instructions| !instructions.is_empty());
        let offer = Offer {
            system_prompt: request.system_prompt,
            instructions,
            takes_tools: choice.takes_tools(),
            context_tokens: choice.context_tokens,
            ungranted_tools: server_choices.ungranted_tools.clone(),
            approval_routes: server_choices.approval_routes.clone(),
            client_tools: request.client_tools,
        };
        let model = choice.model.clone();
        let titled = conversation.title.is_some();
        let attached = attached.unwrap_or_default();
        let mut transcript = Transcript::new(request.input, conversation.rows, titled, attached, resolved, cancelled);
        transcript.from_app = request.from_app;
        transcript.turn_granted = turn_granted;
        Ok(Admitted::Turn(Box::new(Ready {
            turn_id,
            owner_id,
            history_id,
            surface: request.surface,
            model,
            offer,
            transcript,
            drafted,
        })))
    }

    /// Builds an admitted turn in its place: registered among the running turns (taking a place
    /// when the question it was to resume ended meanwhile), its first draft stored (unless its
    /// redo did). Its events come out of the receiver.
    async fn build_turn(
        &self,
        ready: Ready,
        reservation: Option<Reservation>,
    ) -> AppResult<(Turn, mpsc::Receiver<TurnEvent>)> {
        let Ready { turn_id, owner_id, history_id, surface, model, offer, transcript, drafted } = ready;
        let (sender, events) = mpsc::channel(64);
        let prompt = match &transcript.input {
            TurnInput::Prompt(prompt) => Some(prompt.trim().to_string()),
            _ => None,
        };
        let reservation = match reservation {
            Some(reservation) => reservation,
            None => self.running.reserve(&owner_id, self.settings.max_turns_per_user).await?,
        };
        let log = TurnLog::new(&turn_id, prompt.clone());
        let Registration { switch: stop_switch, stop, key: running_key } =
            self.running.register(reservation, &history_id, &owner_id, log.clone()).await;
        let ids = TurnIds { turn_id, user_id: owner_id, history_id, running_key, surface };

        // A delete between the access check and now found no switch to flip: look again, now
        // that a delete would stop this turn (the first draft is stored only while the
        // conversation is there).
        // A redo stored its draft with its retraction (its rows are not known here).
        let rows = if drafted {
            Vec::new()
        } else {
            draft::first_rows(prompt, &transcript.attached.rows, transcript.from_app.clone(), Some(model.name()))
        };
        let still_there = if drafted {
            histories::history_owner(&self.pool, &ids.history_id).await.map(|owner| owner.is_some())
        } else {
            let first = draft::store::Draft {
                turn_id: &ids.turn_id,
                history_id: &ids.history_id,
                user_id: &ids.user_id,
                running_key: &ids.running_key,
                rows: &rows,
                task: None,
            };
            draft::store::write_draft(&self.pool, &first, true).await
        };
        if !matches!(still_there, Ok(true)) {
            self.running.unregister(&ids.history_id, &stop_switch).await;
            return Err(still_there.err().unwrap_or_else(|| AppError::HistoryNotFound.into()));
        }
        let mut draft = DraftClock::default();
        // A follow-on turn's first draft holds its task (stored with the take-over).
        if let TurnInput::FollowOn(follow_on) = &transcript.input {
            draft.follow(follow_on.task.as_deref().cloned());
        }
        draft.written_now(rows);
        let turn = Turn {
            runner: self.clone(),
            model,
            tools: if offer.takes_tools { self.tools() } else { ToolRegistry::default() },
            ids,
            offer,
            transcript,
            output: Output::default(),
            events: EventStream { sender, log, produced_output: false },
            record: RequestRecord::default(),
            lifecycle: Lifecycle { stop_switch, stop, draft, superseded: false, held_pause: None },
            previews: Previews::default(),
        };
        Ok((turn, events))
    }

    /// Runs a built turn in its own task; its stream is named after it.
    async fn spawn_turn(&self, turn: Turn, events: mpsc::Receiver<TurnEvent>) -> TurnHandle {
        let (history_id, stream_id) = (turn.ids.history_id.clone(), turn.ids.turn_id.clone());
        // Told before the turn runs, so no event of the turn (its ask, say) comes first.
        let started = LiveEvent::TurnStarted(HistoryRef { history_id: history_id.clone() });
        self.live.publish(&turn.ids.user_id, started).await;
        tokio::spawn(turn.run());
        TurnHandle { history_id, stream_id, events }
    }
}
