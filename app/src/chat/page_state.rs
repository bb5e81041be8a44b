//! The chat page's state (one `Copy` handle its parts share) and the turn it shows running: sent
//! from this tab, or attached to (after a reload, a dropped connection, or from another tab).

use leptos::prelude::*;
use serde_json::Value;

use crate::browser::{Attach, attach, send_prompt};
use palaver_contract::blocks::ShownCheck;
use palaver_wire::body::PromptBody;
use palaver_wire::conversation::model::{AskPreviewEvent, Attachment, TurnEvent};
use palaver_wire::error::FieldError;

/// The running turn, shown until the reloaded conversation replaces it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct LiveTurn {
    /// The user's message; `None` when the turn answers an ask.
    pub(super) prompt: Option<String>,
    /// The files sent with it.
    pub(super) attachments: Vec<Attachment>,
    /// The MCP server whose app sent it for the person.
    pub(super) from_app: Option<String>,
    /// What the finished steps said (their `{text}`).
    pub(super) reply: String,
    /// The running step's text as it streams (`{delta}`): kept by its `{text}`, or retracted.
    pub(super) step: String,
    /// The host tools called so far, with what each says it is doing.
    pub(super) tools: Vec<LiveTool>,
    /// The calls of tools with an MCP App, drawn while the model writes them.
    pub(super) apps: Vec<LiveApp>,
    pub(super) error: Option<String>,
    /// How the finished reply checked as a block document.
    pub(super) blocks: Option<Box<ShownCheck>>,
    /// An ask the model is still writing, shown inert until the real card replaces it.
    pub(super) preview: Option<AskPreviewEvent>,
    /// The stream the events came on (their ids say), so Stop names this turn only.
    pub(super) stream: Option<String>,
    /// A redo: how many saved rows stay shown (the exchange it replaces is hidden).
    pub(super) keeps_rows: Option<usize>,
}

/// A host tool call of the running turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct LiveTool {
    pub(super) call_id: String,
    pub(super) name: String,
    /// What the call last said it is doing (`{toolStatus}`).
    pub(super) status: Option<String>,
}

/// A call of a tool with an MCP App in the running turn, from its first arguments on.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct LiveApp {
    pub(super) call_id: String,
    pub(super) tool_name: String,
    /// Its arguments so far, or all of them once `complete`.
    pub(super) arguments: Value,
    /// The model finished writing it (`{toolCall}` came).
    pub(super) complete: bool,
}

/// The chat page's state, shared by its parts as one `Copy` handle.
#[derive(Clone, Copy)]
pub(super) struct ChatState {
    /// The conversation shown (`?c=`).
    pub(super) conversation_id: Memo<Option<String>>,
    /// Bumped after each turn so the list and the transcript load what the turn saved.
    pub(super) version: RwSignal<u32>,
    /// Bumped when only the conversation list changed (another tab renamed one, say).
    pub(super) list_version: RwSignal<u32>,
    /// Bumped after a turn so the transcript reads only what it added (from its last exchange on).
    pub(super) tail: RwSignal<u32>,
    /// Where the `turnDone` of the turn this tab follows stands (this tab reads that turn's
    /// rows itself, so the event needs no read of its own).
    own_turn_done: StoredValue<OwnTurnDone>,
    /// The running turn, until the reloaded conversation shows it saved.
    pub(super) live: RwSignal<Option<LiveTurn>>,
    pub(super) busy: RwSignal<bool>,
    /// The `fields` of the server's last 400 for an answer.
    pub(super) server_errors: RwSignal<Vec<FieldError>>,
    /// What the page has to say about the last turn that could not run (kept across reloads).
    pub(super) notice: RwSignal<Option<String>>,
}

impl ChatState {
    pub(super) fn new(conversation_id: Memo<Option<String>>) -> Self {
        Self {
            conversation_id,
            version: RwSignal::new(0),
            list_version: RwSignal::new(0),
            tail: RwSignal::new(0),
            own_turn_done: StoredValue::new(OwnTurnDone::Heard),
            live: RwSignal::new(None),
            busy: RwSignal::new(false),
            server_errors: RwSignal::new(Vec::new()),
            notice: RwSignal::new(None),
        }
    }

    /// Loads the list and the conversation again.
    pub(super) fn reload(self) {
        self.version.update(|version| *version += 1);
    }

    /// Reads what the last turn added to the conversation shown (its newest exchange on).
    pub(super) fn read_tail(self) {
        self.tail.update(|tail| *tail += 1);
    }

    /// A turn this tab followed has ended: its rows are read once, and the `turnDone` telling
    /// of it, unless it came already, is awaited a moment.
    fn own_turn_ended(self) {
        let heard = self.own_turn_done.get_value() == OwnTurnDone::Heard;
        self.own_turn_done.set_value(if heard {
            OwnTurnDone::Heard
        } else {
            OwnTurnDone::Awaited { since_ms: crate::browser::now_ms() }
        });
        self.read_tail();
    }

    /// A `turnDone` about the shown conversation came while this tab follows a turn there.
    pub(super) fn heard_own_turn_done(self) {
        self.own_turn_done.set_value(OwnTurnDone::Heard);
    }

    /// Whether a `turnDone` about the shown conversation tells of the turn this tab followed to
    /// its end a moment ago (then it is taken: the next one is another turn's).
    pub(super) fn takes_own_turn_done(self) -> bool {
        let awaited = self.own_turn_done.get_value();
        self.own_turn_done.set_value(OwnTurnDone::Heard);
        matches!(awaited, OwnTurnDone::Awaited { since_ms } if crate::browser::now_ms() - since_ms < OWN_EVENTS_WINDOW_MS)
    }

    /// Shows `prompt` and its files (or nothing, for an answer) at once and streams the turn `body` starts.
    pub(super) fn start_turn(self, body: PromptBody, prompt: Option<String>, attachments: Vec<Attachment>) {
        let from_app = body.from_app.clone();
        self.begin(body, LiveTurn { prompt, attachments, from_app, ..Default::default() });
    }

    /// Like [`Self::start_turn`] for a redo: the saved rows from `keep_rows` on are hidden while
    /// `prompt` replaces them.
    pub(super) fn start_redo(self, body: PromptBody, prompt: String, keep_rows: usize) {
        self.begin(body, LiveTurn { prompt: Some(prompt), keeps_rows: Some(keep_rows), ..Default::default() });
    }

    fn begin(self, body: PromptBody, turn: LiveTurn) {
        self.own_turn_done.set_value(OwnTurnDone::Unheard);
        self.busy.set(true);
        self.server_errors.set(Vec::new());
        self.notice.set(None);
        self.live.set(Some(turn));
        leptos::task::spawn_local(run_turn(body, self));
    }
}

/// Applies one event of the running turn to what the transcript shows of it.
fn apply_event(live: RwSignal<Option<LiveTurn>>, id: Option<&str>, event: TurnEvent) {
    let update = |change: &dyn Fn(&mut LiveTurn)| live.update(|turn| turn.iter_mut().for_each(change));
    if let Some((stream, _)) = id.and_then(|id| id.rsplit_once('.')) {
        update(&|turn| {
            if turn.stream.as_deref() != Some(stream) {
                turn.stream = Some(stream.to_string());
            }
        });
    }
    match event {
        TurnEvent::Delta { delta } => update(&|turn| turn.step.push_str(&delta)),
        // The step's own text takes the place of its deltas (the same text, or less of it).
        TurnEvent::Text { text } => update(&|turn| {
            turn.reply.push_str(&text);
            turn.step.clear();
        }),
        TurnEvent::Retract { .. } => update(&|turn| turn.step.clear()),
        TurnEvent::Replace { text, .. } => update(&|turn| {
            turn.reply = text.clone();
            turn.step.clear();
        }),
        TurnEvent::ToolCall { tool_call } => update(&|turn| {
            let (call_id, name) = (tool_call.tool_call_id.clone(), tool_call.tool_name.clone());
            if let Some(app) = turn.apps.iter_mut().find(|app| app.call_id == call_id) {
                (app.arguments, app.complete) = (tool_call.args.clone(), true);
            }
            turn.tools.push(LiveTool { call_id, name, status: None })
        }),
        TurnEvent::ToolInputPartial { tool_input_partial } => update(&|turn| {
            let partial = &tool_input_partial;
            match turn.apps.iter_mut().find(|app| app.call_id == partial.tool_call_id) {
                Some(app) if !app.complete => app.arguments = partial.arguments.clone(),
                Some(_) => {}
                None => turn.apps.push(LiveApp {
                    call_id: partial.tool_call_id.clone(),
                    tool_name: partial.tool_name.clone(),
                    arguments: partial.arguments.clone(),
                    complete: false,
                }),
            }
        }),
        TurnEvent::ToolStatus { tool_status } => update(&|turn| {
            let call = turn.tools.iter_mut().find(|tool| tool.call_id == tool_status.tool_call_id);
            call.into_iter().for_each(|tool| tool.status = Some(tool_status.message.clone()));
        }),
        TurnEvent::Error { error } => update(&|turn| turn.error = Some(error.clone())),
        TurnEvent::Blocks { blocks } => update(&|turn| turn.blocks = Some(blocks.clone())),
        // An attached stream starts over: what it replays replaces what was shown.
        TurnEvent::Attached { attached } => live.set(Some(LiveTurn { prompt: attached.prompt, ..Default::default() })),
        TurnEvent::AskPreview { ask_preview } if ask_preview.withdrawn => update(&|turn| {
            turn.preview = turn.preview.take().filter(|shown| shown.tool_call_id != ask_preview.tool_call_id)
        }),
        TurnEvent::AskPreview { ask_preview } => update(&|turn| turn.preview = Some(ask_preview.clone())),
        // The real card comes with the reloaded conversation; until then the preview stays.
        TurnEvent::ToolResult { .. }
        | TurnEvent::Ask { .. }
        | TurnEvent::AskResolved { .. }
        | TurnEvent::Done { .. } => {}
    }
}

/// The `turnDone` of the turn this tab follows: not come yet, come (or nothing to wait for), or
/// awaited since the turn ended here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OwnTurnDone {
    Unheard,
    Heard,
    Awaited { since_ms: i64 },
}

/// How long after this tab's turn ended a `turnDone` about its conversation is that turn's.
const OWN_EVENTS_WINDOW_MS: i64 = 2_000;

/// How often, and how far apart, a broken reply stream is attached to again.
const REATTACH_TRIES: u32 = 5;
const REATTACH_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

async fn run_turn(body: PromptBody, state: ChatState) {
    let ChatState { live, busy, server_errors, notice, conversation_id, .. } = state;
    let mut last_seen = None;
    let stream_shown =
        move |stream: String| live.update(|turn| turn.iter_mut().for_each(|turn| turn.stream = Some(stream.clone())));
    let mut result = send_prompt(&body, stream_shown, |id, event| {
        apply_event(live, id.as_deref(), event);
        last_seen = id.or(last_seen.take());
    })
    .await;
    // The connection dropped mid-reply: the turn goes on on the server, so follow it again
    // from the last event seen (no text twice, none lost).
    let conversation = body.history_id.clone().or_else(|| conversation_id.get_untracked());
    if let (Err(error), Some(id)) = (&result, &conversation)
        && error.cut_off
    {
        for _ in 0..REATTACH_TRIES {
            crate::browser::sleep(REATTACH_PAUSE).await;
            let followed = attach(id, last_seen.clone().as_deref(), |seen, event| {
                if !matches!(event, TurnEvent::Attached { .. }) {
                    apply_event(live, seen.as_deref(), event);
                }
                last_seen = seen.or(last_seen.take());
            })
            .await;
            match followed {
                Ok(_) => {
                    result = Ok(());
                    break;
                }
                Err(error) if error.cut_off || error.status == 0 => continue,
                Err(error) => {
                    result = Err(error);
                    break;
                }
            }
        }
    }
    if let Err(error) = result {
        if error.status == 400 && !error.fields.is_empty() {
            // An invalid answer changed nothing: the card keeps its input and shows the errors.
            server_errors.set(error.fields);
            live.set(None);
            busy.set(false);
            return;
        } else if error.status == 409 {
            // Answered or cancelled elsewhere: reload to show how it ended.
            notice.set(Some(format!("{}. Here is how it ended.", error.title)));
            live.set(None);
        } else {
            live.update(|turn| turn.iter_mut().for_each(|turn| turn.error = Some(error.title.clone())));
        }
    }
    // The reloaded conversation replaces the live turn, and would take its error with it: the
    // error stays, as the notice, until the next turn or another conversation.
    if let Some(error) = live.try_update(|turn| turn.as_mut().and_then(|turn| turn.error.take())).flatten() {
        notice.set(Some(error));
    }
    busy.set(false);
    // A redo replaced rows before the newest exchange: the window is read anew.
    if body.replace_from.is_some() { state.reload() } else { state.own_turn_ended() }
}

/// Shows the turn streaming on conversation `id`, if one is (after a reload, or one another
/// tab or device started), until it ends. False when none was streaming (true when this tab
/// streams one already).
pub(super) async fn follow_running(state: ChatState, id: String) -> bool {
    let ChatState { live, busy, .. } = state;
    if busy.get_untracked() {
        return true;
    }
    let followed = attach(&id, None, |seen, event| {
        if matches!(event, TurnEvent::Attached { .. }) {
            state.own_turn_done.set_value(OwnTurnDone::Unheard);
            busy.set(true);
        }
        apply_event(live, seen.as_deref(), event);
    })
    .await;
    if busy.get_untracked() && matches!(followed, Ok(Attach::Followed) | Err(_)) {
        busy.set(false);
        state.own_turn_ended();
    }
    !matches!(followed, Ok(Attach::NothingRunning))
}
