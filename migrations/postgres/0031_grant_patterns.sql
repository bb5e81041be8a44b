-- Grants narrower than a whole tool: what they cover of each argument (JSON patterns; NULL: any
-- arguments), when they run out, how many calls they ran, and a scope for the rest of one turn.
ALTER TABLE approval_grants DROP CONSTRAINT approval_grants_scope_check;
ALTER TABLE approval_grants DROP CONSTRAINT approval_grants_check;
ALTER TABLE approval_grants ADD CONSTRAINT approval_grants_scope_check
    CHECK (scope IN ('turn', 'conversation', 'always'));
ALTER TABLE approval_grants ADD CONSTRAINT approval_grants_check
    CHECK ((scope IN ('turn', 'conversation')) = (history_id IS NOT NULL));
ALTER TABLE approval_grants ADD COLUMN arguments TEXT;
ALTER TABLE approval_grants ADD COLUMN expires_at TEXT;
ALTER TABLE approval_grants ADD COLUMN uses INTEGER NOT NULL DEFAULT 0;
-- Each new message ends its conversation's turn grants: a probe of this index, usually empty.
CREATE INDEX approval_grants_live_turns ON approval_grants (history_id) WHERE scope = 'turn' AND revoked_at IS NULL;
