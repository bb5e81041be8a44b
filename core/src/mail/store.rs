//! The mail tables (migration 0033): each person's address, whether it is confirmed and
//! whether asks are mailed to it, and the confirmation links mailed to addresses (by their
//! SHA-256).

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A person's address as stored (`confirmed` and `ask_mail` each 0 or 1).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AddressRow {
    pub address: String,
    pub confirmed: i32,
    pub ask_mail: i32,
}

/// A confirmation link as stored, with whether it was used and whether it has expired.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ConfirmationRow {
    pub token_hash: String,
    pub user_id: String,
    pub address: String,
    pub used: i32,
    pub expired: i32,
}

pub async fn address_of(pool: &Pool, user_id: &str) -> AppResult<Option<AddressRow>> {
    Ok(sqlx::query_as(
        "SELECT address, CASE WHEN confirmed_at IS NULL THEN 0 ELSE 1 END AS confirmed, ask_mail
         FROM mail_addresses WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await?)
}

/// Sets the user's address, unconfirmed (the switch keeps its place), and stores the
/// confirmation link mailed to it for `seconds`; the address's earlier links stop working.
pub async fn set_address(pool: &Pool, user_id: &str, address: &str, token_hash: &str, seconds: i64) -> AppResult<()> {
    let until = Backend::of(pool).seconds_from_now(&seconds.to_string());
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query(
        "INSERT INTO mail_addresses (user_id, address) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET address = excluded.address, confirmed_at = NULL",
    )
    .bind(user_id)
    .bind(address)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM mail_confirmations WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
    sqlx::query(&format!(
        "INSERT INTO mail_confirmations (token_hash, user_id, address, expires_at) VALUES ($1, $2, $3, {until})"
    ))
    .bind(token_hash)
    .bind(user_id)
    .bind(address)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Turns ask mails on or off; false when the user has no address.
pub async fn set_ask_mail(pool: &Pool, user_id: &str, on: bool) -> AppResult<bool> {
    let set = sqlx::query("UPDATE mail_addresses SET ask_mail = $2 WHERE user_id = $1")
        .bind(user_id)
        .bind(i32::from(on))
        .execute(pool)
        .await?;
    Ok(set.rows_affected() == 1)
}

/// Removes the user's address and its confirmation links; false when they had none.
pub async fn remove_address(pool: &Pool, user_id: &str) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query("DELETE FROM mail_confirmations WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
    let removed = sqlx::query("DELETE FROM mail_addresses WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(removed.rows_affected() == 1)
}

pub async fn confirmation(pool: &Pool, hash: &str) -> AppResult<Option<ConfirmationRow>> {
    let now = Backend::of(pool).now();
    Ok(sqlx::query_as(&format!(
        "SELECT token_hash, user_id, address,
                CASE WHEN used_at IS NULL THEN 0 ELSE 1 END AS used,
                CASE WHEN expires_at <= {now} THEN 1 ELSE 0 END AS expired
         FROM mail_confirmations WHERE token_hash = $1"
    ))
    .bind(hash)
    .fetch_optional(pool)
    .await?)
}

/// Uses a confirmation link and confirms its address, if it is still the user's; false when
/// the link was used already (a racing second use) or the address changed meanwhile.
pub async fn confirm(pool: &Pool, row: &ConfirmationRow) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let mut tx = crate::db::begin(pool).await?;
    let used = sqlx::query(&format!(
        "UPDATE mail_confirmations SET used_at = {now} WHERE token_hash = $1 AND used_at IS NULL"
    ))
    .bind(&row.token_hash)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() != 1 {
        return Ok(false);
    }
    let confirmed =
        sqlx::query(&format!("UPDATE mail_addresses SET confirmed_at = {now} WHERE user_id = $1 AND address = $2"))
            .bind(&row.user_id)
            .bind(&row.address)
            .execute(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(confirmed.rows_affected() == 1)
}

/// The confirmed address asks are mailed to for `user_id`, when they turned ask mails on.
pub async fn ask_recipient(pool: &Pool, user_id: &str) -> AppResult<Option<String>> {
    let row: Option<(String,)> = sqlx::query_as(
        "SELECT a.address FROM mail_addresses a JOIN users u ON u.id = a.user_id
         WHERE a.user_id = $1 AND a.confirmed_at IS NOT NULL AND a.ask_mail = 1 AND u.disabled_at IS NULL",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(address,)| address))
}

/// The title of a conversation that is not deleted (`Some(None)` when it has none).
pub async fn conversation_title(pool: &Pool, history_id: &str) -> AppResult<Option<Option<String>>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT title FROM histories WHERE id = $1 AND deleted_at IS NULL")
            .bind(history_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(title,)| title))
}
