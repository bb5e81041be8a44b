-- Answer links (core/src/answer_links) and mail (core/src/mail).
--
-- The single-use answer capabilities were the push notifications' alone (push_answer_tokens);
-- a mail's links are the same capability, so the table takes both, each row with the surface
-- it was issued for (the only one where it answers). Existing rows are push's.
ALTER TABLE push_answer_tokens RENAME TO answer_links;
ALTER TABLE answer_links ADD COLUMN surface TEXT NOT NULL DEFAULT 'push' CHECK (surface IN ('push', 'mail'));
ALTER INDEX push_answer_tokens_by_ask RENAME TO answer_links_by_ask;
ALTER INDEX push_answer_tokens_by_user RENAME TO answer_links_by_user;

-- A person's mail address: confirmed once they followed the link mailed to it, and whether
-- they want an ask mailed when no tab of theirs shows its conversation.
CREATE TABLE mail_addresses (
    user_id      TEXT PRIMARY KEY,
    address      TEXT NOT NULL,
    confirmed_at TEXT,
    ask_mail     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL DEFAULT palaver_now()
);

-- The confirmation links mailed to an address (by their SHA-256), single-use, for a day.
CREATE TABLE mail_confirmations (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL,
    address    TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);

CREATE INDEX mail_confirmations_by_user ON mail_confirmations (user_id);
