//! The AG-UI tables (migration 0035): which conversation each AG-UI thread runs on, the run
//! last started on it, and the client's user messages a run took in.

use crate::db::Pool;
use crate::error::AppResult;

/// A thread as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ThreadRow {
    pub user_id: String,
    pub history_id: String,
    pub run_id: Option<String>,
}

pub async fn thread(pool: &Pool, thread_id: &str) -> AppResult<Option<ThreadRow>> {
    Ok(sqlx::query_as("SELECT user_id, history_id, run_id FROM agui_threads WHERE thread_id = $1")
        .bind(thread_id)
        .fetch_optional(pool)
        .await?)
}

/// Binds a new thread to a conversation; `false` when the thread was bound already (a
/// concurrent first run won), which changes nothing.
pub async fn bind(pool: &Pool, thread_id: &str, user_id: &str, history_id: &str) -> AppResult<bool> {
    let inserted = sqlx::query(
        "INSERT INTO agui_threads (thread_id, user_id, history_id) VALUES ($1, $2, $3)
         ON CONFLICT (thread_id) DO NOTHING",
    )
    .bind(thread_id)
    .bind(user_id)
    .bind(history_id)
    .execute(pool)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Records the run now running on the thread, and the client's messages it took in.
pub async fn start_run(pool: &Pool, thread_id: &str, run_id: &str, taken: &[String]) -> AppResult<()> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE agui_threads SET run_id = $2 WHERE thread_id = $1")
        .bind(thread_id)
        .bind(run_id)
        .execute(&mut *tx)
        .await?;
    for message_id in taken {
        sqlx::query(
            "INSERT INTO agui_taken_messages (thread_id, message_id) VALUES ($1, $2)
             ON CONFLICT (thread_id, message_id) DO NOTHING",
        )
        .bind(thread_id)
        .bind(message_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Which of `ids` a run on the thread took in already.
pub async fn taken_of(pool: &Pool, thread_id: &str, ids: &[String]) -> AppResult<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(String,)> = sqlx::query_as("SELECT message_id FROM agui_taken_messages WHERE thread_id = $1")
        .bind(thread_id)
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().map(|(id,)| id).filter(|id| ids.contains(id)).collect())
}

/// Claims the calls of the client's tools a resume answers: all of them, or none when another
/// resume claimed one first (then `false`, and nothing is written).
pub async fn claim_results(pool: &Pool, history_id: &str, call_ids: &[String]) -> AppResult<bool> {
    let mut tx = pool.begin().await?;
    for call_id in call_ids {
        let claimed = sqlx::query(
            "INSERT INTO agui_client_results (history_id, tool_call_id) VALUES ($1, $2)
             ON CONFLICT (history_id, tool_call_id) DO NOTHING",
        )
        .bind(history_id)
        .bind(call_id)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// Gives claims back: the turn they were for could not start.
pub async fn release_results(pool: &Pool, history_id: &str, call_ids: &[String]) -> AppResult<()> {
    for call_id in call_ids {
        sqlx::query("DELETE FROM agui_client_results WHERE history_id = $1 AND tool_call_id = $2")
            .bind(history_id)
            .bind(call_id)
            .execute(pool)
            .await?;
    }
    Ok(())
}
