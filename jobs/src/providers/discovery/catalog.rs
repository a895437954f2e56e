//! The embedded discovery provider: a demo catalog of 5,000 remodeling companies with decision-maker
//! contacts across the seven target states, generated in code from a fixed seed (SplitMix64, so it is
//! the same on every machine and every release). All names are invented; websites use the reserved
//! `.example` domain, so nothing here points at a real business.

use std::sync::OnceLock;

use futures::future::BoxFuture;

use super::{
    Batch, DiscoveryProvider, DiscoveryQuery, FoundCompany, FoundContact, ProviderError,
    REVENUE_RANGES, Source,
};
use crate::geo::{COMPANY_TYPES, region_states};

/// Companies in the catalog.
pub const CATALOG_SIZE: usize = 5_000;
/// Most companies one scan returns.
pub const MAX_RESULTS: usize = 250;
const BATCH: usize = 50;

/// Deterministic pseudo-random numbers (SplitMix64): stable across platforms and crate versions.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const CITIES: [(&str, &[&str]); 7] = [
    (
        "TX",
        &[
            "Dallas",
            "Houston",
            "Austin",
            "San Antonio",
            "Fort Worth",
            "Plano",
            "El Paso",
            "Lubbock",
            "Waco",
            "Tyler",
        ],
    ),
    (
        "LA",
        &[
            "New Orleans",
            "Baton Rouge",
            "Shreveport",
            "Lafayette",
            "Lake Charles",
            "Monroe",
        ],
    ),
    (
        "AR",
        &[
            "Little Rock",
            "Fayetteville",
            "Fort Smith",
            "Jonesboro",
            "Conway",
            "Rogers",
        ],
    ),
    (
        "MS",
        &[
            "Jackson",
            "Gulfport",
            "Hattiesburg",
            "Biloxi",
            "Tupelo",
            "Meridian",
        ],
    ),
    (
        "NM",
        &[
            "Albuquerque",
            "Santa Fe",
            "Las Cruces",
            "Rio Rancho",
            "Roswell",
            "Farmington",
        ],
    ),
    (
        "OK",
        &[
            "Oklahoma City",
            "Tulsa",
            "Norman",
            "Broken Arrow",
            "Edmond",
            "Lawton",
        ],
    ),
    (
        "AZ",
        &[
            "Phoenix",
            "Tucson",
            "Mesa",
            "Scottsdale",
            "Chandler",
            "Flagstaff",
            "Tempe",
        ],
    ),
];
/// Share of the catalog per state, roughly following the seed's regional totals.
const STATE_WEIGHTS: [usize; 7] = [40, 12, 10, 5, 9, 11, 13];

const PREFIXES: [&str; 40] = [
    "Lone Star",
    "Gulf Coast",
    "Red River",
    "Desert Sun",
    "Ozark",
    "Magnolia",
    "Sooner",
    "Rio Grande",
    "Bayou",
    "Mesa Verde",
    "Canyon",
    "Pecan",
    "Prairie",
    "Copper State",
    "Delta",
    "Pelican",
    "Cimarron",
    "Sandia",
    "Saguaro",
    "Hill Country",
    "Crescent",
    "Razorback",
    "Piney Woods",
    "Frontier",
    "Sunbelt",
    "Heritage",
    "Bluebonnet",
    "Cypress",
    "Adobe",
    "Timberline",
    "Silver Creek",
    "Brazos",
    "Pinnacle",
    "Keystone",
    "Cornerstone",
    "Summit",
    "Evergreen",
    "Oakridge",
    "Riverbend",
    "Legacy",
];
const NOUNS: [(&str, &[&str]); 7] = [
    (
        "bath-shower",
        &[
            "Bath Works",
            "Shower Pros",
            "Tub & Tile",
            "Bath Systems",
            "Shower Solutions",
        ],
    ),
    (
        "kitchen-bath",
        &[
            "Kitchen & Bath",
            "Home Design",
            "Cabinet & Bath",
            "Remodeling Studio",
        ],
    ),
    (
        "accessible-bath",
        &[
            "Access Bath",
            "Safe Step Baths",
            "Mobility Remodeling",
            "Walk-In Baths",
        ],
    ),
    (
        "luxury-bath",
        &["Luxury Baths", "Spa Design", "Premier Bath", "Bath Studio"],
    ),
    (
        "plumbing",
        &[
            "Plumbing",
            "Pipe & Fixture",
            "Plumbing Services",
            "Water Works",
        ],
    ),
    (
        "roofing",
        &["Roofing", "Exteriors", "Roof & Siding", "Storm Restoration"],
    ),
    (
        "home-improvement",
        &[
            "Home Improvement",
            "Remodeling Group",
            "Builders",
            "Renovations",
        ],
    ),
];
const INDUSTRY: [(&str, &str); 7] = [
    ("bath-shower", "Bath & Shower Remodeling"),
    ("kitchen-bath", "Kitchen & Bath Remodeling"),
    ("accessible-bath", "Accessible Bathrooms"),
    ("luxury-bath", "Luxury Bath Design"),
    ("plumbing", "Plumbing"),
    ("roofing", "Roofing & Exteriors"),
    ("home-improvement", "Home Improvement"),
];
const SUFFIXES: [&str; 6] = ["LLC", "Inc", "Co", "Corp", "Group", ""];
const FIRST: [&str; 32] = [
    "James", "Maria", "Robert", "Linda", "Michael", "Patricia", "David", "Jennifer", "Carlos",
    "Angela", "Kevin", "Rosa", "Brian", "Tamika", "Steven", "Laura", "Marcus", "Denise", "Greg",
    "Yolanda", "Travis", "Heather", "Luis", "Brenda", "Daniel", "Monica", "Eric", "Sandra", "Jose",
    "Karen", "Tyrone", "Amanda",
];
const LAST: [&str; 32] = [
    "Garcia",
    "Johnson",
    "Nguyen",
    "Williams",
    "Martinez",
    "Brown",
    "Davis",
    "Lopez",
    "Wilson",
    "Thompson",
    "Hernandez",
    "Moore",
    "Jackson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Torres",
    "Hill",
    "Flores",
    "Green",
    "Adams",
    "Nelson",
    "Baker",
    "Rivera",
];
/// (title, department): one executive first, then leadership.
const EXECUTIVES: [(&str, &str); 4] = [
    ("CEO", "Executive"),
    ("President", "Executive"),
    ("Owner", "Executive"),
    ("Founder", "Executive"),
];
const LEADERS: [(&str, &str); 6] = [
    ("VP of Sales", "Sales"),
    ("Director of Operations", "Operations"),
    ("General Manager", "Operations"),
    ("Sales Manager", "Sales"),
    ("Purchasing Manager", "Purchasing"),
    ("Project Manager", "Operations"),
];

fn slug(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase()
}

/// The catalog, built once per process.
pub fn catalog() -> &'static [FoundCompany] {
    static CATALOG: OnceLock<Vec<FoundCompany>> = OnceLock::new();
    CATALOG.get_or_init(generate)
}

fn generate() -> Vec<FoundCompany> {
    let mut rng = SplitMix(0x5052_4F53_5045_4354); // "PROSPECT"
    let total_weight: usize = STATE_WEIGHTS.iter().sum();
    let mut out = Vec::with_capacity(CATALOG_SIZE);
    for i in 0..CATALOG_SIZE {
        let mut w = rng.below(total_weight);
        let mut s = 0;
        while w >= STATE_WEIGHTS[s] {
            w -= STATE_WEIGHTS[s];
            s += 1;
        }
        let (state, cities) = CITIES[s];
        let city = *rng.pick(cities);
        let t = rng.below(COMPANY_TYPES.len());
        let company_type = COMPANY_TYPES[t];
        let noun = *rng.pick(NOUNS[t].1);
        let base = format!("{} {noun}", rng.pick(&PREFIXES));
        let suffix = *rng.pick(&SUFFIXES);
        // The index keeps names and domains unique across 5,000 companies.
        let name = if suffix.is_empty() {
            format!("{base} of {city}")
        } else {
            format!("{base} of {city} {suffix}")
        };
        let domain = format!("{}{}{i}.example", slug(&base), slug(city));
        // Revenue: every range of seed 000 §3 is represented, most companies between $2M and $25M.
        let (_, low, high) = REVENUE_RANGES[[0, 0, 1, 1, 1, 2, 2, 3, 4][rng.below(9)]];
        let span = high.unwrap_or(low * 3) - low;
        let revenue = low + (rng.next() % (span as u64 / 100_000)) as i64 * 100_000;
        let employees = (revenue / 150_000) as i32 + rng.below(30) as i32;
        let area = 200 + rng.below(790);
        let n_contacts = 2 + rng.below(3);
        let mut contacts = Vec::with_capacity(n_contacts);
        for k in 0..n_contacts {
            let (title, department) = if k == 0 {
                *rng.pick(&EXECUTIVES)
            } else {
                *rng.pick(&LEADERS)
            };
            let (mut first, mut last) = (*rng.pick(&FIRST), *rng.pick(&LAST));
            // One person per name within a company (the email is built from it).
            while contacts
                .iter()
                .any(|c: &FoundContact| c.first_name == first && c.last_name == last)
            {
                (first, last) = (*rng.pick(&FIRST), *rng.pick(&LAST));
            }
            contacts.push(FoundContact {
                first_name: first.into(),
                last_name: last.into(),
                title: Some(title.into()),
                department: Some(department.into()),
                email: Some(format!(
                    "{}.{}@{domain}",
                    first.to_lowercase(),
                    last.to_lowercase()
                )),
                phone: Some(format!("({area}) 555-{:04}", rng.below(10_000))),
                linkedin_url: Some(format!(
                    "https://www.linkedin.example/in/{}-{}-{i}{k}",
                    first.to_lowercase(),
                    last.to_lowercase()
                )),
            });
        }
        let industry = INDUSTRY[t].1;
        out.push(FoundCompany {
            description: Some(format!(
                "{name} serves homeowners in and around {city}, {state} with {} — design, installation and service.",
                industry.to_lowercase()
            )),
            name,
            industry: Some(industry.into()),
            company_type: Some(company_type.into()),
            revenue: Some(revenue),
            employees: Some(employees),
            founded: Some(1965 + rng.below(57) as i32),
            website: Some(format!("https://www.{domain}")),
            phone: Some(format!("({area}) 555-{:04}", rng.below(10_000))),
            address: Some(format!("{} {} St", 100 + rng.below(9800), rng.pick(&["Main", "Commerce", "Oak", "Market", "Industrial", "Elm"]))),
            city: Some(city.into()),
            state: Some(state.into()),
            zip_code: Some(format!("{:05}", 70_000 + rng.below(18_000))),
            growth_rate: Some((rng.below(260) as f64 - 40.0) / 10.0),
            contacts,
            external_id: None,
            opening_hours: None,
        });
    }
    out
}

/// Whether `c` matches every filter of `q`.
pub fn matches(c: &FoundCompany, q: &DiscoveryQuery) -> bool {
    let eq = |field: &Option<String>, want: &Option<String>| match want {
        None => true,
        Some(w) => field.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(w)),
    };
    let region_ok = match q.region.as_deref().and_then(region_states) {
        None => true,
        Some(states) => c.state.as_deref().is_some_and(|s| states.contains(&s)),
    };
    let revenue_ok = match q.revenue_range.as_deref() {
        None => true,
        Some(label) => REVENUE_RANGES
            .iter()
            .find(|(l, _, _)| *l == label)
            .is_some_and(|(_, low, high)| {
                c.revenue
                    .is_some_and(|r| r >= *low && high.is_none_or(|h| r < h))
            }),
    };
    let name_ok = match &q.company_name {
        None => true,
        Some(n) => c.name.to_lowercase().contains(&n.trim().to_lowercase()),
    };
    region_ok
        && revenue_ok
        && name_ok
        && eq(&c.company_type, &q.company_type)
        && eq(&c.state, &q.state)
        && eq(&c.city, &q.city)
}

/// Searches the generated catalog.
#[derive(Debug, Default)]
pub struct CatalogProvider;

impl DiscoveryProvider for CatalogProvider {
    fn source(&self) -> Source {
        Source::Catalog
    }

    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            let found: Vec<FoundCompany> = catalog()
                .iter()
                .filter(|c| matches(c, query))
                .take(MAX_RESULTS)
                .cloned()
                .collect();
            for chunk in found.chunks(BATCH) {
                sink.send(chunk.to_vec())
                    .await
                    .map_err(|_| ProviderError::Transient("the scan stopped listening".into()))?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_is_reproducible_and_covers_the_market() {
        let a = generate();
        assert_eq!(a.len(), CATALOG_SIZE);
        assert_eq!(a, generate(), "same seed, same catalog");
        for (state, _) in CITIES {
            assert!(
                a.iter()
                    .filter(|c| c.state.as_deref() == Some(state))
                    .count()
                    > 100,
                "{state}"
            );
        }
        for t in COMPANY_TYPES {
            assert!(
                a.iter().any(|c| c.company_type.as_deref() == Some(t)),
                "{t}"
            );
        }
        for (label, ..) in REVENUE_RANGES {
            let q = DiscoveryQuery {
                revenue_range: Some(label.into()),
                ..Default::default()
            };
            assert!(a.iter().filter(|c| matches(c, &q)).count() > 100, "{label}");
        }
        let domains: std::collections::HashSet<_> =
            a.iter().filter_map(|c| c.website.clone()).collect();
        assert_eq!(domains.len(), CATALOG_SIZE, "one website per company");
        assert!(a.iter().all(|c| {
            c.contacts
                .first()
                .and_then(|p| p.title.as_deref())
                .is_some_and(|t| crate::scoring::title_tier(t) == "executive")
        }));
    }

    #[test]
    fn filters_narrow_the_search() {
        let q = DiscoveryQuery {
            region: Some("texas".into()),
            revenue_range: Some("5-10M".into()),
            company_type: Some("accessible-bath".into()),
            city: Some("dallas".into()),
            ..Default::default()
        };
        let hits: Vec<_> = catalog().iter().filter(|c| matches(c, &q)).collect();
        assert!(!hits.is_empty());
        assert!(hits.iter().all(|c| {
            c.city.as_deref() == Some("Dallas")
                && c.company_type.as_deref() == Some("accessible-bath")
                && c.revenue
                    .is_some_and(|r| (5_000_000..10_000_000).contains(&r))
        }));
    }
}
