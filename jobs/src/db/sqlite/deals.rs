//! deals queries, sqlite dialect.
