-- The turns running now, on every instance: a Stop sent to any instance finds the turn here
-- (and signals the instance that runs it), and a user's running turns are counted across
-- instances. Each instance renews the lease of its own turns; a turn whose lease ran out
-- belongs to an instance that died, and no longer counts.
CREATE TABLE running_turns (
    id          TEXT PRIMARY KEY NOT NULL,
    history_id  TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    -- The stream a client attaches to (the turn's id), and the prompt it answers.
    stream_id   TEXT NOT NULL,
    prompt      TEXT,
    instance_id TEXT NOT NULL,
    lease_until TEXT NOT NULL,
    started_at  TEXT NOT NULL DEFAULT palaver_now()
);

CREATE INDEX running_turns_by_history ON running_turns (history_id);
CREATE INDEX running_turns_by_user ON running_turns (user_id);
CREATE INDEX running_turns_by_instance ON running_turns (instance_id);

-- With several instances, the events of each running turn's stream, so a client attached
-- through another instance gets them: written in small batches while the turn runs, forgotten
-- once it has ended.
CREATE TABLE turn_stream_events (
    stream_id TEXT NOT NULL,
    n         BIGINT NOT NULL,
    event     JSONB NOT NULL,
    written_at TEXT NOT NULL DEFAULT palaver_now(),
    PRIMARY KEY (stream_id, n)
);
