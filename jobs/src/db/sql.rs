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
    /// Postgres plans it once per connection (see [`Sql::with_generic_plan`]).
    pub generic_plan: bool,
}

impl Sql {
    /// Marks a read whose best plan is the same whatever values are bound (rollup rows, windows
    /// of days, unions of per-source pages): on Postgres [`on_db!`] runs it on read connections
    /// with `plan_cache_mode = force_generic_plan`, which plan it once. On the other read
    /// connections Postgres keeps planning it for each run: a parameter in a range or a `LIMIT`
    /// makes the one-off plan look dearer than a custom one, and planning these statements cost
    /// up to 20 times their execution (docs/performance.md).
    pub const fn with_generic_plan(self) -> Self {
        Self {
            generic_plan: true,
            ..self
        }
    }

    /// Whether the statement writes (`INSERT`, `UPDATE`, `DELETE`, `REPLACE`, or any statement
    /// with `RETURNING`): [`fetch!`] runs such a one on the pool kept for writes.
    pub fn writes(&self) -> bool {
        let text = self.sqlite.trim_start();
        ["INSERT", "UPDATE", "DELETE", "REPLACE"].iter().any(|w| {
            text.as_bytes()
                .get(..w.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(w.as_bytes()))
        }) || text.contains("RETURNING")
    }
}

/// How a dialect writes a list page's `LIMIT`: written into the statement's text, or bound.
pub(crate) trait PageLimit: sqlx::Database {
    /// Whether the limit is written into the text. Postgres plans a list's page once per
    /// connection ([`Sql::with_generic_plan`]), and a plan made for an unknown limit reads and
    /// sorts every match; with the limit known it walks the index as a plan for the values does
    /// (the offset may stay bound: both plans skip it in the index). SQLite plans each run with
    /// its values, and a bound limit keeps one statement.
    const LIMIT_IN_TEXT: bool;
}

impl PageLimit for sqlx::Sqlite {
    const LIMIT_IN_TEXT: bool = false;
}

impl PageLimit for sqlx::Postgres {
    const LIMIT_IN_TEXT: bool = true;
}

/// ` LIMIT <limit> OFFSET <offset>` of a list's page, the limit in the text where the dialect
/// wants it there ([`PageLimit::LIMIT_IN_TEXT`]; it is a number, never the client's text).
pub(crate) fn push_limit_offset<DB: PageLimit>(
    qb: &mut sqlx::QueryBuilder<DB>,
    limit: i64,
    offset: i64,
) where
    i64: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    qb.push(" LIMIT ");
    if DB::LIMIT_IN_TEXT {
        qb.push(limit);
    } else {
        qb.push_bind(limit);
    }
    qb.push(" OFFSET ").push_bind(offset);
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
            generic_plan: false,
        }
    }};
}

/// Runs `$body` with `$pool` the backend's pool for reads (see [`Pools`](super::Pools)) and each
/// `$name` the text of its [`Sql`] in that backend's dialect; the body is written once and
/// compiled for each backend.
macro_rules! on_db {
    ($db:expr, $pool:ident, [$($name:ident = $q:expr),+ $(,)?], $body:expr) => {
        match $db {
            Db::Sqlite(pools) => {
                let $pool = pools.read();
                $(let $name: &'static str = $q.sqlite;)+
                $body
            }
            Db::Postgres(pools) => {
                let $pool = pools.read_planned(&[$($q.generic_plan),+]);
                $(let $name: &'static str = $q.postgres;)+
                $body
            }
        }
    };
    (@ $which:ident, $db:expr, $pool:ident, [$($name:ident = $q:expr),+ $(,)?], $body:expr) => {
        match $db {
            Db::Sqlite(pools) => {
                let $pool = pools.$which();
                $(let $name: &'static str = $q.sqlite;)+
                $body
            }
            Db::Postgres(pools) => {
                let $pool = pools.$which();
                $(let $name: &'static str = $q.postgres;)+
                $body
            }
        }
    };
}

/// As [`on_db!`] on the pool kept for writes, so a write never queues behind slow reads.
macro_rules! on_db_write {
    ($db:expr, $pool:ident, [$($name:ident = $q:expr),+ $(,)?], $body:expr) => {
        on_db!(@ write, $db, $pool, [$($name = $q),+], $body)
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

/// Runs statement `$q` on `$db` (a [`Db`](super::Db)) with each `$arg` bound: the rows it changed.
macro_rules! exec {
    ($db:expr, $q:expr $(, $arg:expr)* $(,)?) => {
        on_db_write!($db, pool, [q = $q], {
            sqlx::query(q)$(.bind($arg))*.execute(pool).await.map(|r| r.rows_affected())
        })
    };
}

/// `sqlx::$kind($q)` (`query_as` or `query_scalar`) on `$db` with each `$arg` bound, read with
/// `$method` (`fetch_all`, `fetch_one` or `fetch_optional`); a statement that writes (see
/// [`Sql::writes`]) runs on the pool kept for writes.
macro_rules! fetch {
    ($db:expr, $method:ident, $kind:ident($q:expr) $(, $arg:expr)* $(,)?) => {{
        let sql: $crate::db::sql::Sql = $q;
        if sql.writes() {
            on_db_write!($db, pool, [q = sql], {
                sqlx::$kind(q)$(.bind($arg))*.$method(pool).await
            })
        } else {
            on_db!($db, pool, [q = sql], {
                sqlx::$kind(q)$(.bind($arg))*.$method(pool).await
            })
        }
    }};
}

/// As [`exec!`], inside a transaction (a [`Tx`](super::Tx)).
macro_rules! exec_tx {
    ($tx:expr, $q:expr $(, $arg:expr)* $(,)?) => {
        on_tx!($tx, conn, [q = $q], {
            sqlx::query(q)$(.bind($arg))*.execute(conn).await.map(|r| r.rows_affected())
        })
    };
}

/// As [`fetch!`], inside a transaction (a [`Tx`](super::Tx)).
macro_rules! fetch_tx {
    ($tx:expr, $method:ident, $kind:ident($q:expr) $(, $arg:expr)* $(,)?) => {
        on_tx!($tx, conn, [q = $q], {
            sqlx::$kind(q)$(.bind($arg))*.$method(conn).await
        })
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
            generic_plan: false,
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
            generic_plan: false,
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

/// `$text!(sqlite)` and `$text!(postgres)` as one [`Sql`]: for a statement that puts in fragments
/// that differ ([`random_id!`], [`json_object!`], [`audience!`]), each given the dialect's name.
macro_rules! per_dialect {
    ($text:ident) => {
        $crate::db::sql::Sql {
            sqlite: sql!($text!(sqlite)).sqlite,
            postgres: sql!($text!(postgres)).postgres,
            generic_plan: false,
        }
    };
}

/// Differs: a random 32-hex-digit id (SQLite has no UUID function).
macro_rules! random_id {
    (sqlite) => {
        "lower(hex(randomblob(16)))"
    };
    (postgres) => {
        "replace(gen_random_uuid()::text, '-', '')"
    };
}

/// Differs: the function that builds a JSON object from key/value pairs.
macro_rules! json_object {
    (sqlite) => {
        "json_object"
    };
    (postgres) => {
        "jsonb_build_object"
    };
}

/// Differs: the rows (column `value`) of a JSON array of text bound as placeholder `$n`.
macro_rules! json_rows {
    (sqlite, $n:literal) => {
        concat!("json_each(?", $n, ")")
    };
    (postgres, $n:literal) => {
        concat!("jsonb_array_elements_text(?", $n, "::jsonb)")
    };
}

/// A user's name as shown beside what they did: first and last name, else the email.
macro_rules! user_name {
    ($id:literal) => {
        concat!(
            "(SELECT COALESCE(NULLIF(trim(COALESCE(u.first_name, '') || ' ' || COALESCE(u.last_name, '')), ''), u.email)
              FROM users u WHERE u.id = ",
            $id,
            ")"
        )
    };
}

/// A campaign's audience as a WHERE clause over `contacts c LEFT JOIN companies co`: score range
/// ?1..?2, then JSON arrays of statuses ?3, states ?4 and contact ids ?5 (NULL: any contact).
macro_rules! audience {
    ($d:ident) => {
        concat!(
            "c.email IS NOT NULL AND trim(c.email) <> '' AND ",
            audience_filters!($d, "?1", "?2", "?3", "?4", "?5")
        )
    };
}

/// The audience's filters without the email condition, at the given placeholders: score range,
/// JSON arrays of statuses and states, and of contact ids (NULL: any contact).
/// Differs: the arrays are read with `json_each` in SQLite and with jsonb functions in Postgres.
macro_rules! audience_filters {
    (sqlite, $($p:literal),+) => {
        audience_filters!(@ "json_array_length", "json_each", "", $($p),+)
    };
    (postgres, $($p:literal),+) => {
        audience_filters!(@ "jsonb_array_length", "jsonb_array_elements_text", "::jsonb", $($p),+)
    };
    (@ $len:literal, $each:literal, $cast:literal,
     $min:literal, $max:literal, $statuses:literal, $states:literal, $ids:literal) => {
        concat!(
            "(CAST(", $min, " AS INTEGER) IS NULL OR c.score >= ", $min, ")
             AND (CAST(", $max, " AS INTEGER) IS NULL OR c.score <= ", $max, ")
             AND (", $len, "(", $statuses, $cast, ") = 0
                  OR c.status IN (SELECT value FROM ", $each, "(", $statuses, $cast, ")))
             AND (", $len, "(", $states, $cast, ") = 0
                  OR upper(co.state) IN (SELECT upper(value) FROM ", $each, "(", $states, $cast, ")))
             AND (CAST(", $ids, " AS TEXT) IS NULL
                  OR c.id IN (SELECT value FROM ", $each, "(", $ids, $cast, ")))"
        )
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

    #[test]
    fn statements_that_write_are_told_from_reads() {
        for w in [
            sql!("  insert INTO t VALUES (?1)"),
            sql!("UPDATE t SET a = 1"),
            sql!("\n DELETE FROM t"),
            sql!("WITH x AS (SELECT 1) UPDATE t SET a = 1 RETURNING a"),
        ] {
            assert!(w.writes(), "{}", w.sqlite);
        }
        for r in [
            sql!("SELECT * FROM t"),
            sql!("WITH x AS (SELECT 1) SELECT * FROM x"),
            sql!("SELECT updated_at FROM t"),
        ] {
            assert!(!r.writes(), "{}", r.sqlite);
        }
    }
}
