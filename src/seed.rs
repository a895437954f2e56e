//! `prospector seed`: the demo login from `seeds/demo/users.json` and the demo CRM from
//! `seeds/demo/crm.json`. The login's password is generated here, never committed, and kept in the
//! data directory so `make run` can show it again. Demo dates are relative to the time of seeding, so
//! a fresh install always has upcoming meetings and recent activity.

use std::path::PathBuf;

use anyhow::Context as _;
use jobs::auth::{NewUser, user_create};
use jobs::config::Config;
use jobs::db::Db;
use jobs::time::now_ms;
use rand::Rng;
use serde::Deserialize;

const DEMO_USERS: &str = include_str!("../seeds/demo/users.json");
const DEMO_CRM: &str = include_str!("../seeds/demo/crm.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoUser {
    email: String,
    first_name: String,
    last_name: String,
    admin: bool,
}

pub struct Login {
    pub email: String,
    pub password: String,
}

fn login_file(config: &Config) -> PathBuf {
    config.data_dir.join("demo-login.txt")
}

/// The demo login saved by an earlier seed, if this data directory has one.
pub fn saved_login(config: &Config) -> Option<Login> {
    let text = std::fs::read_to_string(login_file(config)).ok()?;
    let (email, password) = text.trim().split_once(' ')?;
    Some(Login {
        email: email.to_string(),
        password: password.to_string(),
    })
}

/// Seeds an empty database (or any, with `force`): the demo login, and the demo CRM when the CRM
/// tables are empty. Returns the new demo login, if one was made.
pub async fn run(db: &Db, config: &Config, force: bool) -> anyhow::Result<Option<Login>> {
    if db.user_count().await? > 0 && !force {
        return Ok(None);
    }
    if db.crm_is_empty().await? {
        crm::load(db, DEMO_CRM, now_ms()).await?;
    }
    let users: Vec<DemoUser> = serde_json::from_str(DEMO_USERS).context("seeds/demo/users.json")?;
    let mut created = None;
    for u in users {
        if db.user_get_by_email(&u.email).await?.is_some() {
            continue;
        }
        let password: String = rand::rng()
            .sample_iter(rand::distr::Alphanumeric)
            .take(16)
            .map(char::from)
            .collect();
        user_create(
            db,
            NewUser {
                email: &u.email,
                password: &password,
                first_name: Some(&u.first_name),
                last_name: Some(&u.last_name),
                is_admin: u.admin,
            },
        )
        .await?;
        let path = login_file(config);
        std::fs::write(&path, format!("{} {}\n", u.email, password))
            .with_context(|| format!("writing {}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
        created.get_or_insert(Login {
            email: u.email,
            password,
        });
    }
    Ok(created)
}

mod crm {
    //! The demo CRM: `seeds/demo/crm.json` → rows, with keys resolved to ids and days to times.

    use std::collections::HashMap;

    use anyhow::Context as _;
    use chrono::{TimeZone, Utc};
    use jobs::db::{CompanySeed, ContactSeed, Db, DealSeed, MeetingSeed};
    use serde::Deserialize;
    use serde_json::Value;

    const DAY_MS: i64 = 86_400_000;

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Demo {
        companies: Vec<Company>,
        contacts: Vec<Contact>,
        deals: Vec<Deal>,
        meetings: Vec<Meeting>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Company {
        key: String,
        name: String,
        industry: String,
        company_type: String,
        status: String,
        revenue: i64,
        employees: i32,
        founded: i32,
        /// On the pipeline's prospect list (its prospect score is then its score).
        prospect: bool,
        website: String,
        phone: String,
        address: String,
        city: String,
        state: String,
        zip_code: String,
        growth_rate: f64,
        description: String,
        competitor_alignment: i32,
        discovery_source: String,
        created_days_ago: i64,
        /// What the demo story's visit to its website found (`crate::enrich::SERVICES` keys).
        #[serde(default)]
        website_services: Vec<String>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Contact {
        key: String,
        company: String,
        first_name: String,
        last_name: String,
        email: String,
        phone: String,
        title: String,
        department: String,
        status: String,
        source: String,
        tags: Value,
        is_verified: bool,
        created_days_ago: i64,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Deal {
        title: String,
        description: String,
        value: i64,
        stage: Option<String>,
        company: String,
        contact: Option<String>,
        created_days_ago: i64,
        expected_close_in_days: i64,
        closed_days_ago: Option<i64>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Meeting {
        title: String,
        company: String,
        contact: Option<String>,
        in_days: i64,
        hour: u32,
        duration: i32,
        meeting_type: String,
        status: String,
        location: String,
        agenda: String,
        attendees: String,
    }

    /// Default probability of a deal stage (seed 001 §4).
    fn stage_probability(stage: Option<&str>) -> i32 {
        match stage {
            Some("proposal") => 45,
            Some("negotiation") => 65,
            Some("decision") => 80,
            Some("closed_won") => 100,
            Some("closed_lost") => 0,
            _ => 25,
        }
    }

    fn date(ms: i64) -> Option<String> {
        Utc.timestamp_millis_opt(ms)
            .single()
            .map(|t| t.format("%Y-%m-%d").to_string())
    }

    pub async fn load(db: &Db, json: &str, now: i64) -> anyhow::Result<()> {
        let demo: Demo = serde_json::from_str(json).context("seeds/demo/crm.json")?;
        let id = || ulid::Ulid::new().to_string();
        let mut company_ids = HashMap::new();
        let prospects: Vec<bool> = demo.companies.iter().map(|c| c.prospect).collect();
        let services: Vec<Vec<String>> = demo
            .companies
            .iter()
            .map(|c| c.website_services.clone())
            .collect();
        let companies: Vec<CompanySeed> = demo
            .companies
            .into_iter()
            .map(|c| {
                let cid = id();
                company_ids.insert(c.key, cid.clone());
                CompanySeed {
                    id: cid,
                    name: c.name,
                    industry: Some(c.industry),
                    company_type: Some(c.company_type),
                    status: c.status,
                    revenue: Some(c.revenue),
                    employees: Some(c.employees),
                    founded: Some(c.founded),
                    // The scorer sets both once the rows are in (below).
                    score: 0,
                    prospect_score: 0,
                    website: Some(c.website),
                    phone: Some(c.phone),
                    address: Some(c.address),
                    city: Some(c.city),
                    state: Some(c.state),
                    zip_code: Some(c.zip_code),
                    growth_rate: Some(c.growth_rate),
                    description: Some(c.description),
                    competitor_alignment: Some(c.competitor_alignment),
                    discovery_source: Some(c.discovery_source),
                    created_at: now - c.created_days_ago * DAY_MS,
                }
            })
            .collect();
        let mut contact_ids = HashMap::new();
        let contacts: Vec<ContactSeed> = demo
            .contacts
            .into_iter()
            .map(|c| {
                let pid = id();
                contact_ids.insert(c.key, pid.clone());
                ContactSeed {
                    id: pid,
                    company_id: company_ids.get(&c.company).cloned(),
                    first_name: c.first_name,
                    last_name: c.last_name,
                    email: Some(c.email),
                    phone: Some(c.phone),
                    title: Some(c.title),
                    department: Some(c.department),
                    status: c.status,
                    score: 0,
                    source: Some(c.source),
                    tags: c.tags,
                    is_verified: c.is_verified,
                    created_at: now - c.created_days_ago * DAY_MS,
                }
            })
            .collect();
        let deals: Vec<DealSeed> = demo
            .deals
            .into_iter()
            .map(|d| DealSeed {
                id: id(),
                probability: stage_probability(d.stage.as_deref()),
                title: d.title,
                description: Some(d.description),
                value: d.value,
                expected_close_date: date(now + d.expected_close_in_days * DAY_MS),
                actual_close_date: d.closed_days_ago.and_then(|days| date(now - days * DAY_MS)),
                stage: d.stage,
                contact_id: d.contact.and_then(|k| contact_ids.get(&k).cloned()),
                company_id: company_ids.get(&d.company).cloned(),
                created_at: now - d.created_days_ago * DAY_MS,
            })
            .collect();
        let today = now - now.rem_euclid(DAY_MS);
        let meetings: Vec<MeetingSeed> = demo
            .meetings
            .into_iter()
            .map(|m| MeetingSeed {
                id: id(),
                title: m.title,
                company_id: company_ids.get(&m.company).cloned(),
                contact_id: m.contact.and_then(|k| contact_ids.get(&k).cloned()),
                scheduled_at: today + m.in_days * DAY_MS + i64::from(m.hour) * 3_600_000,
                duration: m.duration,
                location: Some(m.location),
                meeting_type: m.meeting_type,
                agenda: Some(m.agenda),
                attendees: Some(m.attendees),
                status: m.status,
                created_at: now - (m.in_days.abs() + 3) * DAY_MS,
            })
            .collect();
        db.seed_companies(&companies).await?;
        // Invented companies: labelled "Demo data" wherever they are shown, as the catalog's are.
        let ids: Vec<String> = companies.iter().map(|c| c.id.clone()).collect();
        db.seed_company_source(&ids, jobs::domain::discovery::Source::Catalog, now)
            .await?;
        for (c, services) in companies.iter().zip(&services) {
            if let (Some(site), false) = (&c.website, services.is_empty()) {
                db.seed_website_services(&c.id, site, services, now).await?;
            }
        }
        db.seed_contacts(&contacts).await?;
        db.seed_deals(&deals).await?;
        db.seed_meetings(&meetings).await?;
        // Scores come from the scorer, as its jobs set them (docs/providers.md), never from the file:
        // each company with its contacts, from their records, statuses and verified emails.
        for (c, prospect) in companies.iter().zip(prospects) {
            db.company_rescore(&c.id, now).await?;
            if !prospect {
                db.company_prospect_clear(&c.id).await?;
            }
        }
        for c in contacts.iter().filter(|c| c.company_id.is_none()) {
            if let Some(s) = db.contact_score_now(&c.id).await? {
                let factors = serde_json::json!(s.factors);
                db.contact_score_set(&jobs::db::ScoreSet {
                    id: &c.id,
                    score: s.score,
                    factors: &factors,
                    now,
                })
                .await?;
            }
        }
        db.compact_after_load().await?;
        tracing::info!(
            companies = companies.len(),
            contacts = contacts.len(),
            deals = deals.len(),
            meetings = meetings.len(),
            "demo CRM loaded"
        );
        Ok(())
    }
}
