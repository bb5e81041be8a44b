-- A live event's SSE id is its own random `public_id`, not the table's sequence, which counts
-- every user's events and so told one user how busy the others were. The events are kept an
-- hour and a client that comes back with an id this table no longer has is told to resync, so
-- the table starts again empty.
DROP TABLE live_events;

CREATE TABLE live_events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id  TEXT NOT NULL UNIQUE,
    user_id    TEXT NOT NULL,
    event      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX live_events_by_user ON live_events (user_id, seq);
CREATE INDEX live_events_by_age ON live_events (created_at);
