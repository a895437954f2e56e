//! What a company's own website says about it (docs/providers.md, "Website enrichment"): emails,
//! phones, social profiles, the people of its team page with their titles, the services it offers
//! and the pages worth reading next (contact, team, about). Pure: the pages arrive as text, already
//! cut to size by `providers::website`; HTML is read with an HTML5 parser (`scraper`), never with
//! patterns over the markup.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use ego_tree::iter::Edge;
use regex::Regex;
use scraper::{ElementRef, Html, Node};
use serde::Serialize;
use url::Url;

/// Pages read per site: the home page and at most three it links to.
pub const MAX_PAGES: usize = 4;
/// Most of each kind kept per site (a directory page must not flood a record).
const MAX_EMAILS: usize = 20;
const MAX_PHONES: usize = 10;
const MAX_PEOPLE: usize = 25;
/// JSON-LD blocks longer than this are not read.
const MAX_JSON_LD: usize = 100_000;

/// A service a remodeler may offer: (key, label, words on the page that show it).
pub const SERVICES: [(&str, &str, &[&str]); 7] = [
    (
        "walk_in_tubs",
        "Walk-in tubs",
        &["walk-in tub", "walk in tub", "walk-in bath", "walk in bath"],
    ),
    (
        "accessibility",
        "Accessibility (grab bars, barrier-free showers, aging in place)",
        &[
            "grab bar",
            "aging in place",
            "aging-in-place",
            "wheelchair",
            "ada compliant",
            "ada-compliant",
            "barrier-free",
            "barrier free",
            "curbless",
            "roll-in shower",
            "zero-entry",
            "zero entry",
            "accessible bath",
            "accessible shower",
            "handicap",
            "mobility",
        ],
    ),
    (
        "bath",
        "Bathroom remodeling",
        &[
            "bathroom",
            "bath remodel",
            "shower",
            "bathtub",
            "tub-to-shower",
            "tub to shower",
            "tub replacement",
        ],
    ),
    (
        "kitchen",
        "Kitchen remodeling",
        &["kitchen", "cabinet", "countertop"],
    ),
    (
        "remodeling",
        "General remodeling",
        &["remodel", "renovation", "home improvement"],
    ),
    (
        "plumbing",
        "Plumbing",
        &["plumbing", "plumber", "water heater"],
    ),
    (
        "roofing",
        "Roofing and exteriors",
        &["roofing", "roof repair", "siding", "gutter"],
    ),
];

/// The label of a service key.
pub fn service_label(key: &str) -> Option<&'static str> {
    SERVICES.iter().find(|s| s.0 == key).map(|s| s.1)
}

/// Social networks by the host of a profile link.
const SOCIAL: [(&str, &str); 10] = [
    ("linkedin.com", "linkedin"),
    ("facebook.com", "facebook"),
    ("fb.com", "facebook"),
    ("instagram.com", "instagram"),
    ("twitter.com", "x"),
    ("x.com", "x"),
    ("youtube.com", "youtube"),
    ("houzz.com", "houzz"),
    ("yelp.com", "yelp"),
    ("pinterest.com", "pinterest"),
];

/// Words of a job title (lower case, matched as whole words or phrases).
const TITLE_WORDS: [&str; 28] = [
    "owner",
    "co-owner",
    "founder",
    "co-founder",
    "president",
    "ceo",
    "coo",
    "cfo",
    "vp",
    "vice president",
    "director",
    "manager",
    "partner",
    "principal",
    "designer",
    "estimator",
    "coordinator",
    "supervisor",
    "specialist",
    "consultant",
    "foreman",
    "installer",
    "lead",
    "officer",
    "sales",
    "operations",
    "administrator",
    "superintendent",
];

/// Words that make a heading something other than a person's name.
const NOT_NAME: [&str; 30] = [
    "our",
    "team",
    "about",
    "contact",
    "us",
    "services",
    "service",
    "bath",
    "bathroom",
    "kitchen",
    "remodeling",
    "meet",
    "the",
    "llc",
    "inc",
    "company",
    "home",
    "why",
    "choose",
    "free",
    "estimate",
    "call",
    "today",
    "showroom",
    "gallery",
    "reviews",
    "leadership",
    "staff",
    "and",
    "of",
];

/// A person named on the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    /// An address of the site that reads as theirs (`jane.doe@`, `jdoe@`, `jane@`).
    pub email: Option<String>,
}

/// What one page says.
#[derive(Debug, Clone, Default)]
pub struct PageFacts {
    pub emails: BTreeSet<String>,
    pub phones: BTreeSet<String>,
    /// Network → profile URL (the first seen).
    pub socials: BTreeMap<&'static str, String>,
    pub people: Vec<Person>,
    pub services: BTreeSet<&'static str>,
    /// Same-site pages worth reading next, best first: contact, then team, then about.
    pub next: Vec<Url>,
}

/// What the site says, all pages together (stored with the company as `websiteFacts`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteFacts {
    /// Pages read (after redirects).
    pub pages: Vec<String>,
    pub emails: Vec<String>,
    pub phones: Vec<String>,
    pub socials: BTreeMap<String, String>,
    pub people: Vec<Person>,
    /// Service keys of [`SERVICES`].
    pub services: Vec<String>,
    /// Some page was longer than the size cap and was cut.
    pub truncated: bool,
    /// Pages that could not be read, with why (robots.txt, an HTTP error, a refused redirect).
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub url: String,
    pub reason: String,
}

impl SiteFacts {
    /// Adds a page's facts, keeping the caps and the first profile per network.
    pub fn add(&mut self, url: &Url, page: PageFacts, truncated: bool) {
        self.pages.push(url.to_string());
        self.truncated |= truncated;
        for e in page.emails {
            if self.emails.len() < MAX_EMAILS && !self.emails.contains(&e) {
                self.emails.push(e);
            }
        }
        for p in page.phones {
            if self.phones.len() < MAX_PHONES && !self.phones.contains(&p) {
                self.phones.push(p);
            }
        }
        for (network, link) in page.socials {
            self.socials.entry(network.to_string()).or_insert(link);
        }
        for p in page.people {
            let known = self.people.iter().any(|q| {
                q.first_name.eq_ignore_ascii_case(&p.first_name)
                    && q.last_name.eq_ignore_ascii_case(&p.last_name)
            });
            if !known && self.people.len() < MAX_PEOPLE {
                self.people.push(p);
            }
        }
        for s in page.services {
            if !self.services.iter().any(|k| k == s) {
                self.services.push(s.to_string());
            }
        }
        // The services in the table's order, so the same site always reads the same.
        self.services
            .sort_by_key(|k| SERVICES.iter().position(|s| s.0 == k));
    }

    /// People get the site's addresses that read as theirs.
    pub fn match_emails(&mut self) {
        for p in &mut self.people {
            if p.email.is_none() {
                p.email = self
                    .emails
                    .iter()
                    .find(|e| email_fits(e, &p.first_name, &p.last_name))
                    .cloned();
            }
        }
    }
}

static EMAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}",
    )
    .ok()
});
static PHONE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?:\+?1[\s.-]?)?\(?([2-9]\d{2})\)?[\s.-]?([2-9]\d{2})[\s.-]?(\d{4})\b").ok()
});

/// A US number as "(AAA) BBB-CCCC", if it is one.
pub fn normalize_phone(text: &str) -> Option<String> {
    let re = PHONE.as_ref()?;
    let c = re.captures(text)?;
    Some(format!("({}) {}-{}", &c[1], &c[2], &c[3]))
}

fn clean_email(raw: &str) -> Option<String> {
    let e = raw
        .trim()
        .trim_matches(|c: char| c == '.' || c == ',' || c == ';')
        .to_ascii_lowercase();
    let (local, domain) = e.split_once('@')?;
    let image = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"]
        .iter()
        .any(|x| domain.ends_with(x));
    (!local.is_empty() && domain.contains('.') && !image && e.len() <= 254).then_some(e)
}

fn email_fits(email: &str, first: &str, last: &str) -> bool {
    let local = email.split('@').next().unwrap_or_default();
    let (f, l) = (first.to_ascii_lowercase(), last.to_ascii_lowercase());
    let initial = f.chars().next().map(String::from).unwrap_or_default();
    [
        format!("{f}.{l}"),
        format!("{f}{l}"),
        format!("{f}_{l}"),
        format!("{initial}{l}"),
        format!("{initial}.{l}"),
        f.clone(),
    ]
    .iter()
    .any(|form| form == local)
}

/// The host without `www.`, lower case.
fn site_host(url: &Url) -> Option<String> {
    let h = url.host_str()?.to_ascii_lowercase();
    Some(h.strip_prefix("www.").map(str::to_string).unwrap_or(h))
}

/// Text of the page a reader sees: script, style and template contents left out.
fn visible_text(doc: &Html) -> String {
    let mut out = String::new();
    let mut hidden = 0usize;
    for edge in doc.root_element().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(e) if is_hidden(e.name()) => hidden += 1,
                Node::Text(t) if hidden == 0 => {
                    out.push_str(t);
                    out.push(' ');
                }
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(e) = node.value()
                    && is_hidden(e.name())
                {
                    hidden = hidden.saturating_sub(1);
                }
            }
        }
    }
    out
}

fn is_hidden(tag: &str) -> bool {
    matches!(tag, "script" | "style" | "noscript" | "template" | "head")
}

/// An element's text with runs of white space made one space.
fn text_of(e: ElementRef<'_>) -> String {
    e.text()
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn name_parts(text: &str) -> Option<(String, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if !(2..=3).contains(&words.len()) || text.len() > 40 {
        return None;
    }
    let ok = words.iter().all(|w| {
        let lower = w.to_ascii_lowercase();
        w.chars().next().is_some_and(char::is_uppercase)
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '\'' | '-' | '.'))
            && !NOT_NAME.contains(&lower.trim_end_matches('.'))
    });
    let first = words.first()?;
    let last = words.last()?;
    // "J." alone is an initial, not a first name.
    (ok && first.trim_end_matches('.').chars().count() > 1)
        .then(|| (first.to_string(), last.to_string()))
}

fn is_title(text: &str) -> bool {
    if text.is_empty() || text.len() > 80 {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    TITLE_WORDS.iter().any(|t| {
        if t.contains(' ') {
            lower.contains(t)
        } else {
            words.contains(t)
        }
    })
}

fn person(name: &str, title: &str) -> Option<Person> {
    let (first_name, last_name) = name_parts(name)?;
    let title = title
        .trim()
        .trim_matches(|c: char| c == ',' || c == '-' || c == '|' || c == '–')
        .trim();
    is_title(title).then(|| Person {
        first_name,
        last_name,
        title: Some(title.to_string()),
        email: None,
    })
}

/// People in JSON-LD: objects of `@type` Person, anywhere in the document.
fn json_ld_people(v: &serde_json::Value, out: &mut Vec<Person>) {
    match v {
        serde_json::Value::Array(items) => items.iter().for_each(|i| json_ld_people(i, out)),
        serde_json::Value::Object(map) => {
            let is_person = match map.get("@type") {
                Some(serde_json::Value::String(t)) => t == "Person",
                Some(serde_json::Value::Array(ts)) => ts.iter().any(|t| t == "Person"),
                _ => false,
            };
            if is_person {
                let name = map.get("name").and_then(|n| n.as_str()).unwrap_or_default();
                let title = map
                    .get("jobTitle")
                    .and_then(|t| t.as_str())
                    .unwrap_or_default();
                if let Some(p) = person(name, title) {
                    out.push(p);
                }
            }
            map.values().for_each(|i| json_ld_people(i, out));
        }
        _ => {}
    }
}

/// Team cards: a name-like heading followed by a title-like element; schema.org microdata; a
/// "Name, Title" line; JSON-LD.
fn people(doc: &Html) -> Vec<Person> {
    let mut found = Vec::new();
    for el in doc.root_element().descendent_elements() {
        let tag = el.value().name();
        if tag == "script" && el.value().attr("type") == Some("application/ld+json") {
            let text: String = el.text().collect();
            if text.len() <= MAX_JSON_LD
                && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
            {
                json_ld_people(&v, &mut found);
            }
            continue;
        }
        if el
            .value()
            .attr("itemtype")
            .is_some_and(|t| t.ends_with("schema.org/Person"))
        {
            let prop = |name: &str| {
                el.descendent_elements()
                    .find(|d| d.value().attr("itemprop") == Some(name))
                    .map(text_of)
            };
            if let (Some(n), Some(t)) = (prop("name"), prop("jobTitle")) {
                found.extend(person(&n, &t));
            }
            continue;
        }
        if !matches!(
            tag,
            "h2" | "h3" | "h4" | "h5" | "h6" | "strong" | "b" | "dt" | "li" | "p"
        ) {
            continue;
        }
        let text = text_of(el);
        if name_parts(&text).is_some() {
            // The title is the next element with text (a <p>, <span>, <dd>...).
            let next = el
                .next_siblings()
                .filter_map(ElementRef::wrap)
                .map(text_of)
                .find(|t| !t.is_empty());
            if let Some(p) = next.and_then(|t| person(&text, &t)) {
                found.push(p);
            }
        } else if let Some((name, title)) = text
            .split_once(", ")
            .or_else(|| text.split_once(" - "))
            .or_else(|| text.split_once(" – "))
            .or_else(|| text.split_once(" | "))
        {
            found.extend(person(name, title));
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|p| seen.insert((p.first_name.to_lowercase(), p.last_name.to_lowercase())));
    found
}

/// Reads one page of the site whose pages live on `base`'s host.
pub fn read_page(html: &str, base: &Url) -> PageFacts {
    let doc = Html::parse_document(html);
    let mut facts = PageFacts::default();
    let text = visible_text(&doc);
    let lower = text.to_lowercase();
    for (key, _, words) in SERVICES {
        if words.iter().any(|w| lower.contains(w)) {
            facts.services.insert(key);
        }
    }
    if let Some(re) = EMAIL.as_ref() {
        facts
            .emails
            .extend(re.find_iter(&text).filter_map(|m| clean_email(m.as_str())));
    }
    if let Some(re) = PHONE.as_ref() {
        facts.phones.extend(
            re.find_iter(&text)
                .filter_map(|m| normalize_phone(m.as_str())),
        );
    }
    let home = site_host(base);
    // (rank, url): 0 contact, 1 team, 2 about.
    let mut next: Vec<(u8, Url)> = Vec::new();
    for a in doc
        .root_element()
        .descendent_elements()
        .filter(|e| e.value().name() == "a")
    {
        let Some(href) = a.value().attr("href").map(str::trim) else {
            continue;
        };
        let lower_href = href.to_ascii_lowercase();
        if let Some(addr) = lower_href.strip_prefix("mailto:") {
            let addr = addr.split('?').next().unwrap_or_default();
            facts.emails.extend(clean_email(addr));
            continue;
        }
        if let Some(number) = lower_href.strip_prefix("tel:") {
            facts.phones.extend(normalize_phone(number));
            continue;
        }
        let Ok(mut url) = base.join(href) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        url.set_fragment(None);
        let host = site_host(&url);
        if let Some((_, network)) = SOCIAL.iter().find(|(h, _)| {
            host.as_deref()
                .is_some_and(|x| x == *h || x.ends_with(&format!(".{h}")))
        }) {
            let share = ["sharer", "share?", "/intent/", "/share"]
                .iter()
                .any(|s| lower_href.contains(s));
            if !share {
                facts
                    .socials
                    .entry(network)
                    .or_insert_with(|| url.to_string());
            }
            continue;
        }
        if host != home || url.path() == base.path() {
            continue;
        }
        let words = format!(
            "{} {}",
            url.path().to_ascii_lowercase(),
            text_of(a).to_lowercase()
        );
        let rank = if words.contains("contact") {
            0
        } else if ["team", "staff", "our-people", "leadership", "meet"]
            .iter()
            .any(|w| words.contains(w))
        {
            1
        } else if ["about", "who-we-are", "who we are"]
            .iter()
            .any(|w| words.contains(w))
        {
            2
        } else {
            continue;
        };
        if !next.iter().any(|(_, u)| *u == url) {
            next.push((rank, url));
        }
    }
    next.sort_by_key(|(rank, _)| *rank);
    facts.next = next.into_iter().map(|(_, u)| u).collect();
    facts.people = people(&doc);
    facts
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const HOME: &str = r#"<!doctype html><html><head><title>Lone Star Bath</title>
        <script>var x = "spam@tracker.example";</script></head><body>
        <nav><a href="/contact-us">Contact</a> <a href="/our-team">Meet the team</a>
        <a href="/about">About</a> <a href="https://other.example/contact">Elsewhere</a>
        <a href="https://www.facebook.com/lonestarbath">Facebook</a>
        <a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a>
        <a href="https://www.linkedin.com/company/lonestar-bath">LinkedIn</a></nav>
        <h1>Walk-in tubs and grab bars for safer bathrooms</h1>
        <p>Call (214) 555-0142 or write to <a href="mailto:Info@LoneStarBath.example?subject=hi">us</a>.</p>
        <p>We also remodel kitchens. Logo: logo@2x.png</p></body></html>"#;

    const TEAM: &str = r#"<html><body><h2>Our Team</h2>
        <div class="card"><h3>Maria Garcia</h3><p>Owner &amp; President</p></div>
        <div class="card"><h3>Ben Okafor</h3><span>Lead Installer</span></div>
        <div class="card"><h3>Free Estimates</h3><p>Call today</p></div>
        <ul><li>Cy Tran, Sales Manager</li></ul>
        <div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Dee Park</span>
          <span itemprop="jobTitle">Designer</span></div>
        <script type="application/ld+json">{"@graph":[{"@type":"Person","name":"Eve Stone","jobTitle":"Operations Director"}]}</script>
        <p>maria.garcia@lonestarbath.example, btokafor@lonestarbath.example</p></body></html>"#;

    #[test]
    fn the_home_page_gives_contacts_links_and_services() {
        let base = Url::parse("https://www.lonestarbath.example/").unwrap();
        let f = read_page(HOME, &base);
        assert_eq!(
            f.emails.iter().collect::<Vec<_>>(),
            ["info@lonestarbath.example"],
            "script text and image names are not addresses"
        );
        assert_eq!(f.phones.iter().collect::<Vec<_>>(), ["(214) 555-0142"]);
        assert_eq!(
            f.socials["facebook"],
            "https://www.facebook.com/lonestarbath"
        );
        assert!(f.socials.contains_key("linkedin"));
        let next: Vec<&str> = f.next.iter().map(Url::path).collect();
        assert_eq!(
            next,
            ["/contact-us", "/our-team", "/about"],
            "same site only, contact first"
        );
        let services: Vec<&str> = f.services.iter().copied().collect();
        assert!(services.contains(&"walk_in_tubs") && services.contains(&"accessibility"));
        assert!(services.contains(&"bath") && services.contains(&"kitchen"));
        assert!(!services.contains(&"roofing"));
    }

    #[test]
    fn team_pages_give_people_with_titles_and_their_addresses() {
        let base = Url::parse("https://lonestarbath.example/our-team").unwrap();
        let mut site = SiteFacts::default();
        site.add(&base, read_page(TEAM, &base), false);
        site.match_emails();
        let names: Vec<(String, Option<String>)> = site
            .people
            .iter()
            .map(|p| (format!("{} {}", p.first_name, p.last_name), p.title.clone()))
            .collect();
        assert!(
            names.contains(&("Maria Garcia".into(), Some("Owner & President".into()))),
            "{names:?}"
        );
        assert!(names.contains(&("Ben Okafor".into(), Some("Lead Installer".into()))));
        assert!(names.contains(&("Cy Tran".into(), Some("Sales Manager".into()))));
        assert!(names.contains(&("Dee Park".into(), Some("Designer".into()))));
        assert!(names.contains(&("Eve Stone".into(), Some("Operations Director".into()))));
        assert!(
            !names.iter().any(|(n, _)| n.contains("Estimates")),
            "{names:?}"
        );
        let maria = site
            .people
            .iter()
            .find(|p| p.first_name == "Maria")
            .unwrap();
        assert_eq!(
            maria.email.as_deref(),
            Some("maria.garcia@lonestarbath.example")
        );
        let ben = site.people.iter().find(|p| p.first_name == "Ben").unwrap();
        assert_eq!(
            ben.email, None,
            "btokafor is not a form of Ben Okafor's name"
        );
    }

    #[test]
    fn phones_are_us_numbers() {
        assert_eq!(
            normalize_phone("+1 214.555.0142").as_deref(),
            Some("(214) 555-0142")
        );
        assert_eq!(
            normalize_phone("call 123-456-7890"),
            None,
            "no area code starts with 1"
        );
        assert_eq!(
            normalize_phone("+12145550142").as_deref(),
            Some("(214) 555-0142"),
            "a tel: link"
        );
    }
}
