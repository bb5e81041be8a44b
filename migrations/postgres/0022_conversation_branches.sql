-- The versions of a conversation from one of its messages on: editing a message or
-- regenerating a reply keeps what was there as a version the person can show again. A fork
-- is named by the turn of the row just before it ('' at the conversation's start); the
-- version shown lives in history_rows (rows_json NULL), the others here as a JSON array of
-- their rows. Versions inside a version not shown keep their own entries for when it is.
CREATE TABLE conversation_branches (
    history_id TEXT NOT NULL REFERENCES histories (id),
    fork_after TEXT NOT NULL,
    position   BIGINT NOT NULL,
    rows_json  TEXT,
    created_at TEXT NOT NULL DEFAULT palaver_now(),
    PRIMARY KEY (history_id, fork_after, position)
);
