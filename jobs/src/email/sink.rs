//! A real SMTP server on loopback that keeps what it receives: integration tests and
//! `prospector bench campaign` point the mailer at it instead of a relay. It can answer chosen
//! recipients with an SMTP error at RCPT (451 for a deferral, 550 for a permanent failure) to
//! exercise both paths of the sender.
//!
//! Built on `mailin-embedded`, which serves each connection on a thread of its own pool and has
//! no shutdown: a sink lives until the process exits, so start one per test or per bench run.
//!
//! Its replies need no TCP_NODELAY: each is one write answering a client segment, which carries
//! the ACK of the reply before, so Nagle never holds one back (the client's side is the one that
//! needs it; see [`super::transport`]). Figures through it: docs/performance.md, "Sending".

use std::collections::HashMap;
use std::io;
use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use mailin_embedded::response::OK;
use mailin_embedded::{Handler, Response, Server};

/// One message as the sink accepted it.
#[derive(Debug, Clone)]
pub struct Received {
    /// Envelope sender (MAIL FROM).
    pub from: String,
    /// Envelope recipients (RCPT TO).
    pub to: Vec<String>,
    /// The message as sent in DATA, dot-unstuffed, without the final `.`.
    pub raw: Vec<u8>,
}

#[derive(Default)]
struct Shared {
    messages: Mutex<Vec<Received>>,
    /// Lower-cased recipient → (SMTP code, answers left; `u32::MAX` = always).
    rejects: Mutex<HashMap<String, (u16, u32)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    /// The code to answer `recipient` with, counting the answer.
    fn take_reject(&self, recipient: &str) -> Option<u16> {
        let key = recipient.trim_matches(['<', '>']).to_ascii_lowercase();
        let mut rejects = lock(&self.rejects);
        let (code, left) = rejects.get_mut(&key)?;
        let code = *code;
        if *left != u32::MAX {
            *left -= 1;
        }
        if *left == 0 {
            rejects.remove(&key);
        }
        Some(code)
    }
}

/// One connection's transaction state; clones share the store.
#[derive(Clone)]
struct Session {
    shared: Arc<Shared>,
    from: String,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Session {
    fn rcpt(&mut self, to: &str) -> Response {
        match self.shared.take_reject(to) {
            Some(code) => {
                Response::custom(code, format!("recipient {to} refused by the test sink"))
            }
            None => OK,
        }
    }

    fn data_start(&mut self, _domain: &str, from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.from = from.to_string();
        self.to = to.to_vec();
        self.data.clear();
        OK
    }

    fn data(&mut self, buf: &[u8]) -> io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let received = Received {
            from: std::mem::take(&mut self.from),
            to: std::mem::take(&mut self.to),
            raw: std::mem::take(&mut self.data),
        };
        lock(&self.shared.messages).push(received);
        OK
    }
}

/// A running sink on `127.0.0.1:{port}`.
pub struct Sink {
    port: u16,
    shared: Arc<Shared>,
}

impl Sink {
    /// Listens on a free loopback port; `threads` is how many connections it serves at once
    /// (give it at least the client's pool size: further connections wait for a free thread).
    pub fn start(threads: u32) -> io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Shared::default());
        let session = Session {
            shared: shared.clone(),
            from: String::new(),
            to: Vec::new(),
            data: Vec::new(),
        };
        let mut server = Server::new(session);
        server
            .with_name("prospector-sink")
            .with_num_threads(threads.max(1))
            .with_tcp_listener(listener);
        std::thread::Builder::new()
            .name(format!("smtp-sink-{port}"))
            .spawn(move || {
                if let Err(e) = server.serve() {
                    tracing::error!(port, error = %e, "SMTP sink stopped");
                }
            })?;
        Ok(Self { port, shared })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `smtp://127.0.0.1:{port}`, for [`super::transport::Mailer::smtp`].
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Everything accepted so far, in arrival order.
    pub fn messages(&self) -> Vec<Received> {
        lock(&self.shared.messages).clone()
    }

    pub fn count(&self) -> usize {
        lock(&self.shared.messages).len()
    }

    /// Answers `recipient` with `code` at RCPT the next `times` times (`u32::MAX`: always).
    pub fn reject(&self, recipient: &str, code: u16, times: u32) {
        let key = recipient.trim_matches(['<', '>']).to_ascii_lowercase();
        let mut rejects = lock(&self.shared.rejects);
        if times == 0 {
            rejects.remove(&key);
        } else {
            rejects.insert(key, (code, times));
        }
    }

    /// The messages once there are at least `n`, or whatever arrived when `timeout` ran out.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        while self.count() < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.messages()
    }
}
