//! A context that fits the model: a 1,000-message conversation's turn sends the model what
//! fits its budget, a summary of what was cut, the newest turns, and the pending ask's call and
//! answer (read from the mock model's request log); the summary is made once and remade only
//! when the cut passes what it covers; a "context too long" refusal shrinks and goes on.

use palaver_contract::asks::AskKind;
use palaver_core::conversation::running::RunningTurns;
use palaver_core::conversation::store::create_history;
use palaver_core::db::Backend;
use palaver_core::llm::{CONTEXT_TOO_LONG, Models, ProviderSettings};
use palaver_core::turn::{BASE_SYSTEM_PROMPT, Redo, TurnDependencies, TurnInput, TurnRunner, TurnSettings};
use palaver_wire::accounts::Role;
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};
use serde_json::{Value, json};

use crate::common::{Harness, asked, text};
use palaver_core::accounts::auth::{Caller, CallerVia};

/// The mock's budget here: a few dozen of the seeded messages fit it.
const BUDGET: u32 = 16_000;

const SUMMARY: &str = "SUMMARY: Ada is planning a long trip, one stop per message.";

/// A runner whose one model is the scripted mock with a budget of [`BUDGET`] tokens, set the
/// way a deployment sets it (`;context=` after the model's entry).
async fn harness(responses: Value) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let script_path = dir.path().join("script.json");
    std::fs::write(&script_path, json!({"summary": SUMMARY, "responses": responses}).to_string()).unwrap();
    let url = palaver_core::db::scratch_url(dir.path()).await.unwrap();
    let pool = palaver_core::db::connect(&url).await.unwrap();
    let spec = format!("mock:{};context={BUDGET}", script_path.display());
    let log = Some(dir.path().join("model-requests.jsonl"));
    let models = Models::from_settings(Some(&spec), None, log, &ProviderSettings::default()).unwrap();
    let running = RunningTurns::new(
        pool.clone(),
        palaver_core::signals::Signals::local(),
        palaver_core::conversation::running::DEFAULT_LEASE,
    );
    let runner =
        TurnRunner::new(pool.clone(), models, TurnSettings::default(), TurnDependencies::default(), running.clone());
    let user = palaver_core::accounts::service::create_account(&pool, "ada", "correct horse battery", Role::User)
        .await
        .unwrap();
    Harness { dir, pool, runner, running, caller: Caller { user, via: CallerVia::Session } }
}

/// Some words, so each seeded message weighs about 80 tokens.
const FILLER: &str = "We talked about the train times, the hotels near the station, the museums that open \
late and the weather there in spring, and what it all costs in the end.";

/// Appends `messages` messages (the person's and the assistant's in turn), numbered from
/// `first`, to the conversation, straight into the database.
async fn seed(harness: &Harness, history_id: &str, first: usize, messages: usize) {
    let backend = Backend::of(&harness.pool);
    let (next,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(seq) + 1, 0) FROM history_rows WHERE history_id = $1")
        .bind(history_id)
        .fetch_one(&harness.pool)
        .await
        .unwrap();
    let mut tx = palaver_core::db::begin(&harness.pool).await.unwrap();
    for index in 0..messages {
        let number = first + index;
        let row = if number.is_multiple_of(2) {
            HistoryRow::User { text: format!("Message {number}: {FILLER}"), attachments: Vec::new(), from_app: None }
        } else {
            HistoryRow::Assistant {
                text: format!("Reply {number}: {FILLER}"),
                document: false,
                block_errors: String::new(),
                interrupted: false,
                blocks: None,
                model: None,
            }
        };
        sqlx::query(&format!(
            "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload) VALUES ($1, $2, $3, $4, {})",
            backend.json("$5")
        ))
        .bind(history_id)
        .bind(next + i64::try_from(index).unwrap())
        .bind(format!("seeded-{}", number / 2))
        .bind(row.row_type())
        .bind(backend.storable_json(serde_json::to_string(&row).unwrap()))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
}

async fn seeded_conversation(harness: &Harness, messages: usize) -> String {
    let history_id = create_history(&harness.pool, &harness.caller.user.id, None).await.unwrap().id;
    seed(harness, &history_id, 0, messages).await;
    history_id
}

/// The requests of the turns' model calls, and how many summary calls there were.
fn logged(harness: &Harness) -> (Vec<Value>, usize) {
    let (summaries, turns): (Vec<Value>, Vec<Value>) =
        harness.model_requests().into_iter().partition(|request| request["purpose"] == "summary");
    (turns, summaries.len())
}

/// The request's size as the estimate counts it (bytes over four), everything included.
fn tokens(request: &Value) -> usize {
    request.to_string().len().div_ceil(4)
}

fn messages(request: &Value) -> &Vec<Value> {
    request["messages"].as_array().unwrap()
}

fn user_texts(request: &Value) -> Vec<&str> {
    messages(request).iter().filter(|message| message["role"] == "user").filter_map(|m| m["text"].as_str()).collect()
}

/// The request fits the budget, starts with a message of the person's, carries the system
/// prompt with the summary, and the newest seeded message but not the oldest.
fn assert_fitted(request: &Value, newest: &str) {
    let size = tokens(request);
    assert!(size <= BUDGET as usize, "{size} tokens sent, the budget is {BUDGET}");
    assert!(size > BUDGET as usize / 3, "only {size} tokens sent: the newest turns that fit should be");
    let system = request["system"].as_str().unwrap();
    assert!(system.starts_with(BASE_SYSTEM_PROMPT) && system.contains(SUMMARY), "{system}");
    assert_eq!(messages(request)[0]["role"], "user");
    let users = user_texts(request);
    assert!(users.iter().any(|text| text.starts_with(newest)), "{newest} is missing");
    assert!(!users.iter().any(|text| text.starts_with("Message 0:")));
}

async fn stored_summary(harness: &Harness, history_id: &str) -> Option<(i64, String)> {
    sqlx::query_as("SELECT through_row, text FROM conversation_summaries WHERE history_id = $1")
        .bind(history_id)
        .fetch_optional(&harness.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_thousand_message_turn_sends_what_fits_a_summary_and_the_pending_ask() {
    let harness = harness(json!([
        {"toolCalls": [{"id": "call_book", "name": "ask_confirm", "input": {"prompt": "Book the last stop?"}}]},
        {"text": "Booked."},
        {"text": "Have a good trip."},
    ]))
    .await;
    let history = seeded_conversation(&harness, 1_000).await;

    let events = harness.turn(Some(&history), TurnInput::Prompt("Book the last stop.".into())).await;
    let ask = asked(&events).expect("the model asks");
    let (turns, summaries) = logged(&harness);
    assert_eq!(turns.len(), 1);
    assert!(summaries >= 1, "the cut messages are summarised");
    assert_fitted(&turns[0], "Message 998:");
    assert_eq!(user_texts(&turns[0]).last(), Some(&"Book the last stop."));
    let (through_row, text) = stored_summary(&harness, &history).await.expect("the summary is stored");
    assert_eq!(text, SUMMARY);
    let rows = harness.rows(&history).await;
    let through = usize::try_from(through_row).unwrap();
    assert!(through > 0 && matches!(rows[through], HistoryRow::User { .. }), "{through_row}");
    // The chat's view says where the model reads the summary instead.
    let view = palaver_core::conversation::store::load_history(&harness.pool, &history).await.unwrap().unwrap();
    assert_eq!(view.summarised_before, Some(through));

    // The answer's turn: the ask's call and its answer are sent, the summary is not remade.
    harness.answer(&history, &ask, json!({"action": "accept", "content": {"confirmed": true}})).await;
    let (turns, summaries_after_answer) = logged(&harness);
    assert_eq!(summaries_after_answer, summaries);
    assert_fitted(&turns[1], "Message 998:");
    let sent = messages(&turns[1]);
    let call = sent.iter().position(|message| message["toolCalls"][0]["name"] == AskKind::Confirm.tool_name());
    let answer = sent.iter().position(|message| message["role"] == "tool" && message["toolCallId"] == "call_book");
    assert!(matches!((call, answer), (Some(call), Some(answer)) if call < answer), "{sent:?}");

    // A short message more: the cut has not passed the summary's cover, so it stands.
    harness.turn(Some(&history), TurnInput::Prompt("Thanks!".into())).await;
    let (turns, summaries_after_prompt) = logged(&harness);
    assert_eq!(summaries_after_prompt, summaries);
    assert_fitted(&turns[2], "Book the last stop.");
    assert_eq!(stored_summary(&harness, &history).await.map(|(through, _)| through), Some(through_row));
}

#[tokio::test]
async fn the_summary_is_remade_once_the_cut_passes_what_it_covers() {
    let harness = harness(json!([{"text": "One."}, {"text": "Two."}])).await;
    let history = seeded_conversation(&harness, 1_000).await;
    harness.turn(Some(&history), TurnInput::Prompt("First.".into())).await;
    let (_, made) = logged(&harness);
    let (covered, _) = stored_summary(&harness, &history).await.unwrap();

    // Far more than the room kept free for growth: the cut moves past the summary.
    let rows = harness.rows(&history).await.len();
    seed(&harness, &history, 2_000, 100).await;
    harness.turn(Some(&history), TurnInput::Prompt("Second.".into())).await;
    let (turns, remade) = logged(&harness);
    assert!(remade > made, "the summary is brought up to date");
    let (recovered, _) = stored_summary(&harness, &history).await.unwrap();
    assert!(recovered > covered && recovered <= i64::try_from(rows + 100).unwrap(), "{covered} → {recovered}");
    let refresh = harness.model_requests().into_iter().filter(|request| request["purpose"] == "summary").nth(made);
    let refresh = refresh.expect("a summary call after the first ones");
    let asked_with = refresh["messages"][0]["text"].as_str().unwrap();
    assert!(asked_with.contains("The summary so far:") && asked_with.contains(SUMMARY), "{asked_with}");
    assert_fitted(&turns[1], "Message 2098:");
}

#[tokio::test]
async fn a_context_too_long_shrinks_once_and_otherwise_says_so_plainly() {
    let harness = harness(json!([
        {"error": CONTEXT_TOO_LONG},
        {"text": "Fits now."},
        {"error": CONTEXT_TOO_LONG},
        {"error": CONTEXT_TOO_LONG},
    ]))
    .await;
    let history = seeded_conversation(&harness, 1_000).await;
    let events = harness.turn(Some(&history), TurnInput::Prompt("Go on.".into())).await;
    assert_eq!(text(&events), "Fits now.");
    assert!(!events.iter().any(|event| matches!(event, TurnEvent::Error { .. })), "{events:?}");
    let (turns, _) = logged(&harness);
    assert_eq!(turns.len(), 2);
    assert!(tokens(&turns[1]) <= BUDGET as usize / 2, "the second try sends half as much: {}", tokens(&turns[1]));
    assert_eq!(user_texts(&turns[1]).last(), Some(&"Go on."));
    assert!(turns[1]["system"].as_str().unwrap().contains(SUMMARY));

    // Another conversation the model refuses twice: one try more, then the person's words.
    let other = seeded_conversation(&harness, 1_000).await;
    let events = harness.turn(Some(&other), TurnInput::Prompt("And again.".into())).await;
    let errors: Vec<&TurnEvent> = events.iter().filter(|event| matches!(event, TurnEvent::Error { .. })).collect();
    assert_eq!(errors, [&TurnEvent::Error { error: CONTEXT_TOO_LONG.into() }]);
    assert_eq!(logged(&harness).0.len(), 4, "one try more, no more");
}

#[tokio::test]
async fn a_redo_before_the_summarys_cover_drops_it() {
    let harness = harness(json!([{"text": "One."}, {"text": "Again."}])).await;
    let history = seeded_conversation(&harness, 1_000).await;
    harness.turn(Some(&history), TurnInput::Prompt("First.".into())).await;
    assert!(stored_summary(&harness, &history).await.is_some());
    let mut request = harness.request(Some(&history), TurnInput::Prompt("Message 2, edited".into()));
    let seen = i64::try_from(harness.rows(&history).await.len()).unwrap();
    request.redo = Some(Redo { from: Some(2), seen_rows: Some(seen) });
    harness.run(request).await;
    assert_eq!(harness.rows(&history).await.len(), 4, "the conversation is its first turn and the edit's");
    assert!(stored_summary(&harness, &history).await.is_none(), "the summary described replaced rows");
    let (turns, _) = logged(&harness);
    assert!(!turns[1]["system"].as_str().unwrap().contains(SUMMARY));
}
