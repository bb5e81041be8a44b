-- Outgoing webhooks (core/src/webhooks): each person's webhooks (a URL, the events it wants
-- as a comma-separated list, the secret deliveries are signed with, and whether it is enabled:
-- the server disables one whose attempts failed too often in a row, and says why), and the
-- outbox: one delivery per (event, webhook), inserted when the event is seen, claimed by one
-- instance at a time through its lease, retried on a schedule until delivered or given up.
CREATE TABLE webhooks (
    id                   TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    url                  TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    events               TEXT NOT NULL,
    secret               TEXT NOT NULL,
    enabled              INTEGER NOT NULL DEFAULT 1,
    disabled_reason      TEXT,
    -- Failed attempts of any of its deliveries since the last one that succeeded.
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    created_at           TEXT NOT NULL DEFAULT palaver_now()
);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    -- The JSON body, the same on every attempt.
    payload         TEXT NOT NULL,
    -- pending, delivered or failed.
    status          TEXT NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_status     INTEGER,
    last_error      TEXT,
    next_attempt_at TEXT NOT NULL,
    -- While set and in the future, one instance is attempting it; past it, another may.
    lease_until     TEXT,
    created_at      TEXT NOT NULL DEFAULT palaver_now(),
    finished_at     TEXT,
    UNIQUE (event_id, webhook_id)
);

CREATE INDEX webhooks_by_user ON webhooks (user_id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at);
