-- Two more figures kept in the write's transaction (issue 22), as 0022's:
-- contact_score_rollup: contacts per score (0..100), the scoring insights' histogram and bands;
-- company_state_rollup: per upper-cased state ('' for none), the companies, those qualified or
-- interested, and the sums and counts of known revenue and employees (the customer report's
-- averages). Both are rebuilt here from the tables, so they start true.

CREATE TABLE contact_score_rollup (
    score INTEGER PRIMARY KEY,
    n INTEGER NOT NULL
);
CREATE TABLE company_state_rollup (
    state TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    qualified_n INTEGER NOT NULL,
    revenue_sum INTEGER NOT NULL,
    revenue_n INTEGER NOT NULL,
    employees_sum INTEGER NOT NULL,
    employees_n INTEGER NOT NULL
);

INSERT INTO contact_score_rollup SELECT score, COUNT(*) FROM contacts GROUP BY score;
INSERT INTO company_state_rollup
SELECT upper(COALESCE(state, '')), COUNT(*),
       SUM(status IN ('qualified', 'interested')),
       COALESCE(SUM(revenue), 0), COUNT(revenue), COALESCE(SUM(employees), 0), COUNT(employees)
FROM companies GROUP BY 1;

CREATE TRIGGER contact_score_rollup_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contact_score_rollup VALUES (NEW.score, 1)
        ON CONFLICT (score) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER contact_score_rollup_delete AFTER DELETE ON contacts BEGIN
    UPDATE contact_score_rollup SET n = n - 1 WHERE score = OLD.score;
END;
CREATE TRIGGER contact_score_rollup_update AFTER UPDATE OF score ON contacts
WHEN OLD.score <> NEW.score BEGIN
    UPDATE contact_score_rollup SET n = n - 1 WHERE score = OLD.score;
    INSERT INTO contact_score_rollup VALUES (NEW.score, 1)
        ON CONFLICT (score) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER company_state_rollup_insert AFTER INSERT ON companies BEGIN
    INSERT INTO company_state_rollup VALUES (upper(COALESCE(NEW.state, '')), 1,
        NEW.status IN ('qualified', 'interested'), COALESCE(NEW.revenue, 0),
        NEW.revenue IS NOT NULL, COALESCE(NEW.employees, 0), NEW.employees IS NOT NULL)
    ON CONFLICT (state) DO UPDATE SET n = n + 1, qualified_n = qualified_n + excluded.qualified_n,
        revenue_sum = revenue_sum + excluded.revenue_sum, revenue_n = revenue_n + excluded.revenue_n,
        employees_sum = employees_sum + excluded.employees_sum,
        employees_n = employees_n + excluded.employees_n;
END;
CREATE TRIGGER company_state_rollup_delete AFTER DELETE ON companies BEGIN
    UPDATE company_state_rollup SET n = n - 1,
        qualified_n = qualified_n - (OLD.status IN ('qualified', 'interested')),
        revenue_sum = revenue_sum - COALESCE(OLD.revenue, 0),
        revenue_n = revenue_n - (OLD.revenue IS NOT NULL),
        employees_sum = employees_sum - COALESCE(OLD.employees, 0),
        employees_n = employees_n - (OLD.employees IS NOT NULL)
    WHERE state = upper(COALESCE(OLD.state, ''));
END;
CREATE TRIGGER company_state_rollup_update AFTER UPDATE OF state, status, revenue, employees
ON companies
WHEN OLD.state IS NOT NEW.state OR OLD.status <> NEW.status OR OLD.revenue IS NOT NEW.revenue
    OR OLD.employees IS NOT NEW.employees
BEGIN
    UPDATE company_state_rollup SET n = n - 1,
        qualified_n = qualified_n - (OLD.status IN ('qualified', 'interested')),
        revenue_sum = revenue_sum - COALESCE(OLD.revenue, 0),
        revenue_n = revenue_n - (OLD.revenue IS NOT NULL),
        employees_sum = employees_sum - COALESCE(OLD.employees, 0),
        employees_n = employees_n - (OLD.employees IS NOT NULL)
    WHERE state = upper(COALESCE(OLD.state, ''));
    INSERT INTO company_state_rollup VALUES (upper(COALESCE(NEW.state, '')), 1,
        NEW.status IN ('qualified', 'interested'), COALESCE(NEW.revenue, 0),
        NEW.revenue IS NOT NULL, COALESCE(NEW.employees, 0), NEW.employees IS NOT NULL)
    ON CONFLICT (state) DO UPDATE SET n = n + 1, qualified_n = qualified_n + excluded.qualified_n,
        revenue_sum = revenue_sum + excluded.revenue_sum, revenue_n = revenue_n + excluded.revenue_n,
        employees_sum = employees_sum + excluded.employees_sum,
        employees_n = employees_n + excluded.employees_n;
END;
