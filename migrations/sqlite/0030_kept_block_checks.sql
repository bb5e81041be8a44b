-- A document reply's block check, kept with it: the check (JSON, as `BlocksCheck` writes it) and
-- a fingerprint of the settings that decided it (`BlocksSettings::fingerprint`). A read shows the
-- kept check while the fingerprint matches the server's settings, and checks the reply again
-- (keeping the new outcome) only when they changed. NULL until the reply is first read.
ALTER TABLE history_rows ADD COLUMN blocks_check TEXT;
ALTER TABLE history_rows ADD COLUMN blocks_checked_with TEXT;
