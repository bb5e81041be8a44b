//! A conversation as a file to keep: Markdown to read (messages, the tools used, each ask with
//! how it ended), or JSON with every row as stored.

use super::model::HistoryView;
use super::summary::ask_summary;
use super::transcript::{INTERRUPTED, TranscriptItem, transcript};

/// Quotes `text` as a Markdown block quote, line by line.
fn quoted(text: &str) -> String {
    text.lines()
        .map(|line| if line.is_empty() { ">".to_string() } else { format!("> {line}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The conversation as Markdown: a heading, then each message, tool and ask in order.
pub fn to_markdown(view: &HistoryView) -> String {
    let mut out = format!("# {}\n", view.title.as_deref().unwrap_or("Untitled conversation"));
    for item in transcript(view) {
        let section = match item {
            TranscriptItem::User { text, attachments } => {
                let files: String =
                    attachments.iter().map(|file| format!("\n\n*Attached: {}*", file.describe())).collect();
                format!("**You:**\n\n{}{files}", quoted(&text))
            }
            TranscriptItem::Assistant { text, interrupted, .. } => {
                let cut = if interrupted { format!("\n\n*{INTERRUPTED}*") } else { String::new() };
                format!("**Palaver:**\n\n{text}{cut}")
            }
            TranscriptItem::Tool { tool_name, result, .. } => {
                let outcome = if result.is_some() { "" } else { " (no result)" };
                format!("*Used `{tool_name}`{outcome}.*")
            }
            TranscriptItem::Ask(ask) => {
                let prompt = ask.input["prompt"].as_str().unwrap_or_default();
                let words = crate::words::Words::for_ask(ask.input["locale"].as_str(), &Default::default());
                let summary = ask_summary(ask.kind, &ask.input, ask.status, ask.response.as_ref(), &words);
                format!("**Asked:** {prompt}\n\n*{summary}*")
            }
        };
        out.push('\n');
        out.push_str(&section);
        out.push('\n');
    }
    out
}

/// A file name for the export: the title's letters and digits, or the conversation's id.
pub fn file_name(view: &HistoryView, extension: &str) -> String {
    let title: String = view
        .title
        .as_deref()
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let stem = if title.is_empty() { view.id.clone() } else { title.chars().take(60).collect() };
    format!("{stem}.{extension}")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::chat::model::{AskStatus, HistoryRow, RowAsk};
    use palaver_contract::asks::AskKind;

    #[test]
    fn a_conversation_reads_as_markdown() {
        let rows = vec![
            HistoryRow::User { text: "Plan my week\nplease".into(), attachments: Vec::new() },
            HistoryRow::ToolCall {
                tool_name: "ask_choice".into(),
                tool_call_id: "c1".into(),
                args: json!({"prompt": "Which day?", "select": "one", "options": [{"id": "mon", "label": "Monday"}]}),
                ask: Some(RowAsk {
                    kind: AskKind::Choice,
                    status: AskStatus::Answered,
                    origin: None,
                    expired_at: None,
                }),
                allowed_by: None,
                model_call_id: None,
            },
            HistoryRow::ToolResult {
                tool_name: "ask_choice".into(),
                tool_call_id: "c1".into(),
                result: json!({"action": "accept", "content": {"selected": ["mon"]}}),
                model_call_id: None,
            },
            HistoryRow::Assistant {
                text: "Monday it is.".into(),
                document: false,
                block_errors: String::new(),
                interrupted: false,
                blocks: None,
                model: None,
            },
        ];
        let view = HistoryView { id: "h1".into(), title: Some("Week / plan!".into()), rows, ..Default::default() };
        assert_eq!(
            to_markdown(&view),
            "# Week / plan!\n\n**You:**\n\n> Plan my week\n> please\n\n**Asked:** Which day?\n\n*You chose: Monday*\n\n**Palaver:**\n\nMonday it is.\n"
        );
        assert_eq!(file_name(&view, "md"), "Week-plan.md");
        assert_eq!(file_name(&HistoryView { title: None, ..view }, "json"), "h1.json");
    }
}
