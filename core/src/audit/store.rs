//! The audit trail's tables: an entry appended to its owner's chain in the transaction that ends
//! an ask, pages of entries read back newest first, and the chains' heads and signatures.

use super::chain::{ChainedEntry, Head, SignedHead, actor_digest};
use crate::db::{Backend, Pool, Tx};
use crate::error::AppResult;
use palaver_wire::audit::{AuditEntry, AuditPage, Decider};

/// What ended, and how (beside who decided).
pub struct Ending<'a> {
    pub history_id: &'a str,
    pub tool_call_id: &'a str,
    pub kind: &'a str,
    pub origin: Option<&'a str>,
    pub tool_name: Option<&'a str>,
    /// `accept`, `decline`, `cancel`, `expired`, `reopened` (an answer undone when its reply
    /// failed), or `withdrawn` (an answer its person took back to change it).
    pub decision: &'a str,
    pub approved: Option<bool>,
    pub reason: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub args_digest: Option<String>,
}

/// Appends the entry to its owner's chain, in the transaction that ends the ask: the owner's
/// head row is bumped first, which orders two instances appending to one chain at once. The head
/// takes the entry's hash from a trigger on the entry's insert (migration 0039).
pub async fn record(tx: &mut Tx<'_>, decider: &Decider, ending: &Ending<'_>) -> AppResult<()> {
    let backend = Backend::of_tx(tx);
    let (chain_owner, chain_seq, prev_hash, created_at): (String, i64, String, String) = sqlx::query_as(&format!(
        "INSERT INTO audit_heads (chain_owner, seq, hash)
         VALUES (COALESCE((SELECT owner_id FROM histories WHERE id = $1), ''), 1, '')
         ON CONFLICT (chain_owner) DO UPDATE SET seq = audit_heads.seq + 1
         RETURNING chain_owner, seq, hash, {}",
        backend.now()
    ))
    .bind(ending.history_id)
    .fetch_one(&mut **tx)
    .await?;
    let mut entry = ChainedEntry {
        id: 0,
        chain_owner,
        chain_seq,
        actor_id: decider.user_id.clone(),
        actor_digest: actor_digest(decider.user_id.as_deref()),
        surface: decider.via.surface().to_owned(),
        token_name: decider.via.token().map(str::to_owned),
        history_id: ending.history_id.to_owned(),
        tool_call_id: ending.tool_call_id.to_owned(),
        kind: ending.kind.to_owned(),
        origin: ending.origin.map(str::to_owned),
        tool_name: ending.tool_name.map(str::to_owned),
        decision: ending.decision.to_owned(),
        approved: ending.approved,
        reason: ending.reason.map(str::to_owned),
        scope: ending.scope.map(str::to_owned),
        args_digest: ending.args_digest.clone(),
        created_at,
        prev_hash,
        entry_hash: String::new(),
    };
    entry.entry_hash = entry.computed_hash();
    sqlx::query(
        "INSERT INTO ask_audit (owner_id, actor_id, surface, token_name, history_id, tool_call_id, kind, origin,
                                tool_name, decision, approved, reason, scope, args_digest, created_at,
                                chain_owner, chain_seq, actor_digest, prev_hash, entry_hash)
         VALUES (NULLIF($1, ''), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $1, $16, $17, $18, $19)",
    )
    .bind(&entry.chain_owner)
    .bind(entry.actor_id.as_deref())
    .bind(&entry.surface)
    .bind(entry.token_name.as_deref())
    .bind(&entry.history_id)
    .bind(&entry.tool_call_id)
    .bind(&entry.kind)
    .bind(entry.origin.as_deref())
    .bind(entry.tool_name.as_deref())
    .bind(&entry.decision)
    .bind(entry.approved.map(i64::from))
    .bind(entry.reason.as_deref())
    .bind(entry.scope.as_deref())
    .bind(entry.args_digest.as_deref())
    .bind(&entry.created_at)
    .bind(entry.chain_seq)
    .bind(&entry.actor_digest)
    .bind(&entry.prev_hash)
    .bind(&entry.entry_hash)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Appends an entry in a transaction of its own: an ending nothing else is written with.
pub async fn record_alone(pool: &Pool, decider: &Decider, ending: &Ending<'_>) -> AppResult<()> {
    let mut tx = crate::db::begin(pool).await?;
    record(&mut tx, decider, ending).await?;
    tx.commit().await?;
    Ok(())
}

/// The columns of an entry as [`ChainedRow`] reads them.
const CHAINED_COLUMNS: &str = "id, COALESCE(chain_owner, COALESCE(owner_id, '')) AS chain_owner,
    COALESCE(chain_seq, 0) AS chain_seq, actor_id, COALESCE(actor_digest, '') AS actor_digest, surface, token_name,
    history_id, tool_call_id, kind, origin, tool_name, decision, approved, reason, scope, args_digest, created_at,
    COALESCE(prev_hash, '') AS prev_hash, COALESCE(entry_hash, '') AS entry_hash";

#[derive(sqlx::FromRow)]
struct ChainedRow {
    id: i64,
    chain_owner: String,
    chain_seq: i64,
    actor_id: Option<String>,
    actor_digest: String,
    surface: String,
    token_name: Option<String>,
    history_id: String,
    tool_call_id: String,
    kind: String,
    origin: Option<String>,
    tool_name: Option<String>,
    decision: String,
    approved: Option<i64>,
    reason: Option<String>,
    scope: Option<String>,
    args_digest: Option<String>,
    created_at: String,
    prev_hash: String,
    entry_hash: String,
}

impl From<ChainedRow> for ChainedEntry {
    fn from(row: ChainedRow) -> Self {
        ChainedEntry {
            id: row.id,
            chain_owner: row.chain_owner,
            chain_seq: row.chain_seq,
            actor_id: row.actor_id,
            actor_digest: row.actor_digest,
            surface: row.surface,
            token_name: row.token_name,
            history_id: row.history_id,
            tool_call_id: row.tool_call_id,
            kind: row.kind,
            origin: row.origin,
            tool_name: row.tool_name,
            decision: row.decision,
            approved: row.approved.map(|approved| approved != 0),
            reason: row.reason,
            scope: row.scope,
            args_digest: row.args_digest,
            created_at: row.created_at,
            prev_hash: row.prev_hash,
            entry_hash: row.entry_hash,
        }
    }
}

/// Chains the entries written before the chain existed, oldest first, each in a transaction of
/// its own (an instance starting beside this one skips what this one chained); how many.
pub async fn chain_unchained(pool: &Pool) -> AppResult<u64> {
    let mut chained = 0;
    loop {
        let rows: Vec<ChainedRow> = sqlx::query_as(&format!(
            "SELECT {CHAINED_COLUMNS} FROM ask_audit WHERE chain_seq IS NULL ORDER BY id LIMIT 100"
        ))
        .fetch_all(pool)
        .await?;
        if rows.is_empty() {
            return Ok(chained);
        }
        for row in rows {
            let mut tx = crate::db::begin(pool).await?;
            let mut entry = ChainedEntry::from(row);
            let (seq, prev_hash): (i64, String) = sqlx::query_as(
                "INSERT INTO audit_heads (chain_owner, seq, hash) VALUES ($1, 1, '')
                 ON CONFLICT (chain_owner) DO UPDATE SET seq = audit_heads.seq + 1 RETURNING seq, hash",
            )
            .bind(&entry.chain_owner)
            .fetch_one(&mut *tx)
            .await?;
            (entry.chain_seq, entry.prev_hash) = (seq, prev_hash);
            entry.actor_digest = actor_digest(entry.actor_id.as_deref());
            entry.entry_hash = entry.computed_hash();
            let sealed = sqlx::query(
                "UPDATE ask_audit SET chain_owner = $2, chain_seq = $3, actor_digest = $4, prev_hash = $5, entry_hash = $6
                 WHERE id = $1 AND chain_seq IS NULL",
            )
            .bind(entry.id)
            .bind(&entry.chain_owner)
            .bind(entry.chain_seq)
            .bind(&entry.actor_digest)
            .bind(&entry.prev_hash)
            .bind(&entry.entry_hash)
            .execute(&mut *tx)
            .await?;
            // Sealed, the entry's hash is its chain's head (a trigger, migration 0039).
            if sealed.rows_affected() == 1 {
                tx.commit().await?;
                chained += 1;
            }
        }
    }
}

/// Every chained entry of `chain_owner`'s chain, or of every chain.
pub async fn chained_entries(pool: &Pool, chain_owner: Option<&str>) -> AppResult<Vec<ChainedEntry>> {
    let rows: Vec<ChainedRow> =
        match chain_owner {
            Some(owner) => {
                sqlx::query_as(&format!(
                    "SELECT {CHAINED_COLUMNS} FROM ask_audit WHERE chain_owner = $1 ORDER BY chain_seq"
                ))
                .bind(owner)
                .fetch_all(pool)
                .await?
            }
            None => sqlx::query_as(&format!(
                "SELECT {CHAINED_COLUMNS} FROM ask_audit WHERE chain_seq IS NOT NULL ORDER BY chain_owner, chain_seq"
            ))
            .fetch_all(pool)
            .await?,
        };
    Ok(rows.into_iter().map(ChainedEntry::from).collect())
}

/// How many entries wait to be chained (written before the chain, not yet sealed).
pub async fn unchained_count(pool: &Pool) -> AppResult<i64> {
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM ask_audit WHERE chain_seq IS NULL").fetch_one(pool).await?;
    Ok(count)
}

/// Every chain's head, or `chain_owner`'s.
pub async fn heads(pool: &Pool, chain_owner: Option<&str>) -> AppResult<Vec<Head>> {
    let rows: Vec<(String, i64, String)> = sqlx::query_as(
        "SELECT chain_owner, seq, hash FROM audit_heads WHERE COALESCE($1, chain_owner) = chain_owner ORDER BY chain_owner",
    )
    .bind(chain_owner)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(chain_owner, seq, hash)| Head { chain_owner, seq, hash }).collect())
}

/// Every signature of every chain's head, or of `chain_owner`'s.
pub async fn signatures(pool: &Pool, chain_owner: Option<&str>) -> AppResult<Vec<SignedHead>> {
    let rows: Vec<(String, i64, String, String, String)> = sqlx::query_as(
        "SELECT chain_owner, seq, hash, public_key, signature FROM audit_signatures
         WHERE COALESCE($1, chain_owner) = chain_owner ORDER BY chain_owner, seq, id",
    )
    .bind(chain_owner)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(chain_owner, seq, hash, public_key, signature)| SignedHead {
            chain_owner,
            seq,
            hash,
            public_key,
            signature,
        })
        .collect())
}

/// The heads `public_key` has not signed at their current position.
pub async fn unsigned_heads(pool: &Pool, public_key: &str) -> AppResult<Vec<Head>> {
    let rows: Vec<(String, i64, String)> = sqlx::query_as(
        "SELECT h.chain_owner, h.seq, h.hash FROM audit_heads h
         WHERE h.hash <> '' AND h.seq > COALESCE(
             (SELECT MAX(s.seq) FROM audit_signatures s WHERE s.chain_owner = h.chain_owner AND s.public_key = $1), 0)",
    )
    .bind(public_key)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(chain_owner, seq, hash)| Head { chain_owner, seq, hash }).collect())
}

pub async fn add_signature(pool: &Pool, signed: &SignedHead) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO audit_signatures (chain_owner, seq, hash, public_key, signature) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&signed.chain_owner)
    .bind(signed.seq)
    .bind(&signed.hash)
    .bind(&signed.public_key)
    .bind(&signed.signature)
    .execute(pool)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct EntryRow {
    id: i64,
    created_at: String,
    history_id: String,
    owner: Option<String>,
    actor: Option<String>,
    surface: String,
    token_name: Option<String>,
    tool_call_id: String,
    kind: String,
    origin: Option<String>,
    tool_name: Option<String>,
    decision: String,
    approved: Option<i64>,
    reason: Option<String>,
    scope: Option<String>,
    args_digest: Option<String>,
}

/// Up to `limit` entries older than `before`: of the conversations of `owner`, or of everyone.
pub async fn page(pool: &Pool, owner: Option<&str>, before: Option<i64>, limit: i64) -> AppResult<AuditPage> {
    let mut rows: Vec<EntryRow> = sqlx::query_as(
        "SELECT a.id, a.created_at, a.history_id, owner.username AS owner, actor.username AS actor, a.surface,
                a.token_name, a.tool_call_id, a.kind, a.origin, a.tool_name, a.decision, a.approved, a.reason,
                a.scope, a.args_digest
         FROM ask_audit a
         LEFT JOIN users owner ON owner.id = a.owner_id
         LEFT JOIN users actor ON actor.id = a.actor_id
         WHERE ($1 IS NULL OR a.owner_id = $1) AND ($2 IS NULL OR a.id < $2)
         ORDER BY a.id DESC
         LIMIT $3",
    )
    .bind(owner)
    .bind(before)
    .bind(limit + 1)
    .fetch_all(pool)
    .await?;
    let more = rows.len() > usize::try_from(limit).unwrap_or(usize::MAX);
    rows.truncate(usize::try_from(limit).unwrap_or(0));
    let next_before = more.then(|| rows.last().map(|row| row.id)).flatten();
    let entries = rows
        .into_iter()
        .map(|row| AuditEntry {
            id: row.id,
            created: row.created_at,
            history_id: row.history_id,
            owner: row.owner.unwrap_or_default(),
            actor: row.actor,
            surface: row.surface,
            token_name: row.token_name,
            tool_call_id: row.tool_call_id,
            kind: row.kind,
            origin: row.origin,
            tool_name: row.tool_name,
            decision: row.decision,
            approved: row.approved.map(|approved| approved != 0),
            reason: row.reason,
            scope: row.scope,
            args_digest: row.args_digest,
        })
        .collect();
    Ok(AuditPage { entries, next_before })
}
