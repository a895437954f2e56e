-- Each contact as the lists answer it (issue 22): `card` is the api's JSON of the contact
-- (`api::contacts::ContactView`: its keys, each value as serde writes it) with its company's name,
-- city and state and the demo flag, kept by the triggers below in the write's transaction. A
-- list's page is its cards joined by commas instead of 27 columns a row decoded and encoded again
-- in the api (docs/performance.md, "Contact cards").
ALTER TABLE contacts ADD COLUMN card TEXT;

-- The card of contact `c`, from its row and its company's: the one place it is written. Times are
-- epoch milliseconds, written as `jobs::time::to_rfc3339` does (UTC, milliseconds, `Z`).
CREATE FUNCTION contact_card(c contacts) RETURNS text LANGUAGE sql STABLE AS $$
SELECT json_build_object('id', c.id, 'companyId', c.company_id, 'firstName', c.first_name,
    'lastName', c.last_name, 'title', c.title, 'department', c.department,
    'email', c.email, 'phone', c.phone, 'linkedinUrl', c.linkedin_url,
    'status', c.status, 'score', c.score, 'source', c.source, 'tags', c.tags, 'notes', c.notes,
    'createdAt', to_char(TIMESTAMP 'epoch' + c.created_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'lastContactedAt', to_char(TIMESTAMP 'epoch' + c.last_contacted_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'isVerified', c.is_verified, 'verificationScore', c.verification_score,
    'verifiedBy', c.verified_by,
    'verifiedAt', to_char(TIMESTAMP 'epoch' + c.verified_at * INTERVAL '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'verificationWarnings', c.verification_warnings, 'scoreFactors', c.score_factors,
    'companyName', co.name, 'companyCity', co.city, 'companyState', co.state,
    'demo', COALESCE(c.source = 'discovery' AND EXISTS (SELECT 1 FROM company_sources cs
        WHERE cs.company_id = c.company_id AND cs.source = 'catalog'), FALSE))::text
FROM (SELECT c.company_id AS id) k LEFT JOIN companies co ON co.id = k.id
$$;

-- Written once for what is there, with the contacts' triggers off: no figure moves.
ALTER TABLE contacts DISABLE TRIGGER USER;
UPDATE contacts SET card = contact_card(contacts);
ALTER TABLE contacts ENABLE TRIGGER USER;

-- Every write of a contact (the api, jobs, imports, merges, raw SQL) sets its card.
CREATE FUNCTION contacts_card_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.card := contact_card(NEW);
    RETURN NEW;
END
$$;
CREATE TRIGGER contacts_card BEFORE INSERT OR UPDATE ON contacts
    FOR EACH ROW EXECUTE FUNCTION contacts_card_set();

-- A company's name, city or state, or its place in the generated catalog (the demo flag): its
-- contacts' cards are written again (by `contacts_card`). A company deleted sets its contacts'
-- company_id to NULL, an update that `contacts_card` sees too.
CREATE FUNCTION contacts_card_of_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE contacts SET card = NULL WHERE company_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER companies_contact_cards AFTER UPDATE OF name, city, state ON companies
    FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.city IS DISTINCT FROM NEW.city
          OR OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION contacts_card_of_company();

CREATE FUNCTION contacts_card_of_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.source = 'catalog' THEN
        UPDATE contacts SET card = NULL WHERE company_id = OLD.company_id;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.source = 'catalog' THEN
        UPDATE contacts SET card = NULL WHERE company_id = NEW.company_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER company_sources_contact_cards AFTER INSERT OR DELETE ON company_sources
    FOR EACH ROW EXECUTE FUNCTION contacts_card_of_source();
CREATE TRIGGER company_sources_contact_cards_update AFTER UPDATE OF company_id, source
    ON company_sources FOR EACH ROW EXECUTE FUNCTION contacts_card_of_source();
