//! contacts: params, rows and the dispatching methods (SQL in sqlite/contacts.rs and postgres/contacts.rs).
