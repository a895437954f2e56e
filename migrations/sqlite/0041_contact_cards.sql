-- Each contact as the lists answer it (issue 22): `card` is the api's JSON of the contact
-- (`api::contacts::ContactView`: its keys, each value as serde writes it) with its company's name,
-- city and state and the demo flag, kept by the triggers below in the write's transaction. A
-- list's page is its cards joined by commas; building the 50 objects of 27 fields (times, JSON
-- documents, the company and the demo lookups) on each request was 0.4 of the 0.47 ms a contacts
-- page took in SQLite (docs/performance.md, "Contact cards").
ALTER TABLE contacts ADD COLUMN card TEXT;

-- The card of each contact, from its row and its company's: the one place it is written.
CREATE VIEW contact_cards AS
SELECT c.rowid AS r,
       json_object('id', c.id, 'companyId', c.company_id, 'firstName', c.first_name,
           'lastName', c.last_name, 'title', c.title, 'department', c.department,
           'email', c.email, 'phone', c.phone, 'linkedinUrl', c.linkedin_url,
           'status', c.status, 'score', c.score, 'source', c.source,
           'tags', json(c.tags), 'notes', c.notes,
           'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', c.created_at / 1000.0, 'unixepoch'),
           'lastContactedAt', strftime('%Y-%m-%dT%H:%M:%fZ', c.last_contacted_at / 1000.0, 'unixepoch'),
           'isVerified', json(CASE WHEN c.is_verified THEN 'true' ELSE 'false' END),
           'verificationScore', c.verification_score, 'verifiedBy', json(c.verified_by),
           'verifiedAt', strftime('%Y-%m-%dT%H:%M:%fZ', c.verified_at / 1000.0, 'unixepoch'),
           'verificationWarnings', json(c.verification_warnings),
           'scoreFactors', json(c.score_factors),
           'companyName', co.name, 'companyCity', co.city, 'companyState', co.state,
           'demo', json(CASE WHEN c.source = 'discovery' AND EXISTS (SELECT 1 FROM company_sources cs
               WHERE cs.company_id = c.company_id AND cs.source = 'catalog') THEN 'true' ELSE 'false' END)
       ) AS card
FROM contacts c LEFT JOIN companies co ON co.id = c.company_id;

UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = contacts.rowid);

-- Setting `card` fires none of the contacts' triggers: each names the columns it watches.
CREATE TRIGGER contacts_card_insert AFTER INSERT ON contacts BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = NEW.rowid)
    WHERE rowid = NEW.rowid;
END;
-- A company deleted sets its contacts' company_id to NULL, which fires this too.
CREATE TRIGGER contacts_card_update AFTER UPDATE OF id, company_id, first_name, last_name, email,
    phone, title, department, linkedin_url, status, score, source, tags, notes, is_verified,
    verification_score, verified_by, verified_at, verification_warnings, last_contacted_at,
    created_at, score_factors ON contacts BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = NEW.rowid)
    WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER contacts_card_company AFTER UPDATE OF name, city, state ON companies
WHEN OLD.name IS NOT NEW.name OR OLD.city IS NOT NEW.city
    OR OLD.state IS NOT NEW.state BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = contacts.rowid)
    WHERE company_id = NEW.id;
END;
-- The demo flag: a company found in the generated catalog.
CREATE TRIGGER contacts_card_source_insert AFTER INSERT ON company_sources
WHEN NEW.source = 'catalog' BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = contacts.rowid)
    WHERE company_id = NEW.company_id;
END;
CREATE TRIGGER contacts_card_source_update AFTER UPDATE OF company_id, source ON company_sources
WHEN OLD.source = 'catalog' OR NEW.source = 'catalog' BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = contacts.rowid)
    WHERE company_id IN (OLD.company_id, NEW.company_id);
END;
CREATE TRIGGER contacts_card_source_delete AFTER DELETE ON company_sources
WHEN OLD.source = 'catalog' BEGIN
    UPDATE contacts SET card = (SELECT v.card FROM contact_cards v WHERE v.r = contacts.rowid)
    WHERE company_id = OLD.company_id;
END;
