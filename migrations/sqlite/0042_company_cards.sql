-- Each company as the lists answer it (issue 22), as 0041 did for contacts: `card` is the api's
-- JSON of the company (`api::companies::CompanyView`: its keys, each value as serde writes it) with
-- its sources, kept by the triggers below in the write's transaction. Its contact count changes
-- with every contact written, so the list counts it per row and adds it to the card. A page reads
-- 48 cards instead of 30 columns a row decoded and encoded again in the api (docs/performance.md,
-- "Company cards"). SQLite keeps it in the company's row, which a page reads anyway; in a table of
-- its own (as Postgres has it) each row was one more lookup, mostly outside the memory map.
ALTER TABLE companies ADD COLUMN card TEXT;

-- The card of each company, from its row and its sources: the one place it is written.
CREATE VIEW company_cards AS
SELECT co.rowid AS r,
       json_object('id', co.id, 'name', co.name, 'industry', co.industry, 'status', co.status,
           'revenue', CAST(co.revenue AS TEXT), 'employees', co.employees,
           'founded', co.founded, 'score', co.score, 'website', co.website, 'phone', co.phone,
           'address', co.address, 'city', co.city, 'state', co.state, 'zipCode', co.zip_code,
           'location', CASE WHEN co.city IS NOT NULL AND co.state IS NOT NULL
               THEN co.city || ', ' || co.state ELSE COALESCE(co.city, co.state) END,
           'growthRate', co.growth_rate, 'description', co.description,
           'competitorAlignment', co.competitor_alignment,
           'discoveredAt', strftime('%Y-%m-%dT%H:%M:%fZ', co.discovered_at / 1000.0, 'unixepoch'),
           'lastContactedAt', strftime('%Y-%m-%dT%H:%M:%fZ', co.last_contacted_at / 1000.0, 'unixepoch'),
           'discoverySource', co.discovery_source, 'discoveryCity', co.discovery_city,
           'discoveryState', co.discovery_state, 'discoveryRegion', co.discovery_region,
           'discoveryMetadata', json(co.discovery_metadata),
           'competitiveAnalysis', json(co.competitive_analysis),
           'leadQualification', json(co.lead_qualification),
           'hasEnhancedData', json(CASE WHEN co.has_enhanced_data THEN 'true' ELSE 'false' END),
           'prospectScore', co.prospect_score,
           'isDeal', json(CASE WHEN co.is_deal THEN 'true' ELSE 'false' END),
           'sources', (SELECT json_group_array(s.source) FROM
               (SELECT source FROM company_sources WHERE company_id = co.id
                ORDER BY first_seen_at, source) s),
           'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', co.created_at / 1000.0, 'unixepoch')
       ) AS card
FROM companies co;

UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = companies.rowid);

-- Setting `card` fires none of the companies' triggers: each names the columns it watches.
CREATE TRIGGER companies_card_insert AFTER INSERT ON companies BEGIN
    UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = NEW.rowid)
    WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER companies_card_update AFTER UPDATE OF id, name, industry, status, revenue,
    employees, founded, score, website, phone, address, city, state, zip_code, growth_rate,
    description, competitor_alignment, discovered_at, last_contacted_at, discovery_source,
    discovery_city, discovery_state, discovery_region, discovery_metadata, competitive_analysis,
    lead_qualification, has_enhanced_data, prospect_score, is_deal, created_at ON companies BEGIN
    UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = NEW.rowid)
    WHERE rowid = NEW.rowid;
END;
-- Its sources: a scan adds one, a merge moves them, a re-scan only moves last_seen_at. A deleted
-- company's sources go with it (ON DELETE CASCADE), and its row is no longer there to update.
CREATE TRIGGER companies_card_source_insert AFTER INSERT ON company_sources BEGIN
    UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = companies.rowid)
    WHERE id = NEW.company_id;
END;
CREATE TRIGGER companies_card_source_update AFTER UPDATE OF company_id, source, first_seen_at
    ON company_sources BEGIN
    UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = companies.rowid)
    WHERE id IN (OLD.company_id, NEW.company_id);
END;
CREATE TRIGGER companies_card_source_delete AFTER DELETE ON company_sources BEGIN
    UPDATE companies SET card = (SELECT v.card FROM company_cards v WHERE v.r = companies.rowid)
    WHERE id = OLD.company_id;
END;

-- The list filtered by status and state walked every company of the status in the list's order
-- to check each one's state (2,860 rows at 20,000 companies, 3 ms for a page past the end); in
-- this index the page is read where it is.
CREATE INDEX companies_status_state_order ON companies (status, state, score DESC, lower(name), id);
-- Planned with what it holds: without its statistics SQLite took it for a status alone and
-- sorted the status's companies, where `companies_status_order` has them in order.
ANALYZE companies;
