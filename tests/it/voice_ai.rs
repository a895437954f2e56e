//! Voice agents, AI tools, AI documents, AI analytics and invoice emailing (seed 002 §2–§9, issue 10)
//! as callers see them: the seed's messages with nothing written on a refusal, simulated calls in
//! demo mode, the voice API against wiremock (idempotency key, 429 then success, refusals, malformed
//! answers) and its signed callbacks, AI tasks through a wiremock LLM and through the labelled template
//! fallbacks, documents told by content with their size limit, analytics computed from job runs, and an
//! invoice emailed with its PDF to the loopback SMTP server. Both backends.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::io::{Cursor, Write};
use std::time::Duration;

use common::smtp::SmtpSink;
use common::*;
use hmac::{Hmac, Mac};
use jobs::config::{Secret, VoiceSettings};
use jobs::providers::Providers;
use jobs::providers::http::HttpPolicy;
use jobs::providers::llm::Llm;
use jobs::providers::voice::VoiceApi;
use mail_parser::MimeHeaders;
use printpdf::{
    BuiltinFont, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, TextItem,
};
use reqwest::Client;
use serde_json::{Value, json};
use sha2::Sha256;
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SECRET: &str = "voice_webhook_secret";
const MISSING: &str =
    "Missing Information: Please select a contact, agent, and provide a call purpose";

fn fast() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(800),
        retries: 2,
        min_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(1500),
        ..HttpPolicy::default()
    }
}

async fn app_with(tdb: &TestDb, providers: Providers) -> TestApp {
    TestApp::spawn(
        tdb,
        AppOptions {
            providers: Some(providers),
            ..Default::default()
        },
    )
    .await
}

async fn contact(app: &TestApp, c: &Client, first: &str, phone: Option<&str>) -> String {
    let (s, v) = send(c.post(app.url("/api/contacts")).json(&json!({
        "firstName": first, "lastName": "Tester", "email": format!("{}@example.com", first.to_lowercase()),
        "phone": phone,
    })))
    .await;
    assert_eq!(s, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

async fn activities(app: &TestApp, c: &Client, contact_id: &str) -> Vec<Value> {
    let v = app.get_json(c, "/api/activities?limit=1000").await;
    v.as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["entityId"] == contact_id)
        .cloned()
        .collect()
}

fn sign(body: &str, t: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

fn now_secs() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn callback(app: &TestApp, body: &Value, signature: &str) -> u16 {
    let body = body.to_string();
    app.anonymous()
        .post(app.url("/api/webhooks/voice"))
        .header("content-type", "application/json")
        .header("x-voice-signature", signature)
        .body(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn voice_demo_mode_and_messages(tdb: TestDb) {
    let app = TestApp::spawn(&tdb, AppOptions::default()).await;
    let c = app.user().await;
    let health = app.get_json(&c, "/api/kojie/health").await;
    assert_eq!(health["status"], "demo");
    let agents = app.get_json(&c, "/api/kojie/voice-agents").await;
    assert_eq!(agents.as_array().unwrap().len(), 2, "{agents}");
    let agent = agents[0]["id"].as_str().unwrap().to_string();
    // The starting agents are dated when the database was made, not 1970.
    let seeded =
        chrono::DateTime::parse_from_rfc3339(agents[0]["createdAt"].as_str().unwrap()).unwrap();
    assert!(
        seeded.timestamp() > chrono::Utc::now().timestamp() - 3600,
        "{agents}"
    );

    // Agents are stored and editable.
    let (s, v) = send(
        c.post(app.url("/api/kojie/voice-agents"))
            .json(&json!({"name": "  "})),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("Agent name is required"))
    );
    let (s, v) = send(c.post(app.url("/api/kojie/voice-agents")).json(&json!({
        "name": "Renewal Agent", "capabilities": ["renewals", "Renewals", " upsell "]})))
    .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["capabilities"], json!(["renewals", "upsell"]));
    let renewal = v["id"].as_str().unwrap().to_string();
    let (s, v) = send(
        c.patch(app.url(&format!("/api/kojie/voice-agents/{renewal}")))
            .json(&json!({"status": "inactive"})),
    )
    .await;
    assert_eq!(
        (s, v["status"].as_str(), v["name"].as_str()),
        (200, Some("inactive"), Some("Renewal Agent"))
    );

    let with_phone = contact(&app, &c, "Pat", Some("+1 512 555 0100")).await;
    let without = contact(&app, &c, "Lee", None).await;
    let call = |body: Value| {
        let c = c.clone();
        let url = app.url("/api/kojie/voice-call");
        async move { send(c.post(url).json(&body)).await }
    };
    for body in [
        json!({"agentId": agent, "purpose": "Qualify"}),
        json!({"contactId": with_phone, "purpose": "Qualify"}),
        json!({"contactId": with_phone, "agentId": agent, "purpose": "   "}),
    ] {
        let (s, v) = call(body).await;
        assert_eq!((s, v["message"].as_str()), (422, Some(MISSING)));
    }
    let (s, v) = call(json!({"contactId": without, "agentId": agent, "purpose": "Qualify"})).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("This contact has no phone number"))
    );
    let (s, v) =
        call(json!({"contactId": with_phone, "agentId": renewal, "purpose": "Qualify"})).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("This agent is not active"))
    );
    let (s, _) = call(json!({"contactId": "nope", "agentId": agent, "purpose": "Qualify"})).await;
    assert_eq!(s, 404);
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM voice_calls").await, 0);

    // Demo mode: a simulated call, labelled as such, on the contact's history.
    let (s, v) = call(json!({"contactId": with_phone, "agentId": agent, "purpose": "Qualify for the dealer program"})).await;
    assert_eq!(s, 202, "{v}");
    assert_eq!(v["simulated"], true);
    let call_id = v["callId"].as_str().unwrap().to_string();
    app.wait_status(
        &c,
        v["jobId"].as_str().unwrap(),
        "succeeded",
        Duration::from_secs(10),
    )
    .await;
    let got = app
        .get_json(&c, &format!("/api/kojie/calls/{call_id}"))
        .await;
    assert_eq!(
        (got["status"].as_str(), got["simulated"].as_bool()),
        (Some("completed"), Some(true)),
        "{got}"
    );
    assert!(
        got["transcript"]
            .as_str()
            .unwrap()
            .starts_with("[Simulated call"),
        "{got}"
    );
    assert!(got["outcome"].is_null());
    let history = activities(&app, &c, &with_phone).await;
    assert!(
        history.iter().any(|a| a["description"]
            .as_str()
            .unwrap_or("")
            .starts_with("Simulated voice call (demo mode, not placed)")),
        "{history:?}"
    );
    let listed = app
        .get_json(&c, &format!("/api/kojie/calls?contactId={with_phone}"))
        .await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    // Without a voice service the callback endpoint refuses.
    assert_eq!(
        callback(
            &app,
            &json!({"id": "x", "status": "completed"}),
            "t=1,v1=00"
        )
        .await,
        400
    );
    app.stop().await;
}

fn voice_providers(server: &MockServer) -> Providers {
    Providers::embedded().with_voice(
        VoiceApi::new(VoiceSettings {
            api_url: server.uri(),
            api_key: Secret::new("voice_key_1".into()),
            webhook_secret: Secret::new(SECRET.into()),
        })
        .with_policy(fast()),
    )
}

async fn voice_api_and_signed_callbacks(tdb: TestDb) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/calls"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "0"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/calls"))
        .and(header("authorization", "Bearer voice_key_1"))
        .and(body_string_contains("+1 512 555 0100"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"id": "prov-1", "status": "queued"})),
        )
        .mount(&server)
        .await;
    let app = app_with(&tdb, voice_providers(&server)).await;
    let c = app.user().await;
    assert_eq!(
        app.get_json(&c, "/api/kojie/health").await["status"],
        "connected"
    );
    let pat = contact(&app, &c, "Pat", Some("+1 512 555 0100")).await;
    let (s, v) = send(c.post(app.url("/api/kojie/voice-call")).json(&json!({
        "contactId": pat, "agentId": "agent-qualify", "purpose": "Qualify"})))
    .await;
    assert_eq!(s, 202, "{v}");
    assert_eq!(v["simulated"], false);
    let call_id = v["callId"].as_str().unwrap().to_string();
    app.wait_status(
        &c,
        v["jobId"].as_str().unwrap(),
        "succeeded",
        Duration::from_secs(10),
    )
    .await;
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2, "429 then success");
    for r in &requests {
        assert_eq!(
            r.headers.get("idempotency-key").unwrap().to_str().unwrap(),
            call_id,
            "one key for both tries"
        );
    }
    let got = app
        .get_json(&c, &format!("/api/kojie/calls/{call_id}"))
        .await;
    assert_eq!(got["status"], "dialing");

    // A bad or stale signature changes nothing.
    let done = json!({"id": "prov-1", "status": "completed", "outcome": "qualified", "durationSeconds": 95,
                      "transcript": "Agent: Hi Pat...\nPat: We install 40 bathrooms a month.", "summary": "Good fit"});
    assert_eq!(
        callback(
            &app,
            &done,
            &sign(&done.to_string(), now_secs()).replace("v1=", "v1=00")
        )
        .await,
        400
    );
    assert_eq!(
        callback(&app, &done, &sign(&done.to_string(), now_secs() - 3600)).await,
        400
    );
    assert_eq!(
        app.get_json(&c, &format!("/api/kojie/calls/{call_id}"))
            .await["status"],
        "dialing"
    );

    let progress = json!({"id": "prov-1", "status": "in_progress"});
    assert_eq!(
        callback(&app, &progress, &sign(&progress.to_string(), now_secs())).await,
        204
    );
    assert_eq!(
        callback(&app, &done, &sign(&done.to_string(), now_secs())).await,
        204
    );
    let got = app
        .get_json(&c, &format!("/api/kojie/calls/{call_id}"))
        .await;
    assert_eq!(
        (
            got["status"].as_str(),
            got["outcome"].as_str(),
            got["durationSeconds"].as_i64()
        ),
        (Some("completed"), Some("qualified"), Some(95))
    );
    assert!(
        got["suggestedMeeting"]["startTime"]
            .as_str()
            .unwrap()
            .contains("T"),
        "{got}"
    );
    let person = app.get_json(&c, &format!("/api/contacts/{pat}")).await;
    assert_eq!(person["status"], "qualified");
    let history = activities(&app, &c, &pat).await;
    assert!(
        history.iter().any(|a| a["description"]
            .as_str()
            .unwrap_or("")
            .contains("We install 40 bathrooms a month.")),
        "{history:?}"
    );
    // A late failure after completion is ignored.
    let late = json!({"id": "prov-1", "status": "failed"});
    assert_eq!(
        callback(&app, &late, &sign(&late.to_string(), now_secs())).await,
        204
    );
    assert_eq!(
        app.get_json(&c, &format!("/api/kojie/calls/{call_id}"))
            .await["status"],
        "completed"
    );

    // Follow-ups are scheduled jobs.
    let (s, v) = send(c.post(app.url("/api/kojie/schedule-followup")).json(&json!({
        "contactId": pat, "agentId": "agent-followup", "purpose": "Check in", "scheduledFor": "2020-01-01T10:00:00Z"}))).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("Follow-up time must be in the future"))
    );
    let when = (chrono::Utc::now() + chrono::Duration::days(2)).to_rfc3339();
    let (s, v) = send(c.post(app.url("/api/kojie/schedule-followup")).json(&json!({
        "contactId": pat, "agentId": "agent-followup", "purpose": "Check in", "scheduledFor": when}))).await;
    assert_eq!((s, v["status"].as_str()), (202, Some("scheduled")), "{v}");
    assert_eq!(
        app.job(&c, v["jobId"].as_str().unwrap()).await["status"],
        "scheduled"
    );
    app.stop().await;
}

async fn voice_api_refusals_fail_the_call(tdb: TestDb) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/calls"))
        .and(body_string_contains("555 0100"))
        .respond_with(ResponseTemplate::new(400).set_body_string("{\"error\":\"invalid number\"}"))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/calls"))
        .and(body_string_contains("555 0200"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>gateway</html>"))
        .mount(&server)
        .await;
    let app = app_with(&tdb, voice_providers(&server)).await;
    let c = app.user().await;
    for (name, phone, expect) in [
        ("Ann", "+1 512 555 0100", "invalid number"),
        ("Bo", "+1 512 555 0200", "unreadable answer"),
    ] {
        let id = contact(&app, &c, name, Some(phone)).await;
        let (_, v) = send(c.post(app.url("/api/kojie/voice-call")).json(&json!({
            "contactId": id, "agentId": "agent-qualify", "purpose": "Qualify"})))
        .await;
        let job = app
            .wait_status(
                &c,
                v["jobId"].as_str().unwrap(),
                "failed",
                Duration::from_secs(10),
            )
            .await;
        assert!(job["error"].as_str().unwrap().contains(expect), "{job}");
        let call = app
            .get_json(
                &c,
                &format!("/api/kojie/calls/{}", v["callId"].as_str().unwrap()),
            )
            .await;
        assert_eq!(call["status"], "failed");
        assert!(call["error"].as_str().unwrap().contains(expect), "{call}");
    }
    // Refused at once: no retries of a 400.
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    app.stop().await;
}

fn completion(content: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"content": content.to_string()}, "finish_reason": "stop"}],
        "usage": {"total_tokens": 120},
    }))
}

fn llm_providers(server: &MockServer, vision: bool) -> Providers {
    Providers::embedded().with_llm(Llm::new(&server.uri(), None, "test-model", vision, fast()))
}

async fn ai_tools_templates_and_model(tdb: TestDb) {
    let app = TestApp::spawn(&tdb, AppOptions::default()).await;
    let c = app.user().await;
    let cases = [
        (
            "/api/ai/generate-content",
            json!({"type": "email", "context": {"description": "   "}}),
            "Please provide context for content generation",
        ),
        (
            "/api/ai/generate-content",
            json!({"type": "memo", "context": {"description": "x"}}),
            "Type must be one of email, proposal, report",
        ),
        (
            "/api/ai/generate-insights",
            json!({"data": {"a": 1}}),
            "Please provide valid JSON array data",
        ),
        (
            "/api/ai/sentiment-analysis",
            json!({"companyName": "Acme"}),
            "Company name and industry are required",
        ),
        (
            "/api/ai/market-intelligence",
            json!({"query": "growth"}),
            "Company name and query are required",
        ),
        (
            "/api/ai/generate-outreach",
            json!({"companyName": "Acme"}),
            "Contact name and company name are required",
        ),
    ];
    for (p, body, message) in cases {
        let (s, v) = send(c.post(app.url(p)).json(&body)).await;
        assert_eq!((s, v["message"].as_str()), (422, Some(message)), "{p}");
    }
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM jobs WHERE kind = 'ai_task'").await,
        0
    );

    // Template fallbacks say so, and work from the CRM's data.
    let (s, v) =
        send(c.post(app.url("/api/ai/generate-content")).json(
            &json!({"type": "proposal", "context": {"description": "Walk-in tubs for Dallas"}}),
        ))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["source"].as_str(), v["fallback"].as_bool()),
        (Some("template"), Some(true))
    );
    assert!(
        v["content"]
            .as_str()
            .unwrap()
            .contains("Walk-in tubs for Dallas")
    );
    assert!(v["message"].as_str().unwrap().contains("template fallback"));
    let (s, v) =
        send(c.post(app.url("/api/ai/generate-insights")).json(
            &json!({"data": [{"state": "TX", "revenue": 10}, {"state": "TX", "revenue": 30}]}),
        ))
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        v["insights"]
            .as_str()
            .unwrap()
            .contains("revenue: average 20"),
        "{v}"
    );
    let (s, v) = send(
        c.post(app.url("/api/companies"))
            .json(&json!({"name": "Bright Baths", "state": "TX"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let (s, v) = send(
        c.post(app.url("/api/ai/sentiment-analysis"))
            .json(&json!({"companyName": "bright baths", "industry": "Remodeling"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        v["keyFactors"][0]
            .as_str()
            .unwrap()
            .starts_with("Fit score"),
        "{v}"
    );
    assert!((0..=100).contains(&v["score"].as_i64().unwrap()));
    let (s, v) = send(c.post(app.url("/api/ai/generate-outreach")).json(&json!({"contactName": "Ann Lee", "companyName": "Acme", "companyData": {"city": "Austin", "state": "TX"}}))).await;
    assert_eq!(s, 200, "{v}");
    assert!(v["content"].as_str().unwrap().starts_with("Hi Ann,"));

    // Analytics count the runs.
    let a = app.get_json(&c, "/api/ai/analytics").await;
    let content = a["agentPerformance"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["agentId"] == "ai_task")
        .unwrap()
        .clone();
    assert_eq!(
        (
            content["totalTasks"].as_i64(),
            content["successfulTasks"].as_i64(),
            content["successRate"].as_str()
        ),
        (Some(4), Some(4), Some("1.00")),
        "{a}"
    );
    assert_eq!(a["modelPerformance"]["template"]["usage"], 4);
    // Each agent's last run is its newest job's end; an agent that never ran has none.
    let last: i64 = scalar(
        &app.db,
        "SELECT MAX(finished_at) FROM jobs WHERE kind = 'ai_task'",
    )
    .await;
    let shown = chrono::DateTime::parse_from_rfc3339(
        content["lastTrainingUpdate"].as_str().expect("a last run"),
    )
    .unwrap()
    .timestamp_millis();
    assert_eq!(shown, last, "{a}");
    let never = a["agentPerformance"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["agentId"] == "bulk_ai_score")
        .unwrap();
    assert!(never["lastTrainingUpdate"].is_null(), "{a}");
    // The default queue keeps finished runs a week: the counts cover that window.
    assert_eq!(a["jobRetentionDays"], 7.0);
    assert_eq!(a["totalAgents"], 6);
    let mcp = app.get_json(&c, "/api/mcp/status").await;
    let ai = mcp["activeConnections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["type"] == "ai")
        .unwrap()
        .clone();
    assert_eq!(ai["status"], "not_configured");
    assert_eq!(mcp["kojieConnection"]["status"], "demo");
    assert_eq!(mcp["automationPotential"]["ai"], 4);
    app.stop().await;

    // Through the model: its answer, labelled; provider trouble is a 502, never a silent template.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(body_string_contains("Walk-in tubs"))
        .respond_with(completion(
            json!({"content": "Dear dealer, from the model"}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(body_string_contains("market sentiment"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(body_string_contains("Market intelligence"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>oops</html>"))
        .mount(&server)
        .await;
    let tdb2 = TestDb::new(tdb.backend).await.unwrap();
    let app = app_with(&tdb2, llm_providers(&server, false)).await;
    let c = app.user().await;
    let (s, v) = send(
        c.post(app.url("/api/ai/generate-content"))
            .json(&json!({"type": "email", "context": {"description": "Walk-in tubs"}})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (
            v["content"].as_str(),
            v["source"].as_str(),
            v["fallback"].as_bool(),
            v["model"].as_str()
        ),
        (
            Some("Dear dealer, from the model"),
            Some("llm"),
            Some(false),
            Some("test-model")
        )
    );
    // What the campaigns' AI builder reads to offer Generate (a model) or the composer (none).
    let mcp = app.get_json(&c, "/api/mcp/status").await;
    let ai = mcp["activeConnections"]
        .as_array()
        .and_then(|cs| cs.iter().find(|x| x["type"] == "ai"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (&ai["status"], &ai["detail"]),
        (&json!("operational"), &json!("test-model")),
        "{mcp}"
    );
    let (s, v) = send(
        c.post(app.url("/api/ai/sentiment-analysis"))
            .json(&json!({"companyName": "Acme", "industry": "Baths"})),
    )
    .await;
    assert_eq!(s, 502, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("the AI provider is unavailable"),
        "{v}"
    );
    let (s, v) = send(
        c.post(app.url("/api/ai/market-intelligence"))
            .json(&json!({"companyName": "Acme", "query": "growth"})),
    )
    .await;
    assert_eq!(s, 502, "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("could not be used"),
        "{v}"
    );
    let a = app.get_json(&c, "/api/ai/analytics").await;
    assert_eq!(a["modelPerformance"]["test-model"]["usage"], 1, "{a}");
    assert!(
        a["modelPerformance"]["test-model"]["speed"]
            .as_str()
            .unwrap()
            .ends_with(" ms")
    );
    app.stop().await;
}

fn docx(lines: &[&str]) -> Vec<u8> {
    let mut buf = Cursor::new(Vec::new());
    let mut z = zip::ZipWriter::new(&mut buf);
    let opts = zip::write::SimpleFileOptions::default();
    z.start_file("word/document.xml", opts).unwrap();
    let body: String = lines
        .iter()
        .map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>"))
        .collect();
    write!(z, r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#).unwrap();
    z.finish().unwrap();
    buf.into_inner()
}

fn pdf(lines: &[&str]) -> Vec<u8> {
    let mut ops = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        ops.extend([
            Op::StartTextSection,
            Op::SetTextCursor {
                pos: Point::new(Mm(20.0), Mm(250.0 - 10.0 * i as f32)),
            },
            Op::SetFont {
                font: PdfFontHandle::Builtin(BuiltinFont::Helvetica),
                size: Pt(11.0),
            },
            Op::ShowText {
                items: vec![TextItem::Text((*l).to_string())],
            },
            Op::EndTextSection,
        ]);
    }
    PdfDocument::new("doc")
        .with_pages(vec![PdfPage::new(Mm(215.9), Mm(279.4), ops)])
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}

async fn upload(app: &TestApp, c: &Client, p: &str, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "document",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
    );
    send(c.post(app.url(p)).multipart(form)).await
}

async fn documents_read_by_content(tdb: TestDb) {
    let app = TestApp::spawn(&tdb, AppOptions::default()).await;
    let c = app.user().await;
    let invoice = [
        "Invoice Number: INV-77",
        "Bill To: Bright Baths LLC",
        "Due Date: 2026-12-15",
        "Grab bar kit 120.00",
        "Total: $130.20",
    ];
    let (s, v) = upload(
        &app,
        &c,
        "/api/ai/invoice-extract",
        "scan.docx",
        docx(&invoice),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let d = &v["extractedData"];
    assert_eq!(
        (
            d["invoiceNumber"].as_str(),
            d["customerName"].as_str(),
            d["totalAmount"].as_f64(),
            d["confidence"].as_i64()
        ),
        (
            Some("INV-77"),
            Some("Bright Baths LLC"),
            Some(130.2),
            Some(100)
        ),
        "{v}"
    );
    assert_eq!(v["fallback"], true);
    let (s, v) = upload(
        &app,
        &c,
        "/api/ai/document-analyze",
        "letter.bin",
        pdf(&[
            "Proposal for the spring season.",
            "Scope: 12 showrooms",
            "Pricing: $4,000 per showroom",
            "We propose a two-year dealer plan.",
        ]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["analysis"]["documentType"], "proposal", "{v}");
    assert_eq!(v["analysis"]["keyData"]["Scope"], "12 showrooms");
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM ai_documents").await,
        0,
        "uploads are deleted once read"
    );

    // Told by content: an image without a vision model, disguised files, size, no field.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let (s, v) = upload(
        &app,
        &c,
        "/api/ai/invoice-extract",
        "photo.png",
        png.clone(),
    )
    .await;
    assert_eq!(s, 422);
    assert!(v["message"].as_str().unwrap().contains("AI_VISION"), "{v}");
    for (name, bytes) in [
        ("invoice.pdf", b"name,price\nTub,10\n".to_vec()),
        ("a.docx", b"GIF89a....".to_vec()),
    ] {
        let (s, v) = upload(&app, &c, "/api/ai/document-analyze", name, bytes).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (
                415,
                Some("Unsupported document type: upload a JPG, PNG, PDF, DOC or DOCX file")
            )
        );
    }
    let one_shot = Client::builder()
        .cookie_store(true)
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let (s, _) = send(
        one_shot
            .post(app.url("/api/login"))
            .json(&json!({"email": USER_EMAIL, "password": PASSWORD})),
    )
    .await;
    assert_eq!(s, 200);
    let mut big = b"%PDF-1.4\n".to_vec();
    big.resize(15 * 1024 * 1024 + 10, b'a');
    let (s, v) = upload(&app, &one_shot, "/api/ai/document-analyze", "big.pdf", big).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (413, Some("Documents must be 15 MB or smaller"))
    );
    let form = reqwest::multipart::Form::new().text("other", "x");
    let (s, v) = send(c.post(app.url("/api/ai/invoice-extract")).multipart(form)).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("Choose a document to upload"))
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'document_ai'"
        )
        .await,
        2
    );
    app.stop().await;

    // A vision model reads the image itself.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(body_string_contains("data:image/png;base64,"))
        .respond_with(completion(
            json!({"invoiceNumber": "IMG-1", "customerName": "Acme", "totalAmount": 99.5,
                                        "dueDate": null, "confidence": 88, "lineItems": []}),
        ))
        .mount(&server)
        .await;
    let tdb2 = TestDb::new(tdb.backend).await.unwrap();
    let app = app_with(&tdb2, llm_providers(&server, true)).await;
    let c = app.user().await;
    let (s, v) = upload(&app, &c, "/api/ai/invoice-extract", "photo.jpg", png).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (
            v["extractedData"]["invoiceNumber"].as_str(),
            v["source"].as_str()
        ),
        (Some("IMG-1"), Some("llm"))
    );
    app.stop().await;
}

async fn long_ai_work_answers_202(tdb: TestDb) {
    let app = TestApp::spawn(
        &tdb,
        AppOptions {
            worker: false,
            ai_wait: Duration::from_millis(300),
            ..Default::default()
        },
    )
    .await;
    let c = app.user().await;
    let res = c
        .post(app.url("/api/ai/generate-insights"))
        .json(&json!({"data": [1, 2, 3]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let location = res
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let v: Value = res.json().await.unwrap();
    assert_eq!(
        location,
        format!("/api/jobs/{}", v["jobId"].as_str().unwrap())
    );
    let mut app = app;
    app.start_worker().await;
    let job = app
        .wait_status(
            &c,
            v["jobId"].as_str().unwrap(),
            "succeeded",
            Duration::from_secs(10),
        )
        .await;
    assert!(
        job["result"]["insights"]
            .as_str()
            .unwrap()
            .contains("values: average 2"),
        "{job}"
    );
    app.stop().await;
}

async fn invoice_emailed_with_its_pdf(tdb: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&tdb, Providers::embedded().with_mailing(sink.mailing(None))).await;
    let c = app.user().await;
    let mut body = json!({
        "invoiceNumber": "INV-MAIL-1", "customerName": "Sunrise Bath", "customerEmail": "ap@sunrise.example",
        "date": "2026-11-02", "lineItems": [{"description": "Grab bar", "quantity": 2, "unitPrice": "19.99"}],
    });
    let (s, inv) = send(c.post(app.url("/api/invoices")).json(&body)).await;
    assert_eq!(s, 201, "{inv}");
    let id = inv["id"].as_str().unwrap().to_string();
    let (s, v) = send(c.post(app.url(&format!("/api/invoices/{id}/send")))).await;
    assert_eq!(s, 202, "{v}");
    app.wait_status(
        &c,
        v["jobId"].as_str().unwrap(),
        "succeeded",
        Duration::from_secs(15),
    )
    .await;
    let messages = sink.wait_for(1, Duration::from_secs(5)).await;
    assert_eq!(messages.len(), 1);
    let raw = &messages[0].raw;
    let parsed = common::smtp::parse(raw);
    assert_eq!(
        parsed.subject(),
        Some("Invoice INV-MAIL-1 from Partnerships")
    );
    assert!(messages[0].to.iter().any(|t| t == "ap@sunrise.example"));
    let attachment = parsed.attachments().next().expect("a PDF attachment");
    assert_eq!(attachment.attachment_name(), Some("invoice-INV-MAIL-1.pdf"));
    assert!(attachment.contents().starts_with(b"%PDF-"));
    assert!(
        parsed.body_text(0).unwrap().contains("$43.38"),
        "{:?}",
        parsed.body_text(0)
    );
    assert_eq!(
        app.get_json(&c, &format!("/api/invoices/{id}")).await["status"],
        "sent"
    );

    body["invoiceNumber"] = json!("INV-MAIL-2");
    body["customerEmail"] = json!("");
    let (_, inv2) = send(c.post(app.url("/api/invoices")).json(&body)).await;
    let (s, v) = send(c.post(app.url(&format!(
        "/api/invoices/{}/send",
        inv2["id"].as_str().unwrap()
    ))))
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("This invoice has no customer email"))
    );
    let (s, _) = send(
        c.patch(app.url(&format!("/api/invoices/{id}")))
            .json(&json!({"status": "paid"})),
    )
    .await;
    assert_eq!(s, 200);
    let (s, _) = send(c.post(app.url(&format!("/api/invoices/{id}/send")))).await;
    assert_eq!(s, 409);
    assert_eq!(sink.count(), 1);
    app.stop().await;
}

/// The email is recorded before it is handed to the mail server: while the record cannot be written
/// nothing is sent (a run that dies after sending can never send again), and once it can, exactly
/// one email goes out (issue 19).
async fn invoice_email_recorded_before_it_is_sent(tdb: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&tdb, Providers::embedded().with_mailing(sink.mailing(None))).await;
    let c = app.user().await;
    let body = json!({
        "invoiceNumber": "INV-ONCE-1", "customerName": "Sunrise Bath", "customerEmail": "ap@sunrise.example",
        "date": "2026-11-02", "lineItems": [{"description": "Grab bar", "quantity": 1, "unitPrice": "19.99"}],
    });
    let (s, inv) = send(c.post(app.url("/api/invoices")).json(&body)).await;
    assert_eq!(s, 201, "{inv}");
    let id = inv["id"].as_str().unwrap().to_string();
    // Reads of the table work, writes fail: the old order (send, then record) sent on every try.
    match &app.db {
        jobs::db::Db::Sqlite(p) => {
            sqlx::query(
                "CREATE TRIGGER refuse_record BEFORE INSERT ON invoice_emails \
                 BEGIN SELECT RAISE(ABORT, 'disk full'); END",
            )
            .execute(p.write())
            .await
            .unwrap();
        }
        jobs::db::Db::Postgres(p) => {
            sqlx::raw_sql(
                "CREATE FUNCTION refuse_record() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'disk full'; END $$; \
                 CREATE TRIGGER refuse_record BEFORE INSERT ON invoice_emails \
                 FOR EACH ROW EXECUTE FUNCTION refuse_record();",
            )
            .execute(p.write())
            .await
            .unwrap();
        }
    }
    let (s, v) = send(c.post(app.url(&format!("/api/invoices/{id}/send")))).await;
    assert_eq!(s, 202, "{v}");
    let job_id = v["jobId"].as_str().unwrap().to_string();
    eventually(Duration::from_secs(15), "two failed tries", || async {
        let job = app.job(&c, &job_id).await;
        (job["attempts"].as_i64().unwrap_or(0) >= 2).then_some(())
    })
    .await;
    assert_eq!(sink.count(), 0, "nothing sent while it cannot be recorded");
    match &app.db {
        jobs::db::Db::Sqlite(p) => {
            sqlx::query("DROP TRIGGER refuse_record")
                .execute(p.write())
                .await
                .unwrap();
        }
        jobs::db::Db::Postgres(p) => {
            sqlx::query("DROP TRIGGER refuse_record ON invoice_emails")
                .execute(p.write())
                .await
                .unwrap();
        }
    }
    app.wait_status(&c, &job_id, "succeeded", Duration::from_secs(20))
        .await;
    assert_eq!(sink.wait_for(1, Duration::from_secs(5)).await.len(), 1);
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM invoice_emails").await,
        1
    );
    app.stop().await;
}

/// Documents made to take the worker down are refused at upload with a message naming the limit;
/// none is stored and the server goes on answering (issue 19).
async fn documents_hostile_files_refused(tdb: TestDb) {
    let app = TestApp::spawn(&tdb, AppOptions::default()).await;
    let c = app.user().await;
    let expect = [
        ("bomb.docx", 413, "unpacks to more than"),
        ("nested.docx", 422, "nested more than 100 levels"),
        ("long.pdf", 413, "more than 500 pages"),
        ("sparse.xlsx", 415, "Unsupported document type"),
        ("bomb.xlsx", 415, "Unsupported document type"),
    ];
    for h in common::hostile::all() {
        let Some((_, code, says)) = expect.iter().find(|(n, _, _)| *n == h.name) else {
            continue;
        };
        for route in ["/api/ai/invoice-extract", "/api/ai/document-analyze"] {
            let (got, v) = upload(&app, &c, route, h.name, h.bytes.clone()).await;
            let message = v["message"].as_str().unwrap_or_default();
            assert_eq!(got, *code, "{route} {}: {v}", h.name);
            assert!(message.contains(says), "{route} {}: {message}", h.name);
        }
    }
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM ai_documents").await,
        0
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'document_ai'"
        )
        .await,
        0
    );
    let (s, v) = upload(
        &app,
        &c,
        "/api/ai/invoice-extract",
        "ok.docx",
        docx(&["Invoice Number: INV-9"]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    app.stop().await;
}

both_backends!(
    voice_demo_mode_and_messages,
    voice_api_and_signed_callbacks,
    voice_api_refusals_fail_the_call,
    ai_tools_templates_and_model,
    documents_read_by_content,
    documents_hostile_files_refused,
    long_ai_work_answers_202,
    invoice_emailed_with_its_pdf,
    invoice_email_recorded_before_it_is_sent,
);
