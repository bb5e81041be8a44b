//! How guessable a new password is, by zxcvbn (Dropbox's estimator, in its Rust port): one a
//! cracker would find within about ten billion guesses is refused, with zxcvbn's own advice.

use zxcvbn::{Score, zxcvbn};

use crate::error::{AppError, AppResult, Error};

/// The least score a new password needs: 3 of 4, "safely unguessable" (zxcvbn's words).
const MIN_SCORE: Score = Score::Three;

/// Refuses a `password` that is easy to guess, for `username` (whose name, in any form, makes
/// it easier). The estimate is CPU work: off the async workers.
pub async fn check_strength(password: &str, username: &str) -> AppResult<()> {
    let (password, username) = (password.to_string(), username.to_string());
    tokio::task::spawn_blocking(move || too_easy(&password, &username))
        .await
        .map_err(|err| Error::internal(err))?
        .map_or(Ok(()), |why| Err(AppError::BadRequest(why).into()))
}

/// Why `password` is too easy to guess, if it is.
fn too_easy(password: &str, username: &str) -> Option<String> {
    let estimate = zxcvbn(password, &[username]);
    if estimate.score() >= MIN_SCORE {
        return None;
    }
    let mut why = vec!["This password is too easy to guess.".to_string()];
    if let Some(feedback) = estimate.feedback() {
        why.extend(feedback.warning().map(|warning| warning.to_string()));
        why.extend(feedback.suggestions().iter().map(ToString::to_string));
    }
    Some(why.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_common_password_or_one_made_of_the_username_is_refused_with_advice() {
        let common = too_easy("password1234", "ada").expect("refused");
        assert!(common.starts_with("This password is too easy to guess. This is a very common password."), "{common}");
        assert!(too_easy("ada-lovelace-ada", "ada-lovelace").is_some(), "the username, twice");
        assert!(too_easy("qwertyuiop12", "ada").is_some(), "a keyboard row");
    }

    #[test]
    fn long_passphrases_pass() {
        for password in ["correct horse battery", "a fresh member passphrase", "Tr0ub4dor&3 and then some"] {
            assert_eq!(too_easy(password, "ada"), None, "{password}");
        }
    }
}
