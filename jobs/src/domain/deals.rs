//! Deal stages (seed 001 §4, §9).

/// The six stages with the probability each one sets.
pub const STAGES: [(&str, i32); 6] = [
    ("qualification", 25),
    ("proposal", 45),
    ("negotiation", 65),
    ("decision", 80),
    ("closed_won", 100),
    ("closed_lost", 0),
];

pub fn stage_default_probability(stage: &str) -> i32 {
    STAGES
        .iter()
        .find(|(s, _)| *s == stage)
        .map(|(_, p)| *p)
        .unwrap_or(25)
}
