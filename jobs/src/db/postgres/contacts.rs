//! Contacts, Postgres dialect: only what differs (the rest is written once in `db/contacts.rs`).

use sqlx::{Postgres, QueryBuilder};

use crate::db::ContactsDialect;
use crate::domain::like_pattern;

impl ContactsDialect for Postgres {
    // Differs: Postgres searches one stored column under a pg_trgm index; SQLite an FTS5 trigram table.
    fn push_contact_search(qb: &mut QueryBuilder<Postgres>, q: &str) {
        // The stored searched text under the pg_trgm index (migration 0029).
        match selective_digits(q) {
            // The index looks up the digits alone: the trigrams of a name are each in a tenth of
            // a large table and took the index ~14 ms at 1M contacts, a number's ~1 ms. The whole
            // term is then checked on those rows (`|| ''` keeps it off the index).
            Some(digits) => qb
                .push(" AND c.search_text LIKE ")
                .push_bind(like_pattern(digits))
                .push(" ESCAPE '\\' AND (c.search_text || '') LIKE ")
                .push_bind(like_pattern(q))
                .push(" ESCAPE '\\'"),
            None => qb
                .push(" AND c.search_text LIKE ")
                .push_bind(like_pattern(q))
                .push(" ESCAPE '\\'"),
        };
    }

    // Differs: see the SQLite twin; the list order with the search as a filter.
    fn push_search_source(_: &mut QueryBuilder<Postgres>, _: &str) -> bool {
        false
    }

    // Differs: the trigram index is not one entry per contact; the count reads the rows.
    fn push_search_count_source(_: &mut QueryBuilder<Postgres>, _: &str) -> bool {
        false
    }

    // Differs: a list binds as a text[] compared with = ANY (SQLite: a JSON array, json_each).
    fn push_in_list(qb: &mut QueryBuilder<Postgres>, list: &[String]) {
        qb.push(" = ANY(").push_bind(list).push(")");
    }

    // Differs: a LATERAL subquery reads each company's first entries of `contacts_company_rank`
    // (SQLite, without LATERAL: rowids from a correlated list subquery).
    fn push_best_of_companies(qb: &mut QueryBuilder<Postgres>, ids: &[String], per_company: i64) {
        qb.push(
            " FROM companies co CROSS JOIN LATERAL (SELECT * FROM contacts x \
             WHERE x.company_id = co.id ORDER BY x.score DESC, x.created_at, x.id LIMIT ",
        )
        .push_bind(per_company)
        .push(") c WHERE co.id");
        Self::push_in_list(qb, ids);
    }
}

/// The longest run of at least four digits in a term that has more than digits (an address's
/// number, an id in an email): rarer than any word beside it.
fn selective_digits(q: &str) -> Option<&str> {
    let q = q.trim();
    let longest = q
        .split(|c: char| !c.is_ascii_digit())
        .max_by_key(|run| run.len())
        .filter(|run| run.len() >= 4 && run.len() < q.len())?;
    Some(longest)
}

#[cfg(test)]
mod tests {
    use super::selective_digits;

    #[test]
    fn a_terms_number_is_looked_up_first() {
        assert_eq!(selective_digits("grace.wilson.123456"), Some("123456"));
        assert_eq!(selective_digits("a12b34567"), Some("34567"));
        // Too short to be rare, or the whole term: the term itself is looked up.
        assert_eq!(selective_digits("smith123"), None);
        assert_eq!(selective_digits(" 5551234 "), None);
        assert_eq!(selective_digits("garcia"), None);
    }
}
