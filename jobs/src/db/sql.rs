//! One text per query for both dialects. SQL is written once with SQLite's numbered placeholders
//! (`?1`, `?2`, …) and [`sql!`] makes the Postgres text (`$1`, `$2`, …) at compile time: the two have
//! the same length, so a `const fn` can swap them. [`on_db!`] and [`on_tx!`] then compile one body
//! once per backend, so binds and row types are checked against each. Only what really differs
//! between the engines (full-text search, list binds, row locks, upserts of JSON) stays in
//! `sqlite/` and `postgres/`.

/// A query's text in each dialect.
#[derive(Debug, Clone, Copy)]
pub struct Sql {
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// `?N` outside string literals becomes `$N`; everything else is copied. Same length in and out.
pub const fn to_postgres<const N: usize>(sql: &str) -> [u8; N] {
    let b = sql.as_bytes();
    let mut out = [0u8; N];
    let mut quoted = false;
    let mut i = 0;
    while i < N {
        let c = b[i];
        if c == b'\'' {
            quoted = !quoted;
        }
        out[i] = if c == b'?' && !quoted && i + 1 < N && b[i + 1].is_ascii_digit() {
            b'$'
        } else {
            c
        };
        i += 1;
    }
    out
}

/// The [`Sql`] of a text written with `?N` placeholders, both dialects made at compile time.
macro_rules! sql {
    ($text:expr) => {{
        const SQLITE: &str = $text;
        const BYTES: [u8; SQLITE.len()] = $crate::db::sql::to_postgres::<{ SQLITE.len() }>(SQLITE);
        const POSTGRES: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(s) => s,
            Err(_) => panic!("SQL text is not UTF-8"),
        };
        $crate::db::sql::Sql {
            sqlite: SQLITE,
            postgres: POSTGRES,
        }
    }};
}

/// Runs `$body` with `$pool` the backend's pool and each `$name` the text of its [`Sql`] in that
/// backend's dialect; the body is written once and compiled for each backend.
macro_rules! on_db {
    ($db:expr, $pool:ident, [$($name:ident = $q:expr),+ $(,)?], $body:expr) => {
        match $db {
            Db::Sqlite($pool) => {
                $(let $name: &'static str = $q.sqlite;)+
                $body
            }
            Db::Postgres($pool) => {
                $(let $name: &'static str = $q.postgres;)+
                $body
            }
        }
    };
}

/// As [`on_db!`], with `$conn` the transaction's connection.
macro_rules! on_tx {
    ($tx:expr, $conn:ident, [$($name:ident = $q:expr),+ $(,)?], $body:expr) => {
        match $tx {
            Tx::Sqlite(tx) => {
                let $conn = &mut **tx;
                $(let $name: &'static str = $q.sqlite;)+
                $body
            }
            Tx::Postgres(tx) => {
                let $conn = &mut **tx;
                $(let $name: &'static str = $q.postgres;)+
                $body
            }
        }
    };
}

/// Differs: a list travels as one JSON array of text, read with `json_each` in SQLite and with
/// `jsonb_array_elements_text` in Postgres. `in_list!(before, n, after)` is the statement with the
/// list as placeholder `?n` between `before` and `after`.
macro_rules! in_list {
    ($before:expr, $n:literal, $after:expr) => {
        $crate::db::sql::Sql {
            sqlite: sql!(concat!(
                $before,
                "(SELECT value FROM json_each(?",
                $n,
                "))",
                $after
            ))
            .sqlite,
            postgres: sql!(concat!(
                $before,
                "(SELECT jsonb_array_elements_text(?",
                $n,
                "::jsonb))",
                $after
            ))
            .postgres,
        }
    };
}

/// Differs: Postgres locks the rows it reads (`$lock` between `before` and `after`); in SQLite the
/// transaction already holds the database's one write lock (`BEGIN IMMEDIATE`).
macro_rules! locking {
    ($before:expr, $lock:literal, $after:expr) => {
        $crate::db::sql::Sql {
            sqlite: sql!(concat!($before, $after)).sqlite,
            postgres: sql!(concat!($before, " ", $lock, $after)).postgres,
        }
    };
}

/// `SELECT <$columns!()> FROM <$table> <$rest>`, one text for both dialects.
macro_rules! select {
    ($columns:ident, $table:literal, $rest:literal) => {
        sql!(concat!(
            "SELECT ",
            $columns!(),
            " FROM ",
            $table,
            " ",
            $rest
        ))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_string_literals() {
        const Q: Sql =
            sql!("SELECT '?1 stays', x FROM t WHERE a = ?1 AND b IN (?2, ?10) AND c ? 'k'");
        assert_eq!(
            Q.postgres,
            "SELECT '?1 stays', x FROM t WHERE a = $1 AND b IN ($2, $10) AND c ? 'k'"
        );
        assert_eq!(Q.sqlite.len(), Q.postgres.len());
        const J: Sql = sql!("SELECT json_extract(v, '$[#]') FROM t WHERE id = ?1");
        assert_eq!(
            J.postgres,
            "SELECT json_extract(v, '$[#]') FROM t WHERE id = $1"
        );
    }
}
