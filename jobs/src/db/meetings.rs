//! meetings: params, rows and the dispatching methods (SQL in sqlite/meetings.rs and postgres/meetings.rs).
