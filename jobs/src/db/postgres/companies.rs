//! Companies, Postgres dialect: only what differs (the rest is written once in `db/companies.rs`).

use sqlx::{Postgres, QueryBuilder};

use crate::db::CompanySearch;
use crate::domain::like_pattern;

// Differs: Postgres searches one stored column under a pg_trgm index; SQLite an FTS5 trigram table.
impl CompanySearch for Postgres {
    fn push_company_search(qb: &mut QueryBuilder<Postgres>, q: &str) {
        // The stored searched text under the pg_trgm index (migration 0029).
        qb.push(" AND companies.search_text LIKE ")
            .push_bind(like_pattern(q))
            .push(" ESCAPE '\\'");
    }
}
