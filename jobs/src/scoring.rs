//! The lead score (docs/providers.md, "Scoring"): 0–100 points from named factors, each worth at most
//! its weight in [`WEIGHTS`], the one table that says what a factor is worth. Every factor is
//! explained (its value, points and maximum), stored with the score and shown as "why this score".
//!
//! The rules follow the business: dealers are remodeling companies with at least $5M revenue in the
//! seven target states (seed 000 §1), selling bath and accessibility products, reached through a
//! decision maker. What a record says (revenue, type, state) can earn about half the points; the
//! rest needs evidence: services the company's own website shows, a verified email and engagement.
//! A company nobody has checked or talked to therefore cannot reach 70 ("high quality").

use serde::Serialize;

use crate::enrich::service_label;

/// The seven target states (seed 000 §2.6).
pub const TARGET_STATES: [&str; 7] = ["TX", "LA", "AR", "MS", "NM", "OK", "AZ"];

/// One factor's name, what people read, and its weight for a company and for a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Weight {
    pub factor: &'static str,
    pub label: &'static str,
    pub company: i32,
    pub contact: i32,
}

const fn weight(factor: &'static str, label: &'static str, company: i32, contact: i32) -> Weight {
    Weight {
        factor,
        label,
        company,
        contact,
    }
}

/// The weights: each column adds up to 100.
pub const WEIGHTS: [Weight; 7] = [
    weight("revenue", "Revenue band", 30, 20),
    weight("companyType", "Company type fit", 20, 15),
    weight("state", "State", 10, 5),
    weight("services", "Services on the website", 15, 10),
    weight("email", "Verified email", 10, 15),
    weight("engagement", "Engagement", 15, 15),
    weight("seniority", "Decision maker", 0, 20),
];

/// Revenue bands: (at least, share of the factor's weight in %, label).
const REVENUE_BANDS: [(i64, i32, &str); 5] = [
    (25_000_000, 100, "$25M or more"),
    (10_000_000, 85, "$10M–25M"),
    (5_000_000, 60, "$5M–10M"),
    (2_000_000, 25, "$2M–5M"),
    (0, 0, "under $2M"),
];

/// Company types and how directly they sell our product lines (% of the weight); others 10 %.
const TYPE_FIT: [(&str, i32, &str); 7] = [
    ("accessible-bath", 100, "Accessible bath"),
    ("bath-shower", 90, "Bath and shower"),
    ("kitchen-bath", 70, "Kitchen and bath"),
    ("luxury-bath", 60, "Luxury bath"),
    ("home-improvement", 40, "Home improvement"),
    ("plumbing", 30, "Plumbing"),
    ("roofing", 10, "Roofing"),
];

/// Services found on the website (`crate::enrich::SERVICES` keys, % of the weight): the best counts.
const SERVICE_FIT: [(&str, i32); 7] = [
    ("walk_in_tubs", 100),
    ("accessibility", 100),
    ("bath", 70),
    ("kitchen", 40),
    ("remodeling", 25),
    ("plumbing", 20),
    ("roofing", 10),
];

/// Statuses of a contact or company by engagement (% of the weight); others 0.
const ENGAGEMENT: [(&str, i32); 10] = [
    ("customer", 100),
    ("partner", 100),
    ("qualified", 80),
    ("meeting_scheduled", 80),
    ("interested", 80),
    ("hot", 80),
    ("responded", 60),
    ("warm", 60),
    ("contacted", 20),
    ("email_sent", 20),
];

/// Seniority tiers of [`title_tier`] (% of the weight).
const SENIORITY: [(&str, i32); 3] = [("executive", 100), ("leadership", 60), ("staff", 20)];

/// How reachable a company or contact is by email, best first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum EmailEvidence {
    #[default]
    None,
    /// No email, but a phone number.
    PhoneOnly,
    /// An address nobody has verified.
    Unverified,
    /// Published on the company's own website.
    Published,
    /// Verified (`contact_verify`).
    Verified,
}

impl EmailEvidence {
    fn share(self) -> (i32, &'static str) {
        match self {
            Self::Verified => (100, "verified"),
            Self::Published => (60, "published on its website"),
            Self::Unverified => (40, "not verified"),
            Self::PhoneOnly => (15, "phone only"),
            Self::None => (0, "none"),
        }
    }
}

/// One reason for points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Factor {
    pub factor: &'static str,
    pub label: &'static str,
    /// What the factor looked at, as a person reads it.
    pub value: String,
    pub points: i32,
    /// The factor's weight.
    pub max: i32,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Score {
    pub score: i32,
    pub factors: Vec<Factor>,
}

/// What a company's record says.
#[derive(Debug, Clone, Default)]
pub struct CompanyFacts {
    pub revenue: Option<i64>,
    pub state: Option<String>,
    pub company_type: Option<String>,
    pub has_website: bool,
    pub has_phone: bool,
    /// Kept by discovery's market intelligence; not a factor of the score.
    pub growth_rate: Option<f64>,
}

/// What the contact rules look at (with the contact's company, if any).
#[derive(Debug, Clone, Default)]
pub struct ContactFacts {
    pub title: Option<String>,
    pub has_email: bool,
    pub has_phone: bool,
    pub is_verified: bool,
    pub status: String,
    pub company: Option<CompanyFacts>,
}

/// What was observed about a company beyond its record: its website and how it engaged.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Service keys its website shows; `None` while the website has not been read.
    pub services: Option<Vec<String>>,
    /// The best email evidence among its contacts and website.
    pub email: EmailEvidence,
    /// The most engaged status among the company and its contacts.
    pub engagement: Option<String>,
}

fn points(max: i32, share: i32) -> i32 {
    (max * share + 50) / 100
}

fn factor(
    name: &'static str,
    of_contact: bool,
    share: i32,
    value: String,
    reason: String,
) -> Factor {
    let w = WEIGHTS
        .iter()
        .find(|w| w.factor == name)
        .copied()
        .unwrap_or(weight(name, name, 0, 0));
    let max = if of_contact { w.contact } else { w.company };
    Factor {
        factor: w.factor,
        label: w.label,
        value,
        points: points(max, share),
        max,
        reason,
    }
}

fn millions(revenue: i64) -> String {
    format!("${:.1}M", revenue as f64 / 1_000_000.0)
}

fn revenue_factor(revenue: Option<i64>, of_contact: bool) -> Factor {
    match revenue {
        Some(r) => {
            let (_, share, band) = REVENUE_BANDS
                .iter()
                .copied()
                .find(|(min, ..)| r >= *min)
                .unwrap_or((0, 0, "under $2M"));
            let reason = if r >= 5_000_000 {
                format!("Annual revenue {} meets the $5M target", millions(r))
            } else {
                format!("Annual revenue {} is below the $5M target", millions(r))
            };
            factor(
                "revenue",
                of_contact,
                share,
                format!("{} ({band})", millions(r)),
                reason,
            )
        }
        None => factor(
            "revenue",
            of_contact,
            0,
            "unknown".into(),
            "Annual revenue unknown".into(),
        ),
    }
}

fn state_factor(state: Option<&str>, of_contact: bool) -> Factor {
    match state {
        Some(s) if TARGET_STATES.contains(&s) => factor(
            "state",
            of_contact,
            100,
            s.into(),
            format!("{s} is a target state"),
        ),
        Some(s) => factor(
            "state",
            of_contact,
            0,
            s.into(),
            format!("{s} is outside the target states"),
        ),
        None => factor(
            "state",
            of_contact,
            0,
            "unknown".into(),
            "State unknown".into(),
        ),
    }
}

fn type_factor(company_type: Option<&str>, of_contact: bool) -> Factor {
    match company_type {
        Some(t) => {
            let (share, label) = TYPE_FIT
                .iter()
                .find(|(k, ..)| *k == t)
                .map_or((10, t), |(_, share, label)| (*share, *label));
            let reason = match share {
                s if s >= 60 => format!("{label} companies sell our product lines directly"),
                s if s >= 30 => format!("{label} companies often add bath remodeling"),
                _ => format!("{label} companies are an indirect fit"),
            };
            factor("companyType", of_contact, share, label.into(), reason)
        }
        None => factor(
            "companyType",
            of_contact,
            0,
            "unknown".into(),
            "Company type unknown".into(),
        ),
    }
}

fn services_factor(services: Option<&[String]>, of_contact: bool) -> Factor {
    let Some(services) = services else {
        return factor(
            "services",
            of_contact,
            0,
            "website not checked".into(),
            "Enrich from the website to see what it offers".into(),
        );
    };
    let share = services
        .iter()
        .filter_map(|s| SERVICE_FIT.iter().find(|(k, _)| k == s).map(|(_, p)| *p))
        .max()
        .unwrap_or(0);
    // Best fit first: the reason names the service that earned the points.
    let fit = |s: &String| {
        SERVICE_FIT
            .iter()
            .find(|(k, _)| k == s)
            .map_or(0, |(_, p)| *p)
    };
    let mut ranked: Vec<&String> = services.iter().collect();
    ranked.sort_by_key(|s| std::cmp::Reverse(fit(s)));
    let labels: Vec<&str> = ranked
        .into_iter()
        .filter_map(|s| service_label(s))
        .collect();
    let (value, reason) = if labels.is_empty() {
        (
            "none found".to_string(),
            "Its website shows none of the services we look for".to_string(),
        )
    } else {
        (
            labels.join(", "),
            if share >= 100 {
                "Its website offers accessibility products".to_string()
            } else if share >= 70 {
                "Its website offers bath remodeling".to_string()
            } else {
                "Its website offers related remodeling services".to_string()
            },
        )
    };
    factor("services", of_contact, share, value, reason)
}

fn email_factor(e: EmailEvidence, of_contact: bool) -> Factor {
    let (share, value) = e.share();
    let reason = match e {
        EmailEvidence::Verified => "A verified email reaches a person",
        EmailEvidence::Published => "An email is published on its own website",
        EmailEvidence::Unverified => "An email nobody has verified yet",
        EmailEvidence::PhoneOnly => "Reachable by phone only",
        EmailEvidence::None => "No way to reach it yet",
    };
    factor("email", of_contact, share, value.into(), reason.into())
}

/// The share of the engagement weight a status earns.
pub fn engagement_share(status: &str) -> i32 {
    ENGAGEMENT
        .iter()
        .find(|(s, _)| *s == status)
        .map_or(0, |(_, p)| *p)
}

fn engagement_factor(status: Option<&str>, of_contact: bool) -> Factor {
    let share = status.map_or(0, engagement_share);
    let value = status.map_or_else(|| "none".to_string(), |s| s.replace('_', " "));
    let reason = match share {
        100 => "Already a customer or partner",
        80 => "Qualified or meeting booked",
        60 => "Has replied",
        20 => "Outreach under way",
        _ => "No engagement yet",
    };
    factor("engagement", of_contact, share, value, reason.into())
}

fn total(factors: Vec<Factor>) -> Score {
    let score = factors.iter().map(|f| f.points).sum::<i32>().clamp(0, 100);
    Score { score, factors }
}

/// A company from its record alone (a company just discovered: no website read, no engagement).
pub fn score_company(c: &CompanyFacts) -> Score {
    score_company_with(c, &Evidence::default())
}

pub fn score_company_with(c: &CompanyFacts, e: &Evidence) -> Score {
    let email = if e.email == EmailEvidence::None && c.has_phone {
        EmailEvidence::PhoneOnly
    } else {
        e.email
    };
    total(vec![
        revenue_factor(c.revenue, false),
        type_factor(c.company_type.as_deref(), false),
        state_factor(c.state.as_deref(), false),
        services_factor(e.services.as_deref(), false),
        email_factor(email, false),
        engagement_factor(e.engagement.as_deref(), false),
    ])
}

/// Contact tier from the title (seed 000 §2.8): executive, leadership or staff. A vice president
/// is leadership, although the title contains "president".
pub fn title_tier(title: &str) -> &'static str {
    let t = title.to_lowercase();
    let vp =
        t.contains("vice president") || t.split(|c: char| !c.is_alphanumeric()).any(|w| w == "vp");
    if !vp
        && ["ceo", "president", "founder", "owner"]
            .iter()
            .any(|w| t.contains(w))
    {
        "executive"
    } else if vp || ["director", "manager"].iter().any(|w| t.contains(w)) {
        "leadership"
    } else {
        "staff"
    }
}

/// A contact without what its company's website showed.
pub fn score_contact(c: &ContactFacts) -> Score {
    score_contact_with(c, None)
}

/// A contact, with the services its company's website shows (`None`: not read).
pub fn score_contact_with(c: &ContactFacts, services: Option<&[String]>) -> Score {
    let seniority = match c.title.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(t) => {
            let tier = title_tier(t);
            let share = SENIORITY
                .iter()
                .find(|(k, _)| *k == tier)
                .map_or(0, |(_, p)| *p);
            let reason = match tier {
                "executive" => format!("{t} is a decision maker"),
                "leadership" => format!("{t} influences the decision"),
                _ => format!("{t} is staff"),
            };
            factor("seniority", true, share, t.to_string(), reason)
        }
        None => factor(
            "seniority",
            true,
            0,
            "unknown".into(),
            "Title unknown".into(),
        ),
    };
    let company = c.company.clone().unwrap_or_default();
    let email = match (c.is_verified && c.has_email, c.has_email, c.has_phone) {
        (true, ..) => EmailEvidence::Verified,
        (_, true, _) => EmailEvidence::Unverified,
        (_, _, true) => EmailEvidence::PhoneOnly,
        _ => EmailEvidence::None,
    };
    let status = (!c.status.is_empty()).then_some(c.status.as_str());
    total(vec![
        seniority,
        revenue_factor(company.revenue, true),
        type_factor(company.company_type.as_deref(), true),
        state_factor(company.state.as_deref(), true),
        services_factor(services, true),
        email_factor(email, true),
        engagement_factor(status, true),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealer() -> CompanyFacts {
        CompanyFacts {
            revenue: Some(12_000_000),
            state: Some("TX".into()),
            company_type: Some("accessible-bath".into()),
            has_website: true,
            has_phone: true,
            growth_rate: Some(8.0),
        }
    }

    #[test]
    fn each_weight_column_adds_up_to_100() {
        assert_eq!(WEIGHTS.iter().map(|w| w.company).sum::<i32>(), 100);
        assert_eq!(WEIGHTS.iter().map(|w| w.contact).sum::<i32>(), 100);
    }

    #[test]
    fn a_fitting_company_without_evidence_stays_below_70() {
        let s = score_company(&dealer());
        // Revenue 85 % of 30, type 100 % of 20, state 10, phone only 15 % of 10.
        assert_eq!(s.score, 26 + 20 + 10 + 2);
        assert!(s.factors.iter().any(|f| f.reason == "TX is a target state"));
        assert_eq!(s.factors.iter().map(|f| f.points).sum::<i32>(), s.score);
        let services = s.factors.iter().find(|f| f.factor == "services");
        assert_eq!(
            services.map(|f| (f.value.as_str(), f.points, f.max)),
            Some(("website not checked", 0, 15))
        );
    }

    #[test]
    fn website_services_a_verified_email_and_engagement_lift_it() {
        let s = score_company_with(
            &dealer(),
            &Evidence {
                services: Some(vec!["bath".into(), "walk_in_tubs".into()]),
                email: EmailEvidence::Verified,
                engagement: Some("responded".into()),
            },
        );
        assert_eq!(s.score, 26 + 20 + 10 + 15 + 10 + 9);
        let services = s.factors.iter().find(|f| f.factor == "services");
        assert_eq!(
            services.map(|f| f.value.as_str()),
            Some("Walk-in tubs, Bathroom remodeling")
        );
    }

    #[test]
    fn outside_the_territory_and_small_scores_low() {
        let s = score_company(&CompanyFacts {
            revenue: Some(1_000_000),
            state: Some("CA".into()),
            company_type: Some("roofing".into()),
            ..Default::default()
        });
        assert_eq!(s.score, 2);
        assert!(
            s.factors
                .iter()
                .any(|f| f.reason.contains("outside the target states"))
        );
    }

    #[test]
    fn contact_seniority_and_company_fit_add_up() {
        let ceo = score_contact(&ContactFacts {
            title: Some("CEO".into()),
            has_email: true,
            has_phone: true,
            is_verified: true,
            status: "new_lead".into(),
            company: Some(dealer()),
        });
        let staff = score_contact(&ContactFacts {
            title: Some("Estimator".into()),
            has_email: true,
            status: "new_lead".into(),
            company: None,
            ..Default::default()
        });
        // CEO 20, revenue 85 % of 20, type 15, state 5, verified 15.
        assert_eq!(ceo.score, 20 + 17 + 15 + 5 + 15);
        assert_eq!(staff.score, 4 + 6);
        assert_eq!(title_tier("Vice President of Sales"), "leadership");
        assert_eq!(title_tier("Co-Founder"), "executive");
    }
}
