-- Substring search ("q") without a scan of every row: trigram full-text indexes, kept in step by
-- triggers. They are keyed by rowid; the tables have TEXT primary keys, so never run VACUUM on this
-- database (it may renumber rowids); auto_vacuum and WAL checkpoints are safe.

CREATE VIRTUAL TABLE contacts_search USING fts5(doc, content='', contentless_delete=1, tokenize='trigram');
INSERT INTO contacts_search(rowid, doc)
    SELECT rowid, first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(title, '') FROM contacts;
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contacts_search(rowid, doc)
        VALUES (new.rowid, new.first_name || ' ' || new.last_name || ' ' || coalesce(new.email, '') || ' ' || coalesce(new.title, ''));
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
    DELETE FROM contacts_search WHERE rowid = old.rowid;
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE OF first_name, last_name, email, title ON contacts BEGIN
    DELETE FROM contacts_search WHERE rowid = old.rowid;
    INSERT INTO contacts_search(rowid, doc)
        VALUES (new.rowid, new.first_name || ' ' || new.last_name || ' ' || coalesce(new.email, '') || ' ' || coalesce(new.title, ''));
END;

CREATE VIRTUAL TABLE companies_search USING fts5(doc, content='', contentless_delete=1, tokenize='trigram');
INSERT INTO companies_search(rowid, doc)
    SELECT rowid, name || ' ' || coalesce(industry, '') || ' ' || coalesce(city, '') || ' ' || coalesce(state, '') FROM companies;
CREATE TRIGGER companies_search_insert AFTER INSERT ON companies BEGIN
    INSERT INTO companies_search(rowid, doc)
        VALUES (new.rowid, new.name || ' ' || coalesce(new.industry, '') || ' ' || coalesce(new.city, '') || ' ' || coalesce(new.state, ''));
END;
CREATE TRIGGER companies_search_delete AFTER DELETE ON companies BEGIN
    DELETE FROM companies_search WHERE rowid = old.rowid;
END;
CREATE TRIGGER companies_search_update AFTER UPDATE OF name, industry, city, state ON companies BEGIN
    DELETE FROM companies_search WHERE rowid = old.rowid;
    INSERT INTO companies_search(rowid, doc)
        VALUES (new.rowid, new.name || ' ' || coalesce(new.industry, '') || ' ' || coalesce(new.city, '') || ' ' || coalesce(new.state, ''));
END;
