//! What Postgres does differently from SQLite and cannot be one text: the text search under pg_trgm
//! indexes, the workers' wake-up through `NOTIFY`, and a batch's successes finished over arrays.
//! Everything else is written once in [`super`].

mod companies;
mod contacts;
mod queue;

pub use queue::*;
