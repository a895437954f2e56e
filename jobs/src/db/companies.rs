//! companies: params, rows and the dispatching methods (SQL in sqlite/companies.rs and postgres/companies.rs).
