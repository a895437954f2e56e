//! Product catalogs for invoices (seed 002 §5): a CSV or Excel sheet whose header has a name-like and
//! a price-like column (optional description, category and sku columns). Prices may carry currency
//! signs and thousands separators; rows whose price cannot be read are skipped and counted. The
//! seed's demo read 4 rows and kept 3 products; a real catalog keeps every row, up to
//! [`MAX_ITEMS`]. The kind of file is told by its content, not its name.

use std::collections::BTreeMap;
use std::io::Cursor;

use calamine::{Data, Reader};

use crate::untrusted::{self, LimitError};

use super::invoices::cents;

/// More rows than any dealer's price list; a file beyond it is refused rather than cut short.
pub const MAX_ITEMS: usize = 5_000;

pub const INVALID_CSV: &str = "Invalid CSV Format: CSV must contain 'name' and 'price' columns";
pub const UNSUPPORTED: &str = "Unsupported File Type";
pub const PDF_NOT_SUPPORTED: &str = "PDF catalogs are not supported: export the price list as CSV or Excel (.xlsx, .xls) and upload that.";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogItem {
    pub name: String,
    pub description: Option<String>,
    pub price_cents: i64,
    pub category: Option<String>,
    pub sku: Option<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub items: Vec<CatalogItem>,
    /// Data rows left out: no name, or a price that is not an amount.
    pub skipped: usize,
    /// `csv`, `xlsx` or `xls`.
    pub format: &'static str,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CatalogError {
    /// No name-like and price-like header.
    #[error("{}", INVALID_CSV)]
    Columns,
    #[error("{}", PDF_NOT_SUPPORTED)]
    Pdf,
    #[error("{}", UNSUPPORTED)]
    Unsupported,
    #[error("The file could not be read: {0}")]
    Unreadable(String),
    #[error("The catalog has no products with a name and a price.")]
    Empty,
    #[error("The catalog has more than {MAX_ITEMS} products; split it into several files.")]
    TooMany,
    /// Over one of the limits for untrusted files.
    #[error("{0}")]
    Limit(#[from] LimitError),
}

/// A price cell as text: "$1,299.00", "19.99 USD", "€5" → cents.
pub fn price_cents(text: &str) -> Option<i64> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    if cleaned.is_empty() || cleaned.contains('-') {
        return None;
    }
    cents(&cleaned)
}

struct Columns {
    name: usize,
    price: usize,
    description: Option<usize>,
    category: Option<usize>,
    sku: Option<usize>,
}

fn columns(header: &[String]) -> Option<Columns> {
    let find = |pred: &dyn Fn(&str) -> bool| {
        header
            .iter()
            .position(|h| pred(&h.trim().to_ascii_lowercase()))
    };
    Some(Columns {
        name: find(&|h| h.contains("name"))?,
        price: find(&|h| h.contains("price") || h == "cost" || h == "amount")?,
        description: find(&|h| h.contains("description") || h == "details"),
        category: find(&|h| h.contains("category") || h == "type"),
        sku: find(&|h| h.contains("sku") || h == "item number" || h == "part number"),
    })
}

fn rows_to_items(
    mut rows: impl Iterator<Item = Vec<String>>,
    format: &'static str,
) -> Result<Parsed, CatalogError> {
    let header = rows.next().ok_or(CatalogError::Columns)?;
    let cols = columns(&header).ok_or(CatalogError::Columns)?;
    let mut parsed = Parsed {
        format,
        ..Parsed::default()
    };
    let cell = |row: &[String], i: usize| {
        row.get(i)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    for row in rows {
        if row.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let name = cell(&row, cols.name);
        let price = cell(&row, cols.price).and_then(|p| price_cents(&p));
        let (Some(name), Some(price_cents)) = (name, price) else {
            parsed.skipped += 1;
            continue;
        };
        if parsed.items.len() == MAX_ITEMS {
            return Err(CatalogError::TooMany);
        }
        parsed.items.push(CatalogItem {
            name,
            description: cols.description.and_then(|i| cell(&row, i)),
            price_cents,
            category: cols.category.and_then(|i| cell(&row, i)),
            sku: cols.sku.and_then(|i| cell(&row, i)),
        });
    }
    if parsed.items.is_empty() {
        return Err(CatalogError::Empty);
    }
    Ok(parsed)
}

fn spreadsheet_cell(d: &Data) -> String {
    match d {
        // Spreadsheet numbers are floats already; a price is rounded to the cent once, here.
        Data::Float(f) if f.is_finite() && *f >= 0.0 && *f < 1e13 => {
            format!("{:.2}", (f * 100.0).round() / 100.0)
        }
        other => other.to_string(),
    }
}

/// A container too broken to open is not a spreadsheet at all (the seed's "Unsupported File Type").
fn limit(e: LimitError) -> CatalogError {
    match e {
        LimitError::Damaged(_) => CatalogError::Unsupported,
        e => CatalogError::Limit(e),
    }
}

/// The first sheet of an .xlsx, streamed cell by cell (never as a dense grid) into its filled rows.
fn xlsx_rows(bytes: &[u8]) -> Result<Vec<Vec<String>>, CatalogError> {
    untrusted::check_zip(bytes).map_err(limit)?;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|_| CatalogError::Unsupported)?;
    let first = book
        .sheet_names()
        .first()
        .cloned()
        .ok_or(CatalogError::Columns)?;
    let mut cells = book
        .worksheet_cells_reader(&first)
        .map_err(|e| CatalogError::Unreadable(e.to_string()))?;
    let mut rows: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut count = 0usize;
    while let Some(cell) = cells
        .next_cell()
        .map_err(|e| CatalogError::Unreadable(e.to_string()))?
    {
        let (row, col) = cell.get_position();
        if col >= untrusted::MAX_SHEET_COLUMNS {
            return Err(LimitError::Columns.into());
        }
        count += 1;
        if count > untrusted::MAX_SHEET_CELLS {
            return Err(LimitError::Cells.into());
        }
        let value = spreadsheet_cell(&Data::from(cell.get_value().clone()));
        let cols = rows.entry(row).or_default();
        if cols.len() <= col as usize {
            cols.resize(col as usize + 1, String::new());
        }
        cols[col as usize] = value;
    }
    Ok(rows.into_values().collect())
}

/// The first sheet of an .xls; its reader builds each sheet's grid whole, so the records are
/// checked for the grid's size first.
fn xls_rows(bytes: &[u8]) -> Result<Vec<Vec<String>>, CatalogError> {
    untrusted::check_xls(bytes).map_err(limit)?;
    let mut book: calamine::Xls<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|_| CatalogError::Unsupported)?;
    let range = book
        .worksheet_range_at(0)
        .ok_or(CatalogError::Columns)?
        .map_err(|e| CatalogError::Unreadable(e.to_string()))?;
    Ok(range
        .rows()
        .map(|r| r.iter().map(spreadsheet_cell).collect())
        .collect())
}

/// Reads a catalog file, whatever its name says.
pub fn parse(bytes: &[u8]) -> Result<Parsed, CatalogError> {
    if bytes.starts_with(b"%PDF") {
        return Err(CatalogError::Pdf);
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return xlsx_rows(bytes).and_then(|rows| rows_to_items(rows.into_iter(), "xlsx"));
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return xls_rows(bytes).and_then(|rows| rows_to_items(rows.into_iter(), "xls"));
    }
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
        .map_err(|_| CatalogError::Unsupported)?;
    if text.contains('\0') {
        return Err(CatalogError::Unsupported);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| CatalogError::Unreadable(e.to_string()))?;
        rows.push(record.iter().map(String::from).collect::<Vec<_>>());
    }
    rows_to_items(rows.into_iter(), "csv")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_beyond_the_demo_cap_are_all_kept_and_prices_are_cleaned() {
        let mut csv = String::from("Product Name,Unit Price,SKU,Description\n");
        csv.push_str("Walk-in Tub,\"$4,999.00\",WT-1,Low threshold\n");
        csv.push_str("Grab Bar,$39.5,GB-2,\n");
        csv.push_str("Bad Row,call us,,\n");
        csv.push_str(",10,,\n");
        for i in 0..6 {
            csv.push_str(&format!("Shower Seat {i},{}.99,,\n", 100 + i));
        }
        let p = parse(csv.as_bytes()).unwrap_or_default();
        assert_eq!(p.format, "csv");
        assert_eq!(p.items.len(), 8, "no 3-product cap");
        assert_eq!(p.skipped, 2);
        assert_eq!(p.items[0].price_cents, 499_900);
        assert_eq!(p.items[0].sku.as_deref(), Some("WT-1"));
        assert_eq!(p.items[0].description.as_deref(), Some("Low threshold"));
        assert_eq!(p.items[1].price_cents, 3950);
        assert_eq!(p.items[7].name, "Shower Seat 5");
    }

    #[test]
    fn files_are_told_by_content_with_the_seed_messages() {
        assert_eq!(parse(b"title,cost\nx,1\n"), Err(CatalogError::Columns));
        assert_eq!(
            CatalogError::Columns.to_string(),
            "Invalid CSV Format: CSV must contain 'name' and 'price' columns"
        );
        assert_eq!(parse(b"%PDF-1.7 ..."), Err(CatalogError::Pdf));
        assert_eq!(
            parse(b"\x89PNG\r\n\x1a\n\0\0"),
            Err(CatalogError::Unsupported)
        );
        assert_eq!(parse(b"PK\x03\x04garbage"), Err(CatalogError::Unsupported));
        assert_eq!(parse(b"name,price\nx,free\n"), Err(CatalogError::Empty));
        assert_eq!(price_cents("-5"), None);
        assert_eq!(price_cents("1,299.99 USD"), Some(129_999));
    }
}
