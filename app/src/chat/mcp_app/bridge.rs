//! The host's side of an MCP App's bridge (the `io.modelcontextprotocol/ui` extension,
//! 2026-01-26): JSON-RPC over `postMessage`, relayed by the sandbox. What Palaver answers each
//! message of the view, and when it sends the tool's input and result: the HTML once the sandbox
//! is ready; `ui/initialize` with Palaver's capabilities and context; then, once the view says it
//! is initialized (never before), the tool's input (as the model writes it, then whole) and its
//! result, and what changes of the page
//! (its theme, its display mode). The view may call its server's tools (the page sends them on,
//! `/apps/call`), read its server's resources, ask to open a link (the person confirms it), send
//! the person's next message, tell the model what it shows (`ui/update-model-context`), ask for
//! another display mode, report its size and log. A view drawn for a question of its server's
//! (ext-apps' draft of app-rendered elicitations) is sent that `elicitation/create` instead, once
//! it says it answers questions, and answers it; it may do nothing else. Pure: the page posts
//! what it says and runs what it asks (`super::McpApp`).

use serde_json::{Map, Value, json};

/// The revision of the extension Palaver speaks.
pub const PROTOCOL_VERSION: &str = "2026-01-26";
/// The tallest a view is drawn in the transcript.
pub const MAX_HEIGHT: u32 = 800;
/// JSON-RPC's codes Palaver answers with.
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
/// The code of a refused or failed tool call (the specification's for a host's refusal).
const REFUSED: i64 = -32000;
/// The id of Palaver's request to a view, `ui/resource-teardown`.
const TEARDOWN_ID: &str = "palaver-teardown";
/// The ids of Palaver's questions to a view drawn for one (`elicitation/create`), by number.
const QUESTION_ID: &str = "palaver-question-";
/// What a view drawn for a question may ask besides answering it: no tool calls, resources,
/// messages or model context.
const QUESTION_APP_MAY: [&str; 4] = ["ui/initialize", "ping", "ui/open-link", "ui/request-display-mode"];

/// The display modes Palaver draws a view in: below its call, over the whole page, or in a
/// small window in a corner that stays while the conversation scrolls.
pub const DISPLAY_MODES: [&str; 3] = ["inline", "fullscreen", "pip"];

/// What the page does for the bridge.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Post this message to the sandbox.
    Post(Value),
    /// Send the app's call to its server's tool, then answer the request `id` (`Bridge::called`).
    CallTool { id: Value, name: String, arguments: Map<String, Value> },
    /// Read the resource `uri` from the app's server, then answer the request `id`
    /// (`Bridge::called`).
    ReadResource { id: Value, uri: String },
    /// Draw the view this many pixels tall.
    Resize(u32),
    /// Ask the person whether to open `url` (an http or https address) in a new tab, then
    /// answer the request `id` (`Bridge::link_opened`).
    OpenLink { id: Value, url: String },
    /// The view logged this (kept in the browser's console).
    Log(String),
    /// Show the view in `mode` (one of [`DISPLAY_MODES`]), then answer the request `id`
    /// (`Bridge::display_mode_set`).
    DisplayMode { id: Value, mode: String },
    /// Send `text` as the person's next message in the conversation, shown as the app's, then
    /// answer the request `id` (`Bridge::message_sent`).
    SendMessage { id: Value, text: String },
    /// Keep `context` (`content` and/or `structuredContent`; neither clears it) for the model's
    /// next step and for the view's next drawing, then answer the request `id` (`Bridge::called`).
    UpdateModelContext { id: Value, context: Value },
    /// The view answered its teardown (or it is past waiting for): remove it.
    Close,
    /// The view answered the question it is drawn for (an `ElicitResult`): send it as the answer.
    Answered(Value),
    /// The view cannot answer the question it is drawn for (why): Palaver's card asks it instead.
    Unanswerable(String),
}

/// What a view is drawn for.
#[derive(Clone, Debug, PartialEq)]
pub enum Drawn {
    /// A call the model is still writing: its arguments so far.
    Writing(Value),
    /// A call: its arguments, and how it ended.
    Call { arguments: Value, outcome: CallOutcome },
    /// A question of its server's it answers: the `elicitation/create` params, passed on as they came.
    Question(Value),
}

/// How the call a view is drawn for ended, as the view is told it.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// Its result (`CallToolResult`).
    Result(Value),
    /// It never finished, and never will (its turn was stopped or cut off): why.
    Cancelled(String),
    /// It waits (on the person's answer to its server's question): the view is told nothing yet.
    Waiting,
}

/// The page's side of one view's bridge.
pub struct Bridge {
    html: String,
    drawn: Drawn,
    /// What the view is told of Palaver and the page (`hostContext`).
    context: Value,
    /// The view said it is initialized: it may be sent the tool's input and result.
    initialized: bool,
    /// Palaver asked the view to tear down, and waits for its answer.
    tearing_down: bool,
    /// The display modes the view says it supports (`appCapabilities.availableDisplayModes`),
    /// when it says.
    view_modes: Option<Vec<String>>,
    /// The view says it answers questions (`appCapabilities.elicitation`).
    answers_questions: bool,
    /// How many times the question was put to the view (its request's number).
    asked: u32,
    /// The question put to it last waits for its answer (only its first counts).
    awaiting_answer: bool,
}

impl Bridge {
    /// A bridge for the view `html`, drawn for `drawn`, told `context` of the page.
    pub fn new(html: String, drawn: Drawn, context: Value) -> Self {
        Bridge {
            html,
            drawn,
            context,
            initialized: false,
            tearing_down: false,
            view_modes: None,
            answers_questions: false,
            asked: 0,
            awaiting_answer: false,
        }
    }

    /// Asks the view to tear down (`ui/resource-teardown`, saying why), before it is removed: it
    /// may save what it needs. A view not yet initialized is closed at once.
    pub fn teardown(&mut self, reason: &str) -> Vec<Effect> {
        if !self.initialized {
            return vec![Effect::Close];
        }
        if std::mem::replace(&mut self.tearing_down, true) {
            return Vec::new();
        }
        let params = json!({"reason": reason});
        vec![Effect::Post(
            json!({"jsonrpc": "2.0", "id": TEARDOWN_ID, "method": "ui/resource-teardown", "params": params}),
        )]
    }

    /// The view did not answer its teardown in time: it is closed anyway.
    pub fn teardown_timed_out(&mut self) -> Vec<Effect> {
        if std::mem::take(&mut self.tearing_down) { vec![Effect::Close] } else { Vec::new() }
    }

    /// What the page does for `message`, from the view or its sandbox.
    pub fn receive(&mut self, message: &Value) -> Vec<Effect> {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            // The answer to the teardown, an error too, closes the view; the answer to the
            // question asked last is the view's; any other response (to no request of
            // Palaver's) or anything not JSON-RPC asks nothing.
            let id = message.get("id").and_then(Value::as_str);
            if id == Some(TEARDOWN_ID) && std::mem::take(&mut self.tearing_down) {
                return vec![Effect::Close];
            }
            let asked_last = format!("{QUESTION_ID}{}", self.asked);
            if id != Some(asked_last.as_str()) || !std::mem::take(&mut self.awaiting_answer) {
                return Vec::new();
            }
            return match message.get("result") {
                // The app gave up the question: the person answers it, or skips it, on the card.
                Some(result) if result["action"] == "cancel" => vec![Effect::Unanswerable(
                    "The app closed the question without an answer: answer it here, or skip it.".into(),
                )],
                Some(result) => vec![Effect::Answered(result.clone())],
                None => {
                    let why = message.pointer("/error/message").and_then(Value::as_str).unwrap_or("no reason given");
                    vec![Effect::Unanswerable(format!("The app could not answer the question ({why})."))]
                }
            };
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = message.get("id").cloned() else {
            return self.notified(method, &params);
        };
        if matches!(self.drawn, Drawn::Question(_)) && !QUESTION_APP_MAY.contains(&method) {
            return vec![Effect::Post(error(id, REFUSED, "An app drawn for a question only answers it."))];
        }
        match method {
            "ui/initialize" => {
                let modes = params.pointer("/appCapabilities/availableDisplayModes").and_then(Value::as_array);
                self.view_modes =
                    modes.map(|modes| modes.iter().filter_map(Value::as_str).map(str::to_string).collect());
                self.answers_questions = params.pointer("/appCapabilities/elicitation").is_some_and(Value::is_object);
                vec![Effect::Post(response(id, self.initialize_result()))]
            }
            "ping" => vec![Effect::Post(response(id, json!({})))],
            "tools/call" => match (params.get("name").and_then(Value::as_str), params.get("arguments")) {
                (Some(name), None | Some(Value::Null)) => {
                    vec![Effect::CallTool { id, name: name.to_string(), arguments: Map::new() }]
                }
                (Some(name), Some(Value::Object(arguments))) => {
                    vec![Effect::CallTool { id, name: name.to_string(), arguments: arguments.clone() }]
                }
                _ => vec![Effect::Post(error(
                    id,
                    INVALID_PARAMS,
                    "tools/call needs a tool's name and an object of arguments.",
                ))],
            },
            "resources/read" => match params.get("uri").and_then(Value::as_str) {
                Some(uri) => vec![Effect::ReadResource { id, uri: uri.to_string() }],
                None => vec![Effect::Post(error(id, INVALID_PARAMS, "resources/read needs a uri."))],
            },
            "ui/request-display-mode" => match params.get("mode").and_then(Value::as_str) {
                Some(mode) if DISPLAY_MODES.contains(&mode) && self.view_supports(mode) => {
                    vec![Effect::DisplayMode { id, mode: mode.to_string() }]
                }
                // A mode Palaver does not draw, or the view said it does not support: the view
                // stays as it is, and is told so.
                _ => vec![Effect::Post(response(id, json!({"mode": self.display_mode()})))],
            },
            "ui/message" => match message_text(&params) {
                Some(text) => vec![Effect::SendMessage { id, text }],
                None => vec![Effect::Post(error(id, INVALID_PARAMS, "ui/message needs text content from the user."))],
            },
            "ui/update-model-context" => {
                let mut context = Map::new();
                for key in ["content", "structuredContent"] {
                    if let Some(value) = params.get(key).filter(|value| !value.is_null()) {
                        context.insert(key.to_string(), value.clone());
                    }
                }
                vec![Effect::UpdateModelContext { id, context: Value::Object(context) }]
            }
            "ui/open-link" => match params.get("url").and_then(Value::as_str) {
                Some(url) if url.starts_with("https://") || url.starts_with("http://") => {
                    vec![Effect::OpenLink { id, url: url.to_string() }]
                }
                _ => vec![Effect::Post(error(id, INVALID_PARAMS, "ui/open-link needs an http or https url."))],
            },
            _ => vec![Effect::Post(error(id, METHOD_NOT_FOUND, &format!("Palaver does not offer {method} to apps.")))],
        }
    }

    fn notified(&mut self, method: &str, params: &Value) -> Vec<Effect> {
        match method {
            "ui/notifications/sandbox-proxy-ready" => {
                vec![Effect::Post(notification("ui/notifications/sandbox-resource-ready", json!({"html": self.html})))]
            }
            "ui/notifications/initialized" if !self.initialized => {
                self.initialized = true;
                let (arguments, outcome) = match &self.drawn {
                    Drawn::Call { arguments, outcome } => (arguments, outcome),
                    Drawn::Writing(arguments) => return vec![Effect::Post(partial_input(arguments))],
                    Drawn::Question(_) => return self.ask(),
                };
                let input = notification("ui/notifications/tool-input", json!({"arguments": arguments}));
                let outcome = match outcome {
                    CallOutcome::Result(result) => Some(notification("ui/notifications/tool-result", result.clone())),
                    CallOutcome::Cancelled(reason) => {
                        Some(notification("ui/notifications/tool-cancelled", json!({"reason": reason})))
                    }
                    CallOutcome::Waiting => None,
                };
                [input].into_iter().chain(outcome).map(Effect::Post).collect()
            }
            "ui/notifications/size-changed" => match params.get("height").and_then(Value::as_f64) {
                Some(height) if height.is_finite() && height >= 0.0 => {
                    vec![Effect::Resize((height.ceil() as u32).min(MAX_HEIGHT))]
                }
                _ => Vec::new(),
            },
            // The view asks to be closed: Palaver asks it to tear down first, as for its own close.
            "ui/notifications/request-teardown" => self.teardown("The app asked to be closed."),
            "notifications/message" => {
                let level = params.get("level").and_then(Value::as_str).unwrap_or("info");
                let data = params.get("data").map(Value::to_string).unwrap_or_default();
                vec![Effect::Log(format!("{level}: {data}"))]
            }
            _ => Vec::new(),
        }
    }

    /// The model wrote more of the call the view is drawn for (`arguments`, read as far as they
    /// go), or all of it (`complete`): the view hears it once it is initialized.
    pub fn arguments_written(&mut self, arguments: Value, complete: bool) -> Vec<Effect> {
        if !matches!(self.drawn, Drawn::Writing(_)) {
            return Vec::new();
        }
        let message = match complete {
            true => notification("ui/notifications/tool-input", json!({"arguments": arguments})),
            false => partial_input(&arguments),
        };
        self.drawn = match complete {
            true => Drawn::Call { arguments, outcome: CallOutcome::Waiting },
            false => Drawn::Writing(arguments),
        };
        if self.initialized { vec![Effect::Post(message)] } else { Vec::new() }
    }

    /// Puts the question the view is drawn for to it (`elicitation/create`, as the server sent
    /// it), when it said it answers questions; else Palaver's card asks it.
    fn ask(&mut self) -> Vec<Effect> {
        let Drawn::Question(params) = &self.drawn else { return Vec::new() };
        if !self.answers_questions {
            return vec![Effect::Unanswerable("The app does not say it answers questions.".into())];
        }
        self.asked += 1;
        self.awaiting_answer = true;
        let id = format!("{QUESTION_ID}{}", self.asked);
        vec![Effect::Post(json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": params}))]
    }

    /// Palaver refused the view's answer (it did not fit what was asked), or could not send it:
    /// the question is put to it again.
    pub fn ask_again(&mut self) -> Vec<Effect> {
        if self.initialized { self.ask() } else { Vec::new() }
    }

    /// Whether the question was put to the view yet.
    pub fn has_asked(&self) -> bool {
        self.asked > 0
    }

    /// The page changed what the view was told (`change`, such as its theme): the view hears it
    /// once it is initialized, and is told it in its context before.
    pub fn context_changed(&mut self, change: Map<String, Value>) -> Vec<Effect> {
        // Only what differs from what the view was told.
        let change: Map<String, Value> =
            change.into_iter().filter(|(key, value)| self.context.get(key) != Some(value)).collect();
        if let Value::Object(context) = &mut self.context {
            context.extend(change.clone());
        }
        match self.initialized && !change.is_empty() {
            true => vec![Effect::Post(notification("ui/notifications/host-context-changed", Value::Object(change)))],
            false => Vec::new(),
        }
    }

    /// Whether the view may be shown in `mode`: one it said it supports, when it said.
    fn view_supports(&self, mode: &str) -> bool {
        self.view_modes.as_ref().is_none_or(|modes| modes.iter().any(|supported| supported == mode))
    }

    /// The mode the view is shown in now.
    pub fn display_mode(&self) -> &str {
        self.context.get("displayMode").and_then(Value::as_str).unwrap_or("inline")
    }

    /// The view is shown in `mode` now: the answer to its request `id`, when it asked, and the
    /// change of its context.
    pub fn display_mode_set(&mut self, id: Option<Value>, mode: &str) -> Vec<Effect> {
        let change = json!({"displayMode": mode}).as_object().cloned().unwrap_or_default();
        let answer = id.map(|id| Effect::Post(response(id, json!({"mode": mode}))));
        answer.into_iter().chain(self.context_changed(change)).collect()
    }

    /// The answer to the view's `ui/message` `id`: sent, or why not (the view shows it failed).
    pub fn message_sent(id: Value, sent: Result<(), String>) -> Effect {
        Effect::Post(match sent {
            Ok(()) => response(id, json!({})),
            Err(why) => response(id, json!({"isError": true, "content": [{"type": "text", "text": why}]})),
        })
    }

    /// The answer to the view's `ui/open-link` `id`: opened, or the person said no.
    pub fn link_opened(id: Value, opened: bool) -> Effect {
        Effect::Post(match opened {
            true => response(id, json!({})),
            false => error(id, REFUSED, "The person chose not to open the link."),
        })
    }

    fn initialize_result(&self) -> Value {
        let capabilities = match self.drawn {
            Drawn::Call { .. } | Drawn::Writing(_) => json!({
                "serverTools": {},
                "serverResources": {},
                "logging": {},
                "openLinks": {},
                "message": {"text": {}},
                "updateModelContext": {"text": {}, "structuredContent": {}},
            }),
            Drawn::Question(_) => json!({"elicitation": {}, "logging": {}, "openLinks": {}}),
        };
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "hostInfo": {"name": "Palaver", "version": env!("CARGO_PKG_VERSION")},
            "hostCapabilities": capabilities,
            "hostContext": self.context,
        })
    }

    /// The answer to the view's call `id`: the server's result, or why there is none.
    pub fn called(id: Value, outcome: Result<Value, String>) -> Effect {
        Effect::Post(match outcome {
            Ok(result) => response(id, result),
            Err(why) => error(id, REFUSED, &why),
        })
    }
}

/// The text of a `ui/message` from the user: its text blocks (a list, or one block as older
/// views send it), a paragraph each; none when it has no text.
fn message_text(params: &Value) -> Option<String> {
    if params.get("role").and_then(Value::as_str).is_some_and(|role| role != "user") {
        return None;
    }
    let content = params.get("content")?;
    let blocks = match content {
        Value::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    let texts: Vec<&str> = blocks
        .into_iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// A result as the model was told it (and as it is stored), as the view reads results
/// (`CallToolResult`): an error as an error's text, text as text, anything else as structured
/// content beside its JSON text.
pub fn call_tool_result(told: &Value) -> Value {
    let text = |text: &Value| json!([{"type": "text", "text": text.as_str().map_or_else(|| text.to_string(), str::to_string)}]);
    match told {
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("error") => {
            json!({"content": text(&fields["error"]), "isError": true})
        }
        Value::Object(fields)
            if fields.contains_key("text") && fields.keys().all(|key| key == "text" || key == "note") =>
        {
            json!({"content": text(&fields["text"])})
        }
        Value::Object(_) => json!({"content": text(&Value::String(told.to_string())), "structuredContent": told}),
        other => json!({"content": text(other)}),
    }
}

fn response(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn partial_input(arguments: &Value) -> Value {
    notification("ui/notifications/tool-input-partial", json!({"arguments": arguments}))
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bridge(outcome: CallOutcome) -> Bridge {
        let drawn = Drawn::Call { arguments: json!({"city": "Oslo"}), outcome };
        Bridge::new("<p>hi</p>".into(), drawn, json!({"theme": "dark"}))
    }

    fn posted(effects: &[Effect]) -> Vec<&Value> {
        effects
            .iter()
            .filter_map(|effect| if let Effect::Post(message) = effect { Some(message) } else { None })
            .collect()
    }

    #[test]
    fn the_view_gets_its_html_then_its_context_then_input_and_result_once_initialized() {
        let mut bridge = bridge(CallOutcome::Result(json!({"content": []})));
        let ready =
            bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {}}));
        assert_eq!(posted(&ready)[0]["params"]["html"], "<p>hi</p>");
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
            "params": {"protocolVersion": "2026-01-26", "appInfo": {"name": "x", "version": "1"}, "appCapabilities": {}}});
        let answered = bridge.receive(&init);
        let reply = posted(&answered)[0];
        assert_eq!((&reply["id"], &reply["result"]["protocolVersion"]), (&json!(0), &json!("2026-01-26")));
        assert_eq!(reply["result"]["hostContext"]["theme"], "dark");
        assert!(reply["result"]["hostInfo"].is_object() && reply["result"]["hostCapabilities"].is_object());
        // Nothing of the tool's before the view is initialized; then its input, then its result, once.
        let initialized = bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let sent: Vec<&str> = posted(&initialized).iter().filter_map(|message| message["method"].as_str()).collect();
        assert_eq!(sent, ["ui/notifications/tool-input", "ui/notifications/tool-result"]);
        assert_eq!(posted(&initialized)[0]["params"]["arguments"], json!({"city": "Oslo"}));
        assert!(bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})).is_empty());
    }

    #[test]
    fn calls_sizes_and_unknown_requests_get_their_answers() {
        let mut bridge = bridge(CallOutcome::Waiting);
        let call = bridge.receive(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "poll", "arguments": {"n": 1}, "_meta": {"progressToken": 1}}}));
        let mut arguments = Map::new();
        arguments.insert("n".into(), json!(1));
        assert_eq!(call, [Effect::CallTool { id: json!(3), name: "poll".into(), arguments }]);
        let bad =
            bridge.receive(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"arguments": 1}}));
        assert_eq!(posted(&bad)[0]["error"]["code"], INVALID_PARAMS);
        let open = bridge
            .receive(&json!({"jsonrpc": "2.0", "id": 5, "method": "ui/open-link", "params": {"url": "https://x"}}));
        assert_eq!(open, [Effect::OpenLink { id: json!(5), url: "https://x".into() }]);
        let script = bridge.receive(&json!({"jsonrpc": "2.0", "id": 6, "method": "ui/open-link",
            "params": {"url": "javascript:alert(1)"}}));
        assert_eq!(posted(&script)[0]["error"]["code"], INVALID_PARAMS);
        let read = bridge
            .receive(&json!({"jsonrpc": "2.0", "id": 15, "method": "resources/read", "params": {"uri": "ui://a/b"}}));
        assert_eq!(read, [Effect::ReadResource { id: json!(15), uri: "ui://a/b".into() }]);
        let unknown = bridge.receive(&json!({"jsonrpc": "2.0", "id": 7, "method": "ui/download-file", "params": {}}));
        assert_eq!(posted(&unknown)[0]["error"]["code"], METHOD_NOT_FOUND);
        let declined = Bridge::called(json!(5), Err("The person chose not to open the link.".into()));
        assert_eq!(Bridge::link_opened(json!(5), false), declined);
        assert_eq!(
            bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/size-changed",
            "params": {"width": 300, "height": 240.2}})),
            [Effect::Resize(241)]
        );
        assert_eq!(
            bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/size-changed",
            "params": {"height": 99999}})),
            [Effect::Resize(MAX_HEIGHT)]
        );
        let refused = Bridge::called(json!(3), Err("not for apps".into()));
        assert_eq!(
            refused,
            Effect::Post(json!({"jsonrpc": "2.0", "id": 3, "error": {"code": REFUSED, "message": "not for apps"}}))
        );
        // A response of the view's, or anything not JSON-RPC, asks nothing of the page.
        assert!(bridge.receive(&json!({"jsonrpc": "2.0", "id": "t", "result": {}})).is_empty());
        assert!(bridge.receive(&json!("hello")).is_empty());
    }

    #[test]
    fn a_theme_change_reaches_an_initialized_view_and_a_later_one_in_its_context() {
        let mut bridge = bridge(CallOutcome::Waiting);
        let light = json!({"theme": "light"}).as_object().cloned().unwrap();
        assert!(bridge.context_changed(light).is_empty(), "not before the view is initialized");
        let init = bridge.receive(&json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {}}));
        assert_eq!(posted(&init)[0]["result"]["hostContext"]["theme"], "light");
        bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let changed = bridge.context_changed(json!({"theme": "dark"}).as_object().cloned().unwrap());
        assert_eq!(posted(&changed)[0]["method"], "ui/notifications/host-context-changed");
        assert_eq!(posted(&changed)[0]["params"], json!({"theme": "dark"}));
        // What it was told already is not told again; only what changed is.
        assert!(bridge.context_changed(json!({"theme": "dark"}).as_object().cloned().unwrap()).is_empty());
        let resized = json!({"theme": "dark", "containerDimensions": {"maxHeight": 800, "width": 640}});
        let resized = bridge.context_changed(resized.as_object().cloned().unwrap());
        assert_eq!(posted(&resized)[0]["params"], json!({"containerDimensions": {"maxHeight": 800, "width": 640}}));
    }

    #[test]
    fn stored_results_read_as_the_view_reads_results() {
        assert_eq!(call_tool_result(&json!({"text": "hi"})), json!({"content": [{"type": "text", "text": "hi"}]}));
        assert_eq!(
            call_tool_result(&json!({"error": "no"})),
            json!({"content": [{"type": "text", "text": "no"}], "isError": true})
        );
        let structured = call_tool_result(&json!({"time": "12:00"}));
        assert_eq!(structured["structuredContent"], json!({"time": "12:00"}));
        assert_eq!(structured["content"][0]["text"], r#"{"time":"12:00"}"#);
    }

    #[test]
    fn a_view_asks_for_a_display_mode_and_hears_the_one_it_is_shown_in() {
        let mut bridge = bridge(CallOutcome::Waiting);
        bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let asked = bridge.receive(&json!({"jsonrpc": "2.0", "id": 8, "method": "ui/request-display-mode",
            "params": {"mode": "fullscreen"}}));
        assert_eq!(asked, [Effect::DisplayMode { id: json!(8), mode: "fullscreen".into() }]);
        let set = bridge.display_mode_set(Some(json!(8)), "fullscreen");
        assert_eq!(posted(&set)[0], &json!({"jsonrpc": "2.0", "id": 8, "result": {"mode": "fullscreen"}}));
        assert_eq!(posted(&set)[1]["params"], json!({"displayMode": "fullscreen"}));
        assert_eq!(bridge.display_mode(), "fullscreen");
        // A mode Palaver does not draw leaves it as it is.
        let odd = bridge.receive(&json!({"jsonrpc": "2.0", "id": 9, "method": "ui/request-display-mode",
            "params": {"mode": "sideways"}}));
        assert_eq!(posted(&odd)[0]["result"], json!({"mode": "fullscreen"}));
        // A view that says it supports inline and fullscreen only is not put in a corner.
        let mut declared = self::bridge(CallOutcome::Waiting);
        declared.receive(&json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
            "params": {"appCapabilities": {"availableDisplayModes": ["inline", "fullscreen"]}}}));
        let corner = declared.receive(&json!({"jsonrpc": "2.0", "id": 1, "method": "ui/request-display-mode",
            "params": {"mode": "pip"}}));
        assert_eq!(posted(&corner)[0]["result"], json!({"mode": "inline"}));
        // The person takes it back inline: the view is told, with no request to answer.
        let back = bridge.display_mode_set(None, "inline");
        assert_eq!(posted(&back).len(), 1);
        assert_eq!(posted(&back)[0]["params"], json!({"displayMode": "inline"}));
    }

    #[test]
    fn a_views_message_and_model_context_reach_the_page() {
        let mut bridge = bridge(CallOutcome::Waiting);
        let message = bridge.receive(&json!({"jsonrpc": "2.0", "id": 10, "method": "ui/message",
            "params": {"role": "user", "content": [{"type": "text", "text": "Book it "}, {"type": "image", "data": ""},
            {"type": "text", "text": "for two"}]}}));
        assert_eq!(message, [Effect::SendMessage { id: json!(10), text: "Book it\n\nfor two".into() }]);
        let older = bridge.receive(&json!({"jsonrpc": "2.0", "id": 11, "method": "ui/message",
            "params": {"role": "user", "content": {"type": "text", "text": "One block"}}}));
        assert_eq!(older, [Effect::SendMessage { id: json!(11), text: "One block".into() }]);
        let empty = bridge.receive(&json!({"jsonrpc": "2.0", "id": 12, "method": "ui/message",
            "params": {"role": "user", "content": []}}));
        assert_eq!(posted(&empty)[0]["error"]["code"], INVALID_PARAMS);
        let failed = Bridge::message_sent(json!(10), Err("A reply is being written.".into()));
        assert_eq!(posted(&[failed])[0]["result"]["isError"], true);

        let context = bridge.receive(&json!({"jsonrpc": "2.0", "id": 13, "method": "ui/update-model-context",
            "params": {"content": [{"type": "text", "text": "Row 4 picked"}], "structuredContent": {"row": 4}}}));
        let kept = json!({"content": [{"type": "text", "text": "Row 4 picked"}], "structuredContent": {"row": 4}});
        assert_eq!(context, [Effect::UpdateModelContext { id: json!(13), context: kept }]);
        let cleared = bridge.receive(&json!({"jsonrpc": "2.0", "id": 14, "method": "ui/update-model-context",
            "params": {}}));
        assert_eq!(cleared, [Effect::UpdateModelContext { id: json!(14), context: json!({}) }]);
    }

    #[test]
    fn a_view_whose_call_never_finished_is_told_it_was_cancelled() {
        let mut bridge = bridge(CallOutcome::Cancelled("The turn was stopped.".into()));
        let initialized = bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let sent: Vec<&Value> = posted(&initialized);
        assert_eq!(sent[0]["method"], "ui/notifications/tool-input");
        assert_eq!(sent[1]["method"], "ui/notifications/tool-cancelled");
        assert_eq!(sent[1]["params"], json!({"reason": "The turn was stopped."}));
        assert_eq!(sent.len(), 2);
    }

    #[test]
    fn a_view_is_asked_to_tear_down_and_closed_on_its_answer_or_when_it_gives_none() {
        let mut bridge = bridge(CallOutcome::Waiting);
        assert_eq!(bridge.teardown("closed"), [Effect::Close], "not initialized: nothing to ask");
        bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let asked = bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/request-teardown"}));
        assert_eq!(posted(&asked)[0]["method"], "ui/resource-teardown");
        assert_eq!(posted(&asked)[0]["params"], json!({"reason": "The app asked to be closed."}));
        assert!(bridge.teardown("closed").is_empty(), "asked once");
        // Its answer (here an error: it has no teardown of its own) closes it, once.
        let answer =
            json!({"jsonrpc": "2.0", "id": TEARDOWN_ID, "error": {"code": -32601, "message": "Method not found"}});
        assert_eq!(bridge.receive(&answer), [Effect::Close]);
        assert!(bridge.receive(&answer).is_empty());
        assert!(bridge.teardown_timed_out().is_empty(), "answered already");
        // Without an answer, the time out closes it.
        bridge.teardown("The person closed the app.");
        assert_eq!(bridge.teardown_timed_out(), [Effect::Close]);
    }

    #[test]
    fn a_view_drawn_for_a_question_is_put_it_once_it_says_it_answers_and_does_nothing_else() {
        let params = json!({"mode": "form", "message": "Which seat?", "requestedSchema": {"type": "object"},
            "_meta": {"ui": {"resourceUri": "ui://desk/seat-picker.html"}}});
        let mut bridge = Bridge::new("<p>seats</p>".into(), Drawn::Question(params.clone()), json!({}));
        let init = bridge.receive(&json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
            "params": {"appCapabilities": {"elicitation": {}}}}));
        assert_eq!(posted(&init)[0]["result"]["hostCapabilities"]["elicitation"], json!({}));
        assert!(posted(&init)[0]["result"]["hostCapabilities"].get("serverTools").is_none());
        let initialized = bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let asked = posted(&initialized)[0];
        assert_eq!(
            (&asked["method"], &asked["params"]),
            (&json!("elicitation/create"), &params),
            "as the server sent it"
        );
        assert_eq!(posted(&initialized).len(), 1, "no tool input or result");
        // It may not call tools, read resources, talk for the person or tell the model.
        for method in ["tools/call", "resources/read", "ui/message", "ui/update-model-context", "ui/unknown"] {
            let refused = bridge.receive(&json!({"jsonrpc": "2.0", "id": 5, "method": method, "params": {}}));
            assert_eq!(posted(&refused)[0]["error"]["code"], REFUSED, "{method}");
        }
        // Only the answer to the question asked last is the view's answer.
        let result = json!({"action": "accept", "content": {"seat": "B4"}});
        assert!(bridge.receive(&json!({"jsonrpc": "2.0", "id": "palaver-question-7", "result": result})).is_empty());
        let answered = bridge.receive(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": result}));
        assert_eq!(answered, [Effect::Answered(result.clone())]);
        let twice = bridge.receive(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": result}));
        assert!(twice.is_empty(), "a question has one answer");
        let again = bridge.ask_again();
        let second = posted(&again)[0];
        assert_ne!(second["id"], asked["id"]);
        let failed =
            bridge.receive(&json!({"jsonrpc": "2.0", "id": second["id"], "error": {"code": -1, "message": "no"}}));
        assert_eq!(failed, [Effect::Unanswerable("The app could not answer the question (no).".into())]);
        let third = bridge.ask_again();
        let cancelled = bridge.receive(&json!({"jsonrpc": "2.0", "id": posted(&third)[0]["id"],
            "result": {"action": "cancel"}}));
        assert!(matches!(&cancelled[..], [Effect::Unanswerable(_)]), "the card takes it: {cancelled:?}");

        // A view that does not say it answers questions is not put one: Palaver's card asks it.
        let mut silent = Bridge::new("<p>seats</p>".into(), Drawn::Question(params), json!({}));
        silent.receive(&json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize", "params": {}}));
        let initialized = silent.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        assert!(matches!(&initialized[..], [Effect::Unanswerable(_)]), "{initialized:?}");
    }

    #[test]
    fn a_view_drawn_while_the_model_writes_its_call_hears_the_arguments_as_they_grow_then_whole() {
        let mut bridge = Bridge::new("<p>hi</p>".into(), Drawn::Writing(json!({"city": "Os"})), json!({}));
        assert!(bridge.arguments_written(json!({"city": "Osl"}), false).is_empty(), "not before it is initialized");
        let initialized = bridge.receive(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}));
        let sent = posted(&initialized);
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["method"], "ui/notifications/tool-input-partial");
        assert_eq!(sent[0]["params"], json!({"arguments": {"city": "Osl"}}));
        let more = bridge.arguments_written(json!({"city": "Oslo", "days": 2}), false);
        assert_eq!(posted(&more)[0]["params"]["arguments"], json!({"city": "Oslo", "days": 2}));
        let whole = bridge.arguments_written(json!({"city": "Oslo", "days": 3}), true);
        assert_eq!(posted(&whole)[0]["method"], "ui/notifications/tool-input");
        assert_eq!(posted(&whole)[0]["params"]["arguments"], json!({"city": "Oslo", "days": 3}));
        assert!(bridge.arguments_written(json!({"city": "Bergen"}), false).is_empty(), "whole once: nothing after");
    }
}
