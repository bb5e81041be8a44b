-- A draft the sweeper saved (it took the turn for dead) stays, marked with the seq of the first
-- row it stored, until its turn's owner comes back to it: an owner that was alive after all
-- (its database was out of reach longer than its lease) then replaces those rows with the
-- reply it streamed, while they are still the conversation's last, or tells its client the
-- reply was cut off. Swept drafts are forgotten after an hour.
ALTER TABLE turn_drafts ADD COLUMN swept_first_seq BIGINT;
CREATE INDEX turn_drafts_by_history ON turn_drafts (history_id, running_key);
