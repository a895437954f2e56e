-- The dense tables (docs/records.md, "Dense tables").
--
-- 1. The contacts list sorted by name or by score: an unfiltered page reads one of these in order,
--    either direction (a backward scan for descending), with the id breaking ties in the same
--    direction. The expressions are the list's ORDER BY terms exactly.
CREATE INDEX contacts_name_order ON contacts (lower(last_name), lower(first_name), id);
CREATE INDEX contacts_score_order ON contacts (score, id);

-- 2. Bulk status changes of up to 10,000 contacts in one statement. Migration 0030's words trigger
--    matched the statement's old and new rows on id to find changed searched texts; the planner
--    knows nothing of the transition tables and the join took 27-50 s for 10,000 rows (0.05 s
--    here). EXCEPT ALL pairs them by hashing: the (id, text) rows of one side that the other lacks
--    are exactly the changed contacts' texts before and after. Same counts, same lock order.
CREATE OR REPLACE FUNCTION contact_rollup_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
        INSERT INTO contact_words AS r
        SELECT w, COUNT(*) FROM new_rows, contact_words_of(new_rows.search_text) AS w
        GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
        INSERT INTO contact_words AS r
        SELECT w, -COUNT(*) FROM old_rows, contact_words_of(old_rows.search_text) AS w
        GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        -- Most updates (status moves, scores, sends' touches) leave the text as it was.
        IF NOT EXISTS (SELECT id, search_text FROM new_rows
                       EXCEPT ALL SELECT id, search_text FROM old_rows) THEN
            RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
        WITH before AS (
            SELECT id, search_text FROM old_rows EXCEPT ALL SELECT id, search_text FROM new_rows),
        after AS (
            SELECT id, search_text FROM new_rows EXCEPT ALL SELECT id, search_text FROM old_rows),
        d AS (
            SELECT w, -1 AS sign FROM before, contact_words_of(before.search_text) AS w
            UNION ALL
            SELECT w, 1 FROM after, contact_words_of(after.search_text) AS w)
        INSERT INTO contact_words AS r
        SELECT w, SUM(sign) FROM d GROUP BY w HAVING SUM(sign) <> 0 ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
