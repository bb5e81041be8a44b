-- What the user did to a reply's interactive blocks: a stepper's value, a checklist's ticks.
-- One row per conversation and block id: the block as the host action returned it, applied to
-- the newest reply that has that block whenever the conversation is shown again.

CREATE TABLE block_states (
    history_id TEXT NOT NULL REFERENCES histories (id),
    block_id   TEXT NOT NULL,
    block      JSONB NOT NULL,
    updated_at TEXT NOT NULL DEFAULT palaver_now(),
    PRIMARY KEY (history_id, block_id)
);
