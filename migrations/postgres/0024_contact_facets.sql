-- The contacts list's filters as index entries (issue 22); the rows and their meaning are the
-- SQLite twin's (see its comments). Statement-level triggers, as 0022's: a bulk insert or update
-- writes its entries in one statement, and the counts in one upsert per facet, in key order.

CREATE TABLE contact_facets (
    facet TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    contact_id TEXT NOT NULL,
    PRIMARY KEY (facet, created_at, contact_id)
);
CREATE INDEX contact_facets_contact ON contact_facets (contact_id);
CREATE TABLE contact_facet_counts (
    facet TEXT PRIMARY KEY,
    n BIGINT NOT NULL
);
CREATE TABLE facet_role_words (word TEXT PRIMARY KEY);
INSERT INTO facet_role_words VALUES
    ('ceo'), ('president'), ('owner'), ('founder'), ('vp'), ('director'), ('manager');
CREATE TABLE facet_region_states (
    state TEXT NOT NULL,
    region TEXT NOT NULL,
    PRIMARY KEY (state, region)
);
INSERT INTO facet_region_states VALUES
    ('TX', 'texas'), ('AR', 'arkansas'), ('LA', 'louisiana'), ('MS', 'mississippi'),
    ('NM', 'new-mexico'), ('OK', 'oklahoma'), ('AZ', 'arizona'),
    ('TX', 'southwest'), ('AR', 'southwest'), ('LA', 'southwest'), ('MS', 'southwest'),
    ('NM', 'southwest'), ('OK', 'southwest'), ('AZ', 'southwest');

-- The entries of these contacts (id, status, title, company_id, created_at).
CREATE FUNCTION contact_facets_of(ids TEXT[]) RETURNS TABLE (facet TEXT, created_at BIGINT, contact_id TEXT)
LANGUAGE sql AS $$
    SELECT 'status:' || c.status, c.created_at, c.id FROM contacts c WHERE c.id = ANY(ids)
    UNION ALL
    SELECT 'role:' || w.word, c.created_at, c.id
    FROM contacts c JOIN facet_role_words w ON strpos(lower(COALESCE(c.title, '')), w.word) > 0
    WHERE c.id = ANY(ids)
    UNION ALL
    SELECT 'region:' || r.region, c.created_at, c.id
    FROM contacts c JOIN companies co ON co.id = c.company_id
        JOIN facet_region_states r ON r.state = co.state
    WHERE c.id = ANY(ids)
$$;

INSERT INTO contact_facets SELECT * FROM contact_facets_of(ARRAY(SELECT id FROM contacts));
INSERT INTO contact_facet_counts SELECT facet, COUNT(*) FROM contact_facets GROUP BY facet;

CREATE FUNCTION contact_facet_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO contact_facet_counts AS r
        SELECT facet, COUNT(*) FROM new_rows GROUP BY facet ORDER BY facet
        ON CONFLICT (facet) DO UPDATE SET n = r.n + EXCLUDED.n;
    ELSE
        INSERT INTO contact_facet_counts AS r
        SELECT facet, -COUNT(*) FROM old_rows GROUP BY facet ORDER BY facet
        ON CONFLICT (facet) DO UPDATE SET n = r.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_facet_counts_insert AFTER INSERT ON contact_facets
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facet_counts_apply();
CREATE TRIGGER contact_facet_counts_delete AFTER DELETE ON contact_facets
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facet_counts_apply();

CREATE FUNCTION contact_facets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids TEXT[];
BEGIN
    -- A transition table exists only for the events that have it, hence a branch per event.
    IF TG_OP = 'INSERT' THEN
        ids := ARRAY(SELECT id FROM new_rows ORDER BY id);
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM contact_facets f USING old_rows o WHERE f.contact_id = o.id;
        RETURN NULL;
    ELSE
        -- Only the rows whose facets move: most updates (scores, notes, touches) move none.
        ids := ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE o.status IS DISTINCT FROM n.status OR o.title IS DISTINCT FROM n.title
               OR o.company_id IS DISTINCT FROM n.company_id OR o.created_at IS DISTINCT FROM n.created_at
            ORDER BY n.id);
        IF cardinality(ids) = 0 THEN
            RETURN NULL;
        END IF;
        DELETE FROM contact_facets WHERE contact_id = ANY(ids);
    END IF;
    INSERT INTO contact_facets SELECT * FROM contact_facets_of(ids);
    RETURN NULL;
END $$;
CREATE TRIGGER contact_facets_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facets_apply();
CREATE TRIGGER contact_facets_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facets_apply();
CREATE TRIGGER contact_facets_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facets_apply();

-- A company's state moves its contacts' regions. A deleted company's contacts lose theirs through
-- the foreign key's SET NULL, an update of contacts that the trigger above sees.
CREATE FUNCTION contact_facets_company_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids TEXT[];
BEGIN
    ids := ARRAY(
        SELECT c.id FROM contacts c
        JOIN new_rows n ON n.id = c.company_id JOIN old_rows o ON o.id = n.id
        WHERE o.state IS DISTINCT FROM n.state ORDER BY c.id);
    IF cardinality(ids) > 0 THEN
        DELETE FROM contact_facets WHERE contact_id = ANY(ids) AND facet LIKE 'region:%';
        INSERT INTO contact_facets
        SELECT * FROM contact_facets_of(ids) f WHERE f.facet LIKE 'region:%';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_facets_company_state AFTER UPDATE ON companies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facets_company_apply();
