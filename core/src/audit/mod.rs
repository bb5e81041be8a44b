//! The audit trail of asks: every ending of an ask or an approval, written in the transaction
//! that ends the ask, so there is exactly one per ending (the entries as the client sees them
//! are in `palaver_wire::audit`). Each owner's entries form a hash chain whose head each
//! instance signs once a minute ([`chain`], [`signing`]); `palaver audit verify` checks them.

pub mod chain;
pub mod signing;
pub mod store;

use std::sync::Arc;
use std::time::Duration;

use crate::db::Pool;
use crate::error::AppResult;
use signing::AuditKey;

/// How often an instance signs the heads that moved.
pub const SIGN_EVERY: Duration = Duration::from_secs(60);

/// Signs every head that moved since `key` last signed it; how many.
pub async fn sign_heads(pool: &Pool, key: &AuditKey) -> AppResult<usize> {
    let heads = store::unsigned_heads(pool, key.public_key()).await?;
    for head in heads.iter().cloned() {
        let signature = key.sign(&head.chain_owner, head.seq, &head.hash);
        let chain::Head { chain_owner, seq, hash } = head;
        let signed = chain::SignedHead { chain_owner, seq, hash, public_key: key.public_key().to_owned(), signature };
        store::add_signature(pool, &signed).await?;
    }
    Ok(heads.len())
}

/// Chains what was written before the chain, then signs the heads every `every` until the pool
/// closes.
pub fn spawn_signer(pool: Pool, key: Arc<AuditKey>, every: Duration) {
    tokio::spawn(async move {
        match store::chain_unchained(&pool).await {
            Ok(0) => {}
            Ok(chained) => tracing::info!(chained, "audit entries written before the chain are chained"),
            Err(err) => tracing::warn!(?err, "the audit entries written before the chain were not chained"),
        }
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        while !pool.is_closed() {
            tick.tick().await;
            if let Err(err) = sign_heads(&pool, &key).await {
                tracing::warn!(?err, "the audit chains' heads were not signed");
            }
        }
    });
}

/// SHA-256 (hex) of a call's arguments as canonical JSON: keys sorted (`serde_json`'s maps
/// are), no spaces. The approval's audit entry and the run's record both carry it.
pub fn args_digest(input: &serde_json::Value) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(serde_json::to_string(input).unwrap_or_default().as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_of_canonical_json_whatever_the_key_order() {
        let one: serde_json::Value = serde_json::from_str(r#"{"b": [1, {"d": 2, "c": 3}], "a": "x"}"#).unwrap();
        let other: serde_json::Value = serde_json::from_str(r#"{"a":"x","b":[1,{"c":3,"d":2}]}"#).unwrap();
        assert_eq!(args_digest(&one), args_digest(&other));
        // sha256 of `{"a":"x","b":[1,{"c":3,"d":2}]}`
        assert_eq!(args_digest(&one), "4bc2f0faf907fa5fdaedde9cbf7002e3cbf041208b96a4ab4ce6693fbf4bea67");
    }
}
