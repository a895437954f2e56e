//! The `prospector` command as a user runs it: start-up errors that name the setting, `user add`,
//! and `all` printing the URL and a working demo login.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::*;

fn prospector(dir: &std::path::Path, env: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_prospector"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("PROSPECTOR_DATA_DIR", dir.join("data"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run prospector")
}

#[test]
fn bad_or_unreachable_database_url_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = prospector(
        dir.path(),
        &[("DATABASE_URL", "mysql://root:hunter2@localhost/x")],
        &["migrate"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("DATABASE_URL"), "{err}");
    assert!(
        !err.contains("hunter2"),
        "the password is never printed: {err}"
    );

    let out = prospector(
        dir.path(),
        &[(
            "DATABASE_URL",
            "postgres://postgres:hunter2@127.0.0.1:1/nothing",
        )],
        &["migrate"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("DATABASE_URL: cannot reach the Postgres database"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");

    let out = prospector(dir.path(), &[("PORT", "http")], &["migrate"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("PORT"));
}

#[test]
fn user_add_validates_and_refuses_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let ok = prospector(
        dir.path(),
        &[],
        &[
            "user",
            "add",
            "--email",
            "A@Example.com",
            "--password",
            "long-enough",
            "--admin",
        ],
    );
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("a@example.com"));
    let dup = prospector(
        dir.path(),
        &[],
        &[
            "user",
            "add",
            "--email",
            "a@example.com",
            "--password",
            "long-enough",
        ],
    );
    assert!(!dup.status.success());
    assert!(String::from_utf8_lossy(&dup.stderr).contains("already exists"));
    let weak = prospector(
        dir.path(),
        &[],
        &[
            "user",
            "add",
            "--email",
            "b@example.com",
            "--password",
            "short",
        ],
    );
    assert!(String::from_utf8_lossy(&weak.stderr).contains("at least 8 characters"));
}

/// `prospector all` on an empty SQLite database: seeds the demo login, prints URL and login, and that
/// login works against the running api.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_prints_url_and_a_working_demo_login() {
    let db = TestDb::new(Backend::Sqlite).await.unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut p = Proc::spawn(&db, &["all"], &[("PORT", port.to_string())]);
    let out = eventually(Duration::from_secs(20), "start-up message", || {
        let text = p.output();
        async move { text.contains("with password").then_some(text) }
    })
    .await;
    let line = out.lines().find(|l| l.contains("with password")).unwrap();
    assert!(
        line.contains(&format!("http://127.0.0.1:{port}/admin/login")),
        "{line}"
    );
    let words: Vec<&str> = line.split_whitespace().collect();
    let email = words[words.iter().position(|w| *w == "as").unwrap() + 1];
    let password = words.last().unwrap();
    let client = reqwest::Client::new();
    let res = client
        .post(format!("http://127.0.0.1:{port}/api/admin/login"))
        .json(&serde_json::json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    p.signal(15);
    assert!(
        p.wait_exit(Duration::from_secs(10))
            .is_some_and(|s| s.success()),
        "{}",
        p.output()
    );
}
