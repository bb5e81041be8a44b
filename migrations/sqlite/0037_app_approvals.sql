-- An MCP App's call of a tool that needs the person's approval, held while Palaver's card for it
-- is shown (core/src/mcp/app_calls): answering the card takes the row and writes the audit
-- entry in one transaction, so the call runs at most once, and only as the card showed it.
CREATE TABLE app_approvals (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    history_id TEXT NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    app_tool   TEXT NOT NULL,
    tool_name  TEXT NOT NULL,
    arguments  TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX app_approvals_user ON app_approvals (user_id, created_at);
