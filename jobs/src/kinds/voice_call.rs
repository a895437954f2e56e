//! `voice_call`: places one call through the voice-agent API, or records a simulated call in demo
//! mode. The provider's status callbacks (api `/api/webhooks/voice`) carry the rest: transcript,
//! outcome, duration ([`crate::voice::apply_callback`]).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::ActivityInsert;
use crate::providers::voice::{CallRequest, VoiceError};
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VoiceCall {
    pub call_id: String,
}

impl JobKind for VoiceCall {
    const NAME: &'static str = "voice_call";
    const MAX_ATTEMPTS: i32 = 4;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let Some(mut call) = db.voice_call_get(&self.call_id).await? else {
            return Err(JobError::Permanent(format!(
                "call {} not found",
                self.call_id
            )));
        };
        // Placed already (a rescued or repeated run): the callbacks take it from here.
        if !matches!(call.status.as_str(), "queued" | "scheduled") {
            return Ok(json!({"callId": call.id, "status": call.status}));
        }
        let now = ctx.env.clock.now_ms();
        let Some(api) = ctx.env.providers.voice.clone() else {
            call.status = "completed".into();
            call.simulated = true;
            call.transcript = Some(format!(
                "[Simulated call: demo mode, no phone call was placed]\n{} would call {} at {} about: {}",
                call.agent_name, call.contact_name, call.to_phone, call.purpose
            ));
            call.summary = Some(
                "Demo mode: no call was placed. Set VOICE_API_URL, VOICE_API_KEY and VOICE_WEBHOOK_SECRET \
                 to place real calls."
                    .into(),
            );
            call.updated_at = now;
            if db
                .voice_call_advance(&call, &["queued", "scheduled"])
                .await?
            {
                let mut tx = db.begin().await?;
                tx.activity_insert(&ActivityInsert {
                    kind: "voice_call_simulated",
                    description: &format!(
                        "Simulated voice call (demo mode, not placed) by {}: {}",
                        call.agent_name, call.purpose
                    ),
                    entity_type: Some("contact"),
                    entity_id: Some(&call.contact_id),
                    actor_id: call.actor_id.as_deref(),
                })
                .await?;
                tx.commit().await?;
            }
            return Ok(json!({"callId": call.id, "status": "completed", "simulated": true}));
        };
        let callback = format!(
            "{}/api/webhooks/voice",
            ctx.env
                .providers
                .mailing
                .sender
                .public_base_url
                .trim_end_matches('/')
        );
        let placed = api
            .place(&CallRequest {
                call_id: &call.id,
                to: &call.to_phone,
                agent_id: &call.agent_id,
                agent_name: &call.agent_name,
                purpose: &call.purpose,
                callback_url: &callback,
            })
            .await;
        match placed {
            Ok(p) => {
                call.status = match p.status.as_deref() {
                    Some("in_progress") => "in_progress".into(),
                    _ => "dialing".into(),
                };
                call.provider_call_id = Some(p.id.clone());
                call.error = None;
                call.updated_at = ctx.env.clock.now_ms();
                db.voice_call_advance(&call, &["queued", "scheduled"])
                    .await?;
                metrics::counter!("prospector_voice_calls_total", "status" => "placed")
                    .increment(1);
                Ok(json!({"callId": call.id, "providerCallId": p.id, "status": call.status}))
            }
            Err(VoiceError::Unavailable(e)) if ctx.attempt < Self::MAX_ATTEMPTS => {
                Err(JobError::Retry(format!("voice service unavailable: {e}")))
            }
            Err(e) => {
                call.status = "failed".into();
                call.error = Some(e.to_string());
                call.updated_at = ctx.env.clock.now_ms();
                db.voice_call_advance(&call, &["queued", "scheduled"])
                    .await?;
                metrics::counter!("prospector_voice_calls_total", "status" => "failed")
                    .increment(1);
                Err(JobError::Permanent(e.to_string()))
            }
        }
    }
}
