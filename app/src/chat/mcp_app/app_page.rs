//! The page's side of one drawn app: it posts what the bridge says to the app's frame, and does
//! what the app asks of the page — sends its tool calls (and shows Palaver's card for one that
//! waits for approval), reads its server's resources, confirms a link with the person, sends a message for the person, keeps
//! what it tells the model, shows it in another display mode, sizes its frame, and closes it
//! once it has torn down.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AppMessages;
use super::bridge::{Bridge, Effect, MAX_HEIGHT};
use palaver_wire::apps::{AppApproval, AppCallOutcome};
use palaver_wire::conversation::model::link_host_line;

#[derive(Clone)]
pub(super) struct AppPage {
    pub(super) frame: leptos::web_sys::HtmlIFrameElement,
    pub(super) origin: String,
    /// The tool whose app it is (model-facing name): its calls go to that tool's server.
    pub(super) tool: String,
    /// The call it is drawn for: what it tells the model is kept for that call.
    pub(super) tool_call_id: String,
    pub(super) server: String,
    /// The conversation it is drawn in: an approval of its call is asked and audited there,
    /// and its messages are sent there.
    pub(super) conversation_id: String,
    pub(super) bridge: StoredValue<Bridge, LocalStorage>,
    pub(super) height: RwSignal<u32>,
    /// The display mode it is shown in (one of `bridge::DISPLAY_MODES`).
    pub(super) mode: RwSignal<String>,
    /// The app's call waiting for the person's approval on Palaver's card.
    pub(super) waiting: RwSignal<Option<WaitingCall>>,
    /// Set once the app is torn down: it is removed.
    pub(super) closed: RwSignal<bool>,
    /// How the chat sends a message for the person (none where there is no chat).
    pub(super) messages: Option<AppMessages>,
    /// For an app drawn for a question: what the card does with its answer, or when it has none.
    pub(super) question: Option<QuestionHooks>,
}

/// What becomes of the answer of an app drawn for a question.
#[derive(Clone, Copy)]
pub(super) struct QuestionHooks {
    /// Sends its answer (an `ElicitResult`).
    pub(super) answered: Callback<Value>,
    /// It cannot answer (why): Palaver's card asks instead.
    pub(super) unanswerable: Callback<String>,
}

/// An app's call shown on Palaver's card, and the app's request it answers.
#[derive(Clone)]
pub(super) struct WaitingCall {
    pub(super) request: Value,
    pub(super) approval: AppApproval,
}

impl AppPage {
    pub(super) fn run_all(&self, effects: Vec<Effect>) {
        effects.into_iter().for_each(|effect| self.run(effect));
    }

    /// Does what the bridge asks of the page.
    fn run(&self, effect: Effect) {
        match effect {
            Effect::Post(message) => self.post(&message),
            // The app may be gone by the time an answer comes: its signals then take nothing.
            Effect::Close => _ = self.closed.try_set(true),
            Effect::Resize(pixels) => _ = self.height.try_set(pixels),
            Effect::Log(line) => leptos::logging::log!("MCP App ({}): {line}", self.tool),
            Effect::OpenLink { id, url } => {
                let opened = crate::browser::confirm(&link_question(&self.server, &url));
                if opened {
                    crate::browser::open_link(&url);
                }
                self.run(Bridge::link_opened(id, opened));
            }
            Effect::CallTool { id, name, arguments } => self.call_tool(id, name, arguments),
            Effect::Answered(result) => {
                self.question.iter().for_each(|hooks| _ = hooks.answered.try_run(result.clone()))
            }
            Effect::Unanswerable(why) => {
                self.question.iter().for_each(|hooks| _ = hooks.unanswerable.try_run(why.clone()))
            }
            Effect::ReadResource { id, uri } => {
                let component = crate::browser::url_component;
                let url = format!("/apps/resource?tool={}&uri={}", component(&self.tool), component(&uri));
                let page = self.clone();
                leptos::task::spawn_local(async move {
                    let read = crate::browser::request::<Value>("GET", &url, None).await;
                    page.answer(id, read);
                });
            }
            Effect::DisplayMode { id, mode } => self.show_in(Some(id), &mode),
            Effect::SendMessage { id, text } => {
                // Only while the person uses the app (the focus is in its frame): an app left
                // alone cannot talk for them, nor keep a conversation going by itself.
                let sent = match self.messages {
                    _ if !crate::browser::has_focus(&self.frame) => {
                        Err("The person is not using the app: its message was not sent.".to_string())
                    }
                    Some(AppMessages(send)) => send.run((text, self.server.clone(), self.conversation_id.clone())),
                    None => Err("There is no conversation here to send a message to.".to_string()),
                };
                self.run(Bridge::message_sent(id, sent));
            }
            Effect::UpdateModelContext { id, context } => {
                let body = json!({
                    "historyId": self.conversation_id,
                    "toolCallId": self.tool_call_id,
                    "context": context,
                });
                let page = self.clone();
                leptos::task::spawn_local(async move {
                    let kept = crate::browser::request::<Value>("PUT", "/apps/context", Some(body.to_string())).await;
                    page.answer(id, kept.map(|_| json!({})));
                });
            }
        }
    }

    /// Closes the app: it is asked to tear down first, and is removed on its answer, or after
    /// two seconds without one.
    pub(super) fn close(&self) {
        let effects =
            self.bridge.try_update_value(|bridge| bridge.teardown("The person closed the app.")).unwrap_or_default();
        self.run_all(effects);
        let page = self.clone();
        leptos::task::spawn_local(async move {
            crate::browser::sleep(std::time::Duration::from_secs(2)).await;
            let effects = page.bridge.try_update_value(Bridge::teardown_timed_out).unwrap_or_default();
            page.run_all(effects);
        });
    }

    /// Tells the app the room it has now (`containerDimensions`), when that changed: its width,
    /// and the most height it may take inline, or the height it has in the other modes.
    pub(super) fn tell_size(&self) {
        let (width, height) = crate::browser::frame_size(&self.frame);
        let mode = self.mode.try_get_untracked().unwrap_or_default();
        let dimensions = match mode.as_str() {
            "inline" => json!({"maxHeight": MAX_HEIGHT, "width": width}),
            _ => json!({"height": height, "width": width}),
        };
        let change = json!({"containerDimensions": dimensions}).as_object().cloned().unwrap_or_default();
        let effects = self.bridge.try_update_value(|bridge| bridge.context_changed(change)).unwrap_or_default();
        self.run_all(effects);
    }

    /// Puts the question the app is drawn for to it again (its last answer was refused, or not
    /// sent).
    pub(super) fn ask_again(&self) {
        let effects = self.bridge.try_update_value(Bridge::ask_again).unwrap_or_default();
        self.run_all(effects);
    }

    /// Shows the app in `mode`; `id` is the app's request for it, when it asked.
    pub(super) fn show_in(&self, id: Option<Value>, mode: &str) {
        _ = self.mode.try_set(mode.to_string());
        let effects = self.bridge.try_update_value(|bridge| bridge.display_mode_set(id, mode)).unwrap_or_default();
        self.run_all(effects);
    }

    fn call_tool(&self, id: Value, name: String, arguments: serde_json::Map<String, Value>) {
        // Drawn in no conversation (the storybook), it names none: a call that needs approval
        // is then refused.
        let conversation = Some(&self.conversation_id).filter(|id| !id.is_empty());
        let call = json!({"appTool": self.tool, "name": name, "arguments": arguments, "historyId": conversation});
        let page = self.clone();
        leptos::task::spawn_local(async move {
            let outcome = crate::browser::request::<AppCallOutcome>("POST", "/apps/call", Some(call.to_string()));
            match outcome.await {
                Ok(AppCallOutcome::Done { result }) => page.answer(id, Ok(result)),
                Ok(AppCallOutcome::Approval { approval }) => {
                    _ = page.waiting.try_set(Some(WaitingCall { request: id, approval }));
                }
                Err(why) => page.answer(id, Err(why)),
            }
        });
    }

    /// Sends the person's answer on the card; the app's request gets the call's result.
    pub(super) fn decide(&self, request: Value, approval_id: &str, approve: bool) {
        let url = format!("/apps/approvals/{}", crate::browser::url_component(approval_id));
        let body = json!({"approve": approve}).to_string();
        let page = self.clone();
        leptos::task::spawn_local(async move {
            let outcome = crate::browser::request::<Value>("POST", &url, Some(body)).await;
            _ = page.waiting.try_set(None);
            page.answer(request, outcome);
        });
    }

    /// Answers the app's request `id` with its outcome.
    fn answer(&self, id: Value, outcome: Result<Value, String>) {
        self.run(Bridge::called(id, outcome));
    }

    fn post(&self, message: &Value) {
        crate::browser::post_to_frame(&self.frame, &self.origin, message);
    }
}

/// What the person is asked before an app opens a link: whose app asks, the whole address, and
/// the host it opens (as a URL elicitation's card names it), with a warning when that host's
/// name is written in another alphabet (punycode), as look-alike names are.
fn link_question(server: &str, url: &str) -> String {
    let host = crate::browser::url_host(url).unwrap_or_default();
    let look_alike = host.split('.').any(|label| label.starts_with("xn--"));
    let warning =
        if look_alike { "\n\nIts name is written in another alphabet: check it is the site you expect." } else { "" };
    format!(
        "The app of the MCP server \"{server}\" wants to open this link in a new tab:\n\n{url}{}{warning}",
        link_host_line(&host)
    )
}
