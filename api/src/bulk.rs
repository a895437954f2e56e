//! What the contacts' and the companies' bulk status and delete actions share: the limit on picked
//! ids, the all-or-nothing check of the locked rows, and the answers with their messages.

use std::collections::HashSet;

use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::validate::field_error;

/// Most records one call may pick by id.
pub(crate) const BULK_MAX: usize = 1000;

/// The kind of record a bulk action changes, for its messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Noun {
    one: &'static str,
    many: &'static str,
    /// The body field that holds the picked ids.
    field: &'static str,
}

pub(crate) const CONTACTS: Noun = Noun {
    one: "contact",
    many: "contacts",
    field: "contactIds",
};

pub(crate) const COMPANIES: Noun = Noun {
    one: "company",
    many: "companies",
    field: "companyIds",
};

impl Noun {
    /// "1 contact", "3 companies".
    fn count(self, n: u64) -> String {
        format!("{n} {}", if n == 1 { self.one } else { self.many })
    }

    fn none_match(self) -> String {
        format!("No {} match these filters", self.many)
    }

    /// A 422 on the ids' field when more than [`BULK_MAX`] are picked.
    pub(crate) fn at_most(self, picked: usize, verb: &str) -> ApiResult<()> {
        if picked > BULK_MAX {
            return Err(field_error(
                self.field,
                format!("At most {BULK_MAX} {} can be {verb} at once.", self.many),
            ));
        }
        Ok(())
    }

    /// The 422 of a call that names no record.
    pub(crate) fn none_picked(self) -> ApiError {
        field_error(self.field, format!("Select at least one {}.", self.one))
    }

    /// Every id was found (and locked by the caller's transaction); otherwise a 404 naming the
    /// first missing one, and the caller's transaction rolls back, so nothing changes.
    pub(crate) fn all_found(self, ids: &[String], found: Vec<String>) -> ApiResult<()> {
        let found: HashSet<String> = found.into_iter().collect();
        match ids.iter().find(|id| !found.contains(*id)) {
            Some(id) => {
                let mut kind = self.one.to_string();
                kind[..1].make_ascii_uppercase();
                Err(ApiError::not_found(format!("{kind} not found: {id}")))
            }
            None => Ok(()),
        }
    }
}

/// The answer of a bulk status change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StatusOutcome {
    status: String,
    /// The records named.
    matched: u64,
    /// Those that had another status.
    updated: u64,
    /// "3 contacts set to Qualified (1 already Qualified)".
    message: String,
}

impl StatusOutcome {
    pub(crate) fn new(noun: Noun, status: String, matched: u64, updated: u64) -> Self {
        let words = jobs::domain::timeline::humanize(&status);
        let message = if matched == 0 {
            noun.none_match()
        } else if updated < matched {
            format!(
                "{} set to {words} ({} already {words})",
                noun.count(updated),
                matched - updated
            )
        } else {
            format!("{} set to {words}", noun.count(updated))
        };
        Self {
            status,
            matched,
            updated,
            message,
        }
    }
}

/// The answer of a bulk delete.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeleteOutcome {
    deleted: u64,
    /// "Deleted 3 companies".
    message: String,
}

impl DeleteOutcome {
    pub(crate) fn new(noun: Noun, matched: usize, deleted: u64) -> Self {
        let message = if matched == 0 {
            noun.none_match()
        } else {
            format!("Deleted {}", noun.count(deleted))
        };
        Self { deleted, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_count_and_say_what_was_already_so() {
        let all = StatusOutcome::new(COMPANIES, "partner".into(), 3, 3);
        assert_eq!(all.message, "3 companies set to Partner");
        let some = StatusOutcome::new(CONTACTS, "qualified".into(), 3, 1);
        assert_eq!(
            some.message,
            "1 contact set to Qualified (2 already Qualified)"
        );
        let none = StatusOutcome::new(CONTACTS, "qualified".into(), 0, 0);
        assert_eq!(none.message, "No contacts match these filters");
        assert_eq!(
            DeleteOutcome::new(COMPANIES, 1, 1).message,
            "Deleted 1 company"
        );
    }

    #[test]
    fn a_missing_id_is_named() {
        let ids = ["a".to_string(), "b".to_string()];
        assert!(
            COMPANIES
                .all_found(&ids, vec!["b".into(), "a".into()])
                .is_ok()
        );
        let missing = CONTACTS
            .all_found(&ids, vec!["a".into()])
            .map_err(|e| e.to_string());
        assert_eq!(missing, Err("Contact not found: b".to_string()));
    }
}
