//! The index of uploads: one row per stored file.

use crate::db::Pool;

use crate::error::AppResult;

/// A finished upload's index row.
pub struct FileRow<'a> {
    pub id: &'a str,
    pub owner_id: &'a str,
    pub filename: &'a str,
    pub mime_type: &'a str,
    pub size: u64,
    pub sha256: &'a str,
}

pub async fn insert_file(pool: &Pool, row: &FileRow<'_>) -> AppResult<()> {
    sqlx::query("INSERT INTO files (id, owner_id, filename, mime_type, size, sha256) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(row.id)
        .bind(row.owner_id)
        .bind(crate::db::Backend::of(pool).storable_text(row.filename))
        .bind(row.mime_type)
        .bind(i64::try_from(row.size).unwrap_or(i64::MAX))
        .bind(row.sha256)
        .execute(pool)
        .await?;
    Ok(())
}

/// `file_id`'s index row (id, filename, MIME type, size), when it is an upload of `owner_id`
/// that is not deleted.
pub async fn owned_file(
    pool: &Pool,
    owner_id: &str,
    file_id: &str,
) -> AppResult<Option<(String, String, String, i64)>> {
    let owned = sqlx::query_as(
        "SELECT id, filename, mime_type, size FROM files WHERE id = $1 AND owner_id = $2 AND deleted_at IS NULL",
    )
    .bind(file_id)
    .bind(owner_id)
    .fetch_optional(pool)
    .await?;
    Ok(owned)
}
