//! The chaos run: what Palaver promises about kept messages and replies, checked under the
//! failures it must survive. Two real instances share one PostgreSQL database; simulated users
//! talk to either (three conversations each over a cap of two, asks, approvals and long replies
//! among their messages, and twice a burst of prompts past their cap); an instance is SIGKILLed
//! every 8 to 15 s, as it acknowledges a prompt, and started again; and the database is out of
//! reach once, for one instance or both, for longer than a turn's lease. The model is a fake
//! OpenAI-compatible server in this process that answers each request from the request alone,
//! so a restart changes nothing it says. Then, once nothing runs, what was stored is checked
//! against what the clients were told (`chaos/checks.rs`), and every conversation must still
//! answer.
//!
//! The outage is a proxy in front of each instance's database (`crate::process::proxy`) cutting every
//! connection and refusing new ones: that is the database going away as the instances see it,
//! without restarting the PostgreSQL server the other test binaries share (nor needing its
//! owner's rights). The schedule comes from a seed (`PALAVER_CHAOS_SEED`, else the clock),
//! printed first, so a run can be replayed; the verdict depends on no timing, as every check is
//! an invariant whatever order the requests, kills and the outage came in. It runs in
//! scripts/test.sh's PostgreSQL pass; SQLite serves one instance, so that pass skips it.

#[path = "chaos/checks.rs"]
mod checks;
#[path = "chaos/clients.rs"]
mod clients;
#[path = "chaos/script.rs"]
mod script;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures::future::join_all;
use serde_json::json;

use crate::process::Server;
use crate::process::fake_openai::FakeOpenAi;
use crate::process::proxy::DbProxy;
use clients::{Client, Conversation, Instances};
use script::Rng;

const LEASE_SECONDS: u64 = 2;
/// The most replies a user may have running.
const CAP: usize = 2;
const USERS: usize = 4;
/// Conversations per user, each with its own client: more than the cap, so they contend.
const CONVERSATIONS: usize = 3;
/// Prompts a user sends at once, each into a new conversation, in each of two bursts.
const BURST: usize = 4;
const LOAD: Duration = Duration::from_secs(36);
const OUTAGE: Duration = Duration::from_secs(LEASE_SECONDS + 3);
/// The pause before each piece of a reply (two words): a reply streams for about a second, a
/// long one for 8 s.
const PIECE_DELAY: Duration = Duration::from_millis(40);

/// Printed as the run goes, past the test harness's capture: the suite's log shows it.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "chaos: {line}");
}

/// The instances, each behind its own proxy to the database, started again when killed.
struct Fleet {
    servers: Vec<Server>,
    proxies: Vec<DbProxy>,
    settings: Vec<(&'static str, String)>,
    /// Their shared files, and their logs.
    data: PathBuf,
    live: Instances,
}

impl Fleet {
    async fn start(&self, slot: usize) -> Server {
        let log = self.data.join(format!("instance-{slot}.log"));
        let no_script = json!({"responses": []});
        let server = crate::process::start_logged_instance(
            self.proxies[slot].url(),
            &self.data,
            &no_script,
            &self.settings,
            &log,
        )
        .await;
        self.live.set(slot, Some(server.port));
        server
    }

    /// Kills the instance in `slot` as it acknowledges a turn, when it does within 2 s (the
    /// moment a message the client was told is kept is most easily lost), and starts it again;
    /// what happened, and when since `started`.
    async fn kill_and_restart(&mut self, slot: usize, started: Instant) -> String {
        let port = self.servers[slot].port;
        let mut acknowledged = self.live.acknowledgments();
        let this_one = async {
            loop {
                match acknowledged.recv().await {
                    Ok(acked) if acked == port => return true,
                    Ok(_) => {}
                    Err(_) => return false,
                }
            }
        };
        let on_acknowledgment = matches!(tokio::time::timeout(Duration::from_secs(2), this_one).await, Ok(true));
        let killed = started.elapsed();
        self.live.set(slot, None);
        self.servers[slot].kill();
        self.servers[slot] = self.start(slot).await;
        let how = if on_acknowledgment { " as it acknowledged a turn" } else { "" };
        format!("{killed:.1?}: instance {slot} killed{how}, back after {:.1?}", started.elapsed() - killed)
    }

    /// The database out of reach for [`OUTAGE`]: for the instance in `slot`, or for every one.
    async fn outage(&self, slot: Option<usize>) {
        let cut_off: Vec<&DbProxy> = self
            .proxies
            .iter()
            .enumerate()
            .filter(|(at, _)| slot.is_none_or(|slot| slot == *at))
            .map(|(_, proxy)| proxy)
            .collect();
        cut_off.iter().for_each(|proxy| proxy.cut());
        tokio::time::sleep(OUTAGE).await;
        cut_off.iter().for_each(|proxy| proxy.restore());
    }
}

enum Blow {
    Kill(usize),
    /// For one instance, or for every one (the database restarting).
    Outage(Option<usize>),
}

/// When each blow lands: a kill every 8 to 15 s (not in the load's last seconds, so its turns
/// still overlap the load), and the outage once, between 12 and 24 s in: for every instance, or
/// for one while the other goes on (and may take its turns for dead).
fn schedule(rng: &mut Rng) -> Vec<(Duration, Blow)> {
    let mut blows = Vec::new();
    let mut at = Duration::ZERO;
    loop {
        at += rng.millis(8_000, 15_000);
        if at > LOAD - Duration::from_secs(3) {
            break;
        }
        blows.push((at, Blow::Kill(rng.between(0, 2) as usize)));
    }
    let cut_off = [None, Some(0), Some(1)][rng.between(0, 3) as usize];
    blows.push((rng.millis(12_000, 24_000), Blow::Outage(cut_off)));
    blows.sort_by_key(|(at, _)| *at);
    blows
}

/// Deals the blows one after another (an instance is never started during the outage); the
/// fleet back, and what happened when.
async fn chaos(mut fleet: Fleet, blows: Vec<(Duration, Blow)>, started: Instant) -> (Fleet, Vec<String>) {
    let mut timeline = Vec::new();
    for (at, blow) in blows {
        tokio::time::sleep_until((started + at).into()).await;
        match blow {
            Blow::Kill(slot) => timeline.push(fleet.kill_and_restart(slot, started).await),
            Blow::Outage(slot) => {
                let landed = started.elapsed();
                fleet.outage(slot).await;
                let whom = slot.map_or("every instance".to_owned(), |slot| format!("instance {slot}"));
                timeline.push(format!("{landed:.1?}: the database out of reach for {whom} for {OUTAGE:?}"));
            }
        }
        say(timeline.last().unwrap());
    }
    (fleet, timeline)
}

/// A user's two bursts: at each, a prompt into each of its burst conversations at once.
async fn bursts(
    client: Client,
    mut rng: Rng,
    cookie: String,
    mut rounds: Vec<Vec<Conversation>>,
    at: [Duration; 2],
    started: Instant,
) -> Vec<Conversation> {
    for (round, at) in rounds.iter_mut().zip(at) {
        tokio::time::sleep_until((started + at).into()).await;
        let sends = round.iter().map(|conversation| {
            let (client, cookie, mut rng) = (client.clone(), cookie.clone(), Rng::new(rng.next()));
            let text = script::message(&format!("{}m1", conversation.tag), script::Want::Talk);
            let id = conversation.id.clone();
            async move { client.prompt(&mut rng, &cookie, &id, &text).await }
        });
        let exchanges = join_all(sends).await;
        for (conversation, exchange) in round.iter_mut().zip(exchanges) {
            conversation.exchanges.extend(exchange);
        }
    }
    rounds.into_iter().flatten().collect()
}

/// Each user's conversations: those its clients talk in, and its two bursts' (one each).
async fn open_conversations(
    client: &Client,
    port: u16,
    cookies: &[String],
) -> (Vec<Conversation>, Vec<Vec<Vec<Conversation>>>) {
    let (mut talks, mut bursts) = (Vec::new(), Vec::new());
    for (user, cookie) in cookies.iter().enumerate() {
        let open = |tag: String| async move {
            Conversation { id: client.new_conversation(port, cookie).await, tag, user, exchanges: Vec::new() }
        };
        for conversation in 0..CONVERSATIONS {
            talks.push(open(format!("u{user}c{conversation}")).await);
        }
        let mut rounds = Vec::new();
        for round in 0..2 {
            rounds.push(join_all((0..BURST).map(|burst| open(format!("u{user}b{round}{burst}")))).await);
        }
        bursts.push(rounds);
    }
    (talks, bursts)
}

/// The load, with the blows dealt meanwhile: the conversations as their clients left them, the
/// fleet, and what blows landed when.
async fn load(
    client: &Client,
    cookies: &[String],
    (talks, burst_rounds): (Vec<Conversation>, Vec<Vec<Vec<Conversation>>>),
    fleet: Fleet,
    rng: &mut Rng,
) -> (Vec<Conversation>, Fleet, Vec<String>) {
    let started = Instant::now();
    let dealing = tokio::spawn(chaos(fleet, schedule(rng), started));
    let burst_at = [rng.millis(3_000, 9_000), rng.millis(20_000, 32_000)];
    let bursting: Vec<_> = burst_rounds
        .into_iter()
        .zip(cookies)
        .map(|(rounds, cookie)| {
            tokio::spawn(bursts(client.clone(), Rng::new(rng.next()), cookie.clone(), rounds, burst_at, started))
        })
        .collect();
    let talking: Vec<_> = talks
        .into_iter()
        .map(|mut conversation| {
            let (client, cookie, rng) = (client.clone(), cookies[conversation.user].clone(), Rng::new(rng.next()));
            tokio::spawn(async move {
                client.converse(rng, &cookie, &mut conversation, started + LOAD).await;
                conversation
            })
        })
        .collect();
    let mut conversations: Vec<Conversation> = join_all(talking).await.into_iter().map(Result::unwrap).collect();
    for burst in join_all(bursting).await {
        conversations.extend(burst.unwrap());
    }
    let (fleet, timeline) = dealing.await.unwrap();
    say(&format!("load over after {:.1?}", started.elapsed()));
    (conversations, fleet, timeline)
}

/// A final message to every conversation, each user's one after another (within the cap),
/// within 30 s: the conversations, and those left unusable.
async fn final_messages(
    client: &Client,
    cookies: &[String],
    conversations: Vec<Conversation>,
    rng: &mut Rng,
) -> (Vec<Conversation>, Vec<String>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut by_user: Vec<Vec<Conversation>> = cookies.iter().map(|_| Vec::new()).collect();
    for conversation in conversations {
        by_user[conversation.user].push(conversation);
    }
    let finals = by_user.into_iter().zip(cookies).map(|(mut mine, cookie)| {
        let (client, cookie, mut rng) = (client.clone(), cookie.clone(), Rng::new(rng.next()));
        tokio::spawn(async move {
            let mut unusable = Vec::new();
            for conversation in &mut mine {
                if !client.final_reply(Rng::new(rng.next()), &cookie, conversation, deadline).await {
                    unusable
                        .push(format!("{} ({}): no whole reply to a final message", conversation.tag, conversation.id));
                }
            }
            (mine, unusable)
        })
    });
    let (mut conversations, mut unusable) = (Vec::new(), Vec::new());
    for finished in join_all(finals).await {
        let (mine, left) = finished.unwrap();
        conversations.extend(mine);
        unusable.extend(left);
    }
    (conversations, unusable)
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_keep_every_promise_through_kills_and_a_database_outage() {
    if std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default().is_empty() {
        eprintln!("skipped: two instances need PostgreSQL (PALAVER_TEST_POSTGRES_URL)");
        return;
    }
    let run_started = Instant::now();
    let seed = std::env::var("PALAVER_CHAOS_SEED").ok().and_then(|seed| seed.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    say(&format!("seed {seed} (PALAVER_CHAOS_SEED={seed} deals the same blows)"));
    let mut rng = Rng::new(seed);
    let data = tempfile::tempdir().unwrap();
    let database_url = palaver_core::db::scratch_url(data.path()).await.unwrap();
    let users: Vec<String> = (0..USERS).map(|user| format!("user{user}")).collect();
    for user in &users {
        crate::process::create_user(&database_url, user);
    }
    let pool = palaver_core::db::connect(&database_url).await.unwrap();
    checks::log_admissions(&pool).await;

    let model = FakeOpenAi::start(script::answer, PIECE_DELAY).await;
    let mut settings = vec![
        ("PALAVER_TURN_LEASE_SECONDS", LEASE_SECONDS.to_string()),
        ("PALAVER_MAX_TURNS_PER_USER", CAP.to_string()),
        ("PALAVER_DATABASE_CONNECT_TIMEOUT_SECONDS", "3".to_owned()),
        ("NO_COLOR", "1".to_owned()),
    ];
    settings.extend(model.settings("chaos"));
    let mut fleet = Fleet {
        servers: Vec::new(),
        proxies: vec![DbProxy::start(&database_url).await, DbProxy::start(&database_url).await],
        settings,
        data: data.path().to_path_buf(),
        live: Instances::default(),
    };
    for slot in 0..2 {
        let server = fleet.start(slot).await;
        fleet.servers.push(server);
    }
    let client = Client::new(fleet.live.clone());
    let port = fleet.servers[0].port;
    let cookies = join_all(users.iter().map(|user| client.log_in(port, user))).await;
    let opened = open_conversations(&client, port, &cookies).await;
    say(&format!("{USERS} users, {} conversations, load for {LOAD:?}", opened.0.len() + USERS * 2 * BURST));

    let (conversations, fleet, timeline) = load(&client, &cookies, opened, fleet, &mut rng).await;
    let mut violations = Vec::new();
    match checks::settle(&pool, Duration::from_secs(30)).await {
        Ok(took) => say(&format!("nothing ran and every draft was saved {took:.1?} later")),
        Err(left) => violations.push(left),
    }
    let (conversations, unusable) = final_messages(&client, &cookies, conversations, &mut rng).await;
    violations.extend(unusable);
    let stored = checks::Stored::read(&pool).await;
    violations.extend(stored.violations(&conversations, CAP));
    summarize(&conversations, &stored, &timeline, model.requests());
    for over in stored.over_cap_after_a_lapse(CAP) {
        say(&format!("over the cap after a lapse: {over}"));
    }
    say(&format!("ran {:.1?} in all", run_started.elapsed()));
    drop(fleet);
    if !violations.is_empty() {
        let logs = data.keep();
        panic!(
            "{} broken promises (the instances' logs are kept in {}):\n{}",
            violations.len(),
            logs.display(),
            violations.join("\n")
        );
    }
}

/// How many times each item comes.
fn tally<T: Ord>(items: impl Iterator<Item = T>) -> BTreeMap<T, usize> {
    let mut counts = BTreeMap::new();
    for item in items {
        *counts.entry(item).or_insert(0) += 1;
    }
    counts
}

/// What the run did, in numbers.
fn summarize(conversations: &[Conversation], stored: &checks::Stored, timeline: &[String], model_calls: usize) {
    let exchanges: Vec<&clients::Exchange> =
        conversations.iter().flat_map(|conversation| &conversation.exchanges).collect();
    let prompts = exchanges.iter().filter(|exchange| matches!(exchange.sent, clients::Sent::Prompt(_))).count();
    let statuses = tally(exchanges.iter().map(|exchange| exchange.status));
    let acknowledged: Vec<_> = exchanges.iter().filter(|exchange| exchange.status == Some(200)).collect();
    let done = acknowledged.iter().filter(|exchange| exchange.done && exchange.error.is_none()).count();
    let errors = tally(acknowledged.iter().filter_map(|exchange| exchange.error.as_deref()));
    let cut =
        acknowledged.iter().filter(|exchange| !exchange.done && exchange.error.is_none() && !exchange.stalled).count();
    let stalled = acknowledged.iter().filter(|exchange| exchange.stalled).count();
    let (asks, approved, admitted, back) = stored.counts();
    say(&format!(
        "{prompts} prompts and {} answers sent; answered (status: how many, none: no answer) {statuses:?}",
        exchanges.len() - prompts
    ));
    say(&format!(
        "of {} acknowledged, {done} streams ended done, {cut} were cut off, {stalled} went silent, and these errors \
         were told: {errors:?}",
        acknowledged.len()
    ));
    say(&format!(
        "{asks} asks ended, {approved} approved calls ran, {admitted} turns admitted ({back} came back after their \
         lease lapsed), {model_calls} model calls; blows: {}",
        timeline.len()
    ));
}
