//! An MCP App in the transcript: the interactive view a tool links (`_meta.ui.resourceUri`),
//! drawn from its server's HTML in the sandbox on Palaver's second origin (`server::sandbox`)
//! and talking to the page over the bridge (`bridge`; the page's side is `app_page`). It is
//! drawn from the stored call and result, and given back what it last told the model, so a
//! reload or another device draws it again the same way. Which tools have an app is read once
//! per page (`GET /apps/tools`); none are drawn where apps are not served. An app is also drawn
//! while the model writes its call ([`WrittenApp`]), and for a question of its server's, to
//! answer it ([`QuestionApp`]).

mod app_page;
mod approval;
pub mod bridge;
mod host_styles;

use leptos::prelude::*;
use serde_json::{Value, json};

use app_page::{AppPage, QuestionHooks, WaitingCall};
use approval::AppCallApproval;
use bridge::{Bridge, CallOutcome, DISPLAY_MODES, Drawn, MAX_HEIGHT, call_tool_result};
use palaver_wire::apps::{AppTools, AppView};

/// The tools with an app, once read.
#[derive(Clone, Copy)]
pub struct AppToolNames(RwSignal<Vec<String>>);

impl AppToolNames {
    /// Reads them for the page (in the browser), for the transcript's tool lines.
    pub fn provide() {
        let names = RwSignal::new(Vec::new());
        Effect::new(move |_| {
            leptos::task::spawn_local(async move {
                if let Ok(AppTools { tools }) = crate::browser::request::<AppTools>("GET", "/apps/tools", None).await {
                    names.set(tools);
                }
            });
        });
        provide_context(AppToolNames(names));
    }

    /// Their model-facing names.
    pub fn names(self) -> RwSignal<Vec<String>> {
        self.0
    }
}

/// How the chat sends the message an app sends for the person (`ui/message`): its text, the
/// app's server and the conversation the app is drawn in; `Err` says why it was not sent.
#[derive(Clone, Copy)]
pub struct AppMessages(pub Callback<(String, String, String), Result<(), String>>);

/// The call an app is drawn for.
#[derive(Clone)]
struct DrawnCall {
    conversation_id: String,
    tool_call_id: String,
    tool_name: String,
    args: Value,
    result: Option<Value>,
    /// It has no result and never will (its turn was stopped or cut off).
    cut_off: bool,
}

impl DrawnCall {
    /// A call not stored (yet): no arguments or result to tell its view.
    fn unstored(conversation_id: String, tool_call_id: String, tool_name: String) -> Self {
        DrawnCall { conversation_id, tool_call_id, tool_name, args: Value::Null, result: None, cut_off: false }
    }

    /// How the call ended, as its view is told it.
    fn outcome(&self) -> CallOutcome {
        match (&self.result, self.cut_off) {
            (Some(result), _) => CallOutcome::Result(call_tool_result(result)),
            (None, true) => CallOutcome::Cancelled("The call did not finish: its turn was stopped or cut off.".into()),
            (None, false) => CallOutcome::Waiting,
        }
    }
}

/// How long an app drawn for a question has to start and say it answers it.
const QUESTION_APP_START: std::time::Duration = std::time::Duration::from_secs(10);

/// What an app is drawn for.
#[derive(Clone)]
enum Purpose {
    /// A call as stored.
    Stored,
    /// A call the model is still writing: its arguments so far, whole once `complete`.
    Writing { arguments: Signal<Value>, complete: Signal<bool> },
    /// A question of its server's that it answers.
    Question(AppQuestion),
}

/// The app of the call `tool_call_id` to `tool_name` the model is still writing, drawn from its
/// first arguments on and told them as they grow (`tool-input-partial`), then whole; the stored
/// call's app takes its place once the turn ends.
#[component]
pub fn WrittenApp(
    conversation_id: String,
    tool_call_id: String,
    tool_name: String,
    arguments: Signal<Value>,
    complete: Signal<bool>,
) -> impl IntoView {
    let names = use_context::<AppToolNames>();
    let tool = tool_name.clone();
    let has_app = move || names.is_some_and(|AppToolNames(names)| names.with(|names| names.contains(&tool)));
    let closed = RwSignal::new(false);
    let call = DrawnCall::unstored(conversation_id, tool_call_id, tool_name);
    view! {
        <Show when=move || has_app() && !closed.get()>
            <AppFrame
                call=call.clone()
                closed
                purpose=Purpose::Writing {
                    arguments,
                    complete,
                }
            />
        </Show>
    }
}

/// A question of its server's an app is drawn to answer (`AskItem::app`), and what becomes of
/// its answer.
#[derive(Clone)]
pub struct AppQuestion {
    /// The app's `ui://` view, on the server of the tool whose call asks.
    pub resource_uri: String,
    /// The server's `elicitation/create` params, passed to the app as they came.
    pub params: Value,
    /// Sends the app's answer (an `ElicitResult`).
    pub answered: Callback<Value>,
    /// The app cannot answer (why): Palaver's card asks instead.
    pub unanswerable: Callback<String>,
    /// Each change puts the question to the app again (its answer was refused, or not sent).
    pub ask_again: RwSignal<u32>,
}

/// The app that answers `question`, asked by a call of `tool_name`; closing it leaves the
/// question to Palaver's card.
#[component]
pub fn QuestionApp(ask_id: String, tool_name: String, question: AppQuestion) -> impl IntoView {
    let closed = RwSignal::new(false);
    let unanswerable = question.unanswerable;
    Effect::new(move |_| {
        if closed.get() {
            unanswerable.try_run("The app was closed.".into());
        }
    });
    // An app drawn for a question is drawn in no conversation: it may answer, open a link and
    // ask for a display mode, nothing more (`bridge`).
    let call = DrawnCall::unstored(String::new(), ask_id, tool_name);
    view! { <AppFrame call closed purpose=Purpose::Question(question) /> }
}

/// The app of the call `tool_call_id` to `tool_name` in the conversation `conversation_id`,
/// when the tool has one; nothing otherwise. `cut_off`: the call has no result and never will.
#[component]
pub fn McpApp(
    conversation_id: String,
    tool_call_id: String,
    tool_name: String,
    args: Value,
    result: Option<Value>,
    cut_off: bool,
) -> impl IntoView {
    let names = use_context::<AppToolNames>();
    let tool = tool_name.clone();
    let has_app = move || names.is_some_and(|AppToolNames(names)| names.with(|names| names.contains(&tool)));
    let call = DrawnCall { conversation_id, tool_call_id, tool_name, args, result, cut_off };
    view! {
        <Show when=has_app>
            <ClosableApp call=call.clone() />
        </Show>
    }
}

/// The app, or, once the person (or the app) closed it, a line to draw it again: afresh, read
/// again with what it told the model meanwhile (at its teardown, say).
#[component]
fn ClosableApp(call: DrawnCall) -> impl IntoView {
    let closed = RwSignal::new(false);
    move || match closed.get() {
        false => view! { <AppFrame call=call.clone() closed purpose=Purpose::Stored /> }.into_any(),
        true => view! {
            <p class="mcp-app__note" data-testid="mcp-app-closed">
                "The app is closed. "
                <button type="button" class="message__action" on:click=move |_| closed.set(false)>
                    "Show it again"
                </button>
            </p>
        }
        .into_any(),
    }
}

/// Reads the tool's app (with what it last told the model), or the app that answers `question`,
/// then draws it; `closed` once it is torn down.
#[component]
fn AppFrame(call: DrawnCall, closed: RwSignal<bool>, purpose: Purpose) -> impl IntoView {
    let app = RwSignal::new(None::<Result<AppView, String>>);
    let component = crate::browser::url_component;
    // A call in a conversation comes with what its app last told the model.
    let url = match (&purpose, call.conversation_id.is_empty()) {
        (Purpose::Question(question), _) => {
            format!("/apps/view?tool={}&uri={}", component(&call.tool_name), component(&question.resource_uri))
        }
        (_, true) => format!("/apps/view?tool={}", component(&call.tool_name)),
        (_, false) => format!(
            "/apps/view?tool={}&historyId={}&toolCallId={}",
            component(&call.tool_name),
            component(&call.conversation_id),
            component(&call.tool_call_id)
        ),
    };
    let unanswerable = match &purpose {
        Purpose::Question(question) => Some(question.unanswerable),
        _ => None,
    };
    Effect::new(move |_| {
        let url = url.clone();
        leptos::task::spawn_local(async move {
            let read = crate::browser::request::<AppView>("GET", &url, None).await;
            // An app that cannot be drawn leaves its question to Palaver's card.
            if let (Err(why), Some(unanswerable)) = (&read, unanswerable) {
                unanswerable.try_run(format!("The app could not be drawn: {why}"));
            }
            _ = app.try_set(Some(read));
        });
    });
    move || match app.get() {
        None => view! { <p class="mcp-app__note">"Loading the app…"</p> }.into_any(),
        Some(Err(why)) => view! {
            <p class="mcp-app__note" role="alert" data-testid="mcp-app-problem">
                {format!("The tool's app could not be drawn: {why}")}
            </p>
        }
        .into_any(),
        Some(Ok(app)) => view! { <SandboxedApp app call=call.clone() closed purpose=purpose.clone() /> }.into_any(),
    }
}

/// The app in its sandbox, Palaver's card for a call of its that waits for approval, and the
/// page's side of its bridge; `closed` once it is torn down.
#[component]
fn SandboxedApp(app: AppView, call: DrawnCall, closed: RwSignal<bool>, purpose: Purpose) -> impl IntoView {
    let AppView { document, sandbox_origin, model_context } = app;
    let frame = NodeRef::<leptos::html::Iframe>::new();
    let height = RwSignal::new(120_u32);
    let mode = RwSignal::new("inline".to_string());
    let waiting = RwSignal::new(None::<WaitingCall>);
    let src = crate::browser::sandbox_page(&sandbox_origin, &document.csp, &document.permissions);
    let allow = document.permissions.allow_attribute();
    let bordered = document.prefers_border != Some(false);
    let server = document.server.clone();
    let mut context = json!({
        "theme": crate::browser::page_theme(),
        "displayMode": "inline",
        "availableDisplayModes": DISPLAY_MODES,
        "containerDimensions": {"maxHeight": MAX_HEIGHT},
        "locale": crate::browser::page_locale(),
        "timeZone": crate::browser::time_zone(),
        "platform": "web",
        "styles": host_styles::host_styles(),
    });
    // Palaver's addition: what the app last told the model, so it can show that state again.
    if let Some(kept) = model_context {
        context["modelContext"] = kept;
    }
    let drawn_for = match &purpose {
        Purpose::Question(question) => Drawn::Question(question.params.clone()),
        Purpose::Writing { arguments, complete } if !complete.get_untracked() => {
            Drawn::Writing(arguments.get_untracked())
        }
        Purpose::Writing { arguments, .. } => {
            Drawn::Call { arguments: arguments.get_untracked(), outcome: CallOutcome::Waiting }
        }
        Purpose::Stored => Drawn::Call { arguments: call.args.clone(), outcome: call.outcome() },
    };
    let (hooks, ask_again) = match &purpose {
        Purpose::Question(question) => (
            Some(QuestionHooks { answered: question.answered, unanswerable: question.unanswerable }),
            Some(question.ask_again),
        ),
        _ => (None, None),
    };
    let bridge = StoredValue::new_local(Bridge::new(document.html, drawn_for, context));
    let listening = StoredValue::new_local(None);
    let watching = StoredValue::new_local(None);
    let sizing = StoredValue::new_local(None);
    let drawn = StoredValue::new_local(None::<AppPage>);
    let messages = use_context::<AppMessages>();
    let app_server = server.clone();
    Effect::new(move |_| {
        let Some(element) = frame.get() else { return };
        let page = AppPage {
            frame: element.clone(),
            origin: sandbox_origin.clone(),
            tool: call.tool_name.clone(),
            tool_call_id: call.tool_call_id.clone(),
            server: app_server.clone(),
            conversation_id: call.conversation_id.clone(),
            bridge,
            height,
            mode,
            waiting,
            closed,
            messages,
            question: hooks,
        };
        drawn.set_value(Some(page.clone()));
        let (on_theme, on_resize) = (page.clone(), page.clone());
        let listener = crate::browser::listen_to_frame(&element, &sandbox_origin, move |message: Value| {
            let effects = bridge.try_update_value(|bridge| bridge.receive(&message)).unwrap_or_default();
            page.run_all(effects);
        });
        listening.set_value(listener);
        // A theme the person picks reaches the view (the page's own toggle), with its colours.
        let watch = crate::browser::watch_theme(move |theme| {
            let change = json!({"theme": theme, "styles": host_styles::host_styles()});
            let change = change.as_object().cloned().unwrap_or_default();
            let effects = bridge.try_update_value(|bridge| bridge.context_changed(change)).unwrap_or_default();
            on_theme.run_all(effects);
        });
        watching.set_value(watch);
        // The room the view has, as the window's size changes it.
        sizing.set_value(crate::browser::watch_resize(move || on_resize.tell_size()));
    });
    // The call's arguments as the model writes them, and whole.
    if let Purpose::Writing { arguments, complete } = purpose {
        Effect::new(move |_| {
            let (arguments, complete) = (arguments.get(), complete.get());
            let effects =
                bridge.try_update_value(|bridge| bridge.arguments_written(arguments, complete)).unwrap_or_default();
            if let Some(page) = drawn.get_value() {
                page.run_all(effects);
            }
        });
    }
    if let Some(ask_again) = ask_again {
        Effect::new(move |before: Option<u32>| {
            let now = ask_again.get();
            if before.is_some_and(|before| before != now)
                && let Some(page) = drawn.get_value()
            {
                page.ask_again();
            }
            now
        });
    }
    // An app that has not started answering within its time leaves the question to the card.
    if let Some(hooks) = hooks {
        leptos::task::spawn_local(async move {
            crate::browser::sleep(QUESTION_APP_START).await;
            if bridge.try_with_value(|bridge| !bridge.has_asked()).unwrap_or(false) {
                hooks.unanswerable.try_run("The app did not start in time.".into());
            }
        });
    }
    let back_inline = move |_| {
        if let Some(page) = drawn.get_value() {
            page.show_in(None, "inline");
        }
    };
    let close = move |_| match drawn.get_value() {
        Some(page) => page.close(),
        None => closed.set(true),
    };
    let caption = format!("App of the MCP server \"{server}\"");
    let bar_caption = caption.clone();
    view! {
        <figure
            class="mcp-app"
            class:mcp-app--bordered=bordered
            class:mcp-app--fullscreen=move || mode.get() == "fullscreen"
            class:mcp-app--pip=move || mode.get() == "pip"
            data-testid="mcp-app"
            data-display-mode=move || mode.get()
        >
            <Show when=move || mode.get() != "inline">
                <div class="mcp-app__bar">
                    <span>{bar_caption.clone()}</span>
                    <button type="button" class="ask-button" data-testid="mcp-app-inline" on:click=back_inline>
                        "Back to the conversation"
                    </button>
                </div>
            </Show>
            <iframe
                node_ref=frame
                src=src
                sandbox="allow-scripts allow-same-origin allow-forms"
                allow=allow
                title=caption.clone()
                style=move || format!("height: {}px", height.get())
            ></iframe>
            <figcaption>
                {caption.clone()}
                " "
                <button type="button" class="message__action" data-testid="mcp-app-close" on:click=close>
                    "Close the app"
                </button>
            </figcaption>
            {move || {
                waiting
                    .get()
                    .map(|WaitingCall { request, approval }| {
                        let id = approval.id.clone();
                        let on_answer = Callback::new(move |approve: bool| {
                            if let Some(page) = drawn.get_value() {
                                page.decide(request.clone(), &id, approve);
                            }
                        });
                        view! { <AppCallApproval approval server=server.clone() on_answer /> }
                    })
            }}
        </figure>
    }
}
