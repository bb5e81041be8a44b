-- PostgreSQL's schema mirrors SQLite's (migrations/sqlite), file by file: the same tables,
-- columns and constraints. Integers are BIGINT (SQLite's are 64-bit), JSON is jsonb, and times
-- stay ISO 8601 UTC text with milliseconds, as the API sends them, so both backends compare and
-- return them alike.

-- The clock in that form: `palaver_time` formats a moment, `palaver_now` is the statement's
-- start (SQLite's 'now' is fixed for a statement too).
CREATE FUNCTION palaver_time(moment timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $$ SELECT to_char(moment AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE FUNCTION palaver_now() RETURNS text
    LANGUAGE sql STABLE
    AS $$ SELECT palaver_time(statement_timestamp()) $$;

CREATE TABLE histories (
    id          TEXT PRIMARY KEY NOT NULL,
    owner_id    TEXT,
    title       TEXT,
    -- The one ask the conversation waits on, NULL when none.
    pending_ask JSONB,
    created_at  TEXT NOT NULL DEFAULT palaver_now(),
    updated_at  TEXT NOT NULL DEFAULT palaver_now(),
    deleted_at  TEXT
);

CREATE INDEX histories_by_owner ON histories (owner_id, updated_at);

CREATE TABLE history_rows (
    history_id TEXT NOT NULL REFERENCES histories (id),
    seq        BIGINT NOT NULL,
    turn_id    TEXT NOT NULL,
    row_type   TEXT NOT NULL,
    -- The row as the API sends it.
    payload    JSONB NOT NULL,
    ask_kind   TEXT,
    ask_status TEXT,
    ask_origin TEXT,
    created_at TEXT NOT NULL DEFAULT palaver_now(),
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
    metadata      JSONB NOT NULL DEFAULT '{}',
    input_tokens  BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    latency_ms    BIGINT NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT palaver_now()
);

CREATE INDEX ai_requests_by_history ON ai_requests (history_id, created_at);
