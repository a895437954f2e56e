//! Meeting reminders: which slot is due, who gets one, and what it says. Times are shown in the
//! recipient's zone (the main zone of their company's state), else UTC, and say how far off the
//! meeting is at the moment of sending, so a late reminder never claims "tomorrow" for today.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::db::{ContactRow, MeetingRow};
use crate::domain::contacts::is_valid_email;
use crate::providers::sms::e164;

/// The nearest reminder slot (minutes before the start) that is due at `now`: the smallest offset
/// whose time has come. A meeting booked 30 minutes ahead gets its 60-minute reminder, not the
/// day-before one as well.
pub fn due_slot(offsets: &[i64], start: i64, now: i64) -> Option<i64> {
    offsets
        .iter()
        .copied()
        .filter(|o| start - o * 60_000 <= now && start > now)
        .min()
}

/// Who a meeting's reminder goes to: the contact's address and each attendee address (attendees are
/// free text; names without an address are left out), and the contact's phone in E.164.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recipients {
    /// (address, is the meeting's contact)
    pub emails: Vec<(String, bool)>,
    pub phone: Option<String>,
}

pub fn recipients(m: &MeetingRow, contact: Option<&ContactRow>) -> Recipients {
    let mut out = Recipients::default();
    if let Some(e) = contact.and_then(|c| c.email.as_deref()).map(str::trim)
        && is_valid_email(e)
    {
        out.emails.push((e.to_lowercase(), true));
    }
    for part in m.attendees.as_deref().unwrap_or_default().split([',', ';']) {
        let a = part.trim().to_lowercase();
        if is_valid_email(&a) && !out.emails.iter().any(|(e, _)| *e == a) {
            out.emails.push((a, false));
        }
    }
    out.phone = contact.and_then(|c| c.phone.as_deref()).and_then(e164);
    out
}

pub struct ReminderText {
    pub subject: String,
    pub body: String,
    pub sms: String,
}

fn when(start_ms: i64, tz: Option<Tz>) -> String {
    let start = DateTime::<Utc>::from_timestamp_millis(start_ms).unwrap_or_default();
    match tz {
        Some(tz) => start
            .with_timezone(&tz)
            .format("%A, %B %-d at %-I:%M %p %Z")
            .to_string(),
        None => start.format("%A, %B %-d at %H:%M UTC").to_string(),
    }
}

/// "in 3 hours", "in 45 minutes", "tomorrow"-free wording from the time left.
fn lead_time(start_ms: i64, now: i64) -> String {
    let minutes = ((start_ms - now) as f64 / 60_000.0).round() as i64;
    match minutes {
        m if m < 1 => "now".into(),
        1 => "in 1 minute".into(),
        m if m < 90 => format!("in {m} minutes"),
        m if m < 36 * 60 => format!("in {} hours", (m as f64 / 60.0).round() as i64),
        m => format!("in {} days", (m as f64 / 1440.0).round() as i64),
    }
}

/// The reminder's words. `personalize` greets the contact by name; `state` picks the time zone.
pub fn compose(
    m: &MeetingRow,
    contact: Option<&ContactRow>,
    state: Option<&str>,
    personalize: bool,
    now: i64,
) -> ReminderText {
    let tz = state.and_then(crate::sending_window::state_time_zone);
    let at = when(m.scheduled_at, tz);
    let soon = lead_time(m.scheduled_at, now);
    let greeting = match contact.filter(|_| personalize) {
        Some(c) if !c.first_name.trim().is_empty() => format!("Hi {},", c.first_name.trim()),
        _ => "Hello,".to_string(),
    };
    let mut lines = vec![
        greeting,
        String::new(),
        format!(
            "A reminder: \"{}\" starts {soon}, on {at} ({} minutes).",
            m.title, m.duration
        ),
    ];
    if let Some(l) = m.location.as_deref().filter(|l| !l.trim().is_empty()) {
        lines.push(format!("Where: {l}"));
    }
    if let Some(link) = &m.google_meet_link {
        lines.push(format!("Join online: {link}"));
    }
    if let Some(a) = m.agenda.as_deref().filter(|a| !a.trim().is_empty()) {
        lines.push(String::new());
        lines.push(format!("Agenda: {a}"));
    }
    lines.push(String::new());
    lines.push("If the time no longer works, reply to this email and we will find another.".into());
    let sms_name = match contact.filter(|_| personalize) {
        Some(c) if !c.first_name.trim().is_empty() => format!("Hi {}, r", c.first_name.trim()),
        _ => "R".to_string(),
    };
    ReminderText {
        subject: format!("Reminder: {} {soon}", m.title),
        body: lines.join("\n"),
        sms: format!("{sms_name}eminder: \"{}\" starts {soon} ({at}).", m.title),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_due_slot() {
        let start = 10 * 86_400_000;
        let offsets = [1440, 60];
        assert_eq!(due_slot(&offsets, start, start - 1441 * 60_000), None);
        assert_eq!(due_slot(&offsets, start, start - 1440 * 60_000), Some(1440));
        assert_eq!(due_slot(&offsets, start, start - 61 * 60_000), Some(1440));
        assert_eq!(due_slot(&offsets, start, start - 30 * 60_000), Some(60));
        assert_eq!(due_slot(&offsets, start, start), None, "started");
    }

    #[test]
    fn wording() {
        assert_eq!(lead_time(3 * 3_600_000, 0), "in 3 hours");
        assert_eq!(lead_time(45 * 60_000, 0), "in 45 minutes");
        assert_eq!(lead_time(24 * 3_600_000, 0), "in 24 hours");
        assert_eq!(lead_time(3 * 86_400_000, 0), "in 3 days");
        // 2026-03-02 15:00 UTC is 9:00 AM in Texas (CST).
        let t = DateTime::parse_from_rfc3339("2026-03-02T15:00:00Z")
            .map(|t| t.timestamp_millis())
            .unwrap_or_default();
        assert_eq!(
            when(t, crate::sending_window::state_time_zone("TX")),
            "Monday, March 2 at 9:00 AM CST"
        );
        assert_eq!(when(t, None), "Monday, March 2 at 15:00 UTC");
    }
}
