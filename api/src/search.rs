//! `GET /api/search?q=&limit=`: the command palette's one search across the workspace
//! (docs/records.md). Errors are [`ApiError`]: a term outside 2–100 characters or a bad `limit`
//! is a 400.
//!
//! Companies and contacts go through their lists' own search (SQLite FTS5 trigram tables,
//! Postgres trigram and words indexes), so the palette finds what the lists find and costs what a
//! list's first page costs. The small tables are matched by substring; jobs (admin sessions only)
//! by exact id or by kind, each under an index, since the jobs table is the largest.

use axum::extract::State;
use jobs::db::{
    CompanyFilter, CompanyList, CompanyRow, ContactFilter, ContactList, SEARCH_COUNT_CAP,
    SearchHit, SearchTable, Total,
};
use jobs::domain::like_pattern;
use jobs::domain::timeline::humanize;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Query};
use crate::records::record_href;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/search", Access::User, search)
        .query::<SearchQuery>()
        .returns::<SearchAnswer>()
}

#[derive(Debug, Deserialize)]
struct SearchQuery {
    q: Option<String>,
    limit: Option<i64>,
}

/// Written by hand: the derived one cannot both require `q` and spell out its rule.
impl utoipa::IntoParams for SearchQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use crate::validate::{integer, query_param, trimmed_length};
        vec![
            query_param(
                parameter_in(),
                "q",
                true,
                "2–100 characters after trimming.",
                trimmed_length(2, 100),
            ),
            query_param(
                parameter_in(),
                "limit",
                false,
                "Results per type, 1–20 (default 5).",
                integer(Some(1), Some(20)),
            ),
        ]
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct SearchAnswer {
    query: String,
    groups: Vec<Group>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SearchGroup)]
struct Group {
    #[serde(rename = "type")]
    kind: &'static str,
    label: &'static str,
    total: i64,
    total_capped: bool,
    results: Vec<Hit>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SearchHit)]
struct Hit {
    #[serde(rename = "type")]
    kind: &'static str,
    id: String,
    title: String,
    subtitle: Option<String>,
    href: String,
}

/// A group from its page and its count (`n` past the cap means capped); none without results.
fn group(
    kind: &'static str,
    label: &'static str,
    results: Vec<Hit>,
    total: Total,
) -> Option<Group> {
    if results.is_empty() {
        return None;
    }
    let capped = !total.exact || total.n > SEARCH_COUNT_CAP;
    Some(Group {
        kind,
        label,
        total: total.n.min(SEARCH_COUNT_CAP).max(results.len() as i64),
        total_capped: capped,
        results,
    })
}

/// A count of at most the cap + 1 as a [`Total`].
fn counted(n: i64) -> Total {
    Total {
        n,
        exact: n <= SEARCH_COUNT_CAP,
    }
}

async fn search(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<SearchQuery>,
) -> ApiResult<Json<SearchAnswer>> {
    let term = q.q.as_deref().unwrap_or("").trim().to_string();
    let chars = term.chars().count();
    if chars < 2 {
        return Err(ApiError::bad_request("Search needs at least 2 characters"));
    }
    if chars > 100 {
        return Err(ApiError::bad_request("Search is limited to 100 characters"));
    }
    let limit = q.limit.unwrap_or(5);
    if !(1..=20).contains(&limit) {
        return Err(ApiError::bad_request("limit must be between 1 and 20"));
    }
    let db = &state.queue.db;
    let mut groups = Vec::new();

    let (companies, total) = db
        .company_list::<CompanyRow>(&CompanyList {
            filter: &CompanyFilter {
                q: Some(term.clone()),
                ..Default::default()
            },
            limit,
            offset: 0,
            sort: None,
        })
        .await?;
    let hits = companies
        .into_iter()
        .map(|c| Hit {
            kind: "company",
            href: record_href("company", &c.id),
            subtitle: match (&c.city, &c.state) {
                (Some(city), Some(st)) => Some(format!("{city}, {st}")),
                (None, Some(st)) => Some(st.clone()),
                _ => c.industry.clone(),
            },
            id: c.id,
            title: c.name,
        })
        .collect();
    groups.extend(group("company", "Companies", hits, total));

    let (contacts, total) = db
        .contact_list(&ContactList {
            filter: &ContactFilter {
                q: Some(term.clone()),
                ..Default::default()
            },
            limit,
            offset: 0,
            sort: None,
        })
        .await?;
    let hits = contacts
        .into_iter()
        .map(|c| Hit {
            kind: "contact",
            href: record_href("contact", &c.id),
            title: format!("{} {}", c.first_name, c.last_name)
                .trim()
                .to_string(),
            subtitle: c.company_name.or(c.email).or(c.title),
            id: c.id,
        })
        .collect();
    groups.extend(group("contact", "Contacts", hits, total));

    let pattern = like_pattern(&term);
    for (table, kind, label) in [
        (SearchTable::Deals, "deal", "Deals"),
        (SearchTable::Campaigns, "campaign", "Campaigns"),
        (SearchTable::Sequences, "sequence", "Sequences"),
        (SearchTable::Invoices, "invoice", "Invoices"),
    ] {
        let (rows, n) = db.search_small(table, &pattern, limit).await?;
        let hits = rows.into_iter().map(|h| small_hit(kind, h)).collect();
        groups.extend(group(kind, label, hits, counted(n)));
    }

    if user.admin_session && state.is_admin(&user.user) {
        let (hits, n) = search_jobs(&state, &term, limit).await?;
        groups.extend(group("job", "Jobs", hits, counted(n)));
    }
    Ok(Json(SearchAnswer {
        query: term,
        groups,
    }))
}

fn small_hit(kind: &'static str, h: SearchHit) -> Hit {
    let href = match kind {
        "deal" => record_href("deal", &h.id),
        "campaign" if h.extra.as_deref() == Some("single") => "/campaigns".into(),
        "campaign" => format!("/email-campaigns?campaign={}", h.id),
        "sequence" => format!("/email-sequences?sequence={}", h.id),
        _ => format!("/invoice-history?invoice={}", h.id),
    };
    let subtitle = match kind {
        "sequence" => h.subtitle.as_deref().map(humanize),
        _ => h.subtitle,
    };
    Hit {
        kind,
        id: h.id,
        title: h.title,
        subtitle,
        href,
    }
}

/// Jobs whose id is the term, then the newest of each kind whose name holds it ("discovery",
/// "ai score"); the count is capped like the others.
async fn search_jobs(state: &AppState, term: &str, limit: i64) -> ApiResult<(Vec<Hit>, i64)> {
    let db = &state.queue.db;
    let mut found: Vec<SearchHit> = Vec::new();
    let mut n = 0;
    if let Some(hit) = db.search_job_by_id(&term.to_uppercase()).await? {
        found.push(hit);
        n += 1;
    }
    let words = term.to_lowercase().replace(' ', "_");
    let mut kinds: Vec<&str> = state
        .queue
        .registry
        .kinds()
        .filter(|k| k.contains(&words))
        .collect();
    kinds.sort_unstable();
    for kind in kinds {
        let (rows, count) = db.search_jobs_of_kind(kind, limit).await?;
        n += count;
        found.extend(rows);
    }
    // Newest first across kinds (ids are ULIDs, in time order).
    found.sort_by(|a, b| b.id.cmp(&a.id));
    found.dedup_by(|a, b| a.id == b.id);
    found.truncate(limit as usize);
    let hits = found
        .into_iter()
        .map(|h| Hit {
            kind: "job",
            href: format!("/ops?job={}", h.id),
            title: humanize(&h.title),
            subtitle: h.subtitle.as_deref().map(humanize),
            id: h.id,
        })
        .collect();
    Ok((hits, n.min(SEARCH_COUNT_CAP + 1)))
}
