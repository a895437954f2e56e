-- Issue 22, companies search on Postgres. A search alone read its matches through the trigram
-- index's bitmap and rechecked each candidate's row in the table (500 table pages for the 817
-- companies of a last name at 20,000 companies, ~3.3 ms a search under load, the slowest screen
-- read of bench api). Each company's words now sit in an index in the list's order, with the
-- searched text beside them, so a search reads the index entries of its rarest word alone
-- (jobs/src/db/companies.rs, company_search_by_words): the same 817 in 0.3 ms (docs/performance.md).
-- 1. company_words: per word of the searched text (its runs of letters, split as contact_words_of
--    splits a contact's), how many companies hold it. A term's words name the words that fit them
--    (a first word may end a longer one, a last may begin one, a lone one may sit inside one), and
--    the counts pick the term's rarest word.
-- 2. company_search_words: one row per company and word, with the list order's keys (score, lower
--    name, id) and the searched text, under an index in that order.
-- Both are kept by statement triggers in the write's transaction, named to fire after the rollup
-- triggers of 0022/0023 (Postgres fires a table's triggers in name order); the counts are upserted in
-- word order, as the rollups are in key order. An update that moves none of the keys (a status, a
-- touch, an enrichment) changes neither.

CREATE TABLE company_words (
    word TEXT PRIMARY KEY,
    n BIGINT NOT NULL
);
CREATE INDEX company_words_trgm ON company_words USING gin (word gin_trgm_ops);

CREATE TABLE company_search_words (
    word TEXT NOT NULL,
    score INTEGER NOT NULL,
    name_key TEXT NOT NULL,
    id TEXT NOT NULL,
    search_text TEXT NOT NULL
);

INSERT INTO company_words
SELECT w, COUNT(*) FROM companies, contact_words_of(companies.search_text) AS w GROUP BY w;
INSERT INTO company_search_words (word, score, name_key, id, search_text)
SELECT w, c.score, lower(c.name), c.id, c.search_text FROM companies c, contact_words_of(c.search_text) AS w;

CREATE INDEX company_search_words_order ON company_search_words (word, score DESC, name_key, id)
    INCLUDE (search_text);
CREATE INDEX company_search_words_id ON company_search_words (id);

CREATE FUNCTION company_words_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO company_search_words (word, score, name_key, id, search_text)
        SELECT w, n.score, lower(n.name), n.id, n.search_text
        FROM new_rows n, contact_words_of(n.search_text) AS w;
        INSERT INTO company_words AS r
        SELECT w, COUNT(*) FROM new_rows, contact_words_of(new_rows.search_text) AS w
        GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM company_search_words s USING old_rows o WHERE s.id = o.id;
        INSERT INTO company_words AS r
        SELECT w, -COUNT(*) FROM old_rows, contact_words_of(old_rows.search_text) AS w
        GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        -- Pairs rows by content, not by id: an update may change a company's id (a merge's rename).
        IF NOT EXISTS (SELECT id, score, name, search_text FROM new_rows
                       EXCEPT ALL SELECT id, score, name, search_text FROM old_rows) THEN
            RETURN NULL;
        END IF;
        DELETE FROM company_search_words s
        USING (SELECT id, score, name, search_text FROM old_rows
               EXCEPT ALL SELECT id, score, name, search_text FROM new_rows) o
        WHERE s.id = o.id;
        INSERT INTO company_search_words (word, score, name_key, id, search_text)
        SELECT w, n.score, lower(n.name), n.id, n.search_text
        FROM (SELECT id, score, name, search_text FROM new_rows
              EXCEPT ALL SELECT id, score, name, search_text FROM old_rows) n,
             contact_words_of(n.search_text) AS w;
        WITH gone AS (
            SELECT id, search_text FROM old_rows EXCEPT ALL SELECT id, search_text FROM new_rows),
        came AS (
            SELECT id, search_text FROM new_rows EXCEPT ALL SELECT id, search_text FROM old_rows),
        d AS (
            SELECT w, -1 AS sign FROM gone, contact_words_of(gone.search_text) AS w
            UNION ALL
            SELECT w, 1 FROM came, contact_words_of(came.search_text) AS w)
        INSERT INTO company_words AS r
        SELECT w, SUM(sign) FROM d GROUP BY w HAVING SUM(sign) <> 0 ORDER BY w
        ON CONFLICT (word) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER company_words_insert AFTER INSERT ON companies
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_words_apply();
CREATE TRIGGER company_words_delete AFTER DELETE ON companies
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_words_apply();
CREATE TRIGGER company_words_update AFTER UPDATE ON companies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_words_apply();
