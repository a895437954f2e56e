-- Combined facets (issue 22): an entry in contact_facets for every combination of two or three
-- of a contact's facets of different kinds, keyed by the facets in order joined with '&'; the rows
-- and their meaning are the SQLite twin's (see its comments). Statement-level triggers, as 0024's:
-- a statement that adds entries adds, per contact, the combinations of its entries that hold at
-- least one new entry; one that removes entries removes every combination that holds one. The
-- combinations' own statements fire the triggers again, which return at once (no plain entry).

-- The combinations of each contact's plain entries (kinds in order: region < role < status) that
-- hold at least one changed entry. The entries come as arrays of one length: a transition table
-- cannot be passed on.
CREATE FUNCTION contact_facet_combos_of(ids TEXT[], created BIGINT[], facets TEXT[], changed BOOLEAN[])
RETURNS TABLE (facet TEXT, created_at BIGINT, contact_id TEXT) LANGUAGE sql AS $$
    WITH u AS (
        SELECT e.contact_id, e.created_at, e.facet,
               split_part(e.facet, ':', 1) AS kind, e.changed
        FROM unnest(ids, created, facets, changed) AS e(contact_id, created_at, facet, changed)
    )
    SELECT a.facet || '&' || b.facet, a.created_at, a.contact_id
    FROM u a JOIN u b ON b.contact_id = a.contact_id AND a.kind < b.kind
    WHERE a.changed OR b.changed
    UNION ALL
    SELECT a.facet || '&' || b.facet || '&' || c.facet, a.created_at, a.contact_id
    FROM u a JOIN u b ON b.contact_id = a.contact_id AND a.kind < b.kind
        JOIN u c ON c.contact_id = a.contact_id AND b.kind < c.kind
    WHERE a.changed OR b.changed OR c.changed
    ORDER BY 1, 2, 3
$$;

INSERT INTO contact_facets
SELECT c.* FROM (
    SELECT array_agg(contact_id) AS ids, array_agg(created_at) AS created,
           array_agg(facet) AS facets, array_agg(true) AS changed
    FROM contact_facets
) e, contact_facet_combos_of(e.ids, e.created, e.facets, e.changed) c;

CREATE FUNCTION contact_facet_combos_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids TEXT[];
    created BIGINT[];
    facets TEXT[];
    changed BOOLEAN[];
BEGIN
    -- A transition table exists only for the events that have it, hence a branch per event.
    IF TG_OP = 'INSERT' THEN
        IF NOT EXISTS (SELECT 1 FROM new_rows n WHERE strpos(n.facet, '&') = 0) THEN
            RETURN NULL;
        END IF;
        SELECT array_agg(f.contact_id), array_agg(f.created_at), array_agg(f.facet),
               array_agg(EXISTS (SELECT 1 FROM new_rows n
                                 WHERE n.contact_id = f.contact_id AND n.facet = f.facet))
        INTO ids, created, facets, changed
        FROM contact_facets f
        WHERE strpos(f.facet, '&') = 0
          AND f.contact_id IN (SELECT n.contact_id FROM new_rows n WHERE strpos(n.facet, '&') = 0);
        INSERT INTO contact_facets
        SELECT * FROM contact_facet_combos_of(ids, created, facets, changed);
    ELSE
        IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE strpos(o.facet, '&') = 0) THEN
            RETURN NULL;
        END IF;
        DELETE FROM contact_facets f USING old_rows o
        WHERE strpos(o.facet, '&') = 0 AND f.contact_id = o.contact_id
          AND strpos(f.facet, '&') > 0
          AND strpos('&' || f.facet || '&', '&' || o.facet || '&') > 0;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_facet_combos_insert AFTER INSERT ON contact_facets
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facet_combos_apply();
CREATE TRIGGER contact_facet_combos_delete AFTER DELETE ON contact_facets
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contact_facet_combos_apply();

-- 0024's update branch rebuilt every entry of a contact whose status moved; with the combinations
-- counted, that took away and added back each of its combinations. A status move now swaps its
-- one entry (as on SQLite), and only a title, company or creation change rebuilds.
CREATE OR REPLACE FUNCTION contact_facets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
        ids := ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE o.title IS DISTINCT FROM n.title OR o.company_id IS DISTINCT FROM n.company_id
               OR o.created_at IS DISTINCT FROM n.created_at
            ORDER BY n.id);
        IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                   WHERE o.status IS DISTINCT FROM n.status AND NOT n.id = ANY(ids)) THEN
            DELETE FROM contact_facets f USING old_rows o, new_rows n
            WHERE n.id = o.id AND o.status IS DISTINCT FROM n.status AND NOT n.id = ANY(ids)
              AND f.facet = 'status:' || o.status AND f.created_at = o.created_at
              AND f.contact_id = o.id;
            INSERT INTO contact_facets
            SELECT 'status:' || n.status, n.created_at, n.id
            FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE o.status IS DISTINCT FROM n.status AND NOT n.id = ANY(ids)
            ORDER BY 1, 2, 3;
        END IF;
        IF cardinality(ids) = 0 THEN
            RETURN NULL;
        END IF;
        DELETE FROM contact_facets WHERE contact_id = ANY(ids);
    END IF;
    INSERT INTO contact_facets SELECT * FROM contact_facets_of(ids);
    RETURN NULL;
END $$;
