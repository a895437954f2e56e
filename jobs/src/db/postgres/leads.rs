//! leads queries, postgres dialect.

use sqlx::types::Json;
use sqlx::{PgConnection, PgPool};

use crate::db::leads::{
    CompanyFactsRow, ContactFactsManyRow, ContactFactsRow, LeadCompanyRow, LeadContactRow,
};
use crate::db::{LeadMerge, LeadUpsert, LeadUpserted, ScoreSet, ScoreSetOwned};
use crate::scoring::{CompanyFacts, ContactFacts};

pub async fn lead_upsert(
    conn: &mut PgConnection,
    l: &LeadUpsert<'_>,
) -> Result<LeadUpserted, sqlx::Error> {
    // Differs by necessity: Postgres locks the row read for the merge; SQLite's write transaction already excludes writers.
    let existing: Option<LeadCompanyRow> = sqlx::query_as(
        "SELECT id, city, company_type, revenue FROM companies
         WHERE lower(name) = lower($1) AND state IS NOT DISTINCT FROM $2 ORDER BY created_at LIMIT 1 FOR UPDATE",
    )
    .bind(l.company_name)
    .bind(l.state)
    .fetch_optional(&mut *conn)
    .await?;
    let (company_id, company_created, company_merge) = match existing {
        Some(row) => {
            let mut merge = LeadMerge::default();
            let city = merge.text("city", row.city.as_deref(), l.city);
            let company_type =
                merge.text("company type", row.company_type.as_deref(), l.company_type);
            let revenue = merge.number("revenue", row.revenue, l.revenue);
            if !merge.is_unchanged() {
                // The CASEs repeat the emptiness test so a value written since the SELECT is kept too.
                sqlx::query(
                    "UPDATE companies
                     SET city = CASE WHEN city IS NULL OR trim(city) = '' THEN COALESCE($2, city) ELSE city END,
                         company_type = CASE WHEN company_type IS NULL OR trim(company_type) = ''
                                             THEN COALESCE($3, company_type) ELSE company_type END,
                         revenue = COALESCE(revenue, $4), updated_at = $5
                     WHERE id = $1",
                )
                .bind(&row.id)
                .bind(city)
                .bind(company_type)
                .bind(revenue)
                .bind(l.now)
                .execute(&mut *conn)
                .await?;
            }
            (row.id, false, merge)
        }
        None => {
            let id = ulid::Ulid::new().to_string();
            sqlx::query(
                "INSERT INTO companies (id, name, company_type, status, revenue, city, state, discovery_source,
                                        discovered_at, created_at, updated_at)
                 VALUES ($1, $2, $3, 'interested', $4, $5, $6, 'dealer_form', $7, $7, $7)",
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
            (id, true, LeadMerge::default())
        }
    };
    let contact: Option<LeadContactRow> = sqlx::query_as(
        "SELECT id, last_name, phone, notes, company_id FROM contacts WHERE lower(email) = lower($1) FOR UPDATE",
    )
    .bind(l.email)
    .fetch_optional(&mut *conn)
    .await?;
    let (contact_id, contact_created, contact_merge) = match contact {
        Some(row) => {
            // A returning lead (or anyone who knows the address): fill only what is missing.
            let mut merge = LeadMerge::default();
            let last_name = merge.text("last name", Some(&row.last_name), Some(l.last_name));
            let phone = merge.text("phone", row.phone.as_deref(), l.phone);
            let notes = merge.text("notes", row.notes.as_deref(), l.message);
            let company = merge.text("company", row.company_id.as_deref(), Some(&company_id));
            if !merge.is_unchanged() {
                sqlx::query(
                    "UPDATE contacts
                     SET last_name = CASE WHEN trim(last_name) = '' THEN COALESCE($2, last_name) ELSE last_name END,
                         phone = CASE WHEN phone IS NULL OR trim(phone) = '' THEN COALESCE($3, phone) ELSE phone END,
                         notes = CASE WHEN notes IS NULL OR trim(notes) = '' THEN COALESCE($4, notes) ELSE notes END,
                         company_id = COALESCE(company_id, $5), updated_at = $6
                     WHERE id = $1",
                )
                .bind(&row.id)
                .bind(last_name)
                .bind(phone)
                .bind(notes)
                .bind(company)
                .bind(l.now)
                .execute(&mut *conn)
                .await?;
            }
            (row.id, false, merge)
        }
        None => {
            let id = ulid::Ulid::new().to_string();
            sqlx::query(
                "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, status, score, source,
                                       notes, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, 'new_lead', 50, 'dealer_form', $7, $8, $8)",
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
            (id, true, LeadMerge::default())
        }
    };
    Ok(LeadUpserted {
        company_id,
        contact_id,
        company_created,
        contact_created,
        company_merge,
        contact_merge,
    })
}

pub async fn company_score_facts(
    pool: &PgPool,
    id: &str,
) -> Result<Option<CompanyFacts>, sqlx::Error> {
    let row: Option<CompanyFactsRow> = sqlx::query_as(
        "SELECT revenue, state, company_type, website, phone, growth_rate FROM companies WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(CompanyFacts::from))
}

pub async fn contact_score_facts(
    pool: &PgPool,
    id: &str,
) -> Result<Option<ContactFacts>, sqlx::Error> {
    let row: Option<ContactFactsRow> = sqlx::query_as(
        "SELECT title, email, phone, is_verified, status, company_id FROM contacts WHERE id = $1",
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

pub async fn contact_score_set(pool: &PgPool, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE contacts SET score = $2, score_factors = $3, updated_at = $4 WHERE id = $1",
    )
    .bind(s.id)
    .bind(s.score)
    .bind(Json(s.factors))
    .bind(s.now)
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

pub async fn company_score_set(pool: &PgPool, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE companies SET score = $2, prospect_score = $2, score_factors = $3, updated_at = $4
         WHERE id = $1",
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
    pool: &PgPool,
    ids: &[String],
    below: i32,
) -> Result<Vec<(String, ContactFacts)>, sqlx::Error> {
    let rows: Vec<ContactFactsManyRow> = sqlx::query_as(
        "SELECT c.id, c.title, c.email, c.phone, c.is_verified, c.status, co.revenue, co.state, co.company_type,
                co.website, co.phone AS company_phone, co.growth_rate, co.id IS NOT NULL AS has_company
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE c.id = ANY($1) AND (c.score_factors IS NULL OR c.score < $2)",
    )
    .bind(ids)
    .bind(below)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

pub async fn contact_scores_set_many(
    pool: &PgPool,
    rows: &[ScoreSetOwned],
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for r in rows {
        sqlx::query(
            "UPDATE contacts SET score = $2, score_factors = $3, updated_at = $4 WHERE id = $1",
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

pub async fn contact_scores_all(pool: &PgPool) -> Result<Vec<i32>, sqlx::Error> {
    sqlx::query_scalar("SELECT score FROM contacts")
        .fetch_all(pool)
        .await
}
