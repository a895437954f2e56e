//! `prospector seed` on an empty database: a demo login and a CRM that looks alive.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::Db;

async fn seed_once(db: &TestDb) {
    let mut p = Proc::spawn(db, &["seed"], &[]);
    let status = p.wait_exit(Duration::from_secs(30)).expect("seed exits");
    assert!(status.success(), "{}", p.output());
}

async fn demo_crm_is_alive_and_loaded_once(db: TestDb) {
    seed_once(&db).await;
    let conn = db.connect().await;
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM users").await, 1);
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM companies").await, 36);
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM contacts").await, 65);
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM deals").await, 16);
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM meetings").await, 10);
    assert_eq!(
        scalar(&conn, "SELECT COUNT(DISTINCT state) FROM companies WHERE state IN ('TX','LA','AR','MS','NM','OK','AZ')").await,
        7,
        "all seven target states"
    );
    assert_eq!(
        scalar(&conn, "SELECT COUNT(DISTINCT stage) FROM deals").await,
        6,
        "deals in every stage"
    );
    let now = jobs::time::now_ms();
    let upcoming = match &conn {
        Db::Sqlite(p) => {
            sqlx::query_scalar("SELECT COUNT(*) FROM meetings WHERE scheduled_at > ?1")
                .bind(now)
                .fetch_one(p.write())
                .await
                .unwrap()
        }
        Db::Postgres(p) => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM meetings WHERE scheduled_at > $1")
                .bind(now)
                .fetch_one(p.write())
                .await
                .unwrap()
        }
    };
    assert!(
        (3..10).contains(&upcoming),
        "past and upcoming meetings: {upcoming} upcoming"
    );
    assert_eq!(
        scalar(
            &conn,
            "SELECT COUNT(*) FROM contacts c JOIN companies co ON co.id = c.company_id"
        )
        .await,
        65,
        "every contact belongs to a company"
    );
    // Invented companies: each is labelled demo data (the catalog's source) wherever it is shown.
    assert_eq!(
        scalar(
            &conn,
            "SELECT COUNT(*) FROM company_sources WHERE source = 'catalog' AND NOT verified"
        )
        .await,
        36
    );
    // Their people are invented too, and carry the label with them (the lead board reads them).
    let board = conn.lead_board(100).await.unwrap();
    assert!(
        !board.is_empty()
            && board.iter().all(|(_, card)| {
                serde_json::from_str::<serde_json::Value>(card).unwrap()["demo"] == true
            }),
        "every demo lead is labelled"
    );
    // A second seed leaves the data alone.
    seed_once(&db).await;
    assert_eq!(scalar(&conn, "SELECT COUNT(*) FROM companies").await, 36);
    conn.close().await;
}

both_backends!(demo_crm_is_alive_and_loaded_once);
