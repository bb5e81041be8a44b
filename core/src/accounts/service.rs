//! Account actions, shared by the JSON API (`/auth/*`), the server functions and the CLI.

use std::time::SystemTime;

use crate::db::Pool;

use super::auth::{
    Accounts, Attempt, Caller, CallerVia, TOKEN_PREFIX, hash_password, new_secret, secret_hash, unix_ms,
    verify_password,
};
use super::store;
use super::strength::check_strength;
use crate::error::{AppError, AppResult};
use palaver_wire::accounts::{
    CreatedToken, PasswordOutcome, Role, SignUpState, TokenSummary, UserView, check_password, check_token_name,
    check_username,
};

/// A user signed in, and the secret of their new session (for the cookie).
pub struct NewSession {
    pub user: UserView,
    pub secret: String,
}

/// The one message for every failed log-in, so it never tells which usernames exist.
pub const LOGIN_FAILED: &str = "Incorrect username or password.";

/// Creates an account directly (CLI, admin page): the first account becomes admin.
pub async fn create_account(pool: &Pool, username: &str, password: &str, role: Role) -> AppResult<UserView> {
    let username = username.trim();
    check_username(username).map_err(AppError::BadRequest)?;
    check_password(password).map_err(AppError::BadRequest)?;
    check_strength(password, username).await?;
    let hash = hash_password(password.to_string()).await?;
    store::create_user(pool, username, &hash, role).await
}

/// A new session for `user`; with `end_others`, their other sessions end.
async fn start_session(accounts: &Accounts, user: UserView, end_others: bool) -> AppResult<NewSession> {
    let secret = new_secret()?;
    let idle = accounts.settings.idle_seconds();
    let ended = store::create_session(&accounts.pool, &user.id, &secret_hash(&secret), idle, end_others).await?;
    if end_others {
        tracing::info!(user = user.id, ended, "a log-in signed its user out everywhere else");
    }
    Ok(NewSession { user, secret })
}

/// Who may sign up now: the first account always, then only with open sign-up (an admin's
/// choice, else the environment's).
pub async fn sign_up_state(accounts: &Accounts) -> AppResult<SignUpState> {
    let open = crate::preferences::ServerChoices::read(&accounts.pool).await?.open_signup;
    Ok(match (store::has_users(&accounts.pool).await?, open.unwrap_or(accounts.settings.open_signup)) {
        (false, _) => SignUpState::FirstAccount,
        (true, true) => SignUpState::Open,
        (true, false) => SignUpState::Closed,
    })
}

/// Signs up: open for the first account (which becomes admin), then only with open sign-up,
/// and then at most `signups_per_hour` from one client address.
pub async fn sign_up(accounts: &Accounts, username: &str, password: &str, address: &str) -> AppResult<NewSession> {
    let state = sign_up_state(accounts).await?;
    if state == SignUpState::Closed {
        return Err(AppError::SignUpClosed.into());
    }
    let first = state == SignUpState::FirstAccount;
    let now = unix_ms(SystemTime::now());
    if !first
        && let Attempt::Refused(retry_after_secs) =
            accounts.limiter.check_signup(address, now, accounts.settings.signups_per_hour).await?
    {
        return Err(AppError::TooManyRequests {
            message: "Too many accounts were made from this address. Try again later.".into(),
            retry_after_secs,
        }
        .into());
    }
    let user = create_account(&accounts.pool, username, password, Role::User).await?;
    if !first {
        accounts.limiter.record_signup(address, now).await?;
    }
    start_session(accounts, user, false).await
}

/// The log-in a user asks for: who, and whether their other sessions end.
pub struct LogIn<'a> {
    pub username: &'a str,
    pub password: &'a str,
    pub end_other_sessions: bool,
}

/// Logs in, rate-limited per username and per client address.
pub async fn log_in(accounts: &Accounts, request: LogIn<'_>, address: &str) -> AppResult<NewSession> {
    let LogIn { username, password, end_other_sessions } = request;
    let username = username.trim();
    match accounts.limiter.check(username, address, unix_ms(SystemTime::now())).await? {
        Attempt::Refused(retry_after_secs) => {
            return Err(AppError::TooManyRequests {
                message: "Too many failed log-ins. Try again later.".into(),
                retry_after_secs,
            }
            .into());
        }
        Attempt::After(delay) => tokio::time::sleep(delay).await,
    }
    let found = store::find_login(&accounts.pool, username).await?;
    // Verify against a real hash even for unknown usernames, so timing does not tell them apart.
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, dummy_hash().await?),
    };
    let verified = verify_password(password.to_string(), hash).await;
    match user.filter(|_| verified) {
        Some(user) if user.disabled => Err(AppError::AccountDisabled.into()),
        Some(user) => {
            accounts.limiter.clear_username(username, address).await?;
            start_session(accounts, user, end_other_sessions).await
        }
        None => {
            accounts.limiter.record_failure(username, address, unix_ms(SystemTime::now())).await?;
            Err(AppError::Unauthorized(LOGIN_FAILED.into()).into())
        }
    }
}

/// A hash of a password nobody has, made once.
async fn dummy_hash() -> AppResult<String> {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    DUMMY.get_or_try_init(|| hash_password(new_secret().unwrap_or_default())).await.cloned()
}

pub async fn log_out(accounts: &Accounts, session_secret: Option<&str>) -> AppResult<()> {
    if let Some(secret) = session_secret {
        store::revoke_session(&accounts.pool, &secret_hash(secret)).await?;
    }
    Ok(())
}

/// The longest a token may be given to live.
pub const MAX_TOKEN_DAYS: u32 = 3650;

/// Creates an API token, lasting `expires_in_days` (1 to 3650) or until it is revoked. Only a
/// signed-in session makes one: a token that could make tokens could outlive its own expiry
/// and its revocation.
pub async fn create_token(
    accounts: &Accounts,
    caller: &Caller,
    name: &str,
    expires_in_days: Option<u32>,
) -> AppResult<CreatedToken> {
    if matches!(caller.via, CallerVia::Token { .. }) {
        return Err(AppError::TokenCannotMakeTokens.into());
    }
    check_token_name(name).map_err(AppError::BadRequest)?;
    if expires_in_days.is_some_and(|days| !(1..=MAX_TOKEN_DAYS).contains(&days)) {
        return Err(AppError::BadRequest(format!(
            "expiresInDays must be a whole number of days from 1 to {MAX_TOKEN_DAYS}, or left out for a token that lasts until it is revoked."
        )).into());
    }
    let name = name.trim().to_string();
    let token = format!("{TOKEN_PREFIX}{}", new_secret()?);
    let lifetime = expires_in_days.map(|days| i64::from(days) * 86_400);
    let id = store::create_token(&accounts.pool, &caller.user.id, &name, &secret_hash(&token), lifetime).await?;
    Ok(CreatedToken { id, name, token })
}

pub async fn list_tokens(accounts: &Accounts, caller: &Caller) -> AppResult<Vec<TokenSummary>> {
    store::list_tokens(&accounts.pool, &caller.user.id).await
}

pub async fn revoke_token(accounts: &Accounts, caller: &Caller, token_id: &str) -> AppResult<()> {
    if store::revoke_token(&accounts.pool, &caller.user.id, token_id).await? {
        Ok(())
    } else {
        Err(AppError::TokenNotFound.into())
    }
}

/// A password change the caller asks for.
pub struct PasswordChange<'a> {
    pub current: &'a str,
    pub new: &'a str,
    /// The caller's own session secret, if any: that session stays.
    pub kept_session: Option<&'a str>,
    /// Whether the account's API tokens keep working (else they are revoked).
    pub keep_tokens: bool,
}

/// Changes the caller's password. The current one must be right (a wrong one counts as a failed
/// log-in), the new one must follow the rules and not be the username. Every other session of
/// the account ends, and its API tokens are revoked unless the caller keeps them.
pub async fn change_password(
    accounts: &Accounts,
    caller: &Caller,
    change: PasswordChange<'_>,
    address: &str,
) -> AppResult<PasswordOutcome> {
    let username = caller.user.username.as_str();
    check_own_password(accounts, caller, change.current, address, "The current password is not right.").await?;
    let hash = new_password_hash(username, change.new).await?;
    let kept = change.kept_session.map(secret_hash);
    store::set_password(&accounts.pool, &caller.user.id, &hash, kept.as_deref(), !change.keep_tokens).await
}

/// Checks the caller's own password, rate-limited like a log-in (a wrong one counts as a
/// failed log-in).
async fn check_own_password(
    accounts: &Accounts,
    caller: &Caller,
    password: &str,
    address: &str,
    wrong: &str,
) -> AppResult<()> {
    let username = caller.user.username.as_str();
    match accounts.limiter.check(username, address, unix_ms(SystemTime::now())).await? {
        Attempt::Refused(retry_after_secs) => {
            return Err(AppError::TooManyRequests {
                message: "Too many wrong passwords. Try again later.".into(),
                retry_after_secs,
            }
            .into());
        }
        Attempt::After(delay) => tokio::time::sleep(delay).await,
    }
    let hash = store::find_login(&accounts.pool, username).await?.map(|(_, hash)| hash).ok_or(AppError::Internal)?;
    if !verify_password(password.to_string(), hash).await {
        accounts.limiter.record_failure(username, address, unix_ms(SystemTime::now())).await?;
        return Err(AppError::BadRequest(wrong.into()).into());
    }
    Ok(())
}

/// The hash of a new password for `username`, once it follows the rules and is not the username.
async fn new_password_hash(username: &str, new: &str) -> AppResult<String> {
    check_password(new).map_err(AppError::BadRequest)?;
    if new.trim().eq_ignore_ascii_case(username) {
        return Err(AppError::BadRequest("The password may not be the username.".into()).into());
    }
    check_strength(new, username).await?;
    hash_password(new.to_string()).await
}

fn require_admin(caller: &Caller) -> AppResult<()> {
    if caller.is_admin() { Ok(()) } else { Err(AppError::AdminsOnly.into()) }
}

pub async fn admin_create_user(
    accounts: &Accounts,
    caller: &Caller,
    username: &str,
    password: &str,
    admin: bool,
) -> AppResult<UserView> {
    require_admin(caller)?;
    create_account(&accounts.pool, username, password, if admin { Role::Admin } else { Role::User }).await
}

pub async fn admin_list_users(accounts: &Accounts, caller: &Caller) -> AppResult<Vec<UserView>> {
    require_admin(caller)?;
    store::list_users(&accounts.pool).await
}

/// Disables or enables an account. An admin cannot disable themselves, nor the last enabled
/// admin; a disabled account's sessions end at once and its tokens are refused.
pub async fn admin_set_disabled(
    accounts: &Accounts,
    caller: &Caller,
    user_id: &str,
    disabled: bool,
) -> AppResult<UserView> {
    require_admin(caller)?;
    if disabled && caller.user.id == user_id {
        return Err(AppError::BadRequest("You cannot disable your own account.".into()).into());
    }
    match store::set_disabled(&accounts.pool, user_id, disabled).await? {
        None => Err(AppError::UserNotFound.into()),
        Some(false) => Err(AppError::LastAdmin.into()),
        Some(true) => store::user_by_id(&accounts.pool, user_id).await?.ok_or(AppError::UserNotFound.into()),
    }
}

/// Sets another account's password (for one who forgot theirs); every session of that account
/// ends, and its API tokens are revoked unless `keep_tokens`.
pub async fn admin_reset_password(
    accounts: &Accounts,
    caller: &Caller,
    user_id: &str,
    new: &str,
    keep_tokens: bool,
) -> AppResult<PasswordOutcome> {
    require_admin(caller)?;
    let user = store::user_by_id(&accounts.pool, user_id).await?.ok_or(AppError::UserNotFound)?;
    let hash = new_password_hash(&user.username, new).await?;
    store::set_password(&accounts.pool, &user.id, &hash, None, !keep_tokens).await
}

/// Checks the caller's password before an irreversible step (a wrong one counts as a failed
/// log-in), and that the account is not the last enabled admin of an instance with others.
pub async fn confirm_account_deletion(
    accounts: &Accounts,
    caller: &Caller,
    password: &str,
    address: &str,
) -> AppResult<()> {
    check_own_password(accounts, caller, password, address, "The password is not right.").await?;
    if caller.is_admin() && store::would_leave_others_without_admin(&accounts.pool, &caller.user.id).await? {
        return Err(AppError::LastAdmin.into());
    }
    Ok(())
}
