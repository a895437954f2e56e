//! Limits for files that strangers send (catalogs, contact imports, AI documents), checked before a
//! parser builds anything in memory. A ZIP's entries are decompressed into a sink with a hard cap (the
//! sizes a ZIP declares can lie), its XML is walked for depth and for counts that parsers reserve
//! memory for, and an XLS workbook's records are walked for the grid they would make. Every refusal
//! names the limit, so the person who uploaded the file knows what to change.

use std::io::{self, BufReader, Cursor, Read};

/// Entries in one ZIP (an .xlsx or .docx has a few dozen).
pub const MAX_ZIP_ENTRIES: usize = 1_000;
/// Bytes one ZIP entry may decompress to.
pub const MAX_ZIP_ENTRY_BYTES: u64 = 32 * 1024 * 1024;
/// Bytes all the entries of one ZIP may decompress to together.
pub const MAX_ZIP_TOTAL_BYTES: u64 = 64 * 1024 * 1024;
/// Elements open inside each other in one XML part.
pub const MAX_XML_DEPTH: usize = 100;
/// A count an XML part declares for what follows (shared strings, cells): parsers reserve memory for it.
pub const MAX_DECLARED_COUNT: u64 = 1_000_000;
/// Filled cells read from one spreadsheet.
pub const MAX_SHEET_CELLS: usize = 250_000;
/// Columns of a spreadsheet (a catalog needs a handful).
pub const MAX_SHEET_COLUMNS: u32 = 256;
/// Cells of the rectangle an .xls sheet spans: its reader builds that grid in full.
pub const MAX_SHEET_AREA: u64 = 2_000_000;
/// Pages of a PDF read for its text.
pub const MAX_PDF_PAGES: usize = 500;
/// Characters of text taken from one document.
pub const MAX_TEXT_CHARS: usize = 2_000_000;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LimitError {
    #[error("The file has more than {MAX_ZIP_ENTRIES} parts (the limit for a packed file).")]
    ZipEntries,
    #[error(
        "The file unpacks to more than {} MiB (the limit is {} MiB per part and {} MiB in all).",
        MAX_ZIP_TOTAL_BYTES / 1024 / 1024,
        MAX_ZIP_ENTRY_BYTES / 1024 / 1024,
        MAX_ZIP_TOTAL_BYTES / 1024 / 1024
    )]
    Unpacked,
    #[error("The file's XML is nested more than {MAX_XML_DEPTH} levels deep.")]
    XmlDepth,
    #[error("The file declares more than {MAX_DECLARED_COUNT} items in one part.")]
    DeclaredCount,
    #[error("The sheet has more than {MAX_SHEET_CELLS} filled cells.")]
    Cells,
    #[error("The sheet is wider than {MAX_SHEET_COLUMNS} columns.")]
    Columns,
    #[error("The sheet spans more than {MAX_SHEET_AREA} cells from its first to its last cell.")]
    Area,
    #[error("The PDF has more than {MAX_PDF_PAGES} pages.")]
    Pages,
    #[error("The document has more than {MAX_TEXT_CHARS} characters of text.")]
    Text,
    /// The container itself is broken (not a limit): the caller says what it expected.
    #[error("The file is damaged ({0}).")]
    Damaged(String),
}

impl LimitError {
    /// Over a size limit (413) rather than malformed (422).
    pub fn is_size(&self) -> bool {
        !matches!(self, Self::XmlDepth | Self::Damaged(_))
    }
}

/// Counts the bytes that pass through, to tell a part that ran into its cap.
struct Counted<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// Every entry of a ZIP decompressed with caps, its XML walked; nothing is kept.
pub fn check_zip(bytes: &[u8]) -> Result<(), LimitError> {
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| LimitError::Damaged(e.to_string()))?;
    if zip.len() > MAX_ZIP_ENTRIES {
        return Err(LimitError::ZipEntries);
    }
    let mut total = 0u64;
    for i in 0..zip.len() {
        let entry = zip
            .by_index(i)
            .map_err(|e| LimitError::Damaged(e.to_string()))?;
        let xml = {
            let name = entry
                .name()
                .map_err(|e| LimitError::Damaged(e.to_string()))?
                .to_ascii_lowercase();
            name.ends_with(".xml") || name.ends_with(".rels")
        };
        let cap = MAX_ZIP_ENTRY_BYTES.min(MAX_ZIP_TOTAL_BYTES - total);
        // One byte past the cap tells "exactly at the cap" from "over it".
        let mut counted = Counted {
            inner: entry.take(cap + 1),
            read: 0,
        };
        let walked = if xml {
            check_xml(&mut counted)
        } else {
            io::copy(&mut counted, &mut io::sink())
                .map(|_| ())
                .map_err(|e| LimitError::Damaged(e.to_string()))
        };
        if counted.read > cap {
            return Err(LimitError::Unpacked);
        }
        walked?;
        total += counted.read;
    }
    Ok(())
}

/// Depth and declared counts of one XML part, streamed.
fn check_xml(part: impl Read) -> Result<(), LimitError> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(BufReader::new(part));
    reader.config_mut().check_end_names = false;
    let mut buf = Vec::new();
    let mut depth = 0usize;
    loop {
        buf.clear();
        let event = match reader.read_event_into(&mut buf) {
            Ok(e) => e,
            // Over the cap the stream ends mid-element; the caller reports the size, not this.
            Err(e) => return Err(LimitError::Damaged(format!("XML: {e}"))),
        };
        let start = match &event {
            Event::Start(e) => {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    return Err(LimitError::XmlDepth);
                }
                Some(e)
            }
            Event::Empty(e) => Some(e),
            _ => None,
        };
        for attr in start.into_iter().flat_map(|e| e.attributes().flatten()) {
            if matches!(attr.key.local_name().as_ref(), "count" | "uniqueCount") {
                let n = attr.value.trim().parse::<u64>().ok();
                if n.is_none_or(|n| n > MAX_DECLARED_COUNT) {
                    return Err(LimitError::DeclaredCount);
                }
            }
        }
        match event {
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 2)
        .map(|s| u32::from(u16::from_le_bytes([s[0], s[1]])))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// An .xls workbook's BIFF records: the rectangle its cells span and the one its DIMENSIONS records
/// declare (the reader reserves that grid), and how many cells there are.
pub fn check_xls(bytes: &[u8]) -> Result<(), LimitError> {
    let mut cf = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| LimitError::Damaged(e.to_string()))?;
    let name = if cf.is_stream("/Workbook") {
        "/Workbook"
    } else {
        "/Book"
    };
    let mut stream = Vec::new();
    cf.open_stream(name)
        .and_then(|s| s.take(bytes.len() as u64 + 1).read_to_end(&mut stream))
        .map_err(|e| LimitError::Damaged(e.to_string()))?;
    let area = |r0: u32, r1: u32, c0: u32, c1: u32| {
        (u64::from(r1.saturating_sub(r0)) + 1) * (u64::from(c1.saturating_sub(c0)) + 1)
    };
    let (mut rmin, mut rmax, mut cmin, mut cmax) = (u32::MAX, 0u32, u32::MAX, 0u32);
    let mut cells = 0usize;
    let mut at = 0usize;
    while let (Some(typ), Some(len)) = (u16_at(&stream, at), u16_at(&stream, at + 2)) {
        let data = stream
            .get(at + 4..at + 4 + len as usize)
            .unwrap_or_default();
        at += 4 + len as usize;
        let (row, first, last) = match typ {
            // DIMENSIONS: BIFF8 rows are 32-bit, older ones 16-bit.
            0x0200 => {
                let dims = if data.len() >= 14 {
                    (
                        u32_at(data, 0),
                        u32_at(data, 4),
                        u16_at(data, 8),
                        u16_at(data, 10),
                    )
                } else {
                    (
                        u16_at(data, 0),
                        u16_at(data, 2),
                        u16_at(data, 4),
                        u16_at(data, 6),
                    )
                };
                // Rows and columns are first..last+1; calamine subtracts them, so a reversed row
                // span would wrap around.
                if let (Some(r0), Some(r1), Some(c0), Some(c1)) = dims {
                    if r1 > 0 && r1 - 1 < r0 {
                        return Err(LimitError::Damaged("its sheet size is reversed".into()));
                    }
                    if area(r0, r1, c0.min(c1), c1) > MAX_SHEET_AREA {
                        return Err(LimitError::Area);
                    }
                }
                continue;
            }
            // Single cells: NUMBER, LABEL, RSTRING, BOOLERR, RK, LABELSST, FORMULA.
            0x0203 | 0x0204 | 0x00D6 | 0x0205 | 0x027E | 0x00FD | 0x0006 => {
                let (Some(r), Some(c)) = (u16_at(data, 0), u16_at(data, 2)) else {
                    continue;
                };
                (r, c, c)
            }
            // MULRK: a run of cells in one row, the last column in the record's last two bytes.
            0x00BD => {
                let (Some(r), Some(c0), Some(c1)) = (
                    u16_at(data, 0),
                    u16_at(data, 2),
                    u16_at(data, data.len().saturating_sub(2)),
                ) else {
                    continue;
                };
                (r, c0, c1.max(c0))
            }
            _ => continue,
        };
        cells += (last - first) as usize + 1;
        if cells > MAX_SHEET_CELLS {
            return Err(LimitError::Cells);
        }
        rmin = rmin.min(row);
        rmax = rmax.max(row);
        cmin = cmin.min(first);
        cmax = cmax.max(last);
        if cmax >= MAX_SHEET_COLUMNS {
            return Err(LimitError::Columns);
        }
        if area(rmin, rmax, cmin, cmax) > MAX_SHEET_AREA {
            return Err(LimitError::Area);
        }
    }
    Ok(())
}

/// A PDF before it is parsed: the pages it declares (`/Type /Page` objects; pages inside compressed
/// object streams are counted again after parsing) and what its compressed streams inflate to (the
/// parser inflates every one of them in memory).
pub fn check_pdf(bytes: &[u8]) -> Result<(), LimitError> {
    check_pdf_pages(bytes)?;
    let mut total = 0u64;
    let mut i = 0;
    while let Some(pos) = find(&bytes[i..], b"stream") {
        i += pos + 6;
        // `endstream` ends one; only `stream` followed by its end of line starts one.
        if bytes[..i].ends_with(b"endstream") {
            continue;
        }
        let rest = &bytes[i..];
        let data = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .or_else(|| rest.strip_prefix(b"\r"));
        let Some(data) = data else { continue };
        let end = find(data, b"endstream").unwrap_or(data.len());
        let cap = MAX_ZIP_TOTAL_BYTES - total;
        let mut counted = Counted {
            inner: flate2::read::ZlibDecoder::new(&data[..end]).take(cap + 1),
            read: 0,
        };
        // Not every stream is deflated and some are damaged: only the size that comes out counts.
        let _ = io::copy(&mut counted, &mut io::sink());
        if counted.read > cap {
            return Err(LimitError::Unpacked);
        }
        total += counted.read;
        i += end;
    }
    Ok(())
}

/// Pages a PDF declares in its bytes.
fn check_pdf_pages(bytes: &[u8]) -> Result<(), LimitError> {
    let mut pages = 0usize;
    let mut i = 0;
    while let Some(pos) = find(&bytes[i..], b"/Type") {
        i += pos + 5;
        let rest = &bytes[i..];
        let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let rest = &rest[skip..];
        // `/Page` but not `/Pages`.
        if rest.starts_with(b"/Page") && !rest[5..].first().is_some_and(u8::is_ascii_alphanumeric) {
            pages += 1;
            if pages > MAX_PDF_PAGES {
                return Err(LimitError::Pages);
            }
        }
    }
    Ok(())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;

    /// A ZIP whose parts are given as (name, bytes), deflated.
    pub(crate) fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, body) in parts {
            w.start_file(*name, opts).unwrap();
            w.write_all(body).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn a_zip_bomb_is_refused_by_what_it_unpacks_to() {
        let zeros = vec![0u8; (MAX_ZIP_ENTRY_BYTES + 1) as usize];
        let bomb = zip_of(&[("a.bin", &zeros)]);
        assert!(bomb.len() < 200 * 1024, "compresses well: {}", bomb.len());
        assert_eq!(check_zip(&bomb), Err(LimitError::Unpacked));
        let half = vec![0u8; (MAX_ZIP_ENTRY_BYTES - 1) as usize];
        let many = zip_of(&[("a.bin", &half), ("b.bin", &half), ("c.bin", &half)]);
        assert_eq!(
            check_zip(&many),
            Err(LimitError::Unpacked),
            "the total counts too"
        );
        assert_eq!(check_zip(&zip_of(&[("a.bin", &half)])), Ok(()));
    }

    #[test]
    fn too_many_entries_deep_xml_and_huge_declared_counts_are_refused() {
        let names: Vec<String> = (0..=MAX_ZIP_ENTRIES).map(|i| format!("f{i}")).collect();
        let parts: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        assert_eq!(check_zip(&zip_of(&parts)), Err(LimitError::ZipEntries));

        let deep = format!(
            "<a>{}{}</a>",
            "<b>".repeat(MAX_XML_DEPTH + 1),
            "</b>".repeat(MAX_XML_DEPTH + 1)
        );
        assert_eq!(
            check_zip(&zip_of(&[("x/deep.xml", deep.as_bytes())])),
            Err(LimitError::XmlDepth)
        );
        let fine = format!("{}{}", "<b>".repeat(50), "</b>".repeat(50));
        assert_eq!(check_zip(&zip_of(&[("ok.xml", fine.as_bytes())])), Ok(()));
        let sst = br#"<sst xmlns="x" count="1" uniqueCount="99999999999"/>"#;
        assert_eq!(
            check_zip(&zip_of(&[("xl/sharedStrings.xml", sst)])),
            Err(LimitError::DeclaredCount)
        );
    }

    #[test]
    fn a_pdf_stream_that_inflates_past_the_limit_is_refused() {
        use flate2::write::ZlibEncoder;
        let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![b' '; (MAX_ZIP_TOTAL_BYTES + 1) as usize])
            .unwrap();
        let packed = z.finish().unwrap();
        let mut pdf = b"%PDF-1.7\n1 0 obj << /Filter /FlateDecode >>\nstream\n".to_vec();
        pdf.extend(&packed);
        pdf.extend(b"\nendstream\nendobj\n");
        assert!(pdf.len() < 200 * 1024, "compresses well: {}", pdf.len());
        assert_eq!(check_pdf(&pdf), Err(LimitError::Unpacked));
        let small = b"%PDF-1.7\n1 0 obj << >>\nstream\nBT (Hello) Tj ET\nendstream\nendobj\n";
        assert_eq!(check_pdf(small), Ok(()));
    }

    /// A compound file whose Workbook stream holds the given BIFF records.
    fn xls_of(records: &[(u16, Vec<u8>)]) -> Vec<u8> {
        let mut stream = Vec::new();
        for (typ, data) in records {
            stream.extend(typ.to_le_bytes());
            stream.extend((data.len() as u16).to_le_bytes());
            stream.extend(data);
        }
        let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        cf.create_stream("/Workbook")
            .unwrap()
            .write_all(&stream)
            .unwrap();
        cf.flush().unwrap();
        cf.into_inner().into_inner()
    }

    fn dims(r0: u32, r1: u32, c0: u16, c1: u16) -> (u16, Vec<u8>) {
        let mut d = Vec::new();
        d.extend(r0.to_le_bytes());
        d.extend(r1.to_le_bytes());
        d.extend(c0.to_le_bytes());
        d.extend(c1.to_le_bytes());
        d.extend([0, 0]);
        (0x0200, d)
    }

    fn number(row: u16, col: u16) -> (u16, Vec<u8>) {
        let mut d = Vec::new();
        d.extend(row.to_le_bytes());
        d.extend(col.to_le_bytes());
        d.extend([0u8; 10]);
        (0x0203, d)
    }

    #[test]
    fn an_xls_grid_is_measured_before_it_is_built() {
        assert_eq!(
            check_xls(&xls_of(&[dims(0, 3, 0, 2), number(0, 0)])),
            Ok(())
        );
        assert_eq!(
            check_xls(&xls_of(&[dims(0, 1_048_576, 0, 255)])),
            Err(LimitError::Area),
            "a declared grid of 268 million cells"
        );
        assert_eq!(
            check_xls(&xls_of(&[number(0, 0), number(65_535, 200)])),
            Err(LimitError::Area),
            "two cells far apart"
        );
        assert_eq!(
            check_xls(&xls_of(&[number(0, 300)])),
            Err(LimitError::Columns)
        );
        assert!(matches!(
            check_xls(&xls_of(&[dims(9, 3, 0, 2)])),
            Err(LimitError::Damaged(_))
        ));
    }

    #[test]
    fn pdf_pages_are_counted_before_parsing() {
        let mut pdf = b"%PDF-1.7\n1 0 obj << /Type /Pages /Count 9 >> endobj\n".to_vec();
        for i in 0..MAX_PDF_PAGES {
            pdf.extend(format!("{} 0 obj << /Type /Page >> endobj\n", i + 2).as_bytes());
        }
        assert_eq!(check_pdf_pages(&pdf), Ok(()));
        pdf.extend(b"999 0 obj << /Type/Page >> endobj\n");
        assert_eq!(check_pdf_pages(&pdf), Err(LimitError::Pages));
    }
}
