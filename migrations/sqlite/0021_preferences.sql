-- A person's own settings (custom instructions, a default model), and the server's settings an
-- admin changes at run time (open sign-up, the models on offer), kept as JSON by key.
CREATE TABLE user_preferences (
    user_id       TEXT PRIMARY KEY,
    instructions  TEXT NOT NULL DEFAULT '',
    default_model TEXT,
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE server_settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
