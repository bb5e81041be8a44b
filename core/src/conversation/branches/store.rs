//! The versions' storage: a conversation's rows from a fork on set aside as JSON, and put back
//! in place of the ones shown. Each move runs inside a transaction whose guarded write on the
//! conversation's `histories` row came first (see `turn::store`), so no other move interleaves.

use serde::{Deserialize, Serialize};

use crate::db::{Backend, Tx};
use crate::error::{AppError, AppResult};

/// A stored row with every column, so a version put back is the rows it was.
#[derive(Serialize, Deserialize)]
struct KeptRow {
    turn_id: String,
    row_type: String,
    payload: String,
    ask_kind: Option<String>,
    ask_status: Option<String>,
    ask_origin: Option<String>,
    ask_id: Option<String>,
    rating: Option<String>,
    created_at: String,
}

type KeptColumns =
    (String, String, String, Option<String>, Option<String>, Option<String>, Option<String>, Option<String>, String);

/// A fork's version: where it is, and whether it is the one shown.
pub struct StoredBranch {
    pub fork_after: String,
    pub position: i64,
    pub shown: bool,
}

/// Every version entry of a conversation (also those of forks inside versions not shown).
pub async fn branches<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    history_id: &str,
) -> AppResult<Vec<StoredBranch>> {
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT fork_after, position, CAST(CASE WHEN rows_json IS NULL THEN 1 ELSE 0 END AS BIGINT) FROM conversation_branches
         WHERE history_id = $1 ORDER BY fork_after, position",
    )
    .bind(history_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(fork_after, position, shown)| StoredBranch { fork_after, position, shown: shown == 1 })
        .collect())
}

/// The fork before the row `first_seq`: the turn of the row just before it, '' at the start.
async fn fork_before(tx: &mut Tx<'_>, history_id: &str, first_seq: i64) -> AppResult<String> {
    let before: Option<(String,)> =
        sqlx::query_as("SELECT turn_id FROM history_rows WHERE history_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1")
            .bind(history_id)
            .bind(first_seq)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(before.map(|(turn_id,)| turn_id).unwrap_or_default())
}

/// Takes the rows from `first_seq` on out of `history_rows`, as JSON.
async fn take_rows_from(tx: &mut Tx<'_>, history_id: &str, first_seq: i64) -> AppResult<String> {
    let rows: Vec<KeptColumns> = sqlx::query_as(
        "SELECT turn_id, row_type, CAST(payload AS TEXT), ask_kind, ask_status, ask_origin, ask_id, rating, created_at
         FROM history_rows WHERE history_id = $1 AND seq >= $2 ORDER BY seq",
    )
    .bind(history_id)
    .bind(first_seq)
    .fetch_all(&mut **tx)
    .await?;
    // The running summary of rows that go describes what is no longer there (turn::context).
    sqlx::query(
        "DELETE FROM conversation_summaries WHERE history_id = $1
           AND through_row > (SELECT COUNT(*) FROM history_rows WHERE history_id = $1 AND seq < $2)",
    )
    .bind(history_id)
    .bind(first_seq)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM history_rows WHERE history_id = $1 AND seq >= $2")
        .bind(history_id)
        .bind(first_seq)
        .execute(&mut **tx)
        .await?;
    // An answer that could still be changed names rows by their place: once the rows there
    // are another version's, it stands as given.
    sqlx::query("DELETE FROM answered_asks WHERE history_id = $1").bind(history_id).execute(&mut **tx).await?;
    let kept: Vec<KeptRow> = rows
        .into_iter()
        .map(|(turn_id, row_type, payload, ask_kind, ask_status, ask_origin, ask_id, rating, created_at)| KeptRow {
            turn_id,
            row_type,
            payload,
            ask_kind,
            ask_status,
            ask_origin,
            ask_id,
            rating,
            created_at,
        })
        .collect();
    serde_json::to_string(&kept).map_err(|err| {
        tracing::error!(%err, history = history_id, "cannot encode a conversation's version");
        AppError::Internal.into()
    })
}

/// Keeps `rows_json` as the version the fork shows now (its first entry when it had none).
async fn keep_shown(tx: &mut Tx<'_>, history_id: &str, fork_after: &str, rows_json: &str) -> AppResult<()> {
    let kept = sqlx::query(
        "UPDATE conversation_branches SET rows_json = $3
         WHERE history_id = $1 AND fork_after = $2 AND rows_json IS NULL",
    )
    .bind(history_id)
    .bind(fork_after)
    .bind(rows_json)
    .execute(&mut **tx)
    .await?;
    if kept.rows_affected() == 0 {
        add_branch(tx, history_id, fork_after, Some(rows_json)).await?;
    }
    Ok(())
}

/// Adds a version after the fork's others: kept (`rows_json`), or the one shown (`None`).
async fn add_branch(tx: &mut Tx<'_>, history_id: &str, fork_after: &str, rows_json: Option<&str>) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO conversation_branches (history_id, fork_after, position, rows_json)
         SELECT $1, $2, COALESCE(MAX(position), -1) + 1, $3 FROM conversation_branches
         WHERE history_id = $1 AND fork_after = $2",
    )
    .bind(history_id)
    .bind(fork_after)
    .bind(rows_json)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets the rows from `first_seq` on aside as a version of their fork and opens a new one for
/// the rows written next (a message edited or sent again).
pub async fn branch_from(tx: &mut Tx<'_>, history_id: &str, first_seq: i64) -> AppResult<()> {
    let fork_after = fork_before(tx, history_id, first_seq).await?;
    let rows_json = take_rows_from(tx, history_id, first_seq).await?;
    keep_shown(tx, history_id, &fork_after, &rows_json).await?;
    add_branch(tx, history_id, &fork_after, None).await
}

/// Shows the fork's version at `position` from `first_seq` on, keeping the rows shown there
/// now. False, with nothing changed, when the fork has no such version set aside.
pub async fn show_branch(tx: &mut Tx<'_>, history_id: &str, first_seq: i64, position: i64) -> AppResult<bool> {
    let fork_after = fork_before(tx, history_id, first_seq).await?;
    let chosen: Option<(String,)> = sqlx::query_as(
        "SELECT rows_json FROM conversation_branches
         WHERE history_id = $1 AND fork_after = $2 AND position = $3 AND rows_json IS NOT NULL",
    )
    .bind(history_id)
    .bind(&fork_after)
    .bind(position)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((chosen,)) = chosen else { return Ok(false) };
    let rows: Vec<KeptRow> = serde_json::from_str(&chosen).map_err(|err| {
        tracing::error!(%err, history = history_id, "unreadable conversation version");
        crate::error::Error::from(AppError::Internal)
    })?;
    let shown = take_rows_from(tx, history_id, first_seq).await?;
    keep_shown(tx, history_id, &fork_after, &shown).await?;
    sqlx::query(
        "UPDATE conversation_branches SET rows_json = NULL
         WHERE history_id = $1 AND fork_after = $2 AND position = $3",
    )
    .bind(history_id)
    .bind(&fork_after)
    .bind(position)
    .execute(&mut **tx)
    .await?;
    let backend = Backend::of_tx(tx);
    for (seq, row) in (first_seq..).zip(rows) {
        sqlx::query(&format!(
            "INSERT INTO history_rows
                 (history_id, seq, turn_id, row_type, payload, ask_kind, ask_status, ask_origin, ask_id, rating, created_at)
             VALUES ($1, $2, $3, $4, {}, $6, $7, $8, $9, $10, $11)",
            backend.json("$5")
        ))
        .bind(history_id)
        .bind(seq)
        .bind(row.turn_id)
        .bind(row.row_type)
        .bind(row.payload)
        .bind(row.ask_kind)
        .bind(row.ask_status)
        .bind(row.ask_origin)
        .bind(row.ask_id)
        .bind(row.rating)
        .bind(row.created_at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(true)
}
