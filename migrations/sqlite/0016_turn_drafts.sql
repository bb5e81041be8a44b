-- A running turn as far as it got: its rows (the user's message first) and its reply so far,
-- written when it starts and at most a second behind while it streams, and removed by the
-- transaction that saves the turn. A draft whose turn no instance holds any more (the process
-- died) is saved as an interrupted reply.
CREATE TABLE turn_drafts (
    turn_id     TEXT PRIMARY KEY NOT NULL,
    history_id  TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    -- The turn's row in running_turns while it runs.
    running_key TEXT NOT NULL,
    -- The rows as a JSON array, the reply last.
    rows_json   TEXT NOT NULL,
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX turn_drafts_by_user ON turn_drafts (user_id);
