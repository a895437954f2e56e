//! deals: params, rows and the dispatching methods (SQL in sqlite/deals.rs and postgres/deals.rs).
