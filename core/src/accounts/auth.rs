//! Who is calling: session cookies, bearer tokens, password hashing, and the login limiter.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::db::Pool;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use http::{HeaderMap, header};
use sha2::{Digest, Sha256};

pub use super::caller::{Caller, CallerVia};
use super::store;
use super::{PublicOrigins, TrustedProxies};
use crate::error::{AppError, AppResult, Error};

pub const SESSION_COOKIE: &str = "palaver_session";
/// API tokens start with this, so a leaked one is easy to recognise.
pub const TOKEN_PREFIX: &str = "pvr_";

/// How account settings are configured.
#[derive(Clone, Debug)]
pub struct AuthSettings {
    /// Whether anyone may sign up once the first (admin) account exists.
    pub open_signup: bool,
    /// The most sign-ups one client address may make in an hour.
    pub signups_per_hour: u32,
    /// A session ends after this long without a request.
    pub session_idle: Duration,
    /// A session ends this long after it began, however busy (then the user logs in again).
    pub session_max: Duration,
    /// Mark cookies `Secure` even when no proxy says the request came over https.
    pub secure_cookies: bool,
    /// Where users reach Palaver; state-changing requests from anywhere else are refused.
    pub public_origins: PublicOrigins,
    /// The proxies whose `X-Forwarded-For` names the client (for rate limits).
    pub trusted_proxies: TrustedProxies,
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            open_signup: false,
            signups_per_hour: 5,
            session_idle: Duration::from_secs(7 * 24 * 3600),
            session_max: Duration::from_secs(30 * 24 * 3600),
            secure_cookies: false,
            public_origins: PublicOrigins::local(SocketAddr::from(([127, 0, 0, 1], 3000))),
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

/// What the account actions and the caller checks need: the database, the account
/// settings and the log-in limiter (a substate of the app's state).
#[derive(Clone)]
pub struct Accounts {
    pub pool: Pool,
    pub settings: AuthSettings,
    pub limiter: Arc<LoginLimiter>,
}

impl Accounts {
    pub fn new(pool: Pool, settings: AuthSettings) -> Self {
        Self { limiter: Arc::new(LoginLimiter::new(pool.clone())), pool, settings }
    }
}

impl AuthSettings {
    pub fn idle_seconds(&self) -> i64 {
        crate::db::seconds(self.session_idle)
    }

    pub fn max_seconds(&self) -> i64 {
        crate::db::seconds(self.session_max)
    }
}

fn random_bytes<const N: usize>() -> AppResult<[u8; N]> {
    let mut bytes = [0_u8; N];
    getrandom::fill(&mut bytes).map_err(|err| {
        tracing::error!(%err, "no randomness available");
        AppError::Internal
    })?;
    Ok(bytes)
}

/// 32 random bytes as hex: session ids and token secrets.
pub fn new_secret() -> AppResult<String> {
    Ok(random_bytes::<32>()?.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// What is stored in place of a secret. Secrets are random, so a fast hash is enough.
pub fn secret_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Hashes a password with argon2id off the async runtime (it is deliberately slow).
pub async fn hash_password(password: String) -> AppResult<String> {
    let salt = random_bytes::<16>()?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&salt)?;
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string())
    })
    .await
    .map_err(|err| Error::internal(err))?
    .map_err(|err| Error::internal(format!("password hashing failed: {err}")))
}

/// Checks a password against a stored hash, off the async runtime.
pub async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
    .unwrap_or(false)
}

fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// The session secret the request's cookie carries, if any.
pub fn session_secret(headers: &HeaderMap) -> Option<&str> {
    cookie_value(headers, SESSION_COOKIE).filter(|value| !value.is_empty())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Resolves the caller from a bearer token or, without an `Authorization` header, the session
/// cookie. A request that sends a bad token is not authenticated, cookie or not.
pub async fn resolve_caller(accounts: &Accounts, headers: &HeaderMap) -> AppResult<Option<Caller>> {
    if headers.contains_key(header::AUTHORIZATION) {
        let Some(token) = bearer(headers) else { return Ok(None) };
        let user = store::use_token(&accounts.pool, &secret_hash(token)).await?;
        return Ok(user.map(|(user, name)| Caller { user, via: CallerVia::Token { name } }));
    }
    let Some(secret) = session_secret(headers) else { return Ok(None) };
    let settings = &accounts.settings;
    let user =
        store::touch_session(&accounts.pool, &secret_hash(secret), settings.idle_seconds(), settings.max_seconds())
            .await?;
    Ok(user.map(|user| Caller { user, via: CallerVia::Session }))
}

pub fn unauthorized() -> AppError {
    AppError::Unauthorized("Unauthorized".into())
}

pub async fn require_caller(accounts: &Accounts, headers: &HeaderMap) -> AppResult<Caller> {
    resolve_caller(accounts, headers).await?.ok_or_else(|| unauthorized().into())
}

/// Whether cookies for this request get `Secure`: configured, or a proxy says it was https.
pub fn wants_secure_cookie(settings: &AuthSettings, headers: &HeaderMap) -> bool {
    settings.secure_cookies
        || headers.get("x-forwarded-proto").and_then(|value| value.to_str().ok()).is_some_and(|proto| proto == "https")
}

/// The `Set-Cookie` value that starts a browser session.
pub fn session_cookie(secret: &str, max_age: Duration, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", max_age.as_secs())
}

/// The `Set-Cookie` value that ends it.
pub fn clear_session_cookie(secure: bool) -> String {
    session_cookie("", Duration::ZERO, secure)
}

/// Failed log-ins allowed in one window: per username from one client, and per client.
const MAX_FAILURES_PER_CLIENT_AND_USERNAME: i64 = 5;
const MAX_FAILURES_PER_ADDRESS: i64 = 20;
const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);
/// The window sign-ups from one address are counted over: an hour.
const SIGNUP_WINDOW_MS: i64 = 3_600_000;
/// Past this many failures of a username from anywhere, each attempt on it waits longer
/// (doubling from `FIRST_DELAY`, at most `MAX_DELAY`), instead of the username being locked:
/// a lock would let anyone lock its owner out.
const FAILURES_BEFORE_DELAY: i64 = 5;
const FIRST_DELAY: Duration = Duration::from_millis(250);
const MAX_DELAY: Duration = Duration::from_secs(8);

/// The Unix time in milliseconds: the limiter's clock.
pub fn unix_ms(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
}

/// What the limiter says of a log-in attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Check the password after waiting this long.
    After(Duration),
    /// Refused: try again in this many seconds.
    Refused(u64),
}

impl Attempt {
    /// Refused for `wait_ms`, told in whole seconds (at least one).
    fn refused_for(wait_ms: i64) -> Self {
        Attempt::Refused(u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000).max(1))
    }
}

/// Counts failed log-ins over a sliding window, in the database (the limits hold across
/// restarts and across instances): per username from one client and per client address,
/// which refuse; per username from everyone, which only slows the attempts down.
pub struct LoginLimiter {
    pool: Pool,
}

impl LoginLimiter {
    pub fn new(pool: Pool) -> Self {
        Self { pool }
    }

    fn username_key(username: &str) -> String {
        format!("user:{}", username.to_lowercase())
    }

    /// The keys that refuse, with their limits.
    fn refusing_keys(username: &str, address: &str) -> [(String, i64); 2] {
        [
            (format!("client:{address}:{}", username.to_lowercase()), MAX_FAILURES_PER_CLIENT_AND_USERNAME),
            (format!("addr:{address}"), MAX_FAILURES_PER_ADDRESS),
        ]
    }

    fn window_ms() -> i64 {
        i64::try_from(FAILURE_WINDOW.as_millis()).unwrap_or(i64::MAX)
    }

    /// Whether an attempt at `now_ms` goes ahead, and after how long.
    pub async fn check(&self, username: &str, address: &str, now_ms: i64) -> AppResult<Attempt> {
        let since = now_ms - Self::window_ms();
        let mut wait_ms = 0;
        for (key, limit) in Self::refusing_keys(username, address) {
            let (count, oldest) = store::failures_since(&self.pool, &key, since).await?;
            if count >= limit
                && let Some(oldest) = oldest
            {
                wait_ms = wait_ms.max(oldest + Self::window_ms() - now_ms);
            }
        }
        if wait_ms > 0 {
            return Ok(Attempt::refused_for(wait_ms));
        }
        let (failures, _) = store::failures_since(&self.pool, &Self::username_key(username), since).await?;
        let doublings = u32::try_from(failures - FAILURES_BEFORE_DELAY).unwrap_or(0).min(16);
        let delay = if failures < FAILURES_BEFORE_DELAY { Duration::ZERO } else { FIRST_DELAY * 2_u32.pow(doublings) };
        Ok(Attempt::After(delay.min(MAX_DELAY)))
    }

    pub async fn record_failure(&self, username: &str, address: &str, now_ms: i64) -> AppResult<()> {
        let mut keys = Self::refusing_keys(username, address).map(|(key, _)| key).to_vec();
        keys.push(Self::username_key(username));
        store::record_failures(&self.pool, &keys, now_ms, now_ms - Self::window_ms()).await
    }

    /// Whether a sign-up from `address` at `now_ms` may go ahead: at most `per_hour` in an
    /// hour (counted in the same table as failed log-ins, under their own key).
    pub async fn check_signup(&self, address: &str, now_ms: i64, per_hour: u32) -> AppResult<Attempt> {
        let since = now_ms - SIGNUP_WINDOW_MS;
        let (count, oldest) = store::failures_since(&self.pool, &Self::signup_key(address), since).await?;
        Ok(match oldest.filter(|_| count >= i64::from(per_hour)) {
            Some(oldest) => Attempt::refused_for(oldest + SIGNUP_WINDOW_MS - now_ms),
            None => Attempt::After(Duration::ZERO),
        })
    }

    pub async fn record_signup(&self, address: &str, now_ms: i64) -> AppResult<()> {
        store::record_failures(&self.pool, &[Self::signup_key(address)], now_ms, now_ms - SIGNUP_WINDOW_MS).await
    }

    fn signup_key(address: &str) -> String {
        format!("signup:{address}")
    }

    /// The right password from `address`: that client's failures on the username, and the
    /// username's slowing down, are forgotten.
    pub async fn clear_username(&self, username: &str, address: &str) -> AppResult<()> {
        let [(client_key, _), _] = Self::refusing_keys(username, address);
        store::forget_failures(&self.pool, &client_key).await?;
        store::forget_failures(&self.pool, &Self::username_key(username)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn limiter(dir: &tempfile::TempDir) -> LoginLimiter {
        LoginLimiter::new(crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap())
    }

    #[tokio::test]
    async fn five_failures_refuse_that_client_and_only_slow_the_username_down_for_others() {
        let dir = tempfile::tempdir().unwrap();
        let limiter = limiter(&dir).await;
        let start = unix_ms(SystemTime::now());
        for _ in 0..MAX_FAILURES_PER_CLIENT_AND_USERNAME {
            assert_eq!(limiter.check("Ada", "1.2.3.4", start).await.unwrap(), Attempt::After(Duration::ZERO));
            limiter.record_failure("Ada", "1.2.3.4", start).await.unwrap();
        }
        assert_eq!(limiter.check("ada", "1.2.3.4", start).await.unwrap(), Attempt::Refused(900), "fifteen minutes");
        assert_eq!(
            limiter.check("ada", "5.6.7.8", start).await.unwrap(),
            Attempt::After(FIRST_DELAY),
            "another client may still try, slowed down: no lockout by strangers"
        );
        assert_eq!(limiter.check("grace", "5.6.7.8", start).await.unwrap(), Attempt::After(Duration::ZERO));
        let later = start + LoginLimiter::window_ms();
        assert_eq!(limiter.check("ada", "1.2.3.4", later).await.unwrap(), Attempt::After(Duration::ZERO), "it slides");

        // Kept in the database: another instance (or a restart) counts the same failures.
        let elsewhere = LoginLimiter::new(limiter.pool.clone());
        assert!(matches!(elsewhere.check("ada", "1.2.3.4", start).await.unwrap(), Attempt::Refused(_)));
        limiter.clear_username("ADA", "1.2.3.4").await.unwrap();
        assert_eq!(elsewhere.check("ada", "1.2.3.4", start).await.unwrap(), Attempt::After(Duration::ZERO));
    }

    #[tokio::test]
    async fn the_slowing_down_doubles_up_to_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let limiter = limiter(&dir).await;
        let now = unix_ms(SystemTime::now());
        for n in 0..12 {
            limiter.record_failure("ada", &format!("10.0.0.{n}"), now).await.unwrap();
        }
        // Twelve failures, seven past the first five: 250 ms doubled seven times, capped.
        assert_eq!(limiter.check("ada", "10.9.9.9", now).await.unwrap(), Attempt::After(MAX_DELAY));
    }

    #[tokio::test]
    async fn limiter_blocks_an_address_trying_many_usernames() {
        let dir = tempfile::tempdir().unwrap();
        let limiter = limiter(&dir).await;
        let now = unix_ms(SystemTime::now());
        for index in 0..MAX_FAILURES_PER_ADDRESS {
            limiter.record_failure(&format!("user{index}"), "9.9.9.9", now).await.unwrap();
        }
        assert!(matches!(limiter.check("someone-new", "9.9.9.9", now).await.unwrap(), Attempt::Refused(_)));
        assert_eq!(limiter.check("someone-new", "8.8.8.8", now).await.unwrap(), Attempt::After(Duration::ZERO));
    }

    #[test]
    fn cookies_and_bearers() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, "theme=dark; palaver_session=abc123; other=1".parse().unwrap());
        assert_eq!(session_secret(&headers), Some("abc123"));
        headers.insert(header::AUTHORIZATION, "Bearer pvr_xyz".parse().unwrap());
        assert_eq!(bearer(&headers), Some("pvr_xyz"));
        assert_eq!(
            session_cookie("s", Duration::from_secs(60), true),
            "palaver_session=s; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure"
        );
    }
}
