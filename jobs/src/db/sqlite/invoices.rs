use super::*;

pub async fn invoice_insert(
    conn: &mut SqliteConnection,
    i: &InvoiceRow,
    items: &[InvoiceItemRow],
) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO invoices ({INVOICE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
    )))
    .bind(&i.id)
    .bind(&i.invoice_number)
    .bind(&i.customer_name)
    .bind(&i.customer_email)
    .bind(&i.customer_phone)
    .bind(&i.billing_address)
    .bind(&i.notes)
    .bind(i.tax_milli)
    .bind(i.discount_cents)
    .bind(i.subtotal_cents)
    .bind(i.tax_cents)
    .bind(i.total_cents)
    .bind(&i.status)
    .bind(&i.invoice_date)
    .bind(&i.due_date)
    .bind(i.paid_at)
    .bind(i.created_at)
    .bind(i.updated_at)
    .execute(&mut *conn)
    .await?;
    for it in items {
        sqlx::query(
            "INSERT INTO invoice_items (id, invoice_id, position, product_id, description, quantity, unit_price_cents, total_cents)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .bind(&it.id)
        .bind(&it.invoice_id)
        .bind(it.position)
        .bind(&it.product_id)
        .bind(&it.description)
        .bind(it.quantity)
        .bind(it.unit_price_cents)
        .bind(it.total_cents)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

pub async fn invoice_get(pool: &SqlitePool, id: &str) -> Result<Option<InvoiceRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {INVOICE_COLUMNS} FROM invoices WHERE id = ?1 OR invoice_number = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

fn invoice_where(qb: &mut sqlx::QueryBuilder<Sqlite>, f: &InvoiceFilter<'_>) {
    qb.push(" WHERE 1 = 1");
    if let Some(q) = f.search {
        let pat = crate::domain::like_pattern(q);
        qb.push(" AND (lower(invoice_number) LIKE ")
            .push_bind(pat.clone())
            .push(" ESCAPE '\\' OR lower(customer_name) LIKE ")
            .push_bind(pat.clone())
            .push(" ESCAPE '\\' OR lower(COALESCE(customer_email, '')) LIKE ")
            .push_bind(pat)
            .push(" ESCAPE '\\')");
    }
    if let Some(s) = f.status {
        qb.push(" AND status = ").push_bind(s);
    }
    if let Some(d) = f.date_from {
        qb.push(" AND invoice_date >= ").push_bind(d);
    }
    if let Some(d) = f.date_to {
        qb.push(" AND invoice_date <= ").push_bind(d);
    }
}

pub async fn invoice_list(
    pool: &SqlitePool,
    f: &InvoiceFilter<'_>,
) -> Result<(Vec<InvoiceRow>, i64), sqlx::Error> {
    let mut qb = sqlx::QueryBuilder::new(format!("SELECT {INVOICE_COLUMNS} FROM invoices"));
    invoice_where(&mut qb, f);
    qb.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .push_bind(f.limit)
        .push(" OFFSET ")
        .push_bind(f.offset);
    let rows = qb.build_query_as().fetch_all(pool).await?;
    let mut count = sqlx::QueryBuilder::new("SELECT COUNT(*) FROM invoices");
    invoice_where(&mut count, f);
    let total: i64 = count.build_query_scalar().fetch_one(pool).await?;
    Ok((rows, total))
}

pub async fn invoice_items(
    pool: &SqlitePool,
    ids: &[String],
) -> Result<Vec<InvoiceItemRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut qb = sqlx::QueryBuilder::new(
        "SELECT id, invoice_id, position, product_id, description, quantity, unit_price_cents, total_cents
         FROM invoice_items WHERE invoice_id IN (",
    );
    let mut list = qb.separated(", ");
    for id in ids {
        list.push_bind(id.clone());
    }
    qb.push(") ORDER BY invoice_id, position");
    qb.build_query_as().fetch_all(pool).await
}

pub async fn invoice_set_status(
    pool: &SqlitePool,
    id: &str,
    status: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE invoices SET status = ?2, updated_at = ?3,
             paid_at = CASE WHEN ?2 = 'paid' THEN ?3 ELSE paid_at END
         WHERE id = ?1 AND status <> 'paid'",
    )
    .bind(id)
    .bind(status)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn invoice_pdf_get(
    pool: &SqlitePool,
    invoice_id: &str,
) -> Result<Option<(i64, Vec<u8>)>, sqlx::Error> {
    sqlx::query_as("SELECT version, pdf FROM invoice_pdfs WHERE invoice_id = ?1")
        .bind(invoice_id)
        .fetch_optional(pool)
        .await
}

pub async fn invoice_pdf_put(
    pool: &SqlitePool,
    invoice_id: &str,
    version: i64,
    pdf: &[u8],
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO invoice_pdfs (invoice_id, version, pdf, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (invoice_id) DO UPDATE SET version = excluded.version, pdf = excluded.pdf,
             created_at = excluded.created_at
         WHERE excluded.version >= invoice_pdfs.version",
    )
    .bind(invoice_id)
    .bind(version)
    .bind(pdf)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn payment_insert(pool: &SqlitePool, p: &PaymentRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO payments ({PAYMENT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    )))
    .bind(&p.id)
    .bind(&p.invoice_id)
    .bind(&p.provider)
    .bind(&p.provider_ref)
    .bind(p.amount_cents)
    .bind(&p.currency)
    .bind(&p.status)
    .bind(&p.error)
    .bind(p.created_at)
    .bind(p.updated_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn payment_by_ref(
    pool: &SqlitePool,
    provider_ref: &str,
) -> Result<Option<PaymentRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE provider_ref = ?1"
    )))
    .bind(provider_ref)
    .fetch_optional(pool)
    .await
}

pub async fn payment_settle(pool: &SqlitePool, s: &PaymentSettle<'_>) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE payments SET status = ?2, error = ?3, updated_at = ?4 WHERE id = ?1")
        .bind(s.payment_id)
        .bind(s.status)
        .bind(s.error)
        .bind(s.now)
        .execute(&mut *tx)
        .await?;
    if s.status == "succeeded" {
        sqlx::query(
            "UPDATE invoices SET status = 'paid', paid_at = ?2, updated_at = ?2
             WHERE id = ?1 AND status <> 'paid'",
        )
        .bind(s.invoice_id)
        .bind(s.now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

pub async fn payment_analytics(pool: &SqlitePool) -> Result<PaymentAnalytics, sqlx::Error> {
    sqlx::query_as(
        "SELECT
            (SELECT COALESCE(SUM(total_cents), 0) FROM invoices WHERE status = 'paid') AS revenue_cents,
            (SELECT COUNT(*) FROM payments WHERE provider = 'stripe') AS transactions,
            (SELECT COUNT(*) FROM payments WHERE provider = 'stripe' AND status = 'succeeded') AS succeeded,
            (SELECT COUNT(*) FROM payments WHERE provider = 'stripe'
                AND status IN ('failed', 'canceled')) AS failed",
    )
    .fetch_one(pool)
    .await
}

pub async fn catalog_upsert(pool: &SqlitePool, items: &[CatalogRow]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for c in items {
        sqlx::query(
            "INSERT INTO catalog_items (id, name, description, price_cents, category, sku, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (lower(name)) DO UPDATE SET price_cents = excluded.price_cents,
                 description = COALESCE(excluded.description, catalog_items.description),
                 category = COALESCE(excluded.category, catalog_items.category),
                 sku = COALESCE(excluded.sku, catalog_items.sku)",
        )
        .bind(&c.id)
        .bind(&c.name)
        .bind(&c.description)
        .bind(c.price_cents)
        .bind(&c.category)
        .bind(&c.sku)
        .bind(c.created_at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

pub async fn catalog_list(pool: &SqlitePool) -> Result<Vec<CatalogRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, description, price_cents, category, sku, created_at
         FROM catalog_items ORDER BY lower(name), id",
    )
    .fetch_all(pool)
    .await
}

pub async fn invoice_email_claim(
    pool: &SqlitePool,
    invoice_id: &str,
    job_id: &str,
    to: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "INSERT INTO invoice_emails (job_id, invoice_id, to_email, sent_at) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (job_id) DO NOTHING",
    )
    .bind(job_id)
    .bind(invoice_id)
    .bind(to)
    .bind(now)
    .execute(pool)
    .await
    .map(|r| r.rows_affected() == 1)
}

pub async fn invoice_email_release(pool: &SqlitePool, job_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM invoice_emails WHERE job_id = ?1")
        .bind(job_id)
        .execute(pool)
        .await
        .map(|_| ())
}
