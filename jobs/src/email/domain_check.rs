//! The sender domain's SPF, DKIM and DMARC records, read from DNS and judged the way receiving
//! servers judge them, for the Email Configuration screen (the `sender_domain_check` job).
//!
//! Each record gets a status: `pass`, `warn` (works, but weaker than it should be), `fail`
//! (missing or wrong: receivers will distrust the mail), `error` (the lookup itself failed) or
//! `not_configured` (DKIM without `DKIM_*` settings). The lookups themselves are the
//! `sender_domain_check` job's; this module only judges what they found.

use base64::Engine;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Pass,
    Warn,
    Fail,
    Error,
    NotConfigured,
}

/// One record's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordCheck {
    pub status: CheckStatus,
    /// The DNS name asked.
    pub name: String,
    /// The record found, as published.
    pub record: Option<String>,
    /// What it means for delivery, in words.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DomainCheck {
    /// The domain of the default From address.
    pub domain: String,
    pub spf: RecordCheck,
    pub dkim: RecordCheck,
    pub dmarc: RecordCheck,
}

/// How this install signs: `DKIM_SELECTOR`, `DKIM_DOMAIN` and the public half of the key.
#[derive(Debug, Clone)]
pub struct DkimIdentity {
    pub selector: String,
    pub domain: String,
    /// SubjectPublicKeyInfo DER, as a DKIM record's `p=` carries it.
    pub public_key: Vec<u8>,
    /// The same key as a PKCS#1 RSAPublicKey (some records carry this form).
    pub public_key_pkcs1: Vec<u8>,
}

impl DkimIdentity {
    /// From the settings' PKCS#1 PEM private key; `None` when it does not parse.
    pub fn new(selector: &str, domain: &str, private_key_pem: &str) -> Option<Self> {
        use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPublicKey};
        use rsa::pkcs8::EncodePublicKey;
        let public = rsa::RsaPrivateKey::from_pkcs1_pem(private_key_pem)
            .ok()?
            .to_public_key();
        Some(Self {
            selector: selector.to_string(),
            domain: domain.to_string(),
            public_key: public.to_public_key_der().ok()?.as_bytes().to_vec(),
            public_key_pkcs1: public.to_pkcs1_der().ok()?.as_bytes().to_vec(),
        })
    }
}

/// DKIM when no `DKIM_*` settings are given: nothing is signed, so there is nothing to look up.
pub fn not_signed(domain: &str) -> RecordCheck {
    RecordCheck {
        status: CheckStatus::NotConfigured,
        name: format!("<selector>._domainkey.{domain}"),
        record: None,
        detail: "Messages are not DKIM-signed. Set DKIM_PRIVATE_KEY, DKIM_SELECTOR and \
                 DKIM_DOMAIN, and publish the public key at <selector>._domainkey.<domain>."
            .into(),
    }
}

fn lookup_failed(name: &str, error: &str) -> RecordCheck {
    RecordCheck {
        status: CheckStatus::Error,
        name: name.to_string(),
        record: None,
        detail: format!("The DNS lookup failed ({error}); try again later."),
    }
}

fn verdict(status: CheckStatus, name: &str, record: Option<&str>, detail: String) -> RecordCheck {
    RecordCheck {
        status,
        name: name.to_string(),
        record: record.map(str::to_string),
        detail,
    }
}

/// RFC 7208: exactly one `v=spf1` record; `+all` lets anyone send.
pub fn judge_spf(domain: &str, found: Result<Vec<String>, String>) -> RecordCheck {
    let records = match found {
        Ok(r) => r,
        Err(e) => return lookup_failed(domain, &e),
    };
    let spf: Vec<&String> = records
        .iter()
        .filter(|r| r.trim_start().to_ascii_lowercase().starts_with("v=spf1"))
        .collect();
    match spf.as_slice() {
        [] => verdict(
            CheckStatus::Fail,
            domain,
            None,
            format!(
                "No SPF record: receivers cannot tell which servers may send for {domain}. Publish \
                 one that names your mail provider, e.g. \"v=spf1 include:sendgrid.net ~all\"."
            ),
        ),
        [one] => {
            let terms: Vec<String> = one
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect();
            let last = terms.last().map(String::as_str).unwrap_or_default();
            if last == "+all" || last == "all" {
                verdict(
                    CheckStatus::Warn,
                    domain,
                    Some(one),
                    "The SPF record ends in +all: it allows every server on the internet to send \
                     as this domain. End it with ~all or -all."
                        .into(),
                )
            } else if last == "?all" || !last.ends_with("all") {
                verdict(
                    CheckStatus::Warn,
                    domain,
                    Some(one),
                    "The SPF record does not say what to do with other servers; end it with ~all \
                     or -all."
                        .into(),
                )
            } else {
                verdict(
                    CheckStatus::Pass,
                    domain,
                    Some(one),
                    "SPF names the servers that may send for this domain.".into(),
                )
            }
        }
        [first, ..] => verdict(
            CheckStatus::Fail,
            domain,
            Some(first),
            format!(
                "{} SPF records: receivers treat more than one as an error (RFC 7208 §3.2). Merge \
                 them into one.",
                spf.len()
            ),
        ),
    }
}

/// The key published at the selector must be the one we sign with, and its domain must align
/// with the From domain for DMARC.
pub fn judge_dkim(
    name: &str,
    from_domain: &str,
    id: &DkimIdentity,
    found: Result<Vec<String>, String>,
) -> RecordCheck {
    let records = match found {
        Ok(r) => r,
        Err(e) => return lookup_failed(name, &e),
    };
    let Some(record) = records.iter().find(|r| tag(r, "p").is_some()) else {
        return verdict(
            CheckStatus::Fail,
            name,
            None,
            format!(
                "No DKIM key is published at {name}: receivers cannot check the signatures. \
                 Publish \"v=DKIM1; k=rsa; p=<public key>\" there."
            ),
        );
    };
    let published = tag(record, "p")
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>();
    if published.is_empty() {
        return verdict(
            CheckStatus::Fail,
            name,
            Some(record),
            "The key at this selector is revoked (empty p=).".into(),
        );
    }
    let matches = base64::engine::general_purpose::STANDARD
        .decode(&published)
        .is_ok_and(|der| der == id.public_key || der == id.public_key_pkcs1);
    if !matches {
        return verdict(
            CheckStatus::Fail,
            name,
            Some(record),
            "The published key is not the public half of DKIM_PRIVATE_KEY: every signature will \
             fail. Publish the key that matches, or change the selector."
                .into(),
        );
    }
    let aligned = from_domain == id.domain || from_domain.ends_with(&format!(".{}", id.domain));
    if !aligned {
        return verdict(
            CheckStatus::Warn,
            name,
            Some(record),
            format!(
                "Signatures verify, but they sign for {} while mail is from {from_domain}: DMARC \
                 needs the two to match.",
                id.domain
            ),
        );
    }
    verdict(
        CheckStatus::Pass,
        name,
        Some(record),
        "The published key matches the signing key.".into(),
    )
}

/// RFC 7489: one `v=DMARC1` record; `p=none` only monitors.
pub fn judge_dmarc(name: &str, found: Result<Vec<String>, String>) -> RecordCheck {
    let records = match found {
        Ok(r) => r,
        Err(e) => return lookup_failed(name, &e),
    };
    let Some(record) = records
        .iter()
        .find(|r| r.trim_start().to_ascii_lowercase().starts_with("v=dmarc1"))
    else {
        return verdict(
            CheckStatus::Warn,
            name,
            None,
            "No DMARC policy: mailbox providers (Gmail, Yahoo) expect one from bulk senders. \
             Start with \"v=DMARC1; p=none; rua=mailto:…\" and tighten it later."
                .into(),
        );
    };
    match tag(record, "p").map(|p| p.to_ascii_lowercase()).as_deref() {
        Some("quarantine" | "reject") => verdict(
            CheckStatus::Pass,
            name,
            Some(record),
            "DMARC tells receivers to refuse mail that fails SPF and DKIM.".into(),
        ),
        Some("none") => verdict(
            CheckStatus::Warn,
            name,
            Some(record),
            "DMARC only monitors (p=none): forged mail is still delivered. Move to quarantine \
             once reports show your mail passes."
                .into(),
        ),
        _ => verdict(
            CheckStatus::Fail,
            name,
            Some(record),
            "The DMARC record has no valid policy (p=none, quarantine or reject).".into(),
        ),
    }
}

/// The value of `key` in a `k=v; k=v` record.
fn tag<'a>(record: &'a str, key: &str) -> Option<&'a str> {
    record.split(';').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        k.trim().eq_ignore_ascii_case(key).then_some(v.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(r: &[&str]) -> Result<Vec<String>, String> {
        Ok(r.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn spf_verdicts() {
        let d = "dealers.test";
        assert_eq!(judge_spf(d, ok(&[])).status, CheckStatus::Fail);
        assert_eq!(
            judge_spf(
                d,
                ok(&[
                    "google-site-verification=x",
                    "v=spf1 include:sendgrid.net ~all"
                ])
            )
            .status,
            CheckStatus::Pass
        );
        assert_eq!(judge_spf(d, ok(&["v=spf1 +all"])).status, CheckStatus::Warn);
        assert_eq!(judge_spf(d, ok(&["v=spf1 mx"])).status, CheckStatus::Warn);
        let two = judge_spf(d, ok(&["v=spf1 mx -all", "v=spf1 a -all"]));
        assert_eq!(two.status, CheckStatus::Fail);
        assert!(two.detail.starts_with("2 SPF records"), "{}", two.detail);
        assert_eq!(
            judge_spf(d, Err("timed out".into())).status,
            CheckStatus::Error
        );
    }

    #[test]
    fn dkim_verdicts() {
        let id = DkimIdentity {
            selector: "s1".into(),
            domain: "dealers.test".into(),
            public_key: vec![1, 2, 3],
            public_key_pkcs1: vec![9, 9],
        };
        let name = "s1._domainkey.dealers.test";
        let good = "v=DKIM1; k=rsa; p=AQID";
        assert_eq!(
            judge_dkim(name, "dealers.test", &id, ok(&[good])).status,
            CheckStatus::Pass
        );
        assert_eq!(
            judge_dkim(name, "mail.dealers.test", &id, ok(&[good])).status,
            CheckStatus::Pass
        );
        assert_eq!(
            judge_dkim(name, "other.test", &id, ok(&[good])).status,
            CheckStatus::Warn
        );
        assert_eq!(
            judge_dkim(name, "dealers.test", &id, ok(&["v=DKIM1; k=rsa; p=CQk="])).status,
            CheckStatus::Pass,
            "the PKCS#1 form of the same key"
        );
        assert_eq!(
            judge_dkim(name, "dealers.test", &id, ok(&["v=DKIM1; p=BAUG"])).status,
            CheckStatus::Fail
        );
        assert_eq!(
            judge_dkim(name, "dealers.test", &id, ok(&["v=DKIM1; p="])).status,
            CheckStatus::Fail
        );
        assert_eq!(
            judge_dkim(name, "dealers.test", &id, ok(&[])).status,
            CheckStatus::Fail
        );
    }

    #[test]
    fn dmarc_verdicts() {
        let n = "_dmarc.dealers.test";
        assert_eq!(judge_dmarc(n, ok(&[])).status, CheckStatus::Warn);
        assert_eq!(
            judge_dmarc(n, ok(&["v=DMARC1; p=none"])).status,
            CheckStatus::Warn
        );
        assert_eq!(
            judge_dmarc(n, ok(&["v=DMARC1; p=reject; rua=mailto:d@x"])).status,
            CheckStatus::Pass
        );
        assert_eq!(
            judge_dmarc(n, ok(&["v=DMARC1; rua=mailto:d@x"])).status,
            CheckStatus::Fail
        );
    }
}
