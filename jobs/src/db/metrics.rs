//! metrics: params, rows and the dispatching methods (SQL in sqlite/metrics.rs and postgres/metrics.rs).
