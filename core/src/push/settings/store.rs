//! A person's notification settings as stored (migration 0034).

use crate::db::Pool;
use crate::error::AppResult;

/// The row of `push_settings`; the quiet hours are all set or all NULL.
#[derive(Clone, Debug, Default, PartialEq, sqlx::FromRow)]
pub struct SettingsRow {
    pub quiet_from: Option<String>,
    pub quiet_until: Option<String>,
    pub quiet_time_zone: Option<String>,
    pub approvals_open_only: i32,
    pub open_only_tools: String,
}

pub async fn settings(pool: &Pool, user_id: &str) -> AppResult<Option<SettingsRow>> {
    Ok(sqlx::query_as(
        "SELECT quiet_from, quiet_until, quiet_time_zone, approvals_open_only, open_only_tools
         FROM push_settings WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await?)
}

pub async fn save_settings(pool: &Pool, user_id: &str, row: &SettingsRow) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO push_settings (user_id, quiet_from, quiet_until, quiet_time_zone, approvals_open_only, open_only_tools)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id) DO UPDATE
         SET quiet_from = excluded.quiet_from, quiet_until = excluded.quiet_until,
             quiet_time_zone = excluded.quiet_time_zone, approvals_open_only = excluded.approvals_open_only,
             open_only_tools = excluded.open_only_tools",
    )
    .bind(user_id)
    .bind(&row.quiet_from)
    .bind(&row.quiet_until)
    .bind(&row.quiet_time_zone)
    .bind(row.approvals_open_only)
    .bind(&row.open_only_tools)
    .execute(pool)
    .await?;
    Ok(())
}
