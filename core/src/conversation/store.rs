//! Conversation storage: every SQL statement about histories outside a turn. Every function
//! takes the pool; none keeps state.

pub(super) use super::head::HeadRow;
pub use super::view::{FreshCheck, KeptCheck, ReadView, RowsStart};
pub(super) use super::view::{StoredRow, assemble_view};
use crate::db::{Backend, Pool};
use sqlx::AnyConnection;

use super::branches;
use crate::db::new_id;
use crate::error::AppResult;
use palaver_wire::conversation::model::{HistorySummary, HistoryView, Rating, words_title};
use palaver_wire::conversation::shelf::Shelf;

/// A new conversation, as it reads with nothing in it yet; `model` is its chosen model
/// (`None`: the server's default).
pub async fn create_history(pool: &Pool, owner_id: &str, model: Option<&str>) -> AppResult<HistoryView> {
    let id = new_id();
    let (created_at, updated_at): (String, String) = sqlx::query_as(
        "INSERT INTO histories (id, owner_id, model) VALUES ($1, $2, $3) RETURNING created_at, updated_at",
    )
    .bind(&id)
    .bind(owner_id)
    .bind(model)
    .fetch_one(pool)
    .await?;
    let head = HeadRow::created(id, owner_id, model, created_at, updated_at);
    Ok(assemble_view(head, Vec::new(), &[], &RowsStart::default()).view)
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
pub(super) type SummaryRow = (String, Option<String>, String, String, Option<String>);

/// A list entry with its shelf (`shelf_columns`) as it is read.
pub(super) type ListedRow = (String, Option<String>, String, String, Option<String>, i64, i64, i64);

/// An entry without its shelf (a rename's or a model choice's answer).
pub(super) fn summary((id, title, created, updated, first): SummaryRow) -> HistorySummary {
    let first_message = first.as_deref().and_then(words_title);
    HistorySummary { id, title, created, updated, first_message, snippet: None, shelf: Shelf::default() }
}

pub(super) fn listed((id, title, created, updated, first, pinned, archived, shared): ListedRow) -> HistorySummary {
    let shelf = Shelf { pinned: pinned != 0, archived: archived != 0, shared: shared != 0 };
    HistorySummary { shelf, ..summary((id, title, created, updated, first)) }
}

/// Whether the conversation `h` is archived: it was archived after its last message, so a
/// message sent into it since brings it back to the list.
const ARCHIVED: &str = "(h.archived_at IS NOT NULL AND h.archived_at >= COALESCE(
    (SELECT MAX(r.created_at) FROM history_rows r WHERE r.history_id = h.id AND r.row_type = 'user'), ''))";

/// How the owner keeps the conversation `h`: pinned, archived, shared, each 0 or 1.
pub(super) fn shelf_columns() -> String {
    format!(
        "CAST(CASE WHEN h.pinned_at IS NULL THEN 0 ELSE 1 END AS BIGINT),
         CAST(CASE WHEN {ARCHIVED} THEN 1 ELSE 0 END AS BIGINT),
         CAST(CASE WHEN EXISTS (SELECT 1 FROM history_shares s WHERE s.history_id = h.id) THEN 1 ELSE 0 END AS BIGINT)"
    )
}

/// The condition that keeps the archived conversations (`archived`) or the others.
pub(super) fn on_shelf(archived: bool) -> String {
    if archived { ARCHIVED.to_string() } else { format!("NOT {ARCHIVED}") }
}

/// The first message's text of the conversation `h`, as a column.
pub(crate) fn first_message(backend: Backend) -> String {
    format!(
        "(SELECT {} FROM history_rows r WHERE r.history_id = h.id AND r.row_type = 'user' ORDER BY r.seq LIMIT 1)",
        backend.json_text("r.payload", "text")
    )
}

/// A conversation's own columns, unless it is deleted or none.
pub(super) async fn live_head(connection: &mut AnyConnection, id: &str) -> AppResult<Option<HeadRow>> {
    Ok(sqlx::query_as(&format!("SELECT {HEAD_COLUMNS} FROM histories WHERE id = $1 AND deleted_at IS NULL"))
        .bind(id)
        .fetch_optional(connection)
        .await?)
}

/// A conversation with its rows, as its owner reads it, and the block checks kept with its
/// document replies; `None` when it is deleted or none. One connection for its reads: each
/// connection taken from the pool and given back costs a trip to its thread on SQLite.
pub async fn read_history(pool: &Pool, id: &str) -> AppResult<Option<ReadView>> {
    let mut connection = pool.acquire().await?;
    let Some(head) = live_head(&mut connection, id).await? else { return Ok(None) };
    let rows: Option<(String, String)> = sqlx::query_as(&rows_as_arrays(Backend::of(pool), "history_id = $1"))
        .bind(id)
        .fetch_optional(&mut *connection)
        .await?;
    let versions = if head.versioned() { branches::store::branches(&mut *connection, id).await? } else { Vec::new() };
    drop(connection); // given back before the rows are parsed
    let rows = match rows {
        Some((_, rows)) => parse_rows(&rows)?,
        None => Vec::new(),
    };
    Ok(Some(assemble_view(head, rows, &versions, &RowsStart::default())))
}

/// The rows of each conversation that has rows where `condition` holds, as its id and one JSON
/// array of its rows in order, each an array of [`ROW_COLUMNS`] ([`parse_rows`] reads it). One
/// value a conversation crosses from the database instead of a row a message: on SQLite each row
/// is a handoff between threads, which made most of a long conversation's turn. (A value is
/// capped at 1e9 bytes on SQLite, about 1 GB on PostgreSQL: far above any conversation's rows.)
pub(super) fn rows_as_arrays(backend: Backend, condition: &str) -> String {
    let array = match backend {
        Backend::Sqlite => format!("json_group_array(json_array({ROW_COLUMNS}) ORDER BY seq)"),
        Backend::Postgres => format!("CAST(json_agg(json_build_array({ROW_COLUMNS}) ORDER BY seq) AS TEXT)"),
    };
    format!("SELECT history_id, {array} FROM history_rows WHERE {condition} GROUP BY history_id")
}

/// A conversation's rows from one of [`rows_as_arrays`]'s arrays.
pub(super) fn parse_rows(rows: &str) -> AppResult<Vec<StoredRow>> {
    Ok(serde_json::from_str(rows)?)
}

/// A conversation with its rows, as its owner reads it; `None` when it is deleted or none.
pub async fn load_history(pool: &Pool, id: &str) -> AppResult<Option<HistoryView>> {
    Ok(read_history(pool, id).await?.map(|read| read.view))
}

/// Keeps each fresh check with its reply's row, made with the settings `fingerprint` names. A
/// row replaced since it was read (its text is not the one checked) keeps nothing.
pub async fn keep_block_checks(pool: &Pool, fingerprint: &str, checks: &[FreshCheck]) -> AppResult<()> {
    if checks.is_empty() {
        return Ok(());
    }
    let mut tx = crate::db::begin(pool).await?;
    for check in checks {
        sqlx::query(
            "UPDATE history_rows SET blocks_check = $4, blocks_checked_with = $5
             WHERE history_id = $1 AND seq = $2 AND CAST(payload AS TEXT) = $3",
        )
        .bind(&check.history_id)
        .bind(check.seq)
        .bind(&check.payload)
        .bind(&check.check)
        .bind(fingerprint)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A conversation's own columns, as `HeadRow` reads them, and where its running summary ends.
pub(super) const HEAD_COLUMNS: &str = "id, owner_id, title, CAST(pending_ask AS TEXT) AS pending_ask, model,
    created_at, updated_at,
    (SELECT through_row FROM conversation_summaries s WHERE s.history_id = histories.id) AS summarised_before,
    CAST(CASE WHEN EXISTS (SELECT 1 FROM conversation_branches b WHERE b.history_id = histories.id)
        THEN 1 ELSE 0 END AS BIGINT) AS versioned,
    CAST(CASE WHEN EXISTS (SELECT 1 FROM approval_grants g
        WHERE g.history_id = histories.id AND g.scope = 'turn' AND g.revoked_at IS NULL)
        THEN 1 ELSE 0 END AS BIGINT) AS turn_granted";

/// A row's columns, as `StoredRow` reads them.
pub(super) const ROW_COLUMNS: &str =
    "CAST(payload AS TEXT), rating, created_at, turn_id, seq, blocks_check, blocks_checked_with";

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
    let mut tx = crate::db::begin(pool).await?;
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
    let mut tx = crate::db::begin(pool).await?;
    let result = sqlx::query(&format!("UPDATE histories SET deleted_at = {now} WHERE id = $1 AND deleted_at IS NULL"))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM history_shares WHERE history_id = $1").bind(id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(result.rows_affected() == 1)
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
    let mut tx = crate::db::begin(pool).await?;
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
