//! metrics queries, postgres dialect.
