//! The campaign audience filter, sqlite dialect (the sequences' enrollment reads it too).

// Differs: the lists are JSON arrays read with json_each (Postgres: jsonb functions, typed NULLs).
/// The audience as a WHERE clause over `contacts c LEFT JOIN companies co`: ?1..?5.
pub const AUDIENCE: &str = "c.email IS NOT NULL AND trim(c.email) <> ''
    AND (?1 IS NULL OR c.score >= ?1) AND (?2 IS NULL OR c.score <= ?2)
    AND (json_array_length(?3) = 0 OR c.status IN (SELECT value FROM json_each(?3)))
    AND (json_array_length(?4) = 0 OR upper(co.state) IN (SELECT upper(value) FROM json_each(?4)))
    AND (?5 IS NULL OR c.id IN (SELECT value FROM json_each(?5)))";
