//! `document_ai`: reads an uploaded document for invoice fields or analyses it. Text comes from the
//! file itself (PDF, DOCX, DOC); images and scans need a model with vision. The upload is deleted once
//! read.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ai::documents::{self, Kind};
use crate::providers::llm::Part;
use crate::queue::{JobContext, JobError, JobKind};

/// Characters of document text sent to the model (long documents are cut, and the answer says so).
const MAX_TEXT_CHARS: usize = 60_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentAi {
    pub document_id: String,
}

/// Why an image or a scan cannot be read here.
pub const NEEDS_VISION: &str = "Reading images and scanned PDFs needs an AI model with vision: set \
    AI_PROVIDER=openai and AI_VISION=true";

impl JobKind for DocumentAi {
    const NAME: &'static str = "document_ai";
    const MAX_ATTEMPTS: i32 = 1;
    const TIME_BUDGET: Duration = Duration::from_secs(300);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let doc = db
            .ai_document_get(&self.document_id)
            .await?
            .ok_or_else(|| {
                JobError::Permanent(format!("document {} not found", self.document_id))
            })?;
        let kind = Kind::from_media_type(&doc.media_type)
            .ok_or_else(|| JobError::Permanent(format!("unsupported type {}", doc.media_type)))?;
        let extract = doc.task == "invoice_extract";
        let body = doc.body.clone();
        // Parsing is CPU-bound: off the runtime, so other jobs keep their threads.
        let text = tokio::task::spawn_blocking(move || documents::text_of(kind, &body))
            .await
            .map_err(|e| JobError::Permanent(format!("the document could not be read ({e})")))?
            .map_err(JobError::Permanent)?;
        let llm = ctx.env.providers.llm.clone();
        let (system, schema_name, schema) = if extract {
            (
                "Read this invoice. Amounts in dollars as numbers; confidence 0-100; null for what is not there.",
                "invoice",
                documents::invoice_schema(),
            )
        } else {
            (
                "Analyse this business document: its type, a two-sentence summary, confidence 0-100, and its \
                 key data as key/value pairs.",
                "analysis",
                documents::analysis_schema(),
            )
        };
        let answer = if text.is_empty() {
            // An image or a PDF without a text layer: only a model that sees can read it.
            let Some(llm) = llm.as_deref().filter(|l| l.vision) else {
                return Err(JobError::Permanent(NEEDS_VISION.into()));
            };
            let answer = llm
                .json(
                    system,
                    vec![Part::File {
                        media_type: doc.media_type.clone(),
                        bytes: doc.body.clone(),
                    }],
                    schema_name,
                    schema,
                )
                .await
                .map_err(|e| JobError::Permanent(e.to_string()))?;
            Some(answer)
        } else if let Some(llm) = llm.as_deref() {
            let cut: String = text.chars().take(MAX_TEXT_CHARS).collect();
            let answer = llm
                .json(system, vec![Part::Text(cut)], schema_name, schema)
                .await
                .map_err(|e| JobError::Permanent(e.to_string()))?;
            Some(answer)
        } else {
            None
        };
        // Without a model, the rules read the text (template fallback).
        let out = if extract {
            documents::invoice_result(answer.as_ref(), &text, &doc.media_type)
                .map(serde_json::to_value)
        } else {
            documents::analysis_result(answer.as_ref(), &text, &doc.media_type)
                .map(serde_json::to_value)
        }
        .map_err(|e| JobError::Permanent(e.to_string()))?
        .map_err(|e| JobError::Permanent(format!("the result cannot be stored ({e})")))?;
        db.ai_document_delete(&doc.id).await?;
        Ok(out)
    }
}
