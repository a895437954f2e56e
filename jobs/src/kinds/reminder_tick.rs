//! `reminder_tick`: enqueued by the scheduler (`REMINDER_TICK_CRON`, every minute). For each
//! scheduled or confirmed meeting within the largest reminder offset it finds the nearest due slot
//! (`REMINDER_OFFSETS_MINUTES`, default 24 h and 1 h before) and, if that slot is not recorded yet
//! for the meeting's current time, records it and enqueues its `reminder_send` in one transaction.
//! A slot that falls due moments after another reminder for the same time went out (a meeting booked
//! 61 minutes ahead) is recorded as skipped instead of sending two reminders a minute apart.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kinds::ReminderSend;
use crate::queue::{JobContext, JobError, JobKind, NewJob};
use crate::reminders::due_slot;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReminderTick {}

impl JobKind for ReminderTick {
    const NAME: &'static str = "reminder_tick";
    const MAX_ATTEMPTS: i32 = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let offsets = &ctx.env.settings.reminder_offsets;
        let Some(horizon) = offsets.iter().max() else {
            return Ok(json!({ "enqueued": 0 }));
        };
        let now = ctx.env.clock.now_ms();
        let rows = ctx
            .db()
            .reminder_candidates(now, now + horizon * 60_000)
            .await?;
        // Per meeting: its time and the slots recorded for it (slot, when recorded).
        let mut meetings: BTreeMap<String, (i64, Vec<(i64, i64)>)> = BTreeMap::new();
        for r in rows {
            let entry = meetings
                .entry(r.meeting_id)
                .or_insert((r.scheduled_at, vec![]));
            if let (Some(slot), Some(at)) = (r.slot, r.slot_created_at) {
                entry.1.push((i64::from(slot), at));
            }
        }
        let retry = |e: crate::queue::QueueError| JobError::Retry(e.to_string());
        let (mut enqueued, mut skipped) = (0, 0);
        let mut tx = ctx.env.begin().await.map_err(retry)?;
        for (meeting_id, (start, recorded)) in &meetings {
            let Some(slot) = due_slot(offsets, *start, now) else {
                continue;
            };
            if recorded.iter().any(|(s, _)| *s == slot) {
                continue;
            }
            let slot_i32 = i32::try_from(slot).unwrap_or(i32::MAX);
            // Another reminder for this time (automatic or by hand) within half this slot's lead:
            // this one adds nothing.
            let recent = recorded.iter().any(|(_, at)| now - at < slot * 30_000);
            let state = if recent { "skipped" } else { "queued" };
            if !tx
                .tx()
                .meeting_reminder_insert(meeting_id, *start, slot_i32, state, now)
                .await?
            {
                continue;
            }
            if recent {
                skipped += 1;
                continue;
            }
            let job = ReminderSend {
                meeting_id: meeting_id.clone(),
                scheduled_at: *start,
                slot: slot_i32,
                email: true,
                sms: true,
                personalize: true,
                trigger_automation: false,
            };
            tx.enqueue(
                NewJob::new(ReminderSend::NAME, json!(job))
                    .idempotency_key(format!("reminder:{meeting_id}:{start}:{slot}")),
            )
            .await
            .map_err(retry)?;
            enqueued += 1;
        }
        tx.commit().await.map_err(retry)?;
        Ok(json!({ "meetings": meetings.len(), "enqueued": enqueued, "skipped": skipped }))
    }
}
