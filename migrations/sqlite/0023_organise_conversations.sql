-- Organising conversations: pinned ones come first in the list; archived ones leave it until a
-- message is sent into them again (a conversation is archived while `archived_at` is after its
-- last message) or they are unarchived. Each moment is NULL when the conversation is not.
ALTER TABLE histories ADD COLUMN pinned_at TEXT;
ALTER TABLE histories ADD COLUMN archived_at TEXT;

-- A conversation's read-only share link: only the hash of its token is kept, so the link is
-- shown once; sharing again replaces it, and removing the row revokes it at once.
CREATE TABLE history_shares (
    history_id TEXT PRIMARY KEY NOT NULL REFERENCES histories (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
