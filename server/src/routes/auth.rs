//! `/auth/*`: accounts, sessions and API tokens over JSON.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use app::account_deletion;
use app::accounts::auth::{Accounts, clear_session_cookie, session_cookie, session_secret, wants_secure_cookie};
use app::accounts::service::{self, NewSession};
use app::chat::Conversations;
use app::uploads::Uploads;

use crate::auth::{Authenticated, ClientAddress};
use crate::problem::Problem;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

/// A log-in: the credentials, and whether the user's other sessions end.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LoginRequest {
    username: String,
    password: String,
    #[serde(default)]
    end_other_sessions: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PasswordChange {
    current_password: String,
    new_password: String,
}

/// `POST /auth/password`: `{currentPassword, newPassword}` → `{data: {changed: true,
/// sessionsEnded}}`; every other session of the account ends (the caller's own stays).
pub async fn change_password(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let change: PasswordChange = parse(&body)?;
    let kept = session_secret(&headers);
    let ended =
        service::change_password(&accounts, &caller, &change.current_password, &change.new_password, kept, &address)
            .await?;
    Ok(Json(json!({"data": {"changed": true, "sessionsEnded": ended}})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TokenRequest {
    name: String,
    /// Days until the token stops working; none: until it is revoked.
    #[serde(default)]
    expires_in_days: Option<u32>,
}

/// A JSON body, or a 400 problem that says what is wrong with it.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    serde_json::from_slice(body)
        .map_err(|err| Problem::bad_request("Invalid request body").with_detail(err.to_string()))
}

fn with_cookie(mut response: Response, cookie: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

fn session_response(accounts: &Accounts, headers: &HeaderMap, status: StatusCode, session: NewSession) -> Response {
    let cookie = session_cookie(
        &session.secret,
        accounts.settings.session_idle,
        wants_secure_cookie(&accounts.settings, headers),
    );
    with_cookie((status, Json(json!({"data": session.user}))).into_response(), &cookie)
}

pub async fn signup(
    State(accounts): State<Accounts>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let credentials: Credentials = parse(&body)?;
    let session = service::sign_up(&accounts, &credentials.username, &credentials.password, &address).await?;
    Ok(session_response(&accounts, &headers, StatusCode::CREATED, session))
}

pub async fn login(
    State(accounts): State<Accounts>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: LoginRequest = parse(&body)?;
    let log_in = service::LogIn {
        username: &request.username,
        password: &request.password,
        end_other_sessions: request.end_other_sessions,
    };
    let session = service::log_in(&accounts, log_in, &address).await?;
    Ok(session_response(&accounts, &headers, StatusCode::OK, session))
}

pub async fn logout(State(accounts): State<Accounts>, headers: HeaderMap) -> Result<Response, Problem> {
    service::log_out(&accounts, session_secret(&headers)).await?;
    let cookie = clear_session_cookie(wants_secure_cookie(&accounts.settings, &headers));
    Ok(with_cookie(Json(json!({"data": {"loggedOut": true}})).into_response(), &cookie))
}

pub async fn me(Authenticated(caller): Authenticated) -> Json<serde_json::Value> {
    Json(json!({"data": caller.user}))
}

pub async fn create_token(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: TokenRequest = parse(&body)?;
    let created = service::create_token(&accounts, &caller, &request.name, request.expires_in_days).await?;
    Ok((StatusCode::CREATED, Json(json!(created))).into_response())
}

pub async fn list_tokens(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
) -> Result<Response, Problem> {
    Ok(Json(json!({"data": service::list_tokens(&accounts, &caller).await?})).into_response())
}

pub async fn revoke_token(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    service::revoke_token(&accounts, &caller, &id).await?;
    Ok(Json(json!({"data": {"id": id, "revoked": true}})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountDeletion {
    password: String,
}

/// `DELETE /auth/me`: `{password}` → `{data: {deleted: true, conversations, files}}`; the
/// account and everything it owns are gone, and the session cookie is cleared.
pub async fn delete_account(
    State(accounts): State<Accounts>,
    State(conversations): State<Conversations>,
    State(uploads): State<Uploads>,
    Authenticated(caller): Authenticated,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: AccountDeletion = parse(&body)?;
    let deleted =
        account_deletion::delete_account(&accounts, &conversations, &uploads, &caller, &request.password, &address)
            .await?;
    let cookie = clear_session_cookie(wants_secure_cookie(&accounts.settings, &headers));
    Ok(with_cookie(Json(json!({"data": deleted})).into_response(), &cookie))
}

pub async fn admin_list_users(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
) -> Result<Response, Problem> {
    Ok(Json(json!({"data": service::admin_list_users(&accounts, &caller).await?})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserUpdate {
    disabled: bool,
}

/// `PATCH /admin/users/{id}`: `{disabled}` → `{data: user}`.
pub async fn admin_update_user(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let update: UserUpdate = parse(&body)?;
    let user = service::admin_set_disabled(&accounts, &caller, &id, update.disabled).await?;
    Ok(Json(json!({"data": user})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordReset {
    password: String,
}

/// `POST /admin/users/{id}/password`: `{password}` → `{data: {reset: true, sessionsEnded}}`.
pub async fn admin_reset_password(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let reset: PasswordReset = parse(&body)?;
    let ended = service::admin_reset_password(&accounts, &caller, &id, &reset.password).await?;
    Ok(Json(json!({"data": {"reset": true, "sessionsEnded": ended}})).into_response())
}
