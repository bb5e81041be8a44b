//! The audit trail as a hash chain per owner: each entry's hash covers its fields, its place in
//! its owner's chain and the previous entry's hash, so an entry edited, deleted or moved after it
//! was written no longer fits; each chain's head is signed now and then ([`super::signing`]), so
//! a chain rewritten whole does not fit its signatures. [`verify`] checks all of it, for the
//! database (`palaver audit verify`) and for an export (`--file`) alike.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::signing;

/// One entry, as the chain covers it and as the export writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainedEntry {
    /// The row's id: names the entry, and is not covered (an export may be read anywhere).
    pub id: i64,
    /// Whose chain: the conversation's owner's id (empty for none).
    pub chain_owner: String,
    /// Its place in that chain, from 1.
    pub chain_seq: i64,
    /// Who decided, as the database has it now (not covered: erased when their account is
    /// deleted); [`ChainedEntry::actor_digest`] is what the chain holds of them.
    pub actor_id: Option<String>,
    pub actor_digest: String,
    pub surface: String,
    pub token_name: Option<String>,
    pub history_id: String,
    pub tool_call_id: String,
    pub kind: String,
    pub origin: Option<String>,
    pub tool_name: Option<String>,
    pub decision: String,
    pub approved: Option<bool>,
    pub reason: Option<String>,
    pub scope: Option<String>,
    pub args_digest: Option<String>,
    pub created_at: String,
    pub prev_hash: String,
    pub entry_hash: String,
}

/// What an entry's hash is taken over, in this order.
#[derive(Serialize)]
struct Covered<'a> {
    chain_owner: &'a str,
    chain_seq: i64,
    actor_digest: &'a str,
    surface: &'a str,
    token_name: Option<&'a str>,
    history_id: &'a str,
    tool_call_id: &'a str,
    kind: &'a str,
    origin: Option<&'a str>,
    tool_name: Option<&'a str>,
    decision: &'a str,
    approved: Option<bool>,
    reason: Option<&'a str>,
    scope: Option<&'a str>,
    args_digest: Option<&'a str>,
    created_at: &'a str,
    prev_hash: &'a str,
}

fn hex_sha256(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// What the chain holds of who decided: a digest of their id, or nothing for Palaver itself.
pub fn actor_digest(actor_id: Option<&str>) -> String {
    actor_id.map(|id| hex_sha256(format!("palaver audit actor\n{id}").as_bytes())).unwrap_or_default()
}

impl ChainedEntry {
    /// The hash the entry's fields (its `entry_hash` aside) give.
    pub fn computed_hash(&self) -> String {
        let covered = Covered {
            chain_owner: &self.chain_owner,
            chain_seq: self.chain_seq,
            actor_digest: &self.actor_digest,
            surface: &self.surface,
            token_name: self.token_name.as_deref(),
            history_id: &self.history_id,
            tool_call_id: &self.tool_call_id,
            kind: &self.kind,
            origin: self.origin.as_deref(),
            tool_name: self.tool_name.as_deref(),
            decision: &self.decision,
            approved: self.approved,
            reason: self.reason.as_deref(),
            scope: self.scope.as_deref(),
            args_digest: self.args_digest.as_deref(),
            created_at: &self.created_at,
            prev_hash: &self.prev_hash,
        };
        // A struct of strings, numbers and booleans always serializes.
        hex_sha256(&serde_json::to_vec(&covered).unwrap_or_default())
    }
}

/// A chain's newest entry, as the database keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Head {
    pub chain_owner: String,
    pub seq: i64,
    pub hash: String,
}

/// A chain's head as an instance signed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignedHead {
    pub chain_owner: String,
    pub seq: i64,
    pub hash: String,
    /// The signing key's public half, base64url.
    pub public_key: String,
    pub signature: String,
}

/// One line of an export (JSON lines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExportLine {
    Entry(Box<ChainedEntry>),
    Head(Head),
    Signature(SignedHead),
}

/// What a check found whole.
#[derive(Debug, PartialEq, Eq)]
pub struct Verified {
    pub entries: usize,
    pub chains: usize,
    pub signatures: usize,
    /// Entries newer than their chain's last signature (signed at the next interval).
    pub unsigned: usize,
}

/// The first thing that does not fit, in words that name it.
#[derive(Debug, PartialEq, Eq)]
pub struct Broken(pub String);

/// Checks `entries` (every chain's, in any order), the database's `heads` when it has them, and
/// `signatures`, trusting the keys in `trusted` only.
pub fn verify(
    mut entries: Vec<ChainedEntry>,
    heads: Option<&[Head]>,
    signatures: &[SignedHead],
    trusted: &[String],
) -> Result<Verified, Broken> {
    entries.sort_by(|a, b| (&a.chain_owner, a.chain_seq).cmp(&(&b.chain_owner, b.chain_seq)));
    let mut newest: std::collections::BTreeMap<&str, &ChainedEntry> = Default::default();
    for (index, entry) in entries.iter().enumerate() {
        let chain = chain_name(&entry.chain_owner);
        let previous = index.checked_sub(1).map(|at| &entries[at]).filter(|p| p.chain_owner == entry.chain_owner);
        let (expected_seq, expected_prev) = previous.map_or((1, ""), |p| (p.chain_seq + 1, p.entry_hash.as_str()));
        if entry.chain_seq != expected_seq {
            return Err(Broken(format!(
                "Entry {} is at position {} of {chain}, where position {expected_seq} should be: an entry before it was deleted or moved.",
                entry.id, entry.chain_seq
            )));
        }
        if entry.prev_hash != expected_prev {
            return Err(Broken(format!(
                "Entry {} (position {} of {chain}) does not follow the entry before it: entries were moved or replaced.",
                entry.id, entry.chain_seq
            )));
        }
        if entry.computed_hash() != entry.entry_hash {
            return Err(Broken(format!(
                "Entry {} (position {} of {chain}) was changed after it was written: its contents do not match its hash.",
                entry.id, entry.chain_seq
            )));
        }
        if let Some(actor) = &entry.actor_id
            && actor_digest(Some(actor)) != entry.actor_digest
        {
            return Err(Broken(format!(
                "Entry {} (position {} of {chain}) names another person than the one who decided.",
                entry.id, entry.chain_seq
            )));
        }
        newest.insert(&entry.chain_owner, entry);
    }
    if let Some(heads) = heads {
        for head in heads {
            let last = newest.get(head.chain_owner.as_str());
            if last.map(|entry| (entry.chain_seq, entry.entry_hash.as_str())) != Some((head.seq, head.hash.as_str())) {
                let kept = last.map_or(0, |entry| entry.chain_seq);
                return Err(Broken(format!(
                    "{} ends at position {kept}, but it reached position {}: its newest entries were deleted.",
                    capitalized(&chain_name(&head.chain_owner)),
                    head.seq
                )));
            }
        }
    }
    let mut signed_up_to: std::collections::BTreeMap<&str, i64> = Default::default();
    for signed in signatures {
        let chain = chain_name(&signed.chain_owner);
        if !trusted.contains(&signed.public_key) {
            return Err(Broken(format!(
                "A signature of {chain} (position {}) was made with a key this check does not trust ({}): pass it with --trust if it is one of your instances'.",
                signed.seq, signed.public_key
            )));
        }
        if !signing::signature_holds(
            &signed.public_key,
            &signed.signature,
            &signed.chain_owner,
            signed.seq,
            &signed.hash,
        ) {
            return Err(Broken(format!("A signature of {chain} (position {}) is not valid.", signed.seq)));
        }
        let entry =
            entries.iter().find(|entry| entry.chain_owner == signed.chain_owner && entry.chain_seq == signed.seq);
        match entry {
            Some(entry) if entry.entry_hash == signed.hash => {}
            Some(entry) => {
                return Err(Broken(format!(
                    "Entry {} (position {} of {chain}) is not the one that was signed: the chain was rewritten.",
                    entry.id, entry.chain_seq
                )));
            }
            None => {
                return Err(Broken(format!(
                    "Position {} of {chain} was signed, but no entry is there: it was deleted.",
                    signed.seq
                )));
            }
        }
        let up_to = signed_up_to.entry(&signed.chain_owner).or_default();
        *up_to = (*up_to).max(signed.seq);
    }
    let unsigned = entries
        .iter()
        .filter(|entry| entry.chain_seq > signed_up_to.get(entry.chain_owner.as_str()).copied().unwrap_or(0))
        .count();
    Ok(Verified { entries: entries.len(), chains: newest.len(), signatures: signatures.len(), unsigned })
}

fn chain_name(owner: &str) -> String {
    if owner.is_empty() { "the chain of conversations without an owner".into() } else { format!("{owner}'s chain") }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
