-- The results of an AG-UI app's own tools (core/src/agui): a call of the app's tool is open
-- until the app sends its result; the first resume that sends it claims the call here, so of
-- two resumes at once one goes on and the other is told the call was answered.
CREATE TABLE agui_client_results (
    history_id   TEXT NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    PRIMARY KEY (history_id, tool_call_id)
);
