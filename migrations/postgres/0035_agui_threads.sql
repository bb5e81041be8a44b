-- AG-UI threads (core/src/agui): an AG-UI client names its thread; the thread is bound to the
-- Palaver conversation it runs on, once, for its owner. `run_id` is the client's id of the run
-- last started on it (a client that lost its stream attaches again under it). The user
-- messages of the client's that a run took in are remembered by their ids, so a client that
-- sends its history again does not send them twice.
CREATE TABLE agui_threads (
    thread_id  TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL,
    history_id TEXT NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    run_id     TEXT,
    created_at TEXT NOT NULL DEFAULT palaver_now()
);

CREATE INDEX agui_threads_history ON agui_threads (history_id);

CREATE TABLE agui_taken_messages (
    thread_id  TEXT NOT NULL REFERENCES agui_threads (thread_id) ON DELETE CASCADE,
    message_id TEXT NOT NULL,
    PRIMARY KEY (thread_id, message_id)
);
