-- Uploads. The bytes live on disk under PALAVER_DATA_DIR/uploads/<id>; this is the index.

CREATE TABLE files (
    id         TEXT PRIMARY KEY NOT NULL,
    owner_id   TEXT NOT NULL REFERENCES users (id),
    filename   TEXT NOT NULL,
    mime_type  TEXT NOT NULL,
    size       BIGINT NOT NULL,
    sha256     TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT palaver_now(),
    deleted_at TEXT
);

CREATE INDEX files_by_owner ON files (owner_id, created_at);
