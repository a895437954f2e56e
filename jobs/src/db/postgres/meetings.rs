//! meetings queries, postgres dialect.
