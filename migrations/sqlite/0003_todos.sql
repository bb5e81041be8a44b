-- Per-user todos: the demo host tools (listTodos, addTodo, completeTodo, deleteCompletedTodos).

CREATE TABLE todos (
    id         TEXT PRIMARY KEY NOT NULL,
    owner_id   TEXT NOT NULL REFERENCES users (id),
    title      TEXT NOT NULL,
    completed  INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX todos_by_owner ON todos (owner_id, created_at);
