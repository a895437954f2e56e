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
/// recorded description, a count and details (a scan's payload or result, a campaign's kind). Each
/// source is read newest first and only as far as the page reaches (`$reach`: offset + limit), so a
/// page merges a few rows per source (through `activities_created` for the stored ones) instead
/// of sorting every row of the history.
macro_rules! newest {
    ($reach:literal, $select:expr) => {
        concat!(
            "SELECT * FROM (SELECT * FROM (",
            $select,
            ") s ORDER BY at DESC, id DESC LIMIT ",
            $reach,
            ") n"
        )
    };
}
// Each source's rows (`FROM … WHERE …`), shared by the page and the count.
macro_rules! stored {
    () => {
        " FROM activities a"
    };
}
macro_rules! scans_started {
    () => {
        " FROM jobs j WHERE j.kind = 'discovery_scan'"
    };
}
macro_rules! scans_ended {
    () => {
        " FROM jobs j
         WHERE j.kind = 'discovery_scan' AND j.status IN ('succeeded', 'failed')
           AND j.finished_at IS NOT NULL"
    };
}
macro_rules! campaigns_created {
    () => {
        " FROM campaigns c"
    };
}
macro_rules! campaigns_sent {
    () => {
        " FROM campaigns c WHERE c.sent_at IS NOT NULL"
    };
}
macro_rules! send_batches {
    () => {
        " FROM email_messages m
         LEFT JOIN campaigns c ON c.id = m.campaign_id
         LEFT JOIN sequence_enrollments se ON se.id = m.enrollment_id
         LEFT JOIN email_sequences s ON s.id = se.sequence_id
         WHERE m.sent_at IS NOT NULL AND coalesce(m.campaign_id, se.sequence_id) IS NOT NULL
           AND m.dedupe_key NOT LIKE 'reminder:%' AND m.dedupe_key NOT LIKE 'test:%'
         GROUP BY m.campaign_id, se.sequence_id, c.name, s.name, c.kind, m.sent_at / 3600000"
    };
}
macro_rules! feed {
    ($reach:literal) => {
        concat!(
            newest!(
                $reach,
                concat!(
                    "SELECT a.id AS id, a.type AS kind, a.created_at AS at, a.entity_type AS ref_type,
                         a.entity_id AS ref_id, a.description AS name, CAST(0 AS BIGINT) AS n,
                         CAST(NULL AS TEXT) AS detail",
                    stored!()
                )
            ),
            " UNION ALL ",
            newest!(
                $reach,
                concat!(
                    "SELECT j.id AS id, 'scan_started' AS kind, j.created_at AS at, 'scan' AS ref_type,
                         j.id AS ref_id, CAST(NULL AS TEXT) AS name, CAST(0 AS BIGINT) AS n,
                         CAST(j.payload AS TEXT) AS detail",
                    scans_started!()
                )
            ),
            " UNION ALL ",
            newest!(
                $reach,
                concat!(
                    "SELECT j.id || ':end' AS id,
                         CASE WHEN j.status = 'succeeded' THEN 'scan_finished' ELSE 'scan_failed' END AS kind,
                         j.finished_at AS at, 'scan' AS ref_type, j.id AS ref_id, j.error AS name,
                         CAST(0 AS BIGINT) AS n, CAST(j.result AS TEXT) AS detail",
                    scans_ended!()
                )
            ),
            " UNION ALL ",
            newest!(
                $reach,
                concat!(
                    "SELECT c.id AS id, 'campaign_created' AS kind, c.created_at AS at,
                         'campaign' AS ref_type, c.id AS ref_id, c.name AS name, CAST(0 AS BIGINT) AS n,
                         c.kind AS detail",
                    campaigns_created!()
                )
            ),
            " UNION ALL ",
            newest!(
                $reach,
                concat!(
                    "SELECT c.id || ':sent' AS id, 'campaign_finished' AS kind, c.sent_at AS at,
                         'campaign' AS ref_type, c.id AS ref_id, c.name AS name,
                         CAST(c.total_recipients AS BIGINT) AS n, c.kind AS detail",
                    campaigns_sent!()
                )
            ),
            " UNION ALL ",
            newest!(
                $reach,
                concat!(
                    "SELECT coalesce(m.campaign_id, se.sequence_id) || ':' || CAST(m.sent_at / 3600000 AS TEXT) AS id,
                         'emails_sent' AS kind, MAX(m.sent_at) AS at,
                         CASE WHEN m.campaign_id IS NULL THEN 'sequence' ELSE 'campaign' END AS ref_type,
                         coalesce(m.campaign_id, se.sequence_id) AS ref_id, coalesce(c.name, s.name) AS name,
                         COUNT(*) AS n, c.kind AS detail",
                    send_batches!()
                )
            )
        )
    };
}
const FEED: Sql = sql!(concat!(
    "SELECT id, kind, at, ref_type, ref_id, name, n, detail FROM (",
    feed!("?3"),
    ") f ORDER BY at DESC, id DESC LIMIT ?1 OFFSET ?2"
))
.with_generic_plan();
/// A source's entries counted up to `?1`.
macro_rules! capped {
    ($rows:expr) => {
        concat!("(SELECT COUNT(*) FROM (SELECT 1", $rows, " LIMIT ?1) x)")
    };
}
/// The feed's length, counted up to `?1` (the caller caps it): the dashboard only asks whether
/// there is more.
// Differs: SQLite sums its sources' lengths, each counted up to `?1` from an index (0.12 ms at
// 100,000 activities), where counting the union of the feed's own selects read every counted
// activity's row (3.2 ms). Postgres counts that union (0.26 ms): the sum, with its LIMITs unknown
// when prepared, was planned again at each run (0.42 ms; the route went 1,460–1,514 → 1,180–1,229
// requests/s).
const FEED_COUNT: Sql = Sql {
    sqlite: sql!(concat!(
        "SELECT ",
        capped!(stored!()),
        " + ",
        capped!(scans_started!()),
        " + ",
        capped!(scans_ended!()),
        " + ",
        capped!(campaigns_created!()),
        " + ",
        capped!(campaigns_sent!()),
        " + ",
        capped!(send_batches!())
    ))
    .sqlite,
    postgres: sql!(concat!(
        "SELECT COUNT(*) FROM (SELECT 1 AS one FROM (",
        feed!("?1"),
        ") f LIMIT ?1) capped"
    ))
    .postgres,
    generic_plan: true,
};

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
    /// A page of the feed, newest first, and the feed's length: exact up to [`COUNT_CAP`] past
    /// the page, a floor beyond.
    pub async fn activity_feed(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<FeedRow>, Total), sqlx::Error> {
        let reach = offset.saturating_add(limit);
        on_db!(self, pool, [list = FEED, count = FEED_COUNT], {
            let rows: Vec<FeedRow> = sqlx::query_as(list)
                .bind(limit)
                .bind(offset)
                .bind(reach)
                .fetch_all(pool)
                .await?;
            if let Some(total) = Total::of_short_page(offset, limit, rows.len()) {
                return Ok((rows, total));
            }
            let cap = reach.saturating_add(COUNT_CAP);
            let sum: i64 = sqlx::query_scalar(count).bind(cap).fetch_one(pool).await?;
            let n = sum.min(cap);
            Ok((rows, Total { n, exact: n < cap }))
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
