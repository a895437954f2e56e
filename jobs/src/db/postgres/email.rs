//! The campaign audience filter, postgres dialect (the sequences' enrollment reads it too).

// Differs: the lists are jsonb arrays, and a NULL parameter needs its type (SQLite: json_each).
/// The audience as a WHERE clause over `contacts c LEFT JOIN companies co`: $1..$5.
pub const AUDIENCE: &str = "c.email IS NOT NULL AND trim(c.email) <> ''
    AND ($1::int IS NULL OR c.score >= $1) AND ($2::int IS NULL OR c.score <= $2)
    AND (jsonb_array_length($3::jsonb) = 0 OR c.status IN (SELECT jsonb_array_elements_text($3::jsonb)))
    AND (jsonb_array_length($4::jsonb) = 0 OR upper(co.state) IN (SELECT upper(v) FROM jsonb_array_elements_text($4::jsonb) AS v))
    AND ($5::text IS NULL OR c.id IN (SELECT jsonb_array_elements_text($5::jsonb)))";
