//! Why a sequence is not sending right now, and until when, as its user should read it. Pure: the
//! api reads the sequence, its enrollments, the sending limits and ops' pauses and passes them in.

use serde::Serialize;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// What a sequence waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    /// `draft`, `paused`, `paused_by_ops`, `daily_limit`, `hourly_limit`, `outside_sending_window`,
    /// `daily_enrollment_limit`.
    pub reason: &'static str,
    /// In words, without the time: "Hourly limit reached".
    pub label: &'static str,
    /// When it resumes (ms); `None` when it waits for someone.
    pub until: Option<i64>,
}

/// Everything [`sequence_waiting`] reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct WaitInput<'a> {
    /// draft, active, paused, archived.
    pub status: &'a str,
    pub now: i64,
    /// Enrollments still under way (they are what would send).
    pub active_enrollments: i64,
    /// Ops paused the sequence job kinds: nothing runs.
    pub kinds_paused: bool,
    pub sent_this_hour: i64,
    pub hourly_limit: i64,
    pub sent_today: i64,
    /// The daily limit in force (warm-up included).
    pub daily_limit: i64,
    /// The sending window's next opening in the sender's zone (`now` when open); none: no window.
    pub window_opens: Option<i64>,
    pub enrolled_today: i64,
    pub max_daily_enrollments: i64,
}

const fn waiting(reason: &'static str, label: &'static str, until: Option<i64>) -> Option<Waiting> {
    Some(Waiting {
        reason,
        label,
        until,
    })
}

/// The start of the next UTC hour / day after `now`: when the mailbox counters start again.
fn next_hour(now: i64) -> i64 {
    now - now.rem_euclid(HOUR_MS) + HOUR_MS
}
fn next_day(now: i64) -> i64 {
    now - now.rem_euclid(DAY_MS) + DAY_MS
}

/// Why the sequence waits, or `None` when it sends (or has nothing to send, or ended). Order: the
/// user's choice, then ops', then what holds every message (limits, then the window), then the
/// daily enrollment allowance (which holds new enrollments only).
pub fn sequence_waiting(i: &WaitInput) -> Option<Waiting> {
    match i.status {
        "draft" => return waiting("draft", "Draft: activate it to start sending", None),
        "paused" => return waiting("paused", "Paused", None),
        "active" => {}
        _ => return None,
    }
    if i.active_enrollments > 0 {
        if i.kinds_paused {
            return waiting("paused_by_ops", "Paused by ops", None);
        }
        if i.daily_limit > 0 && i.sent_today >= i.daily_limit {
            return waiting(
                "daily_limit",
                "Daily sending limit reached",
                Some(next_day(i.now)),
            );
        }
        if i.hourly_limit > 0 && i.sent_this_hour >= i.hourly_limit {
            return waiting(
                "hourly_limit",
                "Hourly limit reached",
                Some(next_hour(i.now)),
            );
        }
        if let Some(open) = i.window_opens.filter(|open| *open > i.now) {
            return waiting(
                "outside_sending_window",
                "Outside the sending window",
                Some(open),
            );
        }
    }
    if i.max_daily_enrollments > 0 && i.enrolled_today >= i.max_daily_enrollments {
        return waiting(
            "daily_enrollment_limit",
            "Daily enrollment limit reached",
            Some(next_day(i.now)),
        );
    }
    None
}

/// Where the active enrollments go when the steps change order (`current`: the step ids in running
/// order; `order`: the new one, without a deleted step): `(from, to)` positions for each step that
/// moves, so an enrollment stays with the step it is at. An enrollment at a deleted step goes on
/// with the step that follows it, which takes the deleted one's place.
pub fn step_moves(current: &[String], order: &[String]) -> Vec<(i32, i32)> {
    let pos = |i: usize| i32::try_from(i).unwrap_or(i32::MAX);
    current
        .iter()
        .enumerate()
        .filter_map(|(from, id)| {
            let to = order.iter().position(|o| o == id)?;
            (from != to).then(|| (pos(from), pos(to)))
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_343_400_000; // 2026-11-22T10:30:00Z
    const ELEVEN: i64 = 1_795_345_200_000; // 11:00
    const MIDNIGHT: i64 = 1_795_392_000_000; // 2026-11-23T00:00:00Z

    fn active() -> WaitInput<'static> {
        WaitInput {
            status: "active",
            now: NOW,
            active_enrollments: 3,
            sent_this_hour: 5,
            hourly_limit: 20,
            sent_today: 5,
            daily_limit: 100,
            enrolled_today: 1,
            max_daily_enrollments: 50,
            ..WaitInput::default()
        }
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn enrollments_stay_with_their_step() {
        let now = ids(&["a", "b", "c", "d"]);
        // Move c up: b and c swap.
        assert_eq!(
            step_moves(&now, &ids(&["a", "c", "b", "d"])),
            [(1, 2), (2, 1)]
        );
        assert_eq!(step_moves(&now, &now), []);
        // Delete b: c and d move up; whoever was at b is now at c.
        assert_eq!(step_moves(&now, &ids(&["a", "c", "d"])), [(2, 1), (3, 2)]);
    }

    #[test]
    fn a_sending_sequence_does_not_wait() {
        assert_eq!(sequence_waiting(&active()), None);
        let open = WaitInput {
            window_opens: Some(NOW),
            ..active()
        };
        assert_eq!(sequence_waiting(&open), None);
        for status in ["archived", "deleted"] {
            assert_eq!(sequence_waiting(&WaitInput { status, ..active() }), None);
        }
    }

    #[test]
    fn the_users_pause_and_drafts_wait_for_someone() {
        let paused = sequence_waiting(&WaitInput {
            status: "paused",
            ..active()
        });
        assert_eq!(paused.map(|w| (w.reason, w.until)), Some(("paused", None)));
        let draft = sequence_waiting(&WaitInput {
            status: "draft",
            sent_this_hour: 20,
            ..active()
        });
        assert_eq!(draft.map(|w| w.reason), Some("draft"));
        let ops = sequence_waiting(&WaitInput {
            kinds_paused: true,
            sent_this_hour: 20,
            ..active()
        });
        assert_eq!(
            ops.map(|w| (w.reason, w.label, w.until)),
            Some(("paused_by_ops", "Paused by ops", None))
        );
    }

    #[test]
    fn limits_resume_at_the_next_hour_or_day() {
        let hourly = sequence_waiting(&WaitInput {
            sent_this_hour: 20,
            ..active()
        })
        .expect("waiting");
        assert_eq!(
            (hourly.reason, hourly.label, hourly.until),
            ("hourly_limit", "Hourly limit reached", Some(ELEVEN))
        );
        let daily = sequence_waiting(&WaitInput {
            sent_this_hour: 20,
            sent_today: 100,
            ..active()
        })
        .expect("waiting");
        assert_eq!((daily.reason, daily.until), ("daily_limit", Some(MIDNIGHT)));
    }

    #[test]
    fn a_closed_window_resumes_at_its_next_opening() {
        let tuesday_nine = NOW + 2 * DAY_MS;
        let w = sequence_waiting(&WaitInput {
            window_opens: Some(tuesday_nine),
            ..active()
        })
        .expect("waiting");
        assert_eq!(
            (w.reason, w.until),
            ("outside_sending_window", Some(tuesday_nine))
        );
    }

    #[test]
    fn limits_hold_only_what_would_send() {
        // Nothing under way: a full hour or a closed window holds nothing.
        let idle = WaitInput {
            active_enrollments: 0,
            sent_this_hour: 20,
            window_opens: Some(NOW + HOUR_MS),
            ..active()
        };
        assert_eq!(sequence_waiting(&idle), None);
        // The enrollment allowance holds new enrollments until midnight UTC.
        let full = sequence_waiting(&WaitInput {
            enrolled_today: 50,
            ..idle
        })
        .expect("waiting");
        assert_eq!(
            (full.reason, full.until),
            ("daily_enrollment_limit", Some(MIDNIGHT))
        );
    }
}
