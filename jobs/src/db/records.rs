//! The record pages (docs/records.md): a company's, contact's or deal's timeline, its related
//! records, and the palette's search over the small tables (deals, campaigns, sequences, invoices,
//! jobs); companies and contacts are searched through their lists' own search.
//!
//! The timeline is derived, like the activity feed (see `activities.rs`): one statement per page
//! reads what each table already records about the record and its related records (`r`, the
//! record set: a company with its contacts and deals, a contact with its deals, a deal with its
//! contact's mail and meetings since the deal began) as one UNION ALL, newest first, from a
//! keyset cursor. Every branch reaches its table through an index on the record's id, so a page
//! costs what the record set has, not what the tables hold.
//!
//! Jobs: only the kinds whose payload names one contact or company (`ai_score`'s `contactId` or
//! `companyId`, `contact_verify`'s `contactId`) are read, under migration 0031's indexes; kinds that carry lists of ids (`contact_enrich`, `bulk_ai_score`) cannot be matched
//! without reading every such job, so they are left out.

use super::sql::Sql;
use super::*;

/// A record's items from the tables that record them; `r` is the record set ([`refs_company`]
/// and the others) with `type`, `id`, `name`, `since` (the earliest time shown) and `scope`
/// (`all`, or `mail` for a deal's contact: only its emails and meetings).
/// Differs: how the jobs' payload ids are read (see `job_names!`).
macro_rules! timeline_items {
    ($d:ident) => {
        concat!(
            "SELECT a.id AS id, a.type AS kind, a.created_at AS at, a.description AS text,
                 CAST(NULL AS TEXT) AS detail, CAST(NULL AS TEXT) AS extra, CAST(0 AS BIGINT) AS n,
                 ",
            user_name!("a.actor_id"),
            " AS actor, r.type AS ref_type, r.id AS ref_id, r.name AS ref_name
             FROM r JOIN activities a ON a.entity_type = r.type AND a.entity_id = r.id
             WHERE r.scope = 'all' AND a.type IN ('company_created', 'contact_created', 'deal_created',
                 'company_updated', 'contact_updated', 'deal_updated', 'company_status_change',
                 'contact_status_change', 'deal_stage_change', 'contact_converted', 'prospect_converted',
                 'company_merged', 'contact_merged', 'company_enriched')
             UNION ALL
             SELECT 'em:' || m.id, 'email_sent', m.sent_at, COALESCE(m.subject, ca.subject, st.name),
                 m.to_email,
                 CASE WHEN ca.kind = 'single' THEN 'campaigns'
                      WHEN m.campaign_id IS NOT NULL THEN 'campaign:' || m.campaign_id
                      WHEN se.sequence_id IS NOT NULL THEN 'sequence:' || se.sequence_id END,
                 0, NULL, r.type, r.id, r.name
             FROM r JOIN email_messages m ON r.type = 'contact' AND m.contact_id = r.id
             LEFT JOIN campaigns ca ON ca.id = m.campaign_id
             LEFT JOIN sequence_steps st ON st.id = m.step_id
             LEFT JOIN sequence_enrollments se ON se.id = m.enrollment_id
             WHERE m.sent_at IS NOT NULL AND m.sent_at >= r.since AND m.dedupe_key NOT LIKE 'test:%'
             UNION ALL
             SELECT 'ev:' || e.id, 'email_' || e.event_type, e.occurred_at,
                 COALESCE(m.subject, ca.subject, st.name), COALESCE(e.url, e.detail), NULL, 0, NULL,
                 r.type, r.id, r.name
             FROM r JOIN email_events e ON r.type = 'contact' AND e.contact_id = r.id
             LEFT JOIN email_messages m ON m.id = e.message_id
             LEFT JOIN campaigns ca ON ca.id = COALESCE(m.campaign_id, e.campaign_id)
             LEFT JOIN sequence_steps st ON st.id = m.step_id
             WHERE e.event_type IN ('delivered', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed')
               AND e.occurred_at >= r.since
             UNION ALL
             SELECT 'sms:' || s.id, 'sms', COALESCE(s.sent_at, s.created_at), s.status, s.body, s.kind, 0,
                 ",
            user_name!("s.actor_id"),
            ", r.type, r.id, r.name
             FROM r JOIN sms_messages s ON r.type = 'contact' AND r.scope = 'all' AND s.contact_id = r.id
             UNION ALL
             SELECT 'call:' || v.id, 'call',
                 CASE WHEN v.status IN ('completed', 'failed', 'no_answer') THEN v.updated_at ELSE v.created_at END,
                 v.status, v.summary, v.outcome, CAST(COALESCE(v.duration_seconds, 0) AS BIGINT),
                 ",
            user_name!("v.actor_id"),
            ", r.type, r.id, r.name
             FROM r JOIN voice_calls v ON r.type = 'contact' AND r.scope = 'all' AND v.contact_id = r.id
             UNION ALL
             SELECT 'mtg:' || mt.id, 'meeting', mt.created_at, mt.title, mt.status, NULL, mt.scheduled_at,
                 NULL, r.type, r.id, r.name
             FROM r JOIN meetings mt ON r.type = 'contact' AND mt.contact_id = r.id
             WHERE mt.created_at >= r.since
             UNION ALL
             SELECT 'mtg:' || mt.id, 'meeting', mt.created_at, mt.title, mt.status, NULL, mt.scheduled_at,
                 NULL, r.type, r.id, r.name
             FROM r JOIN meetings mt ON r.type = 'company' AND mt.company_id = r.id
             WHERE mt.contact_id IS NULL
                OR NOT EXISTS (SELECT 1 FROM r r2 WHERE r2.type = 'contact' AND r2.id = mt.contact_id)
             UNION ALL
             SELECT 'note:' || n.id, 'note', n.created_at, NULL, n.body, NULL, 0, ",
            user_name!("n.author_id"),
            ", r.type, r.id, r.name
             FROM r JOIN notes n ON n.entity_type = r.type AND n.entity_id = r.id WHERE r.scope = 'all'
             UNION ALL
             SELECT 'tc:' || t.id, 'task_created', t.created_at, t.title, t.due_date, NULL, 0, ",
            user_name!("t.created_by"),
            ", r.type, r.id, r.name
             FROM r JOIN tasks t ON t.entity_type = r.type AND t.entity_id = r.id WHERE r.scope = 'all'
             UNION ALL
             SELECT 'td:' || t.id, 'task_done', t.done_at, t.title, NULL, NULL, 0, ",
            user_name!("t.done_by"),
            ", r.type, r.id, r.name
             FROM r JOIN tasks t ON t.entity_type = r.type AND t.entity_id = r.id
             WHERE r.scope = 'all' AND t.done AND t.done_at IS NOT NULL
             UNION ALL
             SELECT 'se:' || se.id, 'sequence_enrolled', se.enrolled_at, s.name, NULL,
                 'sequence:' || se.sequence_id, 0, NULL, r.type, r.id, r.name
             FROM r JOIN sequence_enrollments se ON r.type = 'contact' AND r.scope = 'all' AND se.contact_id = r.id
             JOIN email_sequences s ON s.id = se.sequence_id
             UNION ALL
             SELECT 'ss:' || se.id, 'sequence_stopped', COALESCE(se.completed_at, se.updated_at), s.name,
                 se.exit_reason, se.status, 0, NULL, r.type, r.id, r.name
             FROM r JOIN sequence_enrollments se ON r.type = 'contact' AND r.scope = 'all' AND se.contact_id = r.id
             JOIN email_sequences s ON s.id = se.sequence_id
             WHERE se.status IN ('completed', 'exited')
             UNION ALL
             SELECT 'disc:' || co.id, 'discovered', co.discovered_at, co.discovery_city, co.discovery_state,
                 co.discovery_region, 0, NULL, r.type, r.id, r.name
             FROM r JOIN companies co ON r.type = 'company' AND co.id = r.id
             WHERE co.discovered_at IS NOT NULL
             UNION ALL
             SELECT CASE WHEN c.source = 'discovery' THEN 'disc:' ELSE 'imp:' END || c.id,
                 CASE WHEN c.source = 'discovery' THEN 'discovered' ELSE 'imported' END,
                 c.created_at, NULL, NULL, NULL, 0, NULL, r.type, r.id, r.name
             FROM r JOIN contacts c ON r.type = 'contact' AND r.scope = 'all' AND c.id = r.id
             WHERE c.source IN ('discovery', 'import', 'csv', 'csv_import')
             UNION ALL
             SELECT 'job:' || j.id, 'job', COALESCE(j.finished_at, j.created_at), j.kind, j.status, j.id, 0,
                 NULL, r.type, r.id, r.name
             FROM r JOIN jobs j ON r.type = 'contact' AND r.scope = 'all' AND ",
            job_names!($d, contact),
            "
             UNION ALL
             SELECT 'job:' || j.id, 'job', COALESCE(j.finished_at, j.created_at), j.kind, j.status, j.id, 0,
                 NULL, r.type, r.id, r.name
             FROM r JOIN jobs j ON r.type = 'company' AND ",
            job_names!($d, company)
        )
    };
}

/// The jobs whose payload names `r.id` as its contact or company, of the kinds that carry one id.
/// Differs: SQLite reads migration 0031's virtual columns under their indexes (the `+` keeps the
/// planner off the kind's index); Postgres the payload's field under its expression index.
macro_rules! job_names {
    (sqlite, contact) => {
        "+j.kind IN ('ai_score', 'contact_verify') AND j.contact_ref = r.id"
    };
    (sqlite, company) => {
        "+j.kind = 'ai_score' AND j.company_ref = r.id"
    };
    (postgres, contact) => {
        "j.kind IN ('ai_score', 'contact_verify') AND (j.payload->>'contactId') = r.id"
    };
    (postgres, company) => {
        "j.kind = 'ai_score' AND (j.payload->>'companyId') = r.id"
    };
}

/// A contact's name as the record pages show it.
macro_rules! contact_name {
    ($c:literal) => {
        concat!("trim(", $c, ".first_name || ' ' || ", $c, ".last_name)")
    };
}

/// The record set of a company: itself, its contacts and its deals.
macro_rules! refs_company {
    () => {
        concat!(
            "SELECT 'company' AS type, id, name, CAST(0 AS BIGINT) AS since, 'all' AS scope
             FROM companies WHERE id = ?1
             UNION ALL SELECT 'contact', c.id, ",
            contact_name!("c"),
            ", 0, 'all' FROM contacts c WHERE c.company_id = ?1
             UNION ALL SELECT 'deal', d.id, d.title, 0, 'all' FROM deals d WHERE d.company_id = ?1"
        )
    };
}
/// The record set of a contact: itself and its deals.
macro_rules! refs_contact {
    () => {
        concat!(
            "SELECT 'contact' AS type, c.id, ",
            contact_name!("c"),
            " AS name, CAST(0 AS BIGINT) AS since, 'all' AS scope FROM contacts c WHERE c.id = ?1
             UNION ALL SELECT 'deal', d.id, d.title, 0, 'all' FROM deals d WHERE d.contact_id = ?1"
        )
    };
}
/// The record set of a deal: itself, and its contact's mail and meetings since the deal began.
macro_rules! refs_deal {
    () => {
        concat!(
            "SELECT 'deal' AS type, id, title AS name, CAST(0 AS BIGINT) AS since, 'all' AS scope
             FROM deals WHERE id = ?1
             UNION ALL SELECT 'contact', c.id, ",
            contact_name!("c"),
            ", d.created_at, 'mail' FROM deals d JOIN contacts c ON c.id = d.contact_id WHERE d.id = ?1"
        )
    };
}

/// One page: ?1 the record's id, then the cursor (?2 time, ?3 id: items strictly before it),
/// ?4 the rows to read and ?5 which items ([`TIMELINE_SHOWS`]).
macro_rules! timeline_page {
    ($d:ident, $refs:ident) => {
        concat!(
            "WITH r AS (",
            $refs!(),
            ") SELECT id, kind, at, text, detail, extra, n, actor, ref_type, ref_id, ref_name FROM (",
            timeline_items!($d),
            ") f WHERE f.at IS NOT NULL AND (f.at < ?2 OR (f.at = ?2 AND f.id < ?3))
               AND (?5 = 'all'
                 OR (?5 = 'emails' AND (substr(f.kind, 1, 6) = 'email_' OR substr(f.kind, 1, 9) = 'sequence_'))
                 OR (?5 = 'calls' AND f.kind IN ('call', 'sms'))
                 OR (?5 = 'meetings' AND f.kind = 'meeting')
                 OR (?5 = 'notes' AND f.kind = 'note')
                 OR (?5 = 'tasks' AND f.kind IN ('task_created', 'task_done')))
             ORDER BY f.at DESC, f.id DESC LIMIT ?4"
        )
    };
}
macro_rules! timeline_company {
    ($d:ident) => {
        timeline_page!($d, refs_company)
    };
}
macro_rules! timeline_contact {
    ($d:ident) => {
        timeline_page!($d, refs_contact)
    };
}
macro_rules! timeline_deal {
    ($d:ident) => {
        timeline_page!($d, refs_deal)
    };
}
/// What a timeline page may be narrowed to: everything, or one kind of item (emails with their
/// events and sequence steps, calls with text messages, meetings, notes, tasks).
pub const TIMELINE_SHOWS: [&str; 6] = ["all", "emails", "calls", "meetings", "notes", "tasks"];

const TIMELINE_COMPANY: Sql = per_dialect!(timeline_company);
const TIMELINE_CONTACT: Sql = per_dialect!(timeline_contact);
const TIMELINE_DEAL: Sql = per_dialect!(timeline_deal);

/// One timeline item as read; `crate::domain::timeline` words it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TimelineRow {
    pub id: String,
    /// The contract's kind, or a recorded activity's type (`contact_status_change`, ...).
    pub kind: String,
    pub at: i64,
    /// Per kind: a subject, title, name, description or status.
    pub text: Option<String>,
    pub detail: Option<String>,
    pub extra: Option<String>,
    pub n: i64,
    pub actor: Option<String>,
    pub ref_type: String,
    pub ref_id: String,
    pub ref_name: Option<String>,
}

/// A record of the pages: its type in the contract's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordType {
    Company,
    Contact,
    Deal,
}

impl RecordType {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "company" => Self::Company,
            "contact" => Self::Contact,
            "deal" => Self::Deal,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Company => "company",
            Self::Contact => "contact",
            Self::Deal => "deal",
        }
    }
}

const COMPANY_NAME: Sql = sql!("SELECT name FROM companies WHERE id = ?1");
const CONTACT_NAME: Sql = sql!(concat!(
    "SELECT ",
    contact_name!("c"),
    " FROM contacts c WHERE c.id = ?1"
));
const DEAL_NAME: Sql = sql!("SELECT title FROM deals WHERE id = ?1");

// ---- related ----

/// At most this many of each related list.
pub const RELATED_LIMIT: i64 = 50;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RelatedContact {
    pub id: String,
    pub name: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub status: String,
    pub score: i32,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RelatedDeal {
    pub id: String,
    pub title: String,
    pub value: i64,
    pub stage: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RelatedMeeting {
    pub id: String,
    pub title: String,
    pub scheduled_at: i64,
    pub status: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RelatedEnrollment {
    pub id: String,
    pub sequence_id: String,
    pub sequence_name: String,
    pub status: String,
    pub current_step: i32,
}

/// A deal's company and contact: id, name and (for the contact) email.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DealParties {
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    pub contact_id: Option<String>,
    pub contact_name: Option<String>,
    pub contact_email: Option<String>,
}

const COMPANY_CONTACTS: Sql = sql!(concat!(
    "SELECT c.id, ",
    contact_name!("c"),
    " AS name, c.title, c.email, c.status, c.score FROM contacts c WHERE c.company_id = ?1
     ORDER BY c.created_at DESC, c.id DESC LIMIT ?2"
));
// The count kept by migration 0043; one row even for a company deleted meanwhile.
const COMPANY_CONTACT_COUNT: Sql =
    sql!("SELECT COALESCE((SELECT n FROM company_contact_counts WHERE company_id = ?1), 0)");
const COMPANY_DEALS: Sql = sql!(
    "SELECT id, title, value, stage FROM deals WHERE company_id = ?1
     ORDER BY created_at DESC, id DESC LIMIT ?2"
);
const CONTACT_DEALS: Sql = sql!(
    "SELECT id, title, value, stage FROM deals WHERE contact_id = ?1
     ORDER BY created_at DESC, id DESC LIMIT ?2"
);
/// The company's meetings and its contacts' (two index reads joined by UNION).
const COMPANY_MEETINGS: Sql = sql!(
    "SELECT id, title, scheduled_at, status FROM (
         SELECT id, title, scheduled_at, status, created_at FROM meetings WHERE company_id = ?1
         UNION
         SELECT m.id, m.title, m.scheduled_at, m.status, m.created_at FROM meetings m
         JOIN contacts c ON c.id = m.contact_id WHERE c.company_id = ?1
     ) mt ORDER BY created_at DESC, id DESC LIMIT ?2"
);
const CONTACT_MEETINGS: Sql = sql!(
    "SELECT id, title, scheduled_at, status FROM meetings WHERE contact_id = ?1
     ORDER BY created_at DESC, id DESC LIMIT ?2"
);
/// A deal's meetings: its contact's since the deal was created.
const DEAL_MEETINGS: Sql = sql!(
    "SELECT m.id, m.title, m.scheduled_at, m.status FROM deals d
     JOIN meetings m ON m.contact_id = d.contact_id AND m.created_at >= d.created_at
     WHERE d.id = ?1 ORDER BY m.created_at DESC, m.id DESC LIMIT ?2"
);
const CONTACT_ENROLLMENTS: Sql = sql!(
    "SELECT se.id, se.sequence_id, s.name AS sequence_name, se.status, se.current_step
     FROM sequence_enrollments se JOIN email_sequences s ON s.id = se.sequence_id
     WHERE se.contact_id = ?1 ORDER BY se.enrolled_at DESC, se.id DESC LIMIT ?2"
);
const CONTACT_COMPANY: Sql = sql!(
    "SELECT co.id, co.name FROM contacts c JOIN companies co ON co.id = c.company_id WHERE c.id = ?1"
);
const DEAL_PARTIES: Sql = sql!(concat!(
    "SELECT d.company_id, co.name AS company_name, d.contact_id, ",
    contact_name!("c"),
    " AS contact_name, c.email AS contact_email
     FROM deals d LEFT JOIN companies co ON co.id = d.company_id
     LEFT JOIN contacts c ON c.id = d.contact_id WHERE d.id = ?1"
));

// ---- search over the small tables ----

/// One match of the palette's search.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SearchHit {
    pub id: String,
    pub title: String,
    pub subtitle: Option<String>,
    /// Per type: a campaign's kind; otherwise unused.
    pub extra: Option<String>,
}

/// Matches counted at most: the palette shows "1,000+" past it.
pub const SEARCH_COUNT_CAP: i64 = 1_000;

// ?1: a `LIKE` pattern of the lower-cased term (see `domain::like_pattern`), ?2: the rows.
const DEAL_SEARCH: Sql = sql!(
    "SELECT d.id, d.title, co.name AS subtitle, d.stage AS extra FROM deals d
     LEFT JOIN companies co ON co.id = d.company_id
     WHERE lower(d.title) LIKE ?1 ESCAPE '\\' ORDER BY d.created_at DESC, d.id DESC LIMIT ?2"
);
const DEAL_SEARCH_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM (SELECT 1 FROM deals WHERE lower(title) LIKE ?1 ESCAPE '\\' LIMIT ?2) m"
);
const CAMPAIGN_SEARCH: Sql = sql!(
    "SELECT id, name AS title, subject AS subtitle, kind AS extra FROM campaigns
     WHERE lower(name) LIKE ?1 ESCAPE '\\' ORDER BY created_at DESC, id DESC LIMIT ?2"
);
const CAMPAIGN_SEARCH_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM (SELECT 1 FROM campaigns WHERE lower(name) LIKE ?1 ESCAPE '\\' LIMIT ?2) m"
);
const SEQUENCE_SEARCH: Sql = sql!(
    "SELECT id, name AS title, status AS subtitle, CAST(NULL AS TEXT) AS extra FROM email_sequences
     WHERE lower(name) LIKE ?1 ESCAPE '\\' ORDER BY created_at DESC, id DESC LIMIT ?2"
);
const SEQUENCE_SEARCH_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM (SELECT 1 FROM email_sequences WHERE lower(name) LIKE ?1 ESCAPE '\\' LIMIT ?2) m"
);
const INVOICE_SEARCH: Sql = sql!(
    "SELECT id, invoice_number AS title, customer_name AS subtitle, status AS extra FROM invoices
     WHERE lower(invoice_number) LIKE ?1 ESCAPE '\\' OR lower(customer_name) LIKE ?1 ESCAPE '\\'
     ORDER BY created_at DESC, id DESC LIMIT ?2"
);
const INVOICE_SEARCH_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM (SELECT 1 FROM invoices
         WHERE lower(invoice_number) LIKE ?1 ESCAPE '\\' OR lower(customer_name) LIKE ?1 ESCAPE '\\'
         LIMIT ?2) m"
);
/// Jobs by id: the primary key, so an exact id only (the jobs table is the largest one).
const JOB_BY_ID: Sql = sql!(
    "SELECT id, kind AS title, status AS subtitle, CAST(NULL AS TEXT) AS extra FROM jobs WHERE id = ?1"
);
/// A kind's newest jobs (migration 0031's `jobs_kind_created`).
const JOBS_OF_KIND: Sql = sql!(
    "SELECT id, kind AS title, status AS subtitle, CAST(NULL AS TEXT) AS extra FROM jobs
     WHERE kind = ?1 ORDER BY created_at DESC LIMIT ?2"
);
const JOBS_OF_KIND_COUNT: Sql =
    sql!("SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE kind = ?1 LIMIT ?2) m");

/// The small tables the palette searches by substring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchTable {
    Deals,
    Campaigns,
    Sequences,
    Invoices,
}

/// The merge variables of messages, and of the messages behind events, by id: a subject written
/// with `{{ }}` then reads on the timeline as it was sent.
const MESSAGE_VARS: Sql = in_list!(
    "SELECT id, CAST(vars AS TEXT) FROM email_messages WHERE id IN ",
    1,
    ""
);
const EVENT_VARS: Sql = in_list!(
    "SELECT e.id, CAST(m.vars AS TEXT) FROM email_events e
     JOIN email_messages m ON m.id = e.message_id WHERE e.id IN ",
    1,
    ""
);

impl Db {
    /// The record's name (a contact's full name, a deal's title); `None` when it does not exist.
    pub async fn record_name(
        &self,
        kind: RecordType,
        id: &str,
    ) -> Result<Option<String>, sqlx::Error> {
        let q = match kind {
            RecordType::Company => COMPANY_NAME,
            RecordType::Contact => CONTACT_NAME,
            RecordType::Deal => DEAL_NAME,
        };
        fetch!(self, fetch_optional, query_scalar(q), id)
    }

    /// The merge variables (JSON text) of these messages and of these events' messages.
    pub async fn timeline_vars(
        &self,
        message_ids: &[String],
        event_ids: &[String],
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        let mut out = Vec::new();
        if !message_ids.is_empty() {
            let ids = Value::from(message_ids).to_string();
            out.extend(fetch!(self, fetch_all, query_as(MESSAGE_VARS), &ids)?);
        }
        if !event_ids.is_empty() {
            let ids = Value::from(event_ids).to_string();
            out.extend(fetch!(self, fetch_all, query_as(EVENT_VARS), &ids)?);
        }
        Ok(out)
    }
    /// A page of the record's timeline: items strictly before `(before_at, before_id)`, newest
    /// first, at most `limit`, of the kind `show` names (one of [`TIMELINE_SHOWS`]).
    pub async fn timeline_page(
        &self,
        kind: RecordType,
        id: &str,
        before: Option<(i64, &str)>,
        limit: i64,
        show: &str,
    ) -> Result<Vec<TimelineRow>, sqlx::Error> {
        let q = match kind {
            RecordType::Company => TIMELINE_COMPANY,
            RecordType::Contact => TIMELINE_CONTACT,
            RecordType::Deal => TIMELINE_DEAL,
        };
        let (at, item) = before.unwrap_or((i64::MAX, ""));
        fetch!(self, fetch_all, query_as(q), id, at, item, limit, show)
    }

    pub async fn company_related_contacts(
        &self,
        id: &str,
    ) -> Result<(Vec<RelatedContact>, i64), sqlx::Error> {
        let rows = fetch!(
            self,
            fetch_all,
            query_as(COMPANY_CONTACTS),
            id,
            RELATED_LIMIT
        )?;
        let count = fetch!(self, fetch_one, query_scalar(COMPANY_CONTACT_COUNT), id)?;
        Ok((rows, count))
    }
    /// The newest deals of a company or a contact.
    pub async fn related_deals(
        &self,
        of: RecordType,
        id: &str,
    ) -> Result<Vec<RelatedDeal>, sqlx::Error> {
        let q = match of {
            RecordType::Company => COMPANY_DEALS,
            _ => CONTACT_DEALS,
        };
        fetch!(self, fetch_all, query_as(q), id, RELATED_LIMIT)
    }
    /// The newest meetings of a company (and its contacts), a contact, or a deal (its contact's
    /// since the deal was created).
    pub async fn related_meetings(
        &self,
        of: RecordType,
        id: &str,
    ) -> Result<Vec<RelatedMeeting>, sqlx::Error> {
        let q = match of {
            RecordType::Company => COMPANY_MEETINGS,
            RecordType::Contact => CONTACT_MEETINGS,
            RecordType::Deal => DEAL_MEETINGS,
        };
        fetch!(self, fetch_all, query_as(q), id, RELATED_LIMIT)
    }
    pub async fn contact_enrollments(
        &self,
        id: &str,
    ) -> Result<Vec<RelatedEnrollment>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(CONTACT_ENROLLMENTS),
            id,
            RELATED_LIMIT
        )
    }
    /// The contact's company (id, name).
    pub async fn contact_company(&self, id: &str) -> Result<Option<(String, String)>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(CONTACT_COMPANY), id)
    }
    pub async fn deal_parties(&self, id: &str) -> Result<Option<DealParties>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(DEAL_PARTIES), id)
    }

    /// Up to `limit` matches of the `LIKE` pattern, newest first, and their count (at most
    /// [`SEARCH_COUNT_CAP`] + 1: more means capped).
    pub async fn search_small(
        &self,
        table: SearchTable,
        pattern: &str,
        limit: i64,
    ) -> Result<(Vec<SearchHit>, i64), sqlx::Error> {
        let (page, count) = match table {
            SearchTable::Deals => (DEAL_SEARCH, DEAL_SEARCH_COUNT),
            SearchTable::Campaigns => (CAMPAIGN_SEARCH, CAMPAIGN_SEARCH_COUNT),
            SearchTable::Sequences => (SEQUENCE_SEARCH, SEQUENCE_SEARCH_COUNT),
            SearchTable::Invoices => (INVOICE_SEARCH, INVOICE_SEARCH_COUNT),
        };
        let hits = fetch!(self, fetch_all, query_as(page), pattern, limit)?;
        // A page shorter than asked is every match: nothing to count.
        if (hits.len() as i64) < limit {
            let n = hits.len() as i64;
            return Ok((hits, n));
        }
        let n = fetch!(
            self,
            fetch_one,
            query_scalar(count),
            pattern,
            SEARCH_COUNT_CAP + 1
        )?;
        Ok((hits, n))
    }
    /// The job with this exact id.
    pub async fn search_job_by_id(&self, id: &str) -> Result<Option<SearchHit>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(JOB_BY_ID), id)
    }
    /// A kind's newest jobs and their count (at most [`SEARCH_COUNT_CAP`] + 1).
    pub async fn search_jobs_of_kind(
        &self,
        kind: &str,
        limit: i64,
    ) -> Result<(Vec<SearchHit>, i64), sqlx::Error> {
        let hits = fetch!(self, fetch_all, query_as(JOBS_OF_KIND), kind, limit)?;
        let n = fetch!(
            self,
            fetch_one,
            query_scalar(JOBS_OF_KIND_COUNT),
            kind,
            SEARCH_COUNT_CAP + 1
        )?;
        Ok((hits, n))
    }
}
