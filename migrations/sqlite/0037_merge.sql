-- Duplicate companies and contacts (issue 25 §4, docs/merge.md): the normalised keys a duplicate
-- shares, as generated columns under partial indexes, so the Duplicates screen groups them with one
-- GROUP BY over an index and a record page looks its twins up by key, at any table size; and the
-- pairs a user said are not duplicates.
--
-- Differs: SQLite has no regular expressions, so its keys are nested replace() calls over a listed
-- set of punctuation (VIRTUAL: computed on read, stored only in the indexes); the Postgres twin
-- writes the same rules with regexp_replace (STORED). Made by a script from one list of rules:
--   name   lower case; apostrophes and periods dropped; , & - / ( ) " ! : ; # + * ? @ _ $ and
--          runs of spaces become one space; trailing legal suffixes (inc, llc, co, corp,
--          corporation, company, incorporated, ltd, limited, lp, llp, pllc, pc) dropped, up to two
--          (Postgres: any number); a company's key adds its city (lower case) and state (upper case).
--   phone  the digits when the number holds only digits, spaces and ( ) . + / -, and at least 10
--          of them: the last 10.
--   domain the company's stored domain, else its website's host as discovery's domain_of reads it:
--          lower case, without http:// or https:// and www., up to the first / ? #; needs a dot.
--   email  lower case, trimmed. A contact's name key needs its company (names alone collide).

-- The name key in three steps (a generated column may read another): one expression nests too deep
-- for SQLite's parser.
ALTER TABLE companies ADD COLUMN dup_name_text TEXT GENERATED ALWAYS AS (trim(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(name), '''', ''), '.', ''), '’', ''), ',', ' '), '&', ' '), '-', ' '), '/', ' '), '(', ' '), ')', ' '), '"', ' '), '!', ' '), ':', ' '), ';', ' '), '#', ' '), '+', ' '), '*', ' '), '?', ' '), '@', ' '), '_', ' '), '$', ' '), '  ', ' '), '  ', ' '), '  ', ' '), '  ', ' '))) VIRTUAL;
ALTER TABLE companies ADD COLUMN dup_name_bare TEXT GENERATED ALWAYS AS (rtrim(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(dup_name_text || '$', ' inc$', '$'), ' llc$', '$'), ' co$', '$'), ' corp$', '$'), ' corporation$', '$'), ' company$', '$'), ' incorporated$', '$'), ' ltd$', '$'), ' limited$', '$'), ' lp$', '$'), ' llp$', '$'), ' pllc$', '$'), ' pc$', '$'), ' inc$', '$'), ' llc$', '$'), ' co$', '$'), ' corp$', '$'), ' corporation$', '$'), ' company$', '$'), ' incorporated$', '$'), ' ltd$', '$'), ' limited$', '$'), ' lp$', '$'), ' llp$', '$'), ' pllc$', '$'), ' pc$', '$'), '$')) VIRTUAL;
ALTER TABLE companies ADD COLUMN dup_name TEXT GENERATED ALWAYS AS (CASE WHEN dup_name_bare <> '' THEN dup_name_bare || '|' || lower(trim(COALESCE(city, ''))) || '|' || upper(trim(COALESCE(state, ''))) END) VIRTUAL;
ALTER TABLE companies ADD COLUMN dup_domain TEXT GENERATED ALWAYS AS (COALESCE(domain, CASE WHEN substr(replace('^' || substr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/'), 1, instr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/') || '/', '/') - 1), '^www.', '^'), 2) LIKE '%.%' AND substr(substr(replace('^' || substr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/'), 1, instr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/') || '/', '/') - 1), '^www.', '^'), 2), 1, 1) <> '.' THEN substr(replace('^' || substr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/'), 1, instr(replace(replace(substr(replace(replace('^' || lower(trim(website)), '^https://', '^'), '^http://', '^'), 2), '?', '/'), '#', '/') || '/', '/') - 1), '^www.', '^'), 2) END)) VIRTUAL;
ALTER TABLE companies ADD COLUMN dup_phone TEXT GENERATED ALWAYS AS (CASE WHEN length(replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', '')) >= 10 AND replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', '') NOT GLOB '*[^0-9]*' THEN substr(replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', ''), -10) END) VIRTUAL;
CREATE INDEX companies_dup_name ON companies (dup_name) WHERE dup_name IS NOT NULL;
CREATE INDEX companies_dup_domain ON companies (dup_domain) WHERE dup_domain IS NOT NULL;
CREATE INDEX companies_dup_phone ON companies (dup_phone) WHERE dup_phone IS NOT NULL;

ALTER TABLE contacts ADD COLUMN dup_email TEXT GENERATED ALWAYS AS (NULLIF(lower(trim(email)), '')) VIRTUAL;
ALTER TABLE contacts ADD COLUMN dup_phone TEXT GENERATED ALWAYS AS (CASE WHEN length(replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', '')) >= 10 AND replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', '') NOT GLOB '*[^0-9]*' THEN substr(replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''), '/', ''), -10) END) VIRTUAL;
ALTER TABLE contacts ADD COLUMN dup_name TEXT GENERATED ALWAYS AS (CASE WHEN company_id IS NOT NULL AND trim(first_name) <> '' THEN replace(lower(trim(first_name)), '.', '') || ' ' || replace(lower(trim(last_name)), '.', '') || '|' || company_id END) VIRTUAL;
CREATE INDEX contacts_dup_email ON contacts (dup_email) WHERE dup_email IS NOT NULL;
CREATE INDEX contacts_dup_phone ON contacts (dup_phone) WHERE dup_phone IS NOT NULL;
CREATE INDEX contacts_dup_name ON contacts (dup_name) WHERE dup_name IS NOT NULL;

-- "Not duplicates": one row per pair (the smaller id first), never suggested together again.
CREATE TABLE merge_dismissals (
    record_type TEXT NOT NULL CHECK (record_type IN ('company', 'contact')),
    low_id TEXT NOT NULL,
    high_id TEXT NOT NULL,
    dismissed_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (record_type, low_id, high_id),
    CHECK (low_id < high_id)
);
CREATE INDEX merge_dismissals_high ON merge_dismissals (record_type, high_id);
