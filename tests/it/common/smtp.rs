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

/// The sender's postal address in test messages.
pub const POSTAL: &str = "Prospector Inc., 100 Main Street, Dallas, TX 75201";

impl SmtpSink {
    /// A mailer that sends here (pool of 4), with the test app's signing secret and public URL.
    pub fn mailing(&self, webhook_key: Option<String>) -> jobs::mailing::Mailing {
        let settings = jobs::config::MailSettings {
            postal_address: POSTAL.into(),
            sendgrid_public_key: webhook_key,
            ..jobs::config::MailSettings::default()
        };
        jobs::mailing::Mailing::new(
            jobs::email::transport::Mailer::smtp(&self.url(), 4).expect("SMTP mailer"),
            jobs::email::compose::Sender {
                from: "Partnerships <partners@dealers.test>".into(),
                reply_to: Some("replies@dealers.test".into()),
                postal_address: POSTAL.into(),
                public_base_url: "http://127.0.0.1".into(),
                unsubscribe_mailto: "unsubscribe@dealers.test".into(),
            },
            jobs::email::tokens::Signer::new(&[7u8; 64]),
            &settings,
        )
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
