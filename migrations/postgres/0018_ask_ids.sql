-- Every ask has an id Palaver minted (the model's own id stays in the row's payload, for the
-- model), unique in its conversation: its row is found and updated by it. Rows stored before
-- carry the model's id; where a model reused one, only the newest of those asks (the only one
-- that could still be pending) gets it.
ALTER TABLE history_rows ADD COLUMN ask_id TEXT;
UPDATE history_rows SET ask_id = payload ->> 'toolCallId'
WHERE row_type = 'tool-call' AND ask_kind IS NOT NULL
  AND seq = (SELECT MAX(earlier.seq) FROM history_rows AS earlier
             WHERE earlier.history_id = history_rows.history_id
               AND earlier.row_type = 'tool-call' AND earlier.ask_kind IS NOT NULL
               AND earlier.payload ->> 'toolCallId' = history_rows.payload ->> 'toolCallId');
CREATE UNIQUE INDEX history_rows_by_ask ON history_rows (history_id, ask_id) WHERE ask_id IS NOT NULL;
