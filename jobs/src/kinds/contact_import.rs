//! `contact_import`: reads a CSV upload stored in `contact_imports` (the api and the worker may run on
//! different machines) and creates or updates contacts by email.
//!
//! Rows stream through the `csv` reader and are written in transactions of [`BATCH`] rows, with one
//! summary activity per transaction. A bad row is rejected with its line number and reason; it never
//! stops the good rows. Re-running (a rescued job) is safe: rows already written are found by email
//! and updated with the same values.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{ActivityInsert, ContactImportRow};
use crate::domain::contacts::{REQUIRED_MESSAGE, STATUSES, is_status, is_valid_email};
use crate::domain::{non_empty, one_of_message};
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

/// Rows per transaction.
pub const BATCH: usize = 1000;
/// Rejected rows listed in the result; the rest are only counted.
pub const MAX_REJECTED_LISTED: usize = 1000;
/// Columns of the header line (a contact has 13 fields; exports add some).
pub const MAX_CSV_COLUMNS: usize = 100;
/// Characters of one cell (notes are the longest field).
pub const MAX_CSV_CELL_CHARS: usize = 10_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContactImport {
    /// The `contact_imports` row holding the file.
    pub import_id: String,
}

/// A contact field a CSV column can fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    FirstName,
    LastName,
    Email,
    Phone,
    Title,
    Department,
    CompanyId,
    Status,
    Score,
    Source,
    Tags,
    Notes,
    LinkedinUrl,
}

/// The field a header names, case-insensitively and ignoring spaces, `_` and `-`
/// (`firstName`, `first name`, `First Name`, `first_name` are all [`Column::FirstName`]).
pub fn column_for(header: &str) -> Option<Column> {
    let key: String = header
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '\u{feff}'))
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "firstname" | "first" => Column::FirstName,
        "lastname" | "last" | "surname" => Column::LastName,
        "email" | "emailaddress" => Column::Email,
        "phone" | "phonenumber" => Column::Phone,
        "title" | "jobtitle" => Column::Title,
        "department" => Column::Department,
        "companyid" => Column::CompanyId,
        "status" => Column::Status,
        "score" => Column::Score,
        "source" => Column::Source,
        "tags" => Column::Tags,
        "notes" => Column::Notes,
        "linkedinurl" | "linkedin" => Column::LinkedinUrl,
        _ => return None,
    })
}

/// The column of each header cell; an error naming the required columns that are missing.
pub fn header_columns(header: &csv::StringRecord) -> Result<Vec<Option<Column>>, String> {
    let cols: Vec<Option<Column>> = header.iter().map(column_for).collect();
    let missing: Vec<&str> = [
        (Column::FirstName, "firstName"),
        (Column::LastName, "lastName"),
        (Column::Email, "email"),
    ]
    .into_iter()
    .filter(|(c, _)| !cols.contains(&Some(*c)))
    .map(|(_, name)| name)
    .collect();
    if missing.is_empty() {
        Ok(cols)
    } else {
        Err(format!(
            "The CSV needs the columns firstName, lastName and email; missing: {}",
            missing.join(", ")
        ))
    }
}

fn reader(body: &[u8]) -> csv::Reader<&[u8]> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(body)
}

/// Checks a file's header line, so the upload can be refused at once. A spreadsheet, PDF or other
/// packed file sent as CSV is named as such rather than read as text.
pub fn check_header(body: &[u8]) -> Result<(), String> {
    let packed = [
        &b"PK\x03\x04"[..],
        &[0xD0, 0xCF, 0x11, 0xE0][..],
        &b"%PDF"[..],
        &[0x1F, 0x8B][..],
    ];
    if packed.iter().any(|magic| body.starts_with(magic)) {
        return Err(
            "This is a spreadsheet, PDF or packed file, not CSV: save it as CSV and upload that."
                .into(),
        );
    }
    let mut rdr = reader(body);
    let header = rdr
        .headers()
        .map_err(|e| format!("The CSV header cannot be read: {e}"))?;
    if header.len() > MAX_CSV_COLUMNS {
        return Err(format!("The CSV has more than {MAX_CSV_COLUMNS} columns."));
    }
    header_columns(header).map(|_| ())
}

/// One data row as a contact, or why it is refused.
pub fn parse_row(
    cols: &[Option<Column>],
    rec: &csv::StringRecord,
) -> Result<ContactImportRow, String> {
    let mut row = ContactImportRow {
        id: crate::domain::new_id(),
        company_id: None,
        first_name: String::new(),
        last_name: String::new(),
        email: String::new(),
        phone: None,
        title: None,
        department: None,
        linkedin_url: None,
        status: None,
        score: None,
        source: None,
        tags: None,
        notes: None,
    };
    for (col, cell) in cols.iter().zip(rec.iter()) {
        let Some(col) = col else { continue };
        let Some(value) = non_empty(Some(cell)) else {
            continue;
        };
        if value.chars().count() > MAX_CSV_CELL_CHARS {
            return Err(format!(
                "A cell is longer than {MAX_CSV_CELL_CHARS} characters."
            ));
        }
        match col {
            Column::FirstName => row.first_name = value,
            Column::LastName => row.last_name = value,
            Column::Email => row.email = value,
            Column::Phone => row.phone = Some(value),
            Column::Title => row.title = Some(value),
            Column::Department => row.department = Some(value),
            Column::CompanyId => row.company_id = Some(value),
            Column::Status => {
                let status = value.to_ascii_lowercase();
                if !is_status(&status) {
                    return Err(one_of_message("status", &STATUSES));
                }
                row.status = Some(status);
            }
            Column::Score => match value.parse::<i32>() {
                Ok(n) if (0..=100).contains(&n) => row.score = Some(n),
                _ => {
                    return Err(format!(
                        "score must be a whole number from 0 to 100, not {value}"
                    ));
                }
            },
            Column::Source => row.source = Some(value),
            Column::Tags => {
                let tags: Vec<String> = value
                    .split([';', ',', '|'])
                    .filter_map(|t| non_empty(Some(t)))
                    .collect();
                row.tags = Some(tags);
            }
            Column::Notes => row.notes = Some(value),
            Column::LinkedinUrl => row.linkedin_url = Some(value),
        }
    }
    if row.first_name.is_empty() || row.last_name.is_empty() || row.email.is_empty() {
        return Err(REQUIRED_MESSAGE.to_string());
    }
    if !is_valid_email(&row.email) {
        return Err(format!("Invalid email address: {}", row.email));
    }
    Ok(row)
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Outcome {
    rows: u64,
    imported: u64,
    updated: u64,
    rejected: Vec<Rejected>,
    rejected_count: u64,
}

#[derive(Debug, Serialize)]
struct Rejected {
    line: u64,
    reason: String,
}

impl Outcome {
    fn reject(&mut self, line: u64, reason: String) {
        self.rejected_count += 1;
        if self.rejected.len() < MAX_REJECTED_LISTED {
            self.rejected.push(Rejected { line, reason });
        }
    }
}

/// Rows written from which an import compacts the search indexes (a big load leaves them in
/// many segments, which a search for a common term then reads one by one).
const COMPACT_AFTER: u64 = 1_000;

impl JobKind for ContactImport {
    const NAME: &'static str = "contact_import";
    const TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(900);

    fn validate(&self) -> Result<(), String> {
        if self.import_id.is_empty() {
            return Err("importId is required".into());
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let body = ctx
            .db()
            .contact_import_body(&self.import_id)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("import {} not found", self.import_id)))?;
        let total_bytes = body.len().max(1) as u64;
        let mut rdr = reader(&body);
        let header = rdr
            .headers()
            .map_err(|e| JobError::Permanent(format!("The CSV header cannot be read: {e}")))?
            .clone();
        let cols = header_columns(&header).map_err(JobError::Permanent)?;

        let mut out = Outcome::default();
        // Lower-cased email -> line of its first accepted occurrence in the file.
        let mut seen: HashMap<String, u64> = HashMap::new();
        let mut batch: Vec<(u64, ContactImportRow)> = Vec::with_capacity(BATCH);
        let mut rec = csv::StringRecord::new();
        loop {
            let line = rdr.position().line();
            match rdr.read_record(&mut rec) {
                Ok(false) => break,
                Ok(true) => {
                    out.rows += 1;
                    let line = rec.position().map_or(line, |p| p.line());
                    match parse_row(&cols, &rec) {
                        Err(reason) => out.reject(line, reason),
                        Ok(row) => {
                            let key = row.email.to_lowercase();
                            if let Some(first) = seen.get(&key) {
                                out.reject(
                                    line,
                                    format!(
                                        "Duplicate email {} (first on line {first})",
                                        row.email
                                    ),
                                );
                            } else {
                                seen.insert(key, line);
                                batch.push((line, row));
                            }
                        }
                    }
                }
                // A malformed record (bad UTF-8, ...) is one rejected line; reading goes on.
                Err(e) => {
                    out.rows += 1;
                    let at = e.position().map_or(line, |p| p.line());
                    out.reject(at, format!("Malformed row: {e}"));
                    if !matches!(e.kind(), csv::ErrorKind::Utf8 { .. }) {
                        break;
                    }
                }
            }
            if batch.len() >= BATCH {
                write_batch(&ctx, &mut batch, &mut out).await?;
                let percent = (rdr.position().byte() * 100 / total_bytes) as i32;
                ctx.progress(
                    percent.min(99),
                    format!(
                        "{} rows read: {} imported, {} updated, {} rejected",
                        out.rows, out.imported, out.updated, out.rejected_count
                    ),
                )
                .await?;
            }
        }
        write_batch(&ctx, &mut batch, &mut out).await?;
        ctx.db().contact_import_delete(&self.import_id).await?;
        if out.imported + out.updated >= COMPACT_AFTER {
            ctx.db().compact_after_load().await?;
        }
        ctx.progress(100, format!("{} rows read", out.rows)).await?;
        Ok(json!(out))
    }
}

/// Writes one batch in one transaction: new emails are inserted, known ones updated.
async fn write_batch(
    ctx: &JobContext,
    batch: &mut Vec<(u64, ContactImportRow)>,
    out: &mut Outcome,
) -> Result<(), JobError> {
    if batch.is_empty() {
        return Ok(());
    }
    let mut tx = ctx.db().begin().await?;
    let company_ids: Vec<String> = batch
        .iter()
        .filter_map(|(_, r)| r.company_id.clone())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let companies = tx.company_ids_existing(&company_ids).await?;
    let emails: Vec<String> = batch.iter().map(|(_, r)| r.email.to_lowercase()).collect();
    let existing = tx.contact_emails_existing(&emails).await?;
    let now = now_ms();
    let (mut imported, mut updated) = (0u64, 0u64);
    let first_line = batch.first().map_or(0, |(l, _)| *l);
    let last_line = batch.last().map_or(0, |(l, _)| *l);
    for (line, row) in batch.drain(..) {
        if let Some(id) = &row.company_id
            && !companies.contains(id)
        {
            out.reject(line, format!("Unknown companyId {id}"));
            continue;
        }
        tx.contact_import_upsert(&row, now).await?;
        if existing.contains(&row.email.to_lowercase()) {
            updated += 1;
        } else {
            imported += 1;
        }
    }
    let description = format!(
        "CSV import: {imported} contacts added, {updated} updated (lines {first_line}-{last_line})"
    );
    tx.activity_insert(&ActivityInsert {
        kind: "contacts_imported",
        description: &description,
        entity_type: Some("contact"),
        entity_id: None,
        actor_id: None,
    })
    .await?;
    tx.commit().await?;
    out.imported += imported;
    out.updated += updated;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_match_loosely() {
        for h in ["firstName", "first name", "First Name", "FIRST_NAME"] {
            assert_eq!(column_for(h), Some(Column::FirstName), "{h}");
        }
        assert_eq!(column_for("Email Address"), Some(Column::Email));
        assert_eq!(column_for("favourite colour"), None);
        assert!(check_header(b"First Name,Last Name,Email\n").is_ok());
        match check_header(b"first,phone\n") {
            Err(err) => assert!(err.contains("lastName, email"), "{err}"),
            Ok(()) => panic!("a header without lastName and email passed"),
        }
    }
}
