//! Users sign in at `/login`, and an admin manages accounts (issue 21, journey 1's first step): adds
//! users who can then sign in, disables and re-enables them (their sessions end at once), changes
//! their role and resets their password, never locking themselves out. Every test runs on SQLite and
//! on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::*;
use reqwest::Client;
use serde_json::{Value, json};

both_backends!(
    ordinary_user_signs_in_and_reads_their_session,
    get_login_opens_the_user_sign_in_page,
    admin_creates_a_user_who_can_sign_in,
    duplicate_email_is_a_conflict,
    new_users_follow_the_password_and_email_rules,
    only_admin_sessions_manage_users,
    disabling_ends_sessions_and_blocks_sign_in,
    role_changes_take_effect_at_the_next_admin_sign_in,
    password_reset_replaces_the_old_password,
    admin_cannot_disable_or_demote_self,
);

fn no_worker() -> AppOptions {
    AppOptions {
        worker: false,
        ..Default::default()
    }
}

async fn sign_in(
    app: &TestApp,
    client: &Client,
    path: &str,
    email: &str,
    password: &str,
) -> (u16, Value) {
    send(
        client
            .post(app.url(path))
            .json(&json!({ "email": email, "password": password })),
    )
    .await
}

/// The account with `email` in the admin's list.
async fn listed(app: &TestApp, admin: &Client, email: &str) -> Value {
    let (s, list) = send(admin.get(app.url("/api/admin/users"))).await;
    assert_eq!(s, 200, "{list}");
    list.as_array()
        .expect("a list")
        .iter()
        .find(|u| u["email"] == email)
        .cloned()
        .unwrap_or_else(|| panic!("{email} not in {list}"))
}

async fn create(app: &TestApp, admin: &Client, body: Value) -> (u16, Value) {
    send(admin.post(app.url("/api/admin/users")).json(&body)).await
}

async fn patch(app: &TestApp, admin: &Client, id: &str, body: Value) -> (u16, Value) {
    send(
        admin
            .patch(app.url(&format!("/api/admin/users/{id}")))
            .json(&body),
    )
    .await
}

/// The audit actions recorded against `target`, newest first.
async fn audit_actions(app: &TestApp, admin: &Client, target: &str) -> Vec<String> {
    let (s, rows) = send(admin.get(app.url("/api/ops/audit?limit=100"))).await;
    assert_eq!(s, 200, "{rows}");
    rows.as_array()
        .expect("a list")
        .iter()
        .filter(|r| r["target"] == target)
        .map(|r| r["action"].as_str().unwrap_or_default().to_string())
        .collect()
}

async fn ordinary_user_signs_in_and_reads_their_session(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let user = app.anonymous();
    let (s, v) = sign_in(&app, &user, "/api/login", USER_EMAIL, PASSWORD).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["email"], USER_EMAIL);
    assert_eq!(v["isAdmin"], false);
    assert_eq!(v["adminSession"], false);
    let (s, me) = send(user.get(app.url("/api/auth/user"))).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["email"], USER_EMAIL);
    assert_eq!(me["adminSession"], false);
    // The screens a user may use answer; the admin's do not.
    let (s, _) = send(user.get(app.url("/api/contacts"))).await;
    assert_eq!(s, 200);
    let (s, _) = send(user.get(app.url("/api/ops/jobs"))).await;
    assert_eq!(s, 403);

    // An admin's session says whether it was opened at the admin login.
    let admin = app.admin().await;
    let (_, me) = send(admin.get(app.url("/api/auth/user"))).await;
    assert_eq!(
        (me["isAdmin"].clone(), me["adminSession"].clone()),
        (json!(true), json!(true))
    );
    let plain = app.signed_in("/api/login", ADMIN_EMAIL).await;
    let (_, me) = send(plain.get(app.url("/api/auth/user"))).await;
    assert_eq!(
        (me["isAdmin"].clone(), me["adminSession"].clone()),
        (json!(true), json!(false))
    );
    app.stop().await;
}

async fn get_login_opens_the_user_sign_in_page(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let res = app
        .anonymous()
        .get(app.url("/api/login"))
        .send()
        .await
        .expect("login page");
    assert!(res.status().is_redirection(), "{}", res.status());
    assert_eq!(
        res.headers().get("location").and_then(|v| v.to_str().ok()),
        Some("/login")
    );
    app.stop().await;
}

async fn admin_creates_a_user_who_can_sign_in(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let (s, v) = create(
        &app,
        &admin,
        json!({ "email": " New.Rep@Example.com ", "firstName": "Nina", "lastName": "Rep",
                "password": "a long password", "role": "user" }),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["email"], "new.rep@example.com");
    assert_eq!(v["role"], "user");
    assert_eq!(v["disabled"], false);
    assert!(
        v["createdAt"].as_str().is_some_and(|t| t.contains('T')),
        "{v}"
    );
    assert!(!v.to_string().contains("argon2"), "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let row = listed(&app, &admin, "new.rep@example.com").await;
    assert_eq!(row["id"], id.as_str());
    assert_eq!(row["firstName"], "Nina");

    let rep = app.anonymous();
    let (s, me) = sign_in(
        &app,
        &rep,
        "/api/login",
        "new.rep@example.com",
        "a long password",
    )
    .await;
    assert_eq!(s, 200, "{me}");
    let (s, me) = send(rep.get(app.url("/api/auth/user"))).await;
    assert_eq!((s, me["firstName"].clone()), (200, json!("Nina")));
    // An ordinary user is refused at the admin login.
    let (s, _) = sign_in(
        &app,
        &app.anonymous(),
        "/api/admin/login",
        "new.rep@example.com",
        "a long password",
    )
    .await;
    assert_eq!(s, 403);

    // An admin created here may use the admin login.
    let (s, v) = create(
        &app,
        &admin,
        json!({ "email": "boss@example.com", "password": "another password", "role": "admin" }),
    )
    .await;
    assert_eq!((s, v["role"].clone()), (201, json!("admin")), "{v}");
    let boss = app.anonymous();
    let (s, _) = sign_in(
        &app,
        &boss,
        "/api/admin/login",
        "boss@example.com",
        "another password",
    )
    .await;
    assert_eq!(s, 200);
    let (s, _) = send(boss.get(app.url("/api/admin/users"))).await;
    assert_eq!(s, 200);

    assert_eq!(audit_actions(&app, &admin, &id).await, ["user.create"]);
    app.stop().await;
}

async fn duplicate_email_is_a_conflict(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    for email in [USER_EMAIL.to_string(), USER_EMAIL.to_uppercase()] {
        let (s, v) = create(
            &app,
            &admin,
            json!({ "email": email, "password": "long enough" }),
        )
        .await;
        assert_eq!(s, 409, "{v}");
        assert_eq!(v["message"], "A user with this email already exists");
    }
    let (_, list) = send(admin.get(app.url("/api/admin/users"))).await;
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
    app.stop().await;
}

async fn new_users_follow_the_password_and_email_rules(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let cases = [
        (
            json!({ "email": "a@example.com", "password": "short" }),
            "password",
            "Password must be at least 8 characters",
        ),
        (
            json!({ "email": "a@example.com" }),
            "password",
            "Password is required",
        ),
        (
            json!({ "email": "not-an-email", "password": "long enough" }),
            "email",
            "Enter a valid email address",
        ),
        (
            json!({ "password": "long enough" }),
            "email",
            "Email is required",
        ),
        (
            json!({ "email": "a@example.com", "password": "long enough", "role": "owner" }),
            "role",
            "role must be one of: admin, user",
        ),
        (
            json!({ "email": "a@example.com", "password": 12, "role": "user" }),
            "password",
            "Password must be at least 8 characters",
        ),
        (
            json!({ "email": "a@example.com", "password": ["long enough"] }),
            "password",
            "password must be text",
        ),
    ];
    for (body, field, message) in cases {
        let (s, v) = create(&app, &admin, body.clone()).await;
        assert_eq!(s, 422, "{body}: {v}");
        assert_eq!(v["errors"][field], message, "{body}: {v}");
    }
    let (_, list) = send(admin.get(app.url("/api/admin/users"))).await;
    assert_eq!(
        list.as_array().map(Vec::len),
        Some(2),
        "nothing was created: {list}"
    );

    let (s, v) = patch(&app, &admin, "no-such-user", json!({ "disabled": true })).await;
    assert_eq!((s, v["message"].clone()), (404, json!("User not found")));
    let id = listed(&app, &admin, USER_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = patch(&app, &admin, &id, json!({ "disabled": "yes" })).await;
    assert_eq!(s, 422, "{v}");
    app.stop().await;
}

async fn only_admin_sessions_manage_users(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let id = listed(&app, &admin, USER_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let body = json!({ "email": "x@example.com", "password": "long enough" });
    // An ordinary user, and an admin signed in at the ordinary login.
    for client in [
        app.user().await,
        app.signed_in("/api/login", ADMIN_EMAIL).await,
    ] {
        let (s, _) = send(client.get(app.url("/api/admin/users"))).await;
        assert_eq!(s, 403);
        let (s, _) = send(client.post(app.url("/api/admin/users")).json(&body)).await;
        assert_eq!(s, 403);
        let (s, _) = patch(&app, &client, &id, json!({ "role": "admin" })).await;
        assert_eq!(s, 403);
        let (s, _) = send(
            client
                .post(app.url(&format!("/api/admin/users/{id}/password")))
                .json(&json!({ "password": "long enough" })),
        )
        .await;
        assert_eq!(s, 403);
    }
    let (s, _) = send(app.anonymous().get(app.url("/api/admin/users"))).await;
    assert_eq!(s, 401);
    assert_eq!(listed(&app, &admin, USER_EMAIL).await["role"], "user");
    let (_, list) = send(admin.get(app.url("/api/admin/users"))).await;
    assert_eq!(
        list.as_array().map(Vec::len),
        Some(2),
        "nothing was created: {list}"
    );
    app.stop().await;
}

async fn disabling_ends_sessions_and_blocks_sign_in(db: TestDb) {
    // A long read cache: the ended session must not live on in it.
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            read_cache_ttl: Duration::from_secs(60),
            ..Default::default()
        },
    )
    .await;
    let admin = app.admin().await;
    let user = app.user().await;
    let (s, _) = send(user.get(app.url("/api/auth/user"))).await;
    assert_eq!(s, 200);
    let id = listed(&app, &admin, USER_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();

    let (s, v) = patch(&app, &admin, &id, json!({ "disabled": true })).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["disabled"], true);
    assert!(v["disabledAt"].as_str().is_some(), "{v}");
    let (s, _) = send(user.get(app.url("/api/auth/user"))).await;
    assert_eq!(s, 401, "the disabled user's session ended");
    let sessions = scalar(&app.db, "SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'user@test.local'").await;
    assert_eq!(sessions, 0);
    let (s, v) = sign_in(&app, &app.anonymous(), "/api/login", USER_EMAIL, PASSWORD).await;
    assert_eq!(s, 403, "{v}");
    assert_eq!(
        v["message"],
        "This account is disabled. Ask an administrator to enable it."
    );
    // A wrong password still gets the usual answer: nothing about the account's state.
    let (s, v) = sign_in(
        &app,
        &app.anonymous(),
        "/api/login",
        USER_EMAIL,
        "wrong password",
    )
    .await;
    assert_eq!(
        (s, v["message"].clone()),
        (401, json!("Login failed. Please check your credentials."))
    );
    assert_eq!(listed(&app, &admin, USER_EMAIL).await["disabled"], true);

    let (s, v) = patch(&app, &admin, &id, json!({ "disabled": false })).await;
    assert_eq!(
        (s, v["disabled"].clone(), v["disabledAt"].clone()),
        (200, json!(false), Value::Null)
    );
    let (s, _) = sign_in(&app, &app.anonymous(), "/api/login", USER_EMAIL, PASSWORD).await;
    assert_eq!(s, 200);
    assert_eq!(
        audit_actions(&app, &admin, &id).await,
        ["user.enable", "user.disable"]
    );
    app.stop().await;
}

async fn role_changes_take_effect_at_the_next_admin_sign_in(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let id = listed(&app, &admin, USER_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = patch(
        &app,
        &admin,
        &id,
        json!({ "role": "admin", "firstName": "Promoted" }),
    )
    .await;
    assert_eq!(
        (s, v["role"].clone(), v["firstName"].clone()),
        (200, json!("admin"), json!("Promoted")),
        "{v}"
    );
    assert_eq!(v["lastName"], "User", "an absent field stays as it was");
    let (s, _) = sign_in(
        &app,
        &app.anonymous(),
        "/api/admin/login",
        USER_EMAIL,
        PASSWORD,
    )
    .await;
    assert_eq!(s, 200);
    let (s, v) = patch(&app, &admin, &id, json!({ "role": "user" })).await;
    assert_eq!((s, v["role"].clone()), (200, json!("user")));
    let (s, _) = sign_in(
        &app,
        &app.anonymous(),
        "/api/admin/login",
        USER_EMAIL,
        PASSWORD,
    )
    .await;
    assert_eq!(s, 403);
    assert_eq!(
        audit_actions(&app, &admin, &id).await,
        ["user.role", "user.rename", "user.role"]
    );
    app.stop().await;
}

async fn password_reset_replaces_the_old_password(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let user = app.user().await;
    let id = listed(&app, &admin, USER_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let reset = |password: Value| {
        admin
            .post(app.url(&format!("/api/admin/users/{id}/password")))
            .json(&json!({ "password": password }))
    };
    let (s, v) = send(reset(json!("short"))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Password must be at least 8 characters"))
    );

    let (s, _) = send(reset(json!("a brand new secret"))).await;
    assert_eq!(s, 204);
    let (s, _) = send(user.get(app.url("/api/auth/user"))).await;
    assert_eq!(s, 401, "the user's other sessions ended");
    let (s, _) = sign_in(&app, &app.anonymous(), "/api/login", USER_EMAIL, PASSWORD).await;
    assert_eq!(s, 401, "the old password no longer works");
    let (s, _) = sign_in(
        &app,
        &app.anonymous(),
        "/api/login",
        USER_EMAIL,
        "a brand new secret",
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(
        audit_actions(&app, &admin, &id).await,
        ["user.password_reset"]
    );

    // An admin resetting their own password keeps the session they did it from.
    let me = listed(&app, &admin, ADMIN_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let other = app.admin().await;
    let (s, _) = send(
        admin
            .post(app.url(&format!("/api/admin/users/{me}/password")))
            .json(&json!({ "password": "my new admin secret" })),
    )
    .await;
    assert_eq!(s, 204);
    let (s, _) = send(admin.get(app.url("/api/admin/user"))).await;
    assert_eq!(s, 200);
    let (s, _) = send(other.get(app.url("/api/admin/user"))).await;
    assert_eq!(s, 401);
    app.stop().await;
}

async fn admin_cannot_disable_or_demote_self(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            admin_emails: vec!["listed@example.com".into()],
            ..Default::default()
        },
    )
    .await;
    let admin = app.admin().await;
    let me = listed(&app, &admin, ADMIN_EMAIL).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = patch(&app, &admin, &me, json!({ "disabled": true })).await;
    assert_eq!(
        (s, v["message"].clone()),
        (409, json!("You cannot disable your own account"))
    );
    let (s, v) = patch(&app, &admin, &me, json!({ "role": "user" })).await;
    assert_eq!(
        (s, v["message"].clone()),
        (409, json!("You cannot remove your own admin rights"))
    );
    let row = listed(&app, &admin, ADMIN_EMAIL).await;
    assert_eq!(
        (row["role"].clone(), row["disabled"].clone()),
        (json!("admin"), json!(false))
    );
    let (s, _) = send(admin.get(app.url("/api/admin/user"))).await;
    assert_eq!(s, 200);
    // Renaming yourself is fine.
    let (s, _) = patch(&app, &admin, &me, json!({ "firstName": "Still" })).await;
    assert_eq!(s, 200);

    // ADMIN_EMAILS keeps working: such a user is an admin whatever their flag, and the screen says so.
    let (s, v) = create(
        &app,
        &admin,
        json!({ "email": "listed@example.com", "password": "long enough" }),
    )
    .await;
    assert_eq!(
        (s, v["role"].clone(), v["adminByConfig"].clone()),
        (201, json!("admin"), json!(true)),
        "{v}"
    );
    let id = v["id"].as_str().unwrap().to_string();
    let (s, v) = patch(&app, &admin, &id, json!({ "role": "user" })).await;
    assert_eq!(s, 409, "{v}");
    let (s, _) = sign_in(
        &app,
        &app.anonymous(),
        "/api/admin/login",
        "listed@example.com",
        "long enough",
    )
    .await;
    assert_eq!(s, 200);
    app.stop().await;
}
