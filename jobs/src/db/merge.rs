//! Duplicates and merges (docs/merge.md, migration 0037).
//!
//! Finding: each kind of duplicate is a generated key column under a partial index (`dup_name`,
//! `dup_domain`, `dup_phone` on companies; `dup_email`, `dup_phone`, `dup_name` on contacts), so a
//! page of suggestion groups is a GROUP BY over those indexes and a record's twins are index
//! lookups; nothing compares rows pairwise. A group stays suggested while one of its pairs is not
//! dismissed (`merge_dismissals`).
//!
//! Merging: [`Db::records_merge`] moves everything that references a merged record onto the
//! survivor, fills the survivor's empty fields, deletes the merged record and records the merge in
//! the survivor's timeline, all in one transaction. The rollup tables follow by their triggers
//! (migrations 0022–0028), as for any other write.

use super::sql::Sql;
use super::*;
use crate::domain::merge::{
    EnrollmentSide, Reason, RecordKind, keep_merged_enrollment, merge_summary, union_tags,
};

/// One suggestion group: the reason, the shared key and how many records share it, while one of
/// its pairs is not dismissed. The dismissed pairs are counted per key from the (small) dismissals
/// table and joined in, rather than looked up once per group.
macro_rules! dup_groups {
    ($table:literal, $kind:literal, $reason:literal, $col:literal) => {
        concat!(
            "SELECT '",
            $reason,
            "' AS reason, g.k AS k, g.n AS n
             FROM (SELECT ",
            $col,
            " AS k, COUNT(*) AS n FROM ",
            $table,
            "
                   WHERE ",
            $col,
            " IS NOT NULL GROUP BY ",
            $col,
            " HAVING COUNT(*) > 1) g
             LEFT JOIN (SELECT a.",
            $col,
            " AS k, COUNT(*) AS n FROM merge_dismissals d
                   JOIN ",
            $table,
            " a ON a.id = d.low_id
                   JOIN ",
            $table,
            " b ON b.id = d.high_id AND b.",
            $col,
            " = a.",
            $col,
            "
                   WHERE d.record_type = '",
            $kind,
            "' GROUP BY a.",
            $col,
            ") x ON x.k = g.k
             WHERE ?1 IN ('', '",
            $reason,
            "') AND g.n * (g.n - 1) / 2 > COALESCE(x.n, 0)"
        )
    };
}

macro_rules! company_groups {
    () => {
        concat!(
            dup_groups!("companies", "company", "domain", "dup_domain"),
            " UNION ALL ",
            dup_groups!("companies", "company", "phone", "dup_phone"),
            " UNION ALL ",
            dup_groups!("companies", "company", "name", "dup_name")
        )
    };
}

macro_rules! contact_groups {
    () => {
        concat!(
            dup_groups!("contacts", "contact", "email", "dup_email"),
            " UNION ALL ",
            dup_groups!("contacts", "contact", "phone", "dup_phone"),
            " UNION ALL ",
            dup_groups!("contacts", "contact", "name", "dup_name")
        )
    };
}

/// ?1 reason ('' for all), ?2 limit, ?3 offset: the largest groups first.
const COMPANY_GROUPS: Sql = sql!(concat!(
    "SELECT reason, k, n FROM (",
    company_groups!(),
    ") x ORDER BY n DESC, reason, k LIMIT ?2 OFFSET ?3"
));
const COMPANY_GROUPS_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM (", company_groups!(), ") x"));
const CONTACT_GROUPS: Sql = sql!(concat!(
    "SELECT reason, k, n FROM (",
    contact_groups!(),
    ") x ORDER BY n DESC, reason, k LIMIT ?2 OFFSET ?3"
));
const CONTACT_GROUPS_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM (", contact_groups!(), ") x"));

/// A company as the Duplicates screen shows it; `filled` counts its descriptive fields.
macro_rules! company_cols {
    () => {
        "c.id AS id, c.name AS name, CAST(NULL AS TEXT) AS email, c.phone AS phone,
         c.website AS website, c.city AS city, c.state AS state, CAST(NULL AS TEXT) AS title,
         CAST(NULL AS TEXT) AS company_id, CAST(NULL AS TEXT) AS company_name, c.status AS status,
         c.score AS score, (SELECT COUNT(*) FROM contacts x WHERE x.company_id = c.id) AS related,
         CAST((CASE WHEN c.website IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.phone IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.address IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.city IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.state IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.industry IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.revenue IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.employees IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.description IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS filled,
         c.created_at AS created_at"
    };
}

/// A contact as the Duplicates screen shows it (with its company's name and place).
macro_rules! contact_cols {
    () => {
        "c.id AS id, trim(c.first_name || ' ' || c.last_name) AS name, c.email AS email,
         c.phone AS phone, CAST(NULL AS TEXT) AS website, co.city AS city, co.state AS state,
         c.title AS title, c.company_id AS company_id, co.name AS company_name, c.status AS status,
         c.score AS score,
         (SELECT COUNT(*) FROM deals x WHERE x.contact_id = c.id)
           + (SELECT COUNT(*) FROM email_messages x WHERE x.contact_id = c.id) AS related,
         CAST((CASE WHEN c.email IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.phone IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.title IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN c.company_id IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.department IS NOT NULL THEN 1 ELSE 0 END)
           + (CASE WHEN c.linkedin_url IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS filled,
         c.created_at AS created_at"
    };
}

/// The members of the listed groups (?1, a JSON array of keys) of one reason.
macro_rules! members {
    (company, $reason:literal, $col:literal) => {
        in_list!(
            concat!(
                "SELECT '",
                $reason,
                "' AS reason, c.",
                $col,
                " AS k, ",
                company_cols!(),
                " FROM companies c WHERE c.",
                $col,
                " IN "
            ),
            1,
            " ORDER BY c.created_at, c.id"
        )
    };
    (contact, $reason:literal, $col:literal) => {
        in_list!(
            concat!(
                "SELECT '",
                $reason,
                "' AS reason, c.",
                $col,
                " AS k, ",
                contact_cols!(),
                " FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE c.",
                $col,
                " IN "
            ),
            1,
            " ORDER BY c.created_at, c.id"
        )
    };
}

const COMPANY_MEMBERS_DOMAIN: Sql = members!(company, "domain", "dup_domain");
const COMPANY_MEMBERS_PHONE: Sql = members!(company, "phone", "dup_phone");
const COMPANY_MEMBERS_NAME: Sql = members!(company, "name", "dup_name");
const CONTACT_MEMBERS_EMAIL: Sql = members!(contact, "email", "dup_email");
const CONTACT_MEMBERS_PHONE: Sql = members!(contact, "phone", "dup_phone");
const CONTACT_MEMBERS_NAME: Sql = members!(contact, "name", "dup_name");

/// The records sharing one key with record ?1, less the pairs dismissed.
macro_rules! twins {
    (company, $reason:literal, $col:literal) => {
        concat!(
            "SELECT '", $reason, "' AS reason, c.", $col, " AS k, ", company_cols!(),
            " FROM companies s JOIN companies c ON c.", $col, " = s.", $col, " AND c.id <> s.id
             WHERE s.id = ?1 AND NOT EXISTS (SELECT 1 FROM merge_dismissals d WHERE d.record_type = 'company'
                 AND ((d.low_id = c.id AND d.high_id = s.id) OR (d.low_id = s.id AND d.high_id = c.id)))"
        )
    };
    (contact, $reason:literal, $col:literal) => {
        concat!(
            "SELECT '", $reason, "' AS reason, c.", $col, " AS k, ", contact_cols!(),
            " FROM contacts s JOIN contacts c ON c.", $col, " = s.", $col, " AND c.id <> s.id
             LEFT JOIN companies co ON co.id = c.company_id
             WHERE s.id = ?1 AND NOT EXISTS (SELECT 1 FROM merge_dismissals d WHERE d.record_type = 'contact'
                 AND ((d.low_id = c.id AND d.high_id = s.id) OR (d.low_id = s.id AND d.high_id = c.id)))"
        )
    };
}

/// At most this many twins of one record are listed (a shared switchboard number can have many).
const TWINS_LIMIT: i64 = 50;
const COMPANY_TWINS: Sql = sql!(concat!(
    "SELECT * FROM (",
    twins!(company, "domain", "dup_domain"),
    " UNION ALL ",
    twins!(company, "phone", "dup_phone"),
    " UNION ALL ",
    twins!(company, "name", "dup_name"),
    ") x ORDER BY created_at, id, reason LIMIT ?2"
));
const CONTACT_TWINS: Sql = sql!(concat!(
    "SELECT * FROM (",
    twins!(contact, "email", "dup_email"),
    " UNION ALL ",
    twins!(contact, "phone", "dup_phone"),
    " UNION ALL ",
    twins!(contact, "name", "dup_name"),
    ") x ORDER BY created_at, id, reason LIMIT ?2"
));

const DISMISS: Sql = sql!(
    "INSERT INTO merge_dismissals (record_type, low_id, high_id, dismissed_by, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (record_type, low_id, high_id) DO NOTHING"
);
/// Dismissed pairs among the listed ids (?2, a JSON array).
/// Differs: a list is read with `json_each` in SQLite, `jsonb_array_elements_text` in Postgres
/// (as `in_list!`, which takes one list per statement; this reads it twice).
const DISMISSED_AMONG_PAIRS: Sql = Sql {
    sqlite: "SELECT COUNT(*) FROM merge_dismissals WHERE record_type = ?1
               AND low_id IN (SELECT value FROM json_each(?2)) AND high_id IN (SELECT value FROM json_each(?2))",
    postgres: "SELECT COUNT(*) FROM merge_dismissals WHERE record_type = $1
               AND low_id IN (SELECT jsonb_array_elements_text($2::jsonb))
               AND high_id IN (SELECT jsonb_array_elements_text($2::jsonb))",
    generic_plan: false,
};

// ---- merging ----

const COMPANY_LOCK: Sql = locking!(
    "SELECT id, name FROM companies WHERE id = ?1",
    "FOR UPDATE",
    ""
);
const CONTACT_LOCK: Sql = locking!(
    "SELECT id, trim(first_name || ' ' || last_name) || COALESCE(' (' || email || ')', '') AS name
     FROM contacts WHERE id = ?1",
    "FOR UPDATE",
    ""
);
const COMPANY_EXISTS: Sql = sql!("SELECT COUNT(*) FROM companies WHERE id = ?1");
const CONTACT_EXISTS: Sql = sql!("SELECT COUNT(*) FROM contacts WHERE id = ?1");

/// ?1 survivor, ?2 merged record, ?3 record type (for the polymorphic tables).
const MOVE_COMPANY_CONTACTS: Sql =
    sql!("UPDATE contacts SET company_id = ?1 WHERE company_id = ?2");
const MOVE_COMPANY_DEALS: Sql = sql!("UPDATE deals SET company_id = ?1 WHERE company_id = ?2");
const MOVE_COMPANY_MEETINGS: Sql =
    sql!("UPDATE meetings SET company_id = ?1 WHERE company_id = ?2");
const MOVE_ACTIVITIES: Sql =
    sql!("UPDATE activities SET entity_id = ?1 WHERE entity_type = ?3 AND entity_id = ?2");
const MOVE_NOTES: Sql =
    sql!("UPDATE notes SET entity_id = ?1 WHERE entity_type = ?3 AND entity_id = ?2");
const MOVE_TASKS: Sql =
    sql!("UPDATE tasks SET entity_id = ?1 WHERE entity_type = ?3 AND entity_id = ?2");
/// The merged record's dismissals go with it (?1 the merged record, ?2 the type).
const DISMISSALS_DROP: Sql =
    sql!("DELETE FROM merge_dismissals WHERE record_type = ?2 AND (low_id = ?1 OR high_id = ?1)");

/// The survivor's (?1) empty fields from the merged company (?2); flags are or-ed, the first
/// discovery and the last contact kept. `domain` is unique: it moves after the delete.
const COMPANY_FILL: Sql = sql!(
    "UPDATE companies SET
         industry = COALESCE(NULLIF(companies.industry, ''), l.industry),
         company_type = COALESCE(NULLIF(companies.company_type, ''), l.company_type),
         revenue = COALESCE(companies.revenue, l.revenue),
         employees = COALESCE(companies.employees, l.employees),
         founded = COALESCE(companies.founded, l.founded),
         website = COALESCE(NULLIF(companies.website, ''), l.website),
         phone = COALESCE(NULLIF(companies.phone, ''), l.phone),
         address = COALESCE(NULLIF(companies.address, ''), l.address),
         city = COALESCE(NULLIF(companies.city, ''), l.city),
         state = COALESCE(NULLIF(companies.state, ''), l.state),
         zip_code = COALESCE(NULLIF(companies.zip_code, ''), l.zip_code),
         growth_rate = COALESCE(companies.growth_rate, l.growth_rate),
         description = COALESCE(NULLIF(companies.description, ''), l.description),
         competitor_alignment = COALESCE(companies.competitor_alignment, l.competitor_alignment),
         discovery_source = COALESCE(companies.discovery_source, l.discovery_source),
         discovery_city = COALESCE(companies.discovery_city, l.discovery_city),
         discovery_state = COALESCE(companies.discovery_state, l.discovery_state),
         discovery_region = COALESCE(companies.discovery_region, l.discovery_region),
         discovery_metadata = COALESCE(companies.discovery_metadata, l.discovery_metadata),
         competitive_analysis = COALESCE(companies.competitive_analysis, l.competitive_analysis),
         lead_qualification = COALESCE(companies.lead_qualification, l.lead_qualification),
         has_enhanced_data = (companies.has_enhanced_data OR l.has_enhanced_data),
         is_deal = (companies.is_deal OR l.is_deal),
         discovered_at = CASE WHEN l.discovered_at IS NOT NULL
             AND (companies.discovered_at IS NULL OR l.discovered_at < companies.discovered_at)
             THEN l.discovered_at ELSE companies.discovered_at END,
         last_contacted_at = CASE WHEN l.last_contacted_at IS NOT NULL
             AND (companies.last_contacted_at IS NULL OR l.last_contacted_at > companies.last_contacted_at)
             THEN l.last_contacted_at ELSE companies.last_contacted_at END,
         updated_at = ?3
     FROM companies AS l WHERE companies.id = ?1 AND l.id = ?2"
);
const COMPANY_DOMAIN: Sql = sql!("SELECT domain FROM companies WHERE id = ?1");
const COMPANY_DOMAIN_CLEAR: Sql = sql!("UPDATE companies SET domain = NULL WHERE id = ?1");
const COMPANY_DOMAIN_SET: Sql =
    sql!("UPDATE companies SET domain = ?2 WHERE id = ?1 AND domain IS NULL");
const COMPANY_DELETE: Sql = sql!("DELETE FROM companies WHERE id = ?1");

const MOVE_CONTACT_DEALS: Sql = sql!("UPDATE deals SET contact_id = ?1 WHERE contact_id = ?2");
const MOVE_CONTACT_MEETINGS: Sql =
    sql!("UPDATE meetings SET contact_id = ?1 WHERE contact_id = ?2");
/// A campaign message's key names its contact (`campaign:<campaign>:<contact>`): re-keyed to the
/// survivor, so the campaign never mails the merged person twice, unless the survivor has its own
/// message of that campaign (both were sent; both stay as they are).
const REKEY_CAMPAIGN_MAIL: Sql = sql!(
    "UPDATE email_messages SET dedupe_key = 'campaign:' || campaign_id || ':' || ?1
     WHERE contact_id = ?2 AND campaign_id IS NOT NULL
       AND dedupe_key = 'campaign:' || campaign_id || ':' || ?2
       AND NOT EXISTS (SELECT 1 FROM email_messages o
                       WHERE o.dedupe_key = 'campaign:' || email_messages.campaign_id || ':' || ?1)"
);
const MOVE_CONTACT_MAIL: Sql =
    sql!("UPDATE email_messages SET contact_id = ?1 WHERE contact_id = ?2");
const MOVE_CONTACT_EVENTS: Sql =
    sql!("UPDATE email_events SET contact_id = ?1 WHERE contact_id = ?2");
const MOVE_CONTACT_SMS: Sql = sql!("UPDATE sms_messages SET contact_id = ?1 WHERE contact_id = ?2");
const MOVE_CONTACT_CALLS: Sql =
    sql!("UPDATE voice_calls SET contact_id = ?1 WHERE contact_id = ?2");
/// Sequences both contacts are in: (merged enrollment, its status, step; survivor's, …).
const ENROLLMENT_CONFLICTS: Sql = sql!(
    "SELECT l.id, l.status, CAST(l.current_step AS BIGINT), s.id, s.status, CAST(s.current_step AS BIGINT)
     FROM sequence_enrollments l
     JOIN sequence_enrollments s ON s.sequence_id = l.sequence_id AND s.contact_id = ?1
     WHERE l.contact_id = ?2"
);
/// ?1 the kept enrollment, ?2 the dropped one.
const ENROLLMENT_REPOINT_MAIL: Sql =
    sql!("UPDATE email_messages SET enrollment_id = ?1 WHERE enrollment_id = ?2");
const ENROLLMENT_DELETE: Sql = sql!("DELETE FROM sequence_enrollments WHERE id = ?1");
const MOVE_CONTACT_ENROLLMENTS: Sql =
    sql!("UPDATE sequence_enrollments SET contact_id = ?1 WHERE contact_id = ?2");
/// Campaigns that picked the merged contact (?1: `%"<id>"%`).
const CAMPAIGNS_PICKING: Sql = sql!(
    "SELECT id, CAST(selected_contact_ids AS TEXT) FROM campaigns
     WHERE selected_contact_ids IS NOT NULL AND CAST(selected_contact_ids AS TEXT) LIKE ?1"
);
/// Differs: the list is JSONB in Postgres, JSON text in SQLite.
const CAMPAIGN_PICKS_SET: Sql = Sql {
    sqlite: "UPDATE campaigns SET selected_contact_ids = ?2 WHERE id = ?1",
    postgres: "UPDATE campaigns SET selected_contact_ids = CAST($2 AS JSONB) WHERE id = $1",
    generic_plan: false,
};
const CONTACT_TAGS: Sql = sql!("SELECT CAST(tags AS TEXT) FROM contacts WHERE id = ?1");
/// Differs: tags are JSONB in Postgres, JSON text in SQLite.
const CONTACT_TAGS_SET: Sql = Sql {
    sqlite: "UPDATE contacts SET tags = ?2 WHERE id = ?1",
    postgres: "UPDATE contacts SET tags = CAST($2 AS JSONB) WHERE id = $1",
    generic_plan: false,
};
/// A person's wish not to be mailed (unsubscribed, spam report) follows them to the survivor's
/// address (?1) from the merged one's (?2); a hard bounce is about the address and stays there.
const SUPPRESSION_CARRY: Sql = sql!(
    "INSERT INTO suppressions (email, reason, source, created_at)
     SELECT lower(trim(?1)), reason, 'merge', ?3 FROM suppressions
     WHERE email = lower(trim(?2)) AND reason IN ('unsubscribed', 'spam_reported')
     ON CONFLICT (email) DO NOTHING"
);
const CONTACT_EMAIL: Sql = sql!("SELECT email FROM contacts WHERE id = ?1");
/// The survivor's (?1) empty fields from the merged contact (?2); the last contact kept. The
/// email (unique) moves after the merged contact lets go of it.
const CONTACT_FILL: Sql = sql!(
    "UPDATE contacts SET
         company_id = COALESCE(contacts.company_id, l.company_id),
         phone = COALESCE(NULLIF(contacts.phone, ''), l.phone),
         title = COALESCE(NULLIF(contacts.title, ''), l.title),
         department = COALESCE(NULLIF(contacts.department, ''), l.department),
         linkedin_url = COALESCE(NULLIF(contacts.linkedin_url, ''), l.linkedin_url),
         source = COALESCE(NULLIF(contacts.source, ''), l.source),
         notes = COALESCE(NULLIF(contacts.notes, ''), l.notes),
         discovery_metadata = COALESCE(contacts.discovery_metadata, l.discovery_metadata),
         last_contacted_at = CASE WHEN l.last_contacted_at IS NOT NULL
             AND (contacts.last_contacted_at IS NULL OR l.last_contacted_at > contacts.last_contacted_at)
             THEN l.last_contacted_at ELSE contacts.last_contacted_at END,
         updated_at = ?3
     FROM contacts AS l WHERE contacts.id = ?1 AND l.id = ?2"
);
const CONTACT_EMAIL_CLEAR: Sql = sql!("UPDATE contacts SET email = NULL WHERE id = ?1");
/// A survivor without an email takes the merged one's with its verification.
const CONTACT_TAKE_EMAIL: Sql = sql!(
    "UPDATE contacts SET email = ?3, is_verified = l.is_verified,
         verification_score = l.verification_score, verified_by = l.verified_by,
         verified_at = l.verified_at, verification_warnings = l.verification_warnings
     FROM contacts AS l
     WHERE contacts.id = ?1 AND l.id = ?2 AND (contacts.email IS NULL OR trim(contacts.email) = '')"
);
const CONTACT_DELETE: Sql = sql!("DELETE FROM contacts WHERE id = ?1");
const MERGE_ACTIVITY: Sql = sql!(
    "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);

/// A suggestion group's head: why, the shared key and how many share it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DupGroupRow {
    pub reason: String,
    pub k: String,
    pub n: i64,
}

/// A record in a suggestion group, or one of a record's twins (`reason`, `k`: the key shared).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DupRecordRow {
    pub reason: String,
    pub k: String,
    pub id: String,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub website: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub title: Option<String>,
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    pub status: String,
    pub score: i32,
    /// A company's contacts; a contact's deals and emails.
    pub related: i64,
    /// Descriptive fields that hold a value.
    pub filled: i64,
    pub created_at: i64,
}

/// A merge: `merged` records folded into `survivor` by `actor`.
pub struct MergeParams<'a> {
    pub kind: RecordKind,
    pub survivor: &'a str,
    pub merged: &'a [String],
    pub actor: Option<&'a str>,
    pub now: i64,
}

/// What moved onto the survivor, summed over the merged records.
#[derive(Debug, Clone, Default, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MergeMoved)]
pub struct Moved {
    pub contacts: u64,
    pub deals: u64,
    pub meetings: u64,
    pub emails: u64,
    pub email_events: u64,
    pub text_messages: u64,
    pub calls: u64,
    pub enrollments: u64,
    pub activities: u64,
    pub notes: u64,
    pub tasks: u64,
    pub campaigns: u64,
}

impl Moved {
    fn add(&mut self, o: &Moved) {
        self.contacts += o.contacts;
        self.deals += o.deals;
        self.meetings += o.meetings;
        self.emails += o.emails;
        self.email_events += o.email_events;
        self.text_messages += o.text_messages;
        self.calls += o.calls;
        self.enrollments += o.enrollments;
        self.activities += o.activities;
        self.notes += o.notes;
        self.tasks += o.tasks;
        self.campaigns += o.campaigns;
    }

    /// The counts the timeline names, as (count, singular, plural).
    fn words(&self) -> [(u64, &'static str, &'static str); 9] {
        [
            (self.contacts, "contact", "contacts"),
            (self.deals, "deal", "deals"),
            (self.meetings, "meeting", "meetings"),
            (self.emails, "email", "emails"),
            (self.calls, "call", "calls"),
            (self.text_messages, "text message", "text messages"),
            (
                self.enrollments,
                "sequence enrollment",
                "sequence enrollments",
            ),
            (self.notes, "note", "notes"),
            (self.tasks, "task", "tasks"),
        ]
    }
}

/// A merge done: the survivor, how many records were merged into it and what moved.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeOutcome {
    pub survivor_id: String,
    pub merged: usize,
    pub moved: Moved,
}

/// Why a merge did not happen (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No record of the merge's kind has this id.
    #[error("record {0} not found")]
    NotFound(String),
    /// The id is a record of the other kind (a contact in a company merge, or back).
    #[error("record {0} is of the other kind")]
    OtherKind(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl Db {
    /// A page of suggestion groups of `kind` (of one `reason`, or all), largest first, and how many
    /// groups there are.
    pub async fn duplicate_groups(
        &self,
        kind: RecordKind,
        reason: Option<Reason>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<DupGroupRow>, i64), sqlx::Error> {
        let reason = reason.map_or("", Reason::as_str);
        let (page, count) = match kind {
            RecordKind::Company => (COMPANY_GROUPS, COMPANY_GROUPS_COUNT),
            RecordKind::Contact => (CONTACT_GROUPS, CONTACT_GROUPS_COUNT),
        };
        let rows = fetch!(self, fetch_all, query_as(page), reason, limit, offset)?;
        let total = fetch!(self, fetch_one, query_scalar(count), reason)?;
        Ok((rows, total))
    }

    /// The records of the listed groups of one reason, oldest first.
    pub async fn duplicate_members(
        &self,
        kind: RecordKind,
        reason: Reason,
        keys: &[String],
    ) -> Result<Vec<DupRecordRow>, sqlx::Error> {
        let q = match (kind, reason) {
            (RecordKind::Company, Reason::Domain | Reason::Email) => COMPANY_MEMBERS_DOMAIN,
            (RecordKind::Company, Reason::Phone) => COMPANY_MEMBERS_PHONE,
            (RecordKind::Company, Reason::Name) => COMPANY_MEMBERS_NAME,
            (RecordKind::Contact, Reason::Email | Reason::Domain) => CONTACT_MEMBERS_EMAIL,
            (RecordKind::Contact, Reason::Phone) => CONTACT_MEMBERS_PHONE,
            (RecordKind::Contact, Reason::Name) => CONTACT_MEMBERS_NAME,
        };
        let list = Value::from(keys).to_string();
        fetch!(self, fetch_all, query_as(q), &list)
    }

    /// The records that share a key with record `id` (one row per shared key), less dismissed pairs.
    pub async fn duplicates_of(
        &self,
        kind: RecordKind,
        id: &str,
    ) -> Result<Vec<DupRecordRow>, sqlx::Error> {
        let q = match kind {
            RecordKind::Company => COMPANY_TWINS,
            RecordKind::Contact => CONTACT_TWINS,
        };
        fetch!(self, fetch_all, query_as(q), id, TWINS_LIMIT)
    }

    /// Remembers that none of `pairs` are duplicates; how many pairs were new.
    pub async fn merge_dismiss(
        &self,
        kind: RecordKind,
        pairs: &[(String, String)],
        actor: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let mut tx = self.begin().await?;
        let mut added = 0;
        for (low, high) in pairs {
            added += exec_tx!(&mut tx, DISMISS, kind.as_str(), low, high, actor, now)?;
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Whether any two of `ids` were dismissed as not duplicates.
    pub async fn merge_any_dismissed(
        &self,
        kind: RecordKind,
        ids: &[String],
    ) -> Result<bool, sqlx::Error> {
        let list = Value::from(ids).to_string();
        let n: i64 = fetch!(
            self,
            fetch_one,
            query_scalar(DISMISSED_AMONG_PAIRS),
            kind.as_str(),
            &list
        )?;
        Ok(n > 0)
    }

    /// Which kind of record `id` is, if any.
    pub async fn merge_record_kind(&self, id: &str) -> Result<Option<RecordKind>, sqlx::Error> {
        let companies: i64 = fetch!(self, fetch_one, query_scalar(COMPANY_EXISTS), id)?;
        if companies > 0 {
            return Ok(Some(RecordKind::Company));
        }
        let contacts: i64 = fetch!(self, fetch_one, query_scalar(CONTACT_EXISTS), id)?;
        Ok((contacts > 0).then_some(RecordKind::Contact))
    }

    /// Merges `p.merged` into `p.survivor` in one transaction (see the module's notes): all of it,
    /// or nothing when an id is unknown or of the other kind.
    pub async fn records_merge(&self, p: &MergeParams<'_>) -> Result<MergeOutcome, MergeError> {
        let mut tx = self.begin().await?;
        let lock = match p.kind {
            RecordKind::Company => COMPANY_LOCK,
            RecordKind::Contact => CONTACT_LOCK,
        };
        let mut names = Vec::with_capacity(p.merged.len());
        for id in std::iter::once(p.survivor).chain(p.merged.iter().map(String::as_str)) {
            let row: Option<(String, String)> =
                fetch_tx!(&mut tx, fetch_optional, query_as(lock), id)?;
            match row {
                Some((_, name)) => names.push(name),
                None => {
                    tx.rollback().await?;
                    let other = self.merge_record_kind(id).await?;
                    return Err(match other {
                        Some(k) if k != p.kind => MergeError::OtherKind(id.to_string()),
                        _ => MergeError::NotFound(id.to_string()),
                    });
                }
            }
        }
        let mut total = Moved::default();
        for (merged, name) in p.merged.iter().zip(names.iter().skip(1)) {
            let moved = match p.kind {
                RecordKind::Company => tx.company_merge_one(p, merged).await?,
                RecordKind::Contact => tx.contact_merge_one(p, merged).await?,
            };
            let summary = merge_summary(p.kind, name, &moved.words());
            let activity = ulid::Ulid::new().to_string();
            let kind = match p.kind {
                RecordKind::Company => "company_merged",
                RecordKind::Contact => "contact_merged",
            };
            exec_tx!(
                &mut tx,
                MERGE_ACTIVITY,
                &activity,
                kind,
                &summary,
                p.kind.as_str(),
                p.survivor,
                p.actor,
                p.now
            )?;
            total.add(&moved);
        }
        tx.commit().await?;
        Ok(MergeOutcome {
            survivor_id: p.survivor.to_string(),
            merged: p.merged.len(),
            moved: total,
        })
    }
}

impl Tx {
    /// What references the record, moved onto the survivor (polymorphic tables too).
    async fn merge_common(
        &mut self,
        p: &MergeParams<'_>,
        merged: &str,
        moved: &mut Moved,
    ) -> Result<(), sqlx::Error> {
        let t = p.kind.as_str();
        moved.activities = exec_tx!(self, MOVE_ACTIVITIES, p.survivor, merged, t)?;
        moved.notes = exec_tx!(self, MOVE_NOTES, p.survivor, merged, t)?;
        moved.tasks = exec_tx!(self, MOVE_TASKS, p.survivor, merged, t)?;
        exec_tx!(self, DISMISSALS_DROP, merged, t)?;
        Ok(())
    }

    async fn company_merge_one(
        &mut self,
        p: &MergeParams<'_>,
        merged: &str,
    ) -> Result<Moved, sqlx::Error> {
        let s = p.survivor;
        let mut moved = Moved {
            contacts: exec_tx!(self, MOVE_COMPANY_CONTACTS, s, merged)?,
            deals: exec_tx!(self, MOVE_COMPANY_DEALS, s, merged)?,
            meetings: exec_tx!(self, MOVE_COMPANY_MEETINGS, s, merged)?,
            ..Moved::default()
        };
        self.merge_common(p, merged, &mut moved).await?;
        exec_tx!(self, COMPANY_FILL, s, merged, p.now)?;
        // The domain is unique: the merged company lets go of it before the survivor takes it.
        let domain: Option<String> =
            fetch_tx!(self, fetch_one, query_scalar(COMPANY_DOMAIN), merged)?;
        exec_tx!(self, COMPANY_DOMAIN_CLEAR, merged)?;
        exec_tx!(self, COMPANY_DELETE, merged)?;
        if let Some(d) = domain {
            exec_tx!(self, COMPANY_DOMAIN_SET, s, &d)?;
        }
        Ok(moved)
    }

    async fn contact_merge_one(
        &mut self,
        p: &MergeParams<'_>,
        merged: &str,
    ) -> Result<Moved, sqlx::Error> {
        let s = p.survivor;
        let survivor_email: Option<String> =
            fetch_tx!(self, fetch_one, query_scalar(CONTACT_EMAIL), s)?;
        let merged_email: Option<String> =
            fetch_tx!(self, fetch_one, query_scalar(CONTACT_EMAIL), merged)?;
        if let (Some(to), Some(from)) = (&survivor_email, &merged_email) {
            exec_tx!(self, SUPPRESSION_CARRY, to, from, p.now)?;
        }
        // One enrollment per sequence and contact: keep one of the two (see the domain's rule).
        type Conflict = (String, String, i64, String, String, i64);
        let conflicts: Vec<Conflict> =
            fetch_tx!(self, fetch_all, query_as(ENROLLMENT_CONFLICTS), s, merged)?;
        for (l_id, l_status, l_step, s_id, s_status, s_step) in conflicts {
            let keep_merged = keep_merged_enrollment(
                &EnrollmentSide {
                    status: &s_status,
                    current_step: s_step,
                },
                &EnrollmentSide {
                    status: &l_status,
                    current_step: l_step,
                },
            );
            let (kept, dropped) = if keep_merged {
                (l_id, s_id)
            } else {
                (s_id, l_id)
            };
            exec_tx!(self, ENROLLMENT_REPOINT_MAIL, &kept, &dropped)?;
            exec_tx!(self, ENROLLMENT_DELETE, &dropped)?;
        }
        exec_tx!(self, REKEY_CAMPAIGN_MAIL, s, merged)?;
        let mut moved = Moved {
            deals: exec_tx!(self, MOVE_CONTACT_DEALS, s, merged)?,
            meetings: exec_tx!(self, MOVE_CONTACT_MEETINGS, s, merged)?,
            emails: exec_tx!(self, MOVE_CONTACT_MAIL, s, merged)?,
            email_events: exec_tx!(self, MOVE_CONTACT_EVENTS, s, merged)?,
            text_messages: exec_tx!(self, MOVE_CONTACT_SMS, s, merged)?,
            calls: exec_tx!(self, MOVE_CONTACT_CALLS, s, merged)?,
            enrollments: exec_tx!(self, MOVE_CONTACT_ENROLLMENTS, s, merged)?,
            ..Moved::default()
        };
        self.merge_common(p, merged, &mut moved).await?;
        // Campaigns that picked the merged contact pick the survivor instead (once).
        let pattern = format!("%\"{merged}\"%");
        let picking: Vec<(String, String)> =
            fetch_tx!(self, fetch_all, query_as(CAMPAIGNS_PICKING), &pattern)?;
        for (campaign, list) in picking {
            let ids: Vec<String> = serde_json::from_str(&list).unwrap_or_default();
            let mut out: Vec<String> = Vec::with_capacity(ids.len());
            for id in ids {
                let id = if id == merged { s.to_string() } else { id };
                if !out.contains(&id) {
                    out.push(id);
                }
            }
            let text = Value::from(out).to_string();
            moved.campaigns += exec_tx!(self, CAMPAIGN_PICKS_SET, &campaign, &text)?;
        }
        let tags = |t: Option<String>| -> Vec<String> {
            t.and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_default()
        };
        let survivor_tags = tags(fetch_tx!(self, fetch_one, query_scalar(CONTACT_TAGS), s)?);
        let merged_tags = tags(fetch_tx!(
            self,
            fetch_one,
            query_scalar(CONTACT_TAGS),
            merged
        )?);
        if !merged_tags.is_empty() {
            let all = Value::from(union_tags(&survivor_tags, &merged_tags)).to_string();
            exec_tx!(self, CONTACT_TAGS_SET, s, &all)?;
        }
        exec_tx!(self, CONTACT_FILL, s, merged, p.now)?;
        // The email is unique: the merged contact lets go of it before the survivor takes it.
        if let Some(email) = merged_email {
            exec_tx!(self, CONTACT_EMAIL_CLEAR, merged)?;
            exec_tx!(self, CONTACT_TAKE_EMAIL, s, merged, &email)?;
        }
        exec_tx!(self, CONTACT_DELETE, merged)?;
        Ok(moved)
    }
}
