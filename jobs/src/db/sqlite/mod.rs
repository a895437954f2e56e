//! What SQLite does differently from Postgres and cannot be one text: the contacts' and companies'
//! text search through FTS5 trigram tables. Everything else is written once in [`super`].

mod companies;
mod contacts;
