//! A DNS server on loopback for tests: answers TXT questions from a fixed table (a test domain's
//! SPF, DKIM and DMARC records) and NXDOMAIN for every other name, over UDP, as a real resolver
//! (hickory, and mail-auth's DKIM verifier through it) asks.

use std::collections::HashMap;
use std::net::SocketAddr;

use hickory_proto::op::{Message, ResponseCode};
use hickory_proto::rr::rdata::TXT;
use hickory_proto::rr::{Name, RData, Record, RecordType};

pub struct DnsServer {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl DnsServer {
    /// Serves `records`: (name, TXT value); a name may appear more than once.
    pub async fn start(records: &[(&str, &str)]) -> DnsServer {
        let socket = tokio::net::UdpSocket::bind("127.0.0.1:0")
            .await
            .expect("bind a UDP port");
        let addr = socket.local_addr().expect("local address");
        let mut table: HashMap<String, Vec<String>> = HashMap::new();
        for (name, value) in records {
            table
                .entry(name.trim_end_matches('.').to_lowercase())
                .or_default()
                .push(value.to_string());
        }
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            loop {
                let Ok((n, from)) = socket.recv_from(&mut buf).await else {
                    return;
                };
                let Ok(query) = Message::from_vec(&buf[..n]) else {
                    continue;
                };
                let mut reply = Message::response(query.metadata.id, query.metadata.op_code);
                reply.metadata.authoritative = true;
                reply.metadata.recursion_desired = query.metadata.recursion_desired;
                reply.metadata.recursion_available = true;
                let mut known = false;
                for q in &query.queries {
                    reply.add_query(q.clone());
                    let key = q.name().to_ascii().trim_end_matches('.').to_lowercase();
                    let Some(values) = table.get(&key) else {
                        continue;
                    };
                    known = true;
                    if q.query_type() != RecordType::TXT {
                        continue;
                    }
                    for value in values {
                        reply.add_answer(Record::from_rdata(
                            Name::from_ascii(format!("{key}.")).expect("a DNS name"),
                            60,
                            RData::TXT(TXT::new(chunks(value))),
                        ));
                    }
                }
                if !known {
                    reply.metadata.response_code = ResponseCode::NXDomain;
                }
                if let Ok(bytes) = reply.to_vec() {
                    let _ = socket.send_to(&bytes, from).await;
                }
            }
        });
        DnsServer { addr, task }
    }
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A TXT value as character-strings of at most 255 bytes (a DKIM key is longer).
fn chunks(value: &str) -> Vec<String> {
    value
        .as_bytes()
        .chunks(255)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}
