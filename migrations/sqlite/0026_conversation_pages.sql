-- The conversation list is read a page at a time, most recently active first, ties broken by id:
-- this index walks one owner's conversations in that order from any cursor.
DROP INDEX histories_by_owner;
CREATE INDEX histories_by_owner ON histories (owner_id, updated_at, id);

-- Search finds the messages that hold a text without reading every message's JSON: each user and
-- assistant row's text is copied here (kept in step by the triggers below, whatever writes the
-- rows) and indexed by FTS5's trigram tokenizer, which matches any substring of three or more
-- characters regardless of case. `id` is the FTS index's stable rowid.
CREATE TABLE history_search_text (
    id         INTEGER PRIMARY KEY,
    history_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    text       TEXT NOT NULL,
    UNIQUE (history_id, seq)
);

CREATE VIRTUAL TABLE history_search USING fts5 (
    text, content = 'history_search_text', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER history_search_text_added AFTER INSERT ON history_search_text BEGIN
    INSERT INTO history_search (rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER history_search_text_removed AFTER DELETE ON history_search_text BEGIN
    INSERT INTO history_search (history_search, rowid, text) VALUES ('delete', old.id, old.text);
END;

CREATE TRIGGER history_rows_searchable_added AFTER INSERT ON history_rows
WHEN new.row_type IN ('user', 'assistant') AND json_extract(new.payload, '$.text') IS NOT NULL BEGIN
    INSERT INTO history_search_text (history_id, seq, text)
    VALUES (new.history_id, new.seq, json_extract(new.payload, '$.text'));
END;

CREATE TRIGGER history_rows_searchable_removed AFTER DELETE ON history_rows BEGIN
    DELETE FROM history_search_text WHERE history_id = old.history_id AND seq = old.seq;
END;

CREATE TRIGGER history_rows_searchable_changed AFTER UPDATE OF history_id, seq, row_type, payload ON history_rows BEGIN
    DELETE FROM history_search_text WHERE history_id = old.history_id AND seq = old.seq;
    INSERT INTO history_search_text (history_id, seq, text)
    SELECT new.history_id, new.seq, json_extract(new.payload, '$.text')
    WHERE new.row_type IN ('user', 'assistant') AND json_extract(new.payload, '$.text') IS NOT NULL;
END;

INSERT INTO history_search_text (history_id, seq, text)
SELECT history_id, seq, json_extract(payload, '$.text') FROM history_rows
WHERE row_type IN ('user', 'assistant') AND json_extract(payload, '$.text') IS NOT NULL;
