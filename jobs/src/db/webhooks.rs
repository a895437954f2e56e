//! Outbound webhooks (migration 0034, docs/webhooks.md): endpoints, deliveries and their attempts,
//! and the emission of events. Emitting is a `Tx` call made inside the transaction of the change it
//! reports: one delivery row per enabled endpoint subscribed to the event, and its
//! `webhook_deliver` job, so a change that rolls back sends nothing. When no endpoint subscribes,
//! emitting costs one read of the (small) endpoints table.

use std::collections::HashMap;

use serde_json::json;

use super::sql::Sql;
use super::*;
use crate::domain::webhooks::{self as rules, DELIVER_KIND, DISABLE_AFTER_FAILURES, MAX_ATTEMPTS};
use crate::time::to_rfc3339;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookEndpointRow {
    pub id: String,
    pub url: String,
    pub description: Option<String>,
    /// JSON array of event type names.
    pub event_types: String,
    /// Sealed (see [`crate::sealed`]) with the endpoint's id as its owner.
    pub secret: String,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<i64>,
    pub failure_streak: i32,
    pub created_by: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl WebhookEndpointRow {
    /// The event types it subscribes to (none when the stored list is unreadable).
    pub fn events(&self) -> Vec<String> {
        serde_json::from_str(&self.event_types).unwrap_or_default()
    }
}

/// A new endpoint, or an endpoint's editable columns.
pub struct WebhookEndpointWrite<'a> {
    pub id: &'a str,
    pub url: &'a str,
    pub description: Option<&'a str>,
    pub event_types: &'a [String],
    pub enabled: bool,
    pub disabled_reason: Option<&'a str>,
    pub disabled_at: Option<i64>,
    pub failure_streak: i32,
    pub now: i64,
}

/// A delivery as the screen lists it, with the state of the job sending it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookDeliveryRow {
    pub id: String,
    pub endpoint_id: String,
    pub event_type: String,
    pub body: String,
    pub status: String,
    pub attempts: i32,
    pub job_id: Option<String>,
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub job_status: Option<String>,
    pub job_run_at: Option<i64>,
}

impl WebhookDeliveryRow {
    /// `pending`, `delivered` or `failed`. A pending delivery whose job is gone, failed or was
    /// cancelled from the ops screen (or whose worker died on its last attempt) failed.
    pub fn effective_status(&self) -> &str {
        match (self.status.as_str(), self.job_status.as_deref()) {
            ("pending", Some("queued" | "scheduled" | "running" | "retrying")) => "pending",
            ("pending", _) => "failed",
            (status, _) => status,
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookAttemptRow {
    pub id: String,
    pub delivery_id: String,
    pub attempted_at: i64,
    pub duration_ms: i64,
    pub status_code: Option<i32>,
    pub error: Option<String>,
    pub response: Option<String>,
}

/// What one send needs: the delivery and its endpoint.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookSend {
    pub id: String,
    pub endpoint_id: String,
    pub body: String,
    pub status: String,
    pub job_id: Option<String>,
    pub url: String,
    pub secret: String,
    pub enabled: bool,
}

/// How one attempt ended, for the delivery and its endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebhookOutcome {
    /// 2xx: delivered; the endpoint's failure streak ends.
    Delivered,
    /// Failed, another attempt follows.
    Retry,
    /// Failed, no attempt follows: the streak grows, and at its limit the endpoint is disabled.
    Failed,
    /// 410 Gone: the receiver asked to stop; the endpoint is disabled at once.
    Gone,
}

pub struct WebhookAttemptRecord<'a> {
    pub delivery_id: &'a str,
    pub endpoint_id: &'a str,
    pub job_id: &'a str,
    pub attempted_at: i64,
    pub duration_ms: i64,
    pub status_code: Option<i32>,
    pub error: Option<&'a str>,
    pub response: Option<&'a str>,
    pub outcome: WebhookOutcome,
    pub now: i64,
}

/// A contact as an event describes it: ids and the fields a receiver acts on.
#[derive(Debug, Clone, sqlx::FromRow)]
struct ContactSnapshot {
    id: String,
    first_name: String,
    last_name: String,
    email: Option<String>,
    phone: Option<String>,
    title: Option<String>,
    status: String,
    score: i32,
    source: Option<String>,
    company_id: Option<String>,
    company_name: Option<String>,
    created_at: i64,
}

impl ContactSnapshot {
    fn json(&self) -> Value {
        json!({
            "id": self.id,
            "firstName": self.first_name,
            "lastName": self.last_name,
            "email": self.email,
            "phone": self.phone,
            "title": self.title,
            "status": self.status,
            "score": self.score,
            "source": self.source,
            "companyId": self.company_id,
            "companyName": self.company_name,
            "createdAt": to_rfc3339(self.created_at),
        })
    }
}

macro_rules! endpoint_columns {
    () => {
        "id, url, description, event_types, secret, enabled, disabled_reason, disabled_at,
         failure_streak, created_by, created_at, updated_at"
    };
}
macro_rules! contact_snapshot {
    () => {
        "SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.title, c.status, c.score,
                c.source, c.company_id, co.name AS company_name, c.created_at
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE c.id "
    };
}

const ENDPOINT_LIST: Sql = select!(
    endpoint_columns,
    "webhook_endpoints",
    "ORDER BY created_at, id"
);
const ENDPOINT_GET: Sql = select!(endpoint_columns, "webhook_endpoints", "WHERE id = ?1");
/// Differs: Postgres locks the row against a concurrent change.
const ENDPOINT_GET_FOR_UPDATE: Sql = locking!(
    concat!(
        "SELECT ",
        endpoint_columns!(),
        " FROM webhook_endpoints WHERE id = ?1"
    ),
    "FOR UPDATE",
    ""
);
const ENDPOINT_COUNT: Sql = sql!("SELECT COUNT(*) FROM webhook_endpoints");
const ENDPOINT_INSERT: Sql = sql!(
    "INSERT INTO webhook_endpoints (id, url, description, event_types, secret, enabled,
                                    created_by, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)"
);
const ENDPOINT_UPDATE: Sql = sql!(
    "UPDATE webhook_endpoints SET url = ?2, description = ?3, event_types = ?4, enabled = ?5,
            disabled_reason = ?6, disabled_at = ?7, failure_streak = ?8, updated_at = ?9
     WHERE id = ?1"
);
const ENDPOINT_SET_SECRET: Sql =
    sql!("UPDATE webhook_endpoints SET secret = ?2, updated_at = ?3 WHERE id = ?1");
const ENDPOINT_DELETE: Sql = sql!("DELETE FROM webhook_endpoints WHERE id = ?1");
const SUBSCRIBERS: Sql =
    sql!("SELECT id, event_types FROM webhook_endpoints WHERE enabled ORDER BY id");
const STREAK_RESET: Sql =
    sql!("UPDATE webhook_endpoints SET failure_streak = 0 WHERE id = ?1 AND failure_streak <> 0");
const STREAK_GROW: Sql = sql!(
    "UPDATE webhook_endpoints SET failure_streak = failure_streak + 1 WHERE id = ?1
     RETURNING failure_streak"
);
const ENDPOINT_DISABLE: Sql = sql!(
    "UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = ?2, disabled_at = ?3,
            updated_at = ?3
     WHERE id = ?1 AND enabled
     RETURNING url"
);

macro_rules! delivery_columns {
    () => {
        "d.id, d.endpoint_id, d.event_type, d.body, d.status, d.attempts, d.job_id,
         d.last_status_code, d.last_error, d.created_at, d.finished_at,
         j.status AS job_status, j.run_at AS job_run_at
         FROM webhook_deliveries d LEFT JOIN jobs j ON j.id = d.job_id"
    };
}
/// Newest first; `?2` narrows to a stored status (NULL: all).
const DELIVERY_PAGE: Sql = sql!(concat!(
    "SELECT ",
    delivery_columns!(),
    " WHERE d.endpoint_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR d.status = ?2)
     ORDER BY d.created_at DESC, d.id DESC LIMIT ?3 OFFSET ?4"
));
const DELIVERY_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM webhook_deliveries
     WHERE endpoint_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR status = ?2)"
);
const DELIVERY_GET: Sql = sql!(concat!(
    "SELECT ",
    delivery_columns!(),
    " WHERE d.id = ?1 AND d.endpoint_id = ?2"
));
const DELIVERY_INSERT: Sql = sql!(
    "INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, status, job_id, created_at)
     VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6)"
);
const DELIVERY_REQUEUE: Sql = sql!(
    "UPDATE webhook_deliveries SET status = 'pending', job_id = ?2, finished_at = NULL WHERE id = ?1"
);
const DELIVERY_FOR_SEND: Sql = sql!(
    "SELECT d.id, d.endpoint_id, d.body, d.status, d.job_id, e.url, e.secret, e.enabled
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = ?1"
);
const DELIVERY_ATTEMPTED: Sql = sql!(
    "UPDATE webhook_deliveries SET attempts = attempts + 1, status = ?2, last_status_code = ?3,
            last_error = ?4, finished_at = ?5
     WHERE id = ?1"
);
const DELIVERY_SKIPPED: Sql = sql!(
    "UPDATE webhook_deliveries SET status = 'failed', last_error = ?2, finished_at = ?3
     WHERE id = ?1 AND status = 'pending'"
);
const DELIVERY_PRUNE: Sql = sql!(
    "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries
         WHERE finished_at IS NOT NULL AND finished_at < ?1 LIMIT ?2)"
);
const ATTEMPT_INSERT: Sql = sql!(
    "INSERT INTO webhook_attempts (id, delivery_id, job_id, attempted_at, duration_ms, status_code,
                                   error, response)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
);
const ATTEMPTS_OF: Sql = in_list!(
    "SELECT id, delivery_id, attempted_at, duration_ms, status_code, error, response
     FROM webhook_attempts WHERE delivery_id IN ",
    1,
    " ORDER BY id"
);
const CONTACT_SNAPSHOT: Sql = sql!(concat!(contact_snapshot!(), "= ?1"));
/// The listed contacts whose status is not `?2` yet (a bulk change's before).
const CONTACT_SNAPSHOTS_CHANGING: Sql = in_list!(
    concat!(contact_snapshot!(), "IN "),
    1,
    " AND c.status <> ?2 ORDER BY c.id"
);
const INVOICE_SNAPSHOT: Sql = sql!(
    "SELECT id, invoice_number, customer_name, customer_email, total_cents, invoice_date, due_date,
            paid_at
     FROM invoices WHERE id = ?1"
);
const JOB_SNAPSHOT: Sql =
    sql!("SELECT kind, attempts, max_attempts, error FROM jobs WHERE id = ?1");

impl Db {
    pub async fn webhook_endpoint_list(&self) -> Result<Vec<WebhookEndpointRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(ENDPOINT_LIST))
    }
    pub async fn webhook_endpoint_get(
        &self,
        id: &str,
    ) -> Result<Option<WebhookEndpointRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(ENDPOINT_GET), id)
    }
    pub async fn webhook_endpoint_count(&self) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(ENDPOINT_COUNT))
    }
    /// An endpoint's deliveries, newest first, and how many there are.
    pub async fn webhook_delivery_page(
        &self,
        endpoint_id: &str,
        status: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<WebhookDeliveryRow>, i64), sqlx::Error> {
        on_db!(
            self,
            pool,
            [page = DELIVERY_PAGE, count = DELIVERY_COUNT],
            {
                let rows = sqlx::query_as(page)
                    .bind(endpoint_id)
                    .bind(status)
                    .bind(limit)
                    .bind(offset)
                    .fetch_all(pool)
                    .await?;
                let total = sqlx::query_scalar(count)
                    .bind(endpoint_id)
                    .bind(status)
                    .fetch_one(pool)
                    .await?;
                Ok((rows, total))
            }
        )
    }
    /// The attempts of these deliveries, oldest first.
    pub async fn webhook_attempts_of(
        &self,
        delivery_ids: &[String],
    ) -> Result<Vec<WebhookAttemptRow>, sqlx::Error> {
        if delivery_ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = Value::from(delivery_ids).to_string();
        fetch!(self, fetch_all, query_as(ATTEMPTS_OF), &list)
    }
    pub async fn webhook_delivery_for_send(
        &self,
        id: &str,
    ) -> Result<Option<WebhookSend>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(DELIVERY_FOR_SEND), id)
    }
    /// A pending delivery that will not be sent (its endpoint was disabled meanwhile).
    pub async fn webhook_delivery_skip(
        &self,
        id: &str,
        error: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(self, DELIVERY_SKIPPED, id, error, now).map(|_| ())
    }
    /// Records one attempt and what it means for the delivery and its endpoint, in one
    /// transaction. When the endpoint is disabled by it: the reason (also written to the audit
    /// log, the ops screen's activity feed).
    pub async fn webhook_attempt_record(
        &self,
        r: &WebhookAttemptRecord<'_>,
    ) -> Result<Option<String>, sqlx::Error> {
        let mut tx = self.begin().await?;
        exec_tx!(
            &mut tx,
            ATTEMPT_INSERT,
            crate::domain::new_id(),
            r.delivery_id,
            r.job_id,
            r.attempted_at,
            r.duration_ms,
            r.status_code,
            r.error,
            r.response
        )?;
        let (status, finished) = match r.outcome {
            WebhookOutcome::Delivered => ("delivered", Some(r.now)),
            WebhookOutcome::Retry => ("pending", None),
            WebhookOutcome::Failed | WebhookOutcome::Gone => ("failed", Some(r.now)),
        };
        exec_tx!(
            &mut tx,
            DELIVERY_ATTEMPTED,
            r.delivery_id,
            status,
            r.status_code,
            r.error,
            finished
        )?;
        let reason = match r.outcome {
            WebhookOutcome::Delivered => {
                exec_tx!(&mut tx, STREAK_RESET, r.endpoint_id)?;
                None
            }
            WebhookOutcome::Retry => None,
            WebhookOutcome::Gone => Some("The endpoint answered 410 Gone".to_string()),
            WebhookOutcome::Failed => {
                let streak: Option<i32> = fetch_tx!(
                    &mut tx,
                    fetch_optional,
                    query_scalar(STREAK_GROW),
                    r.endpoint_id
                )?;
                streak.filter(|s| *s >= DISABLE_AFTER_FAILURES).map(|s| {
                    let last = match (r.status_code, r.error) {
                        (Some(code), _) => format!("HTTP {code}"),
                        (None, Some(e)) => rules::clip(e, 200).to_string(),
                        (None, None) => "no answer".to_string(),
                    };
                    format!("{s} deliveries in a row failed (last: {last})")
                })
            }
        };
        let disabled = match reason {
            Some(reason) => {
                let url: Option<String> = fetch_tx!(
                    &mut tx,
                    fetch_optional,
                    query_scalar(ENDPOINT_DISABLE),
                    r.endpoint_id,
                    &reason,
                    r.now
                )?;
                match url {
                    Some(url) => {
                        let detail = json!({ "url": url, "reason": reason });
                        tx.audit_insert(&AuditInsert {
                            id: &crate::domain::new_id(),
                            actor_id: None,
                            actor_email: None,
                            action: "webhook.disabled",
                            target: Some(r.endpoint_id),
                            detail: Some(&detail),
                            created_at: r.now,
                        })
                        .await?;
                        Some(reason)
                    }
                    // Already disabled (by an admin, or a concurrent delivery).
                    None => None,
                }
            }
            None => None,
        };
        tx.commit().await?;
        Ok(disabled)
    }
    /// Deletes up to `batch` deliveries finished before `cutoff` (their attempts go with them).
    pub async fn webhook_deliveries_prune(
        &self,
        cutoff: i64,
        batch: i64,
    ) -> Result<u64, sqlx::Error> {
        exec!(self, DELIVERY_PRUNE, cutoff, batch)
    }
}

impl Tx {
    pub async fn webhook_endpoint_insert(
        &mut self,
        w: &WebhookEndpointWrite<'_>,
        sealed_secret: &str,
        created_by: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let events = Value::from(w.event_types).to_string();
        exec_tx!(
            self,
            ENDPOINT_INSERT,
            w.id,
            w.url,
            w.description,
            &events,
            sealed_secret,
            w.enabled,
            created_by,
            w.now
        )
        .map(|_| ())
    }
    pub async fn webhook_endpoint_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<WebhookEndpointRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(ENDPOINT_GET_FOR_UPDATE), id)
    }
    pub async fn webhook_endpoint_update(
        &mut self,
        w: &WebhookEndpointWrite<'_>,
    ) -> Result<(), sqlx::Error> {
        let events = Value::from(w.event_types).to_string();
        exec_tx!(
            self,
            ENDPOINT_UPDATE,
            w.id,
            w.url,
            w.description,
            &events,
            w.enabled,
            w.disabled_reason,
            w.disabled_at,
            w.failure_streak,
            w.now
        )
        .map(|_| ())
    }
    pub async fn webhook_endpoint_set_secret(
        &mut self,
        id: &str,
        sealed_secret: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec_tx!(self, ENDPOINT_SET_SECRET, id, sealed_secret, now).map(|_| ())
    }
    /// Deletes the endpoint with its deliveries and attempts; `false` when there is none. Jobs
    /// still waiting find their delivery gone and end.
    pub async fn webhook_endpoint_delete(&mut self, id: &str) -> Result<bool, sqlx::Error> {
        exec_tx!(self, ENDPOINT_DELETE, id).map(|n| n == 1)
    }
    pub async fn webhook_delivery_get(
        &mut self,
        id: &str,
        endpoint_id: &str,
    ) -> Result<Option<WebhookDeliveryRow>, sqlx::Error> {
        fetch_tx!(
            self,
            fetch_optional,
            query_as(DELIVERY_GET),
            id,
            endpoint_id
        )
    }
    /// A delivery the caller enqueues the job of (`webhook.test`), pending.
    pub async fn webhook_delivery_insert(
        &mut self,
        id: &str,
        endpoint_id: &str,
        event_type: &str,
        body: &str,
        job_id: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            DELIVERY_INSERT,
            id,
            endpoint_id,
            event_type,
            body,
            job_id,
            now
        )
        .map(|_| ())
    }
    /// Pending again, sent by `job_id` (a redelivery: same id, same body).
    pub async fn webhook_delivery_requeue(
        &mut self,
        id: &str,
        job_id: &str,
    ) -> Result<(), sqlx::Error> {
        exec_tx!(self, DELIVERY_REQUEUE, id, job_id).map(|_| ())
    }

    // ---- emission ----

    /// The enabled endpoints subscribed to `event`.
    pub async fn webhook_subscribers(&mut self, event: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows: Vec<(String, String)> = fetch_tx!(self, fetch_all, query_as(SUBSCRIBERS))?;
        Ok(rows
            .into_iter()
            .filter(|(_, events)| {
                serde_json::from_str::<Vec<String>>(events)
                    .is_ok_and(|list| list.iter().any(|e| e == event))
            })
            .map(|(id, _)| id)
            .collect())
    }

    /// One delivery of `event` with `data` to each of `endpoints`, each with its job (due now).
    async fn webhook_deliveries_create(
        &mut self,
        endpoints: &[String],
        event: &str,
        data: &Value,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        if endpoints.is_empty() {
            return Ok(0);
        }
        let body = event_body(event, now, data);
        for endpoint in endpoints {
            let id = rules::new_message_id();
            let job_id = ulid::Ulid::new().to_string();
            self.webhook_delivery_insert(&id, endpoint, event, &body, &job_id, now)
                .await?;
            self.job_insert(&JobInsert {
                id: &job_id,
                kind: DELIVER_KIND,
                payload: &json!({ "deliveryId": id }),
                status: "queued",
                max_attempts: MAX_ATTEMPTS,
                run_at: now,
                created_at: now,
                idempotency_key: None,
                active_key: None,
            })
            .await?;
        }
        // Other processes' workers wake at commit; this process's find the job within their
        // safety poll (`JOB_POLL_INTERVAL_MS`).
        self.job_notify(DELIVER_KIND).await?;
        Ok(endpoints.len() as u64)
    }

    /// Records `event` with `data` for every enabled endpoint subscribed to it: the deliveries
    /// made.
    pub async fn webhook_emit(
        &mut self,
        event: &str,
        data: &Value,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let endpoints = self.webhook_subscribers(event).await?;
        self.webhook_deliveries_create(&endpoints, event, data, now)
            .await
    }

    /// A contact event: `{"contact": {…}}` as the contact is now in this transaction, with the
    /// fields of `extra` (an object) beside it.
    pub async fn webhook_emit_contact(
        &mut self,
        event: &str,
        contact_id: &str,
        extra: Value,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let endpoints = self.webhook_subscribers(event).await?;
        if endpoints.is_empty() {
            return Ok(0);
        }
        let snapshot: Option<ContactSnapshot> =
            fetch_tx!(self, fetch_optional, query_as(CONTACT_SNAPSHOT), contact_id)?;
        let Some(snapshot) = snapshot else {
            return Ok(0);
        };
        let data = with_fields(json!({ "contact": snapshot.json() }), extra);
        self.webhook_deliveries_create(&endpoints, event, &data, now)
            .await
    }

    /// A contact's edit (`PUT /api/contacts/{id}`), after it is written: `contact.status_changed`
    /// when the status moved, `contact.updated` (naming the changed fields) when anything else did.
    pub async fn webhook_emit_contact_edit(
        &mut self,
        before: &ContactWrite,
        after: &ContactWrite,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let mut made = 0;
        if before.status != after.status {
            let extra = json!({ "from": before.status, "to": after.status });
            made += self
                .webhook_emit_contact("contact.status_changed", &after.id, extra, now)
                .await?;
        }
        let changed = contact_changes(before, after);
        if !changed.is_empty() {
            let extra = json!({ "changed": changed });
            made += self
                .webhook_emit_contact("contact.updated", &after.id, extra, now)
                .await?;
        }
        Ok(made)
    }

    /// `contact.status_changed` for each listed contact whose status is not `to` yet: call it
    /// before the statuses are set (a bulk change).
    pub async fn webhook_emit_contacts_status(
        &mut self,
        ids: &[String],
        to: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        const EVENT: &str = "contact.status_changed";
        let endpoints = self.webhook_subscribers(EVENT).await?;
        if endpoints.is_empty() || ids.is_empty() {
            return Ok(0);
        }
        let list = Value::from(ids).to_string();
        let changing: Vec<ContactSnapshot> = fetch_tx!(
            self,
            fetch_all,
            query_as(CONTACT_SNAPSHOTS_CHANGING),
            &list,
            to
        )?;
        let mut made = 0;
        for mut c in changing {
            let from = std::mem::replace(&mut c.status, to.to_string());
            let data = json!({ "contact": c.json(), "from": from, "to": to });
            made += self
                .webhook_deliveries_create(&endpoints, EVENT, &data, now)
                .await?;
        }
        Ok(made)
    }

    /// A deal's move from `from` to its current stage: `deal.stage_changed`, and `deal.won` or
    /// `deal.lost` when it closed.
    pub async fn webhook_emit_deal_stage(
        &mut self,
        deal: &DealRow,
        from: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let to = crate::domain::pipeline::effective_stage(deal.stage.as_deref());
        let from = crate::domain::pipeline::effective_stage(from);
        let data = json!({
            "deal": {
                "id": deal.id,
                "title": deal.title,
                "value": deal.value,
                "stage": to,
                "probability": deal.probability,
                "companyId": deal.company_id,
                "contactId": deal.contact_id,
                "expectedCloseDate": deal.expected_close_date,
                "actualCloseDate": deal.actual_close_date,
            },
            "from": from,
            "to": to,
        });
        let mut made = self.webhook_emit("deal.stage_changed", &data, now).await?;
        if let Some(outcome) = rules::deal_outcome_event(to) {
            made += self.webhook_emit(outcome, &data, now).await?;
        }
        Ok(made)
    }

    /// `meeting.booked` for a meeting just scheduled.
    pub async fn webhook_emit_meeting(
        &mut self,
        m: &MeetingRow,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        // Its agenda, description and attendees stay inside Prospector.
        let data = json!({
            "meeting": {
                "id": m.id,
                "title": m.title,
                "scheduledAt": to_rfc3339(m.scheduled_at),
                "durationMinutes": m.duration,
                "meetingType": m.meeting_type,
                "location": m.location,
                "status": m.status,
                "contactId": m.contact_id,
                "companyId": m.company_id,
            }
        });
        self.webhook_emit("meeting.booked", &data, now).await
    }

    /// `invoice.paid` for an invoice this transaction marked paid.
    pub async fn webhook_emit_invoice_paid(
        &mut self,
        invoice_id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        const EVENT: &str = "invoice.paid";
        let endpoints = self.webhook_subscribers(EVENT).await?;
        if endpoints.is_empty() {
            return Ok(0);
        }
        type Invoice = (
            String,
            String,
            String,
            Option<String>,
            i64,
            String,
            String,
            Option<i64>,
        );
        let row: Option<Invoice> =
            fetch_tx!(self, fetch_optional, query_as(INVOICE_SNAPSHOT), invoice_id)?;
        let Some((id, number, customer, email, total_cents, date, due, paid_at)) = row else {
            return Ok(0);
        };
        let data = json!({
            "invoice": {
                "id": id,
                "number": number,
                "customerName": customer,
                "customerEmail": email,
                "totalCents": total_cents,
                "currency": "usd",
                "invoiceDate": date,
                "dueDate": due,
                "paidAt": to_rfc3339(paid_at.unwrap_or(now)),
            }
        });
        self.webhook_deliveries_create(&endpoints, EVENT, &data, now)
            .await
    }

    /// The webhook event of an email ledger event (opened, clicked, replied, bounced,
    /// unsubscribed; sent ones come through [`Self::webhook_emit_sent`]). Demo events send nothing.
    pub async fn webhook_emit_email(&mut self, e: &EventInsert) -> Result<u64, sqlx::Error> {
        let Some(event) = rules::email_event(&e.event_type).filter(|_| !e.is_demo) else {
            return Ok(0);
        };
        let mut data = json!({
            "messageId": e.message_id,
            "campaignId": e.campaign_id,
            "contactId": e.contact_id,
            "email": e.email,
            "occurredAt": to_rfc3339(e.occurred_at),
        });
        if let Some(object) = data.as_object_mut() {
            if e.event_type == "clicked" {
                object.insert("url".into(), json!(e.url));
            }
            if matches!(e.event_type.as_str(), "bounced" | "unsubscribed") {
                object.insert("reason".into(), json!(e.detail));
            }
        }
        self.webhook_emit(event, &data, e.occurred_at).await
    }

    /// `email.sent` and `email.bounced` (refused by the mail server) for a batch of send results.
    pub async fn webhook_emit_sent(&mut self, items: &[MessageFinish]) -> Result<u64, sqlx::Error> {
        let mut subscribers: HashMap<&str, Vec<String>> = HashMap::new();
        let mut made = 0;
        for item in items {
            let m = &item.message;
            let (event, reason) = match &item.outcome {
                SendOutcome::Sent => ("email.sent", None),
                SendOutcome::Failed { error } => ("email.bounced", Some(error.as_str())),
                SendOutcome::Deferred { .. } => continue,
            };
            if !subscribers.contains_key(event) {
                let found = self.webhook_subscribers(event).await?;
                subscribers.insert(event, found);
            }
            let endpoints = subscribers.get(event).map(Vec::as_slice).unwrap_or(&[]);
            if endpoints.is_empty() {
                continue;
            }
            let mut data = json!({
                "messageId": m.id,
                "campaignId": m.campaign_id,
                "contactId": m.contact_id,
                "email": m.to_email,
                "occurredAt": to_rfc3339(item.at),
            });
            if let (Some(reason), Some(object)) = (reason, data.as_object_mut()) {
                object.insert("reason".into(), json!(rules::clip(reason, 500)));
            }
            made += self
                .webhook_deliveries_create(endpoints, event, &data, item.at)
                .await?;
        }
        Ok(made)
    }

    /// `job.failed` for a job this transaction marked failed. Failed `webhook_deliver` jobs are
    /// left out: a receiver that is down would otherwise be sent news of its own failures.
    pub async fn webhook_emit_job_failed(
        &mut self,
        job_id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        const EVENT: &str = "job.failed";
        let endpoints = self.webhook_subscribers(EVENT).await?;
        if endpoints.is_empty() {
            return Ok(0);
        }
        let row: Option<(String, i32, i32, Option<String>)> =
            fetch_tx!(self, fetch_optional, query_as(JOB_SNAPSHOT), job_id)?;
        let Some((kind, attempts, max_attempts, error)) = row.filter(|r| r.0 != DELIVER_KIND)
        else {
            return Ok(0);
        };
        let data = json!({
            "job": {
                "id": job_id,
                "kind": kind,
                "attempts": attempts,
                "maxAttempts": max_attempts,
                "error": error.as_deref().map(|e| rules::clip(e, 500)),
                "failedAt": to_rfc3339(now),
            }
        });
        self.webhook_deliveries_create(&endpoints, EVENT, &data, now)
            .await
    }
}

/// The body every attempt of a delivery sends, keys in the contract's order.
pub fn event_body(event: &str, at: i64, data: &Value) -> String {
    format!(
        r#"{{"type":{},"timestamp":{},"data":{}}}"#,
        Value::from(event),
        Value::from(to_rfc3339(at)),
        data
    )
}

/// `base` (an object) with the fields of `extra` (an object) added.
fn with_fields(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// The names of the fields an edit changed, as the api spells them (the status has its own event).
fn contact_changes(before: &ContactWrite, after: &ContactWrite) -> Vec<&'static str> {
    let fields: [(&str, bool); 12] = [
        ("firstName", before.first_name != after.first_name),
        ("lastName", before.last_name != after.last_name),
        ("email", before.email != after.email),
        ("phone", before.phone != after.phone),
        ("title", before.title != after.title),
        ("department", before.department != after.department),
        ("linkedinUrl", before.linkedin_url != after.linkedin_url),
        ("companyId", before.company_id != after.company_id),
        ("score", before.score != after.score),
        ("source", before.source != after.source),
        ("tags", before.tags != after.tags),
        ("notes", before.notes != after.notes),
    ];
    fields
        .into_iter()
        .filter(|(_, changed)| *changed)
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_keeps_the_contracts_order() {
        let body = event_body("contact.created", 0, &json!({ "contact": { "id": "c1" } }));
        assert_eq!(
            body,
            r#"{"type":"contact.created","timestamp":"1970-01-01T00:00:00.000Z","data":{"contact":{"id":"c1"}}}"#
        );
        let merged = with_fields(json!({ "a": 1 }), json!({ "b": 2 }));
        assert_eq!(merged, json!({ "a": 1, "b": 2 }));
    }
}
