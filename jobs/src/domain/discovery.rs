//! What a discovery search finds: companies with their decision makers, as any provider reports
//! them and as the database stores them.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundContact {
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub department: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub linkedin_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundCompany {
    pub name: String,
    pub industry: Option<String>,
    pub company_type: Option<String>,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub description: Option<String>,
    pub growth_rate: Option<f64>,
    pub contacts: Vec<FoundContact>,
    /// The source's own id of the place (`node/123` in OpenStreetMap, a Google place id).
    #[serde(default)]
    pub external_id: Option<String>,
    /// Opening hours as the source gives them (OSM `opening_hours` syntax, or Google's lines).
    #[serde(default)]
    pub opening_hours: Option<String>,
}

/// Where a discovered company came from. The keys are stored (`company_sources.source`) and are
/// what a scan's `discoverySource` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// OpenStreetMap through the Overpass API.
    Osm,
    /// Google Places API (New) Text Search.
    GooglePlaces,
    /// The embedded catalog of invented companies.
    Catalog,
    /// An OpenAI-compatible model.
    Llm,
}

impl Source {
    pub const ALL: [Source; 4] = [Self::Osm, Self::GooglePlaces, Self::Catalog, Self::Llm];

    pub fn key(self) -> &'static str {
        match self {
            Self::Osm => "osm",
            Self::GooglePlaces => "google_places",
            Self::Catalog => "catalog",
            Self::Llm => "llm",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.key() == text)
    }

    /// What users read.
    pub fn label(self) -> &'static str {
        match self {
            Self::Osm => "OpenStreetMap",
            Self::GooglePlaces => "Google Places",
            Self::Catalog => "Demo data",
            Self::Llm => "AI suggestion (unverified)",
        }
    }

    /// Whether what the source reports is a record of a real place. A model's answer is not,
    /// even once its website answered.
    pub fn verified(self) -> bool {
        !matches!(self, Self::Llm | Self::Catalog)
    }

    /// The notice that must accompany the source's data where it is shown.
    pub fn attribution(self) -> &'static str {
        match self {
            Self::Osm => {
                "© OpenStreetMap contributors. Data available under the Open Database License (ODbL): https://www.openstreetmap.org/copyright"
            }
            Self::GooglePlaces => "Place data from Google Maps.",
            Self::Catalog => {
                "Demo data: invented companies for trying the app; websites and phones are not real."
            }
            Self::Llm => {
                "Suggested by an AI model; kept only when the website answered. Check before contacting."
            }
        }
    }
}

/// A company's name reduced for matching: lower case, `&` as `and`, punctuation dropped, legal
/// suffixes (LLC, Inc, ...) removed, so "Acme Bath, LLC" and "ACME BATH" are one company.
pub fn name_key(name: &str) -> String {
    const SUFFIXES: [&str; 10] = [
        "llc",
        "inc",
        "co",
        "corp",
        "corporation",
        "company",
        "ltd",
        "lp",
        "pllc",
        "incorporated",
    ];
    let lowered = name.to_lowercase().replace('&', " and ");
    let mut words: Vec<&str> = lowered
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    while words.len() > 1 && words.last().is_some_and(|w| SUFFIXES.contains(w)) {
        words.pop();
    }
    words.join(" ")
}

/// A US phone number that could be dialled: ten digits (after an optional leading 1) whose area
/// code and exchange do not start with 0 or 1, and not the 555 exchange reserved for fiction.
/// Returns it as `(AAA) EEE-NNNN`.
pub fn us_phone(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let digits = match digits.len() {
        11 if digits.starts_with('1') => &digits[1..],
        10 => digits.as_str(),
        _ => return None,
    };
    let (area, rest) = digits.split_at(3);
    let (exchange, line) = rest.split_at(3);
    let bad_start = |s: &str| s.starts_with('0') || s.starts_with('1');
    if bad_start(area) || bad_start(exchange) || exchange == "555" {
        return None;
    }
    Some(format!("({area}) {exchange}-{line}"))
}

/// US Census County Business Patterns: establishments of NAICS 236118 (residential remodelers)
/// per county in the target states, from `seeds/cbp_236118.csv` (made by `scripts/cbp-counts.py`
/// from the public release; its `#` header names the source and year). Built in, so every process
/// has it without reading files at run time.
const CBP_FILE: &str = include_str!("../../../seeds/cbp_236118.csv");

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CountyCount {
    pub state: String,
    pub county_fips: String,
    pub county: Option<String>,
    pub establishments: u32,
}

/// The market's size by county, with where the figures come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketSizing {
    /// `# source:` of the file's header.
    pub source: Option<String>,
    /// `# year:` of the file's header.
    pub year: Option<String>,
    /// `# note:` lines (why the file has no rows, say).
    pub note: Option<String>,
    pub counties: Vec<CountyCount>,
}

/// The built-in figures (empty when the shipped file has none).
pub fn market_sizing() -> &'static MarketSizing {
    static PARSED: std::sync::OnceLock<MarketSizing> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        MarketSizing::parse(CBP_FILE).unwrap_or_else(|e| {
            tracing::error!(error = %e, "seeds/cbp_236118.csv cannot be read; market sizing is off");
            MarketSizing::default()
        })
    })
}

impl MarketSizing {
    /// Reads the file: `#` header lines (`# source: …`, `# year: …`, `# note: …`), then CSV with the
    /// columns `state,county_fips,county,establishments`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut out = Self::default();
        for line in text.lines().filter_map(|l| l.strip_prefix('#')) {
            let line = line.trim();
            let field = |key: &str| line.strip_prefix(key).map(|v| v.trim().to_string());
            if let Some(v) = field("source:") {
                out.source = Some(v);
            } else if let Some(v) = field("year:") {
                out.year = Some(v);
            } else if let Some(v) = field("note:") {
                out.note = Some(match out.note.take() {
                    Some(n) => format!("{n} {v}"),
                    None => v,
                });
            }
        }
        #[derive(serde::Deserialize)]
        struct Row {
            state: String,
            county_fips: String,
            county: Option<String>,
            establishments: u32,
        }
        let mut reader = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        for (i, row) in reader.deserialize::<Row>().enumerate() {
            let row = row.map_err(|e| format!("row {}: {e}", i + 1))?;
            let state = crate::geo::state_code(&row.state)
                .ok_or_else(|| format!("row {}: unknown state {:?}", i + 1, row.state))?;
            out.counties.push(CountyCount {
                state: state.to_string(),
                county_fips: row.county_fips,
                county: row.county.filter(|c| !c.is_empty()),
                establishments: row.establishments,
            });
        }
        Ok(out)
    }

    /// The territory insight of a scan: per searched state, the establishments counted by the
    /// Census and the companies the scan found (`found_by_state`), and the largest counties.
    pub fn insight(
        &self,
        states: &[&str],
        found_by_state: &std::collections::BTreeMap<String, usize>,
    ) -> serde_json::Value {
        use serde_json::json;
        if self.counties.is_empty() {
            return json!({ "available": false, "source": self.source, "year": self.year, "note": self.note });
        }
        let in_scope: Vec<&CountyCount> = self
            .counties
            .iter()
            .filter(|c| states.contains(&c.state.as_str()))
            .collect();
        let per_state: Vec<serde_json::Value> = states
            .iter()
            .map(|s| {
                let establishments: u64 = in_scope
                    .iter()
                    .filter(|c| c.state == *s)
                    .map(|c| u64::from(c.establishments))
                    .sum();
                let found = found_by_state.get(*s).copied().unwrap_or(0);
                json!({ "state": s, "establishments": establishments, "found": found })
            })
            .collect();
        let mut top = in_scope;
        top.sort_by_key(|c| std::cmp::Reverse(c.establishments));
        top.truncate(10);
        json!({
            "available": true, "source": self.source, "year": self.year, "naics": "236118",
            "states": per_state, "topCounties": top,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn market_sizing_reads_the_cbp_file() {
        let text = "# source: https://example.test/cbp22co.zip\n# year: 2022\nstate,county_fips,county,establishments\nTX,48113,Dallas County,40\nTX,48201,,55\nOK,40109,Oklahoma County,12\n";
        let m = MarketSizing::parse(text).unwrap_or_default();
        assert_eq!(m.year.as_deref(), Some("2022"));
        assert_eq!(m.counties.len(), 3);
        let found = std::collections::BTreeMap::from([("TX".to_string(), 7)]);
        let v = m.insight(&["TX"], &found);
        assert_eq!(v["states"][0]["establishments"], 95);
        assert_eq!(v["states"][0]["found"], 7);
        assert_eq!(v["topCounties"][0]["countyFips"], "48201");
        assert_eq!(v["topCounties"].as_array().map(Vec::len), Some(2));
        assert!(MarketSizing::parse("state,county_fips,county,establishments\nZZ,1,,2\n").is_err());
        let empty =
            MarketSizing::parse("# note: no figures\nstate,county_fips,county,establishments\n")
                .unwrap_or_default();
        assert_eq!(empty.insight(&["TX"], &found)["available"], false);
        // The shipped file parses.
        assert!(MarketSizing::parse(CBP_FILE).is_ok());
    }

    #[test]
    fn names_match_across_spellings() {
        assert_eq!(name_key("Acme Bath & Tile, LLC"), "acme bath and tile");
        assert_eq!(name_key("ACME BATH AND TILE"), "acme bath and tile");
        assert_eq!(name_key("The Company"), "the");
        assert_eq!(name_key("Inc"), "inc");
    }

    #[test]
    fn phones_are_checked_for_the_us() {
        assert_eq!(us_phone("+1 214-555-0100"), None);
        assert_eq!(
            us_phone("+1 (214) 748-3647").as_deref(),
            Some("(214) 748-3647")
        );
        assert_eq!(us_phone("2147483647").as_deref(), Some("(214) 748-3647"));
        assert_eq!(us_phone("012 748 3647"), None);
        assert_eq!(us_phone("748-3647"), None);
    }

    #[test]
    fn sources_round_trip() {
        for s in Source::ALL {
            assert_eq!(Source::parse(s.key()), Some(s));
        }
        assert!(!Source::Llm.verified());
    }
}
