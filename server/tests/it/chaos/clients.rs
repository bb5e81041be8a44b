//! The simulated users. Each conversation has one client: it sends a message to either live
//! instance, reads the stream to its end (or until it breaks), answers the ask it was shown,
//! and only then sends the next, so the order its messages must be stored in is defined. What
//! each request was answered and what each stream showed is kept for the checks.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::script::{Rng, Want, message};

/// How long a stream may stay silent before its client gives up on it (a turn waits silently
/// for an earlier one, at most a lease and a sweep, or an outage, behind).
const SILENCE: Duration = Duration::from_secs(20);

/// The ports of the live instances, by slot (a slot is empty while its instance is restarted),
/// and the port of each response acknowledged with 200, as it comes.
#[derive(Clone)]
pub struct Instances {
    ports: Arc<Mutex<Vec<Option<u16>>>>,
    acknowledged: broadcast::Sender<u16>,
}

impl Default for Instances {
    fn default() -> Self {
        Instances { ports: Arc::default(), acknowledged: broadcast::channel(256).0 }
    }
}

impl Instances {
    pub fn set(&self, slot: usize, port: Option<u16>) {
        let mut ports = self.ports.lock().unwrap();
        if ports.len() <= slot {
            ports.resize(slot + 1, None);
        }
        ports[slot] = port;
    }

    /// A live instance's port, picked by `rng`.
    fn pick(&self, rng: &mut Rng) -> Option<u16> {
        let live: Vec<u16> = self.ports.lock().unwrap().iter().flatten().copied().collect();
        (!live.is_empty()).then(|| live[rng.between(0, live.len() as u64) as usize])
    }

    /// The ports of the responses acknowledged from now on.
    pub fn acknowledgments(&self) -> broadcast::Receiver<u16> {
        self.acknowledged.subscribe()
    }
}

/// What a request sent.
#[derive(Clone, Debug)]
pub enum Sent {
    Prompt(String),
    /// The answer to the ask with that id.
    Answer(String),
}

/// One request and what came of it.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub sent: Sent,
    /// The response's status; none when no response came (the instance was down or died).
    pub status: Option<u16>,
    /// The reply's text as a client shows it: the `{delta}`s, less what was retracted.
    pub shown: String,
    /// The stream ended with `{done}`.
    pub done: bool,
    /// The `{error}` the stream sent (such as: the reply was cut off).
    pub error: Option<String>,
    /// The stream went silent for [`SILENCE`] and was given up.
    pub stalled: bool,
    /// The ask it showed: its id and kind.
    pub asked: Option<(String, String)>,
}

impl Exchange {
    fn unanswered(sent: Sent) -> Exchange {
        Exchange { sent, status: None, shown: String::new(), done: false, error: None, stalled: false, asked: None }
    }

    /// The stream ended, told the client nothing went wrong, and showed text.
    pub fn completed_reply(&self) -> bool {
        self.done && self.error.is_none() && !self.shown.is_empty()
    }

    /// Reads a server-sent event's `data:` line into the exchange; false once `{done}` came.
    fn read(&mut self, event: &Value, step_start: &mut usize) -> bool {
        if let Some(delta) = event["delta"].as_str() {
            self.shown.push_str(delta);
        } else if event.get("text").is_some() && event.get("replace").is_none() {
            *step_start = self.shown.len();
        } else if let Some(replace) = event["replace"].as_str() {
            self.shown = replace.to_owned();
            *step_start = self.shown.len();
        } else if event.get("retract").is_some() {
            self.shown.truncate(*step_start);
        } else if let Some(error) = event.get("error") {
            self.error.get_or_insert_with(|| error.as_str().unwrap_or_default().to_owned());
        } else if let Some(ask) = event.get("ask") {
            let id = ask["toolCallId"].as_str().unwrap_or_default().to_owned();
            self.asked = Some((id, ask["kind"].as_str().unwrap_or_default().to_owned()));
        } else if event["done"] == true {
            self.done = true;
            return false;
        }
        true
    }
}

/// A simulated conversation: its client's record.
pub struct Conversation {
    pub id: String,
    /// Its messages' tags start with it: `u1c2`.
    pub tag: String,
    pub user: usize,
    pub exchanges: Vec<Exchange>,
}

impl Conversation {
    /// The prompts sent, in order, each with its exchange.
    pub fn prompts(&self) -> impl Iterator<Item = (&str, &Exchange)> {
        self.exchanges.iter().filter_map(|exchange| match &exchange.sent {
            Sent::Prompt(text) => Some((text.as_str(), exchange)),
            Sent::Answer(_) => None,
        })
    }
}

/// The users' HTTP client, sending to whichever instances live.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    instances: Instances,
}

impl Client {
    pub fn new(instances: Instances) -> Client {
        let http = palaver_core::outbound::client_builder()
            .connect_timeout(Duration::from_secs(2))
            .pool_max_idle_per_host(0)
            .build()
            .unwrap();
        Client { http, instances }
    }

    fn request(&self, port: u16, cookie: &str, path: &str) -> reqwest::RequestBuilder {
        let origin = format!("http://127.0.0.1:{port}");
        self.http.post(format!("{origin}{path}")).header("cookie", cookie).header("origin", origin)
    }

    /// Logs `username` in (password `correct horse battery`): the session cookie, which every
    /// instance knows.
    pub async fn log_in(&self, port: u16, username: &str) -> String {
        let login = json!({"username": username, "password": "correct horse battery"});
        let reply = self.request(port, "", "/auth/login").json(&login).send().await.unwrap();
        let cookie = reply.headers()["set-cookie"].to_str().unwrap();
        cookie.split(';').next().unwrap().to_owned()
    }

    /// A new conversation's id.
    pub async fn new_conversation(&self, port: u16, cookie: &str) -> String {
        let reply = self.request(port, cookie, "/gpt/histories").json(&json!({})).send().await.unwrap();
        assert_eq!(reply.status(), reqwest::StatusCode::CREATED);
        reply.json::<Value>().await.unwrap()["data"]["id"].as_str().unwrap().to_owned()
    }

    /// Sends a turn (`/gpt/prompt` with `body`) to the instance on `port` and reads its stream.
    async fn turn(&self, port: u16, cookie: &str, sent: Sent, body: &Value) -> Exchange {
        let mut exchange = Exchange::unanswered(sent);
        let reply = tokio::time::timeout(SILENCE, self.request(port, cookie, "/gpt/prompt").json(body).send()).await;
        let Ok(Ok(mut reply)) = reply else { return exchange };
        exchange.status = Some(reply.status().as_u16());
        if !reply.status().is_success() {
            return exchange;
        }
        let _ = self.instances.acknowledged.send(port);
        let (mut pending, mut step_start) = (String::new(), 0);
        loop {
            let chunk = match tokio::time::timeout(SILENCE, reply.chunk()).await {
                Ok(Ok(Some(chunk))) => chunk,
                Ok(Ok(None) | Err(_)) => return exchange,
                Err(_) => {
                    exchange.stalled = true;
                    return exchange;
                }
            };
            pending.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = pending.find('\n') {
                let line: String = pending.drain(..=end).collect();
                let event = line.trim_end().strip_prefix("data: ").and_then(|data| serde_json::from_str(data).ok());
                if let Some(event) = event
                    && !exchange.read(&event, &mut step_start)
                {
                    return exchange;
                }
            }
        }
    }

    /// Sends `text` to the conversation through a live instance; none while none lives.
    pub async fn prompt(&self, rng: &mut Rng, cookie: &str, history_id: &str, text: &str) -> Option<Exchange> {
        let port = self.instances.pick(rng)?;
        let body = json!({"prompt": text, "historyId": history_id});
        Some(self.turn(port, cookie, Sent::Prompt(text.to_owned()), &body).await)
    }

    /// Answers the ask (`id`, `kind`) as accepted until an answer is taken or refused (taken
    /// before, when an earlier answer's stream broke after it was stored), at most six times.
    async fn answer(&self, rng: &mut Rng, cookie: &str, conversation: &mut Conversation, id: &str, kind: &str) {
        let content = if kind == "choice" { json!({"selected": ["a"]}) } else { json!({"confirmed": true}) };
        let body = json!({"historyId": conversation.id,
                          "askResponse": {"toolCallId": id, "action": "accept", "content": content}});
        for _ in 0..6 {
            let Some(port) = self.instances.pick(rng) else {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            };
            let exchange = self.turn(port, cookie, Sent::Answer(id.to_owned()), &body).await;
            let settled =
                exchange.done || exchange.status.is_some_and(|status| (400..500).contains(&status) && status != 429);
            conversation.exchanges.push(exchange);
            if settled {
                return;
            }
            tokio::time::sleep(rng.millis(200, 500)).await;
        }
    }

    /// Talks in the conversation until `until`: a message, its stream, the answer to the ask it
    /// showed, then the next message.
    pub async fn converse(&self, mut rng: Rng, cookie: &str, conversation: &mut Conversation, until: Instant) {
        let mut sent = 0;
        while Instant::now() < until {
            sent += 1;
            let tag = format!("{}m{sent}", conversation.tag);
            let want = match rng.between(0, 20) {
                0..=10 => Want::Talk,
                11..=14 => Want::Ask,
                15..=17 => Want::Chore,
                _ => Want::Long,
            };
            let Some(exchange) = self.prompt(&mut rng, cookie, &conversation.id, &message(&tag, want)).await else {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            };
            let (status, asked) = (exchange.status, exchange.asked.clone());
            conversation.exchanges.push(exchange);
            match (status, asked) {
                (Some(200), Some((id, kind))) => self.answer(&mut rng, cookie, conversation, &id, &kind).await,
                (Some(200), None) => {}
                // Refused (the user's cap), or no answer: wait a little before the next.
                _ => tokio::time::sleep(rng.millis(300, 1_000)).await,
            }
            tokio::time::sleep(rng.millis(20, 200)).await;
        }
    }

    /// Sends a final message to the conversation until one is answered whole (a refusal, such
    /// as the user's cap, is tried again a little later), by `deadline`: whether it was.
    pub async fn final_reply(
        &self,
        mut rng: Rng,
        cookie: &str,
        conversation: &mut Conversation,
        deadline: Instant,
    ) -> bool {
        let mut attempt = 0;
        while Instant::now() < deadline {
            attempt += 1;
            let tag = format!("{}final{attempt}", conversation.tag);
            let exchange = self.prompt(&mut rng, cookie, &conversation.id, &message(&tag, Want::Final)).await;
            let whole = exchange
                .as_ref()
                .is_some_and(|exchange| exchange.completed_reply() && exchange.shown == super::script::reply(&tag));
            conversation.exchanges.extend(exchange);
            if whole {
                return true;
            }
            tokio::time::sleep(rng.millis(100, 300)).await;
        }
        false
    }
}
