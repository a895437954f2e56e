-- Issue 22, contacts search at 1,000,000 contacts.
-- 1. contact_words keeps, per word of the searched text (its runs of letters), how many contacts
--    hold it. The capped count of a search ("1,000+") read the trigram index's bitmap of every match
--    before it stopped at 1,001, and a common name matches 4 % of the table: 4,000 rows at 100k,
--    41,000 at 1M. A word holds every term inside it, so a word held by more contacts than the cap
--    proves the floor with one read of this small table, at any table size.
-- 2. contacts_search_words indexes each contact's words. A term of several words ("maria garcia")
--    took the trigram index ~14 ms at 1M for its page and as long again for its count: ten trigrams,
--    most of them in a tenth of the table. Its words narrow it in ~4 ms: the first word ends a
--    contact's word, the last begins one, those between are whole words (contact_words lists the
--    words that fit), and the matches are read once for the page and the total.
-- 3. The list-order index carries the searched text. A one-word search's page walks the list's
--    order and checks each contact until it has a page (2,200 rows for a common name); at 1M the
--    table outgrows the server's buffers and each check was a page read of the table. The page now
--    selects ids (jobs/src/db/contacts.rs, push_page), so the walk, and an offset's skipped rows,
--    read this index alone.
--
-- The triggers' names sort after contact_facets_*, contact_rollup_apply_* and
-- contact_rollup_customer_days_* (Postgres fires a table's triggers in name order), and they take
-- migration 0027's facet lock before they lock a word's row: every writer that locks count rows
-- takes that lock first, so no two lock them in opposite orders.

CREATE TABLE contact_words (
    word TEXT PRIMARY KEY,
    n BIGINT NOT NULL
);

-- Each contact's distinct words (letters only: digits of emails are unique and prove nothing).
CREATE FUNCTION contact_words_of(search_text TEXT) RETURNS SETOF TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT w FROM regexp_split_to_table(search_text, '[^[:alpha:]]+') AS w WHERE w <> ''
$$;

INSERT INTO contact_words
SELECT w, COUNT(*) FROM contacts, contact_words_of(contacts.search_text) AS w GROUP BY w;

CREATE FUNCTION contact_rollup_words() RETURNS trigger LANGUAGE plpgsql AS $$
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
        IF NOT EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                       WHERE n.search_text IS DISTINCT FROM o.search_text) THEN
            RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock(hashtext('contact_facet_counts'));
        WITH changed AS (
            SELECT o.search_text AS before, n.search_text AS after
            FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.search_text IS DISTINCT FROM o.search_text),
        d AS (
            SELECT w, -1 AS sign FROM changed, contact_words_of(changed.before) AS w
            UNION ALL
            SELECT w, 1 FROM changed, contact_words_of(changed.after) AS w)
        INSERT INTO contact_words AS r
        SELECT w, SUM(sign) FROM d GROUP BY w HAVING SUM(sign) <> 0 ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_rollup_words_insert AFTER INSERT ON contacts
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_words();
CREATE TRIGGER contact_rollup_words_delete AFTER DELETE ON contacts
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_words();
CREATE TRIGGER contact_rollup_words_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_words();

-- The same split as contact_words_of, as the query writes it (jobs/src/db/contacts.rs).
CREATE INDEX contacts_search_words ON contacts USING gin (regexp_split_to_array(search_text, '[^[:alpha:]]+'));

DROP INDEX contacts_created_id;
CREATE INDEX contacts_created_id ON contacts (created_at DESC, id DESC) INCLUDE (search_text);
