//! Contacts, SQLite dialect: only what differs (the rest is written once in `db/contacts.rs`).

use sqlx::{QueryBuilder, Sqlite};

use super::fts_phrase;
use crate::db::ContactsDialect;
use crate::domain::like_pattern;

impl ContactsDialect for Sqlite {
    // Differs: SQLite searches the FTS5 trigram table `contacts_search`; Postgres a pg_trgm index.
    fn push_contact_search(qb: &mut QueryBuilder<Sqlite>, q: &str) {
        if q.chars().count() >= 3 {
            // The trigram index finds any substring of 3+ characters (migration 0005).
            qb.push(
                " AND rowid IN (SELECT rowid FROM contacts_search WHERE contacts_search MATCH ",
            )
            .push_bind(fts_phrase(q))
            .push(")");
        } else {
            let pat = like_pattern(q);
            qb.push(" AND (lower(first_name || ' ' || last_name) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(email, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(title, '')) LIKE ")
                .push_bind(pat)
                .push(" ESCAPE '\\')");
        }
    }

    // Differs: FTS5 yields matches in rowid order, newest first when asked, and stops at the page;
    // Postgres reads its list index in order and filters (its planner picks the trigram index
    // for a rare term).
    fn push_search_source(qb: &mut QueryBuilder<Sqlite>, q: &str) -> bool {
        if q.chars().count() < 3 {
            return false;
        }
        qb.push(
            "SELECT c.*, s.rid AS search_rank FROM (SELECT rowid AS rid FROM contacts_search \
             WHERE contacts_search MATCH ",
        )
        .push_bind(fts_phrase(q))
        .push(") s CROSS JOIN contacts c ON c.rowid = s.rid");
        true
    }

    // Differs: the FTS table holds one row per contact (migration 0005's triggers), so a search
    // alone is counted from it without reading the contacts.
    fn push_search_count_source(qb: &mut QueryBuilder<Sqlite>, q: &str) -> bool {
        if q.chars().count() < 3 {
            return false;
        }
        qb.push("SELECT 1 FROM contacts_search WHERE contacts_search MATCH ")
            .push_bind(fts_phrase(q));
        true
    }

    // Differs: a list binds as one JSON array read with json_each() (Postgres: a text[], = ANY).
    fn push_in_list(qb: &mut QueryBuilder<Sqlite>, list: &[String]) {
        qb.push(" IN (SELECT value FROM json_each(")
            .push_bind(serde_json::Value::from(list).to_string())
            .push("))");
    }

    // Differs: SQLite has no LATERAL join; the rows are taken by rowid from each company's first
    // entries of `contacts_company_rank` (Postgres: a LATERAL subquery with its LIMIT).
    fn push_best_of_companies(qb: &mut QueryBuilder<Sqlite>, ids: &[String], per_company: i64) {
        // CROSS JOIN keeps the companies the outer loop.
        qb.push(" FROM companies co CROSS JOIN contacts c WHERE co.id");
        Self::push_in_list(qb, ids);
        qb.push(
            " AND c.rowid IN (SELECT x.rowid FROM contacts x WHERE x.company_id = co.id \
             ORDER BY x.score DESC, x.created_at, x.id LIMIT ",
        )
        .push_bind(per_company)
        .push(")");
    }
}
