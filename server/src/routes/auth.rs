//! `/auth/*`: accounts, sessions and API tokens over JSON.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use palaver_app::state::AppState;
use palaver_core::account_deletion;
use palaver_core::accounts::auth::{
    Accounts, clear_session_cookie, session_cookie, session_secret, wants_secure_cookie,
};
use palaver_core::accounts::service;
use palaver_core::accounts::service::NewSession;
use palaver_wire::accounts::DeletedAccount;
use palaver_wire::accounts::{CreatedToken, TokenSummary, UserView};
use palaver_wire::body::Data;

use crate::auth::{Authenticated, ClientAddress};
use crate::problem::{Problem, ProblemBody};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

/// A log-in: the credentials, and whether the user's other sessions end.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LoginRequest {
    username: String,
    password: String,
    #[serde(default)]
    end_other_sessions: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PasswordChange {
    current_password: String,
    new_password: String,
    /// Whether the account's API tokens keep working; left out or false, they are revoked.
    #[serde(default)]
    keep_api_tokens: bool,
}

/// The answer to a password change: how many other sessions it ended and tokens it revoked.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordSet {
    changed: bool,
    sessions_ended: u64,
    tokens_revoked: u64,
}

/// `POST /auth/password`: every other session of the account ends (the caller's own stays), and
/// its API tokens are revoked unless `keepApiTokens`.
#[utoipa::path(post, path = "/auth/password", tag = "auth", operation_id = "auth_changePassword",
    summary = "Change the caller's password", request_body = PasswordChange,
    responses((status = 200, description = "Changed", body = Data<PasswordSet>)))]
pub async fn change_password(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: PasswordChange = parse(&body)?;
    let change = service::PasswordChange {
        current: &request.current_password,
        new: &request.new_password,
        kept_session: session_secret(&headers),
        keep_tokens: request.keep_api_tokens,
    };
    let outcome = service::change_password(&accounts, &caller, change, &address).await?;
    let set =
        PasswordSet { changed: true, sessions_ended: outcome.sessions_ended, tokens_revoked: outcome.tokens_revoked };
    Ok(Json(Data { data: set }).into_response())
}

#[derive(Deserialize, ToSchema)]
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
    with_cookie((status, Json(Data { data: session.user })).into_response(), &cookie)
}

#[utoipa::path(post, path = "/auth/signup", tag = "auth", operation_id = "auth_signup",
    summary = "Create an account and sign in", request_body = Credentials,
    responses((status = 201, description = "Signed up; the session cookie is set", body = Data<UserView>)))]
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

#[utoipa::path(post, path = "/auth/login", tag = "auth", operation_id = "auth_login",
    summary = "Sign in", request_body = LoginRequest,
    responses((status = 200, description = "Signed in; the session cookie is set", body = Data<UserView>)))]
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

/// The answer to a log-out.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoggedOut {
    logged_out: bool,
}

#[utoipa::path(post, path = "/auth/logout", tag = "auth", operation_id = "auth_logout",
    summary = "Sign out: the session ends and its cookie is cleared",
    responses((status = 200, description = "Signed out", body = Data<LoggedOut>)))]
pub async fn logout(State(accounts): State<Accounts>, headers: HeaderMap) -> Result<Response, Problem> {
    service::log_out(&accounts, session_secret(&headers)).await?;
    let cookie = clear_session_cookie(wants_secure_cookie(&accounts.settings, &headers));
    Ok(with_cookie(Json(Data { data: LoggedOut { logged_out: true } }).into_response(), &cookie))
}

#[utoipa::path(get, path = "/auth/me", tag = "auth", operation_id = "auth_me", summary = "The signed-in user",
    responses((status = 200, description = "The caller", body = Data<UserView>)))]
pub async fn me(Authenticated(caller): Authenticated) -> Json<Data<UserView>> {
    Json(Data { data: caller.user })
}

#[utoipa::path(post, path = "/auth/tokens", tag = "auth", operation_id = "auth_createToken",
    summary = "Create an API token (its secret is shown this once); a signed-in session only", request_body = TokenRequest,
    responses((status = 201, description = "Created", body = CreatedToken),
        (status = 403, description = "Asked with an API token: tokens are made from a session", body = ProblemBody)))]
pub async fn create_token(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: TokenRequest = parse(&body)?;
    let created = service::create_token(&accounts, &caller, &request.name, request.expires_in_days).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[utoipa::path(get, path = "/auth/tokens", tag = "auth", operation_id = "auth_listTokens",
    summary = "The caller's API tokens", responses((status = 200, description = "Successful list", body = Data<Vec<TokenSummary>>)))]
pub async fn list_tokens(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
) -> Result<Response, Problem> {
    Ok(Json(Data { data: service::list_tokens(&accounts, &caller).await? }).into_response())
}

/// The answer to a revocation.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    id: String,
    revoked: bool,
}

#[utoipa::path(delete, path = "/auth/tokens/{id}", tag = "auth", operation_id = "auth_revokeToken",
    summary = "Revoke one of the caller's API tokens", params(("id" = String, Path, description = "The token's id")),
    responses((status = 200, description = "Revoked", body = Data<Revoked>)))]
pub async fn revoke_token(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    service::revoke_token(&accounts, &caller, &id).await?;
    Ok(Json(Data { data: Revoked { id, revoked: true } }).into_response())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountDeletion {
    password: String,
}

/// `DELETE /auth/me`: the account and everything it owns are gone, and the session cookie is
/// cleared.
#[utoipa::path(delete, path = "/auth/me", tag = "auth", operation_id = "auth_deleteAccount",
    summary = "Delete the caller's account and everything it owns", request_body = AccountDeletion,
    responses((status = 200, description = "Deleted", body = Data<DeletedAccount>)))]
pub async fn delete_account(
    State(state): State<AppState>,
    Authenticated(caller): Authenticated,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: AccountDeletion = parse(&body)?;
    let reached = state.reached_by_account_deletion();
    let deleted = account_deletion::delete_account(reached, &caller, &request.password, &address).await?;
    let cookie = clear_session_cookie(wants_secure_cookie(&state.accounts.settings, &headers));
    Ok(with_cookie(Json(Data { data: deleted }).into_response(), &cookie))
}

#[utoipa::path(get, path = "/admin/users", tag = "admin", operation_id = "admin_listUsers", summary = "Every user",
    responses((status = 200, description = "Successful list", body = Data<Vec<UserView>>)))]
pub async fn admin_list_users(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
) -> Result<Response, Problem> {
    Ok(Json(Data { data: service::admin_list_users(&accounts, &caller).await? }).into_response())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UserUpdate {
    disabled: bool,
}

#[utoipa::path(patch, path = "/admin/users/{id}", tag = "admin", operation_id = "admin_updateUser",
    summary = "Disable or enable a user", params(("id" = String, Path, description = "The user's id")),
    request_body = UserUpdate, responses((status = 200, description = "Successful update", body = Data<UserView>)))]
pub async fn admin_update_user(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let update: UserUpdate = parse(&body)?;
    let user = service::admin_set_disabled(&accounts, &caller, &id, update.disabled).await?;
    Ok(Json(Data { data: user }).into_response())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewPassword {
    password: String,
    /// Whether the user's API tokens keep working; left out or false, they are revoked.
    #[serde(default)]
    keep_api_tokens: bool,
}

/// The answer to an admin's password reset: how many of the user's sessions it ended and
/// tokens it revoked.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordReset {
    reset: bool,
    sessions_ended: u64,
    tokens_revoked: u64,
}

#[utoipa::path(post, path = "/admin/users/{id}/password", tag = "admin", operation_id = "admin_resetPassword",
    summary = "Set a user's password; their sessions end, and their API tokens unless kept",
    params(("id" = String, Path, description = "The user's id")),
    request_body = NewPassword, responses((status = 200, description = "Reset", body = Data<PasswordReset>)))]
pub async fn admin_reset_password(
    State(accounts): State<Accounts>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, Problem> {
    let request: NewPassword = parse(&body)?;
    let outcome =
        service::admin_reset_password(&accounts, &caller, &id, &request.password, request.keep_api_tokens).await?;
    let reset =
        PasswordReset { reset: true, sessions_ended: outcome.sessions_ended, tokens_revoked: outcome.tokens_revoked };
    Ok(Json(Data { data: reset }).into_response())
}
