//! A turn's events as AG-UI events.
//!
//! AG-UI's stream is append-only; Palaver's is not: a step's streamed text is taken back when
//! the step ends in a tool call (`retract`), and a block document's text is replaced by its
//! checked form. So a step's text is held until the step says how it ended: the text of a
//! step that ends in text is sent then, whole; a document goes out as an
//! `ACTIVITY_SNAPSHOT` once it is checked. Message ids are `<runId>.m<k>`, so mapping the same
//! turn again (a client attaching again) gives the same events.

use ag_ui::JsonObject;
use ag_ui::event::{Event, TextMessageRole, ToolCallResultEvent, ToolResultRole};
use palaver_contract::blocks::reads_as_document;
use palaver_wire::conversation::model::{AskEvent, TurnEvent};
use serde_json::{Value, json};

/// The activity type a block document is sent as.
pub(super) const BLOCKS_ACTIVITY: &str = "palaver-blocks";

/// Maps one turn's events, in order, to a run's events (without `RUN_STARTED`, the snapshots
/// and the end, which need the conversation as stored: see `super::run`).
pub struct RunEvents {
    run_id: String,
    messages: usize,
    steps: usize,
    /// The open step: whether it has had a tool's result (then what comes next is a new step).
    step: Option<bool>,
    /// Text a block document's check has not replaced yet.
    document: Option<String>,
    tool_calls: Vec<String>,
    /// The answer a resume gave, for the result of the call it answers.
    answered: Option<(String, Value)>,
    errors: Vec<String>,
    said_anything: bool,
    /// The turn's `{done}` came.
    done: bool,
}

impl RunEvents {
    pub fn new(run_id: &str, answered: Option<(String, Value)>) -> Self {
        Self {
            run_id: run_id.to_string(),
            messages: 0,
            steps: 0,
            step: None,
            document: None,
            tool_calls: Vec::new(),
            answered,
            errors: Vec::new(),
            said_anything: false,
            done: false,
        }
    }

    /// Why the run failed: a turn that reported errors before it said anything, or one whose
    /// events stopped before its end (its process went).
    pub fn failure(&self) -> Option<String> {
        if !self.done {
            return Some("The turn stopped before it finished; what it said so far is kept.".into());
        }
        (!self.said_anything && !self.errors.is_empty()).then(|| self.errors.join(" "))
    }

    /// The errors of a turn that said something besides (a reply cut off at its cap, say), for
    /// `RUN_FINISHED`'s `result`.
    pub fn warnings(&self) -> Option<serde_json::Map<String, Value>> {
        (!self.errors.is_empty()).then(|| serde_json::Map::from_iter([("errors".into(), json!(self.errors))]))
    }

    /// Closes what is still open (a step, a document never checked) before the run ends.
    pub fn close(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        self.finish(&mut out);
        out
    }

    pub fn map(&mut self, event: &TurnEvent) -> Vec<Event> {
        let mut out = Vec::new();
        match event {
            // An approval's call is the call it guards, whose own result follows.
            TurnEvent::AskResolved { ask_resolved } if is_approval(&ask_resolved.tool_call_id) => {}
            TurnEvent::AskResolved { ask_resolved } => {
                let content = match &self.answered {
                    Some((id, answer)) if *id == ask_resolved.tool_call_id => answer.clone(),
                    _ => json!({"action": ask_resolved.action}),
                };
                out.push(self.tool_result(&ask_resolved.tool_call_id, &content));
            }
            // Held until the step says how it ended (the module's comment).
            TurnEvent::Delta { .. } | TurnEvent::Retract { .. } => self.open_step(&mut out),
            TurnEvent::Text { text } => {
                self.open_step(&mut out);
                if reads_as_document(text) {
                    self.document = Some(text.clone());
                } else {
                    self.text_message(&mut out, text);
                }
                self.close_step(&mut out);
            }
            TurnEvent::Replace { text, .. } => {
                if self.document.is_some() {
                    self.document = Some(text.clone());
                }
            }
            TurnEvent::Blocks { blocks } => {
                if let Some(text) = self.document.take() {
                    let content = json!({"text": text, "check": blocks});
                    let content: JsonObject = content.as_object().cloned().unwrap_or_default();
                    out.push(Event::activity_snapshot(self.next_message_id(), BLOCKS_ACTIVITY, content));
                    self.said_anything = true;
                }
            }
            TurnEvent::ToolCall { tool_call } => {
                self.open_step(&mut out);
                self.tool_call(&mut out, &tool_call.tool_call_id, &tool_call.tool_name, &tool_call.args);
            }
            TurnEvent::ToolResult { tool_result } => {
                out.push(self.tool_result(&tool_result.tool_call_id, &tool_result.result));
                if let Some(had_results) = self.step.as_mut() {
                    *had_results = true;
                }
            }
            TurnEvent::Ask { ask, .. } => {
                self.open_step(&mut out);
                self.ask_call(&mut out, ask);
            }
            TurnEvent::Error { error } => self.errors.push(error.clone()),
            TurnEvent::Done { .. } => {
                self.done = true;
                self.finish(&mut out);
            }
            TurnEvent::AskPreview { .. }
            | TurnEvent::Attached { .. }
            | TurnEvent::ToolStatus { .. }
            | TurnEvent::ToolInputPartial { .. } => {}
        }
        out
    }

    /// Closes what is open at the turn's end: a document never checked is sent as text.
    fn finish(&mut self, out: &mut Vec<Event>) {
        if let Some(text) = self.document.take() {
            self.text_message(out, &text);
        }
        self.close_step(out);
    }

    fn next_message_id(&mut self) -> String {
        self.messages += 1;
        format!("{}.m{}", self.run_id, self.messages)
    }

    fn open_step(&mut self, out: &mut Vec<Event>) {
        if self.step == Some(true) {
            self.close_step(out);
        }
        if self.step.is_none() {
            self.steps += 1;
            self.step = Some(false);
            out.push(Event::step_started(self.step_name()));
        }
    }

    fn close_step(&mut self, out: &mut Vec<Event>) {
        if self.step.take().is_some() {
            out.push(Event::step_finished(self.step_name()));
        }
    }

    fn step_name(&self) -> String {
        format!("step-{}", self.steps)
    }

    fn text_message(&mut self, out: &mut Vec<Event>, text: &str) {
        if text.is_empty() {
            return;
        }
        let id = self.next_message_id();
        out.push(Event::text_message_start(id.as_str(), TextMessageRole::Assistant));
        out.push(Event::text_message_content(id.as_str(), text));
        out.push(Event::text_message_end(id.as_str()));
        self.said_anything = true;
    }

    fn tool_call(&mut self, out: &mut Vec<Event>, id: &str, name: &str, args: &Value) {
        if self.tool_calls.iter().any(|sent| sent == id) {
            return;
        }
        self.tool_calls.push(id.to_string());
        out.push(Event::tool_call_start(id, name));
        out.push(Event::tool_call_args(id, args.to_string()));
        out.push(Event::tool_call_end(id));
        self.said_anything = true;
    }

    /// An ask is a call the interrupt names: an approval, the call it guards (streamed when
    /// the model made it); any other ask, a call of the ask tool of its kind (the model's own
    /// ask is one; an MCP server's question or an argument form reads as one).
    fn ask_call(&mut self, out: &mut Vec<Event>, ask: &AskEvent) {
        if ask.guarded_call_id.is_some() {
            return;
        }
        self.tool_call(out, &ask.tool_call_id, &ask.kind.tool_name(), &ask.input);
    }

    fn tool_result(&mut self, tool_call_id: &str, result: &Value) -> Event {
        self.said_anything = true;
        let content = super::messages::result_text(result);
        let mut result = ToolCallResultEvent::new(self.next_message_id(), tool_call_id, content);
        result.role = Some(ToolResultRole::Tool);
        result.into()
    }
}

/// Whether an ask's id is an approval's (Palaver mints them so).
fn is_approval(ask_id: &str) -> bool {
    ask_id.starts_with(crate::turn::store::APPROVAL_PREFIX)
}

#[cfg(test)]
mod tests;
