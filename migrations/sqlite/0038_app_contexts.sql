-- What an MCP App drawn for a tool call last told the model it shows (`ui/update-model-context`,
-- core/src/conversation/app_contexts): the model reads it from its next step on, and the app is
-- given it back in its host context when it is drawn again (after a reload, on another device).
CREATE TABLE app_contexts (
    history_id   TEXT NOT NULL REFERENCES histories (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    tool_name    TEXT NOT NULL,
    context      TEXT NOT NULL,
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (history_id, tool_call_id)
);
