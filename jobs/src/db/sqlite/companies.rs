//! Companies, SQLite dialect: only what differs (the rest is written once in `db/companies.rs`).

use sqlx::{QueryBuilder, Sqlite};

use super::fts_phrase;
use crate::db::CompanySearch;
use crate::domain::like_pattern;

// Differs: SQLite searches the FTS5 trigram table `companies_search`; Postgres a pg_trgm index.
impl CompanySearch for Sqlite {
    fn push_company_search(qb: &mut QueryBuilder<Sqlite>, q: &str) {
        if q.chars().count() >= 3 {
            // The trigram index finds any substring of 3+ characters (migration 0005).
            let phrase = fts_phrase(q);
            qb.push(
                " AND rowid IN (SELECT rowid FROM companies_search WHERE companies_search MATCH ",
            )
            .push_bind(phrase)
            .push(")");
        } else {
            let pat = like_pattern(q);
            qb.push(" AND (lower(name) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(industry, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(city, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(state, '')) LIKE ")
                .push_bind(pat)
                .push(" ESCAPE '\\')");
        }
    }
}
