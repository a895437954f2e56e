//! Meetings (seed 001 §2, §4, §5, §7) as callers see them: the seed's validation messages, defaults,
//! the status filter and soonest-first order, the menu's status rules (409 for an already confirmed
//! or completed meeting), cancel-deletes, and the activities each change writes. Every test runs on
//! SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::Db;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

async fn insert_company(db: &Db, name: &str) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO companies (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)",
        &id,
        name,
        now_ms()
    );
    id
}

async fn insert_contact(db: &Db, first: &str) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, created_at, updated_at)
         VALUES ($1, $2, 'Tester', $3, $3)",
        &id,
        first,
        now_ms()
    );
    id
}

async fn create(app: &TestApp, c: &Client, body: Value) -> (u16, Value) {
    send(c.post(app.url("/api/meetings")).json(&body)).await
}

async fn create_ok(app: &TestApp, c: &Client, body: Value) -> Value {
    let (s, v) = create(app, c, body.clone()).await;
    assert_eq!(s, 201, "create {body}: {v}");
    v
}

async fn list(app: &TestApp, c: &Client, query: &str) -> (Vec<Value>, i64) {
    let res = c
        .get(app.url(&format!("/api/meetings{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "list {query}");
    let total = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    (res.json().await.unwrap(), total)
}

fn ms(v: &Value) -> i64 {
    chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap())
        .unwrap()
        .timestamp_millis()
}

async fn meeting_validation(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;

    let (s, v) = create(&app, &c, json!({})).await;
    assert_eq!(s, 422);
    assert_eq!(v["message"], "Title is required");
    assert_eq!(v["errors"]["title"], "Title is required");
    assert_eq!(v["errors"]["scheduledDate"], "Date and time are required");

    let (s, v) = create(&app, &c, json!({"title": "Intro", "scheduledDate": ""})).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Date and time are required"))
    );
    let (s, v) = create(&app, &c, json!({"title": "Intro"})).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Date and time are required"))
    );

    for bad in ["tomorrow", "2026-13-01T10:00:00Z", "2026-02-30T10:00"] {
        let (s, v) = create(&app, &c, json!({"title": "Intro", "scheduledDate": bad})).await;
        assert_eq!(s, 422, "{bad}");
        assert!(v["errors"]["scheduledDate"].is_string());
    }

    let when = "2030-05-01T15:00:00Z";
    let (s, v) = create(
        &app,
        &c,
        json!({"title": "Intro", "scheduledDate": when, "meetingType": "lunch"}),
    )
    .await;
    assert_eq!(s, 422);
    let msg = v["message"].as_str().unwrap();
    for t in ["discovery", "demo", "proposal", "closing", "follow-up"] {
        assert!(msg.contains(t), "{msg} names {t}");
    }

    for d in [
        json!(0),
        json!(-5),
        json!("abc"),
        json!(1.5),
        json!(100_000),
    ] {
        let (s, v) = create(
            &app,
            &c,
            json!({"title": "Intro", "scheduledDate": when, "duration": d}),
        )
        .await;
        assert_eq!(s, 422, "duration {d}");
        assert!(v["errors"]["duration"].is_string());
    }
    let (s, v) = create(
        &app,
        &c,
        json!({"title": "Intro", "scheduledDate": when, "status": "maybe"}),
    )
    .await;
    assert_eq!(s, 422);
    assert!(v["message"].as_str().unwrap().contains("no_show"));
    let (s, v) = create(
        &app,
        &c,
        json!({"title": "Intro", "scheduledDate": when, "companyId": "gone"}),
    )
    .await;
    assert_eq!(
        (s, v["errors"]["companyId"].clone()),
        (422, json!("Company not found"))
    );

    let (_, total) = list(&app, &c, "").await;
    assert_eq!(total, 0, "nothing invalid was written");
    app.stop().await;
}

async fn meeting_create_defaults(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let company = insert_company(&app.db, "Acme").await;
    let contact = insert_contact(&app.db, "Jane").await;
    let m = create_ok(
        &app,
        &c,
        json!({"title": "Discovery call", "scheduledDate": "2030-05-01T10:00:00-05:00",
               "companyId": company, "contactId": contact, "attendees": "a@x.com, b@x.com",
               "location": "Zoom", "agenda": "Intro", "description": "First"}),
    )
    .await;
    assert_eq!(m["meetingType"], "discovery");
    assert_eq!(m["duration"], 60);
    assert_eq!(m["status"], "scheduled");
    assert_eq!(m["syncStatus"], "pending");
    assert_eq!(m["googleCalendarSyncEnabled"], true);
    assert!(m["googleCalendarEventId"].is_null() && m["googleMeetLink"].is_null());
    assert!(m["lastSyncedAt"].is_null());
    assert_eq!(m["scheduledDate"], "2030-05-01T15:00:00.000Z");
    assert_eq!(m["attendees"], "a@x.com, b@x.com");
    assert_eq!(m["companyId"], json!(company));
    assert_eq!(m["contactId"], json!(contact));
    let got = app
        .get_json(&c, &format!("/api/meetings/{}", m["id"].as_str().unwrap()))
        .await;
    assert_eq!(got, m);

    let m = create_ok(
        &app,
        &c,
        json!({"title": "Demo", "scheduledDate": "2030-05-02T09:30", "duration": "45",
               "meetingType": "follow-up"}),
    )
    .await;
    assert_eq!(m["duration"], 45);
    assert_eq!(m["meetingType"], "follow-up");
    assert_eq!(m["scheduledDate"], "2030-05-02T09:30:00.000Z");
    let (s, _) = send(c.get(app.url("/api/meetings/nope"))).await;
    assert_eq!(s, 404);
    app.stop().await;
}

async fn meeting_list_status_and_order(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let late = create_ok(
        &app,
        &c,
        json!({"title": "Late", "scheduledDate": "2030-06-03T10:00:00Z"}),
    )
    .await;
    let early = create_ok(
        &app,
        &c,
        json!({"title": "Early", "scheduledDate": "2030-06-01T10:00:00Z"}),
    )
    .await;
    create_ok(
        &app,
        &c,
        json!({"title": "Middle", "scheduledDate": "2030-06-02T10:00:00Z"}),
    )
    .await;
    let (s, _) = send(
        c.put(app.url(&format!("/api/meetings/{}", late["id"].as_str().unwrap())))
            .json(&json!({"status": "confirmed"})),
    )
    .await;
    assert_eq!(s, 200);

    let (all, total) = list(&app, &c, "").await;
    assert_eq!(total, 3);
    let titles: Vec<&str> = all.iter().map(|m| m["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Early", "Middle", "Late"], "soonest first");
    let (items, total) = list(&app, &c, "?status=confirmed").await;
    assert_eq!((items.len(), total), (1, 1));
    assert_eq!(items[0]["title"], "Late");
    let (items, _) = list(&app, &c, "?status=scheduled").await;
    assert_eq!(items.len(), 2);
    let (items, _) = list(&app, &c, "?status=all").await;
    assert_eq!(items.len(), 3);
    let (items, _) = list(&app, &c, "?status=completed").await;
    assert!(items.is_empty());
    let (items, total) = list(&app, &c, "?limit=1&offset=1").await;
    assert_eq!((items.len(), total), (1, 3));
    assert_eq!(items[0]["title"], "Middle");
    assert_eq!(
        ms(&items[0]["scheduledDate"]) - ms(&early["scheduledDate"]),
        86_400_000
    );

    let (s, v) = send(c.get(app.url("/api/meetings?status=done"))).await;
    assert_eq!(s, 422);
    assert_eq!(v["errors"]["status"], v["message"]);
    assert!(v["message"].as_str().unwrap().contains("scheduled"));
    app.stop().await;
}

async fn meeting_status_rules(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let m = create_ok(
        &app,
        &c,
        json!({"title": "Rules", "scheduledDate": "2030-06-01T10:00:00Z", "location": "HQ"}),
    )
    .await;
    let url = app.url(&format!("/api/meetings/{}", m["id"].as_str().unwrap()));

    let (s, v) = send(c.put(&url).json(&json!({"status": "confirmed"}))).await;
    assert_eq!((s, v["status"].clone()), (200, json!("confirmed")));
    let (s, v) = send(c.put(&url).json(&json!({"status": "confirmed"}))).await;
    assert_eq!(s, 409, "confirming a confirmed meeting: {v}");
    assert_eq!(v["message"], "Meeting is already confirmed");
    let (s, v) = send(c.put(&url).json(&json!({"status": "completed"}))).await;
    assert_eq!((s, v["status"].clone()), (200, json!("completed")));
    let (s, v) = send(c.put(&url).json(&json!({"status": "completed"}))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (409, json!("Meeting is already completed"))
    );
    let (s, _) = send(c.put(&url).json(&json!({"status": "finished"}))).await;
    assert_eq!(s, 422);

    let (s, v) = send(
        c.put(&url)
            .json(&json!({"title": "Renamed", "duration": 30})),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(v["title"], "Renamed");
    assert_eq!(v["duration"], 30);
    assert_eq!(v["location"], "HQ", "a partial update keeps the rest");
    assert_eq!(v["status"], "completed");
    let (s, v) = send(c.put(&url).json(&json!({"title": ""}))).await;
    assert_eq!((s, v["message"].clone()), (422, json!("Title is required")));
    let (s, v) = send(c.put(&url).json(&json!({"scheduledDate": null}))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Date and time are required"))
    );
    let (s, v) = send(
        c.put(app.url("/api/meetings/missing"))
            .json(&json!({"status": "confirmed"})),
    )
    .await;
    assert_eq!((s, v["message"].clone()), (404, json!("Meeting not found")));
    app.stop().await;
}

async fn meeting_cancel_and_activities(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let m = create_ok(
        &app,
        &c,
        json!({"title": "Cancel me", "scheduledDate": "2030-06-01T10:00:00Z"}),
    )
    .await;
    let id = m["id"].as_str().unwrap();
    let url = app.url(&format!("/api/meetings/{id}"));
    tokio::time::sleep(Duration::from_millis(5)).await;
    send(c.put(&url).json(&json!({"status": "confirmed"}))).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    send(c.put(&url).json(&json!({"location": "Room 2"}))).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (s, _) = send(c.delete(&url)).await;
    assert_eq!(s, 204);
    let (s, _) = send(c.get(&url)).await;
    assert_eq!(s, 404);
    let (s, _) = send(c.delete(&url)).await;
    assert_eq!(s, 404);
    let (_, total) = list(&app, &c, "").await;
    assert_eq!(total, 0);

    let acts = app.get_json(&c, "/api/activities").await;
    let kinds: Vec<&str> = acts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "meeting_cancelled",
            "meeting_updated",
            "meeting_status_change",
            "meeting_scheduled"
        ]
    );
    assert!(
        acts.as_array()
            .unwrap()
            .iter()
            .all(|a| a["entityId"] == json!(id))
    );
    assert!(
        acts[2]["description"]
            .as_str()
            .unwrap()
            .contains("scheduled to confirmed")
    );
    app.stop().await;
}

/// The calendar's list and figures come from the meetings: upcoming ones soonest first (not past,
/// completed or cancelled), and the stats the seed names.
async fn calendar_meetings_and_stats(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let empty = app.get_json(&c, "/api/calendar/stats").await;
    assert_eq!(
        empty,
        json!({ "totalMeetings": 0, "upcomingMeetings": 0, "completedMeetings": 0, "averageMeetingDuration": 0 })
    );
    let at = |days: i64| jobs::time::to_rfc3339(now_ms() + days * 86_400_000);
    let later = create_ok(&app, &c, json!({ "title": "Later demo", "scheduledDate": at(5), "duration": 30, "location": "Showroom" })).await;
    let soon = create_ok(
        &app,
        &c,
        json!({ "title": "Soon visit", "scheduledDate": at(1), "duration": 90 }),
    )
    .await;
    let past = create_ok(
        &app,
        &c,
        json!({ "title": "Past call", "scheduledDate": at(-3), "duration": 45 }),
    )
    .await;
    let done = create_ok(
        &app,
        &c,
        json!({ "title": "Done later", "scheduledDate": at(2), "duration": 60 }),
    )
    .await;
    let (status, _) = send(
        c.put(app.url(&format!("/api/meetings/{}", done["id"].as_str().unwrap())))
            .json(&json!({ "status": "completed" })),
    )
    .await;
    assert_eq!(status, 200);
    let listed = app.get_json(&c, "/api/calendar/meetings").await;
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [soon["id"].as_str().unwrap(), later["id"].as_str().unwrap()],
        "{listed}"
    );
    assert_eq!(listed[1]["title"], "Later demo");
    assert_eq!(listed[1]["location"], "Showroom");
    assert_eq!(listed[1]["status"], "scheduled");
    assert_eq!(listed[1]["startTime"], later["scheduledDate"]);
    let one = app.get_json(&c, "/api/calendar/meetings?limit=1").await;
    assert_eq!(one.as_array().unwrap().len(), 1);
    let (status, body) = send(c.get(app.url("/api/calendar/meetings?limit=0"))).await;
    assert_eq!(status, 400, "{body}");
    let stats = app.get_json(&c, "/api/calendar/stats").await;
    // (30 + 90 + 45 + 60) / 4 = 56.25 minutes.
    assert_eq!(
        stats,
        json!({ "totalMeetings": 4, "upcomingMeetings": 2, "completedMeetings": 1, "averageMeetingDuration": 56 }),
        "past: {past}"
    );
    let (status, _) = send(reqwest::Client::new().get(app.url("/api/calendar/stats"))).await;
    assert_eq!(status, 401, "staff only");
    app.stop().await;
}

/// Each user's secret iCalendar feed: it parses as iCalendar and holds the upcoming meetings with
/// their times, places and notes; a forged or altered token opens nothing.
async fn calendar_feed(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let start = "2030-05-07T15:00:00.000Z";
    let m = create_ok(
        &app,
        &c,
        json!({ "title": "Walk-in tub demo", "scheduledDate": start, "duration": 45,
                "location": "Austin showroom", "agenda": "Measure the bathroom", "status": "confirmed" }),
    )
    .await;
    create_ok(
        &app,
        &c,
        json!({ "title": "Long gone", "scheduledDate": "2020-01-01T10:00:00Z" }),
    )
    .await;
    let url = app.get_json(&c, "/api/calendar/feed-url").await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let path = &url[url.find("/calendar/").unwrap()..];
    let res = reqwest::get(app.url(path)).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/calendar")
    );
    let body = res.text().await.unwrap();
    let cal: icalendar::Calendar = body.parse().unwrap();
    let events: Vec<&icalendar::Event> =
        cal.components.iter().filter_map(|c| c.as_event()).collect();
    assert_eq!(events.len(), 1, "only meetings from a week ago on: {body}");
    use icalendar::{Component, EventLike};
    let e = events[0];
    assert_eq!(e.get_summary(), Some("Walk-in tub demo"));
    assert_eq!(e.get_location(), Some("Austin showroom"));
    assert_eq!(e.get_description(), Some("Measure the bathroom"));
    assert!(e.get_uid().unwrap().starts_with(m["id"].as_str().unwrap()));
    let at = |t: icalendar::DatePerhapsTime| match t {
        // Times are written in UTC (`Z`), never floating.
        icalendar::DatePerhapsTime::DateTime(icalendar::CalendarDateTime::Utc(dt)) => {
            dt.to_rfc3339()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(at(e.get_start().unwrap()), "2030-05-07T15:00:00+00:00");
    assert_eq!(at(e.get_end().unwrap()), "2030-05-07T15:45:00+00:00");
    assert_eq!(e.get_status(), Some(icalendar::EventStatus::Confirmed));

    let token = path
        .trim_start_matches("/calendar/")
        .trim_end_matches(".ics");
    let forged = format!("/calendar/{}x.ics", token);
    for bad in [forged.as_str(), "/calendar/nothing.ics", "/calendar/"] {
        let (status, _) = send(reqwest::Client::new().get(app.url(bad))).await;
        assert_eq!(status, 404, "{bad}");
    }
    app.stop().await;
}

both_backends!(
    meeting_validation,
    meeting_create_defaults,
    meeting_list_status_and_order,
    meeting_status_rules,
    meeting_cancel_and_activities,
    calendar_meetings_and_stats,
    calendar_feed,
);
