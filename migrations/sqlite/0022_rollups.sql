-- Figures kept by triggers in the same transaction as the write (issue 22), so the lists' totals,
-- the lead board, the dashboard and the pipeline read a few rows instead of scanning a table.
-- Every write path (api, jobs, imports, seeds) goes through them; docs/performance.md explains
-- each. The Postgres twin keeps the same rows with statement-level triggers.

-- Contacts per status: count, score sum, scores ≥ 80 and ≥ 85, and those with last_contacted_at.
CREATE TABLE contact_rollup (
    status TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    score_sum INTEGER NOT NULL,
    score80_n INTEGER NOT NULL,
    score85_n INTEGER NOT NULL,
    reached_n INTEGER NOT NULL
) WITHOUT ROWID;

-- Companies per stored state ('' for none), status and score band (its lowest score: 0, 60, 80).
CREATE TABLE company_rollup (
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    band INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (state, status, band)
) WITHOUT ROWID;

-- Deals per effective stage (no stage counts as qualification): count, value, value × probability,
-- and the sales cycle of won deals with a valid close date (days, summed; and how many).
CREATE TABLE deal_rollup (
    stage TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    value_sum INTEGER NOT NULL,
    weighted_sum INTEGER NOT NULL,
    cycle_days_sum INTEGER NOT NULL,
    cycle_n INTEGER NOT NULL
) WITHOUT ROWID;

-- Per UTC day (ms / 86,400,000): companies created, contacts contacted (the dashboard's
-- contacted-at: last_contacted_at, else updated_at for a status that says it was reached), deals
-- created and open deals created (with their value). A window's count sums whole days and counts
-- the partial days at its ends from the table's index.
CREATE TABLE day_series (
    series TEXT NOT NULL,
    day INTEGER NOT NULL,
    n INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (series, day)
) WITHOUT ROWID;

-- The lists' orders within a status (lead board, status filter) and the contacted-at windows.
CREATE INDEX contacts_status_created ON contacts (status, created_at DESC, id DESC);
-- The pipeline's prospects: the best open companies and contacts, read in index order.
CREATE INDEX companies_prospects ON companies (prospect_score DESC, created_at DESC, id)
    WHERE prospect_score > 0 AND is_deal = FALSE;
CREATE INDEX contacts_prospects ON contacts (score DESC, created_at DESC, id)
    WHERE status IN ('new_lead', 'contacted', 'responded');
CREATE INDEX contacts_contacted_at ON contacts (COALESCE(last_contacted_at, CASE WHEN status IN
    ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
    THEN updated_at END));

INSERT INTO contact_rollup
SELECT status, COUNT(*), SUM(score), SUM(score >= 80), SUM(score >= 85),
       SUM(last_contacted_at IS NOT NULL)
FROM contacts GROUP BY status;

INSERT INTO company_rollup
SELECT COALESCE(state, ''), status, CASE WHEN score >= 80 THEN 80 WHEN score >= 60 THEN 60 ELSE 0 END, COUNT(*) FROM companies GROUP BY 1, 2, 3;

INSERT INTO deal_rollup
SELECT COALESCE(stage, 'qualification'), COUNT(*), SUM(value), SUM(value * probability),
       COALESCE(SUM(CASE WHEN stage = 'closed_won' AND date(actual_close_date) = actual_close_date
           THEN MAX(0, (CAST(round((julianday(actual_close_date) - 2440587.5) * 86400000) AS INTEGER)
               - created_at) / 86400000) END), 0),
       COUNT(CASE WHEN stage = 'closed_won' AND date(actual_close_date) = actual_close_date THEN 1 END)
FROM deals GROUP BY COALESCE(stage, 'qualification');

INSERT INTO day_series
SELECT 'companies.created', created_at / 86400000, COUNT(*), 0 FROM companies
GROUP BY created_at / 86400000;
INSERT INTO day_series
SELECT 'contacts.contacted', x / 86400000, COUNT(*), 0
FROM (SELECT COALESCE(last_contacted_at, CASE WHEN status IN
          ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
          THEN updated_at END) AS x FROM contacts)
WHERE x IS NOT NULL GROUP BY x / 86400000;
INSERT INTO day_series
SELECT 'deals.created', created_at / 86400000, COUNT(*), SUM(value) FROM deals
GROUP BY created_at / 86400000;
INSERT INTO day_series
SELECT 'deals.open_created', created_at / 86400000, COUNT(*), SUM(value) FROM deals
WHERE stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost')
GROUP BY created_at / 86400000;

-- ---- contacts ----

CREATE TRIGGER contact_rollup_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contact_rollup VALUES (NEW.status, 1, NEW.score, NEW.score >= 80, NEW.score >= 85,
        NEW.last_contacted_at IS NOT NULL)
    ON CONFLICT (status) DO UPDATE SET n = n + 1, score_sum = score_sum + excluded.score_sum,
        score80_n = score80_n + excluded.score80_n, score85_n = score85_n + excluded.score85_n,
        reached_n = reached_n + excluded.reached_n;
    INSERT INTO day_series SELECT 'contacts.contacted', x / 86400000, 1, 0
    FROM (SELECT COALESCE(NEW.last_contacted_at, CASE WHEN NEW.status IN
              ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
              THEN NEW.updated_at END) AS x)
    WHERE x IS NOT NULL
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER contact_rollup_delete AFTER DELETE ON contacts BEGIN
    UPDATE contact_rollup SET n = n - 1, score_sum = score_sum - OLD.score,
        score80_n = score80_n - (OLD.score >= 80), score85_n = score85_n - (OLD.score >= 85),
        reached_n = reached_n - (OLD.last_contacted_at IS NOT NULL)
    WHERE status = OLD.status;
    UPDATE day_series SET n = n - 1
    WHERE series = 'contacts.contacted' AND day = COALESCE(OLD.last_contacted_at, CASE WHEN OLD.status IN
              ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
              THEN OLD.updated_at END) / 86400000;
END;

CREATE TRIGGER contact_rollup_update AFTER UPDATE OF status, score, last_contacted_at, updated_at
ON contacts BEGIN
    UPDATE contact_rollup SET n = n - 1, score_sum = score_sum - OLD.score,
        score80_n = score80_n - (OLD.score >= 80), score85_n = score85_n - (OLD.score >= 85),
        reached_n = reached_n - (OLD.last_contacted_at IS NOT NULL)
    WHERE status = OLD.status;
    INSERT INTO contact_rollup VALUES (NEW.status, 1, NEW.score, NEW.score >= 80, NEW.score >= 85,
        NEW.last_contacted_at IS NOT NULL)
    ON CONFLICT (status) DO UPDATE SET n = n + 1, score_sum = score_sum + excluded.score_sum,
        score80_n = score80_n + excluded.score80_n, score85_n = score85_n + excluded.score85_n,
        reached_n = reached_n + excluded.reached_n;
    UPDATE day_series SET n = n - 1
    WHERE series = 'contacts.contacted' AND day = COALESCE(OLD.last_contacted_at, CASE WHEN OLD.status IN
              ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
              THEN OLD.updated_at END) / 86400000;
    INSERT INTO day_series SELECT 'contacts.contacted', x / 86400000, 1, 0
    FROM (SELECT COALESCE(NEW.last_contacted_at, CASE WHEN NEW.status IN
              ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
              THEN NEW.updated_at END) AS x)
    WHERE x IS NOT NULL
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

-- ---- companies ----

CREATE TRIGGER company_rollup_insert AFTER INSERT ON companies BEGIN
    INSERT INTO company_rollup VALUES (COALESCE(NEW.state, ''), NEW.status,
        CASE WHEN NEW.score >= 80 THEN 80 WHEN NEW.score >= 60 THEN 60 ELSE 0 END, 1)
    ON CONFLICT (state, status, band) DO UPDATE SET n = n + 1;
    INSERT INTO day_series VALUES ('companies.created', NEW.created_at / 86400000, 1, 0)
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER company_rollup_delete AFTER DELETE ON companies BEGIN
    UPDATE company_rollup SET n = n - 1 WHERE state = COALESCE(OLD.state, '') AND status = OLD.status
        AND band = CASE WHEN OLD.score >= 80 THEN 80 WHEN OLD.score >= 60 THEN 60 ELSE 0 END;
    UPDATE day_series SET n = n - 1
    WHERE series = 'companies.created' AND day = OLD.created_at / 86400000;
END;

CREATE TRIGGER company_rollup_update AFTER UPDATE OF state, status, score, created_at ON companies
BEGIN
    UPDATE company_rollup SET n = n - 1 WHERE state = COALESCE(OLD.state, '') AND status = OLD.status
        AND band = CASE WHEN OLD.score >= 80 THEN 80 WHEN OLD.score >= 60 THEN 60 ELSE 0 END;
    INSERT INTO company_rollup VALUES (COALESCE(NEW.state, ''), NEW.status,
        CASE WHEN NEW.score >= 80 THEN 80 WHEN NEW.score >= 60 THEN 60 ELSE 0 END, 1)
    ON CONFLICT (state, status, band) DO UPDATE SET n = n + 1;
    UPDATE day_series SET n = n - 1
    WHERE series = 'companies.created' AND day = OLD.created_at / 86400000;
    INSERT INTO day_series VALUES ('companies.created', NEW.created_at / 86400000, 1, 0)
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

-- ---- deals ----

CREATE TRIGGER deal_rollup_insert AFTER INSERT ON deals BEGIN
    INSERT INTO deal_rollup SELECT COALESCE(NEW.stage, 'qualification'), 1, NEW.value,
        NEW.value * NEW.probability, COALESCE(c, 0), c IS NOT NULL
    FROM (SELECT CASE WHEN NEW.stage = 'closed_won' AND date(NEW.actual_close_date) = NEW.actual_close_date
              THEN MAX(0, (CAST(round((julianday(NEW.actual_close_date) - 2440587.5) * 86400000) AS INTEGER)
                  - NEW.created_at) / 86400000) END AS c)
    WHERE TRUE
    ON CONFLICT (stage) DO UPDATE SET n = n + 1, value_sum = value_sum + excluded.value_sum,
        weighted_sum = weighted_sum + excluded.weighted_sum,
        cycle_days_sum = cycle_days_sum + excluded.cycle_days_sum, cycle_n = cycle_n + excluded.cycle_n;
    INSERT INTO day_series VALUES ('deals.created', NEW.created_at / 86400000, 1, NEW.value)
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1, total = total + excluded.total;
    INSERT INTO day_series SELECT 'deals.open_created', NEW.created_at / 86400000, 1, NEW.value
    WHERE NEW.stage IS NULL OR NEW.stage NOT IN ('closed_won', 'closed_lost')
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1, total = total + excluded.total;
END;

CREATE TRIGGER deal_rollup_delete AFTER DELETE ON deals BEGIN
    UPDATE deal_rollup SET n = n - 1, value_sum = value_sum - OLD.value,
        weighted_sum = weighted_sum - OLD.value * OLD.probability,
        cycle_days_sum = cycle_days_sum - COALESCE(c, 0), cycle_n = cycle_n - (c IS NOT NULL)
    FROM (SELECT CASE WHEN OLD.stage = 'closed_won' AND date(OLD.actual_close_date) = OLD.actual_close_date
              THEN MAX(0, (CAST(round((julianday(OLD.actual_close_date) - 2440587.5) * 86400000) AS INTEGER)
                  - OLD.created_at) / 86400000) END AS c)
    WHERE stage = COALESCE(OLD.stage, 'qualification');
    UPDATE day_series SET n = n - 1, total = total - OLD.value
    WHERE series = 'deals.created' AND day = OLD.created_at / 86400000;
    UPDATE day_series SET n = n - 1, total = total - OLD.value
    WHERE series = 'deals.open_created' AND day = OLD.created_at / 86400000
      AND (OLD.stage IS NULL OR OLD.stage NOT IN ('closed_won', 'closed_lost'));
END;

CREATE TRIGGER deal_rollup_update AFTER UPDATE OF stage, value, probability, created_at,
    actual_close_date ON deals BEGIN
    UPDATE deal_rollup SET n = n - 1, value_sum = value_sum - OLD.value,
        weighted_sum = weighted_sum - OLD.value * OLD.probability,
        cycle_days_sum = cycle_days_sum - COALESCE(c, 0), cycle_n = cycle_n - (c IS NOT NULL)
    FROM (SELECT CASE WHEN OLD.stage = 'closed_won' AND date(OLD.actual_close_date) = OLD.actual_close_date
              THEN MAX(0, (CAST(round((julianday(OLD.actual_close_date) - 2440587.5) * 86400000) AS INTEGER)
                  - OLD.created_at) / 86400000) END AS c)
    WHERE stage = COALESCE(OLD.stage, 'qualification');
    INSERT INTO deal_rollup SELECT COALESCE(NEW.stage, 'qualification'), 1, NEW.value,
        NEW.value * NEW.probability, COALESCE(c, 0), c IS NOT NULL
    FROM (SELECT CASE WHEN NEW.stage = 'closed_won' AND date(NEW.actual_close_date) = NEW.actual_close_date
              THEN MAX(0, (CAST(round((julianday(NEW.actual_close_date) - 2440587.5) * 86400000) AS INTEGER)
                  - NEW.created_at) / 86400000) END AS c)
    WHERE TRUE
    ON CONFLICT (stage) DO UPDATE SET n = n + 1, value_sum = value_sum + excluded.value_sum,
        weighted_sum = weighted_sum + excluded.weighted_sum,
        cycle_days_sum = cycle_days_sum + excluded.cycle_days_sum, cycle_n = cycle_n + excluded.cycle_n;
    UPDATE day_series SET n = n - 1, total = total - OLD.value
    WHERE series = 'deals.created' AND day = OLD.created_at / 86400000;
    INSERT INTO day_series VALUES ('deals.created', NEW.created_at / 86400000, 1, NEW.value)
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1, total = total + excluded.total;
    UPDATE day_series SET n = n - 1, total = total - OLD.value
    WHERE series = 'deals.open_created' AND day = OLD.created_at / 86400000
      AND (OLD.stage IS NULL OR OLD.stage NOT IN ('closed_won', 'closed_lost'));
    INSERT INTO day_series SELECT 'deals.open_created', NEW.created_at / 86400000, 1, NEW.value
    WHERE NEW.stage IS NULL OR NEW.stage NOT IN ('closed_won', 'closed_lost')
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1, total = total + excluded.total;
END;
