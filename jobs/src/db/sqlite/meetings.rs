//! meetings queries, sqlite dialect.
