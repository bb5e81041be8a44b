//! Conversation storage: every SQL statement about histories outside a turn. Every function
//! takes the pool; none keeps state.

use crate::db::{Backend, Pool};

use super::branches::{self, branch_points};
use crate::db::new_id;
use crate::error::AppResult;
use palaver_wire::conversation::model::{HistorySummary, HistoryView, Rating, words_title};
use palaver_wire::conversation::shelf::Shelf;
use palaver_wire::conversation::snippet::snippet_around;

/// A new conversation; `model` is its chosen model (`None`: the server's default).
pub async fn create_history(pool: &Pool, owner_id: &str, model: Option<&str>) -> AppResult<String> {
    let id = new_id();
    sqlx::query("INSERT INTO histories (id, owner_id, model) VALUES ($1, $2, $3)")
        .bind(&id)
        .bind(owner_id)
        .bind(model)
        .execute(pool)
        .await?;
    Ok(id)
}

/// The model a conversation chose, when it chose one.
pub async fn history_model(pool: &Pool, id: &str) -> AppResult<Option<String>> {
    let model: Option<(Option<String>,)> =
        sqlx::query_as("SELECT model FROM histories WHERE id = $1").bind(id).fetch_optional(pool).await?;
    Ok(model.and_then(|(model,)| model))
}

/// Stores a conversation's choice of model; returns it as the list shows it, or `None` when
/// it is gone.
pub async fn set_history_model(pool: &Pool, id: &str, model: &str) -> AppResult<Option<HistorySummary>> {
    let row: Option<SummaryRow> = sqlx::query_as(
        "UPDATE histories SET model = $1 WHERE id = $2 AND deleted_at IS NULL
         RETURNING id, title, created_at, updated_at, CAST(NULL AS TEXT)",
    )
    .bind(model)
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(summary))
}

/// A list entry as it is read: id, title, created, updated, the first message's text.
type SummaryRow = (String, Option<String>, String, String, Option<String>);

/// A list entry with its shelf (`shelf_columns`) as it is read.
type ListedRow = (String, Option<String>, String, String, Option<String>, i64, i64, i64);

/// A search result as it is read: a listed entry and its first matching message's text.
type FoundRow = (String, Option<String>, String, String, Option<String>, i64, i64, i64, Option<String>);

/// An entry without its shelf (a rename's or a model choice's answer).
fn summary((id, title, created, updated, first): SummaryRow) -> HistorySummary {
    let first_message = first.as_deref().and_then(words_title);
    HistorySummary { id, title, created, updated, first_message, snippet: None, shelf: Shelf::default() }
}

fn listed((id, title, created, updated, first, pinned, archived, shared): ListedRow) -> HistorySummary {
    let shelf = Shelf { pinned: pinned != 0, archived: archived != 0, shared: shared != 0 };
    HistorySummary { shelf, ..summary((id, title, created, updated, first)) }
}

/// Whether the conversation `h` is archived: it was archived after its last message, so a
/// message sent into it since brings it back to the list.
const ARCHIVED: &str = "(h.archived_at IS NOT NULL AND h.archived_at >= COALESCE(
    (SELECT MAX(r.created_at) FROM history_rows r WHERE r.history_id = h.id AND r.row_type = 'user'), ''))";

/// How the owner keeps the conversation `h`: pinned, archived, shared, each 0 or 1.
fn shelf_columns() -> String {
    format!(
        "CAST(CASE WHEN h.pinned_at IS NULL THEN 0 ELSE 1 END AS BIGINT),
         CAST(CASE WHEN {ARCHIVED} THEN 1 ELSE 0 END AS BIGINT),
         CAST(CASE WHEN EXISTS (SELECT 1 FROM history_shares s WHERE s.history_id = h.id) THEN 1 ELSE 0 END AS BIGINT)"
    )
}

/// The condition that keeps the archived conversations (`archived`) or the others.
fn on_shelf(archived: bool) -> String {
    if archived { ARCHIVED.to_string() } else { format!("NOT {ARCHIVED}") }
}

/// The first message's text of the conversation `h`, as a column.
pub(crate) fn first_message(backend: Backend) -> String {
    format!(
        "(SELECT {} FROM history_rows r WHERE r.history_id = h.id AND r.row_type = 'user' ORDER BY r.seq LIMIT 1)",
        backend.json_text("r.payload", "text")
    )
}

/// The owner's archived conversations (`archived`) or the others, most recently active first.
pub async fn list_histories(pool: &Pool, owner_id: &str, archived: bool) -> AppResult<Vec<HistorySummary>> {
    let rows: Vec<ListedRow> = sqlx::query_as(&format!(
        "SELECT id, title, created_at, updated_at, {}, {} FROM histories h
         WHERE owner_id = $1 AND deleted_at IS NULL AND {} ORDER BY updated_at DESC, id DESC",
        first_message(Backend::of(pool)),
        shelf_columns(),
        on_shelf(archived)
    ))
    .bind(owner_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(listed).collect())
}

/// How many characters a search result's snippet shows.
const SNIPPET_WIDTH: usize = 90;

/// The owner's conversations (archived, or the others) whose title or any message's text holds
/// `needle` (ignoring case: ASCII letters' on SQLite, every letter's on PostgreSQL), most
/// recently active first, each with the words around its first matching message's match.
pub async fn search_histories(
    pool: &Pool,
    owner_id: &str,
    needle: &str,
    archived: bool,
) -> AppResult<Vec<HistorySummary>> {
    let escaped: String =
        needle.chars().flat_map(|ch| if matches!(ch, '%' | '_' | '\\') { vec!['\\', ch] } else { vec![ch] }).collect();
    let pattern = format!("%{escaped}%");
    let backend = Backend::of(pool);
    let like = backend.like_any_case();
    let first = first_message(backend);
    let text = backend.json_text("r.payload", "text");
    let matching = format!(
        "FROM history_rows r WHERE r.history_id = h.id AND r.row_type IN ('user', 'assistant')
           AND {text} {like} $2 ESCAPE '\\'"
    );
    let (shelf, kept) = (shelf_columns(), on_shelf(archived));
    let rows: Vec<FoundRow> = sqlx::query_as(&format!(
        "SELECT id, title, created_at, updated_at, {first}, {shelf}, (SELECT {text} {matching} ORDER BY r.seq LIMIT 1)
             FROM histories h
             WHERE owner_id = $1 AND deleted_at IS NULL AND {kept}
               AND (title {like} $2 ESCAPE '\\' OR EXISTS (SELECT 1 {matching}))
             ORDER BY updated_at DESC, id DESC"
    ))
    .bind(owner_id)
    .bind(pattern)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, title, created, updated, first, pinned, archived, shared, matched)| HistorySummary {
            snippet: matched.and_then(|text| snippet_around(&text, needle, SNIPPET_WIDTH)),
            ..listed((id, title, created, updated, first, pinned, archived, shared))
        })
        .collect())
}

pub async fn load_history(pool: &Pool, id: &str) -> AppResult<Option<HistoryView>> {
    type Head = (Option<String>, Option<String>, Option<String>, Option<String>, String, String);
    let Some((user_id, title, pending_ask, model, created, updated)): Option<Head> = sqlx::query_as(
        "SELECT owner_id, title, CAST(pending_ask AS TEXT), model, created_at, updated_at
         FROM histories WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    // The view leaves out the replay state (promptIndex, responseMessages) stored beside it.
    let pending_ask = pending_ask.and_then(|json| match serde_json::from_str(&json) {
        Ok(pending) => Some(pending),
        Err(err) => {
            tracing::error!(%err, history = id, "unreadable pending ask left out of the view");
            None
        }
    });
    let payloads: Vec<(String, Option<String>, String, String)> = sqlx::query_as(
        "SELECT CAST(payload AS TEXT), rating, created_at, turn_id FROM history_rows WHERE history_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let mut rows = Vec::with_capacity(payloads.len());
    let mut row_times = Vec::with_capacity(payloads.len());
    let mut row_turns = Vec::with_capacity(payloads.len());
    let mut ratings = std::collections::BTreeMap::new();
    for (payload, rating, created, turn_id) in payloads {
        match serde_json::from_str(&payload) {
            Ok(row) => {
                if let Some(rating) = rating.as_deref().and_then(Rating::parse) {
                    ratings.insert(rows.len(), rating);
                }
                rows.push(row);
                row_times.push(created);
                row_turns.push(turn_id);
            }
            Err(err) => tracing::error!(%err, history = id, "unreadable history row skipped"),
        }
    }
    let branches = branch_points(&row_turns, &branches::store::branches(pool, id).await?);
    Ok(Some(HistoryView {
        id: id.to_string(),
        user_id,
        title,
        created,
        updated,
        model,
        rows,
        row_times,
        ratings,
        branches,
        pending_ask,
        changeable_answer: None,
        running: false,
    }))
}

/// The owner of a conversation that is not deleted: `None` when there is none, `Some(None)`
/// for one without an owner.
pub async fn history_owner(pool: &Pool, id: &str) -> AppResult<Option<Option<String>>> {
    let owner: Option<(Option<String>,)> =
        sqlx::query_as("SELECT owner_id FROM histories WHERE id = $1 AND deleted_at IS NULL")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    Ok(owner.map(|(owner,)| owner))
}

/// The conversation's title, when it has one.
pub async fn title_of(pool: &Pool, history_id: &str) -> AppResult<Option<String>> {
    let title: Option<(Option<String>,)> =
        sqlx::query_as("SELECT title FROM histories WHERE id = $1").bind(history_id).fetch_optional(pool).await?;
    Ok(title.and_then(|(title,)| title))
}

/// Sets the title only when the conversation has none yet; returns whether it did.
pub async fn set_title_if_unset(pool: &Pool, history_id: &str, title: &str) -> AppResult<bool> {
    let result = sqlx::query("UPDATE histories SET title = $1 WHERE id = $2 AND title IS NULL")
        .bind(Backend::of(pool).storable_text(title))
        .bind(history_id)
        .execute(pool)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Renames a conversation that is not deleted; returns it as the list shows it, or `None`.
pub async fn rename_history(pool: &Pool, id: &str, title: &str) -> AppResult<Option<HistorySummary>> {
    let row: Option<SummaryRow> = sqlx::query_as(
        "UPDATE histories SET title = $1 WHERE id = $2 AND deleted_at IS NULL
         RETURNING id, title, created_at, updated_at, CAST(NULL AS TEXT)",
    )
    .bind(Backend::of(pool).storable_text(title))
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(summary))
}

/// Rates the conversation's row at `index` (in order), or takes its rating away, and records
/// it beside the request log's entry of the turn that wrote the row; `None` when there is no
/// such row.
pub async fn rate_row(pool: &Pool, history_id: &str, index: u64, rating: Option<Rating>) -> AppResult<Option<()>> {
    let offset = i64::try_from(index).unwrap_or(i64::MAX);
    let mut tx = pool.begin().await?;
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT seq, turn_id FROM history_rows WHERE history_id = $1 ORDER BY seq LIMIT 1 OFFSET $2")
            .bind(history_id)
            .bind(offset)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((seq, turn_id)) = row else { return Ok(None) };
    let rating = rating.map(Rating::as_str);
    sqlx::query("UPDATE history_rows SET rating = $3 WHERE history_id = $1 AND seq = $2")
        .bind(history_id)
        .bind(seq)
        .bind(rating)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE ai_requests SET rating = $3 WHERE history_id = $1 AND turn_id = $2")
        .bind(history_id)
        .bind(&turn_id)
        .bind(rating)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(()))
}

/// Marks a conversation deleted (its rows stay, for the request log and audits) and ends its
/// share link; false when it was already gone.
pub async fn delete_history(pool: &Pool, id: &str) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let mut tx = pool.begin().await?;
    let result = sqlx::query(&format!("UPDATE histories SET deleted_at = {now} WHERE id = $1 AND deleted_at IS NULL"))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM history_shares WHERE history_id = $1").bind(id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(result.rows_affected() == 1)
}

/// The saved state of each block a host action changed in a conversation, as `(block id, block JSON)`.
pub async fn block_states(pool: &Pool, history_id: &str) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as("SELECT block_id, CAST(block AS TEXT) FROM block_states WHERE history_id = $1")
        .bind(history_id)
        .fetch_all(pool)
        .await?)
}

/// Saves a block's new state, replacing the one saved before.
pub async fn save_block_state(pool: &Pool, history_id: &str, block_id: &str, block_json: &str) -> AppResult<()> {
    let backend = Backend::of(pool);
    sqlx::query(&format!(
        "INSERT INTO block_states (history_id, block_id, block) VALUES ($1, $2, {})
         ON CONFLICT (history_id, block_id) DO UPDATE SET block = excluded.block, updated_at = {}",
        backend.json("$3"),
        backend.now()
    ))
    .bind(history_id)
    .bind(block_id)
    .bind(backend.storable_json(block_json.to_owned()))
    .execute(pool)
    .await?;
    Ok(())
}

/// One running turn's row: `key` is this registration's own id.
pub struct RunningTurnRow<'a> {
    pub key: &'a str,
    pub history_id: &'a str,
    pub user_id: &'a str,
    pub stream_id: &'a str,
    pub prompt: Option<&'a str>,
    pub instance_id: &'a str,
}

/// Records a turn starting, leased for `lease_seconds`.
pub async fn add_running_turn(pool: &Pool, turn: &RunningTurnRow<'_>, lease_seconds: i64) -> AppResult<()> {
    sqlx::query(&format!(
        "INSERT INTO running_turns (id, history_id, user_id, stream_id, prompt, instance_id, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, {})",
        Backend::of(pool).seconds_from_now("$7")
    ))
    .bind(turn.key)
    .bind(turn.history_id)
    .bind(turn.user_id)
    .bind(turn.stream_id)
    .bind(turn.prompt)
    .bind(turn.instance_id)
    .bind(lease_seconds)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn remove_running_turn(pool: &Pool, key: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM running_turns WHERE id = $1").bind(key).execute(pool).await?;
    Ok(())
}

/// Whether a turn of the conversation (of that stream, when given) runs on an instance other
/// than `instance_id`.
pub async fn runs_elsewhere(
    pool: &Pool,
    history_id: &str,
    stream_id: Option<&str>,
    instance_id: &str,
) -> AppResult<bool> {
    let (count,): (i64,) = sqlx::query_as(&format!(
        "SELECT COUNT(*) FROM running_turns
         WHERE history_id = $1 AND ($2 IS NULL OR stream_id = $2) AND instance_id <> $3 AND lease_until > {}",
        Backend::of(pool).now()
    ))
    .bind(history_id)
    .bind(stream_id)
    .bind(instance_id)
    .fetch_one(pool)
    .await?;
    Ok(count > 0)
}

/// Forgets the turns whose lease ran out (their instance died), and, a minute on, the stored
/// events of streams no turn runs any more; returns how many turns it forgot.
pub async fn forget_lapsed(pool: &Pool) -> AppResult<u64> {
    let backend = Backend::of(pool);
    let lapsed =
        sqlx::query(&format!("DELETE FROM running_turns WHERE lease_until <= {}", backend.now())).execute(pool).await?;
    sqlx::query(&format!(
        "DELETE FROM turn_stream_events
         WHERE stream_id NOT IN (SELECT stream_id FROM running_turns) AND written_at < {}",
        backend.seconds_from_now("-60")
    ))
    .execute(pool)
    .await?;
    Ok(lapsed.rows_affected())
}

/// A running turn's new stream (the answer to a tool's question resumed it).
pub async fn set_running_stream(pool: &Pool, key: &str, stream_id: &str) -> AppResult<()> {
    sqlx::query("UPDATE running_turns SET stream_id = $2, prompt = NULL WHERE id = $1")
        .bind(key)
        .bind(stream_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The stream and prompt of the oldest turn running on the conversation on another instance.
pub async fn stream_elsewhere(
    pool: &Pool,
    history_id: &str,
    instance_id: &str,
) -> AppResult<Option<(String, Option<String>)>> {
    Ok(sqlx::query_as(&format!(
        "SELECT stream_id, prompt FROM running_turns
         WHERE history_id = $1 AND instance_id <> $2 AND lease_until > {}
         ORDER BY started_at, id LIMIT 1",
        Backend::of(pool).now()
    ))
    .bind(history_id)
    .bind(instance_id)
    .fetch_optional(pool)
    .await?)
}

/// Whether a turn with that stream is still running (on a live lease).
pub async fn stream_is_running(pool: &Pool, stream_id: &str) -> AppResult<bool> {
    let (count,): (i64,) = sqlx::query_as(&format!(
        "SELECT COUNT(*) FROM running_turns WHERE stream_id = $1 AND lease_until > {}",
        Backend::of(pool).now()
    ))
    .bind(stream_id)
    .fetch_one(pool)
    .await?;
    Ok(count > 0)
}

/// Appends a stream's events (JSON) from number `first` on.
pub async fn append_stream_events(pool: &Pool, stream_id: &str, first: i64, events: &[String]) -> AppResult<()> {
    let backend = Backend::of(pool);
    let insert =
        format!("INSERT INTO turn_stream_events (stream_id, n, event) VALUES ($1, $2, {})", backend.json("$3"));
    let mut tx = pool.begin().await?;
    for (n, event) in (first..).zip(events) {
        let event = backend.storable_json(event.clone());
        sqlx::query(&insert).bind(stream_id).bind(n).bind(event).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A stream's events (JSON) from number `from` on.
pub async fn stream_events_from(pool: &Pool, stream_id: &str, from: i64) -> AppResult<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT CAST(event AS TEXT) FROM turn_stream_events WHERE stream_id = $1 AND n >= $2 ORDER BY n",
    )
    .bind(stream_id)
    .bind(from)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(event,)| event).collect())
}
