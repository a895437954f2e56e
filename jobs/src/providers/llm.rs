//! AI tasks (content, insights, document reading, sentiment, research, outreach) through any
//! OpenAI-compatible chat-completions endpoint, answered in JSON that a schema pins down. Only used
//! with `AI_PROVIDER=openai`; otherwise the tasks' template fallbacks run (see `crate::ai`).

use std::time::Instant;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::config::Secret;
use crate::providers::http::{HttpError, HttpPolicy, send};

/// POSTs one request to an OpenAI-compatible chat-completions endpoint (with the retry policy)
/// and returns the answer's body; the AI tasks and the discovery provider both ask this way.
pub(crate) async fn post_chat(
    client: &reqwest::Client,
    policy: &HttpPolicy,
    base_url: &str,
    api_key: Option<&Secret<String>>,
    body: &Value,
) -> Result<String, HttpError> {
    let url = format!("{base_url}/chat/completions");
    send(policy, || {
        let r = client.post(&url).json(body);
        match api_key {
            Some(k) => r.bearer_auth(k.expose()),
            None => r,
        }
    })
    .await
}

pub struct Llm {
    client: reqwest::Client,
    base_url: String,
    api_key: Option<Secret<String>>,
    pub model: String,
    /// The model reads images and PDF files (`AI_VISION`).
    pub vision: bool,
    policy: HttpPolicy,
}

/// One piece of the user's message.
pub enum Part {
    Text(String),
    /// An image or a PDF, sent inline (only to a model with vision).
    File {
        media_type: String,
        bytes: Vec<u8>,
    },
}

/// A parsed answer and what it cost.
#[derive(Debug, Clone)]
pub struct LlmAnswer {
    pub value: Value,
    pub model: String,
    pub latency_ms: u64,
    pub tokens: Option<u64>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    /// The service did not answer usefully after the retries (down, rate limited, timing out).
    #[error("the AI provider is unavailable: {0}")]
    Unavailable(String),
    /// It answered, but not with what was asked (refused, truncated, not the schema).
    #[error("the AI provider's answer could not be used: {0}")]
    Malformed(String),
}

impl Llm {
    pub fn new(
        base_url: &str,
        api_key: Option<Secret<String>>,
        model: &str,
        vision: bool,
        policy: HttpPolicy,
    ) -> Self {
        Self {
            client: reqwest::Client::new(),
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            model: model.to_string(),
            vision,
            policy,
        }
    }

    /// Asks for one JSON object matching `schema` (strict mode: every property listed and required).
    pub async fn json(
        &self,
        system: &str,
        parts: Vec<Part>,
        schema_name: &str,
        schema: Value,
    ) -> Result<LlmAnswer, LlmError> {
        use base64::Engine as _;
        let content: Vec<Value> = parts
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => json!({"type": "text", "text": t}),
                Part::File { media_type, bytes } => {
                    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
                    let url = format!("data:{media_type};base64,{data}");
                    if media_type == "application/pdf" {
                        json!({"type": "file", "file": {"filename": "document.pdf", "file_data": url}})
                    } else {
                        json!({"type": "image_url", "image_url": {"url": url}})
                    }
                }
            })
            .collect();
        let body = json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": content},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "strict": true, "schema": schema},
            },
        });
        let started = Instant::now();
        let text = post_chat(
            &self.client,
            &self.policy,
            &self.base_url,
            self.api_key.as_ref(),
            &body,
        )
        .await
        .map_err(|e| match e {
            HttpError::Status { status, body, .. } if !(status == 429 || status >= 500) => {
                LlmError::Malformed(format!("HTTP {status}: {body}"))
            }
            other => LlmError::Unavailable(other.to_string()),
        })?;
        let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (value, tokens) = parse(&text)?;
        metrics::histogram!("prospector_ai_request_seconds", "model" => self.model.clone())
            .record(started.elapsed().as_secs_f64());
        Ok(LlmAnswer {
            value,
            model: self.model.clone(),
            latency_ms,
            tokens,
        })
    }
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Usage {
    total_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
    refusal: Option<String>,
}

/// The JSON object the model wrote, or why it cannot be used (a truncated answer is never used).
pub fn parse(body: &str) -> Result<(Value, Option<u64>), LlmError> {
    let c: Completion = serde_json::from_str(body)
        .map_err(|e| LlmError::Malformed(format!("not a chat completion ({e})")))?;
    let tokens = c.usage.and_then(|u| u.total_tokens);
    let choice = c
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| LlmError::Malformed("no choices".into()))?;
    if let Some(r) = choice.message.refusal {
        return Err(LlmError::Malformed(format!("the model refused: {r}")));
    }
    if choice.finish_reason.as_deref() == Some("length") {
        return Err(LlmError::Malformed(
            "the answer was cut off (finish_reason: length)".into(),
        ));
    }
    let content = choice
        .message
        .content
        .ok_or_else(|| LlmError::Malformed("empty answer".into()))?;
    let value: Value = serde_json::from_str(&content).map_err(|e| {
        LlmError::Malformed(format!(
            "the answer does not match the schema: not JSON ({e})"
        ))
    })?;
    if !value.is_object() {
        return Err(LlmError::Malformed(
            "the answer does not match the schema: not a JSON object".into(),
        ));
    }
    Ok((value, tokens))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn completion(content: &str, finish: &str) -> String {
        json!({"choices": [{"message": {"content": content}, "finish_reason": finish}],
               "usage": {"total_tokens": 42}})
        .to_string()
    }

    #[test]
    fn answers_are_used_only_whole() {
        let (v, tokens) = parse(&completion(r#"{"content":"Hi"}"#, "stop")).unwrap();
        assert_eq!(v["content"], "Hi");
        assert_eq!(tokens, Some(42));
        assert!(matches!(
            parse(&completion(r#"{"content":"Hi"#, "length")),
            Err(LlmError::Malformed(m)) if m.contains("cut off")
        ));
        assert!(parse(&completion("[1,2]", "stop")).is_err());
        assert!(parse("<html>").is_err());
        let refused = json!({"choices": [{"message": {"content": null, "refusal": "no"}, "finish_reason": "stop"}]});
        assert!(
            matches!(parse(&refused.to_string()), Err(LlmError::Malformed(m)) if m.contains("refused"))
        );
    }
}
