//! Email figures from message counts: what "sent", "delivered" and each rate mean, once, for every
//! screen (docs/figures.md). The counts come from `Db::email_figures`.
//!
//! - sent: messages the mail server accepted (a message it refused is "failed" in a campaign's
//!   progress, not sent); test sends and meeting reminders are not counted.
//! - delivered = sent − bounced: plain SMTP reports no delivery, so a sent message counts as
//!   delivered until it is reported bounced.
//! - opened, clicked, replied, bounced, unsubscribed, complained: messages with at least one such
//!   event (a message opened twice is one open).
//! - open tracked: sent with the open pixel (a workspace setting, off by default); opened counts
//!   only those, and the open rate is a share of them, so turning tracking off or on never makes
//!   the rate look lower or higher than what was measured.
//! - every other rate is a share of the messages sent, in percent with one decimal; 0 when none
//!   was sent.

use serde::Serialize;

use super::figures::rate;

/// Message counts of one scope (a sum of `FigureRow`s).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmailCounts {
    pub sent: i64,
    pub open_tracked: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub unsubscribed: i64,
    pub complained: i64,
}

impl EmailCounts {
    pub fn add(&mut self, o: &EmailCounts) {
        self.sent += o.sent;
        self.open_tracked += o.open_tracked;
        self.opened += o.opened;
        self.clicked += o.clicked;
        self.replied += o.replied;
        self.bounced += o.bounced;
        self.unsubscribed += o.unsubscribed;
        self.complained += o.complained;
    }

    /// The sum of `items`.
    pub fn sum<'a>(items: impl IntoIterator<Item = &'a EmailCounts>) -> EmailCounts {
        let mut total = EmailCounts::default();
        for c in items {
            total.add(c);
        }
        total
    }
}

/// The counts and rates every screen shows, in the API's field names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailFigures {
    pub sent: i64,
    pub delivered: i64,
    /// Sent with the open pixel: the open rate's base (0: opens were not tracked).
    pub open_tracked: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub unsubscribed: i64,
    pub complained: i64,
    pub delivery_rate: f64,
    pub open_rate: f64,
    pub click_rate: f64,
    pub reply_rate: f64,
    pub bounce_rate: f64,
    pub unsubscribe_rate: f64,
    pub complaint_rate: f64,
}

/// The figures of `c`.
pub fn email_figures(c: &EmailCounts) -> EmailFigures {
    // A bounce is of a sent message, so this stays within 0..=sent; the clamp keeps it there even
    // if a count were inconsistent.
    let delivered = (c.sent - c.bounced).clamp(0, c.sent.max(0));
    EmailFigures {
        sent: c.sent,
        delivered,
        open_tracked: c.open_tracked,
        opened: c.opened,
        clicked: c.clicked,
        replied: c.replied,
        bounced: c.bounced,
        unsubscribed: c.unsubscribed,
        complained: c.complained,
        delivery_rate: rate(delivered, c.sent),
        open_rate: rate(c.opened, c.open_tracked),
        click_rate: rate(c.clicked, c.sent),
        reply_rate: rate(c.replied, c.sent),
        bounce_rate: rate(c.bounced, c.sent),
        unsubscribe_rate: rate(c.unsubscribed, c.sent),
        complaint_rate: rate(c.complained, c.sent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(sent: i64, opened: i64, replied: i64, bounced: i64) -> EmailCounts {
        EmailCounts {
            sent,
            // Tracked unless a test says otherwise.
            open_tracked: sent,
            opened,
            replied,
            bounced,
            ..EmailCounts::default()
        }
    }

    #[test]
    fn the_open_rate_is_of_the_messages_that_carried_the_pixel() {
        // 10 sent, 4 with the pixel, 2 of those opened: 50 %, not 20 %.
        let f = email_figures(&EmailCounts {
            open_tracked: 4,
            ..counts(10, 2, 1, 0)
        });
        assert_eq!((f.open_tracked, f.open_rate, f.reply_rate), (4, 50.0, 10.0));
        // Nothing tracked: no open rate to show, never a misleading 0 % of everything sent.
        let f = email_figures(&EmailCounts {
            open_tracked: 0,
            ..counts(10, 0, 1, 0)
        });
        assert_eq!((f.open_tracked, f.open_rate), (0, 0.0));
    }

    #[test]
    fn nothing_sent_is_all_zero() {
        assert_eq!(
            email_figures(&EmailCounts::default()),
            EmailFigures::default()
        );
    }

    #[test]
    fn delivered_is_sent_minus_bounced() {
        let f = email_figures(&counts(20, 9, 1, 1));
        assert_eq!(f.delivered, 19);
        assert_eq!(f.delivery_rate, 95.0);
        assert_eq!(f.bounce_rate, 5.0);
        assert_eq!(f.open_rate, 45.0);
        assert_eq!(f.reply_rate, 5.0);
    }

    #[test]
    fn rates_are_of_sent_with_one_decimal() {
        let f = email_figures(&counts(3, 2, 1, 0));
        assert_eq!(f.open_rate, 66.7);
        assert_eq!(f.reply_rate, 33.3);
        assert_eq!(f.delivery_rate, 100.0);
        let f = email_figures(&counts(8, 1, 0, 0));
        assert_eq!(f.open_rate, 12.5);
    }

    #[test]
    fn inconsistent_counts_never_make_delivered_negative() {
        let f = email_figures(&counts(1, 0, 0, 3));
        assert_eq!(f.delivered, 0);
        assert_eq!(f.delivery_rate, 0.0);
    }

    #[test]
    fn sums_add_every_count() {
        let a = counts(2, 1, 0, 1);
        let b = EmailCounts {
            unsubscribed: 1,
            complained: 1,
            clicked: 1,
            ..counts(3, 2, 1, 0)
        };
        let s = EmailCounts::sum([&a, &b]);
        assert_eq!(
            s,
            EmailCounts {
                sent: 5,
                open_tracked: 5,
                opened: 3,
                clicked: 1,
                replied: 1,
                bounced: 1,
                unsubscribed: 1,
                complained: 1
            }
        );
    }
}
