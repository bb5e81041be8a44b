-- The audit trail as a hash chain per owner (issue 44): each entry keeps its place in its owner's
-- chain, the previous entry's hash and its own, over its fields; the actor is committed to by its
-- digest, so erasing a deleted account's id (actor_id set to NULL) leaves the chain whole.
-- Entries written before this migration are chained when Palaver starts.
ALTER TABLE ask_audit ADD COLUMN chain_owner TEXT;
ALTER TABLE ask_audit ADD COLUMN chain_seq INTEGER;
ALTER TABLE ask_audit ADD COLUMN actor_digest TEXT;
ALTER TABLE ask_audit ADD COLUMN prev_hash TEXT;
ALTER TABLE ask_audit ADD COLUMN entry_hash TEXT;
CREATE UNIQUE INDEX ask_audit_chain ON ask_audit (chain_owner, chain_seq);

-- Each chain's newest entry: its row is the lock that orders two instances appending at once.
CREATE TABLE audit_heads (
    chain_owner TEXT PRIMARY KEY NOT NULL,
    seq         INTEGER NOT NULL,
    hash        TEXT NOT NULL
);

-- A chain's head signed with an instance's Ed25519 key (base64url public key and signature).
CREATE TABLE audit_signatures (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_owner TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    hash        TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    signature   TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX audit_signatures_by_chain ON audit_signatures (chain_owner, seq);
