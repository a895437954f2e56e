//! Documents for the AI features: told apart by their bytes (never their names), their text read
//! locally (PDF with printpdf, DOCX from `word/document.xml`, DOC from the WordDocument stream's piece
//! table), then read for invoice fields or analysed — by the LLM when configured, else by rules whose
//! confidence is the share of fields they found.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::ai::{Provenance, from_answer};
use crate::providers::llm::{LlmAnswer, LlmError};
use crate::untrusted::{self, LimitError};

/// The stated and enforced upload limit.
pub const MAX_DOCUMENT_BYTES: usize = 15 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Jpeg,
    Png,
    Pdf,
    Doc,
    Docx,
}

impl Kind {
    pub fn media_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Pdf => "application/pdf",
            Self::Doc => "application/msword",
            Self::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        }
    }

    pub fn from_media_type(m: &str) -> Option<Self> {
        [Self::Jpeg, Self::Png, Self::Pdf, Self::Doc, Self::Docx]
            .into_iter()
            .find(|k| k.media_type() == m)
    }

    pub fn is_image(self) -> bool {
        matches!(self, Self::Jpeg | Self::Png)
    }
}

/// What the bytes are, if one of the accepted kinds.
pub fn sniff(bytes: &[u8]) -> Option<Kind> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some(Kind::Jpeg);
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(Kind::Png);
    }
    // The header may follow a little junk (the PDF spec lets readers look within the first KiB).
    if bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
        return Some(Kind::Pdf);
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        // A compound file: Word only when it has the WordDocument stream (not Excel, not PowerPoint).
        let cf = cfb::CompoundFile::open(Cursor::new(bytes)).ok()?;
        return cf.is_stream("/WordDocument").then_some(Kind::Doc);
    }
    if bytes.starts_with(b"PK\x03\x04") {
        let zip = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
        return zip.index_for_name("word/document.xml").map(|_| Kind::Docx);
    }
    None
}

/// The limits a document is checked against before its text is read (at upload, so the person
/// sending it hears at once): what a DOCX unpacks to and its XML, a PDF's pages and streams.
pub fn check(kind: Kind, bytes: &[u8]) -> Result<(), LimitError> {
    match kind {
        Kind::Docx => untrusted::check_zip(bytes),
        Kind::Pdf => untrusted::check_pdf(bytes),
        // A compound file's streams are read whole, but no stream is larger than the file.
        Kind::Doc | Kind::Jpeg | Kind::Png => Ok(()),
    }
}

/// The text of a document; `Ok("")` when it has none (a scan), `Err` when it cannot be read or is
/// over a limit. Checks [`check`] itself: it is CPU-bound, so callers run it off the async runtime.
pub fn text_of(kind: Kind, bytes: &[u8]) -> Result<String, String> {
    check(kind, bytes).map_err(|e| e.to_string())?;
    let text = match kind {
        Kind::Pdf => {
            let doc = printpdf::PdfDocument::parse(
                bytes,
                &printpdf::PdfParseOptions::default(),
                &mut Vec::new(),
            )
            .map_err(|e| format!("the PDF cannot be read ({e})"))?;
            // Pages packed in object streams were not visible to the byte scan.
            if doc.pages.len() > untrusted::MAX_PDF_PAGES {
                return Err(LimitError::Pages.to_string());
            }
            doc.extract_text()
                .into_iter()
                .map(|page| page.join("\n"))
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        }
        Kind::Docx => docx_text(bytes)?,
        Kind::Doc => doc_text(bytes)?,
        Kind::Jpeg | Kind::Png => String::new(),
    };
    if text.chars().count() > untrusted::MAX_TEXT_CHARS {
        return Err(LimitError::Text.to_string());
    }
    Ok(text)
}

fn docx_text(bytes: &[u8]) -> Result<String, String> {
    use quick_xml::events::Event;
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("the DOCX cannot be opened ({e})"))?;
    let mut xml = String::new();
    zip.by_name("word/document.xml")
        .map_err(|e| format!("the DOCX has no document ({e})"))?
        .take(64 * 1024 * 1024)
        .read_to_string(&mut xml)
        .map_err(|e| format!("the DOCX document cannot be read ({e})"))?;
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut out = String::new();
    let mut in_text = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if e.local_name().as_ref() == "t" => in_text = true,
            Ok(Event::End(e)) if e.local_name().as_ref() == "t" => in_text = false,
            Ok(Event::End(e)) if e.local_name().as_ref() == "p" => out.push('\n'),
            Ok(Event::Empty(e)) if e.local_name().as_ref() == "tab" => out.push('\t'),
            Ok(Event::Empty(e)) if e.local_name().as_ref() == "br" => out.push('\n'),
            Ok(Event::Text(t)) if in_text => {
                out.push_str(&t.into_inner());
            }
            Ok(Event::GeneralRef(r)) if in_text => {
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    out.push(c);
                    continue;
                }
                out.push_str(match r.into_inner().as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                });
            }
            Ok(Event::Eof) => break,
            Err(e) => return Err(format!("the DOCX document is not valid XML ({e})")),
            _ => {}
        }
    }
    Ok(out.trim().to_string())
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Word 97–2003: the FIB names the table stream and where its piece table (CLX) is; each piece is
/// a run of text, 8-bit (Windows-1252) or UTF-16LE.
fn doc_text(bytes: &[u8]) -> Result<String, String> {
    let bad = |what: &str| format!("the DOC file cannot be read ({what})");
    let mut cf = cfb::CompoundFile::open(Cursor::new(bytes)).map_err(|e| bad(&e.to_string()))?;
    let mut word = Vec::new();
    let cap = bytes.len() as u64;
    cf.open_stream("/WordDocument")
        .and_then(|s| s.take(cap).read_to_end(&mut word))
        .map_err(|e| bad(&e.to_string()))?;
    let flags = word
        .get(0x0A..0x0C)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| bad("short header"))?;
    let table_name = if flags & 0x0200 != 0 {
        "/1Table"
    } else {
        "/0Table"
    };
    let mut table = Vec::new();
    cf.open_stream(table_name)
        .and_then(|s| s.take(cap).read_to_end(&mut table))
        .map_err(|e| bad(&e.to_string()))?;
    let fc_clx = u32_at(&word, 0x01A2).ok_or_else(|| bad("no piece table"))? as usize;
    let lcb_clx = u32_at(&word, 0x01A6).ok_or_else(|| bad("no piece table"))? as usize;
    let clx = table
        .get(fc_clx..fc_clx + lcb_clx)
        .ok_or_else(|| bad("piece table out of range"))?;
    // Skip property runs (0x01) to the piece table (0x02).
    let mut i = 0;
    while clx.get(i) == Some(&0x01) {
        let cb = clx
            .get(i + 1..i + 3)
            .map(|s| u16::from_le_bytes([s[0], s[1]]))
            .ok_or_else(|| bad("bad CLX"))?;
        i += 3 + cb as usize;
    }
    if clx.get(i) != Some(&0x02) {
        return Err(bad("no piece table"));
    }
    let lcb = u32_at(clx, i + 1).ok_or_else(|| bad("bad CLX"))? as usize;
    let plc = clx.get(i + 5..i + 5 + lcb).ok_or_else(|| bad("bad CLX"))?;
    let n = (lcb.saturating_sub(4)) / 12;
    let mut out = String::new();
    for p in 0..n {
        let (Some(cp0), Some(cp1)) = (u32_at(plc, p * 4), u32_at(plc, (p + 1) * 4)) else {
            break;
        };
        let Some(fc) = u32_at(plc, (n + 1) * 4 + p * 8 + 2) else {
            break;
        };
        let chars = cp1.saturating_sub(cp0) as usize;
        if fc & 0x4000_0000 != 0 {
            let at = ((fc & !0x4000_0000) / 2) as usize;
            let run = word
                .get(at..at + chars)
                .ok_or_else(|| bad("text out of range"))?;
            out.extend(run.iter().map(|b| char::from(*b)));
        } else {
            let at = fc as usize;
            let run = word
                .get(at..at + chars * 2)
                .ok_or_else(|| bad("text out of range"))?;
            let units: Vec<u16> = run
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            out.push_str(&String::from_utf16_lossy(&units));
        }
    }
    // Paragraph marks are CR; cell and field marks are control characters.
    let text: String = out
        .chars()
        .map(|c| if c == '\r' || c == '\u{7}' { '\n' } else { c })
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect();
    Ok(text.trim().to_string())
}

/// A money amount in a line ("$1,234.50", "1234.5") as cents-exact dollars.
fn amount_in(s: &str) -> Option<f64> {
    static AMOUNT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s*$").ok()
    });
    let c = AMOUNT.as_ref()?.captures(s.trim())?;
    let whole = c.get(1)?.as_str().replace(',', "");
    let frac = c.get(2).map_or("", |m| m.as_str());
    format!("{whole}{frac}").parse().ok()
}

fn after_label<'a>(text: &'a str, labels: &[&str]) -> Option<&'a str> {
    for line in text.lines() {
        let lower = line.to_lowercase();
        for l in labels {
            if let Some(at) = lower.find(l) {
                let rest = line[at + l.len()..].trim_start_matches([':', '#', ' ', '\t', '.', '-']);
                if !rest.trim().is_empty() {
                    return Some(rest.trim());
                }
            }
        }
    }
    None
}

/// An invoice line as read: what it is and its amount in dollars.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = AiInvoiceLine)]
pub struct InvoiceLine {
    pub description: String,
    pub total_price: f64,
}

/// The fields read from an invoice (the model answers in [`invoice_schema`]); null for what is
/// not there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = AiExtractedInvoice)]
pub struct ExtractedInvoice {
    pub invoice_number: Option<String>,
    pub customer_name: Option<String>,
    /// In dollars.
    pub total_amount: Option<f64>,
    /// As written on the invoice.
    pub due_date: Option<String>,
    /// 0–100.
    pub confidence: u32,
    pub line_items: Vec<InvoiceLine>,
}

/// A key data value: text read from the document, or a count (the rules' `Words`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = AiKeyDataValue)]
pub enum KeyValue {
    Count(u64),
    Text(String),
}

/// What a document is and says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiDocumentAnalysis)]
pub struct DocumentAnalysis {
    /// invoice, contract, proposal, purchase order, resume, letter, document (the rules'
    /// types), or the model's word for it.
    pub document_type: String,
    pub summary: String,
    /// 0–100.
    pub confidence: u32,
    /// "Key: value" facts of the document, by key.
    pub key_data: BTreeMap<String, KeyValue>,
}

/// The model's analysis: key data as pairs (strict schemas have no free-form maps).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AnalysisAnswer {
    document_type: String,
    summary: String,
    confidence: u32,
    key_data: Vec<KeyPair>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyPair {
    key: String,
    value: String,
}

/// The result of an `invoice_extract` document job (`/api/ai/invoice-extract`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiInvoiceExtraction)]
pub struct InvoiceExtraction {
    pub extracted_data: ExtractedInvoice,
    /// The document's type, told by its content.
    pub media_type: String,
    /// Characters of text the document had (0: an image or a scan).
    pub text_chars: u64,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// The result of a `document_analyze` document job (`/api/ai/document-analyze`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiDocumentAnalysisResult)]
pub struct AnalysisResult {
    pub analysis: DocumentAnalysis,
    /// The document's type, told by its content.
    pub media_type: String,
    /// Characters of text the document had (0: an image or a scan).
    pub text_chars: u64,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// How a document was read: by the model (its answer), else by the rules.
fn how(answer: Option<&LlmAnswer>) -> &'static str {
    match answer {
        Some(_) => "by the AI model",
        None => "by rules over the document's text (template fallback: no AI model is configured)",
    }
}

fn provenance(answer: Option<&LlmAnswer>, message: String) -> Provenance {
    match answer {
        Some(a) => Provenance::llm(a, message),
        None => Provenance::template(message),
    }
}

fn chars(text: &str) -> u64 {
    text.chars().count() as u64
}

/// The invoice read from the model's answer (refused unless in [`invoice_schema`]), else by the
/// rules over `text`.
pub fn invoice_result(
    answer: Option<&LlmAnswer>,
    text: &str,
    media_type: &str,
) -> Result<InvoiceExtraction, LlmError> {
    let extracted_data = match answer {
        Some(a) => from_answer(a.value.clone())?,
        None => extract_invoice(text),
    };
    Ok(InvoiceExtraction {
        extracted_data,
        media_type: media_type.to_string(),
        text_chars: chars(text),
        provenance: provenance(answer, format!("Invoice data extracted {}", how(answer))),
    })
}

/// The analysis from the model's answer (refused unless in [`analysis_schema`]), else by the rules
/// over `text`.
pub fn analysis_result(
    answer: Option<&LlmAnswer>,
    text: &str,
    media_type: &str,
) -> Result<AnalysisResult, LlmError> {
    let analysis = match answer {
        Some(a) => analysis_from_model(from_answer(a.value.clone())?),
        None => analyze(text),
    };
    Ok(AnalysisResult {
        analysis,
        media_type: media_type.to_string(),
        text_chars: chars(text),
        provenance: provenance(answer, format!("Document analysed {}", how(answer))),
    })
}

/// The invoice fields the rules can find; confidence is the share of the five fields found.
pub fn extract_invoice(text: &str) -> ExtractedInvoice {
    let number = after_label(
        text,
        &["invoice number", "invoice no", "invoice #", "invoice"],
    )
    .and_then(|s| {
        s.split_whitespace()
            .find(|w| w.chars().any(|c| c.is_ascii_digit()))
    })
    .map(|s| s.trim_matches([',', ';']).to_string());
    let customer =
        after_label(text, &["bill to", "billed to", "customer", "sold to"]).map(str::to_string);
    let total = text
        .lines()
        .filter(|l| {
            let l = l.to_lowercase();
            (l.contains("total") && !l.contains("subtotal"))
                || l.contains("amount due")
                || l.contains("balance due")
        })
        .filter_map(amount_in)
        .next_back();
    let due = after_label(text, &["due date", "payment due", "due"]).map(str::to_string);
    let mut items = Vec::new();
    for line in text.lines() {
        let lower = line.to_lowercase();
        if ["total", "tax", "discount", "due", "invoice", "balance"]
            .iter()
            .any(|w| lower.contains(w))
        {
            continue;
        }
        if let Some(amount) = amount_in(line) {
            let description = line
                .trim()
                .trim_end_matches(|c: char| c.is_ascii_digit() || ",.$ \t".contains(c))
                .trim()
                .to_string();
            if description.chars().filter(|c| c.is_alphabetic()).count() >= 3 {
                items.push(InvoiceLine {
                    description,
                    total_price: amount,
                });
            }
        }
    }
    let found = [
        number.is_some(),
        customer.is_some(),
        total.is_some(),
        due.is_some(),
        !items.is_empty(),
    ];
    let confidence = found.iter().filter(|f| **f).count() * 100 / found.len();
    ExtractedInvoice {
        invoice_number: number,
        customer_name: customer,
        total_amount: total,
        due_date: due,
        confidence: confidence as u32,
        line_items: items,
    }
}

const TYPES: [(&str, &[&str]); 6] = [
    ("invoice", &["invoice", "amount due", "bill to", "subtotal"]),
    (
        "contract",
        &[
            "agreement",
            "party",
            "parties",
            "hereby",
            "terms and conditions",
        ],
    ),
    ("proposal", &["proposal", "scope", "we propose", "pricing"]),
    (
        "purchase order",
        &["purchase order", "p.o.", "ship to", "order number"],
    ),
    (
        "resume",
        &["experience", "education", "skills", "employment"],
    ),
    ("letter", &["dear", "sincerely", "regards"]),
];

/// Type by keywords, a summary of the first sentences, and "Key: value" lines as key data.
pub fn analyze(text: &str) -> DocumentAnalysis {
    let lower = text.to_lowercase();
    let (doc_type, hits) = TYPES
        .iter()
        .map(|(t, words)| (*t, words.iter().filter(|w| lower.contains(*w)).count()))
        .max_by_key(|(_, n)| *n)
        .unwrap_or(("document", 0));
    let doc_type = if hits == 0 { "document" } else { doc_type };
    let words = text.split_whitespace().count();
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut summary: String = flat
        .split_inclusive(['.', '!', '?'])
        .take(2)
        .collect::<String>()
        .trim()
        .to_string();
    if summary.chars().count() > 300 {
        summary = summary.chars().take(297).collect::<String>() + "...";
    }
    let mut key = BTreeMap::new();
    for line in text.lines() {
        if let Some((k, v)) = line.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            if !k.is_empty() && k.len() <= 40 && !v.is_empty() && key.len() < 20 {
                key.entry(k.to_string())
                    .or_insert_with(|| KeyValue::Text(v.chars().take(200).collect()));
            }
        }
    }
    key.insert("Words".into(), KeyValue::Count(words as u64));
    // Two or more keywords of the type, or the structure of key-value lines, raise the confidence.
    let confidence = (30 + hits.min(4) * 15 + (key.len() - 1).min(4) * 2).min(100);
    DocumentAnalysis {
        document_type: doc_type.to_string(),
        summary,
        confidence: confidence as u32,
        key_data: key,
    }
}

/// The JSON schema the LLM answers an invoice extraction in.
pub fn invoice_schema() -> Value {
    let nullable = |t: &str| json!({"type": [t, "null"]});
    json!({
        "type": "object", "additionalProperties": false,
        "required": ["invoiceNumber", "customerName", "totalAmount", "dueDate", "confidence", "lineItems"],
        "properties": {
            "invoiceNumber": nullable("string"), "customerName": nullable("string"),
            "totalAmount": nullable("number"), "dueDate": nullable("string"),
            "confidence": {"type": "integer"},
            "lineItems": {"type": "array", "items": {
                "type": "object", "additionalProperties": false, "required": ["description", "totalPrice"],
                "properties": {"description": {"type": "string"}, "totalPrice": {"type": "number"}}}},
        }
    })
}

pub fn analysis_schema() -> Value {
    json!({
        "type": "object", "additionalProperties": false,
        "required": ["documentType", "summary", "confidence", "keyData"],
        "properties": {
            "documentType": {"type": "string"}, "summary": {"type": "string"},
            "confidence": {"type": "integer"},
            "keyData": {"type": "array", "items": {
                "type": "object", "additionalProperties": false, "required": ["key", "value"],
                "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}},
        }
    })
}

/// The model answers key data as pairs (strict schemas have no free-form maps); the seed's entity
/// is a map (a repeated key keeps its last value).
fn analysis_from_model(a: AnalysisAnswer) -> DocumentAnalysis {
    DocumentAnalysis {
        document_type: a.document_type,
        summary: a.summary,
        confidence: a.confidence,
        key_data: a
            .key_data
            .into_iter()
            .map(|p| (p.key, KeyValue::Text(p.value)))
            .collect(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Write;

    fn docx(paragraphs: &[&str]) -> Vec<u8> {
        let mut buf = Cursor::new(Vec::new());
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("[Content_Types].xml", opts).unwrap();
        z.write_all(b"<Types/>").unwrap();
        z.start_file("word/document.xml", opts).unwrap();
        let body: String = paragraphs
            .iter()
            .map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>"))
            .collect();
        write!(z, r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#).unwrap();
        z.finish().unwrap();
        buf.into_inner()
    }

    #[test]
    fn kinds_are_told_by_content() {
        assert_eq!(sniff(b"\xFF\xD8\xFF\xE0rest"), Some(Kind::Jpeg));
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some(Kind::Png));
        assert_eq!(sniff(b"%PDF-1.7\n"), Some(Kind::Pdf));
        assert_eq!(sniff(&docx(&["Hello"])), Some(Kind::Docx));
        // A zip that is not a Word document, and text named like a PDF, are refused.
        let mut other = Cursor::new(Vec::new());
        let mut z = zip::ZipWriter::new(&mut other);
        z.start_file("a.txt", zip::write::SimpleFileOptions::default())
            .unwrap();
        z.finish().unwrap();
        assert_eq!(sniff(&other.into_inner()), None);
        assert_eq!(sniff(b"name,price\nTub,1\n"), None);
        assert_eq!(sniff(b"GIF89a"), None);
    }

    #[test]
    fn docx_text_is_read_locally() {
        let text = text_of(
            Kind::Docx,
            &docx(&["Invoice Number: INV-42", "Bill To: Acme &amp; Sons"]),
        )
        .unwrap();
        assert_eq!(text, "Invoice Number: INV-42\nBill To: Acme & Sons");
    }

    #[test]
    fn doc_text_is_read_from_the_piece_table() {
        // A minimal Word 97 file: text as one 8-bit piece after the FIB, piece table in 0Table.
        let text = b"Invoice Number: INV-7\rTotal: $120.00\r";
        let mut word = vec![0u8; 0x200];
        let fc = word.len() as u32;
        word.extend_from_slice(text);
        let mut plc = Vec::new();
        plc.extend_from_slice(&0u32.to_le_bytes());
        plc.extend_from_slice(&(text.len() as u32).to_le_bytes());
        plc.extend_from_slice(&[0, 0]);
        plc.extend_from_slice(&((fc * 2) | 0x4000_0000).to_le_bytes());
        plc.extend_from_slice(&[0, 0]);
        let mut clx = vec![0x02];
        clx.extend_from_slice(&(plc.len() as u32).to_le_bytes());
        clx.extend_from_slice(&plc);
        word[0x01A2..0x01A6].copy_from_slice(&0u32.to_le_bytes());
        word[0x01A6..0x01AA].copy_from_slice(&(clx.len() as u32).to_le_bytes());
        let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        cf.create_stream("/WordDocument")
            .unwrap()
            .write_all(&word)
            .unwrap();
        cf.create_stream("/0Table")
            .unwrap()
            .write_all(&clx)
            .unwrap();
        let bytes = cf.into_inner().into_inner();
        assert_eq!(sniff(&bytes), Some(Kind::Doc));
        assert_eq!(
            text_of(Kind::Doc, &bytes).unwrap(),
            "Invoice Number: INV-7\nTotal: $120.00"
        );
    }

    #[test]
    fn invoice_fields_by_rules() {
        let v = json_of(extract_invoice(
            "ACME Supply\nInvoice Number: INV-2024-001\nBill To: Bright Baths LLC\nDue Date: 2026-12-01\n\
             Walk-in tub installation   $4,500.00\nGrab bar kit  89.99\nSubtotal $4,589.99\nTotal: $4,979.14\n",
        ));
        assert_eq!(v["invoiceNumber"], "INV-2024-001");
        assert_eq!(v["customerName"], "Bright Baths LLC");
        assert_eq!(v["totalAmount"], 4979.14);
        assert_eq!(v["dueDate"], "2026-12-01");
        assert_eq!(v["confidence"], 100);
        assert_eq!(v["lineItems"][0]["description"], "Walk-in tub installation");
        assert_eq!(v["lineItems"][0]["totalPrice"], 4500.0);
        assert_eq!(v["lineItems"].as_array().unwrap().len(), 2);
        let none = json_of(extract_invoice("Meeting notes about the spring show."));
        assert_eq!(none["confidence"], 0);
        assert!(none["dueDate"].is_null());
    }

    #[test]
    fn analysis_by_rules() {
        let v = json_of(analyze(
            "This Agreement is made between the parties. The terms and conditions follow.\nTerm: 12 months\nParty A: Acme",
        ));
        assert_eq!(v["documentType"], "contract");
        assert_eq!(
            v["summary"],
            "This Agreement is made between the parties. The terms and conditions follow."
        );
        assert_eq!(v["keyData"]["Term"], "12 months");
        assert_eq!(v["keyData"]["Words"], 18, "a count stays a number");
        assert!(v["confidence"].as_u64().unwrap() > 50);
    }

    fn json_of<T: Serialize>(t: T) -> Value {
        serde_json::to_value(t).unwrap()
    }

    fn model(value: Value) -> LlmAnswer {
        LlmAnswer {
            value,
            model: "test-model".into(),
            latency_ms: 80,
            tokens: None,
        }
    }

    #[test]
    fn results_say_who_read_the_document() {
        let text = "Invoice Number: INV-9\nTotal: $10.00";
        let v = json_of(invoice_result(None, text, "application/pdf").unwrap());
        assert_eq!(
            (
                &v["source"],
                &v["fallback"],
                &v["mediaType"],
                &v["textChars"]
            ),
            (
                &json!("template"),
                &json!(true),
                &json!("application/pdf"),
                &json!(35)
            )
        );
        assert_eq!(v["extractedData"]["invoiceNumber"], "INV-9");
        assert!(
            v.get("model").is_none() && v.get("latencyMs").is_none(),
            "{v}"
        );
        assert!(
            v["message"]
                .as_str()
                .unwrap()
                .starts_with("Invoice data extracted by rules"),
            "{v}"
        );
        let answer = model(
            json!({"invoiceNumber": "IMG-1", "customerName": null, "totalAmount": 99.5,
                                  "dueDate": null, "confidence": 88,
                                  "lineItems": [{"description": "Tub", "totalPrice": 99.5}]}),
        );
        let v = json_of(invoice_result(Some(&answer), "", "image/png").unwrap());
        assert_eq!(
            (&v["source"], &v["model"], &v["latencyMs"], &v["textChars"]),
            (&json!("llm"), &json!("test-model"), &json!(80), &json!(0))
        );
        assert_eq!(v["extractedData"]["customerName"], Value::Null, "{v}");
        assert_eq!(v["extractedData"]["lineItems"][0]["totalPrice"], 99.5);
        assert_eq!(v["message"], "Invoice data extracted by the AI model");
        // The model's key/value pairs become the map the rules give.
        let answer = model(
            json!({"documentType": "contract", "summary": "A deal.", "confidence": 70,
                                  "keyData": [{"key": "Term", "value": "1 year"}]}),
        );
        let v = json_of(analysis_result(Some(&answer), "A deal.", "application/pdf").unwrap());
        assert_eq!(v["analysis"]["keyData"], json!({"Term": "1 year"}), "{v}");
        assert_eq!(v["message"], "Document analysed by the AI model");
    }

    #[test]
    fn model_answers_outside_the_schema_are_refused() {
        let refused = |r: Result<Value, LlmError>| {
            assert!(
                matches!(&r, Err(LlmError::Malformed(m)) if m.contains("does not match the schema")),
                "{r:?}"
            );
        };
        let invoice = |v: Value| invoice_result(Some(&model(v)), "", "image/png").map(json_of);
        let analysis =
            |v: Value| analysis_result(Some(&model(v)), "x", "application/pdf").map(json_of);
        // A total as text, a line without its price, a field the schema does not have.
        refused(invoice(
            json!({"invoiceNumber": "1", "customerName": null, "totalAmount": "99",
                               "dueDate": null, "confidence": 88, "lineItems": []}),
        ));
        refused(invoice(
            json!({"invoiceNumber": "1", "customerName": null, "totalAmount": 9.0,
                               "dueDate": null, "confidence": 88, "lineItems": [{"description": "Tub"}]}),
        ));
        refused(invoice(
            json!({"invoiceNumber": "1", "customerName": null, "totalAmount": 9.0,
                               "dueDate": null, "confidence": 88, "lineItems": [], "currency": "USD"}),
        ));
        // Key data as a map instead of pairs, and a confidence that is not a count.
        refused(analysis(
            json!({"documentType": "letter", "summary": "Hi", "confidence": 50,
                                "keyData": {"Term": "1 year"}}),
        ));
        refused(analysis(
            json!({"documentType": "letter", "summary": "Hi", "confidence": 0.5,
                                "keyData": []}),
        ));
    }
}
