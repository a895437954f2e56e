-- Facet counts without deadlocks (issue 22). A status move deletes the contact's old entries and
-- inserts its new ones, and each statement's count trigger locks its facets' count rows; two
-- moves in opposite directions (or a move and a title edit) locked the same rows in opposite
-- orders and Postgres aborted one of them with "deadlock detected" (a 500 for that user). The
-- count trigger now first takes one transaction-scoped lock, so writers that change facet counts
-- take turns from their first count change to their commit; writes that move no facet (scores,
-- notes, sends' touches) never reach this trigger and do not wait.
CREATE OR REPLACE FUNCTION contact_facet_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
    IF TG_OP = 'INSERT' THEN
        INSERT INTO contact_facet_counts AS r
        SELECT facet, COUNT(*) FROM new_rows GROUP BY facet ORDER BY facet
        ON CONFLICT (facet) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        INSERT INTO contact_facet_counts AS r
        SELECT facet, -COUNT(*) FROM old_rows GROUP BY facet ORDER BY facet
        ON CONFLICT (facet) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
