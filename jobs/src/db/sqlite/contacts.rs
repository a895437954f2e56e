//! Contacts, SQLite dialect: only what differs (the rest is written once in `db/contacts.rs`).

use sqlx::{QueryBuilder, Sqlite};

use crate::db::ContactsDialect;
use crate::domain::like_pattern;

impl ContactsDialect for Sqlite {
    // Differs: SQLite searches the FTS5 trigram table `contacts_search`; Postgres a pg_trgm index.
    fn push_contact_search(qb: &mut QueryBuilder<Sqlite>, q: &str) {
        if q.chars().count() >= 3 {
            // The trigram index finds any substring of 3+ characters (migration 0005).
            let phrase = format!("\"{}\"", q.replace('"', "\"\""));
            qb.push(
                " AND rowid IN (SELECT rowid FROM contacts_search WHERE contacts_search MATCH ",
            )
            .push_bind(phrase)
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

    // Differs: a list binds as one JSON array read with json_each() (Postgres: a text[], = ANY).
    fn push_in_list(qb: &mut QueryBuilder<Sqlite>, list: &[String]) {
        qb.push(" IN (SELECT value FROM json_each(")
            .push_bind(serde_json::Value::from(list).to_string())
            .push("))");
    }
}
