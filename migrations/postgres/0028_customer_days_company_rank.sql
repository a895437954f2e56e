-- Issue 22, the 1,000,000-contact run (see the SQLite twin for the why):
-- 1. 'contacts.customer_created' in day_series: customers per UTC day of created_at, for the
--    customers screen's "new this month".
-- 2. contacts_company_rank: a company's contacts in the order of its top contacts.
--
-- The trigger's name sorts after contact_facets_* and contact_rollup_apply_*, and Postgres fires a
-- table's triggers in name order: every write that moves a contact into or out of 'customer' (a
-- status, creation or row change) also moves its facets, so it holds migration 0027's facet lock
-- before it locks a day row here, and two such writes cannot lock these rows in opposite orders.

INSERT INTO day_series
SELECT 'contacts.customer_created', created_at / 86400000, COUNT(*), 0 FROM contacts
WHERE status = 'customer' GROUP BY 2;

CREATE FUNCTION contact_rollup_customer_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO day_series AS r
        SELECT 'contacts.customer_created', created_at / 86400000, COUNT(*), 0 FROM new_rows
        WHERE status = 'customer' GROUP BY 2 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO day_series AS r
        SELECT 'contacts.customer_created', created_at / 86400000, -COUNT(*), 0 FROM old_rows
        WHERE status = 'customer' GROUP BY 2 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        WITH d AS (
            SELECT -1 AS sign, created_at FROM old_rows WHERE status = 'customer'
            UNION ALL
            SELECT 1, created_at FROM new_rows WHERE status = 'customer')
        INSERT INTO day_series AS r
        SELECT 'contacts.customer_created', created_at / 86400000, SUM(sign), 0 FROM d
        GROUP BY 2 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_rollup_customer_days_insert AFTER INSERT ON contacts
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_customer_days();
CREATE TRIGGER contact_rollup_customer_days_delete AFTER DELETE ON contacts
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_customer_days();
CREATE TRIGGER contact_rollup_customer_days_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_customer_days();

DROP INDEX contacts_company;
CREATE INDEX contacts_company_rank ON contacts (company_id, score DESC, created_at, id);
