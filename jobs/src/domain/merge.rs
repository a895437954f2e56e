//! Duplicate companies and contacts (docs/merge.md): the kinds of duplicate, their words, and the
//! rules of a merge that need no database: which ids may be merged, which record survives a bulk
//! merge, which of two enrollments in one sequence is kept, and the timeline's sentence.
//!
//! The normalised keys themselves are generated columns (migration 0037), so every write path keeps
//! them without calling into Rust.

use std::collections::BTreeSet;

/// Most records one merge takes besides its survivor.
pub const MAX_MERGE: usize = 50;

/// What a duplicate is: a company or a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Company,
    Contact,
}

impl RecordKind {
    pub const NAMES: [&'static str; 2] = ["company", "contact"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "company" => Some(Self::Company),
            "contact" => Some(Self::Contact),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Company => "company",
            Self::Contact => "contact",
        }
    }

    pub fn not_found(self) -> &'static str {
        match self {
            Self::Company => "Company not found",
            Self::Contact => "Contact not found",
        }
    }

    /// The reasons a record of this kind is suggested for, in the screen's order.
    pub fn reasons(self) -> &'static [Reason] {
        match self {
            Self::Company => &[Reason::Domain, Reason::Phone, Reason::Name],
            Self::Contact => &[Reason::Email, Reason::Phone, Reason::Name],
        }
    }
}

/// Why records are suggested together: the key they share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Companies: normalised name in the same city and state; contacts: full name at one company.
    Name,
    /// Companies: the same website domain.
    Domain,
    /// The same phone number (last 10 digits).
    Phone,
    /// Contacts: the same email address.
    Email,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Domain => "domain",
            Self::Phone => "phone",
            Self::Email => "email",
        }
    }

    /// A reason of `kind` by its name.
    pub fn parse(kind: RecordKind, s: &str) -> Option<Self> {
        kind.reasons().iter().copied().find(|r| r.as_str() == s)
    }

    /// What the screen says.
    pub fn label(self, kind: RecordKind) -> &'static str {
        match (self, kind) {
            (Self::Name, RecordKind::Company) => "Same name and city",
            (Self::Name, RecordKind::Contact) => "Same name at the same company",
            (Self::Domain, _) => "Same website",
            (Self::Phone, _) => "Same phone",
            (Self::Email, _) => "Same email",
        }
    }
}

/// Why a merge request cannot be done as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeRule {
    NoneToMerge,
    TooMany,
    WithItself,
}

impl MergeRule {
    pub fn message(&self) -> String {
        match self {
            Self::NoneToMerge => "Pick at least one record to merge into the survivor".into(),
            Self::TooMany => format!("At most {MAX_MERGE} records can be merged at once"),
            Self::WithItself => "A record cannot be merged with itself".into(),
        }
    }
}

/// The records to merge into `survivor`: trimmed, each once, never the survivor itself.
pub fn merge_ids(survivor: &str, ids: &[String]) -> Result<Vec<String>, MergeRule> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        if id == survivor {
            return Err(MergeRule::WithItself);
        }
        if seen.insert(id) {
            out.push(id.to_string());
        }
    }
    match out.len() {
        0 => Err(MergeRule::NoneToMerge),
        n if n > MAX_MERGE => Err(MergeRule::TooMany),
        _ => Ok(out),
    }
}

/// Every pair of distinct ids, the smaller first (how a dismissal is stored).
pub fn pairs(ids: &[String]) -> Vec<(String, String)> {
    let set: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let sorted: Vec<&str> = set.into_iter().collect();
    let mut out = Vec::new();
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            out.push(((*a).to_string(), (*b).to_string()));
        }
    }
    out
}

/// What a bulk merge weighs when it picks the survivor of a group.
#[derive(Debug, Clone)]
pub struct SurvivorFacts<'a> {
    pub id: &'a str,
    /// Descriptive fields that hold a value.
    pub filled: i64,
    /// Rows that hang off the record (a company's contacts; a contact's deals and emails).
    pub related: i64,
    pub created_at: i64,
}

/// The survivor of a bulk merge: the most complete record, then the one with the most history,
/// then the oldest (the id breaks a tie, so a rerun picks the same one).
pub fn pick_survivor<'a>(group: &[SurvivorFacts<'a>]) -> Option<&'a str> {
    group
        .iter()
        .max_by(|a, b| {
            a.filled
                .cmp(&b.filled)
                .then(a.related.cmp(&b.related))
                .then(b.created_at.cmp(&a.created_at))
                .then(b.id.cmp(a.id))
        })
        .map(|f| f.id)
}

/// One side of a sequence both merged contacts are enrolled in.
#[derive(Debug, Clone)]
pub struct EnrollmentSide<'a> {
    pub status: &'a str,
    pub current_step: i64,
}

/// Whether the merged contact's enrollment is kept over the survivor's (the other is deleted, its
/// sent mail re-pointed at the kept one): one that ended (a reply, an exit, the last step) wins
/// over an active one, so a merge never restarts mail someone stopped; then the further along;
/// on a tie the survivor's.
pub fn keep_merged_enrollment(survivor: &EnrollmentSide<'_>, merged: &EnrollmentSide<'_>) -> bool {
    let ended = |e: &EnrollmentSide<'_>| e.status != "active";
    match (ended(survivor), ended(merged)) {
        (false, true) => true,
        (true, false) => false,
        _ => merged.current_step > survivor.current_step,
    }
}

/// Both records' tags, the survivor's first, each once.
pub fn union_tags(survivor: &[String], merged: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(survivor.len() + merged.len());
    for t in survivor.iter().chain(merged) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(t)) {
            out.push(t.clone());
        }
    }
    out
}

/// "3 contacts", "1 deal": a count and its noun.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The timeline's sentence for one merged record: its name and what moved to the survivor.
/// `moved` is (count, singular, plural); zero counts are left out.
pub fn merge_summary(kind: RecordKind, merged_name: &str, moved: &[(u64, &str, &str)]) -> String {
    let what = match kind {
        RecordKind::Company => "company",
        RecordKind::Contact => "contact",
    };
    let parts: Vec<String> = moved
        .iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, one, many)| counted(*n, one, many))
        .collect();
    let name = merged_name.trim();
    if parts.is_empty() {
        format!("Merged “{name}” into this {what}")
    } else {
        format!(
            "Merged “{name}” into this {what}; moved {}",
            parts.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn merge_ids_are_checked() {
        assert_eq!(
            merge_ids("a", &ids(&["b", " b ", "c"])),
            Ok(ids(&["b", "c"]))
        );
        assert_eq!(
            merge_ids("a", &ids(&["b", "a"])),
            Err(MergeRule::WithItself)
        );
        assert_eq!(merge_ids("a", &ids(&[" "])), Err(MergeRule::NoneToMerge));
        let many: Vec<String> = (0..=MAX_MERGE).map(|i| format!("x{i}")).collect();
        assert_eq!(merge_ids("a", &many), Err(MergeRule::TooMany));
    }

    #[test]
    fn pairs_are_ordered_and_distinct() {
        assert_eq!(
            pairs(&ids(&["c", "a", "b", "a"])),
            vec![
                ("a".into(), "b".into()),
                ("a".into(), "c".into()),
                ("b".into(), "c".into())
            ]
        );
        assert!(pairs(&ids(&["a"])).is_empty());
    }

    #[test]
    fn survivor_is_the_most_complete_then_busiest_then_oldest() {
        let f = |id, filled, related, created_at| SurvivorFacts {
            id,
            filled,
            related,
            created_at,
        };
        assert_eq!(
            pick_survivor(&[f("a", 2, 9, 1), f("b", 3, 0, 5)]),
            Some("b")
        );
        assert_eq!(
            pick_survivor(&[f("a", 3, 1, 1), f("b", 3, 2, 5)]),
            Some("b")
        );
        assert_eq!(
            pick_survivor(&[f("a", 3, 2, 9), f("b", 3, 2, 5)]),
            Some("b")
        );
        assert_eq!(pick_survivor(&[]), None);
    }

    #[test]
    fn an_ended_enrollment_is_never_restarted() {
        let e = |status, current_step| EnrollmentSide {
            status,
            current_step,
        };
        assert!(keep_merged_enrollment(&e("active", 3), &e("exited", 0)));
        assert!(!keep_merged_enrollment(&e("completed", 0), &e("active", 4)));
        assert!(keep_merged_enrollment(&e("active", 1), &e("active", 2)));
        assert!(!keep_merged_enrollment(&e("active", 2), &e("active", 2)));
    }

    #[test]
    fn tags_union_keeps_the_survivors_first() {
        assert_eq!(
            union_tags(&ids(&["vip", "tx"]), &ids(&["TX", "bath"])),
            ids(&["vip", "tx", "bath"])
        );
    }

    #[test]
    fn summary_names_what_moved() {
        assert_eq!(
            merge_summary(
                RecordKind::Company,
                " Acme Inc ",
                &[
                    (3, "contact", "contacts"),
                    (0, "deal", "deals"),
                    (1, "note", "notes")
                ]
            ),
            "Merged “Acme Inc” into this company; moved 3 contacts, 1 note"
        );
        assert_eq!(
            merge_summary(RecordKind::Contact, "Ann Lee", &[]),
            "Merged “Ann Lee” into this contact"
        );
        assert_eq!(Reason::parse(RecordKind::Company, "email"), None);
        assert_eq!(
            Reason::parse(RecordKind::Contact, "email").map(|r| r.label(RecordKind::Contact)),
            Some("Same email")
        );
    }
}
