//! deals queries, postgres dialect.
