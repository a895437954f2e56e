-- Two more figures kept in the write's transaction (issue 22); the rows and their meaning are the
-- SQLite twin's (see its comments). As 0022's: statement-level triggers fold a statement's rows
-- into one upsert per key, in key order, and skip keys whose figures do not move.

CREATE TABLE contact_score_rollup (
    score INTEGER PRIMARY KEY,
    n BIGINT NOT NULL
);
CREATE TABLE company_state_rollup (
    state TEXT PRIMARY KEY,
    n BIGINT NOT NULL,
    qualified_n BIGINT NOT NULL,
    revenue_sum BIGINT NOT NULL,
    revenue_n BIGINT NOT NULL,
    employees_sum BIGINT NOT NULL,
    employees_n BIGINT NOT NULL
);

INSERT INTO contact_score_rollup SELECT score, COUNT(*) FROM contacts GROUP BY score;
INSERT INTO company_state_rollup
SELECT upper(COALESCE(state, '')), COUNT(*),
       COUNT(*) FILTER (WHERE status IN ('qualified', 'interested')),
       COALESCE(SUM(revenue), 0), COUNT(revenue), COALESCE(SUM(employees), 0), COUNT(employees)
FROM companies GROUP BY 1;

-- `d` is the statement's rows with a sign: +1 for what is there now, -1 for what was.
CREATE FUNCTION contact_score_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO contact_score_rollup AS r
        SELECT score, COUNT(*) FROM new_rows GROUP BY score ORDER BY score
        ON CONFLICT (score) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO contact_score_rollup AS r
        SELECT score, -COUNT(*) FROM old_rows GROUP BY score ORDER BY score
        ON CONFLICT (score) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        WITH d AS (SELECT -1 AS sign, score FROM old_rows UNION ALL SELECT 1, score FROM new_rows)
        INSERT INTO contact_score_rollup AS r
        SELECT score, SUM(sign) FROM d GROUP BY score HAVING SUM(sign) <> 0 ORDER BY score
        ON CONFLICT (score) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_score_rollup_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_score_rollup_apply();
CREATE TRIGGER contact_score_rollup_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_score_rollup_apply();
CREATE TRIGGER contact_score_rollup_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_score_rollup_apply();

CREATE FUNCTION company_state_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A transition table exists only for the events that have it, hence a branch per event.
    IF TG_OP = 'INSERT' THEN
        WITH d AS (SELECT 1 AS sign, state, status, revenue, employees FROM new_rows)
        INSERT INTO company_state_rollup AS r
        SELECT upper(COALESCE(state, '')), SUM(sign),
               SUM(sign * (status IN ('qualified', 'interested'))::int),
               SUM(sign * COALESCE(revenue, 0)), SUM(sign * (revenue IS NOT NULL)::int),
               SUM(sign * COALESCE(employees, 0)), SUM(sign * (employees IS NOT NULL)::int)
        FROM d GROUP BY 1
        HAVING SUM(sign) <> 0 OR SUM(sign * (status IN ('qualified', 'interested'))::int) <> 0
            OR SUM(sign * COALESCE(revenue, 0)) <> 0 OR SUM(sign * (revenue IS NOT NULL)::int) <> 0
            OR SUM(sign * COALESCE(employees, 0)) <> 0 OR SUM(sign * (employees IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (state) DO UPDATE SET n = r.n + EXCLUDED.n,
            qualified_n = r.qualified_n + EXCLUDED.qualified_n,
            revenue_sum = r.revenue_sum + EXCLUDED.revenue_sum, revenue_n = r.revenue_n + EXCLUDED.revenue_n,
            employees_sum = r.employees_sum + EXCLUDED.employees_sum,
            employees_n = r.employees_n + EXCLUDED.employees_n;
    ELSIF TG_OP = 'DELETE' THEN
        WITH d AS (SELECT -1 AS sign, state, status, revenue, employees FROM old_rows)
        INSERT INTO company_state_rollup AS r
        SELECT upper(COALESCE(state, '')), SUM(sign),
               SUM(sign * (status IN ('qualified', 'interested'))::int),
               SUM(sign * COALESCE(revenue, 0)), SUM(sign * (revenue IS NOT NULL)::int),
               SUM(sign * COALESCE(employees, 0)), SUM(sign * (employees IS NOT NULL)::int)
        FROM d GROUP BY 1
        HAVING SUM(sign) <> 0 OR SUM(sign * (status IN ('qualified', 'interested'))::int) <> 0
            OR SUM(sign * COALESCE(revenue, 0)) <> 0 OR SUM(sign * (revenue IS NOT NULL)::int) <> 0
            OR SUM(sign * COALESCE(employees, 0)) <> 0 OR SUM(sign * (employees IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (state) DO UPDATE SET n = r.n + EXCLUDED.n,
            qualified_n = r.qualified_n + EXCLUDED.qualified_n,
            revenue_sum = r.revenue_sum + EXCLUDED.revenue_sum, revenue_n = r.revenue_n + EXCLUDED.revenue_n,
            employees_sum = r.employees_sum + EXCLUDED.employees_sum,
            employees_n = r.employees_n + EXCLUDED.employees_n;
    ELSE
        WITH d AS (SELECT -1 AS sign, state, status, revenue, employees FROM old_rows
                   UNION ALL SELECT 1, state, status, revenue, employees FROM new_rows)
        INSERT INTO company_state_rollup AS r
        SELECT upper(COALESCE(state, '')), SUM(sign),
               SUM(sign * (status IN ('qualified', 'interested'))::int),
               SUM(sign * COALESCE(revenue, 0)), SUM(sign * (revenue IS NOT NULL)::int),
               SUM(sign * COALESCE(employees, 0)), SUM(sign * (employees IS NOT NULL)::int)
        FROM d GROUP BY 1
        HAVING SUM(sign) <> 0 OR SUM(sign * (status IN ('qualified', 'interested'))::int) <> 0
            OR SUM(sign * COALESCE(revenue, 0)) <> 0 OR SUM(sign * (revenue IS NOT NULL)::int) <> 0
            OR SUM(sign * COALESCE(employees, 0)) <> 0 OR SUM(sign * (employees IS NOT NULL)::int) <> 0
        ORDER BY 1
        ON CONFLICT (state) DO UPDATE SET n = r.n + EXCLUDED.n,
            qualified_n = r.qualified_n + EXCLUDED.qualified_n,
            revenue_sum = r.revenue_sum + EXCLUDED.revenue_sum, revenue_n = r.revenue_n + EXCLUDED.revenue_n,
            employees_sum = r.employees_sum + EXCLUDED.employees_sum,
            employees_n = r.employees_n + EXCLUDED.employees_n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER company_state_rollup_insert AFTER INSERT ON companies REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_state_rollup_apply();
CREATE TRIGGER company_state_rollup_delete AFTER DELETE ON companies REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_state_rollup_apply();
CREATE TRIGGER company_state_rollup_update AFTER UPDATE ON companies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION company_state_rollup_apply();
