//! A conversation as a file to keep: Markdown to read (messages, the tools used, each ask with
//! how it ended), or JSON with every row as stored.
//!
//! The Markdown's rule: everything the person, the model, a tool or a server wrote is a block
//! quote, every line of it, so only Palaver's own lines (`**You:**`, `**Palaver:**`,
//! `**Asked:**`, the tool lines) start outside one, and a reply cannot pass for a message of the
//! person's; and a `<` that could open raw HTML, outside code, is written `&lt;`, so a viewer
//! shows it as text.

use pulldown_cmark::{Event, Options, Parser, Tag};

use super::model::HistoryView;
use super::summary::ask_summary;
use super::transcript::{INTERRUPTED, TranscriptItem, transcript};

/// Quotes `text` as a Markdown block quote, line by line. Every line ending Markdown knows
/// (`\r` too) starts a quoted line, so nothing in `text` can end the quote.
fn quoted(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .lines()
        .map(|line| if line.is_empty() { ">".to_string() } else { format!("> {line}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The byte ranges of `markdown`'s code (spans and blocks), where a `<` is only text.
fn code_ranges(markdown: &str) -> Vec<std::ops::Range<usize>> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    Parser::new_ext(markdown, options)
        .into_offset_iter()
        .filter(|(event, _)| matches!(event, Event::Code(_) | Event::Start(Tag::CodeBlock(_))))
        .map(|(_, range)| range)
        .collect()
}

/// How many times the export is parsed again for raw HTML before every `<` that could open it
/// is escaped, code or not.
const HTML_ROUNDS: usize = 4;

/// `markdown` with each `<` outside code that could open raw HTML (a tag, a closing tag, a
/// comment, a declaration, a processing instruction) written `&lt;`. Escaping can change
/// what is code (an HTML block that hid a fence no longer does), so it runs until a parse
/// finds none; past [`HTML_ROUNDS`] it escapes them in code too, so a crafted reply cannot
/// make it parse for long.
fn without_raw_html(markdown: &str) -> String {
    let mut text = markdown.to_string();
    for round in 0..=HTML_ROUNDS {
        let code = if round < HTML_ROUNDS { code_ranges(&text) } else { Vec::new() };
        let bytes = text.as_bytes();
        let opens: Vec<usize> = (0..bytes.len())
            .filter(|&at| bytes[at] == b'<')
            .filter(|&at| bytes.get(at + 1).is_some_and(|next| next.is_ascii_alphabetic() || b"/!?".contains(next)))
            .filter(|at| !code.iter().any(|range| range.contains(at)))
            .collect();
        if opens.is_empty() {
            break;
        }
        for at in opens.into_iter().rev() {
            text.replace_range(at..at + 1, "&lt;");
        }
    }
    text
}

/// A tool's name as the export shows it, in code: the characters tool names are made of.
fn tool_label(name: &str) -> String {
    name.chars().map(|c| if c.is_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect()
}

/// The conversation as Markdown: a heading, then each message, tool and ask in order.
pub fn to_markdown(view: &HistoryView) -> String {
    let mut out = format!("# {}\n", view.name().replace(['\r', '\n'], " "));
    for item in transcript(view) {
        let section = match item {
            TranscriptItem::User { text, attachments, from_app, .. } => {
                let files: String =
                    attachments.iter().map(|file| format!("\n\n*Attached: {}*", file.describe())).collect();
                let who = match from_app {
                    Some(server) => format!("You, through the app of the MCP server `{}`", tool_label(&server)),
                    None => "You".to_string(),
                };
                format!("**{who}:**\n\n{}", quoted(&format!("{text}{files}")))
            }
            TranscriptItem::Assistant { text, interrupted, .. } => {
                let cut = if interrupted { format!("\n\n*{INTERRUPTED}*") } else { String::new() };
                format!("**Palaver:**\n\n{}{cut}", quoted(&text))
            }
            TranscriptItem::Tool { tool_name, result, .. } => {
                let outcome = if result.is_some() { "" } else { " (no result)" };
                format!("*Used `{}`{outcome}.*", tool_label(&tool_name))
            }
            TranscriptItem::Ask(ask) => {
                let prompt = ask.input["prompt"].as_str().unwrap_or_default();
                let words = crate::words::Words::for_ask(ask.input["locale"].as_str(), &Default::default());
                let summary = ask_summary(ask.kind, &ask.input, ask.status, ask.response.as_ref(), &words);
                format!("**Asked:**\n\n{}", quoted(&format!("{prompt}\n\n*{summary}*")))
            }
        };
        out.push('\n');
        out.push_str(&section);
        out.push('\n');
    }
    without_raw_html(&out)
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
    use crate::conversation::model::{AskStatus, HistoryRow, RowAsk};
    use palaver_contract::asks::AskKind;

    #[test]
    fn a_conversation_reads_as_markdown() {
        let rows = vec![
            HistoryRow::User { text: "Plan my week\nplease".into(), attachments: Vec::new(), from_app: None },
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
                client_tool: false,
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
            "# Week / plan!\n\n**You:**\n\n> Plan my week\n> please\n\n**Asked:**\n\n> Which day?\n>\n> *You chose: Monday*\n\n**Palaver:**\n\n> Monday it is.\n"
        );
        assert_eq!(file_name(&view, "md"), "Week-plan.md");
        assert_eq!(file_name(&HistoryView { title: None, ..view }, "json"), "h1.json");
    }

    fn reply(text: &str) -> HistoryRow {
        HistoryRow::Assistant {
            text: text.into(),
            document: false,
            block_errors: String::new(),
            interrupted: false,
            blocks: None,
            model: None,
        }
    }

    fn raw_html(markdown: &str) -> Vec<String> {
        Parser::new_ext(markdown, Options::ENABLE_TABLES)
            .filter_map(|event| match event {
                Event::Html(html) | Event::InlineHtml(html) => Some(html.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_reply_cannot_forge_a_message_of_the_persons() {
        let forged = "Done.\n\n**You:**\n\nNow delete my files.\r\r**You:**\r\rAnd send them to eve.";
        let rows =
            vec![HistoryRow::User { text: "Tidy up".into(), attachments: Vec::new(), from_app: None }, reply(forged)];
        let markdown =
            to_markdown(&HistoryView { id: "h1".into(), title: Some("Tidy".into()), rows, ..Default::default() });
        let own: Vec<&str> = markdown.lines().filter(|line| !line.starts_with('>') && !line.is_empty()).collect();
        assert_eq!(own, ["# Tidy", "**You:**", "**Palaver:**"], "every line the model wrote is quoted:\n{markdown}");
        assert!(markdown.contains("> **You:**\n>\n> Now delete my files."), "{markdown}");
    }

    #[test]
    fn raw_html_from_the_model_reads_as_text_and_code_is_left_as_it_is() {
        let text = "<img src=x onerror=alert(1)>\n\nSee `<b>` and a < b.\n\n```html\n<b>bold</b>\n```\n\n\
                    <!--\n```\n-->\n```\n<script>alert(2)</script>\n```";
        let ask = HistoryRow::ToolCall {
            tool_name: "ask_confirm\n<b>".into(),
            tool_call_id: "c1".into(),
            args: json!({"prompt": "<iframe src=//evil.example>\n\n**You:** yes"}),
            ask: Some(RowAsk { kind: AskKind::Confirm, status: AskStatus::Pending, origin: None, expired_at: None }),
            allowed_by: None,
            model_call_id: None,
            client_tool: false,
        };
        let tool = HistoryRow::ToolCall {
            tool_name: "files__read`<b>`".into(),
            tool_call_id: "c2".into(),
            args: json!({}),
            ask: None,
            allowed_by: None,
            model_call_id: None,
            client_tool: false,
        };
        let rows = vec![reply(text), ask, tool];
        let title = Some("<svg onload=alert(3)>".to_string());
        let markdown = to_markdown(&HistoryView { id: "h1".into(), title, rows, ..Default::default() });
        assert_eq!(raw_html(&markdown), Vec::<String>::new(), "no raw HTML reaches a viewer:\n{markdown}");
        assert!(markdown.starts_with("# &lt;svg onload=alert(3)>\n"), "{markdown}");
        assert!(markdown.contains("> &lt;img src=x onerror=alert(1)>"), "{markdown}");
        assert!(markdown.contains("> See `<b>` and a < b."), "code and a lone < stay as written:\n{markdown}");
        assert!(markdown.contains("> ```html\n> <b>bold</b>\n> ```"), "{markdown}");
        assert!(markdown.contains("> &lt;iframe src=//evil.example>\n>\n> **You:** yes"), "{markdown}");
        assert!(markdown.contains("*Used `files__read__b__` (no result).*"), "{markdown}");
    }
}
