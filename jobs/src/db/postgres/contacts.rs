//! Contacts, Postgres dialect: only what differs (the rest is written once in `db/contacts.rs`).

use sqlx::{Postgres, QueryBuilder};

use crate::db::ContactsDialect;
use crate::domain::like_pattern;

impl ContactsDialect for Postgres {
    // Differs: Postgres searches one stored column under a pg_trgm index; SQLite an FTS5 trigram table.
    fn push_contact_search(qb: &mut QueryBuilder<Postgres>, q: &str) {
        // The stored searched text under the pg_trgm index (migration 0029).
        qb.push(" AND c.search_text LIKE ")
            .push_bind(like_pattern(q))
            .push(" ESCAPE '\\'");
    }

    // Differs: see the SQLite twin; the list order with the search as a filter.
    fn push_search_source(_: &mut QueryBuilder<Postgres>, _: &str) -> bool {
        false
    }

    // Differs: a list binds as a text[] compared with = ANY (SQLite: a JSON array, json_each).
    fn push_in_list(qb: &mut QueryBuilder<Postgres>, list: &[String]) {
        qb.push(" = ANY(").push_bind(list).push(")");
    }
}
