//! The AG-UI tables (migration 0035): each person's threads, the conversation each runs on and
//! the run last started on it, and the client messages runs took in.

use crate::db::Pool;
use crate::error::AppResult;

/// A thread of the caller's, as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ThreadRow {
    pub history_id: String,
    pub run_id: Option<String>,
    /// The turn's stream the run followed: a client attaches again only while it runs.
    pub run_stream: Option<String>,
    /// The client's state and the answer the run resumed with (JSON), as the run had them.
    pub run_state: Option<String>,
    pub run_answer: Option<String>,
}

/// The run now going on in a thread, kept so a client that lost it attaches again.
pub struct RunRecord<'a> {
    pub run_id: &'a str,
    pub stream_id: &'a str,
    pub state: &'a str,
    pub answer: Option<&'a str>,
}

pub async fn thread(pool: &Pool, user_id: &str, thread_id: &str) -> AppResult<Option<ThreadRow>> {
    Ok(sqlx::query_as(
        "SELECT history_id, run_id, run_stream, run_state, run_answer FROM agui_threads
         WHERE user_id = $1 AND thread_id = $2",
    )
    .bind(user_id)
    .bind(thread_id)
    .fetch_optional(pool)
    .await?)
}

/// Binds a new thread of the person's to a conversation; `false` when it was bound already (a
/// concurrent first run won), which changes nothing.
pub async fn bind(pool: &Pool, user_id: &str, thread_id: &str, history_id: &str) -> AppResult<bool> {
    let inserted = sqlx::query(
        "INSERT INTO agui_threads (user_id, thread_id, history_id) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, thread_id) DO NOTHING",
    )
    .bind(user_id)
    .bind(thread_id)
    .bind(history_id)
    .execute(pool)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Records the run a turn started for.
pub async fn start_run(pool: &Pool, user_id: &str, thread_id: &str, run: &RunRecord<'_>) -> AppResult<()> {
    sqlx::query(
        "UPDATE agui_threads SET run_id = $3, run_stream = $4, run_state = $5, run_answer = $6
         WHERE user_id = $1 AND thread_id = $2",
    )
    .bind(user_id)
    .bind(thread_id)
    .bind(run.run_id)
    .bind(run.stream_id)
    .bind(run.state)
    .bind(run.answer)
    .execute(pool)
    .await?;
    Ok(())
}

/// Claims the client's messages a run takes in: all of them, or none when a run took one
/// already (then `false`, and nothing is written), so of two runs sending one message at once,
/// one takes it.
pub async fn take_messages(pool: &Pool, user_id: &str, thread_id: &str, message_ids: &[String]) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    for message_id in message_ids {
        let taken = sqlx::query(
            "INSERT INTO agui_taken_messages (user_id, thread_id, message_id) VALUES ($1, $2, $3)
             ON CONFLICT (user_id, thread_id, message_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(thread_id)
        .bind(message_id)
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// Gives taken messages back: the turn they were for could not start.
pub async fn give_back_messages(pool: &Pool, user_id: &str, thread_id: &str, message_ids: &[String]) -> AppResult<()> {
    for message_id in message_ids {
        sqlx::query("DELETE FROM agui_taken_messages WHERE user_id = $1 AND thread_id = $2 AND message_id = $3")
            .bind(user_id)
            .bind(thread_id)
            .bind(message_id)
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// Which of `ids` a run on the thread took in already.
pub async fn taken_of(pool: &Pool, user_id: &str, thread_id: &str, ids: &[String]) -> AppResult<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT message_id FROM agui_taken_messages WHERE user_id = $1 AND thread_id = $2")
            .bind(user_id)
            .bind(thread_id)
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).filter(|id| ids.contains(id)).collect())
}
