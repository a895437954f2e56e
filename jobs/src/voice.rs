//! Status callbacks of the voice-agent API, applied to our call rows. A finished call writes its
//! transcript and outcome to the contact's history; a qualified lead moves to `qualified` and gets a
//! meeting suggestion. Callbacks may repeat or arrive late: a finished call never changes again.

use chrono::{Datelike, Duration, Local, NaiveTime, TimeZone, Weekday};
use serde::Deserialize;
use serde_json::json;

use crate::db::{ActivityInsert, Db};

pub const OUTCOMES: [&str; 4] = ["qualified", "not_interested", "callback", "voicemail"];

/// A status callback as the voice service sends it.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Callback {
    pub id: String,
    pub status: String,
    pub transcript: Option<String>,
    pub summary: Option<String>,
    pub outcome: Option<String>,
    pub duration_seconds: Option<i32>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    Updated,
    /// Repeated, late, or about a finished call: nothing changed.
    Ignored,
    UnknownCall,
}

/// Every status a call can have: waiting for its time or its turn, then the provider's progress.
pub const CALL_STATUSES: [&str; 7] = [
    "scheduled",
    "queued",
    "dialing",
    "in_progress",
    "completed",
    "failed",
    "no_answer",
];

/// Our status for the provider's word, and the states it may follow.
fn transition(status: &str) -> Option<(&'static str, &'static [&'static str])> {
    const OPEN: &[&str] = &["queued", "dialing", "in_progress"];
    Some(match status {
        "queued" | "initiated" | "ringing" | "dialing" => ("dialing", &["queued"]),
        "in_progress" | "in-progress" | "answered" => ("in_progress", &["queued", "dialing"]),
        "completed" => ("completed", OPEN),
        "failed" | "busy" | "canceled" | "cancelled" => ("failed", OPEN),
        "no_answer" | "no-answer" => ("no_answer", OPEN),
        _ => return None,
    })
}

/// The next business day at 10:00 local time, in ms.
pub fn suggested_meeting_at(now_ms: i64) -> i64 {
    let now = Local
        .timestamp_millis_opt(now_ms)
        .single()
        .unwrap_or_else(Local::now);
    let mut day = now.date_naive() + Duration::days(1);
    while matches!(day.weekday(), Weekday::Sat | Weekday::Sun) {
        day += Duration::days(1);
    }
    let ten = NaiveTime::from_hms_opt(10, 0, 0).unwrap_or_default();
    Local
        .from_local_datetime(&day.and_time(ten))
        .earliest()
        .map_or(now_ms + 86_400_000, |t| t.timestamp_millis())
}

pub async fn apply_callback(db: &Db, cb: &Callback, now_ms: i64) -> Result<Applied, String> {
    let (status, from) =
        transition(&cb.status).ok_or_else(|| format!("unknown call status {:?}", cb.status))?;
    if let Some(o) = &cb.outcome
        && !OUTCOMES.contains(&o.as_str())
    {
        return Err(format!("unknown outcome {o:?}"));
    }
    let Some(mut call) = db
        .voice_call_by_provider_id(&cb.id)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(Applied::UnknownCall);
    };
    call.status = status.into();
    call.transcript = cb.transcript.clone().or(call.transcript);
    call.summary = cb.summary.clone().or(call.summary);
    call.outcome = cb.outcome.clone().or(call.outcome);
    call.duration_seconds = cb.duration_seconds.or(call.duration_seconds);
    call.updated_at = now_ms;
    let qualified = status == "completed" && call.outcome.as_deref() == Some("qualified");
    if qualified {
        let at = suggested_meeting_at(now_ms);
        call.suggested_meeting = Some(sqlx::types::Json(json!({
            "title": format!("Meeting with {} (qualified by {})", call.contact_name, call.agent_name),
            "startTime": chrono::DateTime::from_timestamp_millis(at).map(|t| t.to_rfc3339()),
        })));
    }
    if !db
        .voice_call_advance(&call, from)
        .await
        .map_err(|e| e.to_string())?
    {
        return Ok(Applied::Ignored);
    }
    if matches!(status, "completed" | "failed" | "no_answer") {
        let mut description = match status {
            "completed" => format!(
                "Voice call by {} completed{}: {}",
                call.agent_name,
                call.outcome
                    .as_deref()
                    .map(|o| format!(" ({})", o.replace('_', " ")))
                    .unwrap_or_default(),
                call.purpose
            ),
            "no_answer" => format!("Voice call by {}: no answer", call.agent_name),
            _ => format!("Voice call by {} failed", call.agent_name),
        };
        if let Some(s) = &call.summary {
            description.push_str(&format!("\nSummary: {s}"));
        }
        if let Some(t) = &call.transcript {
            description.push_str(&format!("\nTranscript:\n{t}"));
        }
        let mut tx = db.begin().await.map_err(|e| e.to_string())?;
        tx.activity_insert(&ActivityInsert {
            kind: "voice_call",
            description: &description,
            entity_type: Some("contact"),
            entity_id: Some(&call.contact_id),
            actor_id: call.actor_id.as_deref(),
        })
        .await
        .map_err(|e| e.to_string())?;
        if qualified {
            tx.contact_status_set(&call.contact_id, "qualified", now_ms)
                .await
                .map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(Applied::Updated)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn every_status_a_provider_moves_a_call_to_is_a_call_status() {
        for word in ["ringing", "answered", "completed", "busy", "no-answer"] {
            let (to, from) = transition(word).unwrap_or(("?", &[]));
            assert!(CALL_STATUSES.contains(&to), "{word} -> {to}");
            assert!(from.iter().all(|s| CALL_STATUSES.contains(s)), "{word}");
        }
    }

    #[test]
    fn meetings_are_suggested_on_business_days_at_ten() {
        // A Friday afternoon → Monday 10:00.
        let friday = Local
            .with_ymd_and_hms(2026, 11, 20, 15, 0, 0)
            .unwrap()
            .timestamp_millis();
        let at = Local
            .timestamp_millis_opt(suggested_meeting_at(friday))
            .unwrap();
        assert_eq!(at.weekday(), Weekday::Mon);
        assert_eq!(
            (at.day(), at.format("%H:%M").to_string()),
            (23, "10:00".to_string())
        );
    }

    #[test]
    fn finished_calls_stay_finished() {
        assert_eq!(transition("completed").map(|t| t.0), Some("completed"));
        assert!(!transition("ringing").unwrap().1.contains(&"completed"));
        assert!(!transition("completed").unwrap().1.contains(&"failed"));
        assert!(transition("exploded").is_none());
    }
}
