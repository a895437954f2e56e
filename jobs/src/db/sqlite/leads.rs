//! leads queries, sqlite dialect.

use sqlx::types::Json;
use sqlx::{SqliteConnection, SqlitePool};

use crate::db::leads::{CompanyFactsRow, ContactFactsManyRow, ContactFactsRow};
use crate::db::{LeadUpsert, LeadUpserted, ScoreSet, ScoreSetOwned};
use crate::scoring::{CompanyFacts, ContactFacts};

pub async fn lead_upsert(
    conn: &mut SqliteConnection,
    l: &LeadUpsert<'_>,
) -> Result<LeadUpserted, sqlx::Error> {
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT id FROM companies WHERE lower(name) = lower(?1) AND state IS ?2 ORDER BY created_at LIMIT 1",
    )
    .bind(l.company_name)
    .bind(l.state)
    .fetch_optional(&mut *conn)
    .await?;
    let (company_id, company_created) = match existing {
        Some(id) => {
            sqlx::query(
                "UPDATE companies SET city = COALESCE(?2, city), company_type = COALESCE(?3, company_type),
                        revenue = COALESCE(?4, revenue), updated_at = ?5 WHERE id = ?1",
            )
            .bind(&id)
            .bind(l.city)
            .bind(l.company_type)
            .bind(l.revenue)
            .bind(l.now)
            .execute(&mut *conn)
            .await?;
            (id, false)
        }
        None => {
            let id = ulid::Ulid::new().to_string();
            sqlx::query(
                "INSERT INTO companies (id, name, company_type, status, revenue, city, state, discovery_source,
                                        discovered_at, created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'interested', ?4, ?5, ?6, 'dealer_form', ?7, ?7, ?7)",
            )
            .bind(&id)
            .bind(l.company_name)
            .bind(l.company_type)
            .bind(l.revenue)
            .bind(l.city)
            .bind(l.state)
            .bind(l.now)
            .execute(&mut *conn)
            .await?;
            (id, true)
        }
    };
    let contact: Option<String> =
        sqlx::query_scalar("SELECT id FROM contacts WHERE lower(email) = lower(?1)")
            .bind(l.email)
            .fetch_optional(&mut *conn)
            .await?;
    let (contact_id, contact_created) = match contact {
        Some(id) => {
            // A returning lead: fill what was missing and keep their latest message.
            sqlx::query(
                "UPDATE contacts SET phone = COALESCE(?2, phone), company_id = COALESCE(company_id, ?3),
                        notes = COALESCE(?4, notes), updated_at = ?5 WHERE id = ?1",
            )
            .bind(&id)
            .bind(l.phone)
            .bind(&company_id)
            .bind(l.message)
            .bind(l.now)
            .execute(&mut *conn)
            .await?;
            (id, false)
        }
        None => {
            let id = ulid::Ulid::new().to_string();
            sqlx::query(
                "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, status, score, source,
                                       notes, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'new_lead', 50, 'dealer_form', ?7, ?8, ?8)",
            )
            .bind(&id)
            .bind(&company_id)
            .bind(l.first_name)
            .bind(l.last_name)
            .bind(l.email)
            .bind(l.phone)
            .bind(l.message)
            .bind(l.now)
            .execute(&mut *conn)
            .await?;
            (id, true)
        }
    };
    Ok(LeadUpserted {
        company_id,
        contact_id,
        company_created,
        contact_created,
    })
}

pub async fn company_score_facts(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<CompanyFacts>, sqlx::Error> {
    let row: Option<CompanyFactsRow> = sqlx::query_as(
        "SELECT revenue, state, company_type, website, phone, growth_rate FROM companies WHERE id = ?1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(CompanyFacts::from))
}

pub async fn contact_score_facts(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<ContactFacts>, sqlx::Error> {
    let row: Option<ContactFactsRow> = sqlx::query_as(
        "SELECT title, email, phone, is_verified, status, company_id FROM contacts WHERE id = ?1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let company = match &row.company_id {
        Some(cid) => company_score_facts(pool, cid).await?,
        None => None,
    };
    Ok(Some(ContactFacts {
        title: row.title,
        has_email: row.email.is_some_and(|e| e.contains('@')),
        has_phone: row.phone.is_some_and(|p| !p.trim().is_empty()),
        is_verified: row.is_verified,
        status: row.status,
        company,
    }))
}

pub async fn contact_score_set(pool: &SqlitePool, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE contacts SET score = ?2, score_factors = ?3, updated_at = ?4 WHERE id = ?1",
    )
    .bind(s.id)
    .bind(s.score)
    .bind(Json(s.factors))
    .bind(s.now)
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

pub async fn company_score_set(pool: &SqlitePool, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE companies SET score = ?2, prospect_score = ?2, score_factors = ?3, updated_at = ?4
         WHERE id = ?1",
    )
    .bind(s.id)
    .bind(s.score)
    .bind(Json(s.factors))
    .bind(s.now)
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

pub async fn contact_score_facts_many(
    pool: &SqlitePool,
    ids: &[String],
    below: i32,
) -> Result<Vec<(String, ContactFacts)>, sqlx::Error> {
    let rows: Vec<ContactFactsManyRow> = sqlx::query_as(
        "SELECT c.id, c.title, c.email, c.phone, c.is_verified, c.status, co.revenue, co.state, co.company_type,
                co.website, co.phone AS company_phone, co.growth_rate, co.id IS NOT NULL AS has_company
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE c.id IN (SELECT value FROM json_each(?1)) AND (c.score_factors IS NULL OR c.score < ?2)",
    )
    .bind(Json(ids))
    .bind(below)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

pub async fn contact_scores_set_many(
    pool: &SqlitePool,
    rows: &[ScoreSetOwned],
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for r in rows {
        sqlx::query(
            "UPDATE contacts SET score = ?2, score_factors = ?3, updated_at = ?4 WHERE id = ?1",
        )
        .bind(&r.id)
        .bind(r.score)
        .bind(Json(&r.factors))
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

pub async fn contact_scores_all(pool: &SqlitePool) -> Result<Vec<i32>, sqlx::Error> {
    sqlx::query_scalar("SELECT score FROM contacts")
        .fetch_all(pool)
        .await
}
