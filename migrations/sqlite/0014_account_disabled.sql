-- An admin may disable an account: while set (ISO 8601 UTC), it cannot log in and its
-- sessions and API tokens are refused.
ALTER TABLE users ADD COLUMN disabled_at TEXT;
