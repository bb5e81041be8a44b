-- Failed log-ins (and wrong current passwords), counted per username and per client address
-- over a sliding window: kept in the database, so the limits hold across restarts and across
-- instances. `at_ms` is the Unix time in milliseconds.
CREATE TABLE login_failures (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    -- `user:<username, lower-cased>` or `addr:<client address>`.
    key   TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);

CREATE INDEX login_failures_by_key ON login_failures (key, at_ms);
