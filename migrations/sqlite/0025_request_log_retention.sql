-- The request log keeps its prompts and replies only for a while (PALAVER_REQUEST_TEXT_DAYS): once
-- a minute the sweeper empties the older ones, found by this index of the rows that still have text.
CREATE INDEX ai_requests_with_text ON ai_requests (created_at) WHERE prompt <> '' OR response <> '';
