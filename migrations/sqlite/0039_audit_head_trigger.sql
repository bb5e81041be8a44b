-- A chain's head takes each entry's hash as the entry is written (issue 45: one statement fewer
-- for every audited decision). `audit::store::record` still bumps the head's seq first: that
-- write is the lock that orders two writers of one chain. Both triggers take the entry written
-- for its chain's newest: `record` appends at the head's seq, and so does the sealing of an old
-- entry (`chain_unchained`); nothing rewrites an older entry's hash.
CREATE TRIGGER audit_head_follows_insert AFTER INSERT ON ask_audit WHEN NEW.entry_hash IS NOT NULL
BEGIN
    UPDATE audit_heads SET hash = NEW.entry_hash WHERE chain_owner = NEW.chain_owner;
END;

-- An entry written before the chain existed is sealed into it later, by an update.
CREATE TRIGGER audit_head_follows_seal AFTER UPDATE OF entry_hash ON ask_audit WHEN NEW.entry_hash IS NOT NULL
BEGIN
    UPDATE audit_heads SET hash = NEW.entry_hash WHERE chain_owner = NEW.chain_owner;
END;
