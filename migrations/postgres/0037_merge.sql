-- Duplicate companies and contacts (issue 25 §4, docs/merge.md): the normalised keys a duplicate
-- shares, as generated columns under partial indexes, so the Duplicates screen groups them with one
-- GROUP BY over an index and a record page looks its twins up by key, at any table size; and the
-- pairs a user said are not duplicates.
--
-- Differs: the rules are the SQLite twin's (read its header), written with regexp_replace; the
-- columns are STORED (Postgres has no virtual ones). A generated column cannot read another here,
-- so the name's steps are one expression. Postgres strips any number of trailing legal suffixes,
-- SQLite two.

ALTER TABLE companies ADD COLUMN dup_name TEXT GENERATED ALWAYS AS (
    CASE WHEN regexp_replace(btrim(regexp_replace(regexp_replace(lower(name), '[''’.]', '', 'g'),
                  '[,&/()"!:;#+*?@_$ -]+', ' ', 'g')),
              '( (inc|llc|co|corp|corporation|company|incorporated|ltd|limited|lp|llp|pllc|pc))+$', '') <> ''
         THEN regexp_replace(btrim(regexp_replace(regexp_replace(lower(name), '[''’.]', '', 'g'),
                  '[,&/()"!:;#+*?@_$ -]+', ' ', 'g')),
              '( (inc|llc|co|corp|corporation|company|incorporated|ltd|limited|lp|llp|pllc|pc))+$', '')
              || '|' || lower(btrim(COALESCE(city, ''))) || '|' || upper(btrim(COALESCE(state, '')))
    END) STORED;
ALTER TABLE companies ADD COLUMN dup_domain TEXT GENERATED ALWAYS AS (COALESCE(domain,
    CASE WHEN regexp_replace(regexp_replace(regexp_replace(lower(btrim(website)), '^https?://', ''),
                  '[/?#].*$', ''), '^www\.', '') LIKE '%.%'
          AND left(regexp_replace(regexp_replace(regexp_replace(lower(btrim(website)), '^https?://', ''),
                  '[/?#].*$', ''), '^www\.', ''), 1) <> '.'
         THEN regexp_replace(regexp_replace(regexp_replace(lower(btrim(website)), '^https?://', ''),
                  '[/?#].*$', ''), '^www\.', '')
    END)) STORED;
ALTER TABLE companies ADD COLUMN dup_phone TEXT GENERATED ALWAYS AS (
    CASE WHEN phone ~ '^[0-9 ().+/-]+$' AND length(regexp_replace(phone, '[^0-9]', '', 'g')) >= 10
         THEN right(regexp_replace(phone, '[^0-9]', '', 'g'), 10) END) STORED;
CREATE INDEX companies_dup_name ON companies (dup_name) WHERE dup_name IS NOT NULL;
CREATE INDEX companies_dup_domain ON companies (dup_domain) WHERE dup_domain IS NOT NULL;
CREATE INDEX companies_dup_phone ON companies (dup_phone) WHERE dup_phone IS NOT NULL;

ALTER TABLE contacts ADD COLUMN dup_email TEXT GENERATED ALWAYS AS (NULLIF(lower(btrim(email)), '')) STORED;
ALTER TABLE contacts ADD COLUMN dup_phone TEXT GENERATED ALWAYS AS (
    CASE WHEN phone ~ '^[0-9 ().+/-]+$' AND length(regexp_replace(phone, '[^0-9]', '', 'g')) >= 10
         THEN right(regexp_replace(phone, '[^0-9]', '', 'g'), 10) END) STORED;
ALTER TABLE contacts ADD COLUMN dup_name TEXT GENERATED ALWAYS AS (
    CASE WHEN company_id IS NOT NULL AND btrim(first_name) <> ''
         THEN replace(lower(btrim(first_name)), '.', '') || ' ' || replace(lower(btrim(last_name)), '.', '')
              || '|' || company_id END) STORED;
CREATE INDEX contacts_dup_email ON contacts (dup_email) WHERE dup_email IS NOT NULL;
CREATE INDEX contacts_dup_phone ON contacts (dup_phone) WHERE dup_phone IS NOT NULL;
CREATE INDEX contacts_dup_name ON contacts (dup_name) WHERE dup_name IS NOT NULL;

-- "Not duplicates": one row per pair (the smaller id first), never suggested together again.
CREATE TABLE merge_dismissals (
    record_type TEXT NOT NULL CHECK (record_type IN ('company', 'contact')),
    low_id TEXT NOT NULL,
    high_id TEXT NOT NULL,
    dismissed_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (record_type, low_id, high_id),
    CHECK (low_id < high_id)
);
CREATE INDEX merge_dismissals_high ON merge_dismissals (record_type, high_id);
