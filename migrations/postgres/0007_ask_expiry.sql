-- Pending asks expire (`expiresAt` inside the pending ask): the sweeper finds the due ones by
-- this index.
CREATE INDEX histories_by_ask_expiry ON histories ((pending_ask ->> 'expiresAt'))
WHERE pending_ask IS NOT NULL;
