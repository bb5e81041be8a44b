//! The demo todo list's rows.

use crate::db::Pool;

/// The user's todos as `(id, title, completed)`, oldest first.
pub async fn list(pool: &Pool, owner_id: &str) -> Result<Vec<(String, String, bool)>, sqlx::Error> {
    let rows: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT id, title, completed FROM todos WHERE owner_id = $1 ORDER BY created_at, id")
            .bind(owner_id)
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(|(id, title, completed)| (id, title, completed != 0)).collect())
}

/// Adds a todo under `id`; a second add under the same id changes nothing.
pub async fn add(pool: &Pool, id: &str, owner_id: &str, title: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO todos (id, owner_id, title) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING")
        .bind(id)
        .bind(owner_id)
        .bind(crate::db::Backend::of(pool).storable_text(title))
        .execute(pool)
        .await?;
    Ok(())
}

/// Marks a todo done; false when the user has no todo with that id.
pub async fn complete(pool: &Pool, id: &str, owner_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE todos SET completed = 1 WHERE id = $1 AND owner_id = $2")
        .bind(id)
        .bind(owner_id)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes the user's completed todos; returns how many.
pub async fn delete_completed(pool: &Pool, owner_id: &str) -> Result<u64, sqlx::Error> {
    let deleted =
        sqlx::query("DELETE FROM todos WHERE owner_id = $1 AND completed = 1").bind(owner_id).execute(pool).await?;
    Ok(deleted.rows_affected())
}
