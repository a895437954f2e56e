//! A loopback SMTP server for tests: [`jobs::email::sink::Sink`] started with enough threads for
//! any pool a test builds, plus parsing of what it received.

use std::ops::Deref;

use jobs::email::sink::Sink;

/// Connections the sink serves at once; above any pool size a test uses.
const THREADS: u32 = 16;

pub struct SmtpSink {
    pub port: u16,
    sink: Sink,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let sink = Sink::start(THREADS).expect("start the SMTP sink");
        SmtpSink {
            port: sink.port(),
            sink,
        }
    }
}

/// `url`, `messages`, `count`, `reject` and `wait_for` come from the library's sink.
impl Deref for SmtpSink {
    type Target = Sink;

    fn deref(&self) -> &Sink {
        &self.sink
    }
}

/// A received message, parsed.
pub fn parse(raw: &[u8]) -> mail_parser::Message<'_> {
    mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a parsable message")
}

/// The unfolded raw text of header `name` (for headers mail-parser does not know).
pub fn header(raw: &[u8], name: &str) -> Option<String> {
    let msg = parse(raw);
    let h = msg
        .headers()
        .iter()
        .find(|h| h.name().eq_ignore_ascii_case(name))?;
    let value = &raw[h.offset_start() as usize..h.offset_end() as usize];
    Some(
        String::from_utf8_lossy(value)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}
