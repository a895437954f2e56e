//! Companies: params, rows and their queries, written once for both dialects. What differs is in
//! sqlite/companies.rs and postgres/companies.rs: the list's text search (FTS5 vs pg_trgm) and the
//! id-list bind (json_each vs `= ANY`); and here the row lock, `FOR UPDATE` in Postgres only.

use std::collections::HashSet;

use sqlx::QueryBuilder;

use super::contacts::word_patterns;
use super::sql::{Sql, push_limit_offset};
use super::*;
use crate::domain::like_pattern;

/// The columns of [`CompanyRow`] with `$desc` as the description expression (the report truncates
/// it in SQL); `contact_count` as the triggers keep it.
macro_rules! company_columns {
    ($desc:literal) => {
        concat!(
            "id, name, industry, status, revenue, employees, founded, score, prospect_score, is_deal, \
             website, phone, address, city, state, zip_code, growth_rate, ",
            $desc,
            " AS description, competitor_alignment, discovered_at, last_contacted_at, discovery_source, \
             discovery_city, discovery_state, discovery_region, discovery_metadata, competitive_analysis, \
             lead_qualification, has_enhanced_data, created_at, updated_at, ",
            contact_count_of!("companies"),
            " AS contact_count"
        )
    };
}

/// A company as the lists answer it: its card (the api's JSON of it and its sources, kept by the
/// triggers of migration 0042) and its contact count (migration 0043).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyCard {
    pub id: String,
    pub card: String,
    pub contact_count: i64,
    /// The report's cards only: the description's first 200 characters, where it is longer.
    #[sqlx(default)]
    pub description_cut: Option<String>,
}

/// Differs: SQLite keeps the card in the company's row, which a page reads anyway; Postgres in
/// `company_cards`, which keeps the heap that its searches and filters read narrow.
macro_rules! company_card {
    (sqlite) => {
        "card"
    };
    (postgres) => {
        "(SELECT k.card FROM company_cards k WHERE k.company_id = companies.id)"
    };
}

/// The columns of [`CompanyCard`] in dialect `$d`, then `$more`.
macro_rules! company_card_columns {
    ($d:ident, $more:expr) => {
        concat!(
            "id, ",
            company_card!($d),
            " AS card, ",
            contact_count_of!("companies"),
            " AS contact_count",
            $more
        )
    };
}
macro_rules! company_card_page {
    ($d:ident) => {
        concat!("SELECT ", company_card_columns!($d, ""), " FROM companies")
    };
}
macro_rules! company_card_page_deep {
    ($d:ident) => {
        concat!(
            "SELECT ",
            company_card_columns!($d, ""),
            " FROM (SELECT id AS page_id FROM companies"
        )
    };
}
/// The customer report's cards, their descriptions cut to 200 characters.
macro_rules! company_report_cut {
    () => {
        ", CASE WHEN length(description) > 200 THEN substr(description, 1, 200) END \
         AS description_cut"
    };
}
macro_rules! company_card_report {
    ($d:ident) => {
        concat!(
            "SELECT ",
            company_card_columns!($d, company_report_cut!()),
            " FROM companies"
        )
    };
}
macro_rules! company_card_report_deep {
    ($d:ident) => {
        concat!(
            "SELECT ",
            company_card_columns!($d, company_report_cut!()),
            " FROM (SELECT id AS page_id FROM companies"
        )
    };
}

/// What a page of the companies list reads: whole rows ([`CompanyRow`]) or cards
/// ([`CompanyCard`]); each with its selects of a page.
pub trait CompanyListed:
    for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
    + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
    + Send
    + Unpin
{
    /// `[first, deep]`, as [`Db::company_rows`] takes them.
    const PAGE: [Sql; 2];
    /// The select of a Postgres search's page (see [`COMPANY_SEARCH_COUNTED`]).
    const SEARCH_COUNTED: &'static str;
    /// Postgres, a page past the first in the default order: the select over the page's ids and
    /// sort keys ([`COMPANY_PAGE_KEYED`]), so the page is not joined back to `companies` to be
    /// sorted; a search's page is read from its matches' keys likewise. None: rows need the
    /// company's other columns.
    const DEEP_KEYED: Option<&'static str>;
}

impl CompanyListed for CompanyRow {
    const PAGE: [Sql; 2] = [COMPANY_PAGE, COMPANY_PAGE_DEEP];
    const SEARCH_COUNTED: &'static str = concat!(") SELECT ", company_columns!("description"));
    const DEEP_KEYED: Option<&'static str> = None;
}

impl CompanyListed for CompanyCard {
    const PAGE: [Sql; 2] = [
        per_dialect!(company_card_page),
        per_dialect!(company_card_page_deep),
    ];
    const SEARCH_COUNTED: &'static str = concat!(") SELECT ", company_card_columns!(postgres, ""));
    const DEEP_KEYED: Option<&'static str> = Some(concat!(
        "SELECT ",
        company_card_columns!(postgres, ""),
        " FROM (SELECT id, score, lower(name) AS name_key FROM companies"
    ));
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyRow {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub score: i32,
    pub prospect_score: i32,
    pub is_deal: bool,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub growth_rate: Option<f64>,
    pub description: Option<String>,
    pub competitor_alignment: Option<i32>,
    pub discovered_at: Option<i64>,
    pub last_contacted_at: Option<i64>,
    pub discovery_source: Option<String>,
    pub discovery_city: Option<String>,
    pub discovery_state: Option<String>,
    pub discovery_region: Option<String>,
    pub discovery_metadata: Option<Json<Value>>,
    pub competitive_analysis: Option<Json<Value>>,
    pub lead_qualification: Option<Json<Value>>,
    pub has_enhanced_data: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub contact_count: i64,
}

#[derive(Debug, Clone, Default)]
pub struct CompanyFilter {
    /// Text searched in name, industry, city and state (case-insensitive substring).
    pub q: Option<String>,
    /// Upper-case state code.
    pub state: Option<String>,
    pub status: Option<String>,
    /// Inclusive score range.
    pub score_min: Option<i32>,
    pub score_max: Option<i32>,
    /// Only these companies (a scan's results, read with their current fields).
    pub ids: Option<Vec<String>>,
}

impl CompanyFilter {
    /// The search term when it is the only filter.
    fn search_alone(&self) -> Option<&str> {
        let alone = self.state.is_none()
            && self.status.is_none()
            && self.score_min.is_none()
            && self.score_max.is_none()
            && self.ids.is_none();
        self.q.as_deref().filter(|_| alone)
    }
}

pub struct CompanyList<'a> {
    pub filter: &'a CompanyFilter,
    pub limit: i64,
    pub offset: i64,
    /// None: best score first, then name (the list's order before it could be sorted).
    pub sort: Option<Sort<CompanySortKey>>,
}

/// The sort keys of the companies list (docs/records.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanySortKey {
    Created,
    Name,
    /// State, then city.
    State,
    Score,
    /// Unknown last.
    Revenue,
    /// Unknown last.
    Employees,
    Status,
}

impl CompanySortKey {
    /// Each `sort` value, its key, and whether it runs descending unless `dir` says otherwise.
    pub const ALL: [(&'static str, Self, bool); 7] = [
        ("created", Self::Created, true),
        ("name", Self::Name, false),
        ("state", Self::State, false),
        ("score", Self::Score, true),
        ("revenue", Self::Revenue, true),
        ("employees", Self::Employees, true),
        ("status", Self::Status, false),
    ];
}

/// The list's order: as before without a sort, else the key's columns, NULLs last both ways
/// (see `contact_order`) and the id in the same direction.
fn company_order(sort: Option<Sort<CompanySortKey>>) -> String {
    let Some(s) = sort else {
        return "score DESC, lower(name), id".to_string();
    };
    let terms: &[(&str, bool)] = match s.key {
        CompanySortKey::Created => &[("created_at", false)],
        CompanySortKey::Name => &[("lower(name)", false)],
        CompanySortKey::State => &[("state", true), ("lower(city)", true)],
        CompanySortKey::Score => &[("score", false)],
        CompanySortKey::Revenue => &[("revenue", true)],
        CompanySortKey::Employees => &[("employees", true)],
        CompanySortKey::Status => &[("status", false)],
    };
    let dir = if s.desc { "DESC" } else { "ASC" };
    super::contacts::order_terms(terms, dir, "id")
}

/// The columns a user edits (create form, edit dialog, status), written as a whole.
#[derive(Debug, Clone, PartialEq)]
pub struct CompanyWrite {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub score: i32,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub description: Option<String>,
    pub discovery_source: Option<String>,
    pub now: i64,
}

const IDS_EXISTING: Sql = in_list!("SELECT id FROM companies WHERE id IN ", 1, "");
/// As `IDS_EXISTING`, in id order, locked in that order (Postgres) for a bulk write.
const IDS_LOCKED: Sql = Sql {
    sqlite: in_list!("SELECT id FROM companies WHERE id IN ", 1, " ORDER BY id").sqlite,
    postgres: in_list!(
        "SELECT id FROM companies WHERE id IN ",
        1,
        " ORDER BY id FOR UPDATE"
    )
    .postgres,
    generic_plan: false,
};
/// One `company_status_change` activity per listed company (?1) whose status is not ?2 yet, by ?3
/// at ?4, worded as the edit dialog's; run before the update, which it reads the old status of.
macro_rules! bulk_status_activities {
    ($d:ident) => {
        concat!(
            "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
             SELECT ",
            random_id!($d),
            ", 'company_status_change', 'Company ' || name || ' status changed from ' || status
                 || ' to ' || CAST(?2 AS TEXT), 'company', id, ?3, ?4
             FROM companies WHERE id IN (SELECT value FROM ",
            json_rows!($d, "1"),
            ") AND status <> ?2"
        )
    };
}
const BULK_STATUS_ACTIVITIES: Sql = per_dialect!(bulk_status_activities);
const BULK_STATUS_SET: Sql = in_list!(
    "UPDATE companies SET status = ?2, updated_at = ?3 WHERE status <> ?2 AND id IN ",
    1,
    ""
);
/// A deleted company's activities stay in the feed, no longer pointing at it.
const DELETE_UNSET_ACTIVITIES: Sql = in_list!(
    "UPDATE activities SET entity_id = NULL WHERE entity_type = 'company' AND entity_id IN ",
    1,
    ""
);
/// One `company_deleted` activity per listed company (?1), by ?2 at ?3.
macro_rules! delete_activities {
    ($d:ident) => {
        concat!(
            "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
             SELECT ",
            random_id!($d),
            ", 'company_deleted', 'Company ' || name || ' deleted', 'company', id, ?2, ?3
             FROM companies WHERE id IN (SELECT value FROM ",
            json_rows!($d, "1"),
            ")"
        )
    };
}
const DELETE_ACTIVITIES: Sql = per_dialect!(delete_activities);
/// Its contacts, deals and meetings stay without it (the foreign keys' SET NULL); triggers take
/// its notes, tasks, its contacts' region facets, its search entry and its rollup counts.
const DELETE: Sql = in_list!("DELETE FROM companies WHERE id IN ", 1, "");

impl From<&CompanyRow> for CompanyWrite {
    fn from(r: &CompanyRow) -> Self {
        Self {
            id: r.id.clone(),
            name: r.name.clone(),
            industry: r.industry.clone(),
            status: r.status.clone(),
            revenue: r.revenue,
            employees: r.employees,
            score: r.score,
            website: r.website.clone(),
            phone: r.phone.clone(),
            address: r.address.clone(),
            city: r.city.clone(),
            state: r.state.clone(),
            zip_code: r.zip_code.clone(),
            description: r.description.clone(),
            discovery_source: r.discovery_source.clone(),
            now: r.updated_at,
        }
    }
}

/// The customer report's summary tiles for a state (or all states).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyReportSummary {
    pub total_companies: i64,
    pub avg_revenue: Option<i64>,
    pub avg_employees: Option<i64>,
    pub qualified: i64,
}

/// The company list's text search, which differs between the dialects: each backend pushes its
/// own condition (see `sqlite/companies.rs` and `postgres/companies.rs`).
pub(crate) trait CompanySearch: sqlx::Database {
    /// Pushes ` AND <q matches the company>` onto `qb`.
    fn push_company_search(qb: &mut QueryBuilder<Self>, q: &str);
}

/// The active filters only, so the planner can use the indexes (state, score, the trigram index).
fn push_filter<DB: CompanySearch>(qb: &mut QueryBuilder<DB>, f: &CompanyFilter)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    i32: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    qb.push(" WHERE TRUE");
    if let Some(q) = &f.q {
        DB::push_company_search(qb, q);
    }
    if let Some(state) = &f.state {
        // Stored as codes (every write normalises them), so the state index applies.
        qb.push(" AND state = ").push_bind(state.clone());
    }
    if let Some(status) = &f.status {
        qb.push(" AND status = ").push_bind(status.clone());
    }
    if let Some(min) = f.score_min {
        qb.push(" AND score >= ").push_bind(min);
    }
    if let Some(max) = f.score_max {
        qb.push(" AND score <= ").push_bind(max);
    }
    if let Some(ids) = &f.ids {
        if ids.is_empty() {
            // `IN ()` is an error in Postgres: no ids match nothing.
            qb.push(" AND FALSE");
            return;
        }
        qb.push(" AND id IN (");
        let mut list = qb.separated(", ");
        for id in ids {
            list.push_bind(id.clone());
        }
        qb.push(")");
    }
}

const COMPANY_GET: Sql = sql!(concat!(
    "SELECT ",
    company_columns!("description"),
    " FROM companies WHERE id = ?1"
));
// Differs: Postgres locks the row read before a write; SQLite's BEGIN IMMEDIATE already holds the
// write lock (and has no FOR UPDATE).
const COMPANY_GET_FOR_UPDATE: Sql = locking!(
    concat!(
        "SELECT ",
        company_columns!("description"),
        " FROM companies WHERE id = ?1"
    ),
    "FOR UPDATE",
    ""
);
/// The list's page and count; [`push_filter`] adds the filters.
const COMPANY_PAGE: Sql = sql!(concat!(
    "SELECT ",
    company_columns!("description"),
    " FROM companies"
));
/// A page past the first: followed by the filter's ids in order (`page_id`) as `p`, then
/// [`COMPANY_PAGE_BY_ID`].
const COMPANY_PAGE_DEEP: Sql = sql!(concat!(
    "SELECT ",
    company_columns!("description"),
    " FROM (SELECT id AS page_id FROM companies"
));
/// The customer report's cards (see [`company_card_report`]).
const COMPANY_PAGE_REPORT: Sql = per_dialect!(company_card_report);
const COMPANY_PAGE_REPORT_DEEP: Sql = per_dialect!(company_card_report_deep);
/// The page's ids stay the outer loop (`CROSS JOIN`: SQLite, not knowing the bound LIMIT under
/// `SQLITE_ENABLE_QPSG`, would otherwise read every company and look each up in the page).
const COMPANY_PAGE_BY_ID: &str = ") p CROSS JOIN companies WHERE companies.id = p.page_id";
/// Closes [`CompanyListed::DEEP_KEYED`] after the page's ids and keys (named `companies` for the
/// card's and count's lookups), sorted as the index walk gave them; 48 rows sorted here cost less
/// than 48 more lookups in `companies` (see docs/performance.md).
macro_rules! company_page_keyed {
    () => {
        ") companies ORDER BY score DESC, name_key, id"
    };
}
const COMPANY_PAGE_KEYED: &str = company_page_keyed!();
/// Postgres: the cards of one word's companies (migration 0045), $1 the word, in the list's
/// default order ($2 the limit, $3 the offset).
const COMPANY_ONE_WORD_PAGE: &str = concat!(
    "SELECT ",
    company_card_columns!(postgres, ""),
    " FROM (SELECT id, score, name_key FROM company_search_words WHERE word = $1
     ORDER BY score DESC, name_key, id LIMIT $2 OFFSET $3",
    company_page_keyed!()
);
/// After the matches `m` of [`Db::company_search_counted`] and the page's columns
/// ([`CompanyListed::SEARCH_COUNTED`]): the page's ids, sorted out of them in the list's default
/// order (`score DESC, lower(name), id`), then [`COMPANY_PAGE_BY_ID`].
const COMPANY_SEARCH_COUNTED: &str = ", (SELECT COUNT(*) FROM m) AS matches
     FROM (SELECT id AS page_id FROM m ORDER BY score DESC, name_key, id LIMIT ";
/// As [`COMPANY_SEARCH_COUNTED`], the page's ids with their keys, for the rows of
/// [`COMPANY_PAGE_KEYED`].
const COMPANY_SEARCH_COUNTED_KEYED: &str = ", (SELECT COUNT(*) FROM m) AS matches
     FROM (SELECT id, score, name_key FROM m ORDER BY score DESC, name_key, id LIMIT ";
/// A Postgres search's page from its matches `m`, up to the bound limit: cards sorted from the
/// matches' keys, rows joined back to `companies` for their columns.
fn search_page_from<R: CompanyListed>() -> &'static str {
    if R::DEEP_KEYED.is_some() {
        COMPANY_SEARCH_COUNTED_KEYED
    } else {
        COMPANY_SEARCH_COUNTED
    }
}
/// What follows the bound offset of [`search_page_from`].
fn search_page_tail<R: CompanyListed>() -> String {
    if R::DEEP_KEYED.is_some() {
        COMPANY_PAGE_KEYED.to_string()
    } else {
        format!("{COMPANY_PAGE_BY_ID} ORDER BY {}", company_order(None))
    }
}
/// Postgres only: of a term's word patterns ($1, [`word_patterns`]), the one whose fitting words of
/// `company_words` (migration 0045) are held by the fewest companies: those words, and how many
/// entries of `company_search_words` they have (0: a word of the term fits no company's).
const COMPANY_RAREST_WORD: &str =
    "SELECT COALESCE(array_agg(w.word) FILTER (WHERE w.word IS NOT NULL),
        '{}'::text[]) AS words, CAST(COALESCE(SUM(w.n), 0) AS BIGINT) AS postings
    FROM unnest($1::text[]) WITH ORDINALITY AS t(pattern, i)
    LEFT JOIN company_words w ON w.n > 0 AND w.word LIKE t.pattern
    GROUP BY t.i ORDER BY 2, t.i LIMIT 1";
/// Past this many entries for its rarest word, a term's entries may be read in full for few
/// matches (each checked against the term), and the trigram index is the quicker way.
const COMPANY_WORD_POSTINGS_CAP: i64 = 20_000;
/// Kept by the triggers of migration 0022; the caller adds ` AND …` conditions.
const ROLLUP_COUNT: Sql =
    sql!("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM company_rollup WHERE TRUE");
/// Closed by `) capped`: counts at most [`COUNT_CAP`] + 1 matches.
const COMPANY_COUNT_CAPPED: Sql = sql!("SELECT COUNT(*) FROM (SELECT 1 FROM companies");
/// The CASTs: Postgres averages and sums to NUMERIC.
/// Kept by the triggers of migration 0023 (per upper-cased state) in the write's transaction.
const REPORT_SUMMARY: Sql = sql!(
    "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT), CAST(COALESCE(SUM(qualified_n), 0) AS BIGINT),
            CAST(COALESCE(SUM(revenue_sum), 0) AS BIGINT), CAST(COALESCE(SUM(revenue_n), 0) AS BIGINT),
            CAST(COALESCE(SUM(employees_sum), 0) AS BIGINT),
            CAST(COALESCE(SUM(employees_n), 0) AS BIGINT)
     FROM company_state_rollup WHERE (?1 IS NULL OR state = ?1)"
)
.with_generic_plan();
const COMPANY_INSERT: Sql = sql!(
    "INSERT INTO companies (id, name, industry, status, revenue, employees, score, website, phone,
         address, city, state, zip_code, description, discovery_source, discovered_at, created_at,
         updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16, ?16)"
);
const COMPANY_UPDATE: Sql = sql!(
    "UPDATE companies SET name = ?2, industry = ?3, status = ?4, revenue = ?5, employees = ?6,
         score = ?7, website = ?8, phone = ?9, address = ?10, city = ?11, state = ?12,
         zip_code = ?13, description = ?14, updated_at = ?15
     WHERE id = ?1"
);

impl Db {
    pub async fn company_get(&self, id: &str) -> Result<Option<CompanyRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(COMPANY_GET), id)
    }
    /// A page (best score first, then name) of rows or cards, and the total of the filter.
    pub async fn company_list<R: CompanyListed>(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<(Vec<R>, Total), sqlx::Error> {
        if let Some(search) = self.company_search_alone(p).await? {
            let page = if search.matches > p.offset {
                self.company_rows(R::PAGE, R::DEEP_KEYED, p, Some(&search))
                    .await?
            } else {
                Vec::new()
            };
            let cap = p.offset.saturating_add(COUNT_CAP);
            return Ok((page, Total::capped(search.matches, cap)));
        }
        if let Some(found) = self.company_search_by_words(p).await? {
            return Ok(found);
        }
        if let Some(found) = self.company_search_counted(p).await? {
            return Ok(found);
        }
        let page = self.company_page(p).await?;
        let total = match Total::of_short_page(p.offset, p.limit, page.len()) {
            Some(total) => total,
            None => self.company_total(p.filter, p.offset).await?,
        };
        Ok((page, total))
    }
    pub async fn company_page<R: CompanyListed>(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Vec<R>, sqlx::Error> {
        self.company_rows(R::PAGE, R::DEEP_KEYED, p, None).await
    }
    /// A search with no other filter, in the list's default order, on SQLite: planned from its
    /// matches counted in the FTS table (see [`sqlite::companies::SearchAlone`]).
    async fn company_search_alone(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Option<sqlite::companies::SearchAlone>, sqlx::Error> {
        let (Db::Sqlite(pools), Some(q), None) = (self, p.filter.search_alone(), p.sort) else {
            return Ok(None);
        };
        let cap = p.offset.saturating_add(COUNT_CAP);
        let reach = p.offset.saturating_add(p.limit);
        sqlite::companies::SearchAlone::plan(pools.read(), q, cap, reach).await
    }
    /// A search alone (no other filter) in the list's default order on Postgres, read from the
    /// index entries of its rarest word (migration 0045): the words of `company_words` that fit it
    /// (see [`word_patterns`]), their companies in the list's order with the searched text beside
    /// them, so neither the trigram index's candidates nor the table's rows are read to find the
    /// matches. At most `offset` + [`COUNT_CAP`] + 1 matches are read; with more, the page walks
    /// the list's order and the total is the cap's floor. None where it does not apply (a term
    /// with digits, letters beyond ASCII or no letters; a rarest word held more than
    /// [`COMPANY_WORD_POSTINGS_CAP`] times), or for a page past the end.
    async fn company_search_by_words<R: CompanyListed>(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Option<(Vec<R>, Total)>, sqlx::Error> {
        let (Db::Postgres(pools), Some(q), None) = (self, p.filter.search_alone(), p.sort) else {
            return Ok(None);
        };
        let Some(patterns) = word_patterns(q) else {
            return Ok(None);
        };
        let pool = pools.read_planned(&[true]);
        let (words, postings): (Vec<String>, i64) = sqlx::query_as(COMPANY_RAREST_WORD)
            .bind(&patterns)
            .fetch_one(pool)
            .await?;
        if postings == 0 {
            return Ok(Some((Vec::new(), Total::from(0))));
        }
        if let ([word], true) = (&words[..], R::DEEP_KEYED.is_some()) {
            // A term of letters only that fits one word: every company holding the word holds
            // the term, so the page is the word's first entries in order and the total its
            // count, without reading the other matches.
            if q.trim().bytes().all(|b| b.is_ascii_alphabetic()) {
                let page = sqlx::query_as(COMPANY_ONE_WORD_PAGE)
                    .bind(word)
                    .bind(p.limit)
                    .bind(p.offset)
                    .fetch_all(pool)
                    .await?;
                let cap = p.offset.saturating_add(COUNT_CAP);
                return Ok(Some((page, Total::capped(postings, cap))));
            }
        }
        if postings > COMPANY_WORD_POSTINGS_CAP {
            return Ok(None);
        }
        let cap = p.offset.saturating_add(COUNT_CAP);
        // A company holds each of its words once, so one word's entries need no DISTINCT (whose
        // sort would read every entry before the LIMIT stops the walk).
        let distinct = if words.len() > 1 { "DISTINCT " } else { "" };
        let sql = format!(
            "WITH m AS MATERIALIZED (SELECT {distinct}id, score, name_key FROM company_search_words \
             WHERE word = ANY($1) AND search_text LIKE $2 ESCAPE '\\' LIMIT $3{}{}$4 OFFSET $5{}",
            R::SEARCH_COUNTED,
            search_page_from::<R>(),
            search_page_tail::<R>(),
        );
        // Built from constants only: the term and the words are bound.
        let rows: Vec<sqlx::postgres::PgRow> = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&words)
            .bind(like_pattern(q))
            .bind(cap.saturating_add(1))
            .bind(p.limit)
            .bind(p.offset)
            .fetch_all(pool)
            .await?;
        self.company_search_page(p, cap, rows).await
    }
    /// A search in the list's default order on Postgres: one statement reads the matches once
    /// from the trigram index (at most `offset` + [`COUNT_CAP`] + 1 of them), takes the page from
    /// them and counts them, where the page walked the list's order and its count read them
    /// again. With more matches than that, the page walks the order as before and the total is
    /// the cap's floor, uncounted. None where it does not apply, or for a page past the end.
    async fn company_search_counted<R: CompanyListed>(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Option<(Vec<R>, Total)>, sqlx::Error> {
        let (Db::Postgres(pools), Some(_), None) = (self, &p.filter.q, p.sort) else {
            return Ok(None);
        };
        let cap = p.offset.saturating_add(COUNT_CAP);
        let mut qb = QueryBuilder::<sqlx::Postgres>::new(
            "WITH m AS MATERIALIZED (SELECT id, score, lower(name) AS name_key FROM companies",
        );
        push_filter(&mut qb, p.filter);
        qb.push(" LIMIT ")
            .push_bind(cap.saturating_add(1))
            .push(R::SEARCH_COUNTED)
            .push(search_page_from::<R>())
            .push_bind(p.limit)
            .push(" OFFSET ")
            .push_bind(p.offset)
            .push(search_page_tail::<R>());
        let rows: Vec<sqlx::postgres::PgRow> =
            qb.build().persistent(false).fetch_all(pools.read()).await?;
        self.company_search_page(p, cap, rows).await
    }
    /// A Postgres search's page and total from the rows of a statement that counted its matches
    /// (`matches`, at most `cap` + 1): past the cap, the page walks the list's order and the total
    /// is the cap's floor. None for an empty page past the first (its total is counted as for any
    /// list).
    async fn company_search_page<R: CompanyListed>(
        &self,
        p: &CompanyList<'_>,
        cap: i64,
        rows: Vec<sqlx::postgres::PgRow>,
    ) -> Result<Option<(Vec<R>, Total)>, sqlx::Error> {
        let matches: i64 = match rows.first() {
            Some(row) => sqlx::Row::try_get(row, "matches")?,
            None if p.offset == 0 => return Ok(Some((Vec::new(), Total::from(0)))),
            None => return Ok(None),
        };
        if matches > cap {
            let page = self.company_page(p).await?;
            return Ok(Some((
                page,
                Total {
                    n: cap,
                    exact: false,
                },
            )));
        }
        let page = rows.iter().map(R::from_row).collect::<Result<_, _>>()?;
        Ok(Some((page, Total::from(matches))))
    }
    /// The filter's total: from the rollup (migration 0022) for state, status and a score band;
    /// with a search, a list of ids or another score range, counted up to `offset` + [`COUNT_CAP`].
    pub async fn company_total(
        &self,
        f: &CompanyFilter,
        offset: i64,
    ) -> Result<Total, sqlx::Error> {
        let band = match (f.score_min, f.score_max) {
            (None, None) => Some(None),
            (Some(min), Some(max)) => crate::domain::companies::SCORE_BANDS
                .iter()
                .filter_map(|b| crate::domain::companies::score_band(b))
                .find(|band| *band == (min, max))
                .map(|(min, _)| Some(min)),
            _ => None,
        };
        if let (None, None, Some(band)) = (&f.q, &f.ids, band) {
            return on_db!(self, pool, [q = ROLLUP_COUNT], {
                let mut count = QueryBuilder::new(q);
                if let Some(state) = &f.state {
                    count.push(" AND state = ").push_bind(state.clone());
                }
                if let Some(status) = &f.status {
                    count.push(" AND status = ").push_bind(status.clone());
                }
                if let Some(band) = band {
                    count.push(" AND band = ").push_bind(band);
                }
                count.build_query_scalar::<i64>().fetch_one(pool).await
            })
            .map(Total::from);
        }
        let cap = offset.saturating_add(COUNT_CAP);
        let n: i64 = on_db!(self, pool, [q = COMPANY_COUNT_CAPPED], {
            let mut count = QueryBuilder::new(q);
            push_filter(&mut count, f);
            count
                .push(" LIMIT ")
                .push_bind(cap.saturating_add(1))
                .push(") capped");
            count
                .build_query_scalar()
                .persistent(keep_prepared(f.q.as_deref()))
                .fetch_one(pool)
                .await
        })?;
        Ok(Total::capped(n, cap))
    }
    /// Like [`Db::company_page`]'s cards, with descriptions cut to 200 characters (the report).
    pub async fn company_list_report(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Vec<CompanyCard>, sqlx::Error> {
        self.company_rows(
            [COMPANY_PAGE_REPORT, COMPANY_PAGE_REPORT_DEEP],
            None,
            p,
            None,
        )
        .await
    }
    /// `[first, deep]`: the first page reads its rows whole; a later one its ids first, then
    /// only its rows whole, because Postgres computes a row's columns (the contact count's
    /// subquery among them) for every row an OFFSET skips: a page 20 deep counted the contacts of
    /// 1,008 companies. The first page stays one plain statement (cheaper to plan, and a search
    /// is planned for each term), but for a search on SQLite, which computes every match's
    /// columns before it sorts them. `deep_keyed`: on Postgres, the later page in the default
    /// order ([`CompanyListed::DEEP_KEYED`]) in place of `deep`. `alone`: a search alone as
    /// [`sqlite::companies::SearchAlone`] planned it (its matches, and whether the ids come from
    /// the list order's index, each entry checked against them).
    async fn company_rows<R: CompanyListed>(
        &self,
        [first, deep]: [Sql; 2],
        deep_keyed: Option<&'static str>,
        p: &CompanyList<'_>,
        alone: Option<&sqlite::companies::SearchAlone>,
    ) -> Result<Vec<R>, sqlx::Error> {
        let order = company_order(p.sort);
        let sorts_whole_rows = matches!(self, Db::Sqlite(_)) && p.filter.q.is_some();
        let ids_first = p.offset > 0 || sorts_whole_rows;
        let select = if ids_first { deep } else { first };
        // Without a term, an id list or a sort the user picked, a page walks an index in the
        // list's order (migrations 0012, 0040, 0042) whatever its values, so Postgres plans it
        // once per connection: planning cost up to as much as the run. Not a score range with a
        // state or status: a plan for unknown bounds guesses 0.5 % of the rows in range, two
        // rows of a state, and reads and sorts every match (7.4 against 2.3 ms for TX, medium).
        let f = p.filter;
        let ranged = f.score_min.is_some() || f.score_max.is_some();
        let narrowed = f.state.is_some() || f.status.is_some();
        let mut select = Sql {
            generic_plan: f.q.is_none()
                && f.ids.is_none()
                && p.sort.is_none()
                && !(ranged && narrowed),
            ..select
        };
        let keyed = match (self, deep_keyed) {
            (Db::Postgres(_), Some(text)) if ids_first && p.sort.is_none() => {
                select.postgres = text;
                true
            }
            _ => false,
        };
        on_db!(self, pool, [q = select], {
            let mut qb = QueryBuilder::new(q);
            if alone.is_some_and(|a| a.walk) {
                qb.push(sqlite::companies::WALK_ORDER);
            }
            let matched = alone.and_then(|a| a.matched.as_deref());
            // The same statement for every term: kept prepared.
            let keep = matched.is_some() || keep_prepared(p.filter.q.as_deref());
            match matched {
                Some(matched) => {
                    qb.push(sqlite::companies::MATCHED)
                        .push_bind(matched)
                        .push("))");
                }
                None => push_filter(&mut qb, p.filter),
            }
            qb.push(" ORDER BY ").push(&order);
            push_limit_offset(&mut qb, p.limit, p.offset);
            if keyed {
                qb.push(COMPANY_PAGE_KEYED);
            } else if ids_first {
                qb.push(COMPANY_PAGE_BY_ID).push(" ORDER BY ").push(&order);
            }
            qb.build_query_as().persistent(keep).fetch_all(pool).await
        })
    }
    pub async fn company_report_summary(
        &self,
        state: Option<&str>,
    ) -> Result<CompanyReportSummary, sqlx::Error> {
        let (total, qualified, revenue_sum, revenue_n, employees_sum, employees_n): (
            i64,
            i64,
            i64,
            i64,
            i64,
            i64,
        ) = fetch!(self, fetch_one, query_as(REPORT_SUMMARY), state)?;
        // Rounded half away from zero, as SQL's ROUND of an AVG; none known: no average.
        let avg = |sum: i64, n: i64| (n > 0).then(|| (sum as f64 / n as f64).round() as i64);
        Ok(CompanyReportSummary {
            total_companies: total,
            avg_revenue: avg(revenue_sum, revenue_n),
            avg_employees: avg(employees_sum, employees_n),
            qualified,
        })
    }
}

/// Binds ?1..?14, the columns [`COMPANY_INSERT`] and [`COMPANY_UPDATE`] share, in their order.
macro_rules! bind_company_write {
    ($query:expr, $c:expr) => {
        $query
            .bind(&$c.id)
            .bind(&$c.name)
            .bind(&$c.industry)
            .bind(&$c.status)
            .bind($c.revenue)
            .bind($c.employees)
            .bind($c.score)
            .bind(&$c.website)
            .bind(&$c.phone)
            .bind(&$c.address)
            .bind(&$c.city)
            .bind(&$c.state)
            .bind(&$c.zip_code)
            .bind(&$c.description)
    };
}

impl Tx {
    /// The company, locked against concurrent changes until the transaction ends.
    pub async fn company_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<CompanyRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(COMPANY_GET_FOR_UPDATE), id)
    }
    pub async fn company_insert(&mut self, c: &CompanyWrite) -> Result<(), sqlx::Error> {
        on_tx!(self, conn, [q = COMPANY_INSERT], {
            bind_company_write!(sqlx::query(q), c)
                .bind(&c.discovery_source)
                .bind(c.now)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })
    }
    pub async fn company_update(&mut self, c: &CompanyWrite) -> Result<(), sqlx::Error> {
        on_tx!(self, conn, [q = COMPANY_UPDATE], {
            bind_company_write!(sqlx::query(q), c)
                .bind(c.now)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })
    }
    /// Which of `ids` are companies (in id order), locked until the transaction ends (Postgres).
    pub async fn company_ids_locked(&mut self, ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = Value::from(ids).to_string();
        fetch_tx!(self, fetch_all, query_scalar(IDS_LOCKED), &list)
    }
    /// Sets the status of every listed company that has another one, each with its
    /// `company_status_change` activity by `actor`; the number changed.
    pub async fn companies_status_set(
        &mut self,
        ids: &[String],
        status: &str,
        actor: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let list = Value::from(ids).to_string();
        exec_tx!(self, BULK_STATUS_ACTIVITIES, &list, status, actor, now)?;
        exec_tx!(self, BULK_STATUS_SET, &list, status, now)
    }
    /// Deletes the listed companies, each with a `company_deleted` activity by `actor` (see
    /// [`DELETE`] for what stays); the number deleted.
    pub async fn companies_delete(
        &mut self,
        ids: &[String],
        actor: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let list = Value::from(ids).to_string();
        exec_tx!(self, DELETE_UNSET_ACTIVITIES, &list)?;
        exec_tx!(self, DELETE_ACTIVITIES, &list, actor, now)?;
        exec_tx!(self, DELETE, &list)
    }
    /// Which of these ids are companies.
    pub async fn company_ids_existing(
        &mut self,
        ids: &[String],
    ) -> Result<HashSet<String>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let ids = Value::from(ids).to_string();
        let found: Vec<String> = fetch_tx!(self, fetch_all, query_scalar(IDS_EXISTING), &ids)?;
        Ok(found.into_iter().collect())
    }
}
