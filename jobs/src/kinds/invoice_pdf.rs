//! `invoice_pdf`: renders an invoice as a US Letter PDF (printpdf, the PDF standard fonts) and stores
//! it with the invoice version (`updated_at`) it shows; the download serves that rendering while it is
//! current. Long invoices continue on further pages.

use printpdf::{
    BuiltinFont, Color, Line, LinePoint, Mm, Op, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, Rgb, TextItem,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{InvoiceItemRow, InvoiceRow};
use crate::domain::invoices::dollars;
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvoicePdf {
    pub invoice_id: String,
}

impl JobKind for InvoicePdf {
    const NAME: &'static str = "invoice_pdf";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let invoice = db
            .invoice_get(&self.invoice_id)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("invoice {} not found", self.invoice_id)))?;
        let items = db.invoice_items(std::slice::from_ref(&invoice.id)).await?;
        let pdf = render(
            &invoice,
            &items,
            &Issuer::of(&ctx.env.providers.mailing.sender),
        );
        db.invoice_pdf_put(&invoice.id, invoice.updated_at, &pdf, now_ms())
            .await?;
        Ok(json!({
            "invoiceId": invoice.id,
            "invoiceNumber": invoice.invoice_number,
            "version": invoice.updated_at,
            "bytes": pdf.len(),
        }))
    }
}

/// Who the invoice is from (the sender identity of the mail settings).
pub struct Issuer {
    pub name: String,
    pub address: String,
}

impl Issuer {
    /// The mail sender's name ("Name <address>" → Name) and postal address.
    pub fn of(sender: &crate::email::compose::Sender) -> Self {
        let name = sender
            .from
            .split_once('<')
            .map_or(sender.from.as_str(), |(n, _)| n)
            .trim()
            .trim_matches('"');
        Self {
            name: name.to_string(),
            address: sender.postal_address.clone(),
        }
    }
}

const PAGE_W: f32 = 215.9;
const PAGE_H: f32 = 279.4;
const LEFT: f32 = 18.0;
const RIGHT: f32 = PAGE_W - 18.0;
const ROW_H: f32 = 6.5;
const BOTTOM: f32 = 30.0;
/// Courier's advance width, in em: amounts are set in it so they line up at the right edge.
const COURIER_EM: f32 = 0.6;

fn grey(level: f32) -> Color {
    Color::Rgb(Rgb {
        r: level,
        g: level,
        b: level,
        icc_profile: None,
    })
}

/// The standard fonts speak WinAnsi: anything beyond Latin-1 is shown as '?'.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => ' ',
            c if (c as u32) < 0x20 || (c as u32) > 0xFF => '?',
            c => c,
        })
        .collect()
}

/// Text cut to `max` characters with an ellipsis, so a long description cannot run into the numbers.
fn clip(s: &str, max: usize) -> String {
    let s = printable(s);
    if s.chars().count() <= max {
        s
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(3)).collect();
        t.push_str("...");
        t
    }
}

struct Canvas {
    pages: Vec<Vec<Op>>,
    y: f32,
}

impl Canvas {
    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn text(&mut self, x: f32, y: f32, font: BuiltinFont, size: f32, s: &str) {
        let ops = self.ops();
        ops.push(Op::StartTextSection);
        ops.push(Op::SetTextCursor {
            pos: Point::new(Mm(x), Mm(y)),
        });
        ops.push(Op::SetFont {
            font: PdfFontHandle::Builtin(font),
            size: Pt(size),
        });
        ops.push(Op::ShowText {
            items: vec![TextItem::Text(printable(s))],
        });
        ops.push(Op::EndTextSection);
    }

    /// Courier text whose right edge is at `right`.
    fn amount(&mut self, right: f32, y: f32, size: f32, bold: bool, s: &str) {
        let width_mm = s.chars().count() as f32 * COURIER_EM * size * 25.4 / 72.0;
        let font = if bold {
            BuiltinFont::CourierBold
        } else {
            BuiltinFont::Courier
        };
        self.text(right - width_mm, y, font, size, s);
    }

    fn rule(&mut self, y: f32, level: f32) {
        let ops = self.ops();
        ops.push(Op::SetOutlineColor { col: grey(level) });
        ops.push(Op::SetOutlineThickness { pt: Pt(0.6) });
        ops.push(Op::DrawLine {
            line: Line {
                points: vec![
                    LinePoint {
                        p: Point::new(Mm(LEFT), Mm(y)),
                        bezier: false,
                    },
                    LinePoint {
                        p: Point::new(Mm(RIGHT), Mm(y)),
                        bezier: false,
                    },
                ],
                is_closed: false,
            },
        });
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = PAGE_H - 20.0;
    }
}

const COL_QTY: f32 = 130.0;
const COL_UNIT: f32 = 162.0;

fn table_head(c: &mut Canvas) {
    let y = c.y;
    c.text(LEFT, y, BuiltinFont::HelveticaBold, 9.5, "Description");
    c.text(COL_QTY - 8.0, y, BuiltinFont::HelveticaBold, 9.5, "Qty");
    c.text(
        COL_UNIT - 20.0,
        y,
        BuiltinFont::HelveticaBold,
        9.5,
        "Unit price",
    );
    c.text(RIGHT - 16.0, y, BuiltinFont::HelveticaBold, 9.5, "Amount");
    c.rule(y - 2.0, 0.6);
    c.y -= ROW_H + 1.0;
}

pub fn render(inv: &InvoiceRow, items: &[InvoiceItemRow], issuer: &Issuer) -> Vec<u8> {
    let mut c = Canvas {
        pages: Vec::new(),
        y: PAGE_H - 22.0,
    };
    let top = c.y;
    c.text(LEFT, top, BuiltinFont::HelveticaBold, 22.0, "INVOICE");
    c.text(
        LEFT,
        top - 8.0,
        BuiltinFont::HelveticaBold,
        10.0,
        &issuer.name,
    );
    c.text(
        LEFT,
        top - 13.0,
        BuiltinFont::Helvetica,
        9.0,
        &clip(&issuer.address, 70),
    );
    let meta = [
        ("Invoice number", inv.invoice_number.as_str()),
        ("Date", inv.invoice_date.as_str()),
        ("Due date", inv.due_date.as_str()),
        ("Status", inv.status.as_str()),
    ];
    for (i, (label, value)) in meta.iter().enumerate() {
        let y = top - 6.0 * i as f32;
        c.text(128.0, y, BuiltinFont::Helvetica, 9.0, label);
        c.text(160.0, y, BuiltinFont::HelveticaBold, 9.0, &clip(value, 24));
    }
    c.y = top - 32.0;
    c.text(LEFT, c.y, BuiltinFont::HelveticaBold, 10.0, "Bill to");
    c.y -= 5.5;
    let customer = [
        Some(inv.customer_name.as_str()),
        inv.customer_email.as_deref(),
        inv.customer_phone.as_deref(),
    ];
    for line in customer.into_iter().flatten() {
        c.text(LEFT, c.y, BuiltinFont::Helvetica, 9.5, &clip(line, 90));
        c.y -= 5.0;
    }
    for line in inv.billing_address.as_deref().unwrap_or("").lines() {
        if !line.trim().is_empty() {
            c.text(
                LEFT,
                c.y,
                BuiltinFont::Helvetica,
                9.5,
                &clip(line.trim(), 90),
            );
            c.y -= 5.0;
        }
    }
    c.y -= 6.0;
    table_head(&mut c);
    for it in items {
        if c.y < BOTTOM + ROW_H {
            c.new_page();
            table_head(&mut c);
        }
        let y = c.y;
        c.text(
            LEFT,
            y,
            BuiltinFont::Helvetica,
            9.5,
            &clip(&it.description, 58),
        );
        c.amount(COL_QTY, y, 9.5, false, &it.quantity.to_string());
        c.amount(COL_UNIT, y, 9.5, false, &dollars(it.unit_price_cents));
        c.amount(RIGHT, y, 9.5, false, &dollars(it.total_cents));
        c.rule(y - 2.2, 0.88);
        c.y -= ROW_H;
    }
    // Totals and notes stay together on one page.
    if c.y < BOTTOM + 40.0 {
        c.new_page();
    }
    c.y -= 3.0;
    let tax_rate = format!(
        "Tax ({}%)",
        format!("{}.{:03}", inv.tax_milli / 1000, inv.tax_milli % 1000)
            .trim_end_matches('0')
            .trim_end_matches('.')
    );
    let totals = [
        ("Subtotal", inv.subtotal_cents, false),
        ("Discount", -inv.discount_cents, false),
        (tax_rate.as_str(), inv.tax_cents, false),
        ("Total (USD)", inv.total_cents, true),
    ];
    for (label, cents, bold) in totals {
        let font = if bold {
            BuiltinFont::HelveticaBold
        } else {
            BuiltinFont::Helvetica
        };
        c.text(128.0, c.y, font, if bold { 11.0 } else { 9.5 }, label);
        c.amount(
            RIGHT,
            c.y,
            if bold { 11.0 } else { 9.5 },
            bold,
            &dollars(cents),
        );
        c.y -= if bold { 8.0 } else { 6.0 };
    }
    if let Some(notes) = inv.notes.as_deref().filter(|n| !n.trim().is_empty()) {
        c.y -= 4.0;
        c.text(LEFT, c.y, BuiltinFont::HelveticaBold, 10.0, "Notes");
        c.y -= 5.5;
        for line in notes.lines().take(12) {
            if c.y < BOTTOM - 10.0 {
                break;
            }
            c.text(LEFT, c.y, BuiltinFont::Helvetica, 9.0, &clip(line, 110));
            c.y -= 4.8;
        }
    }
    let count = c.pages.len();
    let pages: Vec<PdfPage> = c
        .pages
        .into_iter()
        .enumerate()
        .map(|(i, mut ops)| {
            let footer = format!("{} - page {} of {}", inv.invoice_number, i + 1, count);
            let mut f = Canvas {
                pages: vec![std::mem::take(&mut ops)],
                y: 0.0,
            };
            f.text(LEFT, 12.0, BuiltinFont::Helvetica, 8.0, &clip(&footer, 100));
            PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), f.pages.swap_remove(0))
        })
        .collect();
    let mut doc = PdfDocument::new(&format!("Invoice {}", printable(&inv.invoice_number)));
    doc.with_pages(pages)
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use printpdf::PdfParseOptions;

    fn invoice(lines: usize) -> (InvoiceRow, Vec<InvoiceItemRow>) {
        let inv = InvoiceRow {
            id: "inv1".into(),
            invoice_number: "INV-1700000000000".into(),
            customer_name: "Sunrise Bath & Co".into(),
            customer_email: Some("ap@sunrise.example".into()),
            customer_phone: None,
            billing_address: Some("12 Main St\nAustin, TX 78701".into()),
            notes: Some("Thank you — net 30".into()),
            tax_milli: 8500,
            discount_cents: 1000,
            subtotal_cents: 15_997,
            tax_cents: 1275,
            total_cents: 16_272,
            status: "draft".into(),
            invoice_date: "2026-11-22".into(),
            due_date: "2026-12-22".into(),
            paid_at: None,
            created_at: 1,
            updated_at: 1,
        };
        let items = (0..lines)
            .map(|i| InvoiceItemRow {
                id: format!("it{i}"),
                invoice_id: "inv1".into(),
                position: i as i32,
                product_id: None,
                description: format!("Walk-in tub model {i}"),
                quantity: 3,
                unit_price_cents: 1999,
                total_cents: 5997,
            })
            .collect();
        (inv, items)
    }

    fn text_of(pdf: &[u8]) -> Vec<String> {
        let doc = PdfDocument::parse(pdf, &PdfParseOptions::default(), &mut Vec::new())
            .unwrap_or_else(|e| panic!("not a readable PDF: {e}"));
        doc.extract_text()
            .into_iter()
            .map(|p| p.join(" "))
            .collect()
    }

    #[test]
    fn the_pdf_shows_the_invoice_and_its_totals() {
        let (inv, items) = invoice(2);
        let issuer = Issuer {
            name: "Prospector Partnerships".into(),
            address: "1 Dealer Way, Austin TX".into(),
        };
        let pdf = render(&inv, &items, &issuer);
        assert!(pdf.starts_with(b"%PDF-"));
        let pages = text_of(&pdf);
        assert_eq!(pages.len(), 1);
        for expected in [
            "INV-1700000000000",
            "Sunrise Bath & Co",
            "Walk-in tub model 1",
            "59.97",
            "159.97",
            "-10.00",
            "Tax (8.5%)",
            "12.75",
            "162.72",
            "Austin, TX 78701",
        ] {
            assert!(
                pages[0].contains(expected),
                "{expected} missing in {}",
                pages[0]
            );
        }
    }

    #[test]
    fn long_invoices_continue_on_more_pages_with_the_totals_at_the_end() {
        let (inv, items) = invoice(80);
        let issuer = Issuer {
            name: "P".into(),
            address: "A".into(),
        };
        let pages = text_of(&render(&inv, &items, &issuer));
        assert!(pages.len() >= 3, "{} pages", pages.len());
        assert!(pages[0].contains("Walk-in tub model 0"));
        let last = pages.last().map(String::as_str).unwrap_or_default();
        assert!(last.contains("Walk-in tub model 79") || last.contains("162.72"));
        assert!(last.contains("162.72"), "the total is on the last page");
        assert!(last.contains(&format!("page {} of {}", pages.len(), pages.len())));
    }
}
