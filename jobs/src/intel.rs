//! Contact intelligence rules: verification (seed 001 §3 "Verification result") and enrichment
//! ("Enrichment result"). Pure functions; the jobs gather the inputs and store the outcome.

use serde::Serialize;
use serde_json::{Value, json};

use crate::db::ContactIntel;
use crate::providers::discovery::domain_of;
use crate::providers::mail::MxAnswer;
use crate::scoring::title_tier;

/// Mailbox providers: an address there says nothing about the company.
const PERSONAL_DOMAINS: [&str; 10] = [
    "gmail.com",
    "yahoo.com",
    "hotmail.com",
    "outlook.com",
    "aol.com",
    "icloud.com",
    "live.com",
    "msn.com",
    "comcast.net",
    "att.net",
];

/// A contact is verified at this confidence or more.
pub const VERIFIED_AT: i32 = 70;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    pub is_verified: bool,
    pub verified_by: Vec<&'static str>,
    pub confidence_score: i32,
    pub warnings: Vec<String>,
}

pub use crate::domain::contacts::is_valid_email as email_syntax_ok;

pub fn email_domain(email: &str) -> Option<String> {
    email.rsplit_once('@').map(|(_, d)| d.trim().to_lowercase())
}

/// Scores what can be checked: the address (30), its mail server (30), that it belongs to the
/// company's website domain (25) and a complete profile (15).
pub fn verify(c: &ContactIntel, mx: Option<&Result<MxAnswer, String>>) -> Verification {
    let mut by = Vec::new();
    let mut warnings = Vec::new();
    let mut score = 0;
    let email = c.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
    match email {
        None => warnings.push("No email address".to_string()),
        Some(e) if !email_syntax_ok(e) => warnings.push(format!("Email address {e} is not valid")),
        Some(e) => {
            score += 30;
            by.push("email_format");
            let domain = email_domain(e).unwrap_or_default();
            match mx {
                Some(Ok(MxAnswer::Servers(_))) => {
                    score += 30;
                    by.push("mail_server");
                }
                Some(Ok(MxAnswer::None)) => {
                    warnings.push(format!("Email domain {domain} has no mail server"))
                }
                Some(Err(e)) => {
                    warnings.push(format!("could not check mail server for {domain} ({e})"))
                }
                None => warnings.push(format!("could not check mail server for {domain}")),
            }
            let company = c
                .company_domain
                .clone()
                .or_else(|| c.company_website.as_deref().and_then(domain_of));
            if PERSONAL_DOMAINS.contains(&domain.as_str()) {
                warnings.push(format!("Personal email address ({domain})"));
            } else {
                match company {
                    Some(site) if site == domain || domain.ends_with(&format!(".{site}")) => {
                        score += 25;
                        by.push("company_website");
                    }
                    Some(site) => warnings.push(format!(
                        "Email domain {domain} differs from the company website ({site})"
                    )),
                    None => warnings.push("No company website to compare the email with".into()),
                }
            }
        }
    }
    let named = !c.first_name.trim().is_empty() && !c.last_name.trim().is_empty();
    let titled = c.title.as_deref().is_some_and(|t| !t.trim().is_empty());
    if named && titled {
        score += 15;
        by.push("profile");
    } else if !titled {
        warnings.push("No title".into());
    } else {
        warnings.push("Incomplete name".into());
    }
    Verification {
        is_verified: score >= VERIFIED_AT,
        verified_by: by,
        confidence_score: score,
        warnings,
    }
}

/// What enrichment would change, and which fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Enriched {
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub department: Option<String>,
    pub company_id: Option<String>,
    pub tags: Value,
    pub fields: Vec<&'static str>,
}

/// "maria" or "MARIA" → "Maria"; mixed case is left as written (McDonald, DeLeon).
fn proper_name(s: &str) -> String {
    let t = s.trim();
    if t.chars().any(char::is_lowercase) && t.chars().any(char::is_uppercase) {
        return t.to_string();
    }
    t.split(' ')
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|f| f.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// US numbers as (xxx) xxx-xxxx; anything else is kept as given.
fn us_phone(p: &str) -> String {
    let digits: String = p.chars().filter(char::is_ascii_digit).collect();
    let d = digits
        .strip_prefix('1')
        .filter(|d| d.len() == 10)
        .unwrap_or(&digits);
    if d.len() == 10 {
        format!("({}) {}-{}", &d[..3], &d[3..6], &d[6..])
    } else {
        p.trim().to_string()
    }
}

fn department_of(title: &str) -> Option<&'static str> {
    let t = title.to_lowercase();
    if title_tier(title) == "executive" {
        Some("Executive")
    } else if t.contains("sales") || t.contains("estimator") || t.contains("business development") {
        Some("Sales")
    } else if t.contains("purchas") || t.contains("procure") {
        Some("Purchasing")
    } else if t.contains("marketing") {
        Some("Marketing")
    } else if t.contains("operation")
        || t.contains("project")
        || t.contains("general manager")
        || t.contains("install")
    {
        Some("Operations")
    } else {
        None
    }
}

/// Derives what the record itself implies; `company_by_domain` is the company whose website domain
/// matches the contact's email, if any.
pub fn enrich(c: &ContactIntel, company_by_domain: Option<String>) -> Enriched {
    let mut fields = Vec::new();
    let first = proper_name(&c.first_name);
    if first != c.first_name {
        fields.push("firstName");
    }
    let last = proper_name(&c.last_name);
    if last != c.last_name {
        fields.push("lastName");
    }
    let phone = c.phone.as_deref().map(us_phone);
    if phone != c.phone {
        fields.push("phone");
    }
    let mut department = c.department.clone();
    if department.as_deref().is_none_or(|d| d.trim().is_empty())
        && let Some(d) = c.title.as_deref().and_then(department_of)
    {
        department = Some(d.to_string());
        fields.push("department");
    }
    let mut company_id = c.company_id.clone();
    if company_id.is_none() && company_by_domain.is_some() {
        company_id = company_by_domain;
        fields.push("companyId");
    }
    let mut tags: Vec<Value> = c.tags.0.as_array().cloned().unwrap_or_default();
    let before = tags.len();
    if let Some(title) = c.title.as_deref().filter(|t| !t.trim().is_empty()) {
        let tier = title_tier(title);
        for tag in [
            Some(tier),
            (tier == "executive").then_some("decision-maker"),
        ]
        .into_iter()
        .flatten()
        {
            if !tags.iter().any(|t| t == tag) {
                tags.push(json!(tag));
            }
        }
    }
    if tags.len() != before {
        fields.push("tags");
    }
    Enriched {
        first_name: first,
        last_name: last,
        phone,
        department,
        company_id,
        tags: Value::Array(tags),
        fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::types::Json;

    fn contact(email: Option<&str>, site: Option<&str>, title: Option<&str>) -> ContactIntel {
        ContactIntel {
            id: "c1".into(),
            first_name: "maria".into(),
            last_name: "GARCIA".into(),
            email: email.map(str::to_string),
            phone: Some("+1 214.555.0101".into()),
            title: title.map(str::to_string),
            department: None,
            company_id: None,
            tags: Json(json!(["warm"])),
            company_website: site.map(str::to_string),
            company_domain: None,
        }
    }

    #[test]
    fn verification_adds_up_the_evidence() {
        let c = contact(
            Some("maria@lonestar.example"),
            Some("https://www.lonestar.example"),
            Some("CEO"),
        );
        let ok = Ok(MxAnswer::Servers(vec!["mx.lonestar.example.".into()]));
        let v = verify(&c, Some(&ok));
        assert_eq!(v.confidence_score, 100);
        assert!(v.is_verified && v.warnings.is_empty());
        assert_eq!(
            v.verified_by,
            ["email_format", "mail_server", "company_website", "profile"]
        );

        let offline = Err("no route to DNS".to_string());
        let v = verify(&c, Some(&offline));
        assert_eq!(
            v.confidence_score, 70,
            "offline costs the mail-server points only"
        );
        assert!(v.warnings[0].starts_with("could not check mail server for lonestar.example"));

        let c = contact(Some("maria@gmail.com"), Some("lonestar.example"), None);
        let v = verify(&c, Some(&Ok(MxAnswer::Servers(vec!["x".into()]))));
        assert!(!v.is_verified);
        assert!(
            v.warnings
                .contains(&"Personal email address (gmail.com)".to_string())
        );
        assert!(v.warnings.contains(&"No title".to_string()));

        let v = verify(&contact(Some("not an email"), None, Some("CEO")), None);
        assert_eq!(v.confidence_score, 15);
        assert_eq!(v.warnings[0], "Email address not an email is not valid");
    }

    #[test]
    fn enrichment_derives_what_the_record_implies() {
        let c = contact(Some("maria@lonestar.example"), None, Some("VP of Sales"));
        let e = enrich(&c, Some("co1".into()));
        assert_eq!(
            (e.first_name.as_str(), e.last_name.as_str()),
            ("Maria", "Garcia")
        );
        assert_eq!(e.phone.as_deref(), Some("(214) 555-0101"));
        assert_eq!(e.department.as_deref(), Some("Sales"));
        assert_eq!(e.company_id.as_deref(), Some("co1"));
        assert_eq!(e.tags, json!(["warm", "leadership"]));
        assert_eq!(
            e.fields,
            [
                "firstName",
                "lastName",
                "phone",
                "department",
                "companyId",
                "tags"
            ]
        );
        // Nothing left to do the second time.
        let again = ContactIntel {
            first_name: e.first_name.clone(),
            last_name: e.last_name.clone(),
            phone: e.phone.clone(),
            department: e.department.clone(),
            company_id: e.company_id.clone(),
            tags: Json(e.tags.clone()),
            ..c
        };
        assert!(enrich(&again, None).fields.is_empty());
    }
}
