//! Account wire types and the rules for usernames and passwords (checked in the browser too).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Role {
    Admin,
    User,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::User => "user",
        }
    }
}

/// Who may sign up on this server now: the pages say it before a form is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SignUpState {
    /// No account yet: the first one may always be made, and becomes the admin.
    FirstAccount,
    Open,
    /// Only an admin makes accounts (`PALAVER_OPEN_SIGNUP` is off).
    Closed,
}

/// A user as the API shows it (never the password hash).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserView {
    pub id: String,
    pub username: String,
    pub role: Role,
    pub created: String,
    /// Disabled by an admin: it cannot log in, and its sessions and tokens are refused.
    #[serde(default)]
    pub disabled: bool,
}

/// An API token as listed: the secret itself is shown only once, when it is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenSummary {
    pub id: String,
    pub name: String,
    pub created: String,
    pub last_used: Option<String>,
    /// When it stops working; none: when it is revoked.
    #[serde(default)]
    pub expires: Option<String>,
}

/// A token just created: `token` is the secret, shown this once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedToken {
    pub id: String,
    pub name: String,
    pub token: String,
}

/// What a new password ended: the account's other sessions, and its API tokens unless the
/// person chose to keep them working.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordOutcome {
    pub sessions_ended: u64,
    pub tokens_revoked: u64,
}

pub const USERNAME_MIN_LENGTH: usize = 3;
pub const USERNAME_MAX_LENGTH: usize = 32;
pub const PASSWORD_MIN_LENGTH: usize = 10;
pub const PASSWORD_MAX_LENGTH: usize = 256;
pub const TOKEN_NAME_MAX_LENGTH: usize = 60;

/// 3–32 letters, digits, `_`, `.` or `-`, starting with a letter or digit.
pub fn check_username(username: &str) -> Result<(), String> {
    let length = username.chars().count();
    let allowed = |ch: char| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-');
    if !(USERNAME_MIN_LENGTH..=USERNAME_MAX_LENGTH).contains(&length) {
        return Err(format!("A username has {USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} characters."));
    }
    if !username.chars().all(allowed) || !username.starts_with(|ch: char| ch.is_ascii_alphanumeric()) {
        return Err("A username uses letters, digits, \"_\", \".\" or \"-\", and starts with a letter or digit.".into());
    }
    Ok(())
}

pub fn check_password(password: &str) -> Result<(), String> {
    let length = password.chars().count();
    if length < PASSWORD_MIN_LENGTH {
        return Err(format!("A password has at least {PASSWORD_MIN_LENGTH} characters."));
    }
    if length > PASSWORD_MAX_LENGTH {
        return Err(format!("A password has at most {PASSWORD_MAX_LENGTH} characters."));
    }
    Ok(())
}

pub fn check_token_name(name: &str) -> Result<(), String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > TOKEN_NAME_MAX_LENGTH {
        return Err(format!("Name the token with 1 to {TOKEN_NAME_MAX_LENGTH} characters, such as \"Watch\"."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        assert!(check_username("ada").is_ok());
        assert!(check_username("Ada.Lovelace_1815").is_ok());
        assert!(check_username("ab").is_err());
        assert!(check_username("-ada").is_err());
        assert!(check_username("ada lovelace").is_err());
        assert!(check_username(&"a".repeat(33)).is_err());
    }

    #[test]
    fn passwords() {
        assert!(check_password("correct horse").is_ok());
        assert!(check_password("short").is_err());
        assert!(check_password(&"x".repeat(257)).is_err());
    }
}

/// What a deletion removed, as the API reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeletedAccount {
    pub deleted: bool,
    pub conversations: u64,
    pub files: u64,
}
