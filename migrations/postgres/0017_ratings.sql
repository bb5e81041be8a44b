-- A person's rating of a row (in practice a reply): 'up' or 'down', NULL when unrated, as
-- PATCH /gpt/histories/{id}/rating sets it. The request log keeps the turn a request was made
-- for, so the rating of that turn's reply is recorded beside the request too.
ALTER TABLE history_rows ADD COLUMN rating TEXT;
ALTER TABLE ai_requests ADD COLUMN turn_id TEXT;
ALTER TABLE ai_requests ADD COLUMN rating TEXT;
CREATE INDEX ai_requests_by_turn ON ai_requests (turn_id);
