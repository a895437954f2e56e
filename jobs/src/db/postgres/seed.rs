//! seed (bulk insert) queries, postgres dialect. Rows go in chunks small enough for the bind-parameter limit.

use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder};

use crate::db::{CompanySeed, ContactSeed, DealSeed, MeetingSeed};

const CHUNK: usize = 500;

pub async fn seed_companies(pool: &PgPool, rows: &[CompanySeed]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(CHUNK) {
        let mut qb = QueryBuilder::<Postgres>::new(
            "INSERT INTO companies (id, name, industry, company_type, status, revenue, employees, founded, score, \
             prospect_score, website, phone, address, city, state, zip_code, growth_rate, description, \
             competitor_alignment, discovery_source, discovered_at, created_at, updated_at) ",
        );
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
        qb.build().execute(&mut *tx).await?;
    }
    tx.commit().await
}

pub async fn seed_contacts(pool: &PgPool, rows: &[ContactSeed]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(CHUNK) {
        let mut qb = QueryBuilder::<Postgres>::new(
            "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department, status, \
             score, source, tags, is_verified, created_at, updated_at) ",
        );
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
        qb.build().execute(&mut *tx).await?;
    }
    tx.commit().await
}

pub async fn seed_deals(pool: &PgPool, rows: &[DealSeed]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(CHUNK) {
        let mut qb = QueryBuilder::<Postgres>::new(
            "INSERT INTO deals (id, title, description, value, stage, probability, expected_close_date, \
             actual_close_date, contact_id, company_id, stage_changed_at, created_at, updated_at) ",
        );
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
        qb.build().execute(&mut *tx).await?;
    }
    tx.commit().await
}

pub async fn seed_meetings(pool: &PgPool, rows: &[MeetingSeed]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(CHUNK) {
        let mut qb = QueryBuilder::<Postgres>::new(
            "INSERT INTO meetings (id, title, company_id, contact_id, scheduled_at, duration, location, meeting_type, \
             agenda, attendees, status, created_at, updated_at) ",
        );
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
        qb.build().execute(&mut *tx).await?;
    }
    tx.commit().await
}

pub async fn crm_is_empty(pool: &PgPool) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM companies) + (SELECT COUNT(*) FROM contacts) + (SELECT COUNT(*) FROM deals)",
    )
    .fetch_one(pool)
    .await?;
    Ok(n == 0)
}
