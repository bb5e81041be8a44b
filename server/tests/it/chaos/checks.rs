//! The promises, checked against what the database holds once the run has settled. Each check
//! is an invariant of the stored rows and of what clients were told, true however the requests,
//! kills and the outage interleaved; each finding names the conversation and what broke.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use palaver_core::db::Pool;
use serde_json::Value;

use super::clients::{Conversation, Sent};
use super::script::{marker_of, reply};

/// Logs every turn that starts to count against its user's cap, with how many other turns of
/// the user held a live lease then: each turn admitted (its row added to `running_turns`), and
/// each that came back after its lease lapsed (its row added again, or its lapsed lease renewed).
/// For an admission, `counted` leaves out the turns that came back while it was being admitted:
/// those it could not have counted.
pub async fn log_admissions(pool: &Pool) {
    for statement in [
        "CREATE TABLE chaos_admissions (
             turn_key TEXT NOT NULL, user_id TEXT NOT NULL, came_back BOOLEAN NOT NULL, others BIGINT NOT NULL,
             counted BIGINT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
        "CREATE FUNCTION chaos_log_admission() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF TG_OP = 'UPDATE' AND (OLD.lease_until > palaver_now() OR NEW.lease_until <= palaver_now()) THEN
                 RETURN NULL;
             END IF;
             INSERT INTO chaos_admissions (turn_key, user_id, came_back, others, counted)
             SELECT NEW.id, NEW.user_id,
                    TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM chaos_admissions WHERE turn_key = NEW.id),
                    COUNT(*),
                    COUNT(*) FILTER (WHERE NOT EXISTS (
                        SELECT 1 FROM chaos_admissions AS logged
                        WHERE logged.turn_key = other.id AND logged.came_back AND logged.at >= transaction_timestamp()))
             FROM running_turns AS other
             WHERE other.user_id = NEW.user_id AND other.id <> NEW.id AND other.lease_until > palaver_now();
             RETURN NULL;
         END $$",
        "CREATE TRIGGER chaos_log_admission AFTER INSERT OR UPDATE OF lease_until ON running_turns
         FOR EACH ROW EXECUTE FUNCTION chaos_log_admission()",
    ] {
        sqlx::query(statement).execute(pool).await.unwrap();
    }
}

async fn count(pool: &Pool, query: &str) -> i64 {
    sqlx::query_as::<_, (i64,)>(query).fetch_one(pool).await.unwrap().0
}

/// Waits until no turn runs and every draft is saved (or kept, swept, for its owner), at most
/// `bound`: how long that took, or what is left.
pub async fn settle(pool: &Pool, bound: Duration) -> Result<Duration, String> {
    let started = Instant::now();
    loop {
        let running = count(pool, "SELECT COUNT(*) FROM running_turns").await;
        let drafts = count(pool, "SELECT COUNT(*) FROM turn_drafts WHERE swept_first_seq IS NULL").await;
        if running == 0 && drafts == 0 {
            return Ok(started.elapsed());
        }
        if started.elapsed() > bound {
            return Err(format!("after {bound:?}, {running} turns still run and {drafts} drafts are not saved"));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What the database holds.
pub struct Stored {
    /// Each conversation's rows, in order.
    rows: HashMap<String, Vec<Value>>,
    /// Each ask's endings (`history/ask id` → decisions).
    endings: HashMap<String, Vec<String>>,
    /// Accepted approvals of the demo's guarded tool, by conversation.
    approvals: HashMap<String, usize>,
    /// Approved calls that ran, by conversation.
    approved_runs: HashMap<String, usize>,
    /// Turns starting to count against their user's cap, in order.
    admissions: Vec<Admission>,
}

impl Stored {
    pub async fn read(pool: &Pool) -> Stored {
        let mut rows: HashMap<String, Vec<Value>> = HashMap::new();
        let stored: Vec<(String, String)> =
            sqlx::query_as("SELECT history_id, CAST(payload AS TEXT) FROM history_rows ORDER BY history_id, seq")
                .fetch_all(pool)
                .await
                .unwrap();
        for (history, payload) in stored {
            rows.entry(history).or_default().push(serde_json::from_str(&payload).unwrap());
        }
        let audit: Vec<(String, String, String, Option<String>)> =
            sqlx::query_as("SELECT history_id, tool_call_id, decision, tool_name FROM ask_audit ORDER BY id")
                .fetch_all(pool)
                .await
                .unwrap();
        let (mut endings, mut approvals): (HashMap<String, Vec<String>>, HashMap<String, usize>) = Default::default();
        for (history, ask, decision, tool) in audit {
            if decision == "accept" && tool.as_deref() == Some("deleteCompletedTodos") {
                *approvals.entry(history.clone()).or_default() += 1;
            }
            endings.entry(format!("{history}/{ask}")).or_default().push(decision);
        }
        let mut approved_runs: HashMap<String, usize> = HashMap::new();
        let runs: Vec<(String,)> =
            sqlx::query_as("SELECT idempotency_key FROM approved_runs").fetch_all(pool).await.unwrap();
        for (key,) in runs {
            *approved_runs.entry(key.split('/').next().unwrap_or_default().to_owned()).or_default() += 1;
        }
        let admissions: Vec<(String, String, bool, i64, i64, String)> = sqlx::query_as(
            "SELECT turn_key, user_id, came_back, others, counted, CAST(at AS TEXT) FROM chaos_admissions ORDER BY at",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        let admissions = admissions
            .into_iter()
            .map(|(key, user, came_back, others, counted, at)| Admission { key, user, came_back, others, counted, at })
            .collect();
        Stored { rows, endings, approvals, approved_runs, admissions }
    }

    /// How many asks ended, approved calls ran, turns were admitted, and came back after a lapse.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let back = self.admissions.iter().filter(|admission| admission.came_back).count();
        (self.endings.len(), self.approved_runs.values().sum(), self.admissions.len() - back, back)
    }

    /// Every broken promise.
    pub fn violations(&self, conversations: &[Conversation], cap: usize) -> Vec<String> {
        let mut found = Vec::new();
        for conversation in conversations {
            let rows = self.rows.get(&conversation.id).map(Vec::as_slice).unwrap_or_default();
            let mut check =
                |finding: String| found.push(format!("{} ({}): {finding}", conversation.tag, conversation.id));
            messages(conversation, rows, &mut check);
            replies(conversation, rows, &mut check);
            self.asks(conversation, rows, &mut check);
        }
        for admission in self.admissions.iter().filter(|admission| !admission.came_back) {
            if admission.counted >= cap as i64 {
                found.push(format!("{admission} while {} of theirs ran; the cap is {cap}", admission.counted));
            }
        }
        found
    }

    /// The times a user had more turns with a live lease than the cap because turns came back
    /// after their leases lapsed (an instance cut off from the database kept running them): not
    /// an admission past the cap, and not failed on, but told.
    pub fn over_cap_after_a_lapse(&self, cap: usize) -> Vec<String> {
        self.admissions
            .iter()
            .filter(|admission| {
                admission.others >= cap as i64 && (admission.came_back || admission.counted < cap as i64)
            })
            .map(|admission| format!("{admission} while {} of theirs ran", admission.others))
            .collect()
    }

    /// Each ask ends once, an acknowledged answer is stored, and an approved call ran only
    /// after an approval (at most once: its claim is the key of `approved_runs`).
    fn asks(&self, conversation: &Conversation, rows: &[Value], check: &mut impl FnMut(String)) {
        for (ask, decisions) in &self.endings {
            let reopened = decisions.iter().filter(|decision| *decision == "reopened").count();
            if ask.starts_with(&format!("{}/", conversation.id)) && decisions.len() - reopened > reopened + 1 {
                check(format!("the ask {ask} ended {} times: {decisions:?}", decisions.len() - reopened));
            }
        }
        for exchange in &conversation.exchanges {
            if let (Sent::Answer(ask), Some(200)) = (&exchange.sent, exchange.status) {
                let endings = self.endings.get(&format!("{}/{ask}", conversation.id));
                if !endings.is_some_and(|decisions| decisions.iter().any(|decision| decision == "accept")) {
                    check(format!("the answer to {ask} was acknowledged but not recorded: {endings:?}"));
                }
            }
        }
        let runs = self.approved_runs.get(&conversation.id).copied().unwrap_or_default();
        let approved = self.approvals.get(&conversation.id).copied().unwrap_or_default();
        if runs > approved {
            check(format!("{runs} approved calls ran on {approved} approvals"));
        }
        let mut results: HashMap<&str, usize> = HashMap::new();
        for row in rows.iter().filter(|row| row["type"] == "tool-result") {
            *results.entry(row["toolCallId"].as_str().unwrap_or_default()).or_default() += 1;
        }
        for (call, times) in results {
            if times > 1 {
                check(format!("the call {call} has {times} results"));
            }
        }
    }
}

/// A turn starting to count against its user's cap (see [`log_admissions`]).
struct Admission {
    key: String,
    user: String,
    /// It came back after its lease lapsed; else it was admitted.
    came_back: bool,
    /// The other turns of the user with a live lease then.
    others: i64,
    /// Those of them an admission could count (none came back while it was being admitted).
    counted: i64,
    at: String,
}

impl std::fmt::Display for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.came_back { "came back after its lease lapsed" } else { "was admitted" };
        write!(f, "user {}: the turn {} {how} at {}", self.user, self.key, self.at)
    }
}

/// Every acknowledged message is stored, once, and in the order it was sent (among the
/// acknowledged: one whose client gave up waiting for an answer may come later); a refused one
/// is not stored at all, and nothing unsent is.
fn messages(conversation: &Conversation, rows: &[Value], check: &mut impl FnMut(String)) {
    let stored: Vec<&str> =
        rows.iter().filter(|row| row["type"] == "user").filter_map(|row| row["text"].as_str()).collect();
    let sent: Vec<(&str, &super::clients::Exchange)> = conversation.prompts().collect();
    let mut last_acknowledged = None;
    for (index, text) in stored.iter().enumerate() {
        let Some(place) = sent.iter().position(|(sent, _)| sent == text) else {
            check(format!("a message nobody sent is stored: {text:?}"));
            continue;
        };
        if stored[..index].contains(text) {
            check(format!("{text:?} is stored twice"));
        } else if sent[place].1.status == Some(200) {
            if last_acknowledged.is_some_and(|last| place < last) {
                check(format!("{text:?} is stored after a message sent later: {stored:?}"));
            }
            last_acknowledged = Some(place);
        }
    }
    for (text, exchange) in sent {
        match exchange.status {
            Some(200) if !stored.contains(&text) => check(format!("{text:?} was acknowledged (200) but is not stored")),
            Some(429) if stored.contains(&text) => check(format!("{text:?} was refused (429) but is stored")),
            _ => {}
        }
    }
}

/// Every stored reply is part of what the model said, once, and whole unless marked cut off;
/// every stream that ended with `{done}` and no error showed a prefix of its stored reply.
fn replies(conversation: &Conversation, rows: &[Value], check: &mut impl FnMut(String)) {
    let mut stored: HashMap<&str, (&str, bool)> = HashMap::new();
    for row in rows.iter().filter(|row| row["type"] == "assistant") {
        let (text, interrupted) = (row["text"].as_str().unwrap_or_default(), row["interrupted"] == true);
        if text.is_empty() {
            continue;
        }
        let Some(marker) = marker_of(text) else {
            check(format!("a reply the model never began: {text:?}"));
            continue;
        };
        let said = reply(marker);
        if !said.starts_with(text) {
            check(format!("the reply {marker} is not what the model said: {text:?}"));
        } else if !interrupted && text != said {
            check(format!(
                "the reply {marker} is stored short ({} of {} characters), not marked cut off",
                text.len(),
                said.len()
            ));
        }
        if stored.insert(marker, (text, interrupted)).is_some() {
            check(format!("the reply {marker} is stored twice"));
        }
    }
    for exchange in conversation.exchanges.iter().filter(|exchange| exchange.completed_reply()) {
        let Some(marker) = marker_of(&exchange.shown) else {
            check(format!("a stream showed a reply the model never began: {:?}", exchange.shown));
            continue;
        };
        match stored.get(marker) {
            None => check(format!("the reply {marker} streamed to {{done}} with no error, and is not stored")),
            Some((text, interrupted)) if !text.starts_with(&exchange.shown) => check(format!(
                "the reply {marker} streamed {} characters to {{done}} with no error; {} are stored (interrupted: {interrupted})",
                exchange.shown.len(),
                text.len()
            )),
            Some(_) => {}
        }
    }
}
