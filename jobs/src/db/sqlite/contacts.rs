//! contacts queries, sqlite dialect.
