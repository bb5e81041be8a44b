-- The running summary of a long conversation's earlier messages, made by its model when they no
-- longer fit the model's context budget: it covers the rows before row `through_row` (a message
-- of the person's). `covered_hash` fingerprints the messages it covers as the model was shown
-- them, so a summary of rows since replaced is never sent; a redo or a switch of version that
-- replaces covered rows removes it.
CREATE TABLE conversation_summaries (
    history_id   TEXT PRIMARY KEY NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    through_row  BIGINT NOT NULL,
    covered_hash TEXT NOT NULL,
    text         TEXT NOT NULL,
    updated_at   TEXT NOT NULL DEFAULT palaver_now()
);
