//! Email figures: the one query every screen's sent/delivered/opened/clicked/replied/bounced/
//! unsubscribed/complained counts come from (dashboard, campaigns, sequences, a contact's history,
//! email analytics). The definitions are in docs/figures.md; the rates are
//! [`crate::domain::email_figures`]'s.
//!
//! The query counts ledger messages (`email_messages`, one row per message, with the first time of
//! each event kept on the row) grouped by campaign, sequence step and A/B variant; callers sum the
//! groups they need, so a total and its parts are the same rows.

use super::sql::Sql;
use super::*;

/// Which messages to count. `None` means any; the window is on when the message was sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct FigureScope<'a> {
    pub campaign_id: Option<&'a str>,
    pub sequence_id: Option<&'a str>,
    pub contact_id: Option<&'a str>,
    /// Sent at or after (ms).
    pub since: Option<i64>,
    /// Sent before (ms).
    pub until: Option<i64>,
}

/// The counts of one group of messages.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct FigureRow {
    pub campaign_id: Option<String>,
    pub step_id: Option<String>,
    pub variant: Option<String>,
    pub sent: i64,
    /// Sent with the open pixel.
    pub open_tracked: i64,
    /// Opened, of those.
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub unsubscribed: i64,
    pub complained: i64,
}

/// A sent message: accepted by the mail server (`sent_at`; a message it refused is `failed`, shown in
/// a campaign's delivery progress, not sent). Meeting reminders and test sends are not outreach.
macro_rules! sent_message {
    () => {
        "m.sent_at IS NOT NULL
         AND m.dedupe_key NOT LIKE 'reminder:%' AND m.dedupe_key NOT LIKE 'test:%'"
    };
}

/// An event of `$kind` about message `m`: naming it, or (an unsubscribe link carries no message)
/// naming its campaign and address. Two lookups, each on an index of `email_events`.
macro_rules! event_about {
    ($kind:literal) => {
        concat!(
            "COUNT(CASE WHEN EXISTS (SELECT 1 FROM email_events e
                 WHERE e.message_id = m.id AND e.event_type = '",
            $kind,
            "') OR EXISTS (SELECT 1 FROM email_events e
                 WHERE e.email = m.to_email AND e.event_type = '",
            $kind,
            "' AND e.message_id IS NULL AND e.campaign_id = m.campaign_id) THEN 1 END)"
        )
    };
}

/// ?1..?2 the window on the send time, ?3 campaign, ?4 sequence, ?5 contact (NULL: any).
const FIGURES: Sql = sql!(concat!(
    "SELECT m.campaign_id, m.step_id, m.variant, COUNT(*) AS sent,
         COUNT(CASE WHEN m.track_opens THEN 1 END) AS open_tracked,
         COUNT(CASE WHEN m.track_opens THEN m.opened_at END) AS opened,
         COUNT(m.clicked_at) AS clicked, COUNT(m.replied_at) AS replied,
         COUNT(m.bounced_at) AS bounced, ",
    event_about!("unsubscribed"),
    " AS unsubscribed, ",
    event_about!("spam_reported"),
    " AS complained
     FROM email_messages m
     WHERE ",
    sent_message!(),
    " AND m.sent_at >= ?1 AND m.sent_at < ?2
       AND (CAST(?3 AS TEXT) IS NULL OR m.campaign_id = ?3)
       AND (CAST(?4 AS TEXT) IS NULL OR m.enrollment_id IN
            (SELECT id FROM sequence_enrollments WHERE sequence_id = ?4))
       AND (CAST(?5 AS TEXT) IS NULL OR m.contact_id = ?5)
     GROUP BY m.campaign_id, m.step_id, m.variant"
));

impl Db {
    /// The counts of the messages in `scope`, per campaign, step and variant.
    pub async fn email_figures(
        &self,
        scope: &FigureScope<'_>,
    ) -> Result<Vec<FigureRow>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(FIGURES),
            scope.since.unwrap_or(i64::MIN),
            scope.until.unwrap_or(i64::MAX),
            scope.campaign_id,
            scope.sequence_id,
            scope.contact_id
        )
    }
}

impl FigureRow {
    pub fn counts(&self) -> crate::domain::email_figures::EmailCounts {
        crate::domain::email_figures::EmailCounts {
            sent: self.sent,
            open_tracked: self.open_tracked,
            opened: self.opened,
            clicked: self.clicked,
            replied: self.replied,
            bounced: self.bounced,
            unsubscribed: self.unsubscribed,
            complained: self.complained,
        }
    }
}

/// The counts of all `rows` together.
pub fn figure_total<'a>(
    rows: impl IntoIterator<Item = &'a FigureRow>,
) -> crate::domain::email_figures::EmailCounts {
    let counts: Vec<_> = rows.into_iter().map(FigureRow::counts).collect();
    crate::domain::email_figures::EmailCounts::sum(&counts)
}
