//! US states and the product's regions (seed 000 §3, §5): names ↔ two-letter codes.

/// All 50 states: (code, name).
pub const STATES: [(&str, &str); 50] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
];

/// The two-letter code of a state given by code or name, any case.
pub fn state_code(text: &str) -> Option<&'static str> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = t.as_str();
    STATES
        .iter()
        .find(|(code, name)| code.eq_ignore_ascii_case(t) || name.eq_ignore_ascii_case(t))
        .map(|(code, _)| *code)
}

/// Regions of seed 000 §3, the values of every region filter.
pub const REGIONS: [&str; 8] = [
    "southwest",
    "arkansas",
    "texas",
    "louisiana",
    "mississippi",
    "new-mexico",
    "oklahoma",
    "arizona",
];

/// The states of a region (seed 000 §3: southwest is all seven target states).
pub fn region_states(region: &str) -> Option<&'static [&'static str]> {
    Some(match region.trim().to_ascii_lowercase().as_str() {
        "southwest" => &crate::scoring::TARGET_STATES,
        "texas" => &["TX"],
        "arkansas" => &["AR"],
        "louisiana" => &["LA"],
        "mississippi" => &["MS"],
        "new-mexico" => &["NM"],
        "oklahoma" => &["OK"],
        "arizona" => &["AZ"],
        _ => return None,
    })
}

/// Company types of seed 000 §3.
pub const COMPANY_TYPES: [&str; 7] = [
    "bath-shower",
    "kitchen-bath",
    "accessible-bath",
    "luxury-bath",
    "plumbing",
    "roofing",
    "home-improvement",
];

/// Where a discovery scan looks, parsed from the free-text city/state box (seed 000 §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CityState {
    pub city: Option<String>,
    pub state: Option<&'static str>,
}

/// Parses "Dallas, TX", "Dallas Texas", "New Mexico", "Santa Fe New Mexico" or a lone city.
/// `None` when neither a city nor a state can be read (the seed's 'Invalid City/State').
pub fn parse_city_state(text: &str) -> Option<CityState> {
    let text = text.trim();
    let city = |s: &str| {
        let s = s.trim().trim_end_matches(',').trim();
        // A city has letters; "12345" or "," is not one.
        s.chars().any(char::is_alphabetic).then(|| s.to_string())
    };
    if let Some((left, right)) = text.split_once(',') {
        let parsed = CityState {
            city: city(left),
            state: state_code(right),
        };
        return (parsed.city.is_some() || parsed.state.is_some()).then_some(parsed);
    }
    if let Some(state) = state_code(text) {
        return Some(CityState {
            city: None,
            state: Some(state),
        });
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    // The state is the last two words ("New Mexico") or the last word ("Texas", "TX").
    for n in [2, 1] {
        if words.len() > n
            && let Some(state) = state_code(&words[words.len() - n..].join(" "))
        {
            return Some(CityState {
                city: city(&words[..words.len() - n].join(" ")),
                state: Some(state),
            });
        }
    }
    city(text).map(|c| CityState {
        city: Some(c),
        state: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(city: Option<&str>, state: Option<&'static str>) -> Option<CityState> {
        Some(CityState {
            city: city.map(str::to_string),
            state,
        })
    }

    #[test]
    fn city_state_forms_of_the_seed() {
        assert_eq!(
            parse_city_state("Dallas, TX"),
            cs(Some("Dallas"), Some("TX"))
        );
        assert_eq!(
            parse_city_state("Dallas Texas"),
            cs(Some("Dallas"), Some("TX"))
        );
        assert_eq!(
            parse_city_state("dallas tx"),
            cs(Some("dallas"), Some("TX"))
        );
        assert_eq!(parse_city_state("New Mexico"), cs(None, Some("NM")));
        assert_eq!(
            parse_city_state("Santa Fe New Mexico"),
            cs(Some("Santa Fe"), Some("NM"))
        );
        assert_eq!(
            parse_city_state("Little Rock, Arkansas"),
            cs(Some("Little Rock"), Some("AR"))
        );
        assert_eq!(parse_city_state("OK"), cs(None, Some("OK")));
        assert_eq!(
            parse_city_state("Oklahoma City"),
            cs(Some("Oklahoma City"), None)
        );
        assert_eq!(
            parse_city_state("Little Rock"),
            cs(Some("Little Rock"), None)
        );
        assert_eq!(parse_city_state("Dallas, Texass"), cs(Some("Dallas"), None));
        assert_eq!(parse_city_state(", "), None);
        assert_eq!(parse_city_state("12345"), None);
        assert_eq!(STATES.len(), 50);
    }

    #[test]
    fn states_by_code_or_name() {
        assert_eq!(state_code("tx"), Some("TX"));
        assert_eq!(state_code(" New Mexico "), Some("NM"));
        assert_eq!(state_code("Texass"), None);
        assert_eq!(region_states("southwest").map(<[_]>::len), Some(7));
        assert_eq!(region_states("new-mexico"), Some(&["NM"][..]));
    }
}
