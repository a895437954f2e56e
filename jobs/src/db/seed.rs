//! Bulk inserts for demo data and benchmarks: rows arrive complete (ids, times), many per statement.

use sqlx::QueryBuilder;
use sqlx::types::Json;

use super::sql::Sql;
use super::*;

#[derive(Debug, Clone, Default)]
pub struct CompanySeed {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub company_type: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub score: i32,
    pub prospect_score: i32,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub growth_rate: Option<f64>,
    pub description: Option<String>,
    pub competitor_alignment: Option<i32>,
    pub discovery_source: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct ContactSeed {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Value,
    pub is_verified: bool,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct DealSeed {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub value: i64,
    pub stage: Option<String>,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub actual_close_date: Option<String>,
    pub contact_id: Option<String>,
    pub company_id: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct MeetingSeed {
    pub id: String,
    pub title: String,
    pub company_id: Option<String>,
    pub contact_id: Option<String>,
    pub scheduled_at: i64,
    pub duration: i32,
    pub location: Option<String>,
    pub meeting_type: String,
    pub agenda: Option<String>,
    pub attendees: Option<String>,
    pub status: String,
    pub created_at: i64,
}

/// Rows go in chunks small enough for the bind-parameter limit.
const CHUNK: usize = 500;

const SEED_COMPANIES: Sql = sql!(
    "INSERT INTO companies (id, name, industry, company_type, status, revenue, employees, founded, score, \
             prospect_score, website, phone, address, city, state, zip_code, growth_rate, description, \
             competitor_alignment, discovery_source, discovered_at, created_at, updated_at) "
);
const SEED_CONTACTS: Sql = sql!(
    "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department, status, \
             score, source, tags, is_verified, created_at, updated_at) "
);
/// The history a contact created through the app leaves: one `contact_created` activity each.
const SEED_CONTACT_ACTIVITIES: Sql = sql!(
    "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
     SELECT 'seed-' || id, 'contact_created', 'Contact ' || first_name || ' ' || last_name || ' created',
         'contact', id, NULL, created_at
     FROM contacts"
);
const SEED_DEALS: Sql = sql!(
    "INSERT INTO deals (id, title, description, value, stage, probability, expected_close_date, \
             actual_close_date, contact_id, company_id, stage_changed_at, created_at, updated_at) "
);
const SEED_MEETINGS: Sql = sql!(
    "INSERT INTO meetings (id, title, company_id, contact_id, scheduled_at, duration, location, meeting_type, \
             agenda, attendees, status, created_at, updated_at) "
);
// Differs: SQLite merges the search tables' segments into one (a search for a common term then
// reads one doclist, newest first, instead of one per import batch) and refreshes the planner's
// statistics; Postgres vacuums (so index-only scans skip the heap, and the rollup rows that every
// batch rewrote are one version again, not hundreds an index scan steps through) and refreshes its
// statistics, as autovacuum would later. The whole database: a load writes the rollups, the feed
// and the search words beside its own tables, and vacuum skips the pages of tables it did not
// touch. One statement: VACUUM cannot run in a transaction block.
const COMPACT_SQLITE: &str = "INSERT INTO contacts_search(contacts_search) VALUES ('optimize');
     INSERT INTO companies_search(companies_search) VALUES ('optimize');
     ANALYZE";
/// ?1 company id, ?2 source key, ?3 verified, ?4 attribution, ?5 first and last seen (ms).
const SEED_SOURCE: Sql = sql!(
    "INSERT INTO company_sources (company_id, source, verified, attribution, first_seen_at, last_seen_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT (company_id, source) DO NOTHING"
);
const COMPACT_POSTGRES: &str = "VACUUM (ANALYZE)";
const CRM_COUNT: Sql = sql!(
    "SELECT (SELECT COUNT(*) FROM companies) + (SELECT COUNT(*) FROM contacts) + (SELECT COUNT(*) FROM deals)"
);

impl Db {
    pub async fn seed_companies(&self, rows: &[CompanySeed]) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        on_tx!(&mut tx, conn, [q = SEED_COMPANIES], {
            for chunk in rows.chunks(CHUNK) {
                let mut qb = QueryBuilder::new(q);
                qb.push_values(chunk, |mut b, c| {
                    b.push_bind(&c.id)
                        .push_bind(&c.name)
                        .push_bind(&c.industry)
                        .push_bind(&c.company_type)
                        .push_bind(&c.status)
                        .push_bind(c.revenue)
                        .push_bind(c.employees)
                        .push_bind(c.founded)
                        .push_bind(c.score)
                        .push_bind(c.prospect_score)
                        .push_bind(&c.website)
                        .push_bind(&c.phone)
                        .push_bind(&c.address)
                        .push_bind(&c.city)
                        .push_bind(&c.state)
                        .push_bind(&c.zip_code)
                        .push_bind(c.growth_rate)
                        .push_bind(&c.description)
                        .push_bind(c.competitor_alignment)
                        .push_bind(&c.discovery_source)
                        .push_bind(c.created_at)
                        .push_bind(c.created_at)
                        .push_bind(c.created_at);
                });
                qb.build().execute(&mut *conn).await?;
            }
            Ok::<(), sqlx::Error>(())
        })?;
        tx.commit().await
    }
    /// Records `source` as where the seeded companies came from, so every screen that shows them
    /// carries its label (the demo data's "Demo data").
    pub async fn seed_company_source(
        &self,
        company_ids: &[String],
        source: crate::domain::discovery::Source,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        on_tx!(&mut tx, conn, [q = SEED_SOURCE], {
            for id in company_ids {
                sqlx::query(q)
                    .bind(id)
                    .bind(source.key())
                    .bind(source.verified())
                    .bind(source.attribution())
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
            }
            Ok::<(), sqlx::Error>(())
        })?;
        tx.commit().await
    }

    pub async fn seed_contacts(&self, rows: &[ContactSeed]) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        on_tx!(&mut tx, conn, [q = SEED_CONTACTS], {
            for chunk in rows.chunks(CHUNK) {
                let mut qb = QueryBuilder::new(q);
                qb.push_values(chunk, |mut b, c| {
                    b.push_bind(&c.id)
                        .push_bind(&c.company_id)
                        .push_bind(&c.first_name)
                        .push_bind(&c.last_name)
                        .push_bind(&c.email)
                        .push_bind(&c.phone)
                        .push_bind(&c.title)
                        .push_bind(&c.department)
                        .push_bind(&c.status)
                        .push_bind(c.score)
                        .push_bind(&c.source)
                        .push_bind(Json(&c.tags))
                        .push_bind(c.is_verified)
                        .push_bind(c.created_at)
                        .push_bind(c.created_at);
                });
                qb.build().execute(&mut *conn).await?;
            }
            Ok::<(), sqlx::Error>(())
        })?;
        tx.commit().await
    }
    pub async fn seed_deals(&self, rows: &[DealSeed]) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        on_tx!(&mut tx, conn, [q = SEED_DEALS], {
            for chunk in rows.chunks(CHUNK) {
                let mut qb = QueryBuilder::new(q);
                qb.push_values(chunk, |mut b, d| {
                    b.push_bind(&d.id)
                        .push_bind(&d.title)
                        .push_bind(&d.description)
                        .push_bind(d.value)
                        .push_bind(&d.stage)
                        .push_bind(d.probability)
                        .push_bind(&d.expected_close_date)
                        .push_bind(&d.actual_close_date)
                        .push_bind(&d.contact_id)
                        .push_bind(&d.company_id)
                        .push_bind(d.created_at)
                        .push_bind(d.created_at)
                        .push_bind(d.created_at);
                });
                qb.build().execute(&mut *conn).await?;
            }
            Ok::<(), sqlx::Error>(())
        })?;
        tx.commit().await
    }
    pub async fn seed_meetings(&self, rows: &[MeetingSeed]) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        on_tx!(&mut tx, conn, [q = SEED_MEETINGS], {
            for chunk in rows.chunks(CHUNK) {
                let mut qb = QueryBuilder::new(q);
                qb.push_values(chunk, |mut b, m| {
                    b.push_bind(&m.id)
                        .push_bind(&m.title)
                        .push_bind(&m.company_id)
                        .push_bind(&m.contact_id)
                        .push_bind(m.scheduled_at)
                        .push_bind(m.duration)
                        .push_bind(&m.location)
                        .push_bind(&m.meeting_type)
                        .push_bind(&m.agenda)
                        .push_bind(&m.attendees)
                        .push_bind(&m.status)
                        .push_bind(m.created_at)
                        .push_bind(m.created_at);
                });
                qb.build().execute(&mut *conn).await?;
            }
            Ok::<(), sqlx::Error>(())
        })?;
        tx.commit().await
    }
    /// One `contact_created` activity per contact, as if each had been created through the app.
    pub async fn seed_contact_activities(&self) -> Result<u64, sqlx::Error> {
        exec!(self, SEED_CONTACT_ACTIVITIES)
    }
    /// After a bulk load (an import, the demo data, a benchmark's seed): compact the search
    /// indexes and refresh the statistics, as [`COMPACT_SQLITE`] says.
    pub async fn compact_after_load(&self) -> Result<(), sqlx::Error> {
        match self {
            Db::Sqlite(pools) => sqlx::raw_sql(COMPACT_SQLITE)
                .execute(pools.write())
                .await
                .map(|_| ()),
            Db::Postgres(pools) => sqlx::raw_sql(COMPACT_POSTGRES)
                .execute(pools.write())
                .await
                .map(|_| ()),
        }
    }
    /// Records what the demo story says a visit to a demo company's website found (its services),
    /// as `company_enrich` stores a real visit, so the scorer weighs them like any other.
    pub async fn seed_website_services(
        &self,
        id: &str,
        website: &str,
        services: &[String],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        const Q: Sql = sql!(
            "UPDATE companies SET website_services = ?2, website_facts = ?3, enriched_at = ?4 WHERE id = ?1"
        );
        let facts = crate::enrich::SiteFacts {
            pages: vec![website.to_string()],
            services: services.to_vec(),
            ..Default::default()
        };
        let facts = serde_json::to_value(&facts).unwrap_or(Value::Null);
        exec!(self, Q, id, Json(services), Json(&facts), now).map(|_| ())
    }
    /// Takes a demo company off the pipeline's prospect list (scoring puts every company on it).
    pub async fn company_prospect_clear(&self, id: &str) -> Result<(), sqlx::Error> {
        const Q: Sql = sql!("UPDATE companies SET prospect_score = 0 WHERE id = ?1");
        exec!(self, Q, id).map(|_| ())
    }
    /// Whether the CRM tables hold anything (demo data goes only into an empty CRM).
    pub async fn crm_is_empty(&self) -> Result<bool, sqlx::Error> {
        on_db!(self, pool, [q = CRM_COUNT], {
            let n: i64 = sqlx::query_scalar(q).fetch_one(pool).await?;
            Ok(n == 0)
        })
    }
}
