//! Voice agents and calls, documents for the AI features, and what the AI analytics read (the
//! reply outcomes they learn from among them). Only moving a call on from a list of statuses and
//! how the analytics' reads travel differ between the dialects.

use super::sql::Sql;
use super::*;

/// The agent columns, in the order [`VoiceAgentRow`] reads them.
macro_rules! agent_columns {
    () => {
        "id, name, status, capabilities, description, created_at, updated_at"
    };
}

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
macro_rules! call_select {
    () => {
        "SELECT v.id, v.contact_id, v.agent_id, v.purpose, v.to_phone, v.status, v.simulated,
                v.provider_call_id, v.outcome, v.transcript, v.summary, v.duration_seconds,
                v.suggested_meeting, v.error, v.job_id, v.scheduled_for, v.actor_id, v.created_at,
                v.updated_at, c.first_name || ' ' || c.last_name AS contact_name, a.name AS agent_name
         FROM voice_calls v JOIN contacts c ON c.id = v.contact_id JOIN voice_agents a ON a.id = v.agent_id"
    };
}

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

const AGENT_LIST: Sql = sql!(concat!(
    "SELECT ",
    agent_columns!(),
    " FROM voice_agents ORDER BY created_at, name, id"
));
const AGENT_GET: Sql = sql!(concat!(
    "SELECT ",
    agent_columns!(),
    " FROM voice_agents WHERE id = ?1"
));
const AGENT_INSERT: Sql = sql!(concat!(
    "INSERT INTO voice_agents (",
    agent_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
));
const AGENT_UPDATE: Sql = sql!(
    "UPDATE voice_agents SET name = ?2, status = ?3, capabilities = ?4, description = ?5,
         updated_at = ?6
     WHERE id = ?1"
);
const CALL_INSERT: Sql = sql!(
    "INSERT INTO voice_calls (id, contact_id, agent_id, purpose, to_phone, status, simulated,
                              job_id, scheduled_for, actor_id, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
);
const CALL_GET: Sql = sql!(concat!(call_select!(), " WHERE v.id = ?1"));
const CALL_BY_PROVIDER_ID: Sql = sql!(concat!(call_select!(), " WHERE v.provider_call_id = ?1"));
/// The CAST types the parameter for Postgres when it is NULL.
const CALL_LIST: Sql = sql!(concat!(
    call_select!(),
    " WHERE (CAST(?1 AS TEXT) IS NULL OR v.contact_id = ?1)
     ORDER BY v.created_at DESC, v.id DESC LIMIT ?2"
));
/// Moves a call on only from one of the statuses in ?11 (a JSON array).
const CALL_ADVANCE: Sql = in_list!(
    "UPDATE voice_calls SET status = ?2, provider_call_id = ?3, outcome = ?4, transcript = ?5,
         summary = ?6, duration_seconds = ?7, suggested_meeting = ?8, error = ?9, updated_at = ?10
     WHERE id = ?1 AND status IN ",
    11,
    ""
);
const DOCUMENT_INSERT: Sql = sql!(
    "INSERT INTO ai_documents (id, task, media_type, file_name, body, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
);
const DOCUMENT_GET: Sql = sql!(
    "SELECT id, task, media_type, file_name, body, created_at FROM ai_documents WHERE id = ?1"
);
const DOCUMENT_DELETE: Sql = sql!("DELETE FROM ai_documents WHERE id = ?1");
/// Emailed contacts (at most ?1) and whether each replied; shared with the AI analytics reads of
/// Postgres ([`AI_READS_POSTGRES`]). The CASTs: Postgres's MAX of a CASE of integer literals is an INTEGER,
/// read as i64. Grouped from the messages' side, in the order of their contact index, so the limit
/// stops the read: grouped by contact, SQLite read every contact (80 ms at 100,000) to find the
/// few emailed.
macro_rules! reply_outcomes {
    () => {
        "SELECT c.score AS score,
            CAST(CASE WHEN c.score_factors IS NULL THEN 0 ELSE 1 END AS BIGINT) AS scored,
            co.state AS state, m.replied AS replied
     FROM (SELECT contact_id,
                  CAST(MAX(CASE WHEN replied_at IS NULL THEN 0 ELSE 1 END) AS BIGINT) AS replied
           FROM email_messages WHERE status = 'sent' AND contact_id IS NOT NULL
           GROUP BY contact_id ORDER BY contact_id LIMIT ?1) m
     JOIN contacts c ON c.id = m.contact_id
     LEFT JOIN companies co ON co.id = c.company_id"
    };
}
const REPLY_OUTCOMES: Sql = sql!(reply_outcomes!());

/// What the AI analytics screen reads besides the email figures: each list at most its limit.
#[derive(Debug, Clone, Copy)]
pub struct AiReads<'a> {
    /// Emailed contacts, for [`ReplyOutcome`]s.
    pub outcomes: i64,
    /// The newest calls.
    pub calls: i64,
    /// Each kind's newest job: when it last ran.
    pub agent_kinds: &'a [&'a str],
    /// Each kind's newest successful jobs, at most `model_runs` of each.
    pub model_kinds: &'a [&'a str],
    pub model_runs: i64,
}

/// A call as the analytics count it: status, outcome, whether it has a transcript, simulated.
pub type CallFacts = (String, Option<String>, bool, bool);

/// A successful model job: its result, when it started and ended.
pub type ModelRunRow = (Option<Value>, Option<i64>, Option<i64>);

/// What [`Db::ai_figure_rows`] reads.
#[derive(Debug, Clone)]
pub struct AiFigureRows {
    /// (kind, status, jobs) of every job.
    pub job_counts: Vec<(String, String, i64)>,
    pub outcomes: Vec<ReplyOutcome>,
    pub calls: Vec<CallFacts>,
    pub companies: i64,
    /// (kind, finished_at, created_at) of each agent kind's newest job.
    pub last_runs: Vec<(String, Option<i64>, i64)>,
    pub model_runs: Vec<ModelRunRow>,
    pub bulk_campaigns: i64,
}

/// Differs: Postgres answers [`AiReads`] in one statement, each list as a JSON array of rows.
/// There each statement is a round trip costing both processes more CPU than these reads do (10
/// statements a request: 1,700-2,000 requests/s at 50 connections); SQLite runs them in the
/// process, each the statement its own screen runs.
const AI_READS_POSTGRES: Sql = sql!(concat!(
    "SELECT (SELECT COALESCE(json_agg(json_build_array(kind, status, n)), '[]')
             FROM (SELECT kind, status, COUNT(*) AS n FROM jobs GROUP BY kind, status) j),
        (SELECT COALESCE(json_agg(json_build_array(r.score, r.scored, r.state, r.replied)), '[]')
         FROM (",
    reply_outcomes!(),
    ") r),
        (SELECT COALESCE(json_agg(json_build_array(v.status, v.outcome, v.transcript IS NOT NULL,
                                                   v.simulated) ORDER BY v.created_at DESC, v.id DESC), '[]')
         FROM (SELECT status, outcome, transcript, simulated, created_at, id FROM voice_calls
               ORDER BY created_at DESC, id DESC LIMIT ?2) v),
        (SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM company_rollup),
        (SELECT COALESCE(json_agg(json_build_array(k.kind, l.finished_at, l.created_at)), '[]')
         FROM unnest(?3::text[]) AS k (kind)
         CROSS JOIN LATERAL (SELECT finished_at, created_at FROM jobs WHERE jobs.kind = k.kind
                             ORDER BY created_at DESC, id DESC LIMIT 1) l),
        (SELECT COALESCE(json_agg(json_build_array(m.result, m.started_at, m.finished_at)), '[]')
         FROM unnest(?4::text[]) AS k (kind)
         CROSS JOIN LATERAL (SELECT result, started_at, finished_at FROM jobs
                             WHERE jobs.kind = k.kind AND status = 'succeeded'
                             ORDER BY created_at DESC, id DESC LIMIT ?5) m),
        (SELECT COUNT(*) FROM campaigns WHERE kind = 'bulk')"
));

/// The columns of [`AI_READS_POSTGRES`], each list as its JSON.
type AiReadsRow = (
    Json<Vec<(String, String, i64)>>,
    Json<Vec<(i32, i64, Option<String>, i64)>>,
    Json<Vec<CallFacts>>,
    i64,
    Json<Vec<(String, Option<i64>, i64)>>,
    Json<Vec<ModelRunRow>>,
    i64,
);

impl Db {
    pub async fn voice_agent_list(&self) -> Result<Vec<VoiceAgentRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(AGENT_LIST))
    }
    pub async fn voice_agent_get(&self, id: &str) -> Result<Option<VoiceAgentRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(AGENT_GET), id)
    }
    pub async fn voice_agent_insert(&self, a: &VoiceAgentRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            AGENT_INSERT,
            &a.id,
            &a.name,
            &a.status,
            &a.capabilities,
            &a.description,
            a.created_at,
            a.updated_at
        )
        .map(|_| ())
    }
    pub async fn voice_agent_update(&self, a: &VoiceAgentRow) -> Result<bool, sqlx::Error> {
        exec!(
            self,
            AGENT_UPDATE,
            &a.id,
            &a.name,
            &a.status,
            &a.capabilities,
            &a.description,
            a.updated_at
        )
        .map(|n| n > 0)
    }
    pub async fn voice_call_get(&self, id: &str) -> Result<Option<VoiceCallRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(CALL_GET), id)
    }
    pub async fn voice_call_by_provider_id(
        &self,
        provider_id: &str,
    ) -> Result<Option<VoiceCallRow>, sqlx::Error> {
        fetch!(
            self,
            fetch_optional,
            query_as(CALL_BY_PROVIDER_ID),
            provider_id
        )
    }
    /// Newest first; one contact's when `contact_id` is given.
    pub async fn voice_call_list(
        &self,
        contact_id: Option<&str>,
        limit: i64,
    ) -> Result<Vec<VoiceCallRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(CALL_LIST), contact_id, limit)
    }
    /// Moves a call from one of `from` to the row's status and fields; `false` when it was not in
    /// one of them any more (a late or repeated callback, or a call already finished).
    pub async fn voice_call_advance(
        &self,
        c: &VoiceCallRow,
        from: &[&str],
    ) -> Result<bool, sqlx::Error> {
        let from = Value::from(from.to_vec()).to_string();
        exec!(
            self,
            CALL_ADVANCE,
            &c.id,
            &c.status,
            &c.provider_call_id,
            &c.outcome,
            &c.transcript,
            &c.summary,
            c.duration_seconds,
            &c.suggested_meeting,
            &c.error,
            c.updated_at,
            &from
        )
        .map(|n| n > 0)
    }
    pub async fn ai_document_get(&self, id: &str) -> Result<Option<AiDocumentRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(DOCUMENT_GET), id)
    }
    pub async fn ai_document_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        exec!(self, DOCUMENT_DELETE, id).map(|_| ())
    }
    /// Emailed contacts and whether they replied (at most `limit`).
    pub async fn reply_outcomes(&self, limit: i64) -> Result<Vec<ReplyOutcome>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(REPLY_OUTCOMES), limit)
    }
    /// The AI analytics' reads (see [`AI_READS_POSTGRES`] for why they travel differently).
    pub async fn ai_figure_rows(&self, p: &AiReads<'_>) -> Result<AiFigureRows, sqlx::Error> {
        let Db::Postgres(pools) = self else {
            let runs = self
                .job_recent(p.model_kinds, Some("succeeded"), p.model_runs)
                .await?;
            return Ok(AiFigureRows {
                job_counts: self.job_counts().await?,
                outcomes: self.reply_outcomes(p.outcomes).await?,
                calls: (self.voice_call_list(None, p.calls).await?)
                    .into_iter()
                    .map(|c| (c.status, c.outcome, c.transcript.is_some(), c.simulated))
                    .collect(),
                companies: self.company_total(&CompanyFilter::default(), 0).await?.n,
                last_runs: (self.job_recent(p.agent_kinds, None, 1).await?)
                    .into_iter()
                    .map(|j| (j.kind, j.finished_at, j.created_at))
                    .collect(),
                model_runs: runs
                    .into_iter()
                    .map(|j| (j.result.map(|r| r.0), j.started_at, j.finished_at))
                    .collect(),
                bulk_campaigns: self.campaign_count("bulk").await?,
            });
        };
        let (counts, outcomes, calls, companies, last_runs, model_runs, bulk_campaigns): AiReadsRow =
            sqlx::query_as(AI_READS_POSTGRES.postgres)
                .bind(p.outcomes)
                .bind(p.calls)
                .bind(p.agent_kinds)
                .bind(p.model_kinds)
                .bind(p.model_runs)
                .fetch_one(pools.read())
                .await?;
        Ok(AiFigureRows {
            job_counts: counts.0,
            outcomes: (outcomes.0.into_iter())
                .map(|(score, scored, state, replied)| ReplyOutcome {
                    score,
                    scored,
                    state,
                    replied,
                })
                .collect(),
            calls: calls.0,
            companies,
            last_runs: last_runs.0,
            model_runs: model_runs.0,
            bulk_campaigns,
        })
    }
}

impl Tx {
    /// With the job that places it, in one transaction.
    pub async fn voice_call_insert(&mut self, c: &VoiceCallRow) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            CALL_INSERT,
            &c.id,
            &c.contact_id,
            &c.agent_id,
            &c.purpose,
            &c.to_phone,
            &c.status,
            c.simulated,
            &c.job_id,
            c.scheduled_for,
            &c.actor_id,
            c.created_at,
            c.updated_at
        )
        .map(|_| ())
    }
    /// With the job that reads it, in one transaction.
    pub async fn ai_document_insert(&mut self, d: &AiDocumentRow) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            DOCUMENT_INSERT,
            &d.id,
            &d.task,
            &d.media_type,
            &d.file_name,
            &d.body,
            d.created_at
        )
        .map(|_| ())
    }
}
