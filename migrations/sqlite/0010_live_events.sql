-- Live events, stored once and delivered by every instance to its own `/gpt/events`
-- connections; a client that comes back with `Last-Event-ID` (to any instance) gets what it
-- missed from here. Kept for an hour.
CREATE TABLE live_events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT NOT NULL,
    event      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX live_events_by_user ON live_events (user_id, seq);
CREATE INDEX live_events_by_age ON live_events (created_at);
