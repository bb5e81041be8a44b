//! Answer links: the single-use capabilities that answer one ask with one button from outside
//! the chat — a push notification's action (`POST /push/answer`) or a mail's link
//! (`/mail/answer/{token}`). A capability is 256 random bits, base64url; only its SHA-256 is
//! stored, so the table alone answers nothing. Each is bound to its ask, its button, its
//! person and the surface it was issued for (a push's token does not work as a mail link, nor
//! the other way), and expires with its ask.

mod store;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use crate::db::Pool;
use crate::error::{AppResult, Error};

/// The length of a capability's text: 32 bytes in base64url without padding.
const TOKEN_LENGTH: usize = 43;

/// Where a capability was issued, and so the only place it answers (and what the audit
/// trail names as the surface of its answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Push,
    Mail,
}

impl Surface {
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Push => "push",
            Surface::Mail => "mail",
        }
    }
}

/// A capability as minted: the token the push or mail carries and the hash the table keeps.
pub struct Capability {
    pub token: String,
    pub hash: String,
}

impl Capability {
    pub fn mint() -> AppResult<Self> {
        let mut bytes = [0_u8; 32];
        getrandom::fill(&mut bytes).map_err(|err| Error::internal(format!("no randomness available: {err}")))?;
        let token = URL_SAFE_NO_PAD.encode(bytes);
        let hash = hash_text(&token);
        Ok(Self { token, hash })
    }
}

fn hash_text(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The hash a token is stored under; `None` for text that no capability could be (truncated,
/// padded, not base64url), which is refused without a look-up.
pub fn token_hash(token: &str) -> Option<String> {
    let well_formed = token.len() == TOKEN_LENGTH && URL_SAFE_NO_PAD.decode(token).is_ok_and(|bytes| bytes.len() == 32);
    well_formed.then(|| hash_text(token))
}

/// Whether two hashes are equal, in time that does not depend on where they differ.
pub fn same_hash(stored: &str, presented: &str) -> bool {
    let (stored, presented) = (stored.as_bytes(), presented.as_bytes());
    stored.len() == presented.len() && stored.iter().zip(presented).fold(0, |differ, (a, b)| differ | (a ^ b)) == 0
}

/// What a presented capability turned out to be.
#[derive(Debug, PartialEq)]
pub enum Redeemed {
    /// No capability of this surface is stored by it: forged, truncated, issued for the other
    /// surface, or pruned long after its ask.
    Unknown,
    /// Used once already.
    Used,
    /// Its ask's deadline has passed.
    Ended,
    /// Now used ([`redeem`]) or still usable ([`look`]): the one answer it may give.
    Claimed(Claim),
}

/// A capability's one answer.
#[derive(Debug, PartialEq)]
pub struct Claim {
    token_hash: String,
    pub surface: Surface,
    pub user_id: String,
    pub history_id: String,
    pub tool_call_id: String,
    pub button_id: String,
}

/// Stores one ask's capabilities (`(hash, button id)`) for `user_id` through `surface`,
/// valid until `expires_at`.
pub async fn store_links(
    pool: &Pool,
    surface: Surface,
    user_id: &str,
    history_id: &str,
    tool_call_id: &str,
    expires_at: &str,
    links: &[(String, String)],
) -> AppResult<()> {
    store::store_links(pool, surface.as_str(), user_id, history_id, tool_call_id, expires_at, links).await
}

/// Drops the capabilities whose asks ended a day ago or more.
pub async fn prune(pool: &Pool) -> AppResult<()> {
    store::prune_links(pool).await
}

/// What `token` would answer, without using it (a page that shows the answer before it is given).
pub async fn look(pool: &Pool, surface: Surface, token: &str) -> AppResult<Redeemed> {
    let Some(hash) = token_hash(token) else { return Ok(Redeemed::Unknown) };
    let Some(row) = store::link(pool, &hash)
        .await?
        .filter(|row| same_hash(&row.token_hash, &hash) && row.surface == surface.as_str())
    else {
        return Ok(Redeemed::Unknown);
    };
    if row.used == 1 {
        return Ok(Redeemed::Used);
    }
    if row.past_deadline == 1 {
        return Ok(Redeemed::Ended);
    }
    Ok(Redeemed::Claimed(Claim {
        token_hash: row.token_hash,
        surface,
        user_id: row.user_id,
        history_id: row.history_id,
        tool_call_id: row.tool_call_id,
        button_id: row.button_id,
    }))
}

/// Uses a capability, once: the answer it gives (answer with it, or [`release`] it when the
/// answer fails on the server), or why it gives none.
pub async fn redeem(pool: &Pool, surface: Surface, token: &str) -> AppResult<Redeemed> {
    let looked = look(pool, surface, token).await?;
    if let Redeemed::Claimed(claim) = &looked
        && !store::use_link(pool, &claim.token_hash).await?
    {
        return Ok(Redeemed::Used);
    }
    Ok(looked)
}

/// Gives back a capability whose answer failed for a reason of the server's own (not the
/// ask's ending), so the link or button still works.
pub async fn release(pool: &Pool, claim: &Claim) -> AppResult<()> {
    store::release_link(pool, &claim.token_hash).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_refused_unless_whole() {
        let minted = Capability::mint().unwrap();
        assert_eq!(token_hash(&minted.token).as_deref(), Some(minted.hash.as_str()));
        assert!(same_hash(&minted.hash, &token_hash(&minted.token).unwrap()));
        assert_eq!(token_hash(&minted.token[..42]), None, "truncated");
        assert_eq!(token_hash(&format!("{}=", &minted.token[..42])), None, "padded");
        assert_eq!(token_hash(&"!".repeat(43)), None, "not base64url");
        let other = Capability::mint().unwrap();
        assert_ne!(minted.token, other.token);
        assert!(!same_hash(&minted.hash, &other.hash));
        assert!(!same_hash(&minted.hash, &minted.hash[1..]));
    }
}
