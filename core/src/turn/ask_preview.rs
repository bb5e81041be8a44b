//! The preview of an ask while the model is still writing its arguments: the JSON so far,
//! read as far as it goes, sent as `{askPreview}` so the transcript shows the card taking
//! shape (inert, marked as being prepared) until the real one replaces it, or it is withdrawn.
//! A preview is shown only: never stored, never validated, never answered. It shows under the
//! id its ask will have. A call of a host tool with an MCP App is read the same way, and its
//! arguments so far go out as `{toolInputPartial}`, for the app's `tool-input-partial`.

use serde_json::Value;

use super::call_ids::{ASK_PREFIX, mint};
use super::run::{PreviewedAsk, Turn, WrittenCall};
use palaver_contract::asks::AskKind;
use palaver_wire::conversation::model::{AskPreviewEvent, ToolInputPartialEvent, TurnEvent};

/// Arguments longer than this are not previewed further (an ask's are far shorter).
const PREVIEW_MAX_BYTES: usize = 16 * 1024;

/// The least a call's arguments grow between two `{toolInputPartial}` of it.
const APP_INPUT_STEP: usize = 64;

/// How many cut points back the reader tries before it gives up on a piece.
const CUTS_TRIED: usize = 8;

impl Turn {
    /// Takes a piece of a tool call's arguments; emits the preview when it changed.
    pub(super) async fn preview_piece(&mut self, id: &str, name: &str, piece: &str) {
        if self.tools.get(name).is_some_and(|tool| tool.links_app()) {
            return self.app_input_piece(id, name, piece).await;
        }
        let Some(kind) = name.strip_prefix("ask_").and_then(AskKind::parse) else { return };
        if !self.offered_kinds().contains(&kind) {
            return;
        }
        let preview = self.previews.calls.entry(id.to_string()).or_insert_with(|| PreviewedAsk {
            kind,
            ask_id: mint(ASK_PREFIX),
            arguments: String::new(),
            shown: None,
        });
        if preview.arguments.len() + piece.len() > PREVIEW_MAX_BYTES {
            return;
        }
        preview.arguments.push_str(piece);
        let Some(input) = read_partial_json(&preview.arguments).filter(Value::is_object) else { return };
        if preview.shown.as_ref() == Some(&input) {
            return;
        }
        preview.shown = Some(input.clone());
        let event =
            AskPreviewEvent { tool_call_id: preview.ask_id.clone(), kind, input: Some(input), withdrawn: false };
        self.events.emit(TurnEvent::AskPreview { ask_preview: event }).await;
    }

    /// Takes a piece of the arguments of a call of a tool with an app; emits them the first
    /// time they read as something, then when what they read as changed and they grew by a
    /// quarter since last sent (at least [`APP_INPUT_STEP`] bytes), so long arguments cost a few
    /// times their size, not its square. The step's end sends the rest ([`Turn::finish_app_inputs`]).
    async fn app_input_piece(&mut self, id: &str, name: &str, piece: &str) {
        let written = self.previews.app_inputs.entry(id.to_string()).or_default();
        if written.arguments.len() + piece.len() > PREVIEW_MAX_BYTES {
            return;
        }
        written.name = name.to_string();
        written.arguments.push_str(piece);
        let step = APP_INPUT_STEP.max(written.sent_length / 4);
        if written.shown.is_some() && written.arguments.len() < written.sent_length + step {
            return;
        }
        if let Some(event) = written.news(id) {
            self.events.emit(TurnEvent::ToolInputPartial { tool_input_partial: event }).await;
        }
    }

    /// The model finished the step: each call of a tool with an app is sent as far as it was
    /// written, where that is more than was sent (a later call's `{toolCall}` comes only once
    /// the earlier calls ran).
    pub(super) async fn finish_app_inputs(&mut self) {
        let mut news: Vec<ToolInputPartialEvent> =
            self.previews.app_inputs.iter_mut().filter_map(|(id, written)| written.news(id)).collect();
        news.sort_by(|one, other| one.tool_call_id.cmp(&other.tool_call_id));
        for event in news {
            self.events.emit(TurnEvent::ToolInputPartial { tool_input_partial: event }).await;
        }
    }

    /// Withdraws the preview of the model's call `id` (its finished ask was invalid, or not
    /// asked), if one showed.
    pub(super) async fn withdraw_preview(&mut self, id: &str) {
        if let Some(PreviewedAsk { kind, ask_id, shown: Some(_), .. }) = self.previews.calls.remove(id) {
            let event = AskPreviewEvent { tool_call_id: ask_id, kind, input: None, withdrawn: true };
            self.events.emit(TurnEvent::AskPreview { ask_preview: event }).await;
        }
    }

    /// Withdraws every preview of the step but `kept`'s (the model's call of the ask the turn
    /// pauses on, whose real card replaces it: it is asked under the preview's id).
    pub(super) async fn settle_previews(&mut self, kept: Option<&str>) {
        let shown: Vec<String> = self.previews.calls.keys().filter(|id| Some(id.as_str()) != kept).cloned().collect();
        for id in shown {
            self.withdraw_preview(&id).await;
        }
        self.previews.calls.clear();
        self.previews.app_inputs.clear();
    }
}

impl WrittenCall {
    /// The arguments as far as they read now, when that is something (not `{}`) and not what
    /// was sent last; taken as sent.
    pub(super) fn news(&mut self, id: &str) -> Option<ToolInputPartialEvent> {
        let read = read_partial_json(&self.arguments)
            .filter(|read| read.as_object().is_some_and(|fields| !fields.is_empty()))?;
        if self.shown.as_ref() == Some(&read) {
            return None;
        }
        (self.shown, self.sent_length) = (Some(read.clone()), self.arguments.len());
        Some(ToolInputPartialEvent { tool_call_id: id.to_string(), tool_name: self.name.clone(), arguments: read })
    }
}

/// Reads JSON cut off anywhere: closes the open string and containers, dropping a last member
/// or element that is not complete yet. `None` when nothing readable is there yet.
pub fn read_partial_json(text: &str) -> Option<Value> {
    if let Ok(value) = serde_json::from_str(text) {
        return Some(value);
    }
    // Where the text may be cut: after an opening bracket, or before a comma, with the
    // brackets open there.
    let mut cuts: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut open: Vec<u8> = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for (index, byte) in text.bytes().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                open.push(byte);
                cuts.push((index + 1, open.clone()));
            }
            b'}' | b']' => {
                open.pop();
            }
            b',' => cuts.push((index, open.clone())),
            _ => {}
        }
    }
    let closed = |text: &str, open: &[u8]| -> Option<Value> {
        let closers: String = open.iter().rev().map(|&byte| if byte == b'{' { '}' } else { ']' }).collect();
        serde_json::from_str(&format!("{text}{closers}")).ok()
    };
    // The whole text with the string it is in closed (a prompt being written shows as it grows).
    if in_string && let Some(value) = closed(&format!("{text}\""), &open) {
        return Some(value);
    }
    if let Some(value) = closed(text, &open) {
        return Some(value);
    }
    cuts.iter().rev().take(CUTS_TRIED).find_map(|(at, open)| closed(&text[..*at], open))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn json_cut_off_anywhere_reads_as_far_as_it_goes() {
        let whole =
            r#"{"prompt": "Which plan?", "options": [{"id": "a", "label": "Solo"}, {"id": "b", "label": "Team"}]}"#;
        assert_eq!(read_partial_json(whole), serde_json::from_str(whole).ok());
        assert_eq!(read_partial_json(r#"{"prompt": "Which pl"#), Some(json!({"prompt": "Which pl"})));
        assert_eq!(read_partial_json(r#"{"prompt": "Which plan?", "opt"#), Some(json!({"prompt": "Which plan?"})));
        assert_eq!(
            read_partial_json(r#"{"prompt": "P", "options": [{"id": "a", "label": "So"#),
            Some(json!({"prompt": "P", "options": [{"id": "a", "label": "So"}]}))
        );
        assert_eq!(
            read_partial_json(r#"{"prompt": "P", "options": [{"id": "a", "label": "Solo"}, {"id""#),
            Some(json!({"prompt": "P", "options": [{"id": "a", "label": "Solo"}, {}]}))
        );
        assert_eq!(read_partial_json(r#"{"prompt": "a \"quoted"#), Some(json!({"prompt": "a \"quoted"})));
        assert_eq!(read_partial_json(r#"{"n": 12"#), Some(json!({"n": 12})));
        assert_eq!(read_partial_json(""), None);
        assert_eq!(read_partial_json("{"), Some(json!({})));
    }
}
