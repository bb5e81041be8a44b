-- Accounts, browser sessions and API tokens. Sessions and tokens store only a SHA-256 hash of
-- their secret; the secret itself lives in the cookie or with the client.

CREATE TABLE users (
    id            TEXT PRIMARY KEY NOT NULL,
    username      TEXT NOT NULL,
    -- The username lower-cased: usernames are unique regardless of case.
    username_key  TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'user')),
    created_at    TEXT NOT NULL DEFAULT palaver_now()
);

CREATE TABLE sessions (
    id_hash      TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id),
    created_at   TEXT NOT NULL DEFAULT palaver_now(),
    last_seen_at TEXT NOT NULL DEFAULT palaver_now(),
    expires_at   TEXT NOT NULL,
    revoked_at   TEXT
);

CREATE INDEX sessions_by_user ON sessions (user_id);

CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id),
    name         TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL DEFAULT palaver_now(),
    last_used_at TEXT,
    revoked_at   TEXT
);

CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
