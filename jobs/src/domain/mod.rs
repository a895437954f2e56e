//! Domain rules with the seeds' messages and enumerations: no I/O. The api validates requests with
//! them and the import job validates rows with the same functions, so both say the same thing.

/// The most dollars a company's revenue or a deal's value may be: the sums over every record
/// (pipeline, board, reports) then stay far inside 64 bits.
pub const MAX_DOLLARS: i64 = 999_999_999_999;
/// Digits of [`MAX_DOLLARS`]: text with more is over it.
pub const MAX_DOLLARS_DIGITS: usize = 12;

pub mod activity_feed;
pub mod analytics;
pub mod campaigns;
pub mod catalog;
pub mod companies;
pub mod contacts;
pub mod dashboard;
pub mod deals;
pub mod discovery;
pub mod email_figures;
pub mod figures;
pub mod invoices;
pub mod mailbox;
pub mod merge;
pub mod pipeline;
pub mod sequences;
pub mod timeline;
pub mod users;
pub mod webhooks;

/// A new entity id: a ULID that sorts after every id this process made before, so lists ordered by
/// `created_at DESC, id DESC` stay newest first within one millisecond.
pub fn new_id() -> String {
    static GENERATOR: std::sync::LazyLock<std::sync::Mutex<ulid::Generator>> =
        std::sync::LazyLock::new(|| std::sync::Mutex::new(ulid::Generator::new()));
    // A poisoned lock or an exhausted millisecond falls back to a plain (random-tailed) ULID.
    match GENERATOR.lock().ok().and_then(|mut g| g.generate().ok()) {
        Some(id) => id.to_string(),
        None => ulid::Ulid::new().to_string(),
    }
}

/// The upper-cased code of a US state given as its code or its name (`tx`, `Texas`, `new mexico`).
pub fn state_code(s: &str) -> Option<String> {
    crate::geo::state_code(s).map(str::to_string)
}

/// The message for a value outside an enumeration: names every allowed value.
pub fn one_of_message(field: &str, allowed: &[&str]) -> String {
    format!("{field} must be one of: {}", allowed.join(", "))
}

/// The OpenAPI schema of a string that is one of `values`: the list its check uses, for
/// `#[schema(schema_with = ...)]`, so the document cannot drift from the check.
pub fn one_of_schema(values: &[&str]) -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(values.iter().copied()))
}

/// [`one_of_schema`] or `null`.
pub fn one_of_or_null_schema(values: &[&str]) -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    let mut all: Vec<serde_json::Value> = values.iter().map(|v| (*v).into()).collect();
    all.push(serde_json::Value::Null);
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .enum_values(Some(all))
}

/// `%text%` for a case-insensitive `LIKE ... ESCAPE '\'`: the user's `%`, `_` and `\` match literally.
pub fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for ch in text.trim().to_lowercase().chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('%');
    out
}

/// Trimmed text, `None` when empty: forms send `""` for a field left blank.
pub fn non_empty(s: Option<&str>) -> Option<String> {
    s.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_pattern_escapes_wildcards() {
        assert_eq!(like_pattern(" Ann_a%\\ "), "%ann\\_a\\%\\\\%");
    }

    #[test]
    fn ids_increase() {
        let ids: Vec<String> = (0..100).map(|_| new_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn state_codes() {
        assert_eq!(state_code("tx").as_deref(), Some("TX"));
        assert_eq!(state_code("XX"), None);
        assert_eq!(state_code(" New  Mexico ").as_deref(), Some("NM"));
        assert_eq!(state_code("Texas").as_deref(), Some("TX"));
    }
}
