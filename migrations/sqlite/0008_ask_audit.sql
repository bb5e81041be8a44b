-- The audit trail of asks: one entry per ending of an ask or approval, appended in the same
-- transaction as the ending. `actor_id` is NULL for Palaver's own endings (an expiry, a stop,
-- a server withdrawing its question). Entries are never changed or deleted.
CREATE TABLE ask_audit (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     TEXT,
    actor_id     TEXT,
    -- web | watch | api | palaver; token_name names the API token.
    surface      TEXT NOT NULL,
    token_name   TEXT,
    history_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    kind         TEXT NOT NULL,
    origin       TEXT,
    tool_name    TEXT,
    -- accept | decline | cancel | expired | reopened
    decision     TEXT NOT NULL,
    approved     INTEGER,
    reason       TEXT,
    scope        TEXT,
    -- SHA-256 (hex) of the guarded call's arguments as canonical JSON, for approvals.
    args_digest  TEXT,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX ask_audit_by_owner ON ask_audit (owner_id, id);
