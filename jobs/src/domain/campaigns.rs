//! What a bulk campaign is doing, as its user should read it: its status as stored, corrected by the
//! state of its latest send job (a job that died leaves the campaign `failed`, not `sending`
//! forever), and, while it waits, why and until when. Pure: the api reads the job, the limits and
//! the ledger and passes them in.

use serde::Serialize;

/// The latest `bulk_campaign_send` job of a campaign.
#[derive(Debug, Clone, Default)]
pub struct SendJob {
    /// The queue's status: queued, scheduled, running, retrying, succeeded, failed, cancelled.
    pub status: String,
    /// When it runs (ms).
    pub run_at: i64,
    pub error: Option<String>,
}

/// The sending mailbox's use of its limits now.
#[derive(Debug, Clone, Copy, Default)]
pub struct LimitUse {
    pub sent_this_hour: i64,
    pub hourly_limit: i64,
    pub sent_today: i64,
    /// The daily limit in force (warm-up included).
    pub daily_limit: i64,
}

/// What the campaign waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    /// `hourly_limit`, `daily_limit`, `deferred`, `retrying`, `scheduled`, `waiting`, `paused_by_ops`,
    /// `paused`.
    pub reason: &'static str,
    /// In words, without the time: "Hourly limit reached".
    pub label: String,
    /// When sending resumes (ms); `None` when it waits for someone (paused).
    pub until: Option<i64>,
}

/// A campaign's status and waiting line as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignState {
    pub status: String,
    /// Why it failed (`status` is `failed`).
    pub failure: Option<String>,
    pub waiting: Option<Waiting>,
}

/// Everything [`campaign_state`] reads.
#[derive(Debug, Clone, Default)]
pub struct StateInput<'a> {
    /// As stored: draft, scheduled, sending, paused, sent, cancelled.
    pub status: &'a str,
    pub job: Option<&'a SendJob>,
    /// Ops paused the `bulk_campaign_send` kind.
    pub kind_paused: bool,
    pub limits: LimitUse,
    /// Recipients deferred by the server (4xx), and when the first is due again.
    pub deferred: i64,
    pub next_attempt_at: Option<i64>,
    pub now: i64,
}

fn waiting(reason: &'static str, label: impl Into<String>, until: Option<i64>) -> Option<Waiting> {
    Some(Waiting {
        reason,
        label: label.into(),
        until,
    })
}

/// The campaign's state: see the module's description. Order matters: a user's pause wins, then a
/// dead job, then ops' pause (nothing runs whatever the job says), then the job's own wait.
pub fn campaign_state(i: &StateInput) -> CampaignState {
    let stored = |waiting| CampaignState {
        status: i.status.to_string(),
        failure: None,
        waiting,
    };
    match i.status {
        "paused" => return stored(waiting("paused", "Paused", None)),
        "sending" | "scheduled" => {}
        _ => return stored(None),
    }
    let Some(job) = i.job else {
        return stored(None);
    };
    if i.status == "sending" && matches!(job.status.as_str(), "failed" | "cancelled") {
        // A cancelled job's error is only the word "cancelled".
        let reason = match (&job.error, job.status.as_str()) {
            (_, "cancelled") => "the sending job was cancelled".to_string(),
            (Some(e), _) if !e.trim().is_empty() => e.clone(),
            _ => "the sending job failed".to_string(),
        };
        return CampaignState {
            status: "failed".into(),
            failure: Some(reason),
            waiting: None,
        };
    }
    let active = matches!(
        job.status.as_str(),
        "queued" | "scheduled" | "retrying" | "running"
    );
    if !active {
        return stored(None);
    }
    if i.kind_paused {
        return stored(waiting("paused_by_ops", "Paused by ops", None));
    }
    if job.status == "running" || job.run_at <= i.now {
        return stored(None);
    }
    let until = Some(job.run_at);
    if i.status == "scheduled" {
        return stored(waiting("scheduled", "Scheduled", until));
    }
    if job.status == "retrying" {
        let label = match &job.error {
            Some(e) => format!("Retrying after an error ({e})"),
            None => "Retrying after an error".to_string(),
        };
        return stored(waiting("retrying", label, until));
    }
    let l = i.limits;
    if l.hourly_limit > 0 && l.sent_this_hour >= l.hourly_limit {
        return stored(waiting("hourly_limit", "Hourly limit reached", until));
    }
    if l.daily_limit > 0 && l.sent_today >= l.daily_limit {
        return stored(waiting("daily_limit", "Daily limit reached", until));
    }
    if i.deferred > 0 && i.next_attempt_at.is_some_and(|at| at <= job.run_at) {
        let label = format!(
            "The mail server deferred {} recipient{}; trying again",
            i.deferred,
            if i.deferred == 1 { "" } else { "s" }
        );
        return stored(waiting("deferred", label, until));
    }
    // Due later for a reason no longer visible (the window it waited for filled, then emptied).
    stored(waiting("waiting", "Waiting to send", until))
}

/// One line of the readiness check: what, whether it is in order, and what to do in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadinessItem {
    pub item: &'static str,
    pub ok: bool,
    pub message: String,
}

/// What the readiness check reads from settings.
#[derive(Debug, Clone, Default)]
pub struct ReadinessInput<'a> {
    /// `SMTP_URL` is set: messages leave the machine.
    pub smtp: bool,
    pub postal_address_set: bool,
    /// `MAIL_FROM` (`Name <addr>` or `addr`).
    pub from: &'a str,
    /// Its domain is the install's placeholder.
    pub from_is_default: bool,
    pub public_base_url: &'a str,
    pub hourly_limit: i64,
    pub daily_limit: i64,
    pub warmup: bool,
}

/// What must be in order before email is sent for real, each in words a user acts on.
pub fn readiness(i: &ReadinessInput) -> Vec<ReadinessItem> {
    let item = |item, ok, message: String| ReadinessItem { item, ok, message };
    let local = ["127.0.0.1", "localhost", "0.0.0.0"]
        .iter()
        .any(|h| i.public_base_url.contains(h));
    vec![
        item(
            "postal_address",
            i.postal_address_set,
            if i.postal_address_set {
                "Your postal address is printed in every message's footer.".into()
            } else if i.smtp {
                "No postal address (MAIL_POSTAL_ADDRESS): real sending is blocked until it is set."
                    .into()
            } else {
                "No postal address (MAIL_POSTAL_ADDRESS): set it before sending real email.".into()
            },
        ),
        item(
            "sender",
            !i.from_is_default,
            if i.from_is_default {
                format!(
                    "Messages would come from {}, a placeholder: set MAIL_FROM to an address of your domain.",
                    i.from
                )
            } else {
                format!("Messages come from {}.", i.from)
            },
        ),
        item(
            "limits",
            i.hourly_limit > 0 && i.daily_limit > 0,
            format!(
                "At most {} messages an hour and {} a day{}.",
                i.hourly_limit,
                i.daily_limit,
                if i.warmup {
                    ", warming up from 20 a day"
                } else {
                    ""
                }
            ),
        ),
        item(
            "delivery",
            i.smtp,
            if i.smtp {
                "Messages are sent through your SMTP server (SMTP_URL).".into()
            } else {
                "Outbox mode: messages are written to files and nothing leaves this machine. Set SMTP_URL to send for real.".into()
            },
        ),
        item(
            "links",
            !local,
            if local {
                format!(
                    "Unsubscribe and tracking links point to {}, which recipients cannot reach: set PUBLIC_BASE_URL.",
                    i.public_base_url
                )
            } else {
                format!(
                    "Unsubscribe and tracking links point to {}.",
                    i.public_base_url
                )
            },
        ),
    ]
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_343_400_000; // 2026-11-22T10:30:00Z
    const ELEVEN: i64 = 1_795_345_200_000; // 11:00

    fn job(status: &str, run_at: i64) -> SendJob {
        SendJob {
            status: status.into(),
            run_at,
            error: None,
        }
    }

    fn input<'a>(status: &'a str, job: Option<&'a SendJob>) -> StateInput<'a> {
        StateInput {
            status,
            job,
            limits: LimitUse {
                sent_this_hour: 5,
                hourly_limit: 20,
                sent_today: 5,
                daily_limit: 100,
            },
            now: NOW,
            ..StateInput::default()
        }
    }

    #[test]
    fn readiness_names_what_is_missing() {
        let mut i = ReadinessInput {
            smtp: true,
            postal_address_set: false,
            from: "Team <team@dealers.test>",
            public_base_url: "https://crm.dealers.test",
            hourly_limit: 50,
            daily_limit: 500,
            ..ReadinessInput::default()
        };
        let items = readiness(&i);
        let postal = &items[0];
        assert_eq!((postal.item, postal.ok), ("postal_address", false));
        assert!(postal.message.contains("blocked"), "{}", postal.message);
        assert!(items[1..].iter().all(|x| x.ok), "{items:?}");
        i.postal_address_set = true;
        i.smtp = false;
        i.from_is_default = true;
        i.public_base_url = "http://127.0.0.1:8080";
        let items = readiness(&i);
        let bad: Vec<_> = items.iter().filter(|x| !x.ok).map(|x| x.item).collect();
        assert_eq!(bad, ["sender", "delivery", "links"]);
    }

    #[test]
    fn hourly_limit_waits_until_the_next_run() {
        let j = job("queued", ELEVEN);
        let mut i = input("sending", Some(&j));
        i.limits.sent_this_hour = 20;
        let s = campaign_state(&i);
        assert_eq!(s.status, "sending");
        let w = s.waiting.expect("waiting");
        assert_eq!(
            (w.reason, w.label.as_str()),
            ("hourly_limit", "Hourly limit reached")
        );
        assert_eq!(w.until, Some(ELEVEN));
    }

    #[test]
    fn daily_limit_and_deferred_recipients() {
        let j = job("scheduled", ELEVEN);
        let mut i = input("sending", Some(&j));
        i.limits.sent_today = 100;
        assert_eq!(
            campaign_state(&i).waiting.map(|w| w.reason),
            Some("daily_limit")
        );
        i.limits.sent_today = 5;
        i.deferred = 2;
        i.next_attempt_at = Some(ELEVEN);
        let w = campaign_state(&i).waiting.expect("waiting");
        assert_eq!(w.reason, "deferred");
        assert!(w.label.contains("2 recipients"), "{}", w.label);
    }

    #[test]
    fn a_dead_job_fails_the_campaign_with_its_reason() {
        let mut j = job("failed", NOW - 1000);
        j.error = Some("smtp refused".into());
        let s = campaign_state(&input("sending", Some(&j)));
        assert_eq!(s.status, "failed");
        assert_eq!(s.failure.as_deref(), Some("smtp refused"));
        let c = job("cancelled", NOW);
        let s = campaign_state(&input("sending", Some(&c)));
        assert_eq!(s.status, "failed");
        assert_eq!(s.failure.as_deref(), Some("the sending job was cancelled"));
        // A campaign that finished or that the user cancelled keeps its status.
        assert_eq!(campaign_state(&input("sent", Some(&j))).status, "sent");
        assert_eq!(
            campaign_state(&input("cancelled", Some(&j))).status,
            "cancelled"
        );
    }

    #[test]
    fn pauses_say_who_paused() {
        let j = job("queued", ELEVEN);
        let s = campaign_state(&input("paused", Some(&j)));
        assert_eq!(
            s.waiting.map(|w| (w.reason, w.until)),
            Some(("paused", None))
        );
        let mut i = input("sending", Some(&j));
        i.kind_paused = true;
        let w = campaign_state(&i).waiting.expect("waiting");
        assert_eq!(
            (w.reason, w.label.as_str()),
            ("paused_by_ops", "Paused by ops")
        );
    }

    #[test]
    fn running_or_due_jobs_do_not_wait() {
        let r = job("running", NOW - 5);
        assert_eq!(campaign_state(&input("sending", Some(&r))).waiting, None);
        let due = job("queued", NOW);
        assert_eq!(campaign_state(&input("sending", Some(&due))).waiting, None);
        assert_eq!(campaign_state(&input("draft", None)).waiting, None);
        let later = job("scheduled", ELEVEN);
        let w = campaign_state(&input("scheduled", Some(&later)))
            .waiting
            .expect("waiting");
        assert_eq!((w.reason, w.until), ("scheduled", Some(ELEVEN)));
        let mut retry = job("retrying", ELEVEN);
        retry.error = Some("database error".into());
        let w = campaign_state(&input("sending", Some(&retry)))
            .waiting
            .expect("waiting");
        assert_eq!(w.reason, "retrying");
    }
}
