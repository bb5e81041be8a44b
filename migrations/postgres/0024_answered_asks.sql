-- The answer of each conversation its person may still change, for a short while after it was
-- given and while nothing but its reply came after it: the ask as it was pending (to make it
-- pending again), the turn that resumed with the answer, where the answer's rows begin and where
-- that turn's reply begins. A later answer takes its place; a withdrawal removes it.
CREATE TABLE answered_asks (
    history_id       TEXT PRIMARY KEY NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    tool_call_id     TEXT NOT NULL,
    turn_id          TEXT NOT NULL,
    first_seq        BIGINT NOT NULL,
    reply_seq        BIGINT NOT NULL,
    pending_ask      TEXT NOT NULL,
    -- The ask's own expiresAt: an ask past it is not made pending again.
    expires_at       TEXT,
    changeable_until TEXT NOT NULL
);
