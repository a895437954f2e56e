//! A fuzz pass over every route of the OpenAPI document the api serves: malformed bodies, values
//! of the wrong type and at the edges for every field the schema names (and for the usual field
//! names where a body is checked field by field), odd path segments and query strings. No answer
//! may be a 5xx, and every 4xx is a JSON `{"message"}` (or, for links people open, a page). Every
//! route that takes a body is also sent the hostile uploads of `common::hostile`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use serde_json::{Map, Value, json};

/// Path segments: a well-formed id that does not exist, then the edges.
const PATH_VALUES: [&str; 6] = [
    "01J0000000000000000000000Z",
    "0",
    "-1",
    "99999999999999999999999999",
    "%00%27%22",
    "%F0%9F%98%80",
];

const QUERIES: [&str; 4] = [
    "limit=-1&offset=-5&page=0&pageSize=0",
    "limit=99999999999999999999&offset=1e9&page=abc",
    "q=%00%27%25_&search=%27%20OR%201%3D1--&status=zzz&state=ZZZ&stage=%F0%9F%98%80",
    "from=yesterday&until=2026-13-45&minutes=-3&kind=%00&sort=;DROP&order=sideways&days=1e999",
];

/// Bodies that are not the object a route expects at all.
const RAW_BODIES: [&str; 9] = [
    "",
    "{",
    "null",
    "[]",
    "\"text\"",
    "1e999",
    "{\"a\":",
    "{\"__proto__\":{}}",
    "\u{feff}{}",
];

/// Field names the hand-checked bodies use; tried where the schema says only "object".
const COMMON_FIELDS: [&str; 24] = [
    "name",
    "email",
    "firstName",
    "lastName",
    "status",
    "stage",
    "value",
    "probability",
    "title",
    "subject",
    "body",
    "content",
    "date",
    "time",
    "scheduledAt",
    "delayDays",
    "delayHours",
    "contactId",
    "companyId",
    "sequenceId",
    "isActive",
    "triggerType",
    "expectedCloseDate",
    "notes",
];

fn edge_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(""),
        json!("   "),
        json!("x".repeat(20_000)),
        json!("\u{0000}\u{202e}😀'\";--<script>"),
        json!("2026-02-30T25:61:00Z"),
        json!(0),
        json!(-1),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(1e308),
        json!(0.5),
        json!(true),
        json!([]),
        json!([null, {}, "x"]),
        json!({}),
        json!({"nested": {"deeper": [1, 2, 3]}}),
    ]
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap_or_default();
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// A plausible value of a schema type, so that one field at a time can be made wrong.
fn plausible(schema: &Value) -> Value {
    let ty = match &schema["type"] {
        Value::Array(types) => types
            .iter()
            .find(|t| *t != "null")
            .cloned()
            .unwrap_or(Value::Null),
        other => other.clone(),
    };
    match ty.as_str() {
        Some("string") => json!("Fuzz"),
        Some("integer") | Some("number") => json!(1),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        _ => json!("Fuzz"),
    }
}

/// Bodies for one route: its plausible object, then each field replaced by each edge value.
fn bodies(doc: &Value, op: &Value) -> Vec<String> {
    let schema = resolve(
        doc,
        &op["requestBody"]["content"]["application/json"]["schema"],
    );
    let mut base = Map::new();
    let fields: Vec<String> = match schema["properties"].as_object() {
        Some(props) => {
            for (k, v) in props {
                base.insert(k.clone(), plausible(resolve(doc, v)));
            }
            props.keys().cloned().collect()
        }
        None => {
            for k in COMMON_FIELDS {
                base.insert(k.into(), json!("Fuzz"));
            }
            COMMON_FIELDS.iter().map(|s| s.to_string()).collect()
        }
    };
    let mut out: Vec<String> = RAW_BODIES.iter().map(|s| s.to_string()).collect();
    out.push(Value::Object(base.clone()).to_string());
    for field in &fields {
        for v in edge_values() {
            let mut b = base.clone();
            b.insert(field.clone(), v);
            out.push(Value::Object(b).to_string());
        }
    }
    out
}

fn fill(path: &str, value: &str) -> String {
    path.split('/')
        .map(|seg| {
            if seg.starts_with('{') && seg.ends_with('}') {
                value
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

async fn no_server_error_for_any_input(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let doc = app.get_json(&admin, "/api/openapi.json").await;
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() > 80, "the whole api is described");

    let mut failures = Vec::new();
    let mut requests = 0usize;
    for (path, item) in paths {
        // Signing out would end the fuzzing session.
        if path.contains("logout") {
            continue;
        }
        for (method, op) in item.as_object().expect("path item") {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let has_params = path.contains('{');
            let mut urls: Vec<String> = if has_params {
                PATH_VALUES.iter().map(|v| fill(path, v)).collect()
            } else {
                vec![path.clone()]
            };
            if method == reqwest::Method::GET {
                let first = urls[0].clone();
                urls.extend(QUERIES.iter().map(|q| format!("{first}?{q}")));
            }
            let body_list = if op["requestBody"].is_object() {
                bodies(&doc, op)
            } else {
                Vec::new()
            };
            let mut cases: Vec<(String, Option<String>)> =
                urls.iter().map(|u| (u.clone(), None)).collect();
            cases.extend(body_list.into_iter().map(|b| (urls[0].clone(), Some(b))));
            for (url, body) in cases {
                let mut req = admin.request(method.clone(), app.url(&url));
                if let Some(b) = &body {
                    req = req
                        .header("content-type", "application/json")
                        .body(b.clone());
                }
                let res = req.send().await.expect("request");
                requests += 1;
                let status = res.status().as_u16();
                // Links people open (tracking, unsubscribe, sign-in link) answer with a page.
                let page = res
                    .headers()
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.starts_with("text/html"));
                let text = res.text().await.unwrap_or_default();
                let short = |s: &str| s.chars().take(160).collect::<String>();
                if status >= 500 {
                    failures.push(format!(
                        "{method} {url} {} -> {status} {}",
                        short(body.as_deref().unwrap_or("")),
                        short(&text)
                    ));
                } else if (400..500).contains(&status) && !page {
                    let message = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v["message"].as_str().map(str::to_string));
                    if message.is_none_or(|m| m.trim().is_empty()) {
                        failures.push(format!(
                            "{method} {url} {} -> {status} without a JSON message: {}",
                            short(body.as_deref().unwrap_or("")),
                            short(&text)
                        ));
                    }
                }
            }
        }
    }
    // Uploads: every hostile file (issue 19) to every route that takes a body, as the multipart
    // fields the upload routes read and as a raw CSV body.
    let hostile = common::hostile::all();
    for (path, item) in paths {
        if path.contains("logout") {
            continue;
        }
        let url = fill(path, PATH_VALUES[0]);
        for method in ["post", "put", "patch"] {
            if item.get(method).is_none() {
                continue;
            }
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            for h in &hostile {
                let form = |field: &str| {
                    reqwest::multipart::Form::new().part(
                        field.to_string(),
                        reqwest::multipart::Part::bytes(h.bytes.clone()).file_name(h.name),
                    )
                };
                let attempts = [
                    admin
                        .request(method.clone(), app.url(&url))
                        .multipart(form("file")),
                    admin
                        .request(method.clone(), app.url(&url))
                        .multipart(form("document")),
                    admin
                        .request(method.clone(), app.url(&url))
                        .header("content-type", "text/csv")
                        .body(h.bytes.clone()),
                ];
                for req in attempts {
                    // A route that refuses a body without reading it closes the connection: never
                    // reuse one for the next upload.
                    let res = req
                        .header("connection", "close")
                        .send()
                        .await
                        .expect("request");
                    requests += 1;
                    let status = res.status().as_u16();
                    // Links people open (the unsubscribe form) answer with a page.
                    let page = res
                        .headers()
                        .get("content-type")
                        .and_then(|v| v.to_str().ok())
                        .is_some_and(|v| v.starts_with("text/html"));
                    let text = res.text().await.unwrap_or_default();
                    let message = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v["message"].as_str().map(str::to_string));
                    if status >= 500
                        || ((400..500).contains(&status)
                            && !page
                            && message.is_none_or(|m| m.is_empty()))
                    {
                        failures.push(format!(
                            "{method} {url} upload {} -> {status} {}",
                            h.name,
                            text.chars().take(160).collect::<String>()
                        ));
                    }
                }
            }
        }
    }
    println!("{requests} requests");
    assert!(
        failures.is_empty(),
        "{} of {requests} answers broke the contract:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The session survived the whole pass, so every route really was tried signed in.
    let (status, _) = send(admin.get(app.url("/api/admin/user"))).await;
    assert_eq!(status, 200);
    app.stop().await;
}

both_backends!(no_server_error_for_any_input);
