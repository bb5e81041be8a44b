-- Approval grants ("Allow in this conversation", "Always allow <tool>") and the record of each
-- approved call that ran: its idempotency key is unique, so an approval replayed, retried or
-- raced runs its call at most once.
CREATE TABLE approval_grants (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    tool_name  TEXT NOT NULL,
    scope      TEXT NOT NULL CHECK (scope IN ('conversation', 'always')),
    -- The conversation a conversation grant holds in; NULL for an always grant.
    history_id TEXT REFERENCES histories (id),
    created_at TEXT NOT NULL DEFAULT palaver_now(),
    revoked_at TEXT,
    CHECK ((scope = 'conversation') = (history_id IS NOT NULL))
);

CREATE INDEX approval_grants_by_user ON approval_grants (user_id, tool_name);

CREATE TABLE approved_runs (
    -- `<history id>/<tool call id>`.
    idempotency_key TEXT PRIMARY KEY NOT NULL,
    tool_name       TEXT NOT NULL,
    -- SHA-256 of the arguments the approval was asked for and the run used.
    args_digest     TEXT NOT NULL,
    created_at      TEXT NOT NULL DEFAULT palaver_now()
);
