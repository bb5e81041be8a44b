-- Grants narrower than a whole tool: what they cover of each argument (JSON patterns; NULL: any
-- arguments), when they run out, how many calls they ran, and a scope for the rest of one turn.
-- SQLite cannot change a CHECK, so the table is made again with its rows.
CREATE TABLE approval_grants_next (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    tool_name  TEXT NOT NULL,
    scope      TEXT NOT NULL CHECK (scope IN ('turn', 'conversation', 'always')),
    -- The conversation a turn or conversation grant holds in; NULL for an always grant.
    history_id TEXT REFERENCES histories (id),
    arguments  TEXT,
    expires_at TEXT,
    uses       INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at TEXT,
    CHECK ((scope IN ('turn', 'conversation')) = (history_id IS NOT NULL))
);

INSERT INTO approval_grants_next (id, user_id, tool_name, scope, history_id, created_at, revoked_at)
SELECT id, user_id, tool_name, scope, history_id, created_at, revoked_at FROM approval_grants;

DROP TABLE approval_grants;
ALTER TABLE approval_grants_next RENAME TO approval_grants;
CREATE INDEX approval_grants_by_user ON approval_grants (user_id, tool_name);
-- Each new message ends its conversation's turn grants: a probe of this index, usually empty.
CREATE INDEX approval_grants_live_turns ON approval_grants (history_id) WHERE scope = 'turn' AND revoked_at IS NULL;
