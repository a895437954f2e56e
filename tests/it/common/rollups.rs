//! The rollup tables (migrations 0022–0030, 0043, 0045) as stored and as a recount of the rows computes them,
//! for the tests that check that writes keep them exact (figures, merge).

use jobs::db::Db;

/// Rows of `sql` on either backend (the recounts below read raw columns).
pub async fn fetch_rows<T>(db: &Db, sql: &'static str) -> Vec<T>
where
    T: Send + Unpin,
    for<'r> T:
        sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    match db {
        Db::Sqlite(p) => sqlx::query_as(sql).fetch_all(p.write()).await.unwrap(),
        Db::Postgres(p) => sqlx::query_as(sql).fetch_all(p.write()).await.unwrap(),
    }
}

pub type Counts = std::collections::BTreeMap<String, Vec<i64>>;

/// A searched text's distinct runs of letters, as Postgres' `contact_words_of` splits it.
fn words_of(text: &str) -> std::collections::BTreeSet<&str> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The rollups of migration 0022, as stored (rows that went back to zero left out).
pub async fn stored_rollups(db: &Db) -> Counts {
    let mut out = Counts::new();
    let contacts: Vec<(String, i64, i64, i64, i64, i64)> = fetch_rows(
        db,
        "SELECT status, CAST(n AS BIGINT), CAST(score_sum AS BIGINT), CAST(score80_n AS BIGINT),
                CAST(score85_n AS BIGINT), CAST(reached_n AS BIGINT) FROM contact_rollup",
    )
    .await;
    for (s, a, b, c, d, e) in contacts {
        out.insert(format!("contact {s}"), vec![a, b, c, d, e]);
    }
    let companies: Vec<(String, String, i64, i64)> = fetch_rows(
        db,
        "SELECT state, status, CAST(band AS BIGINT), CAST(n AS BIGINT) FROM company_rollup",
    )
    .await;
    for (state, status, band, n) in companies {
        out.insert(format!("company {state}/{status}/{band}"), vec![n]);
    }
    let deals: Vec<(String, i64, i64, i64, i64, i64)> = fetch_rows(
        db,
        "SELECT stage, CAST(n AS BIGINT), CAST(value_sum AS BIGINT), CAST(weighted_sum AS BIGINT),
                CAST(cycle_days_sum AS BIGINT), CAST(cycle_n AS BIGINT) FROM deal_rollup",
    )
    .await;
    for (s, a, b, c, d, e) in deals {
        out.insert(format!("deal {s}"), vec![a, b, c, d, e]);
    }
    let days: Vec<(String, i64, i64, i64)> = fetch_rows(
        db,
        "SELECT series, CAST(day AS BIGINT), CAST(n AS BIGINT), CAST(total AS BIGINT) FROM day_series",
    )
    .await;
    for (s, d, n, t) in days {
        out.insert(format!("{s} {d}"), vec![n, t]);
    }
    let scores: Vec<(i32, i64)> = fetch_rows(
        db,
        "SELECT score, CAST(n AS BIGINT) FROM contact_score_rollup",
    )
    .await;
    for (score, n) in scores {
        out.insert(format!("score {score}"), vec![n]);
    }
    let states: Vec<(String, i64, i64, i64, i64, i64, i64)> = fetch_rows(
        db,
        "SELECT state, CAST(n AS BIGINT), CAST(qualified_n AS BIGINT), CAST(revenue_sum AS BIGINT),
                CAST(revenue_n AS BIGINT), CAST(employees_sum AS BIGINT),
                CAST(employees_n AS BIGINT) FROM company_state_rollup",
    )
    .await;
    for (state, a, b, c, d, e, f) in states {
        out.insert(format!("state {state}"), vec![a, b, c, d, e, f]);
    }
    let per_company: Vec<(String, i64)> = fetch_rows(
        db,
        "SELECT company_id, CAST(n AS BIGINT) FROM company_contact_counts",
    )
    .await;
    for (company, n) in per_company {
        out.insert(format!("contacts of {company}"), vec![n]);
    }
    if db.backend() == jobs::db::Backend::Postgres {
        let words: Vec<(String, i64)> = fetch_rows(db, "SELECT word, n FROM contact_words").await;
        for (word, n) in words {
            out.insert(format!("word {word}"), vec![n]);
        }
        let words: Vec<(String, i64)> = fetch_rows(db, "SELECT word, n FROM company_words").await;
        for (word, n) in words {
            out.insert(format!("company word {word}"), vec![n]);
        }
        let entries: Vec<(String, i32, String, String, String)> = fetch_rows(
            db,
            "SELECT word, score, name_key, id, search_text FROM company_search_words",
        )
        .await;
        for (word, score, name_key, id, text) in entries {
            out.entry(format!(
                "company entry {word}|{score}|{name_key}|{id}|{text}"
            ))
            .or_insert_with(|| vec![0])[0] += 1;
        }
    }
    out.retain(|_, v| v.iter().any(|x| *x != 0));
    out
}

/// The same figures recounted in Rust from the rows: the definitions of docs/performance.md.
pub async fn recounted(db: &Db) -> Counts {
    const DAY: i64 = 86_400_000;
    const REACHED: [&str; 6] = [
        "contacted",
        "email_sent",
        "meeting_scheduled",
        "responded",
        "qualified",
        "customer",
    ];
    let mut out = Counts::new();
    let mut add = |key: String, delta: &[i64]| {
        let v = out.entry(key).or_insert_with(|| vec![0; delta.len()]);
        for (a, b) in v.iter_mut().zip(delta) {
            *a += b;
        }
    };
    let contacts: Vec<(String, i32, Option<i64>, i64, i64)> = fetch_rows(
        db,
        "SELECT status, score, last_contacted_at, updated_at, created_at FROM contacts",
    )
    .await;
    if db.backend() == jobs::db::Backend::Postgres {
        // Migration 0030: each contact's distinct runs of letters in its searched text.
        let texts: Vec<(String,)> = fetch_rows(db, "SELECT search_text FROM contacts").await;
        for (text,) in texts {
            for word in words_of(&text) {
                add(format!("word {word}"), &[1]);
            }
        }
        // Migration 0045: each company's words, and an entry per company and word with the list
        // order's keys and the searched text.
        let companies: Vec<(String, i32, String, String)> = fetch_rows(
            db,
            "SELECT id, score, lower(name), search_text FROM companies",
        )
        .await;
        for (id, score, name_key, text) in companies {
            for word in words_of(&text) {
                add(format!("company word {word}"), &[1]);
                add(
                    format!("company entry {word}|{score}|{name_key}|{id}|{text}"),
                    &[1],
                );
            }
        }
    }
    for (status, score, last, updated, created) in contacts {
        if status == "customer" {
            add(
                format!("contacts.customer_created {}", created / DAY),
                &[1, 0],
            );
        }
        let (score, reached) = (i64::from(score), i64::from(last.is_some()));
        add(
            format!("contact {status}"),
            &[
                1,
                score,
                i64::from(score >= 80),
                i64::from(score >= 85),
                reached,
            ],
        );
        if let Some(at) = last.or(REACHED.contains(&status.as_str()).then_some(updated)) {
            add(format!("contacts.contacted {}", at / DAY), &[1, 0]);
        }
        add(format!("score {score}"), &[1]);
    }
    // Migration 0043: each company's contacts.
    let placed: Vec<(String,)> = fetch_rows(
        db,
        "SELECT company_id FROM contacts WHERE company_id IS NOT NULL",
    )
    .await;
    for (company,) in placed {
        add(format!("contacts of {company}"), &[1]);
    }
    type CompanyFacts = (Option<String>, String, i32, i64, Option<i64>, Option<i64>);
    let companies: Vec<CompanyFacts> = fetch_rows(
        db,
        "SELECT state, status, score, created_at, CAST(revenue AS BIGINT), CAST(employees AS BIGINT)
         FROM companies",
    )
    .await;
    for (state, status, score, created, revenue, employees) in companies {
        let band = if score >= 80 {
            80
        } else if score >= 60 {
            60
        } else {
            0
        };
        let state = state.unwrap_or_default();
        add(
            format!("state {}", state.to_uppercase()),
            &[
                1,
                i64::from(status == "qualified" || status == "interested"),
                revenue.unwrap_or(0),
                i64::from(revenue.is_some()),
                employees.unwrap_or(0),
                i64::from(employees.is_some()),
            ],
        );
        add(format!("company {state}/{status}/{band}"), &[1]);
        add(format!("companies.created {}", created / DAY), &[1, 0]);
    }
    // stage, value, probability, created_at, actual_close_date
    type DealFacts = (Option<String>, i64, i32, i64, Option<String>);
    let deals: Vec<DealFacts> = fetch_rows(
        db,
        "SELECT stage, value, probability, created_at, actual_close_date FROM deals",
    )
    .await;
    for (stage, value, probability, created, close) in deals {
        let stage = stage.unwrap_or_else(|| "qualification".into());
        let cycle = close
            .filter(|_| stage == "closed_won")
            .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| ((d.and_utc().timestamp_millis() - created) / DAY).max(0));
        add(
            format!("deal {stage}"),
            &[
                1,
                value,
                value * i64::from(probability),
                cycle.unwrap_or(0),
                i64::from(cycle.is_some()),
            ],
        );
        add(format!("deals.created {}", created / DAY), &[1, value]);
        if stage != "closed_won" && stage != "closed_lost" {
            add(format!("deals.open_created {}", created / DAY), &[1, value]);
        }
    }
    out.retain(|_, v| v.iter().any(|x| *x != 0));
    out
}
