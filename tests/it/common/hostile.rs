//! Files a stranger might upload to take the process down: each is small on the wire and huge, deep
//! or long once parsed. Every upload route is tried with all of them (issue 19).

use std::io::{Cursor, Read, Write};

/// Name, bytes and a description for the assertion messages.
pub struct Hostile {
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

/// Rebuilds a ZIP with one more part.
fn with_part(zip_bytes: &[u8], name: &str, body: &[u8]) -> Vec<u8> {
    let mut src = zip::ZipArchive::new(Cursor::new(zip_bytes)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9));
    for i in 0..src.len() {
        let mut entry = src.by_index(i).unwrap();
        let entry_name = entry.name().unwrap().to_string();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        out.start_file(entry_name, opts).unwrap();
        out.write_all(&data).unwrap();
    }
    out.start_file(name, opts).unwrap();
    out.write_all(body).unwrap();
    out.finish().unwrap().into_inner()
}

/// A workbook with a product header and one row: what an honest catalog looks like.
pub fn small_xlsx() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Name").unwrap();
    sheet.write_string(0, 1, "Price").unwrap();
    sheet.write_string(1, 0, "Grab Bar").unwrap();
    sheet.write_number(1, 1, 19.5).unwrap();
    book.save_to_buffer().unwrap()
}

/// Two cells, A1 and XFD1048576: a reader that builds the dense grid needs 17 billion cells.
pub fn sparse_xlsx() -> Hostile {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Name").unwrap();
    sheet.write_number(1_048_575, 16_383, 1.0).unwrap();
    Hostile {
        name: "sparse.xlsx",
        bytes: book.save_to_buffer().unwrap(),
    }
}

/// A real workbook and a real Word document with one extra part of zeros that inflates past the
/// per-part limit (32 MiB) from a few dozen KiB.
pub fn zip_bomb(docx: bool) -> Hostile {
    let zeros = vec![0u8; 33 * 1024 * 1024];
    let base = if docx { small_docx() } else { small_xlsx() };
    Hostile {
        name: if docx { "bomb.docx" } else { "bomb.xlsx" },
        bytes: with_part(&base, "xl/media/padding.bin", &zeros),
    }
}

/// A real workbook with a part nested 10,000 elements deep.
pub fn nested_xml(docx: bool) -> Hostile {
    let deep = format!("{}{}", "<a>".repeat(10_000), "</a>".repeat(10_000));
    let base = if docx { small_docx() } else { small_xlsx() };
    Hostile {
        name: if docx { "nested.docx" } else { "nested.xlsx" },
        bytes: with_part(&base, "customXml/item1.xml", deep.as_bytes()),
    }
}

/// A minimal Word document (the parts a reader needs).
pub fn small_docx() -> Vec<u8> {
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    out.start_file("[Content_Types].xml", opts).unwrap();
    out.write_all(br#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#)
        .unwrap();
    out.start_file("word/document.xml", opts).unwrap();
    out.write_all(
        br#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Invoice Number: INV-1</w:t></w:r></w:p></w:body></w:document>"#,
    )
    .unwrap();
    out.finish().unwrap().into_inner()
}

/// A PDF of 501 pages, one more than the limit.
pub fn many_pages_pdf() -> Hostile {
    use printpdf::{Mm, PdfDocument, PdfPage, PdfSaveOptions};
    let pages = (0..501)
        .map(|_| PdfPage::new(Mm(215.9), Mm(279.4), Vec::new()))
        .collect();
    Hostile {
        name: "long.pdf",
        bytes: PdfDocument::new("long")
            .with_pages(pages)
            .save(&PdfSaveOptions::default(), &mut Vec::new()),
    }
}

/// Every hostile file, for the routes that take any of them.
pub fn all() -> Vec<Hostile> {
    vec![
        sparse_xlsx(),
        zip_bomb(false),
        zip_bomb(true),
        nested_xml(false),
        nested_xml(true),
        many_pages_pdf(),
    ]
}
