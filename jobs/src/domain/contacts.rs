//! Contacts: statuses, the lead pipeline (seed 001 §4), regions (seed 000 §3, §2.6) and the add-contact
//! validation (seed 001 §5).

/// Every contact status the schema allows.
pub const STATUSES: [&str; 13] = [
    "discovered",
    "verified",
    "contacted",
    "qualified",
    "new_lead",
    "email_sent",
    "meeting_scheduled",
    "customer",
    "lost",
    "responded",
    "hot",
    "warm",
    "cold",
];

/// The lead pipeline's stages, in order; customer and lost are off the board.
pub const PIPELINE: [&str; 4] = ["new_lead", "email_sent", "meeting_scheduled", "qualified"];

pub const DEFAULT_STATUS: &str = "discovered";
pub const DEFAULT_SCORE: i32 = 50;
/// Pipeline cards at or above this score are high priority.
pub const HIGH_PRIORITY_SCORE: i32 = 80;
/// Customers at or above this score are high value.
pub const HIGH_VALUE_SCORE: i32 = 85;

pub const REQUIRED_MESSAGE: &str =
    "Required Fields Missing: Please fill in first name, last name, and email address.";
pub const NO_EXPORT_MESSAGE: &str = "No Contacts to Export: Add contacts first or clear filters.";

pub fn is_status(s: &str) -> bool {
    STATUSES.contains(&s)
}

/// Which way a pipeline card moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Back,
}

/// The stage one step from `status`, or why there is none (the 409 message).
pub fn pipeline_step(status: &str, dir: Direction) -> Result<&'static str, String> {
    let Some(at) = PIPELINE.iter().position(|s| *s == status) else {
        return Err(format!(
            "Contact is not on the lead pipeline (status {status}); stages are {}",
            PIPELINE.join(", ")
        ));
    };
    match dir {
        Direction::Forward => PIPELINE
            .get(at + 1)
            .copied()
            .ok_or_else(|| "No next stage available".to_string()),
        Direction::Back => at
            .checked_sub(1)
            .and_then(|i| PIPELINE.get(i).copied())
            .ok_or_else(|| "No previous stage available".to_string()),
    }
}

pub use crate::geo::region_states;

pub fn region_names() -> Vec<&'static str> {
    crate::geo::REGIONS.to_vec()
}

/// A plausible address: one `@`, a non-empty local part, a dotted domain, no spaces.
pub fn is_valid_email(s: &str) -> bool {
    if s.len() > 254 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_moves() {
        assert_eq!(
            pipeline_step("new_lead", Direction::Forward),
            Ok("email_sent")
        );
        assert_eq!(
            pipeline_step("qualified", Direction::Back),
            Ok("meeting_scheduled")
        );
        assert!(pipeline_step("new_lead", Direction::Back).is_err());
        assert!(pipeline_step("qualified", Direction::Forward).is_err());
        assert!(pipeline_step("customer", Direction::Forward).is_err());
    }

    #[test]
    fn emails() {
        assert!(is_valid_email("ann@acme.com"));
        for bad in [
            "ann",
            "ann@",
            "@acme.com",
            "ann@acme",
            "a b@acme.com",
            "a@b@c.com",
            "a@.com",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }

    #[test]
    fn regions() {
        assert_eq!(region_states("Texas"), Some(&["TX"][..]));
        assert_eq!(region_states("southwest").map(<[_]>::len), Some(7));
        assert_eq!(region_states("north"), None);
    }
}
