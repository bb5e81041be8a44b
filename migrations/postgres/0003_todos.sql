-- Per-user todos: the demo host tools (listTodos, addTodo, completeTodo, deleteCompletedTodos).

CREATE TABLE todos (
    id         TEXT PRIMARY KEY NOT NULL,
    owner_id   TEXT NOT NULL REFERENCES users (id),
    title      TEXT NOT NULL,
    completed  BIGINT NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT palaver_now()
);

CREATE INDEX todos_by_owner ON todos (owner_id, created_at);
