//! Who a bulk action reaches and who it skips: the breakdown shown after "add to sequence" and
//! "add to campaign", counted in one pass over the selection with the same conditions as the insert.

use serde_json::Value;

use super::sql::Sql;
use super::{Audience, Db};

/// A selection's contacts by the first reason each is skipped for (checked in this order), and
/// those that remain. `outside_rules` is what is left: contacts the sequence's rules refuse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct SelectionCounts {
    pub selected: i64,
    pub no_email: i64,
    pub suppressed: i64,
    pub already_enrolled: i64,
    /// Reachable, not enrolled, and inside the rules.
    pub eligible: i64,
}

impl SelectionCounts {
    pub fn outside_rules(&self) -> i64 {
        (self.selected - self.no_email - self.suppressed - self.already_enrolled - self.eligible)
            .max(0)
    }
}

/// The selection is ?1..?5 (as [`audience!`], without its email condition), the sequence ?6 (NULL:
/// no enrollment check), the rules ?7..?10 (score range, statuses, states; ?11 stays NULL).
macro_rules! selection_counts {
    ($d:ident) => {
        concat!(
            "SELECT COUNT(*) AS selected,
                 CAST(COALESCE(SUM(CASE WHEN reach = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) AS no_email,
                 CAST(COALESCE(SUM(CASE WHEN reach = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS suppressed,
                 CAST(COALESCE(SUM(CASE WHEN reach = 2 THEN 1 ELSE 0 END), 0) AS BIGINT)
                     AS already_enrolled,
                 CAST(COALESCE(SUM(CASE WHEN reach = 3 AND in_rules = 1 THEN 1 ELSE 0 END), 0)
                     AS BIGINT) AS eligible
             FROM (SELECT
                 CASE WHEN c.email IS NULL OR trim(c.email) = '' THEN 0
                      WHEN EXISTS (SELECT 1 FROM suppressions s WHERE s.email = lower(trim(c.email)))
                          THEN 1
                      WHEN EXISTS (SELECT 1 FROM sequence_enrollments x
                                   WHERE x.sequence_id = CAST(?6 AS TEXT) AND x.contact_id = c.id)
                          THEN 2
                      ELSE 3 END AS reach,
                 CASE WHEN ",
            audience_filters!($d, "?7", "?8", "?9", "?10", "?11"),
            " THEN 1 ELSE 0 END AS in_rules
             FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
             WHERE ",
            audience_filters!($d, "?1", "?2", "?3", "?4", "?5"),
            ") t"
        )
    };
}
const SELECTION_COUNTS: Sql = per_dialect!(selection_counts);

impl Db {
    /// How a selection splits into skipped and eligible contacts, for a sequence's enrollment
    /// (its id and rules) or a campaign (no sequence, no rules).
    pub async fn selection_counts(
        &self,
        selection: &Audience,
        sequence_id: Option<&str>,
        rules: &Audience,
    ) -> Result<SelectionCounts, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_as(SELECTION_COUNTS),
            selection.score_min,
            selection.score_max,
            selection.statuses_json(),
            selection.states_json(),
            selection.ids_json(),
            sequence_id,
            rules.score_min,
            rules.score_max,
            rules.statuses_json(),
            rules.states_json(),
            None::<String>
        )
    }
    /// Contacts of these companies (at most `cap`), oldest first: a selection of companies.
    pub async fn contact_ids_of_companies(
        &self,
        company_ids: &[String],
        cap: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let ids = Value::from(company_ids.to_vec()).to_string();
        fetch!(
            self,
            fetch_all,
            query_scalar(CONTACTS_OF_COMPANIES),
            ids,
            cap
        )
    }
}

macro_rules! contacts_of_companies {
    ($d:ident) => {
        concat!(
            "SELECT id FROM contacts WHERE company_id IN (SELECT value FROM ",
            json_rows!($d, "1"),
            ") ORDER BY created_at, id LIMIT ?2"
        )
    };
}
const CONTACTS_OF_COMPANIES: Sql = per_dialect!(contacts_of_companies);
