//! Companies, SQLite dialect: only what differs (the rest is written once in `db/companies.rs`).

use sqlx::{QueryBuilder, Sqlite, SqlitePool};

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

/// After the inner `FROM companies` of a page's ids: walk the list's default order.
pub(crate) const WALK_ORDER: &str = " INDEXED BY companies_order";
/// A page's filter by the matches [`SearchAlone::plan`] read, bound as one JSON array, then `))`.
pub(crate) const MATCHED: &str = " WHERE rowid IN (SELECT value FROM json_each(";
/// A search's matches from the FTS table alone (one row per company, migration 0005's
/// triggers), up to ?2, as a JSON array and their number; then the largest rowid, which bounds
/// the number of companies.
const SEARCH_ALONE: &str = "SELECT m.matched, m.n, (SELECT COALESCE(MAX(rowid), 0) FROM companies)
     FROM (SELECT json_group_array(rowid) AS matched, COUNT(*) AS n FROM
         (SELECT rowid FROM companies_search WHERE companies_search MATCH ?1 LIMIT ?2)) m";

/// How the pages of a search with no other filter are read, in the list's default order.
/// The matches are read once, here, and counted; the page is then filtered by them, not by a
/// second run of the FTS query (an FTS phrase was a quarter of the route's CPU; the pair of
/// statements took 0.24–0.78 ms where two FTS runs took 0.34–1.40).
/// Sorting the matches reads each one's row (~1 µs at 20,000 companies); walking the order's
/// index checks each entry against the matches (~0.04 µs) and stops at the page's end, about
/// `companies × reach / matches` entries in. A common word ("garcia", 832 matches) took the
/// first 0.95 ms, the walk 0.19 ms; a rare one is the other way round (1 match: 0.4 ms against
/// a walk of every entry, 1.2 ms).
pub(crate) struct SearchAlone {
    /// Counted up to the cap passed to [`SearchAlone::plan`], and one more.
    pub matches: i64,
    /// The matches' rowids (a JSON array), unless there are more than the cap.
    pub matched: Option<String>,
    pub walk: bool,
}

impl SearchAlone {
    /// None for a term the trigram index cannot look up (under 3 characters).
    pub(crate) async fn plan(
        pool: &SqlitePool,
        q: &str,
        cap: i64,
        reach: i64,
    ) -> Result<Option<Self>, sqlx::Error> {
        if q.chars().count() < 3 {
            return Ok(None);
        }
        let (matched, matches, rows): (String, i64, i64) = sqlx::query_as(SEARCH_ALONE)
            .bind(fts_phrase(q))
            .bind(cap.saturating_add(1))
            .fetch_one(pool)
            .await?;
        // The measured costs above, ~25 to 1: walk when it checks fewer than 25 entries a match.
        let walk = matches.saturating_mul(matches).saturating_mul(25) >= rows.saturating_mul(reach);
        Ok(Some(Self {
            matches,
            matched: (matches <= cap).then_some(matched),
            walk,
        }))
    }
}
