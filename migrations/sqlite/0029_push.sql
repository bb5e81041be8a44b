-- Web Push (core/src/push): the deployment's one VAPID key pair, made at first start so every
-- instance signs with the same; each person's push subscriptions, one per device; which
-- conversation each of their open tabs shows while visible (a presence lives a minute unless
-- refreshed: no push for a conversation a tab of theirs shows); and the single-use answer
-- capabilities a notification's buttons carry, stored as SHA-256 hashes, each bound to one ask
-- and one button.
CREATE TABLE push_vapid_keys (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL,
    endpoint   TEXT NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user_id, endpoint)
);

CREATE TABLE push_presence (
    user_id    TEXT NOT NULL,
    tab_id     TEXT NOT NULL,
    -- The conversation the tab shows while it is visible; NULL when hidden or elsewhere.
    history_id TEXT,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (user_id, tab_id)
);

CREATE TABLE push_answer_tokens (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    history_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    button_id    TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    used_at      TEXT
);

-- The asks a push went out for: the ask's ending takes its row and sends the "closed" push.
CREATE TABLE push_notified_asks (
    history_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    PRIMARY KEY (history_id, tool_call_id, user_id)
);

CREATE INDEX push_answer_tokens_by_ask ON push_answer_tokens (history_id, tool_call_id);
CREATE INDEX push_answer_tokens_by_user ON push_answer_tokens (user_id);
