-- Issue 22, the 1,000,000-contact run. Two reads grew with the table:
--
-- 1. The customers screen's "new this month" counted the customers created in the last 30 days
--    from contacts_status_created: ten times the index entries at ten times the contacts. Now a
--    day series, like the dashboard's windows (migration 0022): whole days are summed from
--    `day_series` ('contacts.customer_created', per UTC day of created_at, customers only) and the
--    partial first day is counted from the index.
-- 2. A company's top contacts (the customer report's cards, a company's page) ranked every contact
--    of each company by reading whole rows. The index below holds the rank's order, so the rank is
--    read from the index alone and only the few contacts shown are read from the table. It leads
--    with company_id, so it also serves everything contacts_company served.

INSERT INTO day_series
SELECT 'contacts.customer_created', created_at / 86400000, COUNT(*), 0 FROM contacts
WHERE status = 'customer' GROUP BY created_at / 86400000;

CREATE TRIGGER contact_customer_days_insert AFTER INSERT ON contacts
WHEN NEW.status = 'customer' BEGIN
    INSERT INTO day_series VALUES ('contacts.customer_created', NEW.created_at / 86400000, 1, 0)
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER contact_customer_days_delete AFTER DELETE ON contacts
WHEN OLD.status = 'customer' BEGIN
    UPDATE day_series SET n = n - 1
    WHERE series = 'contacts.customer_created' AND day = OLD.created_at / 86400000;
END;

CREATE TRIGGER contact_customer_days_update AFTER UPDATE OF status, created_at ON contacts
WHEN OLD.status = 'customer' OR NEW.status = 'customer' BEGIN
    UPDATE day_series SET n = n - 1
    WHERE OLD.status = 'customer'
      AND series = 'contacts.customer_created' AND day = OLD.created_at / 86400000;
    INSERT INTO day_series SELECT 'contacts.customer_created', NEW.created_at / 86400000, 1, 0
    WHERE NEW.status = 'customer'
    ON CONFLICT (series, day) DO UPDATE SET n = n + 1;
END;

DROP INDEX contacts_company;
CREATE INDEX contacts_company_rank ON contacts (company_id, score DESC, created_at, id);
