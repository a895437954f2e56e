-- Each company as the lists answer it (issue 22), as 0041 did for contacts: a company's card is the
-- api's JSON of it (`api::companies::CompanyView`: its keys, each value as serde writes it) with its
-- sources, kept by the triggers below in the write's transaction. Its contact count changes with
-- every contact written, so the list counts it per row and adds it to the card. A page reads 48
-- cards instead of 30 columns a row decoded and encoded again in the api (docs/performance.md,
-- "Company cards"). Postgres keeps them in a table of their own: in the companies' rows they made
-- the heap five times larger, and a search reading its matches' rows twice as slow (SQLite keeps
-- them in the row).
CREATE TABLE company_cards (
    company_id TEXT PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE ON UPDATE CASCADE,
    card TEXT NOT NULL
);

CREATE FUNCTION company_card(co companies) RETURNS text LANGUAGE sql STABLE AS $$
SELECT json_build_object('id', co.id, 'name', co.name, 'industry', co.industry,
    'status', co.status, 'revenue', co.revenue::text, 'employees', co.employees,
    'founded', co.founded, 'score', co.score, 'website', co.website, 'phone', co.phone,
    'address', co.address, 'city', co.city, 'state', co.state, 'zipCode', co.zip_code,
    'location', CASE WHEN co.city IS NOT NULL AND co.state IS NOT NULL
        THEN co.city || ', ' || co.state ELSE COALESCE(co.city, co.state) END,
    'growthRate', co.growth_rate, 'description', co.description,
    'competitorAlignment', co.competitor_alignment,
    'discoveredAt', to_char(TIMESTAMP 'epoch' + co.discovered_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'lastContactedAt', to_char(TIMESTAMP 'epoch' + co.last_contacted_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'discoverySource', co.discovery_source, 'discoveryCity', co.discovery_city,
    'discoveryState', co.discovery_state, 'discoveryRegion', co.discovery_region,
    'discoveryMetadata', co.discovery_metadata, 'competitiveAnalysis', co.competitive_analysis,
    'leadQualification', co.lead_qualification, 'hasEnhancedData', co.has_enhanced_data,
    'prospectScore', co.prospect_score, 'isDeal', co.is_deal,
    'sources', COALESCE((SELECT json_agg(s.source ORDER BY s.first_seen_at, s.source)
        FROM company_sources s WHERE s.company_id = co.id), '[]'::json),
    'createdAt', to_char(TIMESTAMP 'epoch' + co.created_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

INSERT INTO company_cards (company_id, card) SELECT id, company_card(companies) FROM companies;

-- Every write of a company (the api, jobs, imports, merges, raw SQL) writes its card; a new id
-- reaches it first (ON UPDATE CASCADE).
CREATE FUNCTION companies_card_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO company_cards (company_id, card) VALUES (NEW.id, company_card(NEW))
    ON CONFLICT (company_id) DO UPDATE SET card = excluded.card;
    RETURN NULL;
END
$$;
CREATE TRIGGER companies_card AFTER INSERT OR UPDATE ON companies
    FOR EACH ROW EXECUTE FUNCTION companies_card_set();

-- Its sources (a scan adds one, a merge moves them; a re-scan only moves last_seen_at): its card
-- is written again, where the company is still there (its sources and its card go with it).
CREATE FUNCTION companies_card_of_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE company_cards k SET card = company_card(co) FROM companies co
    WHERE co.id = k.company_id
        AND k.company_id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.company_id END,
                             CASE WHEN TG_OP <> 'DELETE' THEN NEW.company_id END);
    RETURN NULL;
END
$$;
CREATE TRIGGER company_sources_company_cards AFTER INSERT OR DELETE ON company_sources
    FOR EACH ROW EXECUTE FUNCTION companies_card_of_source();
CREATE TRIGGER company_sources_company_cards_update AFTER UPDATE OF company_id, source, first_seen_at
    ON company_sources FOR EACH ROW EXECUTE FUNCTION companies_card_of_source();

-- The list filtered by status and state walked every company of the status in the list's order
-- to check each one's state (2,860 rows at 20,000 companies); in this index the page is read
-- where it is.
CREATE INDEX companies_status_state_order ON companies (status, state, score DESC, lower(name), id);
