//! `/gpt/histories` (the conversations as the reference serves them), their export, the models, and host actions.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use palaver_core::conversation::Conversations;
use palaver_core::conversation::shelf::ShelfChange;
use palaver_core::error::{AppError, Error};
use palaver_wire::body::{Data, HostActionBody, HostActionResult, ModelOption};
use palaver_wire::conversation::document::{DocumentPendingAsk, HistoryDocument};
use palaver_wire::conversation::model::{Rating, check_title};
use palaver_wire::conversation::page::{MAX_PAGE, PageRequest, Paged};

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// Parses a JSON object body, or answers with the problem a client can act on.
pub(super) fn object_body(body: &Bytes) -> Result<serde_json::Map<String, Value>, Problem> {
    if body.is_empty() {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(Problem::bad_request("The body must be a JSON object")),
        Err(err) => Err(Problem::bad_request("The body is not valid JSON").with_detail(err.to_string())),
    }
}

pub(super) fn optional_string(body: &serde_json::Map<String, Value>, key: &str) -> Result<Option<String>, Problem> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(value)) => Ok(Some(value.clone())),
        Some(_) => Err(Problem::bad_request(format!("{key} must be a string"))),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `markdown` (the default) or `json`.
    format: Option<String>,
}

/// `GET /gpt/histories/{id}/export?format=markdown|json`: the conversation as a file to keep.
#[utoipa::path(get, path = "/gpt/histories/{id}/export", tag = "gpthistories", operation_id = "gpthistories_export",
    summary = "Download a conversation as Markdown or as its JSON document",
    params(("id" = String, Path, description = "The conversation's id"), ExportQuery),
    responses((status = 200, description = "The file", content(
        (String = "text/markdown"),
        (HistoryDocument = "application/json")))))]
pub async fn export_history(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    query: Result<axum::extract::Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Problem> {
    let axum::extract::Query(query) = query.map_err(|rejection| {
        Problem::bad_request("Invalid query")
            .with_detail(format!("{}. Use format=markdown or format=json.", rejection.body_text()))
    })?;
    let format = query.format.unwrap_or_else(|| "markdown".into());
    if format != "markdown" && format != "json" {
        return Err(Problem::bad_request("Unknown export format")
            .with_detail(format!("format was \"{format}\"; send format=markdown or format=json.")));
    }
    let history = conversations.read(&caller, &id).await.map_err(history_problem)?;
    let (body, content_type, extension) = match format.as_str() {
        "json" => {
            let document = HistoryDocument::from(history.clone());
            (serde_json::to_string_pretty(&document).unwrap_or_default(), "application/json", "json")
        }
        _ => (palaver_wire::conversation::export::to_markdown(&history), "text/markdown; charset=utf-8", "md"),
    };
    let file_name = palaver_wire::conversation::export::file_name(&history, extension);
    let disposition = format!("attachment; filename=\"{file_name}\"");
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, content_type.to_string()),
            (axum::http::header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

/// `POST /gpt/histories`: starts an empty conversation owned by the caller; `model` (Palaver's
/// addition) chooses the model it runs on.
#[utoipa::path(post, path = "/gpt/histories", tag = "gpthistories", operation_id = "gpthistories_create",
    summary = "Start a conversation", request_body = NewHistory,
    responses((status = 201, description = "Successful create", body = Data<HistoryDocument>)))]
pub async fn create_history(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<Response, Problem> {
    let body: NewHistory = serde_json::from_value(Value::Object(object_body(&body)?))
        .map_err(|err| Problem::bad_request("Invalid request body").with_detail(format!("Send {{model?}}: {err}.")))?;
    let history = HistoryDocument::from(conversations.create(&caller, body.model.as_deref()).await?);
    Ok((StatusCode::CREATED, Json(Data { data: history })).into_response())
}

/// `GET /gpt/histories[?q=][&archived=true][&limit=][&before=]`: a page of the caller's
/// conversations as whole documents, most recently active first (ties broken by id), archived
/// ones left out. `data` is the reference's list; Palaver's additions: a page holds `limit`
/// (default 50, at most 200) and says in `more` whether more follow, whose page `before=nextBefore`
/// reads; with `q`, only those whose title or messages hold it; with `archived=true`, only the
/// archived ones.
#[utoipa::path(get, path = "/gpt/histories", tag = "gpthistories", operation_id = "gpthistories_list",
    summary = "A page of the caller's conversations, most recently active first", params(SearchQuery),
    responses((status = 200, description = "Successful list", body = Paged<Vec<HistoryDocument>>),
        (status = 400, description = "A limit out of range or a cursor this server did not give", body = ProblemBody)))]
pub async fn list_histories(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    query: Result<axum::extract::Query<SearchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Paged<Vec<HistoryDocument>>>, Problem> {
    let axum::extract::Query(query) = query.map_err(|rejection| {
        Problem::bad_request("Invalid query").with_detail(format!(
            "{}. Send q=<text>, archived=true or false, limit=<1 to {MAX_PAGE}> and before=<a nextBefore>.",
            rejection.body_text()
        ))
    })?;
    let page = PageRequest::new(query.limit, query.before.as_deref())
        .map_err(|reason| Problem::bad_request("Invalid page").with_detail(reason))?;
    let archived = query.archived.unwrap_or(false);
    let Paged { data, more, next_before } =
        conversations.document_page(&caller, query.q.as_deref(), archived, &page).await?;
    Ok(Json(Paged { data: data.into_iter().map(HistoryDocument::from).collect(), more, next_before }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Only conversations whose title or messages hold this.
    q: Option<String>,
    /// `true`: only the archived conversations; otherwise they are left out.
    archived: Option<bool>,
    /// How many conversations a page holds: 1 to 200, 50 when left out.
    limit: Option<u32>,
    /// The page after the one whose `nextBefore` this is; the first page when left out.
    before: Option<String>,
}

/// The body without its `pendingAsk.*` keys (`pendingAsk` itself is ignored where it is read).
fn without_pending_ask_paths(mut body: serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    body.retain(|key, _| !key.starts_with("pendingAsk."));
    body
}

/// The history router's own titles for a missing document and for someone else's.
pub(super) fn history_problem(err: Error) -> Problem {
    match err.kind() {
        AppError::HistoryNotFound => Problem::new(StatusCode::NOT_FOUND, "Document not found"),
        AppError::NotHistoryOwner => Problem::new(StatusCode::FORBIDDEN, "Access denied"),
        _ => err.into(),
    }
}

/// `GET /gpt/histories/{id}`: one conversation with its rows (its owner, or an admin).
#[utoipa::path(get, path = "/gpt/histories/{id}", tag = "gpthistories", operation_id = "gpthistories_read",
    summary = "One conversation with its rows", params(("id" = String, Path, description = "The conversation's id")),
    responses((status = 200, description = "Successful read", body = Data<HistoryDocument>)))]
pub async fn read_history(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<Data<HistoryDocument>>, Problem> {
    let history = conversations.read(&caller, &id).await.map_err(history_problem)?;
    Ok(Json(Data { data: HistoryDocument::from(history) }))
}

/// The body of `POST /gpt/histories`: `{}`, or the model it runs on (Palaver's addition). Other
/// fields are ignored, `pendingAsk` among them: only a turn writes it.
#[derive(Deserialize, ToSchema)]
pub struct NewHistory {
    model: Option<String>,
    #[serde(default, rename = "pendingAsk")]
    #[schema(read_only, value_type = Option<DocumentPendingAsk>)]
    _pending_ask: serde::de::IgnoredAny,
}

/// The body of `PATCH /gpt/histories/{id}`: a new title, and (Palaver's additions) a model,
/// pinned, archived; any of them. `pendingAsk` (and any `pendingAsk.*` key) is dropped, as the
/// reference drops it: only a turn writes it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryFields {
    title: Option<String>,
    model: Option<String>,
    /// Listed first, in the Pinned group.
    pinned: Option<bool>,
    /// Out of the list (`GET /gpt/histories?archived=true` lists it) until a message is sent into it.
    archived: Option<bool>,
    #[serde(default, rename = "pendingAsk")]
    #[schema(read_only, value_type = Option<DocumentPendingAsk>)]
    _pending_ask: serde::de::IgnoredAny,
}

/// `PATCH /gpt/histories/{id}` `{title?, model?, pinned?, archived?}`: renames a conversation,
/// chooses the model it runs on, pins or archives it (its owner only; the title and the model
/// are checked before anything is written); answers `{data}` with the conversation's document.
#[utoipa::path(patch, path = "/gpt/histories/{id}", tag = "gpthistories", operation_id = "gpthistories_update",
    summary = "Rename a conversation, choose its model, pin or archive it", params(("id" = String, Path, description = "The conversation's id")),
    request_body = HistoryFields, responses((status = 200, description = "Successful update", body = Data<HistoryDocument>)))]
pub async fn update_history(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Data<HistoryDocument>>, Problem> {
    let invalid = |detail: String| Problem::bad_request("Invalid rename request").with_detail(detail);
    let body: HistoryFields = serde_json::from_value(Value::Object(without_pending_ask_paths(object_body(&body)?)))
        .map_err(|err| invalid(format!("{SEND_FIELDS}: {err}.")))?;
    let shelf = ShelfChange { pinned: body.pinned, archived: body.archived };
    if body.title.is_none() && body.model.is_none() && shelf == ShelfChange::default() {
        return Err(invalid(format!("{SEND_FIELDS}.")));
    }
    // Both are checked before anything is written: the title here, the model by choose_model.
    if let Some(title) = body.title.as_ref().filter(|_| body.model.is_some() || shelf != ShelfChange::default()) {
        check_title(title).map_err(|message| Problem::from(AppError::BadRequest(message)))?;
    }
    if let Some(model) = &body.model {
        conversations.choose_model(&caller, &id, model).await.map_err(history_problem)?;
    }
    if let Some(title) = &body.title {
        conversations.rename(&caller, &id, title).await.map_err(history_problem)?;
    }
    if shelf != ShelfChange::default() {
        conversations.change_shelf(&caller, &id, shelf).await.map_err(history_problem)?;
    }
    let history = conversations.read(&caller, &id).await.map_err(history_problem)?;
    Ok(Json(Data { data: HistoryDocument::from(history) }))
}

/// What a rename request may hold.
const SEND_FIELDS: &str = "Send {title} and/or {model} (strings), {pinned} and/or {archived} (true or false)";

/// A row's rating: the body of `PATCH /gpt/histories/{id}/rating` and its answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowRating {
    /// The row's index in `prompts`.
    prompt_index: u64,
    /// `up`, `down`, or null to take the rating away.
    rating: Option<Rating>,
}

/// `PATCH /gpt/histories/{id}/rating`: rates a row of a conversation (its owner only), as the
/// reference has it.
#[utoipa::path(patch, path = "/gpt/histories/{id}/rating", tag = "gpthistories", operation_id = "gpthistories_rating",
    summary = "Rate a prompt in a GPT history",
    description = "Rate a reply (`up`, `down`, or null to take it away)", params(("id" = String, Path, description = "The conversation's id")),
    request_body = RowRating, responses((status = 200, description = "Rated", body = Data<RowRating>)))]
pub async fn rate(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Data<RowRating>>, Problem> {
    let body = object_body(&body)?;
    let index = body
        .get("promptIndex")
        .and_then(Value::as_u64)
        .ok_or_else(|| Problem::bad_request("promptIndex must be a non-negative number"))?;
    let invalid = || Problem::bad_request("rating must be 'up', 'down', or null");
    let rating = match body.get("rating") {
        Some(Value::Null) => None,
        Some(Value::String(rating)) => Some(Rating::parse(rating).ok_or_else(invalid)?),
        _ => return Err(invalid()),
    };
    conversations.rate(&caller, &id, index, rating).await?;
    Ok(Json(Data { data: RowRating { prompt_index: index, rating } }))
}

/// `GET /gpt/models` (Palaver's addition): the models a conversation may run on (less those an
/// admin took off), the default first.
#[utoipa::path(get, path = "/gpt/models", tag = "gpt", operation_id = "gpt_models",
    summary = "The models a conversation may run on", responses((status = 200, description = "Successful list", body = Data<Vec<ModelOption>>)))]
pub async fn list_models(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
) -> Result<Json<Data<Vec<ModelOption>>>, Problem> {
    Ok(Json(Data { data: conversations.model_options(&caller).await? }))
}

/// `DELETE /gpt/histories/{id}`: deletes a conversation (its owner only). It leaves the lists,
/// reads as not found, and its pending ask can no longer be listed or answered.
#[utoipa::path(delete, path = "/gpt/histories/{id}", tag = "gpthistories", operation_id = "gpthistories_delete",
    summary = "Delete a conversation", params(("id" = String, Path, description = "The conversation's id")),
    responses((status = 200, description = "Successful delete", body = Data<Deleted>)))]
pub async fn delete_history(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<Data<Deleted>>, Problem> {
    conversations.delete(&caller, &id).await.map_err(history_problem)?;
    Ok(Json(Data { data: Deleted { id, deleted: true } }))
}

/// The answer to a deletion.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    id: String,
    deleted: bool,
}

/// How long a host action may run.
const HOST_ACTION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// `POST /gpt/actions`: runs a host action a document's callback named, for the conversation's
/// owner; answers `{data: {blocks}}` with the blocks that replace their namesakes.
#[utoipa::path(post, path = "/gpt/actions", tag = "gpt", operation_id = "gpt_actions",
    summary = "Run a host callback from a block button",
    description = "Run a host action a document's block called", request_body = HostActionBody,
    responses((status = 200, description = "The blocks that replace their namesakes", body = Data<HostActionResult>),
        (status = 504, description = "The host action took too long", body = ProblemBody)))]
pub async fn host_action(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<Json<Data<HostActionResult>>, Problem> {
    use palaver_core::conversation::actions::HostActionError;
    let request: HostActionBody = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request("Invalid action request")
            .with_detail(format!("Send {{historyId, name, payload?, blockId?}}: {err}."))
    })?;
    let outcome = tokio::time::timeout(HOST_ACTION_TIMEOUT, conversations.run_host_action(&caller, request))
        .await
        .map_err(|_elapsed| Problem::new(StatusCode::GATEWAY_TIMEOUT, "The host action took too long"))?;
    match outcome {
        Ok(blocks) => Ok(Json(Data { data: HostActionResult { blocks, message: None } })),
        Err(HostActionError::App(err)) => Err(history_problem(err)),
        Err(error @ HostActionError::Unknown(_)) => Err(Problem::bad_request("Unknown host action")
            .with_code("UNKNOWN_HOST_ACTION")
            .with_detail(error.to_string())),
        Err(error @ HostActionError::BlockNotFound { .. }) => {
            Err(Problem::new(StatusCode::NOT_FOUND, "Block not found")
                .with_code("BLOCK_NOT_FOUND")
                .with_detail(error.to_string()))
        }
        Err(error @ HostActionError::Invalid(_)) => Err(Problem::bad_request("Invalid action payload")
            .with_code("INVALID_PAYLOAD")
            .with_detail(error.to_string())),
    }
}
