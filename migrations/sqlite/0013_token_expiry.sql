-- An API token may carry an expiry (ISO 8601 UTC, like every time here); NULL: it lasts until
-- revoked.
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
