-- A document reply that did not validate kept its error lines at the end of its text. They
-- move to the row's own `blockErrors` field: the text is the document again, and the replay
-- adds the lines back for the model.
UPDATE history_rows
SET payload = json_set(
    payload,
    '$.text',
    substr(json_extract(payload, '$.text'), 1,
           instr(json_extract(payload, '$.text'), char(10, 10) || 'Block validation errors:' || char(10)) - 1),
    '$.blockErrors',
    substr(json_extract(payload, '$.text'),
           instr(json_extract(payload, '$.text'), char(10, 10) || 'Block validation errors:' || char(10))
               + length(char(10, 10) || 'Block validation errors:' || char(10)))
)
WHERE row_type = 'assistant'
  AND json_extract(payload, '$.document') = 1
  AND instr(json_extract(payload, '$.text'), char(10, 10) || 'Block validation errors:' || char(10)) > 0;
