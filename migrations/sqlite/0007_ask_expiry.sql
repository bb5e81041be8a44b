-- Pending asks expire (`expiresAt` inside the pending ask's JSON): the sweeper finds the due
-- ones by this index. Asks stored before this have no `expiresAt`; Palaver dates them at start
-- from the TTL settings, which a migration cannot know.
CREATE INDEX histories_by_ask_expiry ON histories (json_extract(pending_ask, '$.expiresAt'))
WHERE pending_ask IS NOT NULL;
