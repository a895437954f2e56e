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
    let t = text.trim();
    STATES
        .iter()
        .find(|(code, name)| code.eq_ignore_ascii_case(t) || name.eq_ignore_ascii_case(t))
        .map(|(code, _)| *code)
}

/// The states of a region (seed 000 §3: southwest is all seven target states).
pub fn region_states(region: &str) -> Option<&'static [&'static str]> {
    Some(match region {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_by_code_or_name() {
        assert_eq!(state_code("tx"), Some("TX"));
        assert_eq!(state_code(" New Mexico "), Some("NM"));
        assert_eq!(state_code("Texass"), None);
        assert_eq!(region_states("southwest").map(<[_]>::len), Some(7));
        assert_eq!(region_states("new-mexico"), Some(&["NM"][..]));
    }
}
