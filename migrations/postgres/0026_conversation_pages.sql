-- The conversation list is read a page at a time, most recently active first, ties broken by id:
-- this index walks one owner's conversations in that order from any cursor.
DROP INDEX histories_by_owner;
CREATE INDEX histories_by_owner ON histories (owner_id, updated_at, id);

-- Search finds the messages that hold a text without reading every message's JSON: a trigram
-- index (pg_trgm, a trusted extension the database's owner may create) of each user and assistant
-- row's text answers ILIKE '%…%' — any substring, regardless of case — as the search asks it.
-- PostgreSQL keeps it in step with every write of the rows; building it indexes the rows there are.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX history_rows_text ON history_rows USING gin ((payload ->> 'text') gin_trgm_ops)
    WHERE row_type IN ('user', 'assistant');
