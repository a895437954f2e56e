//! Contacts: params, rows and their queries, written once for both dialects. Also the stored CSV
//! uploads of the contact import and the import's upsert. What differs is in sqlite/contacts.rs and
//! postgres/contacts.rs ([`ContactsDialect`]: the text search, list binds, adding a tag); here the
//! row lock and the JSON literal of the import.

use std::collections::HashSet;

use sqlx::QueryBuilder;

use super::sql::{PageLimit, Sql, push_limit_offset};
use super::*;
use crate::domain::like_pattern;

/// The columns of [`ContactRow`], in its order, over [`with_company!`].
macro_rules! contact_columns {
    () => {
        "c.id, c.company_id, c.first_name, c.last_name, c.email, c.phone, c.title, c.department,
         c.linkedin_url, c.status, c.score, c.source, c.tags, c.notes, c.is_verified,
         c.verification_score, c.verified_by, c.verified_at, c.verification_warnings,
         c.last_contacted_at, c.created_at, c.updated_at, c.score_factors,
         co.name AS company_name, co.city AS company_city, co.state AS company_state,
         COALESCE(c.source = 'discovery' AND EXISTS (SELECT 1 FROM company_sources cs
             WHERE cs.company_id = c.company_id AND cs.source = 'catalog'), FALSE) AS demo"
    };
}

/// ` FROM $contacts c` with the contact's company as `co`: every card shows its company, read in
/// the same query as the contact.
macro_rules! with_company {
    ($contacts:literal) => {
        concat!(
            " FROM ",
            $contacts,
            " c LEFT JOIN companies co ON co.id = c.company_id"
        )
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContactRow {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Json<Vec<String>>,
    pub notes: Option<String>,
    pub is_verified: bool,
    pub verification_score: Option<i32>,
    pub verified_by: Json<Vec<String>>,
    pub verified_at: Option<i64>,
    pub verification_warnings: Json<Vec<String>>,
    pub last_contacted_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Why the contact has its score (the scorer's factors); `None` until it is scored.
    pub score_factors: Option<Json<serde_json::Value>>,
    /// The contact's company (its name, city and state), when it has one.
    pub company_name: Option<String>,
    pub company_city: Option<String>,
    pub company_state: Option<String>,
    /// Found by a scan of the catalog of generated companies (invented, like its company): every
    /// screen labels it "demo data". Read by [`contact_columns!`]; other selects leave it false.
    #[sqlx(default)]
    pub demo: bool,
}

/// Filters of the contact list, export, customers list and board; every `None` is "any".
#[derive(Debug, Clone, Default)]
pub struct ContactFilter {
    /// Text searched in "first last", email and title (case-insensitive substring).
    pub q: Option<String>,
    /// A `LIKE` pattern over the title.
    pub role: Option<String>,
    pub status: Option<String>,
    pub company_id: Option<String>,
    /// State codes of the contact's company.
    pub states: Option<Vec<String>>,
    /// The region those states are (lower-cased), when the filter came from one.
    pub region: Option<String>,
    /// Only these contacts (an export of the rows picked in the table).
    pub ids: Option<Vec<String>>,
}

/// The role words that migration 0024 keeps as facets (the contacts screen's role filter).
const ROLE_WORDS: [&str; 7] = [
    "ceo",
    "president",
    "owner",
    "founder",
    "vp",
    "director",
    "manager",
];

impl ContactFilter {
    /// The search term when it is the only condition (what migration 0030's words can answer).
    fn search_alone(&self) -> Option<&str> {
        let alone = self.role.is_none()
            && self.status.is_none()
            && self.company_id.is_none()
            && self.states.is_none()
            && self.ids.is_none();
        self.q.as_deref().filter(|_| alone)
    }
    /// The filter as one facet key of migrations 0024 and 0025 when every condition it has is a
    /// facet (no search, no company, a role that is one of the role words) and it has a role or a
    /// region; status alone reads its own index and rollup. Several facets make the combination's
    /// key: the facets in order (region < role < status) joined with '&'.
    fn facet_key(&self) -> Option<String> {
        if self.q.is_some() || self.company_id.is_some() || self.ids.is_some() {
            return None;
        }
        let mut facets = Vec::new();
        if let Some(role) = &self.role {
            let word = role.strip_prefix('%')?.strip_suffix('%')?;
            if !ROLE_WORDS.contains(&word) {
                return None;
            }
            facets.push(format!("role:{word}"));
        }
        if self.states.is_some() {
            facets.push(format!("region:{}", self.region.as_deref()?));
        }
        if facets.is_empty() {
            return None;
        }
        if let Some(status) = &self.status {
            facets.push(format!("status:{status}"));
        }
        facets.sort();
        Some(facets.join("&"))
    }
}

/// A list's total: exact, or a floor ("1,000+") where only counting every match could tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Total {
    pub n: i64,
    pub exact: bool,
}

impl From<i64> for Total {
    fn from(n: i64) -> Self {
        Self { n, exact: true }
    }
}

impl Total {
    /// `n` matches counted at most to `cap`: exact up to the cap, its floor past it.
    pub fn capped(n: i64, cap: i64) -> Self {
        Self {
            n: n.min(cap),
            exact: n <= cap,
        }
    }
    /// A page that came back short ends the list (read in the same order), so its offset plus its
    /// rows is the exact total and nothing needs counting: a search for a rare term or a miss
    /// costs one query. An empty page past the first says nothing about where the list ends.
    pub fn of_short_page(offset: i64, limit: i64, rows: usize) -> Option<Self> {
        let rows = i64::try_from(rows).unwrap_or(i64::MAX);
        (rows < limit && (rows > 0 || offset == 0)).then(|| offset.saturating_add(rows).into())
    }
}

/// Matches counted at most past a page's offset for a filter the rollup cannot answer (search,
/// role, region): counting further costs more than the page itself. The selection of "all
/// matching" resolves on the server, and its preview gives the exact figure.
pub const COUNT_CAP: i64 = 1_000;

pub struct ContactList<'a> {
    pub filter: &'a ContactFilter,
    pub limit: i64,
    pub offset: i64,
    /// None (or `created` descending): newest first, through the list's fast paths.
    pub sort: Option<Sort<ContactSortKey>>,
}

/// A list's order picked by the user: a key and its direction; ties break on id the same way, so
/// pages never repeat or skip a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort<K> {
    pub key: K,
    pub desc: bool,
}

impl<K> Sort<K> {
    fn dir(&self) -> &'static str {
        if self.desc { "DESC" } else { "ASC" }
    }
}

/// The sort keys of the contacts and customers lists (docs/records.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactSortKey {
    Created,
    /// Last name, then first name.
    Name,
    Score,
    Status,
    /// The company's name; contacts without one last.
    Company,
    /// Never-contacted last.
    LastContacted,
}

impl ContactSortKey {
    /// Each `sort` value, its key, and whether it runs descending unless `dir` says otherwise.
    pub const ALL: [(&'static str, Self, bool); 6] = [
        ("created", Self::Created, true),
        ("name", Self::Name, false),
        ("score", Self::Score, true),
        ("status", Self::Status, false),
        ("company", Self::Company, false),
        ("lastContacted", Self::LastContacted, true),
    ];
}

impl Sort<ContactSortKey> {
    /// The order the list has without a sort (its fast paths read it).
    pub fn is_newest_first(&self) -> bool {
        self.key == ContactSortKey::Created && self.desc
    }
}

/// `sort` unless it is the default order.
pub fn contact_sort_custom(sort: Option<Sort<ContactSortKey>>) -> Option<Sort<ContactSortKey>> {
    sort.filter(|s| !s.is_newest_first())
}

/// `ORDER BY` terms over contacts as `c` (no binds: the keys are ours). The name and score orders
/// match migration 0033's indexes, so an unfiltered page reads one in order. NULLs go last in both
/// directions, spelled out: SQLite puts them first ascending, Postgres first descending.
fn contact_order(s: Sort<ContactSortKey>) -> String {
    let terms: &[(&str, bool)] = match s.key {
        ContactSortKey::Created => &[("c.created_at", false)],
        ContactSortKey::Name => &[
            ("lower(c.last_name)", false),
            ("lower(c.first_name)", false),
        ],
        ContactSortKey::Score => &[("c.score", false)],
        ContactSortKey::Status => &[("c.status", false)],
        // A subquery, not a join: the filters name contacts' columns unqualified.
        ContactSortKey::Company => &[(
            "(SELECT lower(sc.name) FROM companies sc WHERE sc.id = c.company_id)",
            true,
        )],
        ContactSortKey::LastContacted => &[("c.last_contacted_at", true)],
    };
    order_terms(terms, s.dir(), "c.id")
}

/// `term dir [NULLS LAST], …, id dir`.
pub(crate) fn order_terms(terms: &[(&str, bool)], dir: &str, id: &str) -> String {
    let mut out = String::new();
    for (term, nullable) in terms {
        out.push_str(term);
        out.push(' ');
        out.push_str(dir);
        if *nullable {
            out.push_str(" NULLS LAST");
        }
        out.push_str(", ");
    }
    out.push_str(id);
    out.push(' ');
    out.push_str(dir);
    out
}

/// The editable columns of a contact, written as a whole (insert, or update after a merge).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactWrite {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Vec<String>,
    pub notes: Option<String>,
    pub now: i64,
}

impl From<&ContactRow> for ContactWrite {
    fn from(r: &ContactRow) -> Self {
        Self {
            id: r.id.clone(),
            company_id: r.company_id.clone(),
            first_name: r.first_name.clone(),
            last_name: r.last_name.clone(),
            email: r.email.clone(),
            phone: r.phone.clone(),
            title: r.title.clone(),
            department: r.department.clone(),
            linkedin_url: r.linkedin_url.clone(),
            status: r.status.clone(),
            score: r.score,
            source: r.source.clone(),
            tags: r.tags.0.clone(),
            notes: r.notes.clone(),
            now: r.updated_at,
        }
    }
}

/// Per pipeline stage: contacts, their score sum and high-priority count (score ≥ 80).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StageStats {
    pub status: String,
    pub count: i64,
    pub score_sum: i64,
    pub high_priority: i64,
}

impl StageStats {
    /// The rounded average score (half away from zero, as SQL's ROUND of an average).
    pub fn avg_score(&self) -> Option<i64> {
        (self.count > 0).then(|| (self.score_sum as f64 / self.count as f64).round() as i64)
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerStats {
    pub total: i64,
    pub high_value: i64,
    pub new_this_month: i64,
}

/// One CSV row of an import, validated: `None` fields leave an existing contact's value alone.
#[derive(Debug, Clone)]
pub struct ContactImportRow {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: Option<String>,
    pub score: Option<i32>,
    pub source: Option<String>,
    pub tags: Option<Vec<String>>,
    pub notes: Option<String>,
}

pub struct ContactImportInsert<'a> {
    pub id: &'a str,
    pub body: &'a [u8],
    pub created_by: Option<&'a str>,
    pub created_at: i64,
}

/// The fragments of the contact queries that differ between the dialects, one impl per backend
/// (in `sqlite/contacts.rs` and `postgres/contacts.rs`).
pub(crate) trait ContactsDialect: PageLimit {
    /// Pushes ` AND <q matches the contact>`.
    fn push_contact_search(qb: &mut QueryBuilder<Self>, q: &str);
    /// Pushes `SELECT c.*, <rank> AS search_rank FROM <matches of q> JOIN contacts c` and returns
    /// true where the search index yields its matches newest first; false (nothing pushed) where
    /// the page is read in list order with [`Self::push_contact_search`] as a filter.
    fn push_search_source(qb: &mut QueryBuilder<Self>, q: &str) -> bool;
    /// Pushes `SELECT 1 FROM <matches of q>` read from the search index alone and returns true
    /// where that index holds exactly one entry per contact; false (nothing pushed) elsewhere.
    fn push_search_count_source(qb: &mut QueryBuilder<Self>, q: &str) -> bool;
    /// Pushes ` <list contains the value before>` (the list as one bind), e.g. after `lower(email)`.
    fn push_in_list(qb: &mut QueryBuilder<Self>, list: &[String]);
    /// Pushes ` FROM … WHERE …` with `c` each company's best `per_company` contacts (score,
    /// then oldest first) and `co` its company, for the companies of `ids`.
    fn push_best_of_companies(qb: &mut QueryBuilder<Self>, ids: &[String], per_company: i64);
}

/// The active filters only, over contacts as `c`: an absent filter adds no condition, so the
/// planner can use the indexes (created_at for the newest-first page, the trigram index for `q`).
fn push_filter<DB: ContactsDialect>(qb: &mut QueryBuilder<DB>, f: &ContactFilter)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    qb.push(" WHERE TRUE");
    if let Some(q) = &f.q {
        DB::push_contact_search(qb, q);
    }
    if let Some(role) = &f.role {
        qb.push(" AND lower(COALESCE(title, '')) LIKE ")
            .push_bind(role.clone())
            .push(" ESCAPE '\\'");
    }
    if let Some(status) = &f.status {
        qb.push(" AND status = ").push_bind(status.clone());
    }
    if let Some(company) = &f.company_id {
        qb.push(" AND company_id = ").push_bind(company.clone());
    }
    if let Some(ids) = &f.ids {
        qb.push(" AND c.id");
        DB::push_in_list(qb, ids);
    }
    if let Some(states) = &f.states {
        // Per row, so the list's index order drives the page (an IN list would sort every match).
        qb.push(
            " AND EXISTS (SELECT 1 FROM companies region WHERE region.id = c.company_id \
             AND region.state",
        );
        DB::push_in_list(qb, states);
        qb.push(")");
    }
}

const CONTACT_GET: Sql = sql!(concat!(
    "SELECT ",
    contact_columns!(),
    with_company!("contacts"),
    " WHERE c.id = ?1"
));
// Differs: Postgres locks the row read before a write (the contact's, not its company's); SQLite's
// BEGIN IMMEDIATE already holds the write lock (and has no FOR UPDATE).
const CONTACT_GET_FOR_UPDATE: Sql = locking!(
    concat!(
        "SELECT ",
        contact_columns!(),
        with_company!("contacts"),
        " WHERE c.id = ?1"
    ),
    "FOR UPDATE OF c",
    ""
);
/// The list's page: the inner select (see [`push_page`]) is closed by `) c` and joined.
const CONTACT_PAGE: Sql = sql!(concat!("SELECT ", contact_columns!(), " FROM ("));
/// The page's cards (migration 0041: each contact as the api's JSON, kept by triggers): the
/// inner select (see [`push_page`]) is closed as for [`CONTACT_PAGE`].
const CONTACT_CARDS: &str = "SELECT c.card FROM (";
/// Cards as one JSON array, in their order.
fn cards_json(cards: impl IntoIterator<Item = String>) -> String {
    let mut body = String::from("[");
    for (i, card) in cards.into_iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&card);
    }
    body.push(']');
    body
}
/// SQLite: then ` FROM (<the page's cards>) j`: the page as the api's JSON array, and its rows.
const CARDS_JSON: &str =
    "SELECT '[' || COALESCE(group_concat(j.card, ','), '') || ']' AS body, COUNT(*) AS n";
const CONTACT_PAGE_JOIN: &str = ") c LEFT JOIN companies co ON co.id = c.company_id";
/// As [`CONTACT_PAGE_JOIN`] after an inner select of ids. `CROSS JOIN` keeps the page's ids the
/// outer loop on SQLite: with plans that do not watch bound values (`SQLITE_ENABLE_QPSG`) the
/// planner, not knowing the LIMIT, scanned every contact and looked each up in the page instead
/// (28 ms against 1 ms at 100k contacts). Postgres plans it as the inner join it is.
const CONTACT_PAGE_BY_ID: &str =
    ") p CROSS JOIN contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE c.id = p.id";
/// Kept by the triggers of migration 0022 in the write's transaction.
const ROLLUP_COUNT: Sql = sql!("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM contact_rollup");
const ROLLUP_STATUS_COUNT: Sql =
    sql!("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM contact_rollup WHERE status = ?1");
const CONTACT_COUNT: Sql = sql!("SELECT COUNT(*) FROM contacts c");
/// Postgres only: a term's words as `LIKE` patterns over whole words (migrations 0030, 0045), when
/// it has one or more and no digits (a digit's trigrams are rare, so the trigram index is quicker),
/// in ASCII only (where Rust's letters and Postgres' `[[:alpha:]]` agree). A word at the term's
/// start may end a longer word, one at its end may begin one, a word that is the whole term may sit
/// inside one; a word between other characters is whole.
pub(crate) fn word_patterns(q: &str) -> Option<Vec<String>> {
    let q = q.trim().to_lowercase();
    if !q.is_ascii() || q.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut words = Vec::new();
    let mut start = None;
    for (i, ch) in q.char_indices().chain([(q.len(), ' ')]) {
        match (ch.is_ascii_alphabetic() && i < q.len(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let mut w = String::new();
                if s == 0 {
                    w.push('%');
                }
                w.push_str(&q[s..i]);
                if i == q.len() {
                    w.push('%');
                }
                words.push(w);
                start = None;
            }
            _ => {}
        }
    }
    (!words.is_empty()).then_some(words)
}
/// A word pattern's contacts, summed over the words it fits; the fewest over the term's words
/// bounds what the words index reads. $1: the patterns.
const WORD_POSTINGS: &str = "SELECT CAST(COALESCE(MIN(s), 0) AS BIGINT) FROM (
    SELECT COALESCE(SUM(w.n), 0) AS s FROM unnest($1::text[]) WITH ORDINALITY AS t(pattern, i)
    LEFT JOIN contact_words w ON w.n > 0 AND w.word LIKE t.pattern
    GROUP BY t.i) per_word";
/// Past this many contacts for its rarest word, a term's matches are many: its page walks the
/// list's order and its count stops at the cap, as for one word.
const WORD_POSTINGS_CAP: i64 = 100_000;
/// The expression of `contacts_search_words` (migration 0030).
const WORDS_OF_CONTACT: &str = "regexp_split_to_array(c.search_text, '[^[:alpha:]]+')";
/// Whether a list's statement may be kept prepared: not with a search term. Postgres plans a kept
/// statement once for any term after a few runs, and a plan for any term suits none: at 1,000,000
/// contacts it walked the list's order for a rare pair of names or read the trigram index for a
/// common name, and the search route did half the requests per second. Unkept, each statement is
/// planned for its own term (pg_trgm's estimate of it).
pub(crate) fn keep_prepared(q: Option<&str>) -> bool {
    q.is_none()
}
/// Postgres only: a word (migration 0030) that holds the term and more than the cap's contacts.
const SEARCH_WORD_OVER_CAP: &str = "SELECT EXISTS (SELECT 1 FROM contact_words
    WHERE word LIKE $1 ESCAPE '\\' AND n > $2)";
/// One lead-board stage's newest contacts: a range of `contacts_status_created` (migration 0022).
macro_rules! lead_board_part {
    ($status:literal, $alias:literal) => {
        concat!(
            "SELECT * FROM (SELECT status, card, created_at, id FROM contacts WHERE status = '",
            $status,
            "' ORDER BY created_at DESC, id DESC LIMIT ?1) ",
            $alias
        )
    };
}
/// The lead board's first page of each stage ([`crate::domain::contacts::PIPELINE`]) in one
/// statement, newest first (the caller groups them by status).
const LEAD_BOARD: Sql = sql!(concat!(
    "SELECT c.status, c.card FROM (",
    lead_board_part!("new_lead", "n"),
    " UNION ALL ",
    lead_board_part!("email_sent", "e"),
    " UNION ALL ",
    lead_board_part!("meeting_scheduled", "m"),
    " UNION ALL ",
    lead_board_part!("qualified", "q"),
    ") c ORDER BY c.created_at DESC, c.id DESC"
))
// Each part is a range of its stage's index for any limit; planned per run it took 0.33 ms to
// plan and 0.29 to run.
.with_generic_plan();
/// Contacts with a facet key, kept by migration 0024's triggers; no row is no contact.
const FACET_COUNT: Sql =
    sql!("SELECT CAST(COALESCE(MAX(n), 0) AS BIGINT) FROM contact_facet_counts WHERE facet = ?1");
/// After [`CONTACT_PAGE`], a facet key's page: a range of the entries' primary key, newest first;
/// the key is bound between the pieces, then the page's limit and offset ([`push_limit_offset`]).
const FACET_PAGE: [&str; 3] = [
    "SELECT f.contact_id FROM contact_facets f WHERE f.facet = ",
    " ORDER BY f.created_at DESC, f.contact_id DESC",
    ") p JOIN contacts c ON c.id = p.contact_id LEFT JOIN companies co ON co.id = c.company_id
     ORDER BY c.created_at DESC, c.id DESC",
];
/// Then [`push_matches`], closed by `) capped`: counts at most a cap + 1 matches.
const CONTACT_COUNT_CAPPED: Sql = sql!("SELECT COUNT(*) FROM (");
/// `SELECT <columns> FROM <the filter's matches>`; true when the dialect's search index drives it
/// (then the rows are `c.*` with their `search_rank`), so a page or a capped count stops early
/// instead of collecting every match.
fn push_matches<DB: ContactsDialect>(
    qb: &mut QueryBuilder<DB>,
    f: &ContactFilter,
    columns: &str,
) -> bool
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    if f.q
        .as_deref()
        .is_some_and(|q| DB::push_search_source(qb, q))
    {
        push_filter(
            qb,
            &ContactFilter {
                q: None,
                ..f.clone()
            },
        );
        true
    } else {
        qb.push("SELECT ").push(columns).push(" FROM contacts c");
        push_filter(qb, f);
        false
    }
}

/// The filter's matches for a capped count: a search with no other filter from the search index
/// alone where it can (SQLite's FTS table: looking up each match's contact row read a page of
/// `contacts` per match, up to the cap), else [`push_matches`].
fn push_count_matches<DB: ContactsDialect>(qb: &mut QueryBuilder<DB>, f: &ContactFilter)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    if !f
        .search_alone()
        .is_some_and(|q| DB::push_search_count_source(qb, q))
    {
        push_matches(qb, f, "1");
    }
}

/// After [`CONTACT_PAGE`], the rest of the list's page: in a sort the user picked, the filter's
/// matches (the search as a filter, not the search index's own order) sorted, then only the page's
/// rows read whole; a facet key's page from its entries; else [`push_page`].
fn push_contact_page<DB: ContactsDialect>(qb: &mut QueryBuilder<DB>, p: &ContactList<'_>)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    i64: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    if let Some(sort) = contact_sort_custom(p.sort) {
        let order = contact_order(sort);
        qb.push("SELECT c.id FROM contacts c");
        push_filter(qb, p.filter);
        qb.push(" ORDER BY ").push(&order);
        push_limit_offset(qb, p.limit, p.offset);
        qb.push(CONTACT_PAGE_BY_ID).push(" ORDER BY ").push(&order);
    } else if let Some(key) = p.filter.facet_key() {
        let [facet, order, join] = FACET_PAGE;
        qb.push(facet).push_bind(key).push(order);
        push_limit_offset(qb, p.limit, p.offset);
        qb.push(join);
    } else {
        push_page(qb, p);
    }
}

/// The page's rows, newest first; a search that the dialect's index can walk in order (SQLite's
/// FTS table, newest row first) drives the page from it, so a term that matches a quarter of the
/// contacts reads 100 of them, not all of them sorted.
fn push_page<DB: ContactsDialect>(qb: &mut QueryBuilder<DB>, p: &ContactList<'_>)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    i64: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    // The inner order picks the page; the outer one keeps it after the join. In list order the
    // inner select reads ids only, so the rows it skips or checks (an offset, a search's misses)
    // can come from an index alone; only the page's rows are read whole.
    let (inner, join, outer) = if push_matches(qb, p.filter, "c.id") {
        (
            " ORDER BY search_rank DESC",
            CONTACT_PAGE_JOIN,
            " ORDER BY c.search_rank DESC",
        )
    } else {
        (
            " ORDER BY created_at DESC, id DESC",
            CONTACT_PAGE_BY_ID,
            " ORDER BY c.created_at DESC, c.id DESC",
        )
    };
    qb.push(inner);
    push_limit_offset(qb, p.limit, p.offset);
    qb.push(join).push(outer);
}
const CONTACT_IDS: Sql = sql!("SELECT id FROM contacts c");
/// Closed by [`ContactsDialect::push_best_of_companies`]: each company's first entries of
/// `contacts_company_rank`, then only those rows (a window over every contact of the companies,
/// joined back by id, took 0.39 ms on Postgres where this takes 0.21; docs/performance.md).
const CONTACTS_BY_COMPANIES: Sql = sql!(concat!("SELECT ", contact_columns!()));
/// As [`CONTACTS_BY_COMPANIES`], each contact's company and card (migration 0041).
const CARDS_BY_COMPANIES: Sql = sql!("SELECT c.company_id, c.card");
/// From the rollup (migration 0022).
const STAGE_STATS: Sql = sql!(
    "SELECT status, n AS count, score_sum, score80_n AS high_priority FROM contact_rollup
     WHERE status IN ('new_lead', 'email_sent', 'meeting_scheduled', 'qualified') AND n > 0"
);
/// Total and high value from the rollup; new ones since a time as a [`DayWindow`] (?1..?6): whole
/// days from `day_series` (migration 0028), the partial days from the (status, created_at) index.
const CUSTOMER_STATS: Sql = sql!(
    "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) AS total,
            CAST(COALESCE(SUM(score85_n), 0) AS BIGINT) AS high_value,
            (SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM day_series
                WHERE series = 'contacts.customer_created' AND day >= ?1 AND day < ?2)
            + (SELECT COUNT(*) FROM contacts
                WHERE status = 'customer' AND created_at >= ?3 AND created_at < ?4)
            + (SELECT COUNT(*) FROM contacts
                WHERE status = 'customer' AND created_at >= ?5 AND created_at < ?6)
                AS new_this_month
     FROM contact_rollup WHERE status = 'customer'"
);
const CONTACT_INSERT: Sql = sql!(
    "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department,
         linkedin_url, status, score, source, tags, notes, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)"
);
const CONTACT_UPDATE: Sql = sql!(
    "UPDATE contacts SET company_id = ?2, first_name = ?3, last_name = ?4, email = ?5, phone = ?6,
         title = ?7, department = ?8, linkedin_url = ?9, status = ?10, score = ?11, source = ?12,
         tags = ?13, notes = ?14, updated_at = ?15
     WHERE id = ?1"
);
const CONTACT_STATUS_SET: Sql =
    sql!("UPDATE contacts SET status = ?2, updated_at = ?3 WHERE id = ?1");
/// Followed by the list of lower-cased emails.
/// Adds tag ?2 to contact ?1 at ?3 unless it is there.
/// Differs: JSON array functions (json_insert and json_each; jsonb's `||` and `?` in Postgres).
const TAG_ADD: Sql = Sql {
    sqlite: sql!(
        "UPDATE contacts SET tags = json_insert(tags, '$[#]', ?2), updated_at = ?3
         WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM json_each(contacts.tags) WHERE value = ?2)"
    )
    .sqlite,
    postgres: sql!(
        "UPDATE contacts SET tags = tags || to_jsonb(?2::text), updated_at = ?3
         WHERE id = ?1 AND NOT (tags ? ?2)"
    )
    .postgres,
    generic_plan: false,
};
const EMAILS_EXISTING: Sql =
    sql!("SELECT lower(email) FROM contacts WHERE email IS NOT NULL AND lower(email)");
/// The import's upsert with `$empty` the empty JSON array.
macro_rules! contact_import_upsert {
    ($empty:literal) => {
        concat!(
            "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title,
                 department, linkedin_url, status, score, source, tags, notes, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, COALESCE(?10, 'discovered'), COALESCE(?11, 50),
                     ?12, COALESCE(?13, ",
            $empty,
            "), ?14, ?15, ?15)
             ON CONFLICT (lower(email)) WHERE email IS NOT NULL DO UPDATE SET
                 company_id = COALESCE(?2, contacts.company_id),
                 first_name = ?3, last_name = ?4,
                 phone = COALESCE(?6, contacts.phone),
                 title = COALESCE(?7, contacts.title),
                 department = COALESCE(?8, contacts.department),
                 linkedin_url = COALESCE(?9, contacts.linkedin_url),
                 status = COALESCE(?10, contacts.status),
                 score = COALESCE(?11, contacts.score),
                 source = COALESCE(?12, contacts.source),
                 tags = COALESCE(?13, contacts.tags),
                 notes = COALESCE(?14, contacts.notes),
                 updated_at = ?15"
        )
    };
}
// Differs: the empty tag list is a jsonb literal in Postgres, JSON text in SQLite.
const CONTACT_IMPORT_UPSERT: Sql = Sql {
    sqlite: sql!(contact_import_upsert!("'[]'")).sqlite,
    postgres: sql!(contact_import_upsert!("'[]'::jsonb")).postgres,
    generic_plan: false,
};
/// The listed contacts that exist (?1: a JSON array of ids), in id order; Postgres locks them in
/// that order, so two bulk writes over the same rows queue instead of deadlocking.
const IDS_LOCKED: Sql = Sql {
    sqlite: in_list!("SELECT id FROM contacts WHERE id IN ", 1, " ORDER BY id").sqlite,
    postgres: in_list!(
        "SELECT id FROM contacts WHERE id IN ",
        1,
        " ORDER BY id FOR UPDATE"
    )
    .postgres,
    generic_plan: false,
};
/// One `contact_status_change` activity per listed contact (?1) whose status is not ?2 yet, by
/// ?3 at ?4, worded as the single change's; run before the update, which it reads the old status of.
macro_rules! bulk_status_activities {
    ($d:ident) => {
        concat!(
            "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
             SELECT ",
            random_id!($d),
            ", 'contact_status_change', 'Contact ' || first_name || ' ' || last_name
                 || ' status changed from ' || status || ' to ' || CAST(?2 AS TEXT), 'contact', id,
                 ?3, ?4
             FROM contacts WHERE id IN (SELECT value FROM ",
            json_rows!($d, "1"),
            ") AND status <> ?2"
        )
    };
}
const BULK_STATUS_ACTIVITIES: Sql = per_dialect!(bulk_status_activities);
const BULK_STATUS_SET: Sql = in_list!(
    "UPDATE contacts SET status = ?2, updated_at = ?3 WHERE status <> ?2 AND id IN ",
    1,
    ""
);
/// A deleted contact's activities stay in the feed, no longer pointing at it.
const DELETE_UNSET_ACTIVITIES: Sql = in_list!(
    "UPDATE activities SET entity_id = NULL WHERE entity_type = 'contact' AND entity_id IN ",
    1,
    ""
);
/// Mail not yet handed to the mail server is not sent to a deleted contact; what was sent stays.
const DELETE_CANCEL_MAIL: Sql = in_list!(
    "UPDATE email_messages SET status = 'cancelled'
     WHERE status IN ('queued', 'deferred') AND contact_id IN ",
    1,
    ""
);
/// One `contact_deleted` activity per listed contact (?1), by ?2 at ?3.
macro_rules! delete_activities {
    ($d:ident) => {
        concat!(
            "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
             SELECT ",
            random_id!($d),
            ", 'contact_deleted', 'Contact ' || trim(first_name || ' ' || last_name) || ' deleted',
                 'contact', id, ?2, ?3
             FROM contacts WHERE id IN (SELECT value FROM ",
            json_rows!($d, "1"),
            ")"
        )
    };
}
const DELETE_ACTIVITIES: Sql = per_dialect!(delete_activities);
/// The foreign keys do the rest: enrollments and voice calls go (CASCADE); deals, meetings, the
/// mail ledger, email events and text messages stay without the contact (SET NULL). Triggers
/// take its notes, tasks, facets, search entries and rollup counts.
const DELETE: Sql = in_list!("DELETE FROM contacts WHERE id IN ", 1, "");
const IMPORT_INSERT: Sql =
    sql!("INSERT INTO contact_imports (id, body, created_by, created_at) VALUES (?1, ?2, ?3, ?4)");
const IMPORT_BODY: Sql = sql!("SELECT body FROM contact_imports WHERE id = ?1");
const IMPORT_DELETE: Sql = sql!("DELETE FROM contact_imports WHERE id = ?1");

impl Db {
    pub async fn contact_get(&self, id: &str) -> Result<Option<ContactRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(CONTACT_GET), id)
    }
    /// A page (newest first, or in the list's sort) and the total of the filter.
    pub async fn contact_list(
        &self,
        p: &ContactList<'_>,
    ) -> Result<(Vec<ContactRow>, Total), sqlx::Error> {
        if contact_sort_custom(p.sort).is_none()
            && let Some(found) = self.contact_search_by_words(p, contact_columns!()).await?
        {
            return Ok(found);
        }
        let page = self.contact_page(p).await?;
        let total = self.page_total(p, page.len()).await?;
        Ok((page, total))
    }
    /// As [`Db::contact_list`], the page as the screens' lists answer it: the api's JSON array of
    /// the page's contacts, their cards (migration 0041) joined, with no row decoded and encoded
    /// again. SQLite joins them itself, so one text crosses from its thread; Postgres sends the
    /// cards and they are joined here (its aggregates keep a subquery's order only by custom).
    pub async fn contact_list_page(
        &self,
        p: &ContactList<'_>,
    ) -> Result<(String, Total), sqlx::Error> {
        let (body, rows) = match self {
            Db::Sqlite(pools) => {
                let mut qb = QueryBuilder::new(CARDS_JSON);
                qb.push(" FROM (").push(CONTACT_CARDS);
                push_contact_page(&mut qb, p);
                qb.push(") j");
                let (body, n): (String, i64) = qb
                    .build_query_as()
                    .persistent(keep_prepared(p.filter.q.as_deref()))
                    .fetch_one(pools.read())
                    .await?;
                (body, usize::try_from(n).unwrap_or(usize::MAX))
            }
            Db::Postgres(pools) => {
                if contact_sort_custom(p.sort).is_none()
                    && let Some((cards, total)) = self
                        .contact_search_by_words::<(String,)>(p, "c.card")
                        .await?
                {
                    return Ok((cards_json(cards.into_iter().map(|(c,)| c)), total));
                }
                let mut qb = QueryBuilder::new(CONTACT_CARDS);
                push_contact_page(&mut qb, p);
                // Without a term or a sort the user picked, the page's plan is the same for any
                // values (an index walked in the list's order), so it is made once per
                // connection: planning took as long as running (0.46 against 0.44 ms a page).
                let kept = keep_prepared(p.filter.q.as_deref());
                let pool = if kept && contact_sort_custom(p.sort).is_none() {
                    pools.read_planned(&[true])
                } else {
                    pools.read()
                };
                let cards: Vec<String> = qb
                    .build_query_scalar()
                    .persistent(kept)
                    .fetch_all(pool)
                    .await?;
                let n = cards.len();
                (cards_json(cards), n)
            }
        };
        let total = self.page_total(p, rows).await?;
        Ok((body, total))
    }
    /// A page's total: the page's own end where it came back short, else counted.
    async fn page_total(&self, p: &ContactList<'_>, rows: usize) -> Result<Total, sqlx::Error> {
        match Total::of_short_page(p.offset, p.limit, rows) {
            Some(total) => Ok(total),
            None => self.contact_total(p.filter, p.offset).await,
        }
    }
    /// The newest `limit` contacts of each lead-board stage, newest first: each one's status
    /// and card (migration 0041).
    pub async fn lead_board(&self, limit: i64) -> Result<Vec<(String, String)>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(LEAD_BOARD), limit)
    }
    pub async fn contact_page(&self, p: &ContactList<'_>) -> Result<Vec<ContactRow>, sqlx::Error> {
        on_db!(self, pool, [q = CONTACT_PAGE], {
            let mut qb = QueryBuilder::new(q);
            push_contact_page(&mut qb, p);
            qb.build_query_as()
                .persistent(keep_prepared(p.filter.q.as_deref()))
                .fetch_all(pool)
                .await
        })
    }
    /// The list's total: from the rollup without a filter or by status alone, from the facet
    /// counts for role, region and status filters, counted for one company (a few rows), else
    /// counted up to `offset` + [`COUNT_CAP`].
    pub async fn contact_total(
        &self,
        f: &ContactFilter,
        offset: i64,
    ) -> Result<Total, sqlx::Error> {
        if let Some(key) = f.facet_key() {
            let n: i64 = fetch!(self, fetch_one, query_scalar(FACET_COUNT), key)?;
            return Ok(n.into());
        }
        let unfiltered = f.q.is_none() && f.role.is_none() && f.states.is_none() && f.ids.is_none();
        let n: i64 = match (&f.status, &f.company_id) {
            (None, None) if unfiltered => fetch!(self, fetch_one, query_scalar(ROLLUP_COUNT)),
            (Some(status), None) if unfiltered => {
                fetch!(self, fetch_one, query_scalar(ROLLUP_STATUS_COUNT), status)
            }
            (_, Some(_)) if f.q.is_none() => on_db!(self, pool, [q = CONTACT_COUNT], {
                let mut count = QueryBuilder::new(q);
                push_filter(&mut count, f);
                count.build_query_scalar::<i64>().fetch_one(pool).await
            }),
            _ => {
                let cap = offset.saturating_add(COUNT_CAP);
                if self.search_passes_cap(f, cap).await? {
                    return Ok(Total {
                        n: cap,
                        exact: false,
                    });
                }
                let n: i64 = on_db!(self, pool, [q = CONTACT_COUNT_CAPPED], {
                    let mut count = QueryBuilder::new(q);
                    push_count_matches(&mut count, f);
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
                return Ok(Total::capped(n, cap));
            }
        }?;
        Ok(n.into())
    }
    /// Whether a search alone (no other filter) is known to match more than `cap` contacts: on
    /// Postgres, a word of the searched text that holds the term is held by more than `cap`
    /// (migration 0030), so its capped count need not walk the trigram index's matches.
    async fn search_passes_cap(&self, f: &ContactFilter, cap: i64) -> Result<bool, sqlx::Error> {
        match (self, f.search_alone()) {
            (Db::Postgres(pools), Some(q)) => {
                sqlx::query_scalar(SEARCH_WORD_OVER_CAP)
                    .bind(like_pattern(q))
                    .bind(cap)
                    .fetch_one(pools.read())
                    .await
            }
            _ => Ok(false),
        }
    }
    /// On Postgres, a search of several words alone (no other filter) narrowed by its words
    /// (migration 0030) when each has at most [`WORD_POSTINGS_CAP`] contacts: one statement reads
    /// the matches once for the page and the exact total. None where it does not apply, or for a
    /// page past the end (its total is then counted as for any list).
    /// Each row is read as `T` from `columns` (over `contacts c LEFT JOIN companies co`).
    async fn contact_search_by_words<T>(
        &self,
        p: &ContactList<'_>,
        columns: &str,
    ) -> Result<Option<(Vec<T>, Total)>, sqlx::Error>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
    {
        let f = p.filter;
        let (Db::Postgres(pools), Some(q)) = (self, f.search_alone()) else {
            return Ok(None);
        };
        // One word: its page walks the list's order (the index carries the text) and its count
        // is proven by a word's count.
        let Some(words) = word_patterns(q).filter(|w| w.len() >= 2) else {
            return Ok(None);
        };
        let pool = pools.read();
        let fewest: i64 = sqlx::query_scalar(WORD_POSTINGS)
            .bind(&words)
            .fetch_one(pool)
            .await?;
        if fewest > WORD_POSTINGS_CAP {
            return Ok(None);
        }
        // A word of the term that no contact's word fits: nothing matches.
        if fewest == 0 {
            return Ok(Some((Vec::new(), Total::from(0))));
        }
        let mut qb = QueryBuilder::<sqlx::Postgres>::new(
            "WITH m AS MATERIALIZED (SELECT id, created_at FROM contacts c WHERE TRUE",
        );
        for word in &words {
            qb.push(" AND ")
                .push(WORDS_OF_CONTACT)
                .push(" && ARRAY(SELECT word FROM contact_words WHERE n > 0 AND word LIKE ")
                .push_bind(word.clone())
                .push(" ESCAPE '\\')");
        }
        qb.push(" AND c.search_text LIKE ")
            .push_bind(like_pattern(q))
            .push(" ESCAPE '\\') ")
            .push("SELECT ")
            .push(columns)
            .push(", c.matches FROM (")
            .push("SELECT c.*, (SELECT COUNT(*) FROM m) AS matches FROM (SELECT id FROM m")
            .push(" ORDER BY created_at DESC, id DESC LIMIT ")
            .push_bind(p.limit)
            .push(" OFFSET ")
            .push_bind(p.offset)
            .push(") p JOIN contacts c ON c.id = p.id")
            .push(CONTACT_PAGE_JOIN)
            .push(" ORDER BY c.created_at DESC, c.id DESC");
        let rows = qb.build().persistent(false).fetch_all(pool).await?;
        let total = match rows.first() {
            Some(row) => Total::from(sqlx::Row::try_get::<i64, _>(row, "matches")?),
            None if p.offset == 0 => Total::from(0),
            None => return Ok(None),
        };
        let page = rows.iter().map(T::from_row).collect::<Result<_, _>>()?;
        Ok(Some((page, total)))
    }
    /// The ids the list's filter matches (oldest first, at most `cap`): "select all N matching".
    pub async fn contact_ids_matching(
        &self,
        f: &ContactFilter,
        cap: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        on_db!(self, pool, [q = CONTACT_IDS], {
            let mut qb = QueryBuilder::new(q);
            push_filter(&mut qb, f);
            qb.push(" ORDER BY created_at, id LIMIT ").push_bind(cap);
            qb.build_query_scalar().fetch_all(pool).await
        })
    }
    /// Contacts of these companies, best score first, at most `per_company` each.
    pub async fn contact_list_by_companies(
        &self,
        company_ids: &[String],
        per_company: i64,
    ) -> Result<Vec<ContactRow>, sqlx::Error> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        on_db!(self, pool, [q = CONTACTS_BY_COMPANIES], {
            let mut qb = QueryBuilder::new(q);
            ContactsDialect::push_best_of_companies(&mut qb, company_ids, per_company);
            qb.push(" ORDER BY c.company_id, c.score DESC, c.created_at, c.id");
            qb.build_query_as().fetch_all(pool).await
        })
    }
    /// As [`Db::contact_list_by_companies`], each contact as its company's id and its card (the
    /// api's JSON of the contact, migration 0041), for the lists that show them.
    pub async fn contact_cards_by_companies(
        &self,
        company_ids: &[String],
        per_company: i64,
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        on_db!(self, pool, [q = CARDS_BY_COMPANIES], {
            let mut qb = QueryBuilder::new(q);
            ContactsDialect::push_best_of_companies(&mut qb, company_ids, per_company);
            qb.push(" ORDER BY c.company_id, c.score DESC, c.created_at, c.id");
            qb.build_query_as().fetch_all(pool).await
        })
    }
    /// The four pipeline stages' figures (stages without contacts are absent).
    pub async fn contact_stage_stats(&self) -> Result<Vec<StageStats>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(STAGE_STATS))
    }
    /// Customers: total, high value, and created at or after `since`.
    pub async fn customer_stats(&self, since: i64) -> Result<CustomerStats, sqlx::Error> {
        let [a, b, c, d, e, f] = super::metrics::DayWindow::new(since, i64::MAX).binds();
        fetch!(self, fetch_one, query_as(CUSTOMER_STATS), a, b, c, d, e, f)
    }
    pub async fn contact_import_body(&self, id: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(IMPORT_BODY), id)
    }
    pub async fn contact_import_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        exec!(self, IMPORT_DELETE, id).map(|_| ())
    }
}

impl Tx {
    /// The contact, locked until the transaction ends (Postgres; SQLite's write lock is already held).
    pub async fn contact_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<ContactRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(CONTACT_GET_FOR_UPDATE), id)
    }
    /// Which of `ids` are contacts (in id order), locked until the transaction ends (Postgres).
    pub async fn contact_ids_locked(&mut self, ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = Value::from(ids).to_string();
        fetch_tx!(self, fetch_all, query_scalar(IDS_LOCKED), &list)
    }
    /// Sets the status of every listed contact that has another one, each with its
    /// `contact_status_change` activity by `actor`; the number changed.
    pub async fn contacts_status_set(
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
    /// Deletes the listed contacts, each with a `contact_deleted` activity by `actor` (see
    /// [`DELETE`] for what goes with them); the number deleted.
    pub async fn contacts_delete(
        &mut self,
        ids: &[String],
        actor: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let list = Value::from(ids).to_string();
        exec_tx!(self, DELETE_UNSET_ACTIVITIES, &list)?;
        exec_tx!(self, DELETE_CANCEL_MAIL, &list)?;
        exec_tx!(self, DELETE_ACTIVITIES, &list, actor, now)?;
        exec_tx!(self, DELETE, &list)
    }
    /// A unique violation (`is_unique_violation`) means the email is taken.
    pub async fn contact_insert(&mut self, c: &ContactWrite) -> Result<(), sqlx::Error> {
        self.contact_write(CONTACT_INSERT, c).await
    }
    pub async fn contact_update(&mut self, c: &ContactWrite) -> Result<(), sqlx::Error> {
        self.contact_write(CONTACT_UPDATE, c).await
    }
    /// The insert and the update take the same binds.
    async fn contact_write(&mut self, query: Sql, c: &ContactWrite) -> Result<(), sqlx::Error> {
        on_tx!(self, conn, [q = query], {
            sqlx::query(q)
                .bind(&c.id)
                .bind(&c.company_id)
                .bind(&c.first_name)
                .bind(&c.last_name)
                .bind(&c.email)
                .bind(&c.phone)
                .bind(&c.title)
                .bind(&c.department)
                .bind(&c.linkedin_url)
                .bind(&c.status)
                .bind(c.score)
                .bind(&c.source)
                .bind(Json(&c.tags))
                .bind(&c.notes)
                .bind(c.now)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })
    }
    /// Sets the status; `false` when there is no such contact.
    pub async fn contact_status_set(
        &mut self,
        id: &str,
        status: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        exec_tx!(self, CONTACT_STATUS_SET, id, status, now).map(|n| n > 0)
    }
    /// Adds a tag unless the contact has it; `false` when nothing changed.
    pub async fn contact_tag_add(
        &mut self,
        id: &str,
        tag: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        exec_tx!(self, TAG_ADD, id, tag, now).map(|n| n > 0)
    }
    /// Which of these lower-cased emails already belong to a contact.
    pub async fn contact_emails_existing(
        &mut self,
        emails: &[String],
    ) -> Result<HashSet<String>, sqlx::Error> {
        if emails.is_empty() {
            return Ok(HashSet::new());
        }
        let found: Vec<String> = on_tx!(self, conn, [q = EMAILS_EXISTING], {
            let mut qb = QueryBuilder::new(q);
            ContactsDialect::push_in_list(&mut qb, emails);
            qb.build_query_scalar().fetch_all(&mut *conn).await
        })?;
        Ok(found.into_iter().collect())
    }
    /// Inserts the row, or fills the contact with the same email with the row's non-empty fields.
    pub async fn contact_import_upsert(
        &mut self,
        r: &ContactImportRow,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            CONTACT_IMPORT_UPSERT,
            &r.id,
            &r.company_id,
            &r.first_name,
            &r.last_name,
            &r.email,
            &r.phone,
            &r.title,
            &r.department,
            &r.linkedin_url,
            &r.status,
            r.score,
            &r.source,
            r.tags.as_ref().map(Json),
            &r.notes,
            now
        )
        .map(|_| ())
    }
    pub async fn contact_import_insert(
        &mut self,
        p: &ContactImportInsert<'_>,
    ) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            IMPORT_INSERT,
            p.id,
            p.body,
            p.created_by,
            p.created_at
        )
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::word_patterns;

    #[test]
    fn a_terms_words_fit_the_words_that_hold_it() {
        // The first word may end a longer one, the last begin one; words between are whole.
        assert_eq!(
            word_patterns(" Maria Garcia "),
            Some(vec!["%maria".into(), "garcia%".into()])
        );
        assert_eq!(
            word_patterns("ann-marie o'neil"),
            Some(vec![
                "%ann".into(),
                "marie".into(),
                "o".into(),
                "neil%".into()
            ])
        );
        // Bounded by other characters in the term, a word is whole on that side.
        assert_eq!(
            word_patterns(".lee smith."),
            Some(vec!["lee".into(), "smith".into()])
        );
        // A lone word may sit inside one (companies search it by its words; contacts do not).
        assert_eq!(word_patterns("garcia"), Some(vec!["%garcia%".to_string()]));
        // No word, digits or letters beyond ASCII: the trigram index answers.
        assert_eq!(word_patterns(" - "), None);
        assert_eq!(word_patterns("maria.garcia.12"), None);
        assert_eq!(word_patterns("josé garcía"), None);
    }
}
