-- Conversations (the spec's histories), their rows, and the request log.
-- Timestamps are ISO 8601 UTC strings with milliseconds, as the API sends them.

CREATE TABLE histories (
    id          TEXT PRIMARY KEY NOT NULL,
    owner_id    TEXT,
    title       TEXT,
    -- The one ask the conversation waits on (JSON), NULL when none.
    pending_ask TEXT,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at  TEXT
);

CREATE INDEX histories_by_owner ON histories (owner_id, updated_at);

CREATE TABLE history_rows (
    history_id TEXT NOT NULL REFERENCES histories (id),
    seq        INTEGER NOT NULL,
    turn_id    TEXT NOT NULL,
    row_type   TEXT NOT NULL,
    -- The row as the API sends it (JSON).
    payload    TEXT NOT NULL,
    ask_kind   TEXT,
    ask_status TEXT,
    ask_origin TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (history_id, seq)
);

CREATE TABLE ai_requests (
    id            TEXT PRIMARY KEY NOT NULL,
    history_id    TEXT REFERENCES histories (id),
    user_id       TEXT,
    request_type  TEXT NOT NULL DEFAULT 'general',
    model         TEXT NOT NULL,
    prompt        TEXT NOT NULL,
    response      TEXT NOT NULL,
    error         TEXT,
    metadata      TEXT NOT NULL DEFAULT '{}',
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms    INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX ai_requests_by_history ON ai_requests (history_id, created_at);
