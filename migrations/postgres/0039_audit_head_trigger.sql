-- A chain's head takes each entry's hash as the entry is written or, for an entry written before
-- the chain existed, sealed (issue 45: one statement fewer for every audited decision).
-- `audit::store::record` still bumps the head's seq first: that write is the row lock that
-- orders two writers of one chain. The trigger takes the entry written for its chain's newest:
-- `record` appends at the head's seq, and so does the sealing of an old entry
-- (`chain_unchained`); nothing rewrites an older entry's hash.
CREATE FUNCTION audit_head_follows() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE audit_heads SET hash = NEW.entry_hash WHERE chain_owner = NEW.chain_owner;
    RETURN NULL;
END
$$;

CREATE TRIGGER audit_head_follows AFTER INSERT OR UPDATE OF entry_hash ON ask_audit
    FOR EACH ROW WHEN (NEW.entry_hash IS NOT NULL) EXECUTE FUNCTION audit_head_follows();
