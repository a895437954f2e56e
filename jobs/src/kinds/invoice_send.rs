//! `invoice_send`: emails an invoice to its customer with the current PDF attached, through the same
//! delivery (SMTP or the outbox) as every message; a draft becomes `sent` once the message is taken.
//! The job records the email before handing it to the mail server, so a repeated run (after a crash
//! mid-send) does not email it twice.

use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::domain::invoices::dollars;
use crate::email::transport::SendError;
use crate::kinds::invoice_pdf::{Issuer, render};
use crate::queue::{JobContext, JobError, JobKind, NewJob};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvoiceSend {
    pub invoice_id: String,
    /// A note from the sender above the standard text.
    #[serde(default)]
    pub message: Option<String>,
}

impl JobKind for InvoiceSend {
    const NAME: &'static str = "invoice_send";
    const MAX_ATTEMPTS: i32 = 5;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let invoice = db
            .invoice_get(&self.invoice_id)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("invoice {} not found", self.invoice_id)))?;
        let to = invoice
            .customer_email
            .clone()
            .filter(|e| !e.trim().is_empty())
            .ok_or_else(|| JobError::Permanent("This invoice has no customer email".into()))?;
        let items = db.invoice_items(std::slice::from_ref(&invoice.id)).await?;
        let mailing = &ctx.env.providers.mailing;
        let pdf = render(&invoice, &items, &Issuer::of(&mailing.sender));
        let bad = |e: String| JobError::Permanent(e);
        let from: Mailbox = mailing
            .sender
            .from
            .parse()
            .map_err(|e| bad(format!("sender address: {e}")))?;
        let to_box: Mailbox = to
            .parse()
            .map_err(|e| bad(format!("customer email {to}: {e}")))?;
        let mut text = String::new();
        if let Some(m) = self
            .message
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
        {
            text.push_str(m);
            text.push_str("\n\n");
        }
        text.push_str(&format!(
            "Dear {},\n\nPlease find attached invoice {} dated {} for ${}, due {}.\n\nThank you for your business.\n\n{}\n{}\n",
            invoice.customer_name,
            invoice.invoice_number,
            invoice.invoice_date,
            dollars(invoice.total_cents),
            invoice.due_date,
            Issuer::of(&mailing.sender).name,
            mailing.sender.postal_address,
        ));
        let message_id = format!(
            "invoice-{}-{}@{}",
            invoice.id, invoice.updated_at, mailing.message_domain
        );
        let mut builder = Message::builder()
            .from(from)
            .to(to_box)
            .subject(format!(
                "Invoice {} from {}",
                invoice.invoice_number,
                Issuer::of(&mailing.sender).name
            ))
            .date_now()
            .message_id(Some(format!("<{message_id}>")));
        if let Some(r) = &mailing.sender.reply_to
            && let Ok(r) = r.parse::<Mailbox>()
        {
            builder = builder.reply_to(r);
        }
        let pdf_type = ContentType::parse("application/pdf").map_err(|e| bad(e.to_string()))?;
        let msg = builder
            .multipart(
                MultiPart::mixed()
                    .singlepart(SinglePart::plain(text))
                    .singlepart(
                        Attachment::new(format!("invoice-{}.pdf", invoice.invoice_number))
                            .body(pdf, pdf_type),
                    ),
            )
            .map_err(|e| bad(format!("the message could not be built: {e}")))?;
        // Recorded before it is handed over, keyed by the job: a run that dies mid-send is not
        // followed by a second email (at most once, as campaigns do); a refusal is forgotten.
        let now = ctx.env.clock.now_ms();
        let claimed = db
            .invoice_email_claim(&invoice.id, &ctx.id, &to, now)
            .await?;
        if claimed {
            let refused = match mailing.send(msg).await {
                Ok(()) => None,
                Err(SendError::Transient(e)) => {
                    Some(JobError::Retry(format!("mail server deferred: {e}")))
                }
                Err(SendError::Permanent(e)) => {
                    Some(JobError::Permanent(format!("mail server refused: {e}")))
                }
            };
            if let Some(err) = refused {
                db.invoice_email_release(&ctx.id).await?;
                return Err(err);
            }
        }
        let status = if invoice.status == "draft" {
            db.invoice_set_status(&invoice.id, "sent", now).await?;
            if let Some(updated) = db.invoice_get(&invoice.id).await? {
                ctx.env
                    .enqueue(
                        NewJob::new("invoice_pdf", json!({"invoiceId": updated.id}))
                            .unique_while_active(format!(
                                "invoice_pdf:{}:{}",
                                updated.id, updated.updated_at
                            )),
                    )
                    .await
                    .map_err(|e| JobError::Retry(e.to_string()))?;
            }
            "sent"
        } else {
            invoice.status.as_str()
        };
        Ok(json!({
            "invoiceId": invoice.id,
            "to": to,
            "messageId": message_id,
            "status": status,
            "alreadySent": !claimed,
        }))
    }
}
