//! An MCP App in the transcript: the interactive view a tool links (`_meta.ui.resourceUri`),
//! drawn from its server's HTML in the sandbox on Palaver's second origin (`server::sandbox`)
//! and talking to the page over the bridge (`bridge`). It is drawn from the stored call and
//! result, so a reload or another device draws it again the same way. Which tools have an app
//! is read once per page (`GET /apps/tools`); none are drawn where apps are not served.

mod approval;
pub mod bridge;

use leptos::prelude::*;
use serde_json::{Value, json};

use approval::AppCallApproval;
use bridge::{Bridge, Effect as BridgeEffect, MAX_HEIGHT, call_tool_result};
use palaver_wire::apps::{AppApproval, AppCallOutcome, AppTools, AppView};
use palaver_wire::conversation::model::link_host_line;

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
}

/// The app of the call to `tool_name` in the conversation `conversation_id`, when the tool has
/// one; nothing otherwise.
#[component]
pub fn McpApp(conversation_id: String, tool_name: String, args: Value, result: Option<Value>) -> impl IntoView {
    let names = use_context::<AppToolNames>();
    let tool = tool_name.clone();
    let has_app = move || names.is_some_and(|AppToolNames(names)| names.with(|names| names.contains(&tool)));
    view! {
        <Show when=has_app>
            <AppFrame
                conversation_id=conversation_id.clone()
                tool_name=tool_name.clone()
                args=args.clone()
                result=result.clone()
            />
        </Show>
    }
}

/// Reads the tool's app, then draws it.
#[component]
fn AppFrame(conversation_id: String, tool_name: String, args: Value, result: Option<Value>) -> impl IntoView {
    let app = RwSignal::new(None::<Result<AppView, String>>);
    let url = format!("/apps/view?tool={}", crate::browser::url_component(&tool_name));
    Effect::new(move |_| {
        let url = url.clone();
        leptos::task::spawn_local(
            async move { app.set(Some(crate::browser::request::<AppView>("GET", &url, None).await)) },
        );
    });
    move || match app.get() {
        None => view! { <p class="mcp-app__note">"Loading the app…"</p> }.into_any(),
        Some(Err(why)) => view! {
            <p class="mcp-app__note" role="alert" data-testid="mcp-app-problem">
                {format!("The tool's app could not be drawn: {why}")}
            </p>
        }
        .into_any(),
        Some(Ok(app)) => view! {
            <SandboxedApp
                app
                conversation_id=conversation_id.clone()
                tool_name=tool_name.clone()
                args=args.clone()
                result=result.clone()
            />
        }
        .into_any(),
    }
}

/// The app in its sandbox, and the page's side of its bridge.
#[component]
fn SandboxedApp(
    app: AppView,
    conversation_id: String,
    tool_name: String,
    args: Value,
    result: Option<Value>,
) -> impl IntoView {
    let AppView { document, sandbox_origin } = app;
    let frame = NodeRef::<leptos::html::Iframe>::new();
    let height = RwSignal::new(120_u32);
    let waiting = RwSignal::new(None::<WaitingCall>);
    let src = crate::browser::sandbox_page(&sandbox_origin, &document.csp, &document.permissions);
    let allow = document.permissions.allow_attribute();
    let bordered = document.prefers_border != Some(false);
    let server = document.server.clone();
    let context = json!({
        "theme": crate::browser::page_theme(),
        "displayMode": "inline",
        "availableDisplayModes": ["inline"],
        "containerDimensions": {"maxHeight": MAX_HEIGHT},
        "locale": crate::browser::page_locale(),
        "timeZone": crate::browser::time_zone(),
        "platform": "web",
    });
    let bridge = StoredValue::new_local(Bridge::new(
        document.html,
        args,
        result.map(|result| call_tool_result(&result)),
        context,
    ));
    let listening = StoredValue::new_local(None);
    let watching = StoredValue::new_local(None);
    let drawn = StoredValue::new_local(None::<AppPage>);
    let app_server = server.clone();
    Effect::new(move |_| {
        let Some(element) = frame.get() else { return };
        let page = AppPage {
            frame: element.clone(),
            origin: sandbox_origin.clone(),
            tool: tool_name.clone(),
            server: app_server.clone(),
            conversation_id: conversation_id.clone(),
            height,
            waiting,
        };
        drawn.set_value(Some(page.clone()));
        let on_theme = page.clone();
        let listener = crate::browser::listen_to_frame(&element, &sandbox_origin, move |message: Value| {
            let effects = bridge.try_update_value(|bridge| bridge.receive(&message)).unwrap_or_default();
            effects.into_iter().for_each(|effect| page.run(effect));
        });
        listening.set_value(listener);
        // A theme the person picks reaches the view (the page's own toggle).
        let watch = crate::browser::watch_theme(move |theme| {
            let change = json!({"theme": theme}).as_object().cloned().unwrap_or_default();
            let effects = bridge.try_update_value(|bridge| bridge.context_changed(change)).unwrap_or_default();
            effects.into_iter().for_each(|effect| on_theme.run(effect));
        });
        watching.set_value(watch);
    });
    view! {
        <figure class="mcp-app" class:mcp-app--bordered=bordered data-testid="mcp-app">
            <iframe
                node_ref=frame
                src=src
                sandbox="allow-scripts allow-same-origin allow-forms"
                allow=allow
                title=format!("App of the MCP server \"{server}\"")
                style=move || format!("height: {}px", height.get())
            ></iframe>
            <figcaption>{format!("App of the MCP server \"{server}\"")}</figcaption>
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

/// The page's side of one drawn app: where its messages go, and what it shows.
#[derive(Clone)]
struct AppPage {
    frame: leptos::web_sys::HtmlIFrameElement,
    origin: String,
    /// The tool whose app it is (model-facing name): its calls go to that tool's server.
    tool: String,
    server: String,
    /// The conversation it is drawn in: an approval of its call is asked and audited there.
    conversation_id: String,
    height: RwSignal<u32>,
    /// The app's call waiting for the person's approval on Palaver's card.
    waiting: RwSignal<Option<WaitingCall>>,
}

/// An app's call shown on Palaver's card, and the app's request it answers.
#[derive(Clone)]
struct WaitingCall {
    request: Value,
    approval: AppApproval,
}

impl AppPage {
    /// Does what the bridge asks of the page.
    fn run(&self, effect: BridgeEffect) {
        match effect {
            BridgeEffect::Post(message) => self.post(&message),
            BridgeEffect::Resize(pixels) => self.height.set(pixels),
            BridgeEffect::Log(line) => leptos::logging::log!("MCP App ({}): {line}", self.tool),
            BridgeEffect::OpenLink { id, url } => {
                let opened = crate::browser::confirm(&link_question(&self.server, &url));
                if opened {
                    crate::browser::open_link(&url);
                }
                if let BridgeEffect::Post(answer) = Bridge::link_opened(id, opened) {
                    self.post(&answer);
                }
            }
            BridgeEffect::CallTool { id, name, arguments } => {
                let call = json!({
                    "appTool": self.tool,
                    "name": name,
                    "arguments": arguments,
                    "historyId": self.conversation_id,
                });
                let page = self.clone();
                leptos::task::spawn_local(async move {
                    let outcome =
                        crate::browser::request::<AppCallOutcome>("POST", "/apps/call", Some(call.to_string()));
                    match outcome.await {
                        Ok(AppCallOutcome::Done { result }) => page.answer(id, Ok(result)),
                        Ok(AppCallOutcome::Approval { approval }) if page.waiting.with_untracked(Option::is_none) => {
                            page.waiting.set(Some(WaitingCall { request: id, approval }));
                        }
                        // The card shows one call at a time; the one left unanswered lapses.
                        Ok(AppCallOutcome::Approval { .. }) => page.answer(
                            id,
                            Err("Another call of this app is waiting for the person's approval.".to_string()),
                        ),
                        Err(why) => page.answer(id, Err(why)),
                    }
                });
            }
        }
    }

    /// Sends the person's answer on the card; the app's request gets the call's result.
    fn decide(&self, request: Value, approval_id: &str, approve: bool) {
        let url = format!("/apps/approvals/{}", crate::browser::url_component(approval_id));
        let body = json!({"approve": approve}).to_string();
        let page = self.clone();
        leptos::task::spawn_local(async move {
            let outcome = crate::browser::request::<Value>("POST", &url, Some(body)).await;
            page.waiting.set(None);
            page.answer(request, outcome);
        });
    }

    /// Answers the app's request `id` for a call with its outcome.
    fn answer(&self, id: Value, outcome: Result<Value, String>) {
        if let BridgeEffect::Post(answer) = Bridge::called(id, outcome) {
            self.post(&answer);
        }
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
