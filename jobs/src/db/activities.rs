//! Activities: the CRM's history. Every create, status change, stage move, meeting change and
//! conversion writes one, in the transaction of the change it records.
//!
//! The feed (`GET /api/activities`) reads those rows together with what other tables already record
//! — discovery scans (their jobs), campaigns, and sends batched per campaign or sequence and hour —
//! in one UNION per page. Deriving them, rather than writing a second copy at each write, keeps the
//! feed true by construction: a scan's counts are its job's result, a batch's count is the ledger's,
//! and nothing can be sent without showing up or be shown without being sent.

use super::sql::Sql;
use super::*;

const INSERT: Sql = sql!(
    "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);
/// Every feed entry: `kind`, when (`at`), what it is about (`ref_type`, `ref_id`), a name or the
/// recorded description, a count and details (a scan's payload or result, a campaign's kind).
macro_rules! feed {
    () => {
        "SELECT a.id AS id, a.type AS kind, a.created_at AS at, a.entity_type AS ref_type,
             a.entity_id AS ref_id, a.description AS name, CAST(0 AS BIGINT) AS n,
             CAST(NULL AS TEXT) AS detail
         FROM activities a
         UNION ALL
         SELECT j.id, 'scan_started', j.created_at, 'scan', j.id, CAST(NULL AS TEXT), CAST(0 AS BIGINT),
             CAST(j.payload AS TEXT)
         FROM jobs j WHERE j.kind = 'discovery_scan'
         UNION ALL
         SELECT j.id || ':end', CASE WHEN j.status = 'succeeded' THEN 'scan_finished' ELSE 'scan_failed' END,
             j.finished_at, 'scan', j.id, j.error, CAST(0 AS BIGINT), CAST(j.result AS TEXT)
         FROM jobs j
         WHERE j.kind = 'discovery_scan' AND j.status IN ('succeeded', 'failed') AND j.finished_at IS NOT NULL
         UNION ALL
         SELECT c.id, 'campaign_created', c.created_at, 'campaign', c.id, c.name, CAST(0 AS BIGINT), c.kind
         FROM campaigns c
         UNION ALL
         SELECT c.id || ':sent', 'campaign_finished', c.sent_at, 'campaign', c.id, c.name,
             CAST(c.total_recipients AS BIGINT), c.kind
         FROM campaigns c WHERE c.sent_at IS NOT NULL
         UNION ALL
         SELECT coalesce(m.campaign_id, se.sequence_id) || ':' || CAST(m.sent_at / 3600000 AS TEXT),
             'emails_sent', MAX(m.sent_at),
             CASE WHEN m.campaign_id IS NULL THEN 'sequence' ELSE 'campaign' END,
             coalesce(m.campaign_id, se.sequence_id), coalesce(c.name, s.name), COUNT(*), c.kind
         FROM email_messages m
         LEFT JOIN campaigns c ON c.id = m.campaign_id
         LEFT JOIN sequence_enrollments se ON se.id = m.enrollment_id
         LEFT JOIN email_sequences s ON s.id = se.sequence_id
         WHERE m.sent_at IS NOT NULL AND coalesce(m.campaign_id, se.sequence_id) IS NOT NULL
           AND m.dedupe_key NOT LIKE 'reminder:%' AND m.dedupe_key NOT LIKE 'test:%'
         GROUP BY m.campaign_id, se.sequence_id, c.name, s.name, c.kind, m.sent_at / 3600000"
    };
}
const FEED: Sql = sql!(concat!(
    "SELECT id, kind, at, ref_type, ref_id, name, n, detail FROM (",
    feed!(),
    ") f ORDER BY at DESC, id DESC LIMIT ?1 OFFSET ?2"
));
const FEED_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM (", feed!(), ") f"));

pub struct ActivityInsert<'a> {
    /// Values per seed 000 §3: `contact_created`, `company_updated`, `meeting_scheduled`, ...
    pub kind: &'a str,
    pub description: &'a str,
    pub entity_type: Option<&'a str>,
    pub entity_id: Option<&'a str>,
    pub actor_id: Option<&'a str>,
}

/// One feed entry as stored or derived; `crate::domain::activity_feed` turns it into what the
/// user reads.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FeedRow {
    pub id: String,
    pub kind: String,
    pub at: i64,
    pub ref_type: Option<String>,
    pub ref_id: Option<String>,
    pub name: Option<String>,
    pub n: i64,
    pub detail: Option<String>,
}

impl Db {
    /// A page of the feed, newest first, and the feed's length.
    pub async fn activity_feed(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<FeedRow>, i64), sqlx::Error> {
        on_db!(self, pool, [list = FEED, count = FEED_COUNT], {
            let rows = sqlx::query_as(list)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_scalar(count).fetch_one(pool).await?;
            Ok((rows, total))
        })
    }
}

impl Tx {
    pub async fn activity_insert(&mut self, a: &ActivityInsert<'_>) -> Result<(), sqlx::Error> {
        let id = ulid::Ulid::new().to_string();
        let now = crate::time::now_ms();
        exec_tx!(
            self,
            INSERT,
            &id,
            a.kind,
            a.description,
            a.entity_type,
            a.entity_id,
            a.actor_id,
            now
        )
        .map(|_| ())
    }
}
