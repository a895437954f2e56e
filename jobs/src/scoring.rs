//! The embedded lead scorer: transparent rules that explain every point, used when no AI provider is
//! configured (and as the baseline an AI score is compared with). Scores are 0–100.
//!
//! The rules follow the business: dealers are remodeling companies with at least $5M revenue in the
//! seven target states (seed 000 §1), reached through a decision maker.

use serde::Serialize;

/// The seven target states (seed 000 §2.6).
pub const TARGET_STATES: [&str; 7] = ["TX", "LA", "AR", "MS", "NM", "OK", "AZ"];

/// One reason for points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Factor {
    pub factor: &'static str,
    pub points: i32,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Score {
    pub score: i32,
    pub factors: Vec<Factor>,
}

/// What the company rules look at.
#[derive(Debug, Clone, Default)]
pub struct CompanyFacts {
    pub revenue: Option<i64>,
    pub state: Option<String>,
    pub company_type: Option<String>,
    pub has_website: bool,
    pub has_phone: bool,
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

fn millions(revenue: i64) -> String {
    format!("${:.1}M", revenue as f64 / 1_000_000.0)
}

/// Revenue points, scaled to `max` (the $5M target earns most of it).
fn revenue_factor(revenue: Option<i64>, max: i32) -> Factor {
    let (share, reason) = match revenue {
        Some(r) if r >= 25_000_000 => (
            100,
            format!(
                "Annual revenue {} is well above the $5M target",
                millions(r)
            ),
        ),
        Some(r) if r >= 10_000_000 => (
            80,
            format!("Annual revenue {} is above the $5M target", millions(r)),
        ),
        Some(r) if r >= 5_000_000 => (
            60,
            format!("Annual revenue {} meets the $5M target", millions(r)),
        ),
        Some(r) if r >= 2_000_000 => (
            20,
            format!("Annual revenue {} is below the $5M target", millions(r)),
        ),
        Some(r) => (
            0,
            format!("Annual revenue {} is far below the $5M target", millions(r)),
        ),
        None => (0, "Annual revenue unknown".to_string()),
    };
    Factor {
        factor: "revenue",
        points: max * share / 100,
        reason,
    }
}

fn state_factor(state: Option<&str>, max: i32) -> Factor {
    match state {
        Some(s) if TARGET_STATES.contains(&s) => Factor {
            factor: "territory",
            points: max,
            reason: format!("{s} is a target state"),
        },
        Some(s) => Factor {
            factor: "territory",
            points: 0,
            reason: format!("{s} is outside the target states"),
        },
        None => Factor {
            factor: "territory",
            points: 0,
            reason: "State unknown".into(),
        },
    }
}

fn type_factor(company_type: Option<&str>, max: i32) -> Factor {
    let (share, reason) = match company_type {
        Some(t @ ("bath-shower" | "accessible-bath" | "kitchen-bath" | "luxury-bath")) => (
            100,
            format!("{t} companies sell our product lines directly"),
        ),
        Some(t @ ("plumbing" | "home-improvement")) => {
            (50, format!("{t} companies often add bath remodeling"))
        }
        Some(t) => (20, format!("{t} companies are an indirect fit")),
        None => (0, "Company type unknown".to_string()),
    };
    Factor {
        factor: "companyType",
        points: max * share / 100,
        reason,
    }
}

fn total(factors: Vec<Factor>) -> Score {
    let score = factors.iter().map(|f| f.points).sum::<i32>().clamp(0, 100);
    Score { score, factors }
}

pub fn score_company(c: &CompanyFacts) -> Score {
    let mut factors = vec![
        revenue_factor(c.revenue, 35),
        state_factor(c.state.as_deref(), 20),
        type_factor(c.company_type.as_deref(), 25),
    ];
    let reachable = i32::from(c.has_website) * 5 + i32::from(c.has_phone) * 5;
    factors.push(Factor {
        factor: "reachability",
        points: reachable,
        reason: format!(
            "{} website, {} phone",
            if c.has_website { "has a" } else { "no" },
            if c.has_phone { "has a" } else { "no" }
        ),
    });
    if let Some(g) = c.growth_rate {
        factors.push(Factor {
            factor: "growth",
            points: if g >= 5.0 {
                10
            } else if g > 0.0 {
                5
            } else {
                0
            },
            reason: format!("Growth rate {g:.1}%"),
        });
    }
    total(factors)
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

pub fn score_contact(c: &ContactFacts) -> Score {
    let mut factors = Vec::new();
    let (points, reason) = match c.title.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(t) => match title_tier(t) {
            "executive" => (20, format!("{t} is a decision maker")),
            "leadership" => (12, format!("{t} influences the decision")),
            _ => (4, format!("{t} is staff")),
        },
        None => (0, "Title unknown".to_string()),
    };
    factors.push(Factor {
        factor: "seniority",
        points,
        reason,
    });
    match &c.company {
        Some(co) => {
            factors.push(revenue_factor(co.revenue, 25));
            factors.push(state_factor(co.state.as_deref(), 15));
            factors.push(type_factor(co.company_type.as_deref(), 15));
        }
        None => factors.push(Factor {
            factor: "company",
            points: 0,
            reason: "No company linked".into(),
        }),
    }
    let reach = i32::from(c.has_email) * 5 + i32::from(c.has_phone) * 5;
    factors.push(Factor {
        factor: "reachability",
        points: reach,
        reason: format!(
            "{} email, {} phone",
            if c.has_email { "has an" } else { "no" },
            if c.has_phone { "has a" } else { "no" }
        ),
    });
    factors.push(Factor {
        factor: "verification",
        points: if c.is_verified { 5 } else { 0 },
        reason: if c.is_verified {
            "Verified contact"
        } else {
            "Not verified"
        }
        .into(),
    });
    let (points, reason) = match c.status.as_str() {
        "responded" | "meeting_scheduled" | "qualified" | "customer" => (5, "Has engaged"),
        "email_sent" | "contacted" => (2, "Outreach under way"),
        _ => (0, "No engagement yet"),
    };
    factors.push(Factor {
        factor: "engagement",
        points,
        reason: reason.into(),
    });
    total(factors)
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
    fn a_target_dealer_scores_high_and_explains_why() {
        let s = score_company(&dealer());
        assert_eq!(s.score, 28 + 20 + 25 + 10 + 10);
        assert!(s.factors.iter().any(|f| f.reason == "TX is a target state"));
        assert_eq!(s.factors.iter().map(|f| f.points).sum::<i32>(), s.score);
    }

    #[test]
    fn outside_the_territory_and_small_scores_low() {
        let s = score_company(&CompanyFacts {
            revenue: Some(1_000_000),
            state: Some("CA".into()),
            company_type: Some("roofing".into()),
            ..Default::default()
        });
        assert_eq!(s.score, 5);
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
        assert_eq!(ceo.score, 20 + 20 + 15 + 15 + 10 + 5);
        assert_eq!(staff.score, 4 + 5);
        assert_eq!(title_tier("Vice President of Sales"), "leadership");
        assert_eq!(title_tier("Co-Founder"), "executive");
    }
}
