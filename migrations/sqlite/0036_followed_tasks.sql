-- The MCP task a running turn follows (the tasks extension), stored the moment the server made
-- it and with the draft's rows from then on: a turn cut off by a stop of its process is then
-- picked up by the sweeper, which follows the task again and lets the turn go on from its
-- result, instead of saving the turn as interrupted (`turn::follow_on`).
ALTER TABLE turn_drafts ADD COLUMN followed_task TEXT;
