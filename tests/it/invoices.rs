//! Invoicing (seed 002 §3–§9) as callers see it: the invoice form's messages with nothing written on a
//! refusal, totals to the cent with tax after the discount, the seed's defaults, no 3-line demo cap,
//! list filters, status changes with paid as final, the PDF rendered by the job and named by number,
//! Stripe PaymentIntents against wiremock (idempotency key, 429 then success, 500, refusals,
//! malformed answers), the webhook's signature check and the invoice it marks paid, demo payments
//! without Stripe, and catalog uploads (CSV, xlsx, PDF and disguised files). Both backends.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::*;
use hmac::{Hmac, Mac};
use jobs::config::StripeSettings;
use jobs::providers::Providers;
use jobs::providers::http::HttpPolicy;
use jobs::providers::stripe::Stripe;
use printpdf::{PdfDocument, PdfParseOptions};
use reqwest::Client;
use serde_json::{Value, json};
use sha2::Sha256;
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const WEBHOOK_SECRET: &str = "whsec_test_secret";

fn valid_invoice(number: &str) -> Value {
    json!({
        "invoiceNumber": number,
        "customerName": "Sunrise Bath & Co",
        "customerEmail": "ap@sunrise.example",
        "billingAddress": "12 Main St\nAustin, TX 78701",
        "taxRate": 8.5,
        "discountAmount": "10",
        "date": "2026-11-02",
        "lineItems": [
            { "description": "Grab bar", "quantity": 3, "unitPrice": 19.99 },
            { "productId": "p-tub", "description": "Walk-in tub deposit", "quantity": "1", "unitPrice": "100.00" },
        ],
        // The client's totals are ignored: the server computes them.
        "totals": { "totalAmount": 1 },
    })
}

async fn create(app: &TestApp, c: &Client, body: &Value) -> Value {
    let (status, v) = send(c.post(app.url("/api/invoices")).json(body)).await;
    assert_eq!(status, 201, "{v}");
    v
}

async fn invoice_count(app: &TestApp) -> i64 {
    scalar(&app.db, "SELECT COUNT(*) FROM invoices").await
}

async fn invoice_form_messages_and_nothing_written(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let cases = [
        (
            json!({ "customerName": "  " }),
            "customerName",
            "Customer name is required",
        ),
        (
            json!({ "customerEmail": "not-an-email" }),
            "customerEmail",
            "Valid email required",
        ),
        (
            json!({ "taxRate": 100.5 }),
            "taxRate",
            "Tax rate must be between 0 and 100",
        ),
        (
            json!({ "taxRate": -1 }),
            "taxRate",
            "Tax rate must be between 0 and 100",
        ),
        (
            json!({ "discountAmount": -5 }),
            "discountAmount",
            "Discount must be an amount of at least 0",
        ),
        (
            json!({ "lineItems": [] }),
            "lineItems",
            "Add at least one line item",
        ),
        (
            json!({ "lineItems": [{ "description": "x", "quantity": 0, "unitPrice": 1 }] }),
            "lineItems[0].quantity",
            "Quantity must be a whole number of at least 1",
        ),
        (
            json!({ "lineItems": [{ "description": "x", "quantity": 1, "unitPrice": "1.999" }] }),
            "lineItems[0].unitPrice",
            "Unit price must be an amount in dollars with at most 2 decimals",
        ),
        (
            json!({ "lineItems": [{ "description": " ", "quantity": 1, "unitPrice": 1 }] }),
            "lineItems[0].description",
            "Line item description is required",
        ),
        (
            json!({ "dueDate": "2026-10-01" }),
            "dueDate",
            "Due date must not be before the invoice date",
        ),
        (
            json!({ "date": "22/11/2026" }),
            "date",
            "Date must be a date (YYYY-MM-DD)",
        ),
    ];
    for (patch, field, message) in cases {
        let mut body = valid_invoice("INV-BAD");
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, v) = send(c.post(app.url("/api/invoices")).json(&body)).await;
        assert_eq!(status, 422, "{field}: {v}");
        assert_eq!(v["errors"][field], message, "{v}");
    }
    // The seed's "Maximum 3 line items allowed in this demo" is lifted; a sane maximum stays.
    let mut many = valid_invoice("INV-MANY");
    many["lineItems"] = json!(
        (0..201)
            .map(|i| json!({ "description": format!("Item {i}"), "quantity": 1, "unitPrice": 1 }))
            .collect::<Vec<_>>()
    );
    let (status, v) = send(c.post(app.url("/api/invoices")).json(&many)).await;
    assert_eq!(status, 422);
    assert_eq!(v["message"], "At most 200 line items per invoice");
    // Malformed JSON and a list body are 400/422, never a 500.
    let (status, _) = send(
        c.post(app.url("/api/invoices"))
            .header("content-type", "application/json")
            .body("{\"customerName\":"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(invoice_count(&app).await, 0, "nothing written");
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM jobs").await, 0);
    app.stop().await;
}

async fn totals_defaults_list_and_filters(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let v = create(&app, &c, &valid_invoice("INV-1001")).await;
    // 3 × 19.99 + 100 = 159.97; − 10 = 149.97; 8.5 % = 12.74745 → 12.75; total 162.72.
    assert_eq!(v["totals"]["subtotal"], 159.97);
    assert_eq!(v["totals"]["discountAmount"], 10.0);
    assert_eq!(v["totals"]["taxAmount"], 12.75);
    assert_eq!(v["totalAmount"], 162.72);
    assert_eq!(v["status"], "draft", "a new invoice starts draft");
    assert_eq!(v["date"], "2026-11-02");
    assert_eq!(v["dueDate"], "2026-12-02", "30 days after");
    assert_eq!(v["lineItems"].as_array().unwrap().len(), 2);
    assert_eq!(v["lineItems"][0]["totalPrice"], 59.97);
    assert_eq!(v["lineItems"][1]["productId"], "p-tub");
    assert!(v["pdfJobId"].is_string(), "the PDF is rendered by a job");
    assert_eq!(
        scalar(&app.db, "SELECT total_cents FROM invoices").await,
        16_272,
        "stored as integers of cents"
    );

    // Defaults: the year's first number, today, tax 8.5 when the field is emptied, 5 line items fine.
    let mut minimal = json!({
        "customerName": "Blue Ridge Remodeling",
        "taxRate": "",
        "lineItems": (0..5).map(|i| json!({ "description": format!("Line {i}"), "quantity": 2, "unitPrice": "0.10" })).collect::<Vec<_>>(),
    });
    let d = create(&app, &c, &minimal).await;
    let year = chrono::Utc::now().date_naive().format("%Y").to_string();
    assert_eq!(d["invoiceNumber"], format!("INV-{year}-0001"));
    assert_eq!(d["taxRate"], 8.5);
    assert_eq!(d["date"], chrono::Utc::now().date_naive().to_string());
    assert_eq!(d["totals"]["subtotal"], 1.0);
    assert_eq!(
        d["totalAmount"], 1.09,
        "1.00 + 8.5 % = 1.085 → 1.09 (half up)"
    );
    // The same number again is a conflict, and writes nothing.
    minimal["invoiceNumber"] = json!("INV-1001");
    let (status, v) = send(c.post(app.url("/api/invoices")).json(&minimal)).await;
    assert_eq!(
        (status, v["message"].as_str()),
        (409, Some("Invoice number already exists"))
    );
    assert_eq!(invoice_count(&app).await, 2);

    let list = |q: &str| {
        let c = c.clone();
        let url = app.url(&format!("/api/invoices{q}"));
        async move {
            let res = c.get(url).send().await.unwrap();
            assert_eq!(res.status(), 200);
            let total = res.headers()["x-total-count"].to_str().unwrap().to_string();
            let v: Value = res.json().await.unwrap();
            let numbers: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["invoiceNumber"].as_str().unwrap().to_string())
                .collect();
            (numbers, total)
        }
    };
    let (all, total) = list("").await;
    assert_eq!((all.len(), total.as_str()), (2, "2"));
    assert_eq!(list("?search=sunrise").await.0, vec!["INV-1001"]);
    assert_eq!(list("?search=inv-1001").await.0, vec!["INV-1001"]);
    assert_eq!(list("?status=draft").await.0.len(), 2);
    assert!(list("?status=paid").await.0.is_empty());
    assert_eq!(
        list("?dateFrom=2026-11-01&dateTo=2026-11-02").await.0,
        vec!["INV-1001"]
    );
    assert!(list("?dateTo=2026-11-01").await.0.is_empty());

    // The history's tiles count every invoice the filters match (the board shows one page).
    let summary = |q: &str| {
        let c = c.clone();
        let url = app.url(&format!("/api/invoices/summary{q}"));
        async move {
            let (status, v) = send(c.get(url)).await;
            assert_eq!(status, 200, "{v}");
            v
        }
    };
    let all = summary("").await;
    assert_eq!(
        (&all["count"], &all["totalAmount"]),
        (&json!(2), &json!(163.81))
    );
    assert_eq!(all["outstanding"], json!({ "count": 0, "amount": 0.0 }));
    let minimal_id = d["id"].as_str().unwrap();
    let (status, v) = send(
        c.patch(app.url(&format!("/api/invoices/{minimal_id}")))
            .json(&json!({ "status": "overdue" })),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let all = summary("").await;
    assert_eq!(all["outstanding"], json!({ "count": 1, "amount": 1.09 }));
    assert_eq!(all["overdue"], json!({ "count": 1, "amount": 1.09 }));
    assert_eq!(all["paid"], json!({ "count": 0, "amount": 0.0 }));
    let sunrise = summary("?search=sunrise&status=draft").await;
    assert_eq!(
        (&sunrise["count"], &sunrise["totalAmount"]),
        (&json!(1), &json!(162.72))
    );
    assert_eq!(sunrise["overdue"]["count"], 0);
    let (status, _) = send(c.get(app.url("/api/invoices/summary?status=lost"))).await;
    assert_eq!(status, 400);

    let (status, v) = send(c.get(app.url("/api/invoices?status=lost"))).await;
    assert_eq!(status, 400, "{v}");
    let (status, _) = send(c.get(app.url("/api/invoices?dateFrom=yesterday"))).await;
    assert_eq!(status, 400);
    let (status, _) = send(app.anonymous().get(app.url("/api/invoices"))).await;
    assert_eq!(status, 401);
    app.stop().await;
}

/// The Invoice History table's reads: every sort key in both directions, pages that join up into
/// the whole sorted list (ties broken on id, nothing repeated or skipped), the filter's total on
/// every page, and clear refusals for an unknown key, direction or page size.
async fn list_pages_sorts_and_totals(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    // (number, customer, date, unit price): amounts tie twice, dates tie once.
    let rows = [
        ("INV-2026-0010", "delta Baths", "2026-03-01", "50.00"),
        ("INV-2026-0002", "Alpha Remodel", "2026-01-15", "20.00"),
        ("INV-2026-0009", "Charlie Access", "2026-02-01", "50.00"),
        ("INV-2026-0001", "bravo Home", "2026-01-15", "75.50"),
        ("INV-2026-0011", "Echo Tubs", "2026-04-20", "5.00"),
        ("INV-2026-0003", "Foxtrot Bath", "2026-02-10", "20.00"),
        ("INV-2026-0004", "Golf Mobility", "2026-05-05", "300.00"),
    ];
    for (number, customer, date, price) in rows {
        let body = json!({
            "invoiceNumber": number,
            "customerName": customer,
            "customerEmail": "billing@example.com",
            "taxRate": 0,
            "date": date,
            "lineItems": [{ "description": "Grab bar", "quantity": 1, "unitPrice": price }],
        });
        create(&app, &c, &body).await;
    }
    let first = create(
        &app,
        &c,
        &json!({
            "invoiceNumber": "INV-2026-0012",
            "customerName": "Hotel Homes",
            "taxRate": 0,
            "date": "2026-06-01",
            "lineItems": [{ "description": "Rail", "quantity": 2, "unitPrice": "10.00" }],
        }),
    )
    .await;
    let id = first["id"].as_str().unwrap().to_string();
    let (status, v) = send(
        c.patch(app.url(&format!("/api/invoices/{id}")))
            .json(&json!({ "status": "paid" })),
    )
    .await;
    assert_eq!(status, 200, "{v}");

    let page = |q: String| {
        let c = c.clone();
        let url = app.url(&format!("/api/invoices?{q}"));
        async move {
            let res = c.get(url).send().await.unwrap();
            let status = res.status().as_u16();
            let total = res
                .headers()
                .get("x-total-count")
                .map(|h| h.to_str().unwrap().to_string());
            let v: Value = res.json().await.unwrap();
            (status, total, v)
        }
    };
    let numbers = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["invoiceNumber"].as_str().unwrap().to_string())
            .collect()
    };
    let sorted = |key: &str, dir: &str| {
        let q = format!("sort={key}&dir={dir}");
        let page = &page;
        async move {
            let (status, total, v) = page(q).await;
            assert_eq!((status, total.as_deref()), (200, Some("8")), "{v}");
            numbers(&v)
        }
    };

    // Series order, not text order alone: 0002 < 0010.
    assert_eq!(
        sorted("number", "asc").await,
        [
            "INV-2026-0001",
            "INV-2026-0002",
            "INV-2026-0003",
            "INV-2026-0004",
            "INV-2026-0009",
            "INV-2026-0010",
            "INV-2026-0011",
            "INV-2026-0012"
        ]
    );
    // Customer ignores case.
    assert_eq!(
        sorted("customer", "asc").await,
        [
            "INV-2026-0002",
            "INV-2026-0001",
            "INV-2026-0009",
            "INV-2026-0010",
            "INV-2026-0011",
            "INV-2026-0003",
            "INV-2026-0004",
            "INV-2026-0012"
        ]
    );
    let by_amount = sorted("amount", "desc").await;
    assert_eq!(by_amount[0], "INV-2026-0004", "300.00 first");
    assert_eq!(by_amount[1], "INV-2026-0001", "75.50 next");
    assert_eq!(by_amount.last().unwrap(), "INV-2026-0011", "5.00 last");
    // Without `dir` the key's default applies: amount runs descending.
    let (_, _, v) = page("sort=amount".into()).await;
    assert_eq!(numbers(&v), by_amount);
    let mut reversed = by_amount.clone();
    reversed.reverse();
    assert_eq!(
        sorted("amount", "asc").await,
        reversed,
        "ties on amount break on id both ways, so asc is desc reversed"
    );
    let by_date = sorted("date", "asc").await;
    assert!(
        by_date[..2].contains(&"INV-2026-0001".to_string())
            && by_date[..2].contains(&"INV-2026-0002".to_string()),
        "the two January invoices first: {by_date:?}"
    );
    assert_eq!(by_date.last().unwrap(), "INV-2026-0012");
    assert_eq!(sorted("dueDate", "desc").await[0], "INV-2026-0012");
    assert_eq!(
        sorted("status", "desc").await[0],
        "INV-2026-0012",
        "paid after draft"
    );
    assert_eq!(sorted("created", "asc").await[0], "INV-2026-0010");
    // No sort: newest first, as existing callers read it; the shape is unchanged.
    let (_, total, v) = page(String::new()).await;
    assert_eq!(total.as_deref(), Some("8"));
    assert_eq!(numbers(&v)[0], "INV-2026-0012");
    assert_eq!(v[0]["lineItems"][0]["quantity"], 2);
    assert_eq!(v[0]["totals"]["totalAmount"], 20.0);

    // Pages of 3 join up into the whole sorted list; every page carries the filter's total.
    for (key, dir) in [
        ("amount", "desc"),
        ("customer", "asc"),
        ("date", "desc"),
        ("status", "asc"),
    ] {
        let whole = sorted(key, dir).await;
        let mut joined = Vec::new();
        for offset in [0, 3, 6] {
            let (status, total, v) =
                page(format!("sort={key}&dir={dir}&limit=3&offset={offset}")).await;
            assert_eq!((status, total.as_deref()), (200, Some("8")));
            joined.extend(numbers(&v));
        }
        assert_eq!(joined, whole, "{key} {dir}");
    }
    let (_, _, v) = page("sort=amount&limit=3&offset=8".into()).await;
    assert!(numbers(&v).is_empty(), "past the end is an empty page");
    // With a filter the total is the filter's.
    let (status, total, v) = page("status=draft&sort=amount&dir=asc&limit=2".into()).await;
    assert_eq!((status, total.as_deref()), (200, Some("7")));
    let cheapest = numbers(&v);
    assert_eq!(cheapest.len(), 2);
    assert_eq!(cheapest[0], "INV-2026-0011", "5.00 first");
    assert!(
        ["INV-2026-0002", "INV-2026-0003"].contains(&cheapest[1].as_str()),
        "then a draft at 20.00: {cheapest:?}"
    );
    let (_, total, v) = page("search=bath&sort=customer".into()).await;
    assert_eq!(total.as_deref(), Some("2"));
    assert_eq!(numbers(&v), ["INV-2026-0010", "INV-2026-0003"]);

    // Refusals: 422 naming the field, 400 for a page out of range; never a 500.
    let (status, _, v) = page("sort=total_cents".into()).await;
    assert_eq!(status, 422, "{v}");
    assert!(
        v["errors"]["sort"].as_str().unwrap().contains("number"),
        "{v}"
    );
    let (status, _, v) = page("sort=amount&dir=sideways".into()).await;
    assert_eq!(status, 422, "{v}");
    assert!(v["errors"]["dir"].is_string(), "{v}");
    let (status, _, v) = page("sort=amount;DROP TABLE invoices".into()).await;
    assert_eq!(status, 422, "{v}");
    for q in ["limit=0", "limit=1001", "offset=-1"] {
        let (status, _, v) = page(q.into()).await;
        assert_eq!(status, 400, "{q}: {v}");
    }
    assert_eq!(invoice_count(&app).await, 8);
    app.stop().await;
}

/// Numbers left blank run in series per year of the invoice date, skipping typed ones, and saves
/// at the same moment never share one.
async fn blank_numbers_run_in_series(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let dated = |date: &str| {
        let mut v = valid_invoice("");
        v["date"] = json!(date);
        v
    };
    let next = |date: &str| {
        let url = app.url(&format!("/api/invoices/next-number?date={date}"));
        let c = c.clone();
        async move { send(c.get(url)).await }
    };
    assert_eq!(next("2026-03-01").await.1["invoiceNumber"], "INV-2026-0001");
    assert_eq!(
        create(&app, &c, &dated("2026-03-01")).await["invoiceNumber"],
        "INV-2026-0001"
    );
    create(&app, &c, &valid_invoice("INV-2026-0041")).await;
    create(&app, &c, &valid_invoice("INV-2026-TEMP")).await;
    let at_once = futures::future::join_all((0..4).map(|_| {
        let body = dated("2026-12-31");
        let c = c.clone();
        let url = app.url("/api/invoices");
        async move { send(c.post(url).json(&body)).await }
    }))
    .await;
    let mut numbers: Vec<String> = at_once
        .iter()
        .map(|(status, v)| {
            assert_eq!(*status, 201, "{v}");
            v["invoiceNumber"].as_str().unwrap().to_string()
        })
        .collect();
    numbers.sort();
    assert_eq!(
        numbers,
        [
            "INV-2026-0042",
            "INV-2026-0043",
            "INV-2026-0044",
            "INV-2026-0045"
        ]
    );
    assert_eq!(
        create(&app, &c, &dated("2027-01-02")).await["invoiceNumber"],
        "INV-2027-0001",
        "a new year starts a new series"
    );
    assert_eq!(invoice_count(&app).await, 8);
    assert_eq!(next("2026-06-30").await.1["invoiceNumber"], "INV-2026-0046");
    let (status, v) = next("June").await;
    assert_eq!(
        (status, v["message"].as_str()),
        (400, Some("date must be a date (YYYY-MM-DD)"))
    );
    app.stop().await;
}

async fn status_changes_and_paid_is_final(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let v = create(&app, &c, &valid_invoice("INV-2001")).await;
    let url = app.url(&format!("/api/invoices/{}", v["id"].as_str().unwrap()));
    for status in ["sent", "overdue", "draft", "paid"] {
        let (code, v) = send(c.patch(&url).json(&json!({ "status": status }))).await;
        assert_eq!((code, v["status"].as_str()), (200, Some(status)), "{v}");
    }
    let (_, v) = send(c.get(&url)).await;
    assert!(v["paidAt"].is_string());
    let (code, v) = send(c.patch(&url).json(&json!({ "status": "sent" }))).await;
    assert_eq!(
        (code, v["message"].as_str()),
        (409, Some("Paid invoices cannot be changed"))
    );
    let (code, v) = send(c.patch(&url).json(&json!({ "status": "void" }))).await;
    assert_eq!(code, 422);
    assert_eq!(
        v["message"],
        "status must be one of: draft, sent, paid, overdue"
    );
    let (code, _) = send(
        c.patch(app.url("/api/invoices/nope"))
            .json(&json!({ "status": "sent" })),
    )
    .await;
    assert_eq!(code, 404);
    let (_, v) = send(c.get(&url)).await;
    assert_eq!(v["status"], "paid");
    app.stop().await;
}

fn pdf_text(bytes: &[u8]) -> String {
    let doc = PdfDocument::parse(bytes, &PdfParseOptions::default(), &mut Vec::new())
        .expect("a readable PDF");
    doc.extract_text()
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

async fn pdf_download_named_by_number(tdb: TestDb) {
    let app = TestApp::spawn(&tdb, AppOptions::default()).await;
    let c = app.user().await;
    let v = create(&app, &c, &valid_invoice("INV 3001/A")).await;
    let id = v["id"].as_str().unwrap();
    app.wait_status(
        &c,
        v["pdfJobId"].as_str().unwrap(),
        "succeeded",
        Duration::from_secs(20),
    )
    .await;
    let res = c
        .get(app.url(&format!("/api/invoices/{id}/pdf")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"invoice-INV_3001_A.pdf\""
    );
    let text = pdf_text(&res.bytes().await.unwrap());
    for expected in [
        "INV 3001/A",
        "Sunrise Bath & Co",
        "Walk-in tub deposit",
        "162.72",
        "draft",
    ] {
        assert!(text.contains(expected), "{expected} not in {text}");
    }
    // A status change makes a new version; the download shows it (rendered on demand if need be).
    let (code, _) = send(
        c.patch(app.url(&format!("/api/invoices/{id}")))
            .json(&json!({ "status": "overdue" })),
    )
    .await;
    assert_eq!(code, 200);
    let res = c
        .get(app.url(&format!("/api/invoices/{id}/pdf")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let text = pdf_text(&res.bytes().await.unwrap());
    assert!(text.contains("overdue"), "{text}");
    let (code, _) = send(c.get(app.url("/api/invoices/missing/pdf"))).await;
    assert_eq!(code, 404);
    app.stop().await;
}

/// The api (no worker) with Stripe at the mock server.
async fn stripe_app(tdb: &TestDb, server: &MockServer) -> TestApp {
    TestApp::spawn(
        tdb,
        AppOptions {
            worker: false,
            providers: Some(stripe_providers(server)),
            ..Default::default()
        },
    )
    .await
}

fn stripe_providers(server: &MockServer) -> Providers {
    Providers::embedded().with_stripe(
        Stripe::new(StripeSettings {
            api_url: server.uri(),
            secret_key: jobs::config::Secret::new("sk_test_123".into()),
            webhook_secret: jobs::config::Secret::new(WEBHOOK_SECRET.into()),
        })
        .with_policy(HttpPolicy {
            timeout: Duration::from_millis(800),
            retries: 2,
            min_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(1500),
            ..HttpPolicy::default()
        }),
    )
}

/// A `Stripe-Signature` header made here, independently of the code under test.
fn signature(secret: &str, body: &str, t: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

fn intent(id: &str, amount: i64, status: &str) -> Value {
    json!({ "id": id, "object": "payment_intent", "amount": amount, "currency": "usd",
            "status": status, "client_secret": format!("{id}_secret_abc") })
}

async fn webhook(app: &TestApp, event: &Value, secret: &str, t: i64) -> (u16, Value) {
    let body = event.to_string();
    send(
        app.anonymous()
            .post(app.url("/api/webhooks/stripe"))
            .header("stripe-signature", signature(secret, &body, t))
            .header("content-type", "application/json")
            .body(body),
    )
    .await
}

async fn stripe_payment_and_webhook(tdb: TestDb) {
    let stripe = MockServer::start().await;
    let app = stripe_app(&tdb, &stripe).await;
    let c = app.user().await;
    let v = create(&app, &c, &valid_invoice("INV-4001")).await;
    let id = v["id"].as_str().unwrap().to_string();

    // A rate limit first, then the intent: one intent, the same idempotency key both times.
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents"))
        .and(header("authorization", "Bearer sk_test_123"))
        .and(body_string_contains("amount=16272"))
        .and(body_string_contains("currency=usd"))
        .and(body_string_contains("metadata%5BinvoiceNumber%5D=INV-4001"))
        .respond_with(ResponseTemplate::new(200).set_body_json(intent(
            "pi_1",
            16_272,
            "requires_payment_method",
        )))
        .mount(&stripe)
        .await;
    let pay = json!({ "amount": 162.72, "currency": "usd",
                      "metadata": { "invoiceNumber": "INV-4001", "customerName": "Sunrise Bath & Co" } });
    let (code, v) = send(c.post(app.url("/api/create-payment-intent")).json(&pay)).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["paymentIntentId"], "pi_1");
    assert_eq!(v["clientSecret"], "pi_1_secret_abc");
    assert_eq!(v["amount"], 16_272, "cents");
    // A double click: same key again (Stripe answers with the first intent), one payment row.
    let (code, _) = send(c.post(app.url("/api/create-payment-intent")).json(&pay)).await;
    assert_eq!(code, 200);
    let requests = stripe.received_requests().await.unwrap();
    assert_eq!(requests.len(), 3, "429, then two creates");
    let keys: Vec<_> = requests
        .iter()
        .map(|r| {
            r.headers
                .get("idempotency-key")
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(keys.iter().all(|k| k == &keys[0]), "{keys:?}");
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM payments").await, 1);

    // Amount that is not the invoice's total: refused before Stripe is asked.
    let mut wrong = pay.clone();
    wrong["amount"] = json!(162.71);
    let (code, v) = send(c.post(app.url("/api/create-payment-intent")).json(&wrong)).await;
    assert_eq!(code, 422, "{v}");
    wrong["amount"] = json!("12.345");
    let (code, _) = send(c.post(app.url("/api/create-payment-intent")).json(&wrong)).await;
    assert_eq!(code, 422);
    assert_eq!(stripe.received_requests().await.unwrap().len(), 3);

    // Webhook: a bad signature, a wrong secret and a stale timestamp change nothing.
    let now = jobs::time::now_ms() / 1000;
    let succeeded = json!({ "id": "evt_1", "type": "payment_intent.succeeded",
                            "data": { "object": intent("pi_1", 16_272, "succeeded") } });
    let (code, _) = send(
        app.anonymous()
            .post(app.url("/api/webhooks/stripe"))
            .header("stripe-signature", "t=1,v1=abcd")
            .body(succeeded.to_string()),
    )
    .await;
    assert_eq!(code, 400);
    assert_eq!(webhook(&app, &succeeded, "whsec_other", now).await.0, 400);
    assert_eq!(
        webhook(&app, &succeeded, WEBHOOK_SECRET, now - 3600)
            .await
            .0,
        400
    );
    let (_, inv) = send(c.get(app.url(&format!("/api/invoices/{id}")))).await;
    assert_eq!(inv["status"], "draft");

    // A failure first (the card was declined), then the success marks the invoice paid.
    let failed = json!({ "id": "evt_0", "type": "payment_intent.payment_failed",
        "data": { "object": { "id": "pi_1", "last_payment_error": { "message": "Your card was declined." } } } });
    assert_eq!(webhook(&app, &failed, WEBHOOK_SECRET, now).await.0, 200);
    let (code, v) = webhook(&app, &succeeded, WEBHOOK_SECRET, now).await;
    assert_eq!((code, v["handled"].as_bool()), (200, Some(true)));
    let (_, inv) = send(c.get(app.url(&format!("/api/invoices/{id}")))).await;
    assert_eq!(inv["status"], "paid");
    // Repeated and late events change nothing; unknown events are acknowledged.
    assert_eq!(webhook(&app, &failed, WEBHOOK_SECRET, now).await.0, 200);
    let other = json!({ "id": "evt_2", "type": "charge.refunded", "data": { "object": {} } });
    assert_eq!(webhook(&app, &other, WEBHOOK_SECRET, now).await.0, 200);
    let a = app.get_json(&c, "/api/payment/analytics").await;
    assert_eq!(a["totalRevenue"], 162.72);
    assert_eq!(a["totalTransactions"], 1);
    assert_eq!(a["successfulPayments"], 1);
    assert_eq!(a["failedPayments"], 0);
    let (code, _) = send(c.post(app.url("/api/create-payment-intent")).json(&pay)).await;
    assert_eq!(code, 409, "a paid invoice is not charged again");
    app.stop().await;
}

async fn stripe_failures_are_clear(tdb: TestDb) {
    let stripe = MockServer::start().await;
    let app = stripe_app(&tdb, &stripe).await;
    let c = app.user().await;
    create(&app, &c, &valid_invoice("INV-5001")).await;
    let pay = json!({ "amount": "162.72", "metadata": { "invoiceNumber": "INV-5001" } });
    let pay_once =
        || async { send(c.post(app.url("/api/create-payment-intent")).json(&pay)).await };

    // A refusal is the card's or account's words, not retried.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(402).set_body_json(
            json!({ "error": { "type": "card_error", "message": "Your card has insufficient funds." } }),
        ))
        .up_to_n_times(1)
        .mount(&stripe)
        .await;
    let (code, v) = pay_once().await;
    assert_eq!(code, 402);
    assert_eq!(
        v["message"],
        "Payment Failed: Your card has insufficient funds."
    );
    assert_eq!(stripe.received_requests().await.unwrap().len(), 1);

    // 500 every time: retried, then a 502 that says so.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("boom"))
        .up_to_n_times(3)
        .mount(&stripe)
        .await;
    let (code, v) = pay_once().await;
    assert_eq!(code, 502, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("Payment Failed: Stripe is unavailable")
    );
    assert_eq!(
        stripe.received_requests().await.unwrap().len(),
        4,
        "1 + 2 retries"
    );

    // A timeout, then an answer that is not an intent.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
        .up_to_n_times(3)
        .mount(&stripe)
        .await;
    let (code, _) = pay_once().await;
    assert_eq!(code, 502);
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>oops</html>"))
        .mount(&stripe)
        .await;
    let (code, v) = pay_once().await;
    assert_eq!(code, 502);
    assert!(v["message"].as_str().unwrap().contains("unreadable"), "{v}");
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM payments").await, 0);
    let (_, inv) = send(c.get(app.url("/api/invoices/INV-5001"))).await;
    assert_eq!(inv["status"], "draft");
    // The webhook refuses everything unsigned.
    let (code, _) = send(
        app.anonymous()
            .post(app.url("/api/webhooks/stripe"))
            .body("{}"),
    )
    .await;
    assert_eq!(code, 400);
    app.stop().await;
}

async fn demo_payment_without_stripe(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    create(&app, &c, &valid_invoice("INV-6001")).await;
    let (code, v) = send(
        c.post(app.url("/api/create-payment-intent"))
            .json(&json!({ "amount": 162.72, "currency": "usd", "metadata": { "invoiceNumber": "INV-6001" } })),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["demo"], true);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("nothing was charged")
    );
    let (_, inv) = send(c.get(app.url("/api/invoices/INV-6001"))).await;
    assert_eq!(inv["status"], "sent", "marked payable");
    let a = app.get_json(&c, "/api/payment/analytics").await;
    assert_eq!(
        (a["totalRevenue"].as_f64(), a["totalTransactions"].as_i64()),
        (Some(0.0), Some(0))
    );
    let (code, v) = send(
        c.post(app.url("/api/create-payment-intent"))
            .json(&json!({ "amount": 1, "metadata": {} })),
    )
    .await;
    assert_eq!(code, 422, "{v}");
    let (code, _) = send(c.post(app.url("/api/create-payment-intent")).json(
        &json!({ "amount": 1, "currency": "eur", "metadata": { "invoiceNumber": "INV-6001" } }),
    ))
    .await;
    assert_eq!(code, 422);
    let (code, _) = send(
        app.anonymous()
            .post(app.url("/api/webhooks/stripe"))
            .header("stripe-signature", signature(WEBHOOK_SECRET, "{}", 0))
            .body("{}"),
    )
    .await;
    assert_eq!(code, 400, "no Stripe configured: no webhook");
    app.stop().await;
}

async fn upload(app: &TestApp, c: &Client, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
    );
    send(c.post(app.url("/api/catalog/upload")).multipart(form)).await
}

fn xlsx(rows: &[(&str, f64)]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Name").unwrap();
    sheet.write_string(0, 1, "Price").unwrap();
    for (i, (name, price)) in rows.iter().enumerate() {
        let r = u32::try_from(i + 1).unwrap();
        sheet.write_string(r, 0, *name).unwrap();
        sheet.write_number(r, 1, *price).unwrap();
    }
    book.save_to_buffer().unwrap()
}

async fn catalog_upload_csv_xlsx_and_refusals(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let mut csv = String::from("Product Name,Price,SKU\n");
    for i in 0..6 {
        csv.push_str(&format!("\"Grab Bar {i}\",\"$1,0{i}9.50\",GB-{i}\n"));
    }
    csv.push_str("Mystery,call us,\n");
    let (code, v) = upload(&app, &c, "catalog.csv", csv.into_bytes()).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        (v["added"].as_i64(), v["skipped"].as_i64()),
        (Some(6), Some(1)),
        "no 3-product cap"
    );
    assert_eq!(v["products"][0]["name"], "Grab Bar 0");
    assert_eq!(v["products"][0]["price"], 1009.5);
    assert_eq!(v["products"][0]["sku"], "GB-0");

    // Excel: new products, and a known name gets its new price.
    let (code, v) = upload(
        &app,
        &c,
        "prices.xlsx",
        xlsx(&[("Shower Seat", 249.99), ("grab bar 0", 999.0)]),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["format"], "xlsx");
    let list = app.get_json(&c, "/api/catalog").await;
    assert_eq!(list.as_array().unwrap().len(), 7);
    let bar = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["sku"] == "GB-0")
        .unwrap();
    assert_eq!(bar["price"], 999.0);

    // Refusals with their messages; nothing added.
    let (code, v) = upload(&app, &c, "c.csv", b"title,cost\nx,1\n".to_vec()).await;
    assert_eq!(
        (code, v["message"].as_str()),
        (
            422,
            Some("Invalid CSV Format: CSV must contain 'name' and 'price' columns")
        )
    );
    let (code, v) = upload(&app, &c, "c.pdf", b"%PDF-1.7\n...".to_vec()).await;
    assert_eq!(code, 415);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("PDF catalogs are not supported")
    );
    let (code, v) = upload(
        &app,
        &c,
        "disguised.csv",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
    )
    .await;
    assert_eq!(
        (code, v["message"].as_str()),
        (415, Some("Unsupported File Type"))
    );
    // The server answers 413 once 10 MiB have come, and closes the connection without reading the
    // rest: a client still writing may see the connection reset before it reads the answer. A
    // fresh client tries again (the refusal itself is the same every time).
    let mut answer = None;
    for _ in 0..5 {
        let one_shot = app.user().await;
        let form = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(vec![b'a'; 11 * 1024 * 1024]).file_name("big.csv"),
        );
        if let Ok(res) = one_shot
            .post(app.url("/api/catalog/upload"))
            .multipart(form)
            .send()
            .await
        {
            let code = res.status().as_u16();
            if let Ok(v) = res.json::<Value>().await {
                answer = Some((code, v));
                break;
            }
        }
    }
    let (code, v) = answer.expect("an answer to one of five tries");
    assert_eq!(code, 413);
    assert_eq!(
        v["message"],
        "The catalog file is too large (at most 10 MiB)"
    );
    let (code, _) = send(
        c.post(app.url("/api/catalog/upload"))
            .header("content-type", "application/json")
            .body("{}"),
    )
    .await;
    assert_eq!(code, 400);
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM catalog_items").await,
        7
    );
    app.stop().await;
}

/// Files made to take the process down are refused with a message naming the limit, nothing is
/// written, and the server goes on answering (issue 19).
async fn catalog_upload_refuses_hostile_files(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let c = app.user().await;
    let expect = [
        ("sparse.xlsx", 413, "wider than 256 columns"),
        ("bomb.xlsx", 413, "unpacks to more than"),
        ("nested.xlsx", 422, "nested more than 100 levels"),
        ("long.pdf", 415, "PDF catalogs are not supported"),
    ];
    for h in common::hostile::all() {
        let Some((_, code, says)) = expect.iter().find(|(n, _, _)| *n == h.name) else {
            continue;
        };
        let (got, v) = upload(&app, &c, h.name, h.bytes).await;
        let message = v["message"].as_str().unwrap_or_default();
        assert_eq!(got, *code, "{}: {v}", h.name);
        assert!(message.contains(says), "{}: {message}", h.name);
    }
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM catalog_items").await,
        0
    );
    // The same server still reads an honest file.
    let (code, v) = upload(&app, &c, "ok.xlsx", common::hostile::small_xlsx()).await;
    assert_eq!((code, v["added"].as_i64()), (200, Some(1)), "{v}");
    app.stop().await;
}

both_backends!(
    invoice_form_messages_and_nothing_written,
    totals_defaults_list_and_filters,
    list_pages_sorts_and_totals,
    blank_numbers_run_in_series,
    status_changes_and_paid_is_final,
    pdf_download_named_by_number,
    stripe_payment_and_webhook,
    stripe_failures_are_clear,
    demo_payment_without_stripe,
    catalog_upload_csv_xlsx_and_refusals,
    catalog_upload_refuses_hostile_files,
);
