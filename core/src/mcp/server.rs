//! One configured MCP server: its connection (a child process or a streamable HTTP endpoint),
//! kept alive by a supervisor that reconnects with backoff, and what the admin page shows of it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use rmcp::ClientHandler;
use rmcp::model::{
    ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction, ErrorData, Implementation, ProtocolVersion,
    Tool,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, Peer, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use tokio::sync::{Notify, OwnedMutexGuard, mpsc, oneshot};

use super::config::{ServerConfig, Transport, expand_env};
use super::connection::{
    INITIALIZE_TIMEOUT, capabilities, lifecycle, list_tools, listen_for_tool_changes, log_stderr, next_change,
    stateless,
};
use crate::turn::tools::PendingQuestion;
use crate::turn::tools::question::{QuestionAnswer, ToolQuestion};
use palaver_wire::body::McpServerState;

/// How long an HTTP server has to answer `server/discover` before it is met with `initialize`.
const DISCOVER_PROBE: Duration = Duration::from_secs(5);
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
const LAST_BACKOFF: Duration = Duration::from_secs(60);
/// A connection that lived this long resets the backoff: its end is news, not a crash loop.
const STABLE_AFTER: Duration = Duration::from_secs(60);
/// The environment variables a stdio server inherits from Palaver.
const INHERITED_ENV: &[&str] =
    &["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "TERM"];

/// The call running on a server now: where its questions go, and the time spent asking.
#[derive(Default)]
struct RunningCall {
    questions: Option<mpsc::Sender<PendingQuestion>>,
    asking_since: Option<Instant>,
    asked_for: Duration,
}

impl RunningCall {
    /// How long the user has spent answering this call's questions, so far.
    fn time_asking(&self) -> Duration {
        self.asked_for + self.asking_since.map_or(Duration::ZERO, |since| since.elapsed())
    }
}

#[derive(Default)]
struct LinkState {
    state: McpServerState,
    last_error: Option<String>,
    peer: Option<Peer<RoleClient>>,
    /// The revision the live connection speaks.
    revision: Option<ProtocolVersion>,
    tools: Vec<Tool>,
}

/// A server's connection as the rest of Palaver sees it.
pub struct ServerLink {
    pub config: ServerConfig,
    state: Mutex<LinkState>,
    /// An admin asked for a fresh connection.
    reconnect: Notify,
    /// The server said its tools changed (`notifications/tools/list_changed`).
    tools_changed: Notify,
    /// Palaver is shutting down: the supervisor ends the connection and stops.
    shutdown: Notify,
    /// One call at a time: MCP does not say which call an elicitation belongs to, so a
    /// question is the running call's (and reaches that call's user only). A call waits on its
    /// user for `answer_timeout` at most (its question expires, and the call ends), so no one
    /// person holds the server for everyone else.
    calls: Arc<tokio::sync::Mutex<()>>,
    call: Mutex<RunningCall>,
    /// Counts the connections made, so a restart can be waited for.
    generation: AtomicU64,
}

/// The server's one running call; dropping it frees the server for the next. A call dropped
/// before its result came (stopped, or past its timeout) may still be at work on a server before
/// 2026-07-28 and ask questions for it, so that server is restarted first (a new process, or a
/// new session): no such question can reach the next call's user.
pub struct CallSlot {
    link: Arc<ServerLink>,
    turn: Option<OwnedMutexGuard<()>>,
    finished: bool,
}

impl Drop for CallSlot {
    fn drop(&mut self) {
        *self.link.running_call() = RunningCall::default();
        let Some(turn) = self.turn.take() else { return };
        // From 2026-07-28 a server asks only in a call's own answer: nothing it still does for
        // a dropped call can reach the next call's user.
        if self.finished || self.link.asks_in_answers() {
            return;
        }
        let link = self.link.clone();
        let generation = link.generation.load(Ordering::Acquire);
        link.reconnect();
        tokio::spawn(async move {
            let fresh = async {
                while link.generation.load(Ordering::Acquire) == generation {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            };
            let _ = tokio::time::timeout(INITIALIZE_TIMEOUT, fresh).await;
            drop(turn);
        });
    }
}

impl CallSlot {
    /// The call's result came: the server is free as it is.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// How long the user has spent answering this call's questions, so far.
    pub fn time_asking(&self) -> Duration {
        self.link.running_call().time_asking()
    }

    pub fn is_asking(&self) -> bool {
        self.link.running_call().asking_since.is_some()
    }
}

impl ServerLink {
    pub fn new(config: ServerConfig) -> Arc<Self> {
        Arc::new(ServerLink {
            config,
            state: Mutex::default(),
            reconnect: Notify::new(),
            tools_changed: Notify::new(),
            shutdown: Notify::new(),
            calls: Arc::default(),
            call: Mutex::default(),
            generation: AtomicU64::new(0),
        })
    }

    fn running_call(&self) -> std::sync::MutexGuard<'_, RunningCall> {
        self.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for the server to be free, then holds it for one call whose questions go to
    /// `questions`.
    pub async fn begin_call(
        self: &Arc<Self>,
        questions: Option<mpsc::Sender<PendingQuestion>>,
    ) -> Result<CallSlot, String> {
        // As long as the call before may hold the server: its run, its user's answers (no
        // longer: its question expires then), and a restart after it.
        let limit = self.config.timeout + self.config.answer_timeout + INITIALIZE_TIMEOUT;
        let turn = tokio::time::timeout(limit, self.calls.clone().lock_owned()).await.map_err(|_elapsed| {
            format!("The MCP server \"{}\" is busy with other calls; try again later.", self.config.name)
        })?;
        *self.running_call() = RunningCall { questions, ..RunningCall::default() };
        Ok(CallSlot { link: self.clone(), turn: Some(turn), finished: false })
    }

    /// Asks the running call's user `question`, within what is left of the time the call may
    /// wait on its user; `None` when no call can take it.
    async fn ask(&self, question: ToolQuestion) -> Option<QuestionAnswer> {
        let (questions, answer_within) = {
            let call = self.running_call();
            (call.questions.clone()?, self.config.answer_timeout.saturating_sub(call.time_asking()))
        };
        let (reply, answer) = oneshot::channel();
        let _asking = Asking::start(self);
        Some(match questions.send(PendingQuestion { question, reply, answer_within }).await {
            Ok(()) => answer.await.unwrap_or(QuestionAnswer::Cancel),
            Err(_) => QuestionAnswer::Cancel,
        })
    }

    fn with_state<T>(&self, read: impl FnOnce(&mut LinkState) -> T) -> T {
        read(&mut self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// Whether the connection speaks 2026-07-28 or later, where a server asks for input only in
    /// its answer to a call, never with a request of its own.
    fn asks_in_answers(&self) -> bool {
        self.with_state(|state| state.revision.as_ref().is_some_and(stateless))
    }

    /// The live connection, when there is one.
    pub fn peer(&self) -> Option<Peer<RoleClient>> {
        self.with_state(|state| state.peer.clone())
    }

    pub fn tools(&self) -> Vec<Tool> {
        self.with_state(|state| state.tools.clone())
    }

    /// The state, the last error, and the revision the live connection speaks.
    pub fn state(&self) -> (McpServerState, Option<String>, Option<String>) {
        self.with_state(|state| {
            (state.state, state.last_error.clone(), state.revision.as_ref().map(ToString::to_string))
        })
    }

    /// Drops the connection and connects again; the state says so from now on.
    pub fn reconnect(&self) {
        self.set(McpServerState::Connecting, None);
        self.reconnect.notify_one();
    }

    pub fn shut_down(&self) {
        self.shutdown.notify_one();
    }

    fn set(&self, state: McpServerState, error: Option<String>) {
        if let Some(error) = &error {
            tracing::warn!(server = self.config.name, %error, "MCP server unavailable");
        }
        self.with_state(|link| {
            link.state = state;
            if error.is_some() {
                link.last_error = error;
            }
            if state != McpServerState::Connected {
                (link.peer, link.revision) = (None, None);
            }
            // While it reconnects the server keeps its tools: a call waits for the connection
            // (after an abandoned call, the restart holds the server until it is back).
            if matches!(state, McpServerState::Failed | McpServerState::Stopped) {
                link.tools.clear();
            }
        });
    }

    fn connected(&self, peer: Peer<RoleClient>, tools: Vec<Tool>) {
        let revision = peer.peer_info().map(|info| info.protocol_version.clone());
        tracing::info!(server = self.config.name, tools = tools.len(), ?revision, "MCP server connected");
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.with_state(|link| {
            link.state = McpServerState::Connected;
            (link.peer, link.revision) = (Some(peer), revision);
            link.tools = tools;
        });
    }

    /// Keeps the server connected until Palaver shuts down.
    pub async fn supervise(self: Arc<Self>) {
        let mut backoff = FIRST_BACKOFF;
        loop {
            self.set(McpServerState::Connecting, None);
            let started = Instant::now();
            match self.connect().await {
                Ok(service) => match self.serve(service).await {
                    Ended::ShutDown => return,
                    // An admin asked for it: connect again at once.
                    Ended::Reconnect => {
                        backoff = FIRST_BACKOFF;
                        continue;
                    }
                    Ended::Lost if started.elapsed() >= STABLE_AFTER => backoff = FIRST_BACKOFF,
                    Ended::Lost => {}
                },
                Err(error) => self.set(McpServerState::Failed, Some(error)),
            }
            tokio::select! {
                _ = tokio::time::sleep(backoff) => {}
                _ = self.reconnect.notified() => backoff = FIRST_BACKOFF,
                _ = self.shutdown.notified() => return,
            }
            backoff = (backoff * 2).min(LAST_BACKOFF);
        }
    }

    /// Serves one connection until it ends; says why it ended.
    async fn serve(&self, service: RunningService<RoleClient, Handler>) -> Ended {
        let peer = service.peer().clone();
        match list_tools(&peer).await {
            Ok(tools) => self.connected(peer.clone(), tools),
            Err(err) => {
                let _ = service.cancel().await;
                self.set(McpServerState::Failed, Some(format!("The server's tools could not be listed: {err}.")));
                return Ended::Lost;
            }
        }
        let mut changes = listen_for_tool_changes(&peer).await;
        let cancel = service.cancellation_token();
        let waiting = service.waiting();
        tokio::pin!(waiting);
        loop {
            tokio::select! {
                change = next_change(&mut changes) => match change {
                    Ok(Some(_)) => self.tools_changed.notify_one(),
                    // The stream ended: no more news of changes on this connection.
                    _ => changes = None,
                },
                reason = &mut waiting => {
                    let why = match reason {
                        Ok(reason) => format!("The server ended the connection ({reason:?})."),
                        Err(err) => format!("The connection failed: {err}."),
                    };
                    self.set(McpServerState::Failed, Some(why));
                    return Ended::Lost;
                }
                _ = self.tools_changed.notified() => match list_tools(&peer).await {
                    Ok(tools) => self.with_state(|link| link.tools = tools),
                    Err(err) => tracing::warn!(server = self.config.name, %err, "the changed tool list could not be read"),
                },
                _ = self.reconnect.notified() => {
                    cancel.cancel();
                    let _ = waiting.await;
                    return Ended::Reconnect;
                }
                _ = self.shutdown.notified() => {
                    cancel.cancel();
                    let _ = waiting.await;
                    self.set(McpServerState::Stopped, None);
                    return Ended::ShutDown;
                }
            }
        }
    }

    async fn connect(self: &Arc<Self>) -> Result<RunningService<RoleClient, Handler>, String> {
        let handler = Handler { link: Arc::downgrade(self) };
        let connecting = async {
            match &self.config.transport {
                Transport::Stdio { command, args, env, cwd } => {
                    let mut process = tokio::process::Command::new(command);
                    process.args(args).env_clear();
                    // Palaver's own environment holds secrets (model API keys): a server gets
                    // only what finding programs and files needs, and what its entry gives it.
                    for (key, value) in std::env::vars_os()
                        .filter(|(key, _)| INHERITED_ENV.iter().any(|name| key.to_str() == Some(*name)))
                    {
                        process.env(key, value);
                    }
                    for (key, value) in env {
                        process.env(key, expand_env(value)?);
                    }
                    if let Some(cwd) = cwd {
                        process.current_dir(cwd);
                    }
                    let mut wrapped = process_wrap::tokio::CommandWrap::from(process);
                    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader()).wrap(process_wrap::tokio::KillOnDrop);
                    let (transport, stderr) = TokioChildProcess::builder(wrapped)
                        .stderr(std::process::Stdio::piped())
                        .spawn()
                        .map_err(|err| format!("\"{command}\" could not be started: {err}."))?;
                    if let Some(stderr) = stderr {
                        tokio::spawn(log_stderr(self.config.name.clone(), stderr));
                    }
                    handler
                        .serve_with_lifecycle(transport, lifecycle())
                        .await
                        .map_err(|err| format!("The server did not start MCP: {err}."))
                }
                Transport::Http { url, headers } => {
                    let mut custom = std::collections::HashMap::new();
                    for (name, value) in headers {
                        let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                            .map_err(|_invalid| format!("\"{name}\" is not a header name."))?;
                        // The value may hold a secret: errors name the header, never the value.
                        let value =
                            reqwest::header::HeaderValue::from_str(&expand_env(value)?).map_err(|_kept_secret| {
                                format!("The value of the header {name} is not a valid header value.")
                            })?;
                        custom.insert(name, value);
                    }
                    // No redirects: the configured headers (tokens among them) go to this URL only.
                    let client = crate::outbound::client_builder()
                        .redirect(reqwest::redirect::Policy::none())
                        .connect_timeout(Duration::from_secs(10))
                        .build()
                        .map_err(|err| format!("No HTTP client: {err}."))?;
                    let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
                    let transport = StreamableHttpClientTransport::with_client(client.clone(), config.clone());
                    // Half the time to start at most, so the handshake has the rest.
                    let probe = DISCOVER_PROBE.min(self.config.timeout.min(INITIALIZE_TIMEOUT) / 2);
                    let probed = tokio::time::timeout(probe, handler.serve_with_lifecycle(transport, lifecycle()));
                    let first = match probed.await {
                        Ok(Ok(service)) => return Ok(service),
                        Ok(Err(err)) => err.to_string(),
                        Err(_) => format!("no answer to server/discover within {} s", probe.as_secs_f64()),
                    };
                    // rmcp's HTTP transport retries a probe that an older server rejects in a
                    // way it does not read as "older" (the conformance suite's does): no answer
                    // in time means an older server, as the specification says.
                    let transport = StreamableHttpClientTransport::with_client(client, config);
                    Handler { link: Arc::downgrade(self) }
                        .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
                        .await
                        .map_err(|err| format!("{url} did not start MCP: {err} (before that: {first})."))
                }
            }
        };
        let limit = self.config.timeout.min(INITIALIZE_TIMEOUT);
        tokio::time::timeout(limit, connecting)
            .await
            .unwrap_or_else(|_| Err(format!("The server did not finish starting within {} s.", limit.as_secs_f64())))
    }
}

/// The time one question is with the user, counted into the call's time asking however the
/// asking ends (answered, or dropped when the server withdraws the question).
struct Asking<'l>(&'l ServerLink);

impl<'l> Asking<'l> {
    fn start(link: &'l ServerLink) -> Self {
        link.running_call().asking_since = Some(Instant::now());
        Asking(link)
    }
}

impl Drop for Asking<'_> {
    fn drop(&mut self) {
        let mut call = self.0.running_call();
        if let Some(since) = call.asking_since.take() {
            call.asked_for += since.elapsed();
        }
    }
}

enum Ended {
    Lost,
    Reconnect,
    ShutDown,
}

/// What Palaver answers the server with: its name and the capabilities it really has.
pub struct Handler {
    link: Weak<ServerLink>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        // The handshake asks for the newest revision that has one (2026-07-28 has none).
        ClientConfig::new(capabilities(), Implementation::new("palaver", env!("CARGO_PKG_VERSION")))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(link) = self.link.upgrade() else { return Ok(ElicitResult::new(ElicitationAction::Cancel)) };
        let server = &link.config.name;
        // From 2026-07-28 a server asks only in its answer to a call: a request of its own may
        // be for a call that was dropped, and must not reach the next call's user.
        if link.asks_in_answers() {
            tracing::warn!(server, "a standalone elicitation from a 2026-07-28 server was declined");
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        }
        let question = serde_json::to_value(&request)
            .map_err(|err| err.to_string())
            .and_then(|params| ToolQuestion::elicitation(server, &params));
        let question = match question {
            Ok(question) => question,
            Err(problem) => {
                tracing::warn!(server, %problem, "an elicitation Palaver cannot ask was declined");
                return Ok(ElicitResult::new(ElicitationAction::Decline));
            }
        };
        // The server may withdraw its question (`notifications/cancelled`): the ask goes with it.
        let answer = tokio::select! {
            answer = link.ask(question) => answer,
            _ = context.ct.cancelled() => return Ok(ElicitResult::new(ElicitationAction::Cancel)),
        };
        let Some(answer) = answer else {
            tracing::warn!(server, "an elicitation outside a tool call was declined");
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        Ok(match answer {
            QuestionAnswer::Accept(content) => ElicitResult::new(ElicitationAction::Accept).with_content(content),
            QuestionAnswer::Decline => ElicitResult::new(ElicitationAction::Decline),
            QuestionAnswer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(link) = self.link.upgrade() {
            link.tools_changed.notify_one();
        }
    }
}
