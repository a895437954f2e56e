-- Each company's contact count, kept by triggers in the same transaction as the write (issue 22);
-- see the SQLite twin for why. Its own table, not a column of companies: counting a contact in
-- would lock its company's row until the write commits, so an import's transaction would hold
-- every company it touched against edits, and a contact moved out of a company while that
-- company's name changes (whose trigger rewrites its contacts' cards) would deadlock.
CREATE TABLE company_contact_counts (
    company_id TEXT PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
    n BIGINT NOT NULL
);

INSERT INTO company_contact_counts (company_id, n)
SELECT c.company_id, COUNT(*) FROM contacts c
WHERE EXISTS (SELECT 1 FROM companies co WHERE co.id = c.company_id)
GROUP BY c.company_id;

-- A statement's changes folded into one upsert per company, in id order, after the lock that the
-- facet counts take (migration 0027): every writer of contact counts takes turns from its first
-- count change to its commit, so two imports' batches cannot lock the same counts in opposite
-- orders. The contact writes that change counts (inserts, deletes, moves) change facets too, so
-- they took that turn already. A company deleted in this transaction has no count left to
-- change (the cascade took it), hence the EXISTS.
CREATE FUNCTION company_contact_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids TEXT[];
    deltas BIGINT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(company_id ORDER BY company_id), array_agg(n ORDER BY company_id)
        INTO ids, deltas
        FROM (SELECT company_id, COUNT(*) AS n FROM new_rows
              WHERE company_id IS NOT NULL GROUP BY company_id) d;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(company_id ORDER BY company_id), array_agg(n ORDER BY company_id)
        INTO ids, deltas
        FROM (SELECT company_id, -COUNT(*) AS n FROM old_rows
              WHERE company_id IS NOT NULL GROUP BY company_id) d;
    ELSE
        SELECT array_agg(company_id ORDER BY company_id), array_agg(n ORDER BY company_id)
        INTO ids, deltas
        FROM (SELECT company_id, SUM(sign) AS n
              FROM (SELECT company_id, -1 AS sign FROM old_rows
                    UNION ALL SELECT company_id, 1 FROM new_rows) s
              WHERE company_id IS NOT NULL GROUP BY company_id HAVING SUM(sign) <> 0) d;
    END IF;
    IF ids IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
    INSERT INTO company_contact_counts AS r (company_id, n)
    SELECT d.id, d.n FROM unnest(ids, deltas) WITH ORDINALITY AS d (id, n, i)
    WHERE EXISTS (SELECT 1 FROM companies co WHERE co.id = d.id)
    ORDER BY d.i
    ON CONFLICT (company_id) DO UPDATE SET n = r.n + EXCLUDED.n;
    RETURN NULL;
END $$;
CREATE TRIGGER company_contact_counts_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_contact_counts_apply();
CREATE TRIGGER company_contact_counts_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_contact_counts_apply();
CREATE TRIGGER company_contact_counts_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_contact_counts_apply();

ANALYZE company_contact_counts;
