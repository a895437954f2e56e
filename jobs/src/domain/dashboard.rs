//! The Business Intelligence Dashboard's rules (seed 000 §2.5, §2.6, §3, §9): the month and the
//! target states it counts by, the KPI card's change text, and the layout of the CSV report.

use chrono::{Datelike, NaiveDate, TimeZone, Utc};

use super::pipeline::{BOARD_STAGES, effective_stage, full_name};

/// The seven target states (seed 000 §2.6), in the chart's order.
pub const TARGET_STATES: [(&str, &str); 7] = [
    ("TX", "Texas"),
    ("LA", "Louisiana"),
    ("AR", "Arkansas"),
    ("MS", "Mississippi"),
    ("NM", "New Mexico"),
    ("OK", "Oklahoma"),
    ("AZ", "Arizona"),
];

/// Whether a stored state (an abbreviation or a name, in any case) is the target state `(abbr, name)`.
pub fn is_state(stored: Option<&str>, (abbr, name): (&str, &str)) -> bool {
    stored
        .map(str::trim)
        .is_some_and(|s| s.eq_ignore_ascii_case(abbr) || s.eq_ignore_ascii_case(name))
}

/// Start and end (ms) of the calendar month (UTC) holding `now`.
pub fn month_bounds(now: i64) -> (i64, i64) {
    let date = Utc
        .timestamp_millis_opt(now)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_default();
    let start = NaiveDate::from_ymd_opt(date.year(), date.month(), 1);
    let end = if date.month() == 12 {
        NaiveDate::from_ymd_opt(date.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(date.year(), date.month() + 1, 1)
    };
    let ms = |d: Option<NaiveDate>| {
        d.and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| t.and_utc().timestamp_millis())
            .unwrap_or(0)
    };
    (ms(start), ms(end))
}

/// The prospects card's text for a change in percent, e.g. "+12.5% from last month".
pub fn change_text(change: f64) -> String {
    let sign = if change > 0.0 { "+" } else { "" };
    format!("{sign}{change}% from last month")
}

// ---- the CSV report ----

/// The executive summary's counts.
#[derive(Debug, Clone, Default)]
pub struct ReportSummary {
    pub companies: i64,
    pub contacts_contacted: i64,
    pub active_deals: i64,
    pub pipeline_value: i64,
    pub meetings: i64,
    pub upcoming_meetings: i64,
    pub completed_meetings: i64,
}

/// A company row of the report.
#[derive(Debug, Clone, Default)]
pub struct ReportCompany<'a> {
    pub name: &'a str,
    pub industry: Option<&'a str>,
    pub city: Option<&'a str>,
    pub state: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub website: Option<&'a str>,
    pub revenue: Option<i64>,
    pub score: i32,
    pub status: &'a str,
    pub contact_count: i64,
    pub description: Option<&'a str>,
}

/// A contact row of the report.
#[derive(Debug, Clone, Default)]
pub struct ReportContact<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub title: Option<&'a str>,
    pub company_name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub status: &'a str,
    pub score: i32,
}

/// A deal row of the report.
#[derive(Debug, Clone, Default)]
pub struct ReportDeal<'a> {
    pub title: &'a str,
    pub stage: Option<&'a str>,
    pub value: i64,
    pub probability: i32,
    pub expected_close_date: Option<&'a str>,
    pub company_name: Option<&'a str>,
    pub contact_first_name: Option<&'a str>,
    pub contact_last_name: Option<&'a str>,
}

/// The report's header row and its rows, every one [`REPORT_WIDTH`] cells wide.
#[derive(Debug)]
pub struct Report {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Legal-form words dropped from the end of a business name for its short form.
const SUFFIXES: [&str; 14] = [
    "llc",
    "l.l.c",
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "ltd",
    "limited",
    "lp",
    "llp",
    "pllc",
    "plc",
];

/// "Acme Bath Co., Inc." → "Acme Bath".
pub fn short_name(name: &str) -> String {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    while words.len() > 1 {
        let last = words[words.len() - 1]
            .trim_matches(|c: char| c == ',' || c == '.')
            .to_ascii_lowercase();
        if SUFFIXES.contains(&last.as_str()) {
            words.pop();
        } else {
            break;
        }
    }
    words
        .join(" ")
        .trim_end_matches([',', '.', ' '])
        .to_string()
}

/// The seed's cell rule: commas, quotes and line breaks become spaces (the CSV writer would quote
/// them anyway; this keeps the report readable in naive viewers).
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ',' | '"' | '\r' | '\n' => ' ',
            c => c,
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Every report row has the same width: the widest section's (companies).
pub const REPORT_WIDTH: usize = 12;
const DESCRIPTION_MAX: usize = 200;

fn row(cells: &[&str]) -> Vec<String> {
    let mut r: Vec<String> = cells.iter().map(|c| clean(c)).collect();
    r.resize(REPORT_WIDTH, String::new());
    r
}

/// The Business Development Report of `date` (`YYYY-MM-DD`): the executive summary, the companies,
/// the contacts, the pipeline by stage (the board's stages, then closed_lost) and every deal.
pub fn report(
    date: &str,
    summary: &ReportSummary,
    companies: &[ReportCompany<'_>],
    contacts: &[ReportContact<'_>],
    deals: &[ReportDeal<'_>],
) -> Report {
    let mut rows = vec![row(&[])];
    rows.push(row(&["EXECUTIVE SUMMARY"]));
    rows.push(row(&["Metric", "Value"]));
    for (label, value) in [
        ("Total Companies", summary.companies),
        ("Total Contacts", contacts.len() as i64),
        ("Contacts Contacted", summary.contacts_contacted),
        ("Active Deals", summary.active_deals),
        ("Pipeline Value", summary.pipeline_value),
        ("Meetings Scheduled", summary.meetings),
        ("Upcoming Meetings", summary.upcoming_meetings),
        ("Completed Meetings", summary.completed_meetings),
    ] {
        rows.push(row(&[label, &value.to_string()]));
    }

    rows.push(row(&[]));
    rows.push(row(&["COMPANIES DATABASE"]));
    rows.push(row(&[
        "Business Name",
        "Full Name",
        "Industry",
        "City",
        "State",
        "Phone",
        "Website",
        "Revenue",
        "Score",
        "Status",
        "Contacts",
        "Description",
    ]));
    for c in companies {
        let description: String = c
            .description
            .unwrap_or_default()
            .chars()
            .take(DESCRIPTION_MAX)
            .collect();
        rows.push(row(&[
            &short_name(c.name),
            c.name,
            c.industry.unwrap_or_default(),
            c.city.unwrap_or_default(),
            c.state.unwrap_or_default(),
            c.phone.unwrap_or_default(),
            c.website.unwrap_or_default(),
            &c.revenue.map(|r| r.to_string()).unwrap_or_default(),
            &c.score.to_string(),
            c.status,
            &c.contact_count.to_string(),
            &description,
        ]));
    }

    rows.push(row(&[]));
    rows.push(row(&["CONTACTS DATABASE"]));
    rows.push(row(&[
        "First Name",
        "Last Name",
        "Title",
        "Company",
        "Email",
        "Phone",
        "Status",
        "Score",
    ]));
    for c in contacts {
        rows.push(row(&[
            c.first_name,
            c.last_name,
            c.title.unwrap_or_default(),
            c.company_name.unwrap_or_default(),
            c.email.unwrap_or_default(),
            c.phone.unwrap_or_default(),
            c.status,
            &c.score.to_string(),
        ]));
    }

    rows.push(row(&[]));
    rows.push(row(&["PIPELINE BREAKDOWN"]));
    rows.push(row(&["Stage", "Deals", "Value"]));
    for stage in BOARD_STAGES.iter().chain(std::iter::once(&"closed_lost")) {
        let in_stage: Vec<_> = deals
            .iter()
            .filter(|d| effective_stage(d.stage) == *stage)
            .collect();
        let value: i64 = in_stage.iter().map(|d| d.value).sum();
        rows.push(row(&[
            stage,
            &in_stage.len().to_string(),
            &value.to_string(),
        ]));
    }
    rows.push(row(&[]));
    rows.push(row(&[
        "Deal",
        "Stage",
        "Value",
        "Probability",
        "Expected Close",
        "Company",
        "Contact",
    ]));
    for d in deals {
        rows.push(row(&[
            d.title,
            effective_stage(d.stage),
            &d.value.to_string(),
            &d.probability.to_string(),
            d.expected_close_date.unwrap_or_default(),
            d.company_name.unwrap_or_default(),
            &full_name(d.contact_first_name, d.contact_last_name),
        ]));
    }

    let mut header: Vec<String> = ["Business Development Report", "Generated", date]
        .map(String::from)
        .to_vec();
    header.resize(REPORT_WIDTH, String::new());
    Report { header, rows }
}

/// The meeting rate in percent: of the contacts contacted (emailed or called) in a window, those who
/// booked a meeting in it. The booked contacts are counted among the contacted, so the rate is at
/// most 100 %; the clamp keeps it so even for counts that are not.
pub fn meeting_rate(booked: i64, contacted: i64) -> f64 {
    super::figures::percent(booked.clamp(0, contacted.max(0)), contacted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meeting_rate_is_at_most_all_contacted() {
        assert_eq!(meeting_rate(0, 0), 0.0);
        assert_eq!(meeting_rate(3, 0), 0.0);
        assert_eq!(meeting_rate(1, 3), 33.3);
        assert_eq!(meeting_rate(5, 4), 100.0);
        assert_eq!(meeting_rate(4, 4), 100.0);
    }

    #[test]
    fn short_names_drop_legal_forms() {
        assert_eq!(short_name("Acme Bath Co., Inc."), "Acme Bath");
        assert_eq!(
            short_name("Lone Star Remodeling LLC"),
            "Lone Star Remodeling"
        );
        assert_eq!(short_name("Inc"), "Inc");
        assert_eq!(short_name("Corpus Christi Baths"), "Corpus Christi Baths");
    }

    #[test]
    fn cells_lose_commas_quotes_and_breaks() {
        assert_eq!(clean("a,b\"c\nd"), "a b c d");
    }

    #[test]
    fn months_and_states() {
        // 2026-12-15: December to January.
        let (start, end) = month_bounds(1_797_292_800_000);
        assert_eq!(start, 1_796_083_200_000);
        assert_eq!(end, 1_798_761_600_000);
        assert!(is_state(Some(" tx "), TARGET_STATES[0]));
        assert!(is_state(Some("new mexico"), TARGET_STATES[4]));
        assert!(!is_state(Some("Texas"), TARGET_STATES[1]));
        assert!(!is_state(None, TARGET_STATES[0]));
        assert_eq!(change_text(12.5), "+12.5% from last month");
        assert_eq!(change_text(-3.0), "-3% from last month");
        assert_eq!(change_text(0.0), "0% from last month");
    }

    #[test]
    fn the_report_counts_and_lays_out_every_section() {
        let summary = ReportSummary {
            companies: 1,
            pipeline_value: 30_000,
            ..Default::default()
        };
        let companies = [ReportCompany {
            name: "Acme Bath Co., Inc.",
            description: Some("Tubs, \"walk-in\" showers"),
            revenue: Some(5_200_000),
            status: "new",
            ..Default::default()
        }];
        let contacts = [ReportContact {
            first_name: "Ann",
            last_name: "Lee",
            status: "new",
            ..Default::default()
        }];
        let deals = [
            ReportDeal {
                title: "Acme",
                stage: None,
                value: 30_000,
                contact_first_name: Some("Ann"),
                contact_last_name: Some("Lee"),
                ..Default::default()
            },
            ReportDeal {
                title: "Lost",
                stage: Some("closed_lost"),
                value: 5_000,
                ..Default::default()
            },
        ];
        let r = report("2026-05-20", &summary, &companies, &contacts, &deals);
        assert_eq!(
            r.header[..3],
            ["Business Development Report", "Generated", "2026-05-20"]
        );
        assert!(r.rows.iter().all(|row| row.len() == REPORT_WIDTH));
        let find = |first: &str| r.rows.iter().position(|row| row[0] == first);
        let total_contacts = find("Total Contacts").map(|i| r.rows[i][1].as_str());
        assert_eq!(total_contacts, Some("1"));
        let company = find("Acme Bath").map(|i| &r.rows[i]);
        assert_eq!(company.map(|c| c[1].as_str()), Some("Acme Bath Co.  Inc."));
        assert_eq!(company.map(|c| c[7].as_str()), Some("5200000"));
        assert_eq!(
            company.map(|c| c[11].as_str()),
            Some("Tubs   walk-in  showers")
        );
        let qualification = find("qualification").map(|i| &r.rows[i][..3]);
        assert_eq!(
            qualification,
            Some(&["qualification".to_string(), "1".into(), "30000".into()][..])
        );
        let lost = find("closed_lost").map(|i| &r.rows[i][..3]);
        assert_eq!(
            lost,
            Some(&["closed_lost".to_string(), "1".into(), "5000".into()][..])
        );
        let deal = find("Acme").map(|i| &r.rows[i]);
        assert_eq!(deal.map(|d| d[1].as_str()), Some("qualification"));
        assert_eq!(deal.map(|d| d[6].as_str()), Some("Ann Lee"));
    }
}
