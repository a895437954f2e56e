//! What SQLite does differently from Postgres and cannot be one text: the contacts' and companies'
//! text search through FTS5 trigram tables, and a batch's successes finished over a JSON array.
//! Everything else is written once in [`super`].

pub(crate) mod checkpoint;
pub(crate) mod companies;
mod contacts;
mod queue;

pub use queue::*;

/// `q` as one FTS5 phrase: the trigram index then finds it as a substring.
pub(crate) fn fts_phrase(q: &str) -> String {
    format!("\"{}\"", q.replace('"', "\"\""))
}
