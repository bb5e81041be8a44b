//! A conversation's read-only share link: its owner makes it, looks at it and revokes it
//! (`/gpt/histories/{id}/share`); anyone with the link reads the conversation as it is now, as
//! a page (`/s/{token}`, in the app) or as JSON (`GET /shared/{token}`). Nothing is answered or
//! sent through a link: there is no such route.

use axum::Json;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use palaver_core::conversation::Conversations;
use palaver_wire::body::Data;
use palaver_wire::conversation::document::HistoryDocument;
use palaver_wire::conversation::share::{SHARED_PAGE_PREFIX, ShareLink, ShareStatus};

use super::gpt::history_problem;
use crate::auth::Authenticated;
use crate::problem::Problem;

/// Where the JSON of a share link is read.
const SHARED_JSON_PREFIX: &str = "/shared/";

/// `POST /gpt/histories/{id}/share`: makes a read-only link to a conversation (its owner only),
/// in place of the one it had; the token is shown this once.
#[utoipa::path(post, path = "/gpt/histories/{id}/share", tag = "gpthistories", operation_id = "gpthistories_share",
    summary = "Make a read-only link to a conversation (its token is shown this once)",
    params(("id" = String, Path, description = "The conversation's id")),
    responses((status = 201, description = "The link, in place of any it had", body = ShareLink)))]
pub async fn share(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    let link = conversations.share(&caller, &id).await.map_err(history_problem)?;
    Ok((StatusCode::CREATED, Json(link)).into_response())
}

/// `GET /gpt/histories/{id}/share`: whether a conversation is shared, and since when.
#[utoipa::path(get, path = "/gpt/histories/{id}/share", tag = "gpthistories", operation_id = "gpthistories_shareStatus",
    summary = "Whether a conversation is shared by a link, and since when",
    params(("id" = String, Path, description = "The conversation's id")),
    responses((status = 200, description = "Its share link's state", body = ShareStatus)))]
pub async fn share_status(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<ShareStatus>, Problem> {
    Ok(Json(conversations.share_status(&caller, &id).await.map_err(history_problem)?))
}

/// `DELETE /gpt/histories/{id}/share`: revokes a conversation's link; it reads as not found at
/// once. Answers the state after (not shared), whether or not it had a link.
#[utoipa::path(delete, path = "/gpt/histories/{id}/share", tag = "gpthistories", operation_id = "gpthistories_unshare",
    summary = "Revoke a conversation's share link", params(("id" = String, Path, description = "The conversation's id")),
    responses((status = 200, description = "Not shared any more", body = ShareStatus)))]
pub async fn stop_sharing(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<ShareStatus>, Problem> {
    conversations.stop_sharing(&caller, &id).await.map_err(history_problem)?;
    Ok(Json(ShareStatus::default()))
}

/// `GET /shared/{token}`: the conversation a share link opens, as a document without its owner,
/// ratings or pending ask; 404 for a link that opens nothing.
#[utoipa::path(get, path = "/shared/{token}", tag = "gpthistories", operation_id = "shared_read",
    summary = "A shared conversation, read through its link (no sign-in)",
    params(("token" = String, Path, description = "The share link's token")),
    responses((status = 200, description = "The conversation as it is now", body = Data<HistoryDocument>)))]
pub async fn read_shared(
    State(conversations): State<Conversations>,
    Path(token): Path<String>,
) -> Result<Json<Data<HistoryDocument>>, Problem> {
    let view = conversations.read_shared(&token).await.map_err(history_problem)?;
    Ok(Json(Data { data: HistoryDocument::from(view) }))
}

/// What a share link's responses carry: kept out of search engines, and the link (which is the
/// key) never sent on as a referrer. The page of a link that opens nothing is a 404.
pub async fn shared_headers(State(conversations): State<Conversations>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let page_token = path.strip_prefix(SHARED_PAGE_PREFIX).map(str::to_string);
    let is_shared = page_token.is_some() || path.starts_with(SHARED_JSON_PREFIX);
    let is_page_read = request.method() == Method::GET && page_token.is_some();
    let mut response = next.run(request).await;
    if !is_shared {
        return response;
    }
    if let Some(token) = page_token.filter(|_| is_page_read && response.status() == StatusCode::OK) {
        match conversations.share_opens(&token).await {
            Ok(true) => {}
            Ok(false) => *response.status_mut() = StatusCode::NOT_FOUND,
            Err(err) => tracing::error!(%err, "a share link could not be checked"),
        }
    }
    let headers = response.headers_mut();
    headers.insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
