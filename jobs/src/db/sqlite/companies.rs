//! companies queries, sqlite dialect.
