//! The preferences' tables: a person's own row, and the server's settings by key.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A person's custom instructions and default model, when they saved any.
pub async fn user_preferences(pool: &Pool, user_id: &str) -> AppResult<Option<(String, Option<String>)>> {
    let row = sqlx::query_as("SELECT instructions, default_model FROM user_preferences WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await?;
    Ok(row)
}

pub async fn save_user_preferences(
    pool: &Pool,
    user_id: &str,
    instructions: &str,
    default_model: Option<&str>,
) -> AppResult<()> {
    let now = Backend::of(pool).seconds_from_now("0");
    sqlx::query(&format!(
        "INSERT INTO user_preferences (user_id, instructions, default_model) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE
         SET instructions = excluded.instructions, default_model = excluded.default_model, updated_at = {now}"
    ))
    .bind(user_id)
    .bind(instructions)
    .bind(default_model)
    .execute(pool)
    .await?;
    Ok(())
}

/// The server settings an admin set of the four `keys`, as `(key, value)`, in one statement.
pub async fn server_settings(pool: &Pool, keys: [&str; 4]) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as("SELECT key, value FROM server_settings WHERE key IN ($1, $2, $3, $4)")
        .bind(keys[0])
        .bind(keys[1])
        .bind(keys[2])
        .bind(keys[3])
        .fetch_all(pool)
        .await?)
}

pub async fn save_server_setting(pool: &Pool, key: &str, value: &str) -> AppResult<()> {
    let now = Backend::of(pool).seconds_from_now("0");
    sqlx::query(&format!(
        "INSERT INTO server_settings (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = {now}"
    ))
    .bind(key)
    .bind(value)
    .execute(pool)
    .await?;
    Ok(())
}
