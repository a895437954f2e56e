//! The OpenAI-compatible discovery provider against a wiremock server: success, 429 with Retry-After,
//! 5xx, timeouts, malformed and truncated answers; answers kept only when their website answers
//! (and never checked against a private address unless allowed); and a scan whose provider answers
//! garbage writes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use jobs::providers::Providers;
use jobs::providers::discovery::openai::SiteCheck;
use jobs::providers::discovery::{
    DiscoveryProvider, DiscoveryQuery, OpenAiDiscovery, ProviderError,
};
use jobs::providers::http::HttpPolicy;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(500),
        retries: 2,
        min_delay: Duration::from_millis(50),
        max_delay: Duration::from_secs(2),
        ..HttpPolicy::default()
    }
}

fn provider(server: &MockServer) -> OpenAiDiscovery {
    OpenAiDiscovery::new(
        &server.uri(),
        Some(jobs::config::Secret::new("sk-test".into())),
        "test-model",
        policy(),
    )
    // The websites in these answers are the mock server's, on loopback.
    .with_site_check(SiteCheck {
        timeout: Duration::from_millis(500),
        allow_private: true,
    })
}

/// The mock server answers a website check.
async fn site(server: &MockServer) {
    Mock::given(method("HEAD"))
        .respond_with(ResponseTemplate::new(200))
        .mount(server)
        .await;
}

fn completion(content: &Value, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": content.to_string()}}]
    })
}

/// An answer whose websites answer nowhere (nothing listens on port 9).
fn answer() -> Value {
    answer_at("http://127.0.0.1:9")
}

/// Two companies: one whose website is `site`, one invented (its website does not answer).
fn answer_at(site: &str) -> Value {
    json!({"companies": [{
        "name": "Bayou Access Baths", "industry": "Accessible Bathrooms", "companyType": "accessible-bath",
        "revenue": 8200000, "employees": 45, "website": site, "phone": "(225) 555-0199",
        "address": null, "city": "Baton Rouge", "state": "Louisiana", "zipCode": null, "description": null,
        "contacts": [{"firstName": "Renee", "lastName": "Broussard", "title": "Owner",
                      "email": "Renee@BayouAccess.example", "phone": "+1 225 344 7788", "linkedinUrl": null}]
    }, {
        "name": "Invented Baths", "industry": null, "companyType": null, "revenue": null, "employees": null,
        "website": "http://127.0.0.1:9", "phone": null, "address": null, "city": null, "state": "LA",
        "zipCode": null, "description": null, "contacts": []
    }]})
}

async fn search(
    p: &OpenAiDiscovery,
) -> (
    Result<(), ProviderError>,
    Vec<jobs::providers::discovery::FoundCompany>,
) {
    let (tx, mut rx) = tokio::sync::mpsc::channel(8);
    let q = DiscoveryQuery {
        region: Some("louisiana".into()),
        revenue_range: Some("5-10M".into()),
        company_type: Some("accessible-bath".into()),
        ..Default::default()
    };
    let r = p.search(&q, &tx).await;
    drop(tx);
    let mut found = Vec::new();
    while let Some(b) = rx.recv().await {
        found.extend(b);
    }
    (r, found)
}

#[tokio::test]
async fn asks_with_a_json_schema_and_parses_the_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(header("authorization", "Bearer sk-test"))
        .and(body_partial_json(
            json!({"model": "test-model", "response_format": {"type": "json_schema",
            "json_schema": {"name": "discovery_results", "strict": true}}}),
        ))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(completion(&answer_at(&server.uri()), "stop")),
        )
        .expect(1)
        .mount(&server)
        .await;
    site(&server).await;
    let (r, found) = search(&provider(&server)).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        found.len(),
        1,
        "the company whose website does not answer is dropped"
    );
    assert_eq!(found[0].name, "Bayou Access Baths");
    assert_eq!(
        found[0].phone, None,
        "a 555 number is not a plausible phone"
    );
    assert_eq!(
        found[0].contacts[0].phone.as_deref(),
        Some("(225) 344-7788")
    );
    assert_eq!(
        found[0].state.as_deref(),
        Some("LA"),
        "state name normalised"
    );
    assert_eq!(
        found[0].contacts[0].email.as_deref(),
        Some("renee@bayouaccess.example")
    );
    let request = &server.received_requests().await.unwrap()[0];
    let sent: Value = serde_json::from_slice(&request.body).unwrap();
    let prompt = sent["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("Region: louisiana.") && prompt.contains("between $5000000 and $10000000"),
        "{prompt}"
    );
}

#[tokio::test]
async fn rate_limit_waits_for_retry_after_then_succeeds() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "1")
                .set_body_string("slow down"),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(completion(&answer_at(&server.uri()), "stop")),
        )
        .mount(&server)
        .await;
    site(&server).await;
    let t = Instant::now();
    let (r, found) = search(&provider(&server)).await;
    assert!(r.is_ok() && found.len() == 1, "{r:?}");
    assert!(
        t.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured: {:?}",
        t.elapsed()
    );
    let posts = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .count();
    assert_eq!(posts, 2);
}

/// Without the test switch, a website on a private or loopback address never counts as answering:
/// the check does not become a way into the server's network.
#[tokio::test]
async fn site_checks_refuse_private_addresses() {
    let server = MockServer::start().await;
    site(&server).await;
    let allowed = SiteCheck {
        timeout: Duration::from_millis(500),
        allow_private: true,
    };
    assert!(jobs::providers::discovery::openai::site_answers(&server.uri(), &allowed).await);
    let guarded = SiteCheck {
        allow_private: false,
        ..allowed
    };
    assert!(!jobs::providers::discovery::openai::site_answers(&server.uri(), &guarded).await);
    assert!(!jobs::providers::discovery::openai::site_answers("ftp://example.com", &allowed).await);
    let before = server.received_requests().await.unwrap().len();
    assert_eq!(before, 1, "only the allowed check reached the server");
}

#[tokio::test]
async fn server_errors_retry_then_fail_as_transient() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503).set_body_string("upstream down"))
        .mount(&server)
        .await;
    let (r, found) = search(&provider(&server)).await;
    match r {
        Err(ProviderError::Transient(m)) => assert!(m.contains("HTTP 503"), "{m}"),
        other => panic!("expected a transient error, got {other:?}"),
    }
    assert!(found.is_empty());
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        3,
        "first try and two retries"
    );
}

#[tokio::test]
async fn timeouts_are_transient() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion(&answer(), "stop"))
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&server)
        .await;
    let t = Instant::now();
    let (r, _) = search(&provider(&server)).await;
    assert!(
        matches!(&r, Err(ProviderError::Transient(m)) if m.contains("timed out")),
        "{r:?}"
    );
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "each attempt stops at the timeout"
    );
}

#[tokio::test]
async fn malformed_truncated_and_refused_answers_are_rejected() {
    for (body, expect) in [
        (
            json!({"unexpected": true}).to_string(),
            "not a chat completion",
        ),
        (
            completion(&json!("not json"), "stop").to_string(),
            "does not match the schema",
        ),
        (
            completion(&json!({"companies": [{"name": "x"}]}), "stop").to_string(),
            "does not match the schema",
        ),
        (
            completion(&answer(), "length").to_string(),
            "cut off (finish_reason: length)",
        ),
        ("<html>oops</html>".to_string(), "not a chat completion"),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(200).set_body_string(body))
            .mount(&server)
            .await;
        let (r, found) = search(&provider(&server)).await;
        assert!(
            matches!(&r, Err(ProviderError::Invalid(m)) if m.contains(expect)),
            "{expect}: {r:?}"
        );
        assert!(found.is_empty(), "nothing half-parsed is passed on");
    }
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string("bad key"))
        .mount(&server)
        .await;
    let (r, _) = search(&provider(&server)).await;
    assert!(
        matches!(&r, Err(ProviderError::Invalid(m)) if m.contains("HTTP 401")),
        "{r:?}"
    );
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        1,
        "a refusal is not retried"
    );
}

/// Through the job: a garbage answer fails the scan and writes no company.
async fn garbage_answer_fails_the_scan_and_writes_nothing(db: TestDb) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion(&json!({"companies": "many"}), "stop")),
        )
        .mount(&server)
        .await;
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(Providers::embedded().with_discovery(Arc::new(provider(&server)))),
            ..Default::default()
        },
    )
    .await;
    let user = app.user().await;
    let res = user
        .post(app.url("/api/discovery/scan"))
        .json(&json!({"companyName": "Bayou"}))
        .send()
        .await
        .unwrap();
    let id = res.json::<Value>().await.unwrap()["jobId"]
        .as_str()
        .unwrap()
        .to_string();
    let failed = app
        .wait_status(&user, &id, "failed", Duration::from_secs(15))
        .await;
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("does not match the schema"),
        "{failed}"
    );
    assert_eq!(failed["attempts"], 1, "an unusable answer is not retried");
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies").await, 0);
    app.stop().await;
}

both_backends!(garbage_answer_fails_the_scan_and_writes_nothing);
