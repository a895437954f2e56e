//! contacts queries, postgres dialect.
