-- The contacts list's filters as index entries (issue 22). A filter on role, region and status
-- together walked every contact newest first and read each row and its company until it had the
-- page (and again for the total): a role that no title holds read all 100,000 contacts. Each
-- contact now has one entry per facet it carries, in list order:
--   status:<status>   its status;
--   role:<word>       each of the list's role words its title contains (lower-cased);
--   region:<region>   each region of seed 000 §3 its company's state belongs to.
-- A filtered page reads the entries of its smallest facet and probes the others by key; the
-- counts per facet say which is smallest and are the total of a one-facet filter.

CREATE TABLE contact_facets (
    facet TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    contact_id TEXT NOT NULL,
    PRIMARY KEY (facet, created_at, contact_id)
) WITHOUT ROWID;
CREATE INDEX contact_facets_contact ON contact_facets (contact_id);
CREATE TABLE contact_facet_counts (
    facet TEXT PRIMARY KEY,
    n INTEGER NOT NULL
) WITHOUT ROWID;

-- The contacts screen's role words (web: contact-filters.tsx ROLES) and the regions' states
-- (jobs/src/geo.rs region_states).
CREATE TABLE facet_role_words (word TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO facet_role_words VALUES
    ('ceo'), ('president'), ('owner'), ('founder'), ('vp'), ('director'), ('manager');
CREATE TABLE facet_region_states (
    state TEXT NOT NULL,
    region TEXT NOT NULL,
    PRIMARY KEY (state, region)
) WITHOUT ROWID;
INSERT INTO facet_region_states VALUES
    ('TX', 'texas'), ('AR', 'arkansas'), ('LA', 'louisiana'), ('MS', 'mississippi'),
    ('NM', 'new-mexico'), ('OK', 'oklahoma'), ('AZ', 'arizona'),
    ('TX', 'southwest'), ('AR', 'southwest'), ('LA', 'southwest'), ('MS', 'southwest'),
    ('NM', 'southwest'), ('OK', 'southwest'), ('AZ', 'southwest');

-- The counts follow the entries.
CREATE TRIGGER contact_facet_counts_insert AFTER INSERT ON contact_facets BEGIN
    INSERT INTO contact_facet_counts (facet, n) VALUES (NEW.facet, 1)
        ON CONFLICT (facet) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER contact_facet_counts_delete AFTER DELETE ON contact_facets BEGIN
    UPDATE contact_facet_counts SET n = n - 1 WHERE facet = OLD.facet;
END;

INSERT INTO contact_facets (facet, created_at, contact_id)
SELECT 'status:' || status, created_at, id FROM contacts;
INSERT INTO contact_facets (facet, created_at, contact_id)
SELECT 'role:' || w.word, c.created_at, c.id
FROM contacts c JOIN facet_role_words w ON instr(lower(COALESCE(c.title, '')), w.word) > 0;
INSERT INTO contact_facets (facet, created_at, contact_id)
SELECT 'region:' || r.region, c.created_at, c.id
FROM contacts c JOIN companies co ON co.id = c.company_id JOIN facet_region_states r ON r.state = co.state;

CREATE TRIGGER contact_facets_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contact_facets (facet, created_at, contact_id)
    VALUES ('status:' || NEW.status, NEW.created_at, NEW.id);
    INSERT INTO contact_facets (facet, created_at, contact_id)
    SELECT 'role:' || word, NEW.created_at, NEW.id FROM facet_role_words
    WHERE instr(lower(COALESCE(NEW.title, '')), word) > 0;
    INSERT INTO contact_facets (facet, created_at, contact_id)
    SELECT 'region:' || r.region, NEW.created_at, NEW.id
    FROM companies co JOIN facet_region_states r ON r.state = co.state WHERE co.id = NEW.company_id;
END;
CREATE TRIGGER contact_facets_delete AFTER DELETE ON contacts BEGIN
    DELETE FROM contact_facets WHERE contact_id = OLD.id;
END;
-- A status move swaps one entry; the rebuild below may run before or after it (both apply when an
-- edit changes the status and the title), hence OR IGNORE.
CREATE TRIGGER contact_facets_status AFTER UPDATE OF status ON contacts
WHEN OLD.status IS NOT NEW.status BEGIN
    DELETE FROM contact_facets
    WHERE facet = 'status:' || OLD.status AND created_at = OLD.created_at AND contact_id = OLD.id;
    INSERT OR IGNORE INTO contact_facets (facet, created_at, contact_id)
    VALUES ('status:' || NEW.status, NEW.created_at, NEW.id);
END;
CREATE TRIGGER contact_facets_rebuild AFTER UPDATE OF title, company_id, created_at ON contacts
WHEN OLD.title IS NOT NEW.title OR OLD.company_id IS NOT NEW.company_id
    OR OLD.created_at IS NOT NEW.created_at BEGIN
    DELETE FROM contact_facets WHERE contact_id = OLD.id;
    INSERT OR IGNORE INTO contact_facets (facet, created_at, contact_id)
    VALUES ('status:' || NEW.status, NEW.created_at, NEW.id);
    INSERT INTO contact_facets (facet, created_at, contact_id)
    SELECT 'role:' || word, NEW.created_at, NEW.id FROM facet_role_words
    WHERE instr(lower(COALESCE(NEW.title, '')), word) > 0;
    INSERT INTO contact_facets (facet, created_at, contact_id)
    SELECT 'region:' || r.region, NEW.created_at, NEW.id
    FROM companies co JOIN facet_region_states r ON r.state = co.state WHERE co.id = NEW.company_id;
END;
-- A company's state moves its contacts' regions; a deleted company leaves them without one.
CREATE TRIGGER contact_facets_company_state AFTER UPDATE OF state ON companies
WHEN OLD.state IS NOT NEW.state BEGIN
    DELETE FROM contact_facets
    WHERE contact_id IN (SELECT id FROM contacts WHERE company_id = NEW.id)
      AND facet >= 'region:' AND facet < 'region;';
    INSERT INTO contact_facets (facet, created_at, contact_id)
    SELECT 'region:' || r.region, c.created_at, c.id
    FROM contacts c JOIN facet_region_states r ON r.state = NEW.state WHERE c.company_id = NEW.id;
END;
CREATE TRIGGER contact_facets_company_delete BEFORE DELETE ON companies BEGIN
    DELETE FROM contact_facets
    WHERE contact_id IN (SELECT id FROM contacts WHERE company_id = OLD.id)
      AND facet >= 'region:' AND facet < 'region;';
END;
