//! Lists: `limit` (default 100, at most 1000) and `offset`, answered as a JSON array with the total in
//! `X-Total-Count` (and `X-Total-Count-Exact: false` when it is a floor); and CSV downloads that no cell can break or turn into a spreadsheet formula.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use std::collections::BTreeMap;

use jobs::db::{Sort, Total};
use jobs::domain::{non_empty, one_of_message};

use crate::error::{ApiError, ApiResult};
use crate::validate::field_error;

/// Checks `limit` and `offset` (query parameters).
pub(crate) fn paging(limit: Option<i64>, offset: Option<i64>) -> ApiResult<(i64, i64)> {
    let limit = limit.unwrap_or(100);
    let offset = offset.unwrap_or(0);
    if !(1..=1000).contains(&limit) {
        return Err(ApiError::bad_request("limit must be between 1 and 1000"));
    }
    if offset < 0 {
        return Err(ApiError::bad_request("offset must not be negative"));
    }
    Ok((limit, offset))
}

/// What a list's `dir` takes.
pub(crate) const DIRS: [&str; 2] = ["asc", "desc"];

/// A list's `dir`: [`DIRS`], or `""` (read as absent), as [`sort_from`] reads it.
pub(crate) fn dir_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&DIRS).description(Some(
        "`asc` or `desc`; without it, the sort key's own direction.",
    ))
}

/// A list's `sort` and `dir` checked against its keys (each `sort` value, its key, and whether it
/// runs descending by default): `None` without a `sort`, the list's own order.
pub(crate) fn sort_from<K: Copy>(
    sort: Option<&str>,
    dir: Option<&str>,
    keys: &[(&'static str, K, bool)],
) -> ApiResult<Option<Sort<K>>> {
    let mut errors = BTreeMap::new();
    let desc = match non_empty(dir).as_deref() {
        None => None,
        Some("asc") => Some(false),
        Some("desc") => Some(true),
        Some(_) => {
            errors.insert("dir".to_string(), one_of_message("dir", &DIRS));
            None
        }
    };
    let key = match non_empty(sort) {
        None => None,
        Some(s) => {
            let found = keys.iter().find(|(name, ..)| *name == s);
            if found.is_none() {
                let names: Vec<&str> = keys.iter().map(|(name, ..)| *name).collect();
                errors.insert("sort".to_string(), one_of_message("sort", &names));
            }
            found
        }
    };
    if let Some((_, first)) = errors.iter().next() {
        let message = if errors.len() == 1 {
            first.clone()
        } else {
            "Please correct the highlighted fields.".to_string()
        };
        return Err(ApiError::fields(message, errors));
    }
    Ok(key.map(|&(_, key, default_desc)| Sort {
        key,
        desc: desc.unwrap_or(default_desc),
    }))
}

/// Most ids one `ids=a,b,…` list filter takes.
pub(crate) const MAX_IDS: usize = 1000;

/// `ids=a,b,…` (at most [`MAX_IDS`]): only these records; `None` when absent or empty.
pub(crate) fn id_list(ids: Option<&str>) -> ApiResult<Option<Vec<String>>> {
    let Some(list) = non_empty(ids) else {
        return Ok(None);
    };
    let ids: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(String::from)
        .collect();
    if ids.is_empty() {
        return Ok(None);
    }
    if ids.len() > MAX_IDS {
        return Err(field_error(
            "ids",
            format!("At most {MAX_IDS} ids at a time"),
        ));
    }
    Ok(Some(ids))
}

/// A board's query (the lead board, the deals board): cards per column, checked like `limit`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
pub(crate) struct BoardQuery {
    /// Cards per column, 1–1000.
    #[param(minimum = 1, maximum = 1000)]
    pub(crate) limit: Option<i64>,
}

/// A page of items with its total.
pub(crate) fn with_total<T: Serialize>(items: Vec<T>, total: impl Into<Total>) -> Response {
    let mut headers = HeaderMap::new();
    total_headers(&mut headers, total.into());
    (headers, axum::Json(items)).into_response()
}

/// `X-Total-Count`, and `X-Total-Count-Exact: false` when the count is a floor ("1,000+").
fn total_headers(headers: &mut HeaderMap, total: Total) {
    headers.insert("x-total-count", HeaderValue::from(total.n));
    if !total.exact {
        headers.insert("x-total-count-exact", HeaderValue::from_static("false"));
    }
}

/// A page already serialised (from the read cache), with its total.
#[derive(Clone)]
pub(crate) struct Page {
    pub body: Bytes,
    pub total: Total,
}

impl Page {
    /// A page whose items the database wrote as JSON (the contacts' and companies' cards), joined
    /// into one array.
    pub fn of_json(body: String, total: Total) -> Self {
        Self {
            body: body.into(),
            total,
        }
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        total_headers(&mut headers, self.total);
        (headers, self.body).into_response()
    }
}

/// A cell as written to CSV: text that a spreadsheet would run as a formula gets a leading `'`.
pub(crate) fn safe_cell(value: &str) -> String {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{value}"),
        _ => value.to_string(),
    }
}

/// A CSV download named `filename`; quoting is the `csv` crate's, so commas, quotes and line breaks
/// inside a value never break a row.
pub(crate) fn csv_download(
    filename: &str,
    header_row: &[&str],
    rows: impl IntoIterator<Item = Vec<String>>,
) -> ApiResult<Response> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header_row).map_err(anyhow::Error::from)?;
    for row in rows {
        w.write_record(row.iter().map(|c| safe_cell(c)))
            .map_err(anyhow::Error::from)?;
    }
    let body = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
    let disposition = format!("attachment; filename=\"{filename}\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_defused() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("+1"), "'+1");
        assert_eq!(safe_cell("-2"), "'-2");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("Acme, Inc"), "Acme, Inc");
    }
}
