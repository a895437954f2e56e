//! The AI tasks of the orchestration and features pages. Each runs through the LLM when one is
//! configured (`AI_PROVIDER=openai`) and otherwise through a template fallback computed from the CRM's
//! own data; every result says which (`source`, `fallback`) so nobody mistakes a template for a model.

pub mod documents;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::db::{CompanyFilter, CompanyList, Db};
use crate::providers::llm::{Llm, LlmAnswer, LlmError, Part};

/// Rows an insights request may carry.
pub const MAX_INSIGHT_ROWS: usize = 5000;
pub const CONTENT_TYPES: [&str; 3] = ["email", "proposal", "report"];

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "task", rename_all = "snake_case", deny_unknown_fields)]
pub enum Task {
    #[serde(rename_all = "camelCase")]
    Sentiment {
        company_name: String,
        industry: String,
    },
    #[serde(rename_all = "camelCase")]
    Intelligence {
        company_name: String,
        query: String,
    },
    #[serde(rename_all = "camelCase")]
    Outreach {
        contact_name: String,
        company_name: String,
        industry: Option<String>,
        city: Option<String>,
        state: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    Content {
        content_type: String,
        description: String,
        context_type: Option<String>,
    },
    Insights {
        data: Vec<Value>,
    },
}

impl Task {
    pub fn name(&self) -> &'static str {
        match self {
            Self::Sentiment { .. } => "sentiment",
            Self::Intelligence { .. } => "intelligence",
            Self::Outreach { .. } => "outreach",
            Self::Content { .. } => "content",
            Self::Insights { .. } => "insights",
        }
    }

    /// Runs on the LLM when given, else the fallback; the result carries `source` and `fallback`.
    /// An LLM answer that is not the task's shape is refused ([`LlmError::Malformed`]), never passed on.
    pub async fn run(&self, db: &Db, llm: Option<&Llm>) -> Result<TaskResult, LlmError> {
        let (output, provenance) = match llm {
            Some(llm) => {
                let (system, user, schema) = self.prompt();
                let answer = llm
                    .json(system, vec![Part::Text(user)], self.name(), schema)
                    .await?;
                let provenance = Provenance::llm(&answer, self.message(false));
                (self.parse(answer.value)?, provenance)
            }
            None => {
                let output = self.fallback(db).await.map_err(|e| {
                    LlmError::Unavailable(format!("the CRM data could not be read ({e})"))
                })?;
                (output, Provenance::template(self.message(true)))
            }
        };
        Ok(output.with(provenance))
    }

    /// The model's answer as this task's output.
    fn parse(&self, value: Value) -> Result<Output, LlmError> {
        Ok(match self {
            Self::Sentiment { .. } => Output::Sentiment(from_answer(value)?),
            Self::Intelligence { .. } => {
                Output::Intelligence(from_answer::<IntelligenceAnswer>(value)?.intelligence)
            }
            Self::Outreach { .. } => Output::Outreach(from_answer(value)?),
            Self::Content { .. } => Output::Content(from_answer::<ContentAnswer>(value)?.content),
            Self::Insights { .. } => {
                Output::Insights(from_answer::<InsightsAnswer>(value)?.insights)
            }
        })
    }

    fn message(&self, fallback: bool) -> String {
        let what = match self {
            Self::Sentiment { .. } => "Sentiment analysed",
            Self::Intelligence { .. } => "Market intelligence gathered",
            Self::Outreach { .. } => "Outreach drafted",
            Self::Content { .. } => "Content generated",
            Self::Insights { .. } => "Insights generated",
        };
        if fallback {
            format!(
                "{what} with the template fallback from CRM data (no AI model is configured: set AI_PROVIDER=openai)"
            )
        } else {
            format!("{what} by the AI model")
        }
    }

    fn prompt(&self) -> (&'static str, String, Value) {
        let system = "You are the sales assistant of a dealer network for bath, accessibility and remodeling \
                      products. Answer in the JSON schema given, in plain business English.";
        let strings = json!({"type": "array", "items": {"type": "string"}});
        let object = |props: Value, required: &[&str]| json!({"type": "object", "additionalProperties": false, "properties": props, "required": required});
        match self {
            Self::Sentiment {
                company_name,
                industry,
            } => (
                system,
                format!(
                    "Assess the market sentiment around {company_name}, a company in {industry}, as a \
                         prospective dealer. Score 0-100 (100 = very positive)."
                ),
                object(
                    json!({"sentiment": {"type": "string", "enum": ["positive", "neutral", "negative"]},
                              "score": {"type": "integer"}, "keyFactors": strings}),
                    &["sentiment", "score", "keyFactors"],
                ),
            ),
            Self::Intelligence {
                company_name,
                query,
            } => (
                system,
                format!("Market intelligence on {company_name}: {query}"),
                object(
                    json!({"intelligence": {"type": "string"}, "source": {"type": "string"}}),
                    &["intelligence", "source"],
                ),
            ),
            Self::Outreach {
                contact_name,
                company_name,
                industry,
                city,
                state,
            } => (
                system,
                format!(
                    "Write a short personalised first email to {contact_name} at {company_name} ({}, {}{}) \
                         inviting them to become a dealer.",
                    industry.as_deref().unwrap_or("remodeling"),
                    city.as_deref().unwrap_or(""),
                    state
                        .as_deref()
                        .map(|s| format!(", {s}"))
                        .unwrap_or_default()
                ),
                object(
                    json!({"subject": {"type": "string"}, "content": {"type": "string"}}),
                    &["subject", "content"],
                ),
            ),
            Self::Content {
                content_type,
                description,
                context_type,
            } => (
                system,
                format!(
                    "Write a complete {content_type}{}. Context: {description}",
                    context_type
                        .as_deref()
                        .map(|t| format!(" ({t})"))
                        .unwrap_or_default()
                ),
                object(json!({"content": {"type": "string"}}), &["content"]),
            ),
            Self::Insights { data } => (
                system,
                format!(
                    "Give business insights (trends, outliers, actions) on this data: {}",
                    Value::Array(data.iter().take(500).cloned().collect())
                ),
                object(json!({"insights": {"type": "string"}}), &["insights"]),
            ),
        }
    }

    async fn fallback(&self, db: &Db) -> Result<Output, sqlx::Error> {
        Ok(match self {
            Self::Sentiment {
                company_name,
                industry,
            } => Output::Sentiment(sentiment(db, company_name, industry).await?),
            Self::Intelligence {
                company_name,
                query,
            } => Output::Intelligence(intelligence(db, company_name, query).await?),
            Self::Outreach {
                contact_name,
                company_name,
                industry,
                city,
                state,
            } => Output::Outreach(outreach(
                contact_name,
                company_name,
                industry.as_deref(),
                city.as_deref(),
                state.as_deref(),
            )),
            Self::Content {
                content_type,
                description,
                ..
            } => Output::Content(content(content_type, description)),
            Self::Insights { data } => Output::Insights(insights(data)),
        })
    }
}

/// Which answered: the configured model or the template fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AiResultSource)]
pub enum Source {
    Llm,
    Template,
}

/// Where an AI result came from, carried by every AI result so nobody mistakes a template for a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiProvenance)]
pub struct Provenance {
    pub source: Source,
    /// True when the template fallback answered (no AI model is configured).
    pub fallback: bool,
    /// What was done and by what, for the screen.
    pub message: String,
    /// The model that answered (LLM answers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// How long the model took (LLM answers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Tokens the model counted for the request (LLM answers that report them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
}

impl Provenance {
    /// An answer of the model.
    pub fn llm(answer: &LlmAnswer, message: String) -> Self {
        Self {
            source: Source::Llm,
            fallback: false,
            message,
            model: Some(answer.model.clone()),
            latency_ms: Some(answer.latency_ms),
            tokens: answer.tokens,
        }
    }

    /// An answer of the template fallback.
    pub fn template(message: String) -> Self {
        Self {
            source: Source::Template,
            fallback: true,
            message,
            model: None,
            latency_ms: None,
            tokens: None,
        }
    }
}

/// The model's JSON as `T`; a wrong, missing or extra field makes it unusable.
pub(crate) fn from_answer<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, LlmError> {
    serde_json::from_value(value)
        .map_err(|e| LlmError::Malformed(format!("the answer does not match the schema: {e}")))
}

/// How a company is seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AiSentiment)]
pub enum Sentiment {
    Positive,
    Neutral,
    Negative,
}

/// The sentiment task's answer (model or template), before its provenance.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SentimentAnswer {
    sentiment: Sentiment,
    score: u32,
    key_factors: Vec<String>,
}

/// The model's market intelligence; its `source` (what it drew on) is not kept: the result's
/// `source` says who answered.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IntelligenceAnswer {
    intelligence: String,
    #[serde(rename = "source")]
    _source: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutreachAnswer {
    subject: String,
    content: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContentAnswer {
    content: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InsightsAnswer {
    insights: String,
}

/// What a task produced, by the model or the template, before its provenance is added.
enum Output {
    Sentiment(SentimentAnswer),
    Intelligence(String),
    Outreach(OutreachAnswer),
    Content(String),
    Insights(String),
}

impl Output {
    fn with(self, provenance: Provenance) -> TaskResult {
        match self {
            Self::Sentiment(a) => TaskResult::Sentiment(SentimentResult {
                sentiment: a.sentiment,
                score: a.score,
                key_factors: a.key_factors,
                provenance,
            }),
            Self::Intelligence(intelligence) => TaskResult::Intelligence(IntelligenceResult {
                intelligence,
                timestamp: chrono::Utc::now().to_rfc3339(),
                provenance,
            }),
            Self::Outreach(a) => TaskResult::Outreach(OutreachResult {
                subject: a.subject,
                content: a.content,
                provenance,
            }),
            Self::Content(content) => TaskResult::Content(ContentResult {
                content,
                provenance,
            }),
            Self::Insights(insights) => TaskResult::Insights(InsightsResult {
                insights,
                provenance,
            }),
        }
    }
}

/// The sentiment around a company (`/api/ai/sentiment-analysis`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiSentimentResult)]
pub struct SentimentResult {
    pub sentiment: Sentiment,
    /// 0–100 (100 = very positive).
    pub score: u32,
    /// What the judgement rests on.
    pub key_factors: Vec<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// Market intelligence on a company (`/api/ai/market-intelligence`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiIntelligenceResult)]
pub struct IntelligenceResult {
    pub intelligence: String,
    /// When it was gathered (RFC 3339).
    #[schema(format = DateTime)]
    pub timestamp: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A first email to a contact (`/api/ai/generate-outreach`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiOutreachResult)]
pub struct OutreachResult {
    pub subject: String,
    pub content: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A generated email, proposal or report (`/api/ai/generate-content`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiContentResult)]
pub struct ContentResult {
    pub content: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// Insights on the rows sent (`/api/ai/generate-insights`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiInsightsResult)]
pub struct InsightsResult {
    pub insights: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// The result of an `ai_task` job: the task's result, as its JSON (no tag: the route knows the task).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TaskResult {
    Sentiment(SentimentResult),
    Intelligence(IntelligenceResult),
    Outreach(OutreachResult),
    Content(ContentResult),
    Insights(InsightsResult),
}

impl TaskResult {
    pub fn provenance(&self) -> &Provenance {
        match self {
            Self::Sentiment(r) => &r.provenance,
            Self::Intelligence(r) => &r.provenance,
            Self::Outreach(r) => &r.provenance,
            Self::Content(r) => &r.provenance,
            Self::Insights(r) => &r.provenance,
        }
    }
}

/// The CRM's record of a company by name (exact, case-insensitive; else the best-scored match).
async fn find_company(db: &Db, name: &str) -> Result<Option<crate::db::CompanyRow>, sqlx::Error> {
    let filter = CompanyFilter {
        q: Some(name.to_string()),
        ..CompanyFilter::default()
    };
    let rows = db
        .company_page::<crate::db::CompanyRow>(&CompanyList {
            filter: &filter,
            limit: 20,
            offset: 0,
            sort: None,
        })
        .await?;
    let exact = rows
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name.trim()));
    Ok(match exact {
        Some(i) => rows.into_iter().nth(i),
        None => rows
            .into_iter()
            .find(|c| c.name.to_lowercase().contains(&name.trim().to_lowercase())),
    })
}

/// Statuses that mean a contact engaged with us.
const ENGAGED: [&str; 6] = [
    "responded",
    "qualified",
    "meeting_scheduled",
    "customer",
    "hot",
    "warm",
];

async fn sentiment(
    db: &Db,
    company_name: &str,
    industry: &str,
) -> Result<SentimentAnswer, sqlx::Error> {
    let Some(company) = find_company(db, company_name).await? else {
        return Ok(SentimentAnswer {
            sentiment: Sentiment::Neutral,
            score: 50,
            key_factors: vec![
                format!("{company_name} is not in the CRM yet: no engagement to judge from"),
                format!("Industry: {industry}"),
            ],
        });
    };
    let contacts = db
        .contact_list_by_companies(std::slice::from_ref(&company.id), 50)
        .await?;
    let engaged = contacts
        .iter()
        .filter(|c| ENGAGED.contains(&c.status.as_str()))
        .count();
    let lost = contacts
        .iter()
        .filter(|c| c.status == "lost" || c.status == "cold")
        .count();
    // The company's fit score, moved by how its people answered us.
    let n = contacts.len().max(1) as f64;
    let score =
        (f64::from(company.score) + 30.0 * (engaged as f64 - lost as f64) / n).clamp(0.0, 100.0);
    let score = score.round() as u32;
    let sentiment = if score >= 65 {
        Sentiment::Positive
    } else if score < 40 {
        Sentiment::Negative
    } else {
        Sentiment::Neutral
    };
    let mut factors = vec![format!("Fit score {} of 100 in the CRM", company.score)];
    if !contacts.is_empty() {
        factors.push(format!(
            "{engaged} of {} contacts engaged (replied, qualified or met)",
            contacts.len()
        ));
    }
    if lost > 0 {
        factors.push(format!("{lost} contacts marked lost or cold"));
    }
    factors.push(format!("Status: {}", company.status.replace('_', " ")));
    if let Some(i) = &company.industry {
        factors.push(format!("Industry on record: {i}"));
    }
    Ok(SentimentAnswer {
        sentiment,
        score,
        key_factors: factors,
    })
}

async fn intelligence(db: &Db, company_name: &str, query: &str) -> Result<String, sqlx::Error> {
    let company = find_company(db, company_name).await?;
    let mut lines = vec![format!("Question: {query}")];
    match &company {
        None => lines.push(format!(
            "{company_name} is not in the CRM. Run a discovery scan for its area to collect it with its contacts."
        )),
        Some(c) => {
            lines.push(format!(
                "{} — {}{}, status {}, fit score {}.",
                c.name,
                c.industry.as_deref().unwrap_or("industry unknown"),
                match (&c.city, &c.state) {
                    (Some(city), Some(st)) => format!(", {city}, {st}"),
                    (None, Some(st)) => format!(", {st}"),
                    _ => String::new(),
                },
                c.status.replace('_', " "),
                c.score
            ));
            if let Some(r) = c.revenue {
                lines.push(format!("Annual revenue on record: ${r}."));
            }
            if let Some(e) = c.employees {
                lines.push(format!("Employees: {e}."));
            }
            if let Some(state) = &c.state {
                let peers = CompanyFilter { state: Some(state.clone()), ..CompanyFilter::default() };
                let count = db.company_total(&peers, 0).await?.n;
                lines.push(format!("{count} companies in {state} are in the CRM."));
            }
            let contacts = db.contact_list_by_companies(std::slice::from_ref(&c.id), 5).await?;
            if !contacts.is_empty() {
                let names: Vec<String> = contacts
                    .iter()
                    .map(|p| format!("{} {} ({})", p.first_name, p.last_name, p.title.as_deref().unwrap_or("no title")))
                    .collect();
                lines.push(format!("Known contacts: {}.", names.join(", ")));
            }
            if let Some(d) = &c.description {
                lines.push(d.clone());
            }
        }
    }
    Ok(lines.join("\n"))
}

fn outreach(
    contact: &str,
    company: &str,
    industry: Option<&str>,
    city: Option<&str>,
    state: Option<&str>,
) -> OutreachAnswer {
    let first = contact.split_whitespace().next().unwrap_or(contact);
    let place = match (city, state) {
        (Some(c), Some(s)) if !c.is_empty() => format!(" in {c}, {s}"),
        (_, Some(s)) if !s.is_empty() => format!(" in {s}"),
        _ => String::new(),
    };
    let trade = industry.filter(|i| !i.is_empty()).unwrap_or("remodeling");
    OutreachAnswer {
        subject: format!("{company} and accessible bath products{place}"),
        content: format!(
            "Hi {first},\n\nI came across {company}{place} and your work in {trade}. Homeowners are asking \
             for safer, accessible bathrooms — walk-in tubs, low-threshold showers, grab bars — and our dealer \
             network supplies them with training, marketing support and protected territories.\n\nWould you be \
             open to a 15-minute call next week to see whether a dealership fits {company}?\n\nBest regards"
        ),
    }
}

/// A full document of the given type around the user's description.
pub fn content(content_type: &str, description: &str) -> String {
    let d = description.trim();
    match content_type {
        "proposal" => format!(
            "PROPOSAL\n\nSummary\n{d}\n\nWhat we propose\n- Dealer agreement with a protected territory\n- \
             Product training and installation certification for your crews\n- Co-op marketing and lead \
             sharing from our campaigns\n\nNext steps\n1. Review this proposal\n2. A discovery call to size \
             volume and territory\n3. Agreement and onboarding\n"
        ),
        "report" => format!(
            "REPORT\n\nScope\n{d}\n\nFindings\n- (fill in the figures from the dashboard for the period)\n\n\
             Recommendations\n- Focus follow-up on leads scored 85 and above\n- Re-engage leads dormant for 90 days\n"
        ),
        _ => format!(
            "Subject: {}\n\nHi {{{{firstName}}}},\n\n{d}\n\nWould a short call this week work for you?\n\n\
             Best regards,\n{{{{senderName}}}}",
            whole_words(d.lines().next().unwrap_or(d), 70)
        ),
    }
}

/// `text` in at most `max` characters, cut between words (with "…"), never inside one; a first
/// word longer than `max` is kept whole.
fn whole_words(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out = String::new();
    for word in text.split_whitespace() {
        if out.is_empty() {
            out.push_str(word);
            continue;
        }
        // The next word, its space and the "…" must fit.
        if out.chars().count() + 1 + word.chars().count() + 1 > max {
            out.push('…');
            return out;
        }
        out.push(' ');
        out.push_str(word);
    }
    out
}

/// What the rows say: size, and per field its type, spread and most common values.
pub fn insights(data: &[Value]) -> String {
    let mut out = vec![format!("{} records analysed.", data.len())];
    let objects: Vec<&Map<String, Value>> = data.iter().filter_map(Value::as_object).collect();
    if objects.is_empty() {
        let numbers: Vec<f64> = data.iter().filter_map(Value::as_f64).collect();
        if !numbers.is_empty() {
            out.push(numeric_line("values", &numbers));
        }
        return out.join("\n");
    }
    let mut fields: Vec<&String> = objects.iter().flat_map(|o| o.keys()).collect();
    fields.sort();
    fields.dedup();
    for f in fields.into_iter().take(30) {
        let values: Vec<&Value> = objects
            .iter()
            .filter_map(|o| o.get(f))
            .filter(|v| !v.is_null())
            .collect();
        let missing = objects.len() - values.len();
        let numbers: Vec<f64> = values.iter().filter_map(|v| v.as_f64()).collect();
        let mut line = if !numbers.is_empty() && numbers.len() == values.len() {
            numeric_line(f, &numbers)
        } else {
            let mut counts: Vec<(String, usize)> = Vec::new();
            for v in &values {
                let key = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                match counts.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((key, 1)),
                }
            }
            counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let top: Vec<String> = counts
                .iter()
                .take(3)
                .map(|(k, n)| format!("{k} ({}%)", n * 100 / values.len().max(1)))
                .collect();
            format!(
                "{f}: {} distinct values; most common {}.",
                counts.len(),
                top.join(", ")
            )
        };
        if missing > 0 {
            line.push_str(&format!(" Missing in {missing} records."));
        }
        out.push(line);
    }
    out.join("\n")
}

fn numeric_line(field: &str, numbers: &[f64]) -> String {
    let n = numbers.len() as f64;
    let mean = numbers.iter().sum::<f64>() / n;
    let min = numbers.iter().copied().fold(f64::INFINITY, f64::min);
    let max = numbers.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let above = numbers.iter().filter(|x| **x > mean).count();
    format!(
        "{field}: average {}, from {} to {}; {above} of {} records above the average.",
        round2(mean),
        round2(min),
        round2(max),
        numbers.len()
    )
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn insights_describe_the_rows() {
        let data = vec![
            json!({"state": "TX", "revenue": 100}),
            json!({"state": "TX", "revenue": 300}),
            json!({"state": "FL", "revenue": null}),
        ];
        let text = insights(&data);
        assert!(text.starts_with("3 records analysed."), "{text}");
        assert!(text.contains("revenue: average 200, from 100 to 300; 1 of 2 records above the average. Missing in 1 records."), "{text}");
        assert!(
            text.contains("state: 2 distinct values; most common TX (66%), FL (33%)."),
            "{text}"
        );
        assert!(insights(&[json!(1), json!(3)]).contains("values: average 2"));
    }

    #[test]
    fn content_follows_the_type() {
        assert!(content("proposal", "Walk-in tubs for Dallas").starts_with("PROPOSAL"));
        assert!(content("report", "Q3").contains("Scope\nQ3"));
        let email = content("email", "Invite to the spring dealer day");
        assert!(
            email.starts_with("Subject: Invite to the spring dealer day"),
            "{email}"
        );
        assert!(email.contains("{{firstName}}"), "{email}");
        let long = content(
            "email",
            "Cold lead re-engagement campaign for remodelers who have not replied in ninety days",
        );
        assert!(
            long.starts_with(
                "Subject: Cold lead re-engagement campaign for remodelers who have not replied…\n"
            ),
            "{long}"
        );
        assert_eq!(
            whole_words("Supercalifragilistic", 5),
            "Supercalifragilistic"
        );
        assert_eq!(whole_words("Tubs and showers", 9), "Tubs and…");
    }

    #[test]
    fn tasks_round_trip_as_job_payloads() {
        let t = Task::Outreach {
            contact_name: "Ann Lee".into(),
            company_name: "Acme".into(),
            industry: None,
            city: Some("Austin".into()),
            state: Some("TX".into()),
        };
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(v["task"], "outreach");
        assert_eq!(v["contactName"], "Ann Lee");
        let back: Task = serde_json::from_value(v).unwrap();
        assert_eq!(back.name(), "outreach");
        let o = outreach("Ann Lee", "Acme", None, Some("Austin"), Some("TX"));
        assert!(o.content.starts_with("Hi Ann,"));
        assert_eq!(o.subject, "Acme and accessible bath products in Austin, TX");
    }

    fn sentiment_task() -> Task {
        Task::Sentiment {
            company_name: "Acme".into(),
            industry: "Baths".into(),
        }
    }

    fn llm_answer(value: Value, tokens: Option<u64>) -> LlmAnswer {
        LlmAnswer {
            value,
            model: "test-model".into(),
            latency_ms: 120,
            tokens,
        }
    }

    /// What `run` does with a model's answer, without the network.
    fn from_model(task: &Task, answer: LlmAnswer) -> Result<Value, LlmError> {
        let provenance = Provenance::llm(&answer, task.message(false));
        let result = task.parse(answer.value)?.with(provenance);
        Ok(serde_json::to_value(result).unwrap())
    }

    #[test]
    fn model_answers_become_typed_results_with_their_provenance() {
        let answer = json!({"sentiment": "positive", "score": 80, "keyFactors": ["Fast replies"]});
        let v = from_model(&sentiment_task(), llm_answer(answer, Some(42))).unwrap();
        assert_eq!(
            v,
            json!({
                "sentiment": "positive", "score": 80, "keyFactors": ["Fast replies"],
                "source": "llm", "fallback": false, "model": "test-model", "latencyMs": 120,
                "tokens": 42, "message": "Sentiment analysed by the AI model",
            })
        );
        // The model's own `source` (what it drew on) gives way to who answered.
        let task = Task::Intelligence {
            company_name: "Acme".into(),
            query: "growth".into(),
        };
        let answer = json!({"intelligence": "Growing in TX", "source": "press"});
        let v = from_model(&task, llm_answer(answer, None)).unwrap();
        assert_eq!(
            (&v["intelligence"], &v["source"]),
            (&json!("Growing in TX"), &json!("llm"))
        );
        assert!(v["timestamp"].as_str().unwrap().starts_with("20"), "{v}");
        assert!(v.get("tokens").is_none(), "no count, no field: {v}");
        let task = Task::Insights { data: vec![] };
        let v = from_model(&task, llm_answer(json!({"insights": "Up"}), None)).unwrap();
        assert_eq!(v["insights"], "Up");
    }

    #[test]
    fn model_answers_not_in_the_schema_are_refused() {
        let refused =
            |task: &Task, answer: Value| match from_model(task, llm_answer(answer.clone(), None)) {
                Err(LlmError::Malformed(m)) => {
                    assert!(m.contains("does not match the schema"), "{m}")
                }
                other => panic!("{answer} was not refused: {other:?}"),
            };
        let task = sentiment_task();
        // A wrong field name, a sentiment outside the enum, a score of the wrong type or sign,
        // a missing field and an extra one.
        refused(
            &task,
            json!({"sentiment": "positive", "score": 80, "key_factors": []}),
        );
        refused(
            &task,
            json!({"sentiment": "great", "score": 80, "keyFactors": []}),
        );
        refused(
            &task,
            json!({"sentiment": "positive", "score": "80", "keyFactors": []}),
        );
        refused(
            &task,
            json!({"sentiment": "positive", "score": -5, "keyFactors": []}),
        );
        refused(&task, json!({"sentiment": "positive", "score": 80}));
        refused(
            &task,
            json!({"sentiment": "positive", "score": 80, "keyFactors": [], "extra": 1}),
        );
        let content = Task::Content {
            content_type: "email".into(),
            description: "Spring show".into(),
            context_type: None,
        };
        refused(&content, json!({"text": "Hi"}));
        refused(&content, json!({"content": 7}));
        let outreach = Task::Outreach {
            contact_name: "Ann".into(),
            company_name: "Acme".into(),
            industry: None,
            city: None,
            state: None,
        };
        refused(&outreach, json!({"content": "Hi"}));
        let intel = Task::Intelligence {
            company_name: "Acme".into(),
            query: "growth".into(),
        };
        refused(&intel, json!({"intelligence": "Growing"}));
    }

    #[test]
    fn template_results_carry_no_model_fields() {
        let task = Task::Content {
            content_type: "report".into(),
            description: "Q3".into(),
            context_type: None,
        };
        let result =
            Output::Content(content("report", "Q3")).with(Provenance::template(task.message(true)));
        assert!(result.provenance().fallback);
        let v = serde_json::to_value(&result).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["content", "fallback", "message", "source"], "{v}");
        assert_eq!(v["source"], "template");
        assert!(v["message"].as_str().unwrap().contains("template fallback"));
        // Stored as JSON, read back as the route's type.
        let back: ContentResult = serde_json::from_value(v).unwrap();
        assert_eq!(back.provenance.source, Source::Template);
        assert_eq!(back.provenance.model, None);
    }
}
