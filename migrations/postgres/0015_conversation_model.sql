-- The model a conversation runs on (an id of PALAVER_MODEL or PALAVER_MODELS); NULL is the
-- server's default.
ALTER TABLE histories ADD COLUMN model TEXT;
