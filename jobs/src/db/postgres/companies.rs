//! companies queries, postgres dialect.
