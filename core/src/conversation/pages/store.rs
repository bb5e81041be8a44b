//! The list's storage: a page of an owner's conversations in one statement, and what the API's
//! documents of a page need (rows, versions, saved block states, running turns) in one
//! statement each for the whole page.

use std::collections::{HashMap, HashSet};

use crate::conversation::branches::store::StoredBranch;
use crate::conversation::store::{
    HEAD_COLUMNS, HeadRow, ListedRow, ReadView, RowsStart, StoredRow, assemble_view, first_message, listed, on_shelf,
    parse_rows, rows_as_arrays, shelf_columns,
};
use crate::db::{Backend, Pool, placeholders};
use crate::error::AppResult;
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::conversation::page::PageRequest;
use palaver_wire::conversation::snippet::snippet_around;

/// How many characters a search result's snippet shows.
const SNIPPET_WIDTH: usize = 90;

/// A listed entry and the text of its first message that matches the search.
type FoundRow = (String, Option<String>, String, String, Option<String>, i64, i64, i64, Option<String>);

/// The fewest characters the SQLite search index (trigrams) looks up; a shorter search reads the
/// indexed text itself, still without reading any JSON.
const TRIGRAM: usize = 3;

/// One page of the owner's archived conversations (`archived`) or of the others, most recently
/// active first (ties broken by id), after `page.before`; with `search`, only those whose title
/// or a message's text holds it, regardless of case (a title's ASCII letters' case on SQLite),
/// each with the words around its first matching message's match. Returns up to `page.limit + 1`
/// conversations: the one past the page says more follow.
pub async fn page_of_histories(
    pool: &Pool,
    owner_id: &str,
    archived: bool,
    search: Option<&str>,
    page: &PageRequest,
) -> AppResult<Vec<HistorySummary>> {
    let backend = Backend::of(pool);
    let mut binds = vec![owner_id.to_string()];
    let mut bind = |value: String| {
        binds.push(value);
        format!("${}", binds.len())
    };
    let (mut found, mut matching, mut matched) = (String::new(), String::new(), "CAST(NULL AS TEXT)".to_string());
    if let Some(needle) = search {
        let pattern = bind(like_pattern(needle));
        let (like, escape) = match backend {
            Backend::Sqlite => ("LIKE", " ESCAPE '\\'"),
            Backend::Postgres => ("ILIKE", ""),
        };
        let messages = match backend {
            Backend::Sqlite if needle.chars().count() >= TRIGRAM => format!(
                "SELECT t.history_id, t.seq FROM history_search s JOIN history_search_text t ON t.id = s.rowid
                 WHERE history_search MATCH {}",
                bind(fts_phrase(needle))
            ),
            Backend::Sqlite => {
                format!("SELECT history_id, seq FROM history_search_text WHERE text {like} {pattern}{escape}")
            }
            Backend::Postgres => format!(
                "SELECT history_id, seq FROM history_rows
                 WHERE row_type IN ('user', 'assistant') AND (payload ->> 'text') {like} {pattern}"
            ),
        };
        found = format!(
            "LEFT JOIN (SELECT history_id, MIN(seq) AS seq FROM ({messages}) m GROUP BY history_id) f ON f.history_id = h.id"
        );
        matching = format!("AND (h.title {} {pattern}{escape} OR f.history_id IS NOT NULL)", backend.like_any_case());
        matched = format!(
            "(SELECT {} FROM history_rows r WHERE r.history_id = h.id AND r.seq = f.seq)",
            backend.json_text("r.payload", "text")
        );
    }
    let after = match &page.before {
        Some(cursor) => {
            format!("AND (h.updated_at, h.id) < ({}, {})", bind(cursor.updated.clone()), bind(cursor.id.clone()))
        }
        None => String::new(),
    };
    let sql = format!(
        "SELECT h.id, h.title, h.created_at, h.updated_at, {}, {}, {matched} FROM histories h {found}
         WHERE h.owner_id = $1 AND h.deleted_at IS NULL AND {} {matching} {after}
         ORDER BY h.updated_at DESC, h.id DESC LIMIT {}",
        first_message(backend),
        shelf_columns(),
        on_shelf(archived),
        page.limit + 1
    );
    let rows: Vec<FoundRow> =
        binds.iter().fold(sqlx::query_as(&sql), |query, value| query.bind(value)).fetch_all(pool).await?;
    Ok(rows
        .into_iter()
        .map(|(id, title, created, updated, first, pinned, archived, shared, matched)| HistorySummary {
            snippet: matched.zip(search).and_then(|(text, needle)| snippet_around(&text, needle, SNIPPET_WIDTH)),
            ..listed((id, title, created, updated, first, pinned, archived, shared) as ListedRow)
        })
        .collect())
}

/// `needle` as a `LIKE` pattern that matches it anywhere, its wildcards taken literally.
fn like_pattern(needle: &str) -> String {
    let escaped: String =
        needle.chars().flat_map(|ch| if matches!(ch, '%' | '_' | '\\') { vec!['\\', ch] } else { vec![ch] }).collect();
    format!("%{escaped}%")
}

/// `needle` as an FTS5 phrase: with the trigram tokenizer, it matches where the text holds it.
fn fts_phrase(needle: &str) -> String {
    format!("\"{}\"", needle.replace('"', "\"\""))
}

/// The conversations of `ids` (those not deleted), each with its rows, versions and kept block
/// checks, in the order of `ids`: three statements, however many there are.
pub async fn load_histories(pool: &Pool, ids: &[String]) -> AppResult<Vec<ReadView>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let listed = placeholders(1, ids.len());
    let heads: Vec<HeadRow> = bind_all(
        sqlx::query_as(&format!("SELECT {HEAD_COLUMNS} FROM histories WHERE id IN ({listed}) AND deleted_at IS NULL")),
        ids,
    )
    .fetch_all(pool)
    .await?;
    let rows: Vec<(String, String)> =
        bind_all(sqlx::query_as(&rows_as_arrays(Backend::of(pool), &format!("history_id IN ({listed})"))), ids)
            .fetch_all(pool)
            .await?;
    let versions: Vec<(String, String, i64, i64)> = bind_all(
        sqlx::query_as(&format!(
            "SELECT history_id, fork_after, position, CAST(CASE WHEN rows_json IS NULL THEN 1 ELSE 0 END AS BIGINT)
             FROM conversation_branches WHERE history_id IN ({listed}) ORDER BY history_id, fork_after, position"
        )),
        ids,
    )
    .fetch_all(pool)
    .await?;
    let mut rows_of: HashMap<String, Vec<StoredRow>> = HashMap::new();
    for (id, rows) in rows {
        rows_of.insert(id, parse_rows(&rows)?);
    }
    let mut versions_of: HashMap<String, Vec<StoredBranch>> = HashMap::new();
    for (history_id, fork_after, position, shown) in versions {
        versions_of.entry(history_id).or_default().push(StoredBranch { fork_after, position, shown: shown == 1 });
    }
    let mut heads: HashMap<String, HeadRow> = heads.into_iter().map(|head| (head.id.clone(), head)).collect();
    Ok(ids
        .iter()
        .filter_map(|id| heads.remove(id))
        .map(|head| {
            let rows = rows_of.remove(&head.id).unwrap_or_default();
            let versions = versions_of.remove(&head.id).unwrap_or_default();
            assemble_view(head, rows, &versions, &RowsStart::default())
        })
        .collect())
}

/// The saved state of each block a host action changed in the conversations of `ids`, by
/// conversation, as `(block id, block JSON)`.
pub async fn block_states_of(pool: &Pool, ids: &[String]) -> AppResult<HashMap<String, Vec<(String, String)>>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let states: Vec<(String, String, String)> = bind_all(
        sqlx::query_as(&format!(
            "SELECT history_id, block_id, CAST(block AS TEXT) FROM block_states WHERE history_id IN ({})",
            placeholders(1, ids.len())
        )),
        ids,
    )
    .fetch_all(pool)
    .await?;
    let mut by_history: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for (history_id, block_id, block) in states {
        by_history.entry(history_id).or_default().push((block_id, block));
    }
    Ok(by_history)
}

/// Which of the conversations of `ids` a turn runs on now, on any instance (a live lease).
pub async fn running_among(pool: &Pool, ids: &[String]) -> AppResult<HashSet<String>> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let running: Vec<(String,)> = bind_all(
        sqlx::query_as(&format!(
            "SELECT DISTINCT history_id FROM running_turns WHERE history_id IN ({}) AND lease_until > {}",
            placeholders(1, ids.len()),
            Backend::of(pool).now()
        )),
        ids,
    )
    .fetch_all(pool)
    .await?;
    Ok(running.into_iter().map(|(id,)| id).collect())
}

/// `query` with each of `values` bound in turn.
fn bind_all<'q, O>(
    query: sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments<'q>>,
    values: &'q [String],
) -> sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments<'q>> {
    values.iter().fold(query, |query, value| query.bind(value))
}
