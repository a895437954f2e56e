//! metrics queries, sqlite dialect.
