-- Figures kept by triggers in the same transaction as the write (issue 22); the rows and their
-- meaning are the SQLite twin's (see its comments). Statement-level triggers with transition
-- tables fold a whole statement (an import's batch) into one upsert per key, in key order, so two
-- writers lock the shared rows in the same order; an update that moves no figure touches no row.

CREATE TABLE contact_rollup (
    status TEXT PRIMARY KEY,
    n BIGINT NOT NULL,
    score_sum BIGINT NOT NULL,
    score80_n BIGINT NOT NULL,
    score85_n BIGINT NOT NULL,
    reached_n BIGINT NOT NULL
);
CREATE TABLE company_rollup (
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    band INTEGER NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (state, status, band)
);
CREATE TABLE deal_rollup (
    stage TEXT PRIMARY KEY,
    n BIGINT NOT NULL,
    value_sum BIGINT NOT NULL,
    weighted_sum BIGINT NOT NULL,
    cycle_days_sum BIGINT NOT NULL,
    cycle_n BIGINT NOT NULL
);
CREATE TABLE day_series (
    series TEXT NOT NULL,
    day BIGINT NOT NULL,
    n BIGINT NOT NULL,
    total BIGINT NOT NULL,
    PRIMARY KEY (series, day)
);

CREATE INDEX contacts_status_created ON contacts (status, created_at DESC, id DESC);
-- The pipeline's prospects: the best open companies and contacts, read in index order.
CREATE INDEX companies_prospects ON companies (prospect_score DESC, created_at DESC, id)
    WHERE prospect_score > 0 AND is_deal = FALSE;
CREATE INDEX contacts_prospects ON contacts (score DESC, created_at DESC, id)
    WHERE status IN ('new_lead', 'contacted', 'responded');
CREATE INDEX contacts_contacted_at ON contacts ((COALESCE(last_contacted_at, CASE WHEN status IN
        ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
        THEN updated_at END)));

-- A won deal's sales cycle in whole days (at least 0), NULL unless its close date is a valid
-- YYYY-MM-DD (the pipeline metrics skip those, as the SQLite twin does).
CREATE FUNCTION prospector_cycle_days(stage TEXT, close_date TEXT, created_at BIGINT) RETURNS BIGINT
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF stage IS DISTINCT FROM 'closed_won' OR close_date IS NULL
        OR close_date !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
        RETURN NULL;
    END IF;
    RETURN GREATEST(0, ((close_date::date - DATE '1970-01-01')::BIGINT * 86400000 - created_at) / 86400000);
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $$;

INSERT INTO contact_rollup
SELECT status, COUNT(*), SUM(score), COUNT(*) FILTER (WHERE score >= 80),
       COUNT(*) FILTER (WHERE score >= 85), COUNT(last_contacted_at)
FROM contacts GROUP BY status;
INSERT INTO company_rollup
SELECT COALESCE(state, ''), status, CASE WHEN score >= 80 THEN 80 WHEN score >= 60 THEN 60 ELSE 0 END,
       COUNT(*)
FROM companies GROUP BY 1, 2, 3;
INSERT INTO deal_rollup
SELECT COALESCE(stage, 'qualification'), COUNT(*), SUM(value), SUM(value * probability),
       COALESCE(SUM(c), 0), COUNT(c)
FROM (SELECT *, prospector_cycle_days(stage, actual_close_date, created_at) AS c FROM deals) s
GROUP BY 1;
INSERT INTO day_series
SELECT 'companies.created', created_at / 86400000, COUNT(*), 0 FROM companies GROUP BY 2;
INSERT INTO day_series
SELECT 'contacts.contacted', x / 86400000, COUNT(*), 0
FROM (SELECT COALESCE(last_contacted_at, CASE WHEN status IN
        ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
        THEN updated_at END) AS x FROM contacts) s
WHERE x IS NOT NULL GROUP BY 2;
INSERT INTO day_series
SELECT 'deals.created', created_at / 86400000, COUNT(*), SUM(value) FROM deals GROUP BY 2;
INSERT INTO day_series
SELECT 'deals.open_created', created_at / 86400000, COUNT(*), SUM(value) FROM deals
WHERE (stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost')) GROUP BY 2;

CREATE FUNCTION contact_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO contact_rollup AS r
        SELECT status, SUM(sign), SUM(sign * score), SUM(sign * (score >= 80)::int),
               SUM(sign * (score >= 85)::int), SUM(sign * (last_contacted_at IS NOT NULL)::int)
        FROM d GROUP BY status
        HAVING SUM(sign) <> 0 OR SUM(sign * score) <> 0 OR SUM(sign * (score >= 80)::int) <> 0
            OR SUM(sign * (score >= 85)::int) <> 0 OR SUM(sign * (last_contacted_at IS NOT NULL)::int) <> 0
        ORDER BY status
        ON CONFLICT (status) DO UPDATE SET n = r.n + EXCLUDED.n, score_sum = r.score_sum + EXCLUDED.score_sum,
            score80_n = r.score80_n + EXCLUDED.score80_n, score85_n = r.score85_n + EXCLUDED.score85_n,
            reached_n = r.reached_n + EXCLUDED.reached_n;
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT 'contacts.contacted', x / 86400000, SUM(sign), 0
        FROM (SELECT sign, COALESCE(last_contacted_at, CASE WHEN status IN
        ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
        THEN updated_at END) AS x FROM d) s
        WHERE x IS NOT NULL GROUP BY x / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO contact_rollup AS r
        SELECT status, SUM(sign), SUM(sign * score), SUM(sign * (score >= 80)::int),
               SUM(sign * (score >= 85)::int), SUM(sign * (last_contacted_at IS NOT NULL)::int)
        FROM d GROUP BY status
        HAVING SUM(sign) <> 0 OR SUM(sign * score) <> 0 OR SUM(sign * (score >= 80)::int) <> 0
            OR SUM(sign * (score >= 85)::int) <> 0 OR SUM(sign * (last_contacted_at IS NOT NULL)::int) <> 0
        ORDER BY status
        ON CONFLICT (status) DO UPDATE SET n = r.n + EXCLUDED.n, score_sum = r.score_sum + EXCLUDED.score_sum,
            score80_n = r.score80_n + EXCLUDED.score80_n, score85_n = r.score85_n + EXCLUDED.score85_n,
            reached_n = r.reached_n + EXCLUDED.reached_n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO day_series AS r
        SELECT 'contacts.contacted', x / 86400000, SUM(sign), 0
        FROM (SELECT sign, COALESCE(last_contacted_at, CASE WHEN status IN
        ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
        THEN updated_at END) AS x FROM d) s
        WHERE x IS NOT NULL GROUP BY x / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'UPDATE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO contact_rollup AS r
        SELECT status, SUM(sign), SUM(sign * score), SUM(sign * (score >= 80)::int),
               SUM(sign * (score >= 85)::int), SUM(sign * (last_contacted_at IS NOT NULL)::int)
        FROM d GROUP BY status
        HAVING SUM(sign) <> 0 OR SUM(sign * score) <> 0 OR SUM(sign * (score >= 80)::int) <> 0
            OR SUM(sign * (score >= 85)::int) <> 0 OR SUM(sign * (last_contacted_at IS NOT NULL)::int) <> 0
        ORDER BY status
        ON CONFLICT (status) DO UPDATE SET n = r.n + EXCLUDED.n, score_sum = r.score_sum + EXCLUDED.score_sum,
            score80_n = r.score80_n + EXCLUDED.score80_n, score85_n = r.score85_n + EXCLUDED.score85_n,
            reached_n = r.reached_n + EXCLUDED.reached_n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT 'contacts.contacted', x / 86400000, SUM(sign), 0
        FROM (SELECT sign, COALESCE(last_contacted_at, CASE WHEN status IN
        ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
        THEN updated_at END) AS x FROM d) s
        WHERE x IS NOT NULL GROUP BY x / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_rollup_apply_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_apply();
CREATE TRIGGER contact_rollup_apply_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_apply();
CREATE TRIGGER contact_rollup_apply_update AFTER UPDATE ON contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_rollup_apply();

CREATE FUNCTION company_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO company_rollup AS r
        SELECT COALESCE(state, ''), status,
               CASE WHEN score >= 80 THEN 80 WHEN score >= 60 THEN 60 ELSE 0 END, SUM(sign) FROM d
        GROUP BY 1, 2, 3 HAVING SUM(sign) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (state, status, band) DO UPDATE SET n = r.n + EXCLUDED.n;
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT 'companies.created', created_at / 86400000, SUM(sign), 0 FROM d
        GROUP BY created_at / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO company_rollup AS r
        SELECT COALESCE(state, ''), status,
               CASE WHEN score >= 80 THEN 80 WHEN score >= 60 THEN 60 ELSE 0 END, SUM(sign) FROM d
        GROUP BY 1, 2, 3 HAVING SUM(sign) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (state, status, band) DO UPDATE SET n = r.n + EXCLUDED.n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO day_series AS r
        SELECT 'companies.created', created_at / 86400000, SUM(sign), 0 FROM d
        GROUP BY created_at / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'UPDATE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO company_rollup AS r
        SELECT COALESCE(state, ''), status,
               CASE WHEN score >= 80 THEN 80 WHEN score >= 60 THEN 60 ELSE 0 END, SUM(sign) FROM d
        GROUP BY 1, 2, 3 HAVING SUM(sign) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (state, status, band) DO UPDATE SET n = r.n + EXCLUDED.n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT 'companies.created', created_at / 86400000, SUM(sign), 0 FROM d
        GROUP BY created_at / 86400000 HAVING SUM(sign) <> 0 ORDER BY 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER company_rollup_apply_insert AFTER INSERT ON companies REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_rollup_apply();
CREATE TRIGGER company_rollup_apply_delete AFTER DELETE ON companies REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_rollup_apply();
CREATE TRIGGER company_rollup_apply_update AFTER UPDATE ON companies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_rollup_apply();

CREATE FUNCTION deal_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO deal_rollup AS r
        SELECT COALESCE(stage, 'qualification'), SUM(sign), SUM(sign * value), SUM(sign * value * probability),
               COALESCE(SUM(sign * c), 0), SUM(sign * (c IS NOT NULL)::int)
        FROM (SELECT *, prospector_cycle_days(stage, actual_close_date, created_at) AS c FROM d) s
        GROUP BY COALESCE(stage, 'qualification')
        HAVING SUM(sign) <> 0 OR SUM(sign * value) <> 0 OR SUM(sign * value * probability) <> 0
            OR COALESCE(SUM(sign * c), 0) <> 0 OR SUM(sign * (c IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (stage) DO UPDATE SET n = r.n + EXCLUDED.n, value_sum = r.value_sum + EXCLUDED.value_sum,
            weighted_sum = r.weighted_sum + EXCLUDED.weighted_sum,
            cycle_days_sum = r.cycle_days_sum + EXCLUDED.cycle_days_sum, cycle_n = r.cycle_n + EXCLUDED.cycle_n;
        WITH d AS (SELECT 1 AS sign, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT series, day, SUM(n), SUM(total) FROM (
            SELECT 'deals.created' AS series, created_at / 86400000 AS day, sign AS n, sign * value AS total FROM d
            UNION ALL
            SELECT 'deals.open_created', created_at / 86400000, sign, sign * value FROM d WHERE (stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost'))
        ) s
        GROUP BY series, day HAVING SUM(n) <> 0 OR SUM(total) <> 0 ORDER BY 1, 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n, total = r.total + EXCLUDED.total;
    ELSIF TG_OP = 'DELETE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO deal_rollup AS r
        SELECT COALESCE(stage, 'qualification'), SUM(sign), SUM(sign * value), SUM(sign * value * probability),
               COALESCE(SUM(sign * c), 0), SUM(sign * (c IS NOT NULL)::int)
        FROM (SELECT *, prospector_cycle_days(stage, actual_close_date, created_at) AS c FROM d) s
        GROUP BY COALESCE(stage, 'qualification')
        HAVING SUM(sign) <> 0 OR SUM(sign * value) <> 0 OR SUM(sign * value * probability) <> 0
            OR COALESCE(SUM(sign * c), 0) <> 0 OR SUM(sign * (c IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (stage) DO UPDATE SET n = r.n + EXCLUDED.n, value_sum = r.value_sum + EXCLUDED.value_sum,
            weighted_sum = r.weighted_sum + EXCLUDED.weighted_sum,
            cycle_days_sum = r.cycle_days_sum + EXCLUDED.cycle_days_sum, cycle_n = r.cycle_n + EXCLUDED.cycle_n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows)
        INSERT INTO day_series AS r
        SELECT series, day, SUM(n), SUM(total) FROM (
            SELECT 'deals.created' AS series, created_at / 86400000 AS day, sign AS n, sign * value AS total FROM d
            UNION ALL
            SELECT 'deals.open_created', created_at / 86400000, sign, sign * value FROM d WHERE (stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost'))
        ) s
        GROUP BY series, day HAVING SUM(n) <> 0 OR SUM(total) <> 0 ORDER BY 1, 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n, total = r.total + EXCLUDED.total;
    ELSIF TG_OP = 'UPDATE' THEN
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO deal_rollup AS r
        SELECT COALESCE(stage, 'qualification'), SUM(sign), SUM(sign * value), SUM(sign * value * probability),
               COALESCE(SUM(sign * c), 0), SUM(sign * (c IS NOT NULL)::int)
        FROM (SELECT *, prospector_cycle_days(stage, actual_close_date, created_at) AS c FROM d) s
        GROUP BY COALESCE(stage, 'qualification')
        HAVING SUM(sign) <> 0 OR SUM(sign * value) <> 0 OR SUM(sign * value * probability) <> 0
            OR COALESCE(SUM(sign * c), 0) <> 0 OR SUM(sign * (c IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (stage) DO UPDATE SET n = r.n + EXCLUDED.n, value_sum = r.value_sum + EXCLUDED.value_sum,
            weighted_sum = r.weighted_sum + EXCLUDED.weighted_sum,
            cycle_days_sum = r.cycle_days_sum + EXCLUDED.cycle_days_sum, cycle_n = r.cycle_n + EXCLUDED.cycle_n;
        WITH d AS (SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows)
        INSERT INTO day_series AS r
        SELECT series, day, SUM(n), SUM(total) FROM (
            SELECT 'deals.created' AS series, created_at / 86400000 AS day, sign AS n, sign * value AS total FROM d
            UNION ALL
            SELECT 'deals.open_created', created_at / 86400000, sign, sign * value FROM d WHERE (stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost'))
        ) s
        GROUP BY series, day HAVING SUM(n) <> 0 OR SUM(total) <> 0 ORDER BY 1, 2
        ON CONFLICT (series, day) DO UPDATE SET n = r.n + EXCLUDED.n, total = r.total + EXCLUDED.total;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER deal_rollup_apply_insert AFTER INSERT ON deals REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION deal_rollup_apply();
CREATE TRIGGER deal_rollup_apply_delete AFTER DELETE ON deals REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION deal_rollup_apply();
CREATE TRIGGER deal_rollup_apply_update AFTER UPDATE ON deals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION deal_rollup_apply();
