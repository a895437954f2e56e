//! Voice agents and calls, documents for the AI features, and the reply outcomes the AI analytics
//! learn from (SQL in sqlite/voice.rs and postgres/voice.rs).

use super::*;

pub(crate) const AGENT_COLUMNS: &str =
    "id, name, status, capabilities, description, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct VoiceAgentRow {
    pub id: String,
    pub name: String,
    pub status: String,
    pub capabilities: Json<Vec<String>>,
    pub description: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A call with the names the screens show (joined from the contact and the agent).
pub(crate) const CALL_SELECT: &str = "SELECT v.id, v.contact_id, v.agent_id, v.purpose, v.to_phone, \
    v.status, v.simulated, v.provider_call_id, v.outcome, v.transcript, v.summary, v.duration_seconds, \
    v.suggested_meeting, v.error, v.job_id, v.scheduled_for, v.actor_id, v.created_at, v.updated_at, \
    c.first_name || ' ' || c.last_name AS contact_name, a.name AS agent_name \
    FROM voice_calls v JOIN contacts c ON c.id = v.contact_id JOIN voice_agents a ON a.id = v.agent_id";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct VoiceCallRow {
    pub id: String,
    pub contact_id: String,
    pub agent_id: String,
    pub purpose: String,
    pub to_phone: String,
    pub status: String,
    pub simulated: bool,
    pub provider_call_id: Option<String>,
    pub outcome: Option<String>,
    pub transcript: Option<String>,
    pub summary: Option<String>,
    pub duration_seconds: Option<i32>,
    pub suggested_meeting: Option<Json<Value>>,
    pub error: Option<String>,
    pub job_id: Option<String>,
    pub scheduled_for: Option<i64>,
    pub actor_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Joined, not stored.
    #[sqlx(default)]
    pub contact_name: String,
    #[sqlx(default)]
    pub agent_name: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AiDocumentRow {
    pub id: String,
    pub task: String,
    pub media_type: String,
    pub file_name: Option<String>,
    pub body: Vec<u8>,
    pub created_at: i64,
}

/// One emailed contact: its score, whether it was scored by the scorer, its company's state, and
/// whether any message to it was replied to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReplyOutcome {
    pub score: i32,
    pub scored: i64,
    pub state: Option<String>,
    pub replied: i64,
}

impl Db {
    pub async fn voice_agent_list(&self) -> Result<Vec<VoiceAgentRow>, sqlx::Error> {
        dispatch!(self, voice_agent_list())
    }
    pub async fn voice_agent_get(&self, id: &str) -> Result<Option<VoiceAgentRow>, sqlx::Error> {
        dispatch!(self, voice_agent_get(id))
    }
    pub async fn voice_agent_insert(&self, a: &VoiceAgentRow) -> Result<(), sqlx::Error> {
        dispatch!(self, voice_agent_insert(a))
    }
    pub async fn voice_agent_update(&self, a: &VoiceAgentRow) -> Result<bool, sqlx::Error> {
        dispatch!(self, voice_agent_update(a))
    }
    pub async fn voice_call_get(&self, id: &str) -> Result<Option<VoiceCallRow>, sqlx::Error> {
        dispatch!(self, voice_call_get(id))
    }
    pub async fn voice_call_by_provider_id(
        &self,
        provider_id: &str,
    ) -> Result<Option<VoiceCallRow>, sqlx::Error> {
        dispatch!(self, voice_call_by_provider_id(provider_id))
    }
    /// Newest first; one contact's when `contact_id` is given.
    pub async fn voice_call_list(
        &self,
        contact_id: Option<&str>,
        limit: i64,
    ) -> Result<Vec<VoiceCallRow>, sqlx::Error> {
        dispatch!(self, voice_call_list(contact_id, limit))
    }
    /// Moves a call from one of `from` to the row's status and fields; `false` when it was not in
    /// one of them any more (a late or repeated callback, or a call already finished).
    pub async fn voice_call_advance(
        &self,
        c: &VoiceCallRow,
        from: &[&str],
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, voice_call_advance(c, from))
    }
    pub async fn ai_document_get(&self, id: &str) -> Result<Option<AiDocumentRow>, sqlx::Error> {
        dispatch!(self, ai_document_get(id))
    }
    pub async fn ai_document_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, ai_document_delete(id))
    }
    /// Emailed contacts and whether they replied (at most `limit`).
    pub async fn reply_outcomes(&self, limit: i64) -> Result<Vec<ReplyOutcome>, sqlx::Error> {
        dispatch!(self, reply_outcomes(limit))
    }
}

impl Tx {
    /// With the job that places it, in one transaction.
    pub async fn voice_call_insert(&mut self, c: &VoiceCallRow) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, voice_call_insert(c))
    }
    /// With the job that reads it, in one transaction.
    pub async fn ai_document_insert(&mut self, d: &AiDocumentRow) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, ai_document_insert(d))
    }
}
