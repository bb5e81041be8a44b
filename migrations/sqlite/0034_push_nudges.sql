-- Re-nudges and quiet hours (core/src/push): each ask waiting on a person, with when it was
-- made, when it expires, how many times it was pushed again and when it is next (NULL: no
-- more); the person's notification settings (quiet hours in their own time zone, approvals
-- that only open Palaver); and the people whose quiet hours held a push back, who get one
-- summary when their quiet hours end.
CREATE TABLE push_nudges (
    history_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    asked_at     TEXT NOT NULL,
    expires_at   TEXT,
    sent         INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT,
    PRIMARY KEY (history_id, tool_call_id, user_id)
);

CREATE INDEX push_nudges_due ON push_nudges (next_at);
CREATE INDEX push_nudges_by_user ON push_nudges (user_id);

CREATE TABLE push_settings (
    user_id             TEXT PRIMARY KEY,
    quiet_from          TEXT,
    quiet_until         TEXT,
    quiet_time_zone     TEXT,
    approvals_open_only INTEGER NOT NULL DEFAULT 0,
    -- A JSON array of tool names.
    open_only_tools     TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE push_quiet_held (
    user_id   TEXT PRIMARY KEY,
    held_since TEXT NOT NULL
);
