//! `GET /gpt/audit`: the audit trail of asks as JSON, newest first, a page at a time;
//! `GET /gpt/audit/export`: the caller's chain (an admin's: every chain) as JSON lines, with the
//! heads and their signatures, which `palaver audit verify --file` checks offline.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use palaver_core::audit::chain::ExportLine;
use palaver_core::audit::store;
use palaver_core::db::Pool;
use serde::Deserialize;
use utoipa::IntoParams;

use palaver_wire::audit::{AUDIT_PAGE_MAX, AuditPage};
use palaver_wire::body::Data;
use palaver_wire::error::AppError;

use crate::auth::Authenticated;
use crate::problem::Problem;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Entries older than this id (the previous page's `nextBefore`).
    before: Option<i64>,
    /// At most this many (1–200, default 50).
    limit: Option<i64>,
    /// Everyone's entries (admins only); the caller's own otherwise.
    all: Option<bool>,
}

#[utoipa::path(get, path = "/gpt/audit", tag = "gpt", operation_id = "gpt_audit",
    summary = "The audit trail of asks, newest first, a page at a time", params(AuditQuery),
    responses((status = 200, description = "A page", body = Data<AuditPage>)))]
pub async fn audit(
    State(pool): State<Pool>,
    Authenticated(caller): Authenticated,
    query: Result<Query<AuditQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Data<AuditPage>>, Problem> {
    let Query(query) = query.map_err(|rejection| {
        Problem::bad_request("Invalid query").with_detail(format!(
            "{}. Use before=<id>, limit=1..{AUDIT_PAGE_MAX} and all=true|false.",
            rejection.body_text()
        ))
    })?;
    let limit = query.limit.unwrap_or(palaver_app::audit::api::PAGE_SIZE);
    if !(1..=AUDIT_PAGE_MAX).contains(&limit) {
        return Err(Problem::bad_request("Invalid query")
            .with_detail(format!("limit must be between 1 and {AUDIT_PAGE_MAX}; it was {limit}.")));
    }
    let owner = match query.all.unwrap_or(false) {
        true if !caller.is_admin() => return Err(AppError::AdminsOnly.into()),
        true => None,
        false => Some(caller.user.id.as_str()),
    };
    Ok(Json(Data { data: store::page(&pool, owner, query.before, limit).await? }))
}

#[utoipa::path(get, path = "/gpt/audit/export", tag = "gpt", operation_id = "gpt_audit_export",
    summary = "The caller's audit chain (an admin's: every chain) with its signed heads, as JSON lines",
    responses((status = 200, description = "One JSON object a line: {entry}, {head} or {signature}, oldest first",
        content_type = "application/x-ndjson", body = String)))]
pub async fn export(State(pool): State<Pool>, Authenticated(caller): Authenticated) -> Result<Response, Problem> {
    let owner = (!caller.is_admin()).then_some(caller.user.id.as_str());
    let entries =
        store::chained_entries(&pool, owner).await?.into_iter().map(|entry| ExportLine::Entry(Box::new(entry)));
    let heads = store::heads(&pool, owner).await?.into_iter().map(ExportLine::Head);
    let signatures = store::signatures(&pool, owner).await?.into_iter().map(ExportLine::Signature);
    let mut body = String::new();
    for line in entries.chain(heads).chain(signatures) {
        body.push_str(
            &serde_json::to_string(&line).map_err(|err| Problem::from(palaver_core::error::Error::from(err)))?,
        );
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}
