//! `demo`: the keyless demo agent. It answers in friendly, streamed markdown so Palaver can be
//! tried without an API key, and it knows phrases that make it ask each kind of question and
//! use the todo tools (listed in the README and by typing "help").

use std::time::Duration;

use futures::StreamExt;
use futures::stream::{self, BoxStream};
use palaver_contract::asks::option_labels;
use palaver_wire::words::tool_words;
use serde_json::{Value, json};

use super::demo_asks::{arabic_logo_question, logo_questions, plan_ask, toppings_ask};
use super::demo_documents;
use super::{
    CallPurpose, ChatModel, ContentPart, FinishReason, ModelEvent, ModelMessage, ModelRequest, ToolCall, Usage,
    estimate_tokens,
};

/// How long the demo waits between streamed words, so the reply visibly streams.
const WORD_DELAY: Duration = Duration::from_millis(15);

#[derive(Default)]
pub struct DemoModel;

const HELP: &str = "I'm the **Palaver demo agent**: no API key, no network, just a script.\n\n\
Try one of these:\n\n\
- **set up a plan**: I ask you to pick one option\n\
- **build a pizza**: pick several toppings, or type your own\n\
- **send the report**: I ask you to confirm\n\
- **write an announcement**: edit a markdown draft I wrote\n\
- **invoice details**: fill in a short form\n\
- **upload a receipt**: send me a file\n\
- **design a logo**: a few quick questions in one card; **شعار** asks them in Arabic\n\
- **add todo buy milk**, **list my todos**, **complete buy milk**, **delete my completed todos** (that one asks for approval)\n\
- **schedule a reminder to call Ada**: you give the time, checked before the reminder is set\n\
- **mcp**: the tools of the MCP servers connected here; **mcp echo {\"message\": \"hi\"}** calls one\n\
- **markdown**: a tour of what replies can format\n\
- **dashboard**, **checklist**, **invoice preview**: replies built from display blocks\n\n\
Anything else, I repeat back to you so you can see how messages render.";

const MARKDOWN_TOUR: &str = "Here is what a reply can hold:\n\n\
## A heading\n\n\
Some *emphasis*, some **strong** text and `inline code`.\n\n\
1. A numbered list\n\
2. with two items\n\n\
> A quotation, for good measure.\n\n\
```rust\nfn main() {\n    println!(\"Hello from Palaver\");\n}\n```\n\n\
| Column | Value |\n|---|---|\n| rows | 2 |\n| tables | yes |\n\n\
[A safe link](https://example.com).";

/// The system prompt says this when replies are block documents, and the second when html
/// blocks are allowed.
const BLOCKS_PROMPT_MARK: &str = "Reply with exactly one block document";
const HTML_PROMPT_MARK: &str = "html requires html";

/// What the demo does next: say something, or call a tool.
enum Move {
    Say(String),
    Call(String, Value),
}

fn words(message: &str) -> Vec<String> {
    message.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

fn offers(request: &ModelRequest, tool: &str) -> bool {
    request.tools.iter().any(|definition| definition.name == tool)
}

/// The move for a new user message.
fn answer_prompt(request: &ModelRequest, message: &str) -> Move {
    let words = words(message);
    let has = |word: &str| words.iter().any(|w| w == word);
    let lowered = message.to_lowercase();
    let call = |tool: &str, input: Value| {
        if offers(request, tool) {
            Move::Call(tool.to_string(), input)
        } else {
            Move::Say(format!("I would use `{tool}` for that, but this conversation does not offer it."))
        }
    };
    if has("help") {
        return Move::Say(HELP.to_string());
    }
    if let Some(rest) = message.trim().strip_prefix("mcp").filter(|rest| rest.is_empty() || rest.starts_with(' ')) {
        return mcp_move(request, rest.trim());
    }
    if has("markdown") && !has("draft") {
        return Move::Say(MARKDOWN_TOUR.to_string());
    }
    let blocks_on = request.system.contains(BLOCKS_PROMPT_MARK);
    let document = |document: &str| {
        if blocks_on {
            Move::Say(document.to_string())
        } else {
            Move::Say(
                "Display blocks are off on this server (PALAVER_UI_BLOCKS=false), so I can only answer in text.".into(),
            )
        }
    };
    if has("dashboard") {
        return document(demo_documents::DASHBOARD);
    }
    if has("checklist") || has("roast") {
        return document(demo_documents::CHECKLIST);
    }
    if has("invoice") && has("preview") {
        if blocks_on && !request.system.contains(HTML_PROMPT_MARK) {
            return Move::Say(
                "HTML previews are off on this server; start it with PALAVER_UI_BLOCKS_HTML=true to see one.".into(),
            );
        }
        return document(demo_documents::INVOICE_PREVIEW);
    }
    if lowered.contains("delete") && lowered.contains("completed") {
        return call("deleteCompletedTodos", json!({}));
    }
    // The todo is found by its title in the list first (the tool takes its id).
    if todo_to_complete(message).is_some() {
        return call("listTodos", json!({}));
    }
    if let Some(rest) = lowered.strip_prefix("schedule a reminder to") {
        let title = message[message.len() - rest.len()..].trim().trim_start_matches(':').trim();
        // The time is the person's to give: the tool is offered without it, and Palaver asks.
        return call("scheduleReminder", json!({ "title": if title.is_empty() { "Something" } else { title } }));
    }
    if let Some(rest) = lowered.strip_prefix("add todo").or_else(|| lowered.strip_prefix("remind me to")) {
        let title = message[message.len() - rest.len()..].trim().trim_start_matches(':').trim();
        return call("addTodo", json!({ "title": if title.is_empty() { "Something to do" } else { title } }));
    }
    if has("todos") || has("todo") {
        return call("listTodos", json!({}));
    }
    if has("plan") || has("billing") {
        return call("ask_choice", plan_ask());
    }
    if has("pizza") || has("toppings") {
        return call("ask_choice", toppings_ask());
    }
    if has("report") || has("confirm") {
        return call(
            "ask_confirm",
            json!({
                "title": "Send the report", "prompt": "Send the weekly report to the whole team now?",
                "confirmLabel": "Send it", "denyLabel": "Not yet"
            }),
        );
    }
    if has("announcement") || has("draft") {
        return call(
            "ask_markdown",
            json!({
                "title": "Launch announcement",
                "prompt": "Here is a draft announcement. Edit anything, then send it back.",
                "initial": "# We're live\n\nToday we launched **Palaver Asks**: your agent can now ask you a question and wait for the answer.",
                "maxLength": 2000, "submitLabel": "Send it back"
            }),
        );
    }
    if has("invoice") || has("form") {
        return call(
            "ask_form",
            json!({
                "title": "Invoice details", "prompt": "A few details for the invoice.", "submitLabel": "Send details",
                "fields": [
                    {"id": "company", "type": "text", "label": "Company name", "required": true, "maxLength": 120},
                    {"id": "seats", "type": "number", "label": "Seats", "min": 1, "max": 500, "integer": true},
                    {"id": "start", "type": "date", "label": "Start date"},
                    {"id": "region", "type": "select", "label": "Region", "options": [{"id": "us", "label": "US"}, {"id": "eu", "label": "EU"}]},
                    {"id": "notify", "type": "boolean", "label": "Email me the invoice", "default": true}
                ]
            }),
        );
    }
    if has("upload") || has("receipt") || has("file") {
        return call(
            "ask_files",
            json!({
                "title": "Upload a receipt", "prompt": "Upload the receipt for your expense report.",
                "accept": ["image", "pdf", "text", "csv"], "maxFiles": 3, "submitLabel": "Send receipt"
            }),
        );
    }
    if has("logo") || has("questions") {
        return call("ask_questions", logo_questions());
    }
    if has("شعار") || has("arabic") {
        return call("ask_questions", arabic_logo_question());
    }
    if has("hello") || has("hi") || has("hey") {
        return Move::Say(format!("Hello! 👋 Nice to meet you.\n\n{HELP}"));
    }
    let quoted: String = message.lines().map(|line| format!("> {line}\n")).collect();
    Move::Say(format!(
        "You said:\n\n{quoted}\nI'm only the demo agent, so I can't do much with that yet. Type **help** to see what I can show you."
    ))
}

/// The title in "complete buy milk" (or "complete todo …", "tick off …"), if the message asks
/// to mark a todo done.
fn todo_to_complete(message: &str) -> Option<&str> {
    let trimmed = message.trim();
    let lowered = trimmed.to_lowercase();
    let rest = ["complete todo", "complete", "tick off"].iter().find_map(|prefix| {
        lowered.strip_prefix(prefix).filter(|rest| rest.is_empty() || rest.starts_with([' ', ':']))
    })?;
    let title = trimmed.get(trimmed.len() - rest.len()..)?.trim().trim_start_matches(':').trim();
    (!title.is_empty()).then_some(title)
}

/// After the list a "complete …" message asked for: the open todo of that title, marked done.
fn complete_from_list(request: &ModelRequest, wanted: &str, todos: &Value) -> Move {
    let open = todos["todos"].as_array().into_iter().flatten().find(|todo| {
        todo["completed"] != true && todo["title"].as_str().is_some_and(|title| title.eq_ignore_ascii_case(wanted))
    });
    match open {
        Some(todo) if offers(request, "completeTodo") => Move::Call("completeTodo".into(), json!({"id": todo["id"]})),
        Some(_) => Move::Say("I would use `completeTodo` for that, but this conversation does not offer it.".into()),
        None => Move::Say(format!("There is no open todo called **{wanted}**. Say **list my todos** to see them.")),
    }
}

/// The text of the last message the person sent.
fn last_user_text(messages: &[ModelMessage]) -> Option<&str> {
    messages.iter().rev().find_map(|message| match message {
        ModelMessage::User { text, .. } => Some(text.as_str()),
        _ => None,
    })
}

/// The call a tool result answers, found in the conversation.
fn call_for<'m>(messages: &'m [ModelMessage], id: &str) -> Option<&'m ToolCall> {
    messages.iter().rev().find_map(|message| match message {
        ModelMessage::Assistant { tool_calls, .. } => tool_calls.iter().find(|call| call.id == id),
        _ => None,
    })
}

/// `mcp` lists the MCP tools this conversation offers; `mcp <tool> [JSON arguments]` calls
/// the first whose name ends in `__<tool>` (`mcp echo {"message": "hi"}`).
fn mcp_move(request: &ModelRequest, rest: &str) -> Move {
    let mcp_tools: Vec<&str> =
        request.tools.iter().map(|tool| tool.name.as_str()).filter(|name| name.contains("__")).collect();
    if mcp_tools.is_empty() {
        return Move::Say("No MCP server is connected here: see the README's MCP section (PALAVER_MCP_CONFIG).".into());
    }
    let (wanted, arguments) = rest.split_once(' ').unwrap_or((rest, ""));
    if wanted.is_empty() {
        let list: String = mcp_tools.iter().map(|name| format!("- `{name}`\n")).collect();
        return Move::Say(format!(
            "The MCP tools I can use here:\n\n{list}\nSay **mcp <tool> {{…arguments}}** to call one."
        ));
    }
    let Some(tool) = mcp_tools.iter().find(|name| name.ends_with(&format!("__{wanted}"))) else {
        return Move::Say(format!("No MCP tool here is called `{wanted}`. Say **mcp** for the list."));
    };
    match arguments.trim() {
        "" => Move::Call(tool.to_string(), json!({})),
        text => match serde_json::from_str::<Value>(text) {
            Ok(input @ Value::Object(_)) => Move::Call(tool.to_string(), input),
            _ => Move::Say("The arguments must be a JSON object, such as `{\"message\": \"hi\"}`.".into()),
        },
    }
}

/// What the demo says once a tool answered.
fn after_tool(messages: &[ModelMessage], tool_name: &str, tool_call_id: &str, result: &Value) -> String {
    let input = call_for(messages, tool_call_id).map(|call| call.input.clone()).unwrap_or_default();
    match result["action"].as_str() {
        Some("decline") => return "No problem, we'll skip that question.".to_string(),
        Some("cancel") => {
            return match result["reason"].as_str() {
                Some("user_sent_message") => "Let's go with your new message instead.".to_string(),
                _ => "That question was dropped.".to_string(),
            };
        }
        _ => {}
    }
    let content = &result["content"];
    match tool_name {
        "ask_choice" => {
            let mut picked =
                option_labels(&input, content["selected"].as_array().map(Vec::as_slice).unwrap_or_default());
            picked.extend(content["other"].as_str().map(str::to_string));
            if picked.is_empty() {
                "You picked nothing, and that's fine.".to_string()
            } else {
                format!("You chose **{}**. Done!", picked.join("**, **"))
            }
        }
        "ask_questions" => {
            let lines: String = content["answers"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|line| format!("- {line}\n"))
                .collect();
            format!("Thanks! Here is what you told me:\n\n{lines}")
        }
        "ask_confirm" if content["confirmed"] == true => "Confirmed: I'd go ahead and do it now.".to_string(),
        "ask_confirm" => "OK, I won't do it.".to_string(),
        "ask_markdown" if content["changed"] == true => format!(
            "Thanks for the edits! Here is the final text:\n\n{}",
            content["markdown"]
                .as_str()
                .unwrap_or_default()
                .lines()
                .map(|line| format!("> {line}\n"))
                .collect::<String>()
        ),
        "ask_markdown" => "Great, the draft goes out as it is.".to_string(),
        "ask_form" => {
            // Each value by its field's label, in the form's order, as a person reads it.
            let values = &content["values"];
            let lines: String = input["fields"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|field| {
                    let value = values.get(field["id"].as_str()?)?;
                    let label = field["label"].as_str().unwrap_or_default();
                    let shown = match value {
                        Value::String(text) => text.clone(),
                        Value::Bool(true) => "yes".into(),
                        Value::Bool(false) => "no".into(),
                        other => other.to_string(),
                    };
                    Some(format!("- **{label}**: {shown}\n"))
                })
                .collect();
            format!("Thanks! I have the details:\n\n{lines}")
        }
        "ask_files" => {
            let files = content["files"].as_array().cloned().unwrap_or_default();
            let lines: String = files
                .iter()
                .map(|file| {
                    format!(
                        "- {} ({}, {} bytes)\n",
                        file["filename"].as_str().unwrap_or("file"),
                        file["mimeType"].as_str().unwrap_or("?"),
                        file["size"]
                    )
                })
                .collect();
            format!("Thanks, I received {} file{}:\n\n{lines}", files.len(), if files.len() == 1 { "" } else { "s" })
        }
        "listTodos" => {
            let todos = result["todos"].as_array().cloned().unwrap_or_default();
            if todos.is_empty() {
                return "Your todo list is empty. Try **add todo buy milk**.".to_string();
            }
            let lines: String = todos
                .iter()
                .map(|todo| {
                    format!(
                        "- [{}] {}\n",
                        if todo["completed"] == true { "x" } else { " " },
                        todo["title"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            format!("Your todos:\n\n{lines}")
        }
        "addTodo" => format!("Added **{}** to your todos.", result["todo"]["title"].as_str().unwrap_or("it")),
        "completeTodo" if result.get("completed").is_some() => {
            "Ticked off. Say **delete my completed todos** to clear \
             the finished ones (I ask you first)."
                .to_string()
        }
        "scheduleReminder" if result.get("reminder").is_some() => format!(
            "I'll remind you to **{}** at **{}**.",
            result["reminder"]["title"].as_str().unwrap_or("do it"),
            result["reminder"]["time"].as_str().unwrap_or("the time you gave")
        ),
        "deleteCompletedTodos" if result["type"] == "execution-denied" => {
            "OK, I kept your completed todos.".to_string()
        }
        "deleteCompletedTodos" => format!("Deleted {} completed todo(s).", result["deleted"]),
        _ if result.get("error").is_some() => match result["error"].as_str() {
            Some(error) => format!("That did not work. {error}"),
            None => format!("That did not work: {}", result["error"]),
        },
        _ if result["type"] == "execution-denied" => "OK, I did not run it.".to_string(),
        name if name.contains("__") => match result["text"].as_str() {
            Some(text) => {
                let quoted: String = text.lines().map(|line| format!("> {line}\n")).collect();
                format!("{} says:\n\n{quoted}", tool_words(name, None))
            }
            None => format!("{} returned:\n\n```json\n{result}\n```", tool_words(name, None)),
        },
        _ => "Done.".to_string(),
    }
}

/// Splits text into words, each with the spaces after it, as a model's tokens come: a run of
/// spaces (a YAML document's indentation) is part of one chunk, not one chunk a space.
fn word_chunks(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut chunk = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        chunk.push(c);
        if c == ' ' && chars.peek().is_some_and(|next| *next != ' ') {
            chunks.push(std::mem::take(&mut chunk));
        }
    }
    chunks.extend((!chunk.is_empty()).then_some(chunk));
    chunks
}

/// What the demo says of a message with files: it names them (each file comes as a line that
/// describes it, then the file), as it cannot read them.
fn about_attachments(parts: &[ContentPart]) -> String {
    let described: Vec<String> = parts
        .iter()
        .step_by(2)
        .filter_map(|part| match part {
            ContentPart::Text { text } => text.split_once(": ").map(|(_, file)| format!("- {file}")),
            _ => None,
        })
        .collect();
    format!(
        "You attached:\n\n{}\n\nI'm only the demo agent, so I can't look inside files; a real model gets them as you sent them.",
        described.join("\n")
    )
}

fn next_move(request: &ModelRequest) -> Move {
    match request.messages.last() {
        Some(ModelMessage::Tool { tool_name, result, .. })
            if tool_name == "listTodos"
                && let Some(wanted) = last_user_text(&request.messages).and_then(todo_to_complete) =>
        {
            complete_from_list(request, wanted, result)
        }
        Some(ModelMessage::Tool { tool_name, tool_call_id, result, .. }) => {
            Move::Say(after_tool(&request.messages, tool_name, tool_call_id, result))
        }
        Some(ModelMessage::User { parts, .. }) if !parts.is_empty() => Move::Say(about_attachments(parts)),
        Some(ModelMessage::User { text, .. }) => answer_prompt(request, text),
        _ => Move::Say("Is there anything else I can do?".to_string()),
    }
}

impl ChatModel for DemoModel {
    fn name(&self) -> &str {
        "demo"
    }

    fn stream(&self, request: ModelRequest) -> BoxStream<'static, ModelEvent> {
        if request.purpose != CallPurpose::Turn {
            // The demo writes no titles and no summaries: the first message's words stand in for
            // a title, and a long conversation is cut without a summary, as for any model whose
            // call fails.
            return stream::once(async { ModelEvent::Error("The demo agent writes no titles or summaries.".into()) })
                .boxed();
        }
        let input_tokens = estimate_tokens(&request.system);
        match next_move(&request) {
            Move::Call(name, input) => {
                let id = format!("call_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
                let usage = Usage { input_tokens, output_tokens: 20 };
                let events = vec![
                    ModelEvent::ToolCall(ToolCall { id, name: name.to_string(), input }),
                    ModelEvent::Finish { reason: FinishReason::ToolCalls, usage },
                ];
                stream::iter(events).boxed()
            }
            Move::Say(reply) => {
                let usage = Usage { input_tokens, output_tokens: estimate_tokens(&reply) };
                let words = stream::iter(word_chunks(&reply)).then(|chunk| async move {
                    tokio::time::sleep(WORD_DELAY).await;
                    ModelEvent::TextDelta(chunk)
                });
                words
                    .chain(stream::once(async move { ModelEvent::Finish { reason: FinishReason::Stop, usage } }))
                    .boxed()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolDefinition;

    fn request(messages: Vec<ModelMessage>, tools: &[&str]) -> ModelRequest {
        let tools = tools
            .iter()
            .map(|name| ToolDefinition { name: name.to_string(), description: String::new(), input_schema: json!({}) })
            .collect();
        ModelRequest { system: String::new(), messages, tools, ..Default::default() }
    }

    #[test]
    fn block_documents_are_valid_and_need_blocks_on() {
        let settings = crate::conversation::BlocksSettings { html: true, ..Default::default() };
        for document in [demo_documents::DASHBOARD, demo_documents::CHECKLIST, demo_documents::INVOICE_PREVIEW] {
            let check = palaver_contract::blocks::check_blocks_text(document, &settings.options());
            assert!(check.ok && check.warnings.is_empty(), "{:?}", check.errors);
        }
        let section = settings.prompt_section();
        assert!(section.contains(BLOCKS_PROMPT_MARK) && section.contains(HTML_PROMPT_MARK));
        let say = |system: String, prompt: &str| match next_move(&ModelRequest {
            system,
            messages: vec![user(prompt)],
            ..Default::default()
        }) {
            Move::Say(text) => text,
            Move::Call(name, _) => panic!("called {name}"),
        };
        assert_eq!(say(section.clone(), "show me a dashboard"), demo_documents::DASHBOARD);
        assert!(say(String::new(), "show me a dashboard").contains("Display blocks are off"));
        let without_html = crate::conversation::BlocksSettings::default().prompt_section();
        assert!(say(without_html, "invoice preview please").contains("HTML previews are off"));
    }

    fn user(text: &str) -> ModelMessage {
        ModelMessage::User { text: text.into(), parts: Vec::new() }
    }

    #[test]
    fn a_message_with_files_hears_them_named() {
        let parts = vec![
            ContentPart::Text { text: "File 1 of 2: receipt.png (image/png, 12 bytes)".into() },
            ContentPart::ImageData { mime_type: "image/png".into(), data: "aGk=".into() },
            ContentPart::Text { text: "File 2 of 2: notes.txt (text/plain, 5 bytes)".into() },
            ContentPart::Text { text: "File: not a description".into() },
        ];
        let message = ModelMessage::User { text: "look".into(), parts };
        let Move::Say(said) = next_move(&request(vec![message], &[])) else { panic!("the demo says something") };
        assert!(
            said.starts_with(
                "You attached:\n\n- receipt.png (image/png, 12 bytes)\n- notes.txt (text/plain, 5 bytes)\n\n"
            ),
            "{said}"
        );
    }

    #[test]
    fn mcp_phrases_list_and_call_the_connected_tools() {
        let tools = ["everything__echo", "time__get_current_time", "listTodos"];
        let said = |prompt: &str| match next_move(&request(vec![user(prompt)], &tools)) {
            Move::Say(text) => text,
            Move::Call(name, input) => format!("call {name} {input}"),
        };
        let list = said("mcp");
        assert!(list.contains("`everything__echo`") && list.contains("`time__get_current_time`"));
        assert!(!list.contains("listTodos"), "only MCP tools");
        assert_eq!(said("mcp echo {\"message\": \"hi\"}"), "call everything__echo {\"message\":\"hi\"}");
        assert_eq!(said("mcp get_current_time"), "call time__get_current_time {}");
        assert!(said("mcp missing").contains("No MCP tool here is called `missing`"));
        assert!(said("mcp echo [1]").contains("must be a JSON object"));
        let none = match next_move(&request(vec![user("mcp")], &["listTodos"])) {
            Move::Say(text) => text,
            Move::Call(..) => panic!("nothing to call"),
        };
        assert!(none.contains("No MCP server is connected"));
        let reply = after_tool(&[], "everything__echo", "c1", &json!({"text": "Echo: hi"}));
        assert_eq!(reply, "Echo says:\n\n> Echo: hi\n");
    }

    #[test]
    fn phrases_pick_their_moves() {
        let all = [
            "ask_choice",
            "ask_confirm",
            "ask_markdown",
            "ask_form",
            "ask_files",
            "addTodo",
            "listTodos",
            "deleteCompletedTodos",
        ];
        let called = |text: &str| match next_move(&request(vec![user(text)], &all)) {
            Move::Call(name, input) => Some((name, input)),
            Move::Say(_) => None,
        };
        assert_eq!(called("Set up billing for my team").unwrap().0, "ask_choice");
        assert_eq!(called("build a pizza").unwrap().1["select"], "many");
        assert_eq!(called("send the report").unwrap().0, "ask_confirm");
        assert_eq!(called("write an announcement").unwrap().0, "ask_markdown");
        assert_eq!(called("invoice details").unwrap().0, "ask_form");
        assert_eq!(called("upload a receipt").unwrap().0, "ask_files");
        assert_eq!(called("delete my completed todos").unwrap().0, "deleteCompletedTodos");
        assert_eq!(called("Add todo: Buy Milk").unwrap().1["title"], "Buy Milk");
        assert_eq!(called("list my todos").unwrap().0, "listTodos");
        assert!(called("hello").is_none());
        assert!(
            matches!(next_move(&request(vec![user("plan")], &[])), Move::Say(text) if text.contains("does not offer"))
        );
    }

    #[test]
    fn every_scripted_ask_is_valid() {
        use palaver_contract::asks::{AskKind, AskSurface, parse_ask_input};
        for (kind, text) in [
            (AskKind::Choice, "plan"),
            (AskKind::Choice, "pizza"),
            (AskKind::Confirm, "report"),
            (AskKind::Markdown, "draft"),
            (AskKind::Form, "invoice"),
            (AskKind::Files, "upload"),
            (AskKind::Questions, "logo"),
            (AskKind::Questions, "arabic"),
        ] {
            let Move::Call(_, input) = answer_prompt(&request(vec![], &[&kind.tool_name()]), text) else {
                panic!("{text}")
            };
            assert!(parse_ask_input(kind, &input, AskSurface::Full).is_ok(), "{text}");
        }
    }

    #[test]
    fn answers_are_summarised() {
        let call = ToolCall { id: "c1".into(), name: "ask_choice".into(), input: plan_ask() };
        let messages = vec![
            user("plan"),
            ModelMessage::Assistant { text: String::new(), tool_calls: vec![call] },
            ModelMessage::tool("c1", "ask_choice", json!({"action": "accept", "content": {"selected": ["team"]}})),
        ];
        assert!(matches!(next_move(&request(messages, &[])), Move::Say(text) if text == "You chose **Team**. Done!"));
    }

    #[test]
    fn complete_finds_the_todo_by_its_title_and_ticks_it_off() {
        let all = ["listTodos", "completeTodo"];
        assert!(
            matches!(next_move(&request(vec![user("Complete Buy milk")], &all)), Move::Call(name, _) if name == "listTodos")
        );
        let listed = |title: &str| {
            let call = ToolCall { id: "c1".into(), name: "listTodos".into(), input: json!({}) };
            let todos = json!({"todos": [{"id": "t1", "title": "call Ada", "completed": false},
                                         {"id": "t2", "title": "buy milk", "completed": false}]});
            let messages = vec![
                user(&format!("complete {title}")),
                ModelMessage::Assistant { text: String::new(), tool_calls: vec![call] },
                ModelMessage::tool("c1", "listTodos", todos),
            ];
            next_move(&request(messages, &all))
        };
        assert!(matches!(listed("Buy Milk"), Move::Call(name, input) if name == "completeTodo" && input["id"] == "t2"));
        assert!(
            matches!(listed("walk the dog"), Move::Say(text) if text.contains("no open todo called **walk the dog**"))
        );
        assert_eq!(todo_to_complete("completed everything"), None, "a word that starts alike is not the phrase");
    }

    /// Each phrase of the README's demo table does what the table says (never the echo), and
    /// `help` names it.
    #[test]
    fn every_phrase_of_the_readme_table_has_a_move_and_help_names_it() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
        let table = readme.split("| You type | It does |").nth(1).expect("the README's demo table");
        let rows = table.lines().skip(2).take_while(|line| line.starts_with('|'));
        let tools = [
            "ask_choice",
            "ask_confirm",
            "ask_markdown",
            "ask_form",
            "ask_files",
            "ask_questions",
            "addTodo",
            "listTodos",
            "completeTodo",
            "deleteCompletedTodos",
            "scheduleReminder",
            "everything__echo",
        ];
        let mut phrases = 0;
        for row in rows {
            let first_cell = row.split('|').nth(1).unwrap_or_default();
            for phrase in first_cell.split('`').skip(1).step_by(2).filter(|phrase| !phrase.contains('<')) {
                phrases += 1;
                let mut blocks_on = request(vec![user(phrase)], &tools);
                blocks_on.system = format!("{BLOCKS_PROMPT_MARK} {HTML_PROMPT_MARK}");
                if let Move::Say(text) = next_move(&blocks_on) {
                    assert!(!text.starts_with("You said:"), "`{phrase}` is echoed back: {text}");
                }
                let named = HELP.to_lowercase().contains(&phrase.to_lowercase());
                assert!(
                    named || ["help", "hello", "draft", "form", "questions", "roast"].contains(&phrase),
                    "help does not name `{phrase}`"
                );
            }
        }
        assert!(phrases >= 20, "the table was read: {phrases} phrases");
    }

    #[test]
    fn chunks_rebuild_the_text_a_word_and_its_spaces_each() {
        assert_eq!(word_chunks(HELP).concat(), HELP);
        assert_eq!(word_chunks(demo_documents::DASHBOARD).concat(), demo_documents::DASHBOARD);
        assert_eq!(word_chunks("a  b\n    - c "), ["a  ", "b\n    ", "- ", "c "]);
    }
}
