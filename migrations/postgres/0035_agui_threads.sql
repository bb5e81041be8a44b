-- AG-UI threads (core/src/agui): an AG-UI client names its threads, each person in a namespace
-- of their own; a thread is bound to the Palaver conversation it runs on, once. The run last
-- started on it is kept (its id, the turn's stream, the client's state and the answer it
-- resumed with), so a client that lost its stream attaches again and gets the same events.
-- The client's user messages a run took in are claimed by their ids, so a client that sends
-- its history again, or twice at once, does not send them twice.
CREATE TABLE agui_threads (
    user_id    TEXT NOT NULL,
    thread_id  TEXT NOT NULL,
    history_id TEXT NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    run_id     TEXT,
    run_stream TEXT,
    run_state  TEXT,
    run_answer TEXT,
    created_at TEXT NOT NULL DEFAULT palaver_now(),
    PRIMARY KEY (user_id, thread_id)
);

CREATE INDEX agui_threads_history ON agui_threads (history_id);

CREATE TABLE agui_taken_messages (
    user_id    TEXT NOT NULL,
    thread_id  TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id, message_id),
    FOREIGN KEY (user_id, thread_id) REFERENCES agui_threads (user_id, thread_id) ON DELETE CASCADE
);
