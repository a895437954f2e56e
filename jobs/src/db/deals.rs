//! Deals and prospects: params, rows and their queries, written once for both dialects. Reads
//! that precede a write in the same request go through [`Tx`] so the check and the write see the
//! same row (Postgres locks it with `FOR UPDATE`; SQLite's `BEGIN IMMEDIATE` already holds the
//! write lock): that lock is the only difference between the dialects here.

use super::sql::Sql;
use super::*;

/// The deal columns, in the order [`DealRow`] reads them.
macro_rules! deal_columns {
    () => {
        "id, title, description, value, stage, probability, expected_close_date, actual_close_date,
         contact_id, company_id, notes, stage_changed_at, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DealRow {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    /// Whole dollars.
    pub value: i64,
    /// `None` for legacy deals; they count as `qualification`.
    pub stage: Option<String>,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub actual_close_date: Option<String>,
    pub contact_id: Option<String>,
    pub company_id: Option<String>,
    pub notes: Option<String>,
    pub stage_changed_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// `GET /api/deals` filters; newest first.
pub struct DealList<'a> {
    pub stage: Option<&'a str>,
    pub company_id: Option<&'a str>,
    pub contact_id: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// One deal with the names the CSV exports show.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DealExportRow {
    pub title: String,
    pub stage: Option<String>,
    pub value: i64,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub company_name: Option<String>,
    pub contact_first_name: Option<String>,
    pub contact_last_name: Option<String>,
}

/// A company as the prospect lists and conversion read it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProspectCompany {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub revenue: Option<i64>,
    pub score: i32,
    pub prospect_score: i32,
    pub status: String,
    pub is_deal: bool,
}

/// A contact as the prospect lists and conversion read it, with its company's name and revenue.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProspectContact {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub status: String,
    pub score: i32,
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    pub company_revenue: Option<i64>,
}

macro_rules! prospect_company_columns {
    () => {
        "id, name, industry, city, state, revenue, score, prospect_score, status, is_deal"
    };
}
macro_rules! prospect_contact_select {
    () => {
        "SELECT c.id, c.first_name, c.last_name, c.title, c.email, c.phone, c.status, c.score,
                c.company_id, co.name AS company_name, co.revenue AS company_revenue
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id"
    };
}
/// Stage-less deals count as qualification, so the stage filter matches them there too. The CASTs
/// type the parameters for Postgres when they are NULL.
macro_rules! deal_filter {
    () => {
        " WHERE (CAST(?1 AS TEXT) IS NULL OR COALESCE(stage, 'qualification') = ?1)
            AND (CAST(?2 AS TEXT) IS NULL OR company_id = ?2)
            AND (CAST(?3 AS TEXT) IS NULL OR contact_id = ?3)"
    };
}

const DEAL_PAGE: Sql = sql!(concat!(
    "SELECT ",
    deal_columns!(),
    " FROM deals",
    deal_filter!(),
    " ORDER BY created_at DESC, id DESC LIMIT ?4 OFFSET ?5"
));
const DEAL_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM deals", deal_filter!()));
/// One stage's deals, newest first: a range of the `deals_board` index (migration 0026), whose
/// expression this repeats.
macro_rules! deal_stage_page {
    ($stage:expr, $limit:expr, $offset:expr) => {
        concat!(
            "SELECT ",
            deal_columns!(),
            " FROM deals WHERE COALESCE(stage, 'qualification') = ",
            $stage,
            " ORDER BY created_at DESC, id DESC LIMIT ",
            $limit,
            " OFFSET ",
            $offset
        )
    };
}
const DEAL_STAGE_PAGE: Sql = sql!(deal_stage_page!("?1", "?2", "?3")).with_generic_plan();
/// A stage's total from the deal rollup (migration 0022), kept by the same triggers as the
/// pipeline's figures, so the board and the metrics cannot disagree.
const DEAL_STAGE_COUNT: Sql =
    sql!("SELECT COALESCE((SELECT n FROM deal_rollup WHERE stage = ?1), 0)").with_generic_plan();
/// The board's first page of each column in one statement: one index range per stage.
macro_rules! deal_board_part {
    ($stage:literal, $alias:literal) => {
        concat!(
            "SELECT * FROM (",
            deal_stage_page!(concat!("'", $stage, "'"), "?1", "0"),
            ") ",
            $alias
        )
    };
}
const DEAL_BOARD: Sql = sql!(concat!(
    deal_board_part!("qualification", "q"),
    " UNION ALL ",
    deal_board_part!("proposal", "p"),
    " UNION ALL ",
    deal_board_part!("negotiation", "n"),
    " UNION ALL ",
    deal_board_part!("decision", "d"),
    " UNION ALL ",
    deal_board_part!("closed_won", "w")
))
.with_generic_plan();
const DEAL_GET: Sql = select!(deal_columns, "deals", "WHERE id = ?1");
// Differs: Postgres locks the row read before a write; SQLite's BEGIN IMMEDIATE already holds the
// write lock (and has no FOR UPDATE).
const DEAL_GET_FOR_UPDATE: Sql = locking!(
    concat!("SELECT ", deal_columns!(), " FROM deals WHERE id = ?1"),
    "FOR UPDATE",
    ""
);
const DEAL_INSERT: Sql = sql!(concat!(
    "INSERT INTO deals (",
    deal_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
));
const DEAL_UPDATE: Sql = sql!(
    "UPDATE deals SET title = ?2, description = ?3, value = ?4, stage = ?5, probability = ?6,
        expected_close_date = ?7, actual_close_date = ?8, contact_id = ?9, company_id = ?10,
        notes = ?11, stage_changed_at = ?12, updated_at = ?13
     WHERE id = ?1"
);
const DEAL_DELETE: Sql = sql!("DELETE FROM deals WHERE id = ?1 RETURNING title");
const DEAL_EXPORT: Sql = sql!(
    "SELECT d.title, d.stage, d.value, d.probability, d.expected_close_date,
            co.name AS company_name, c.first_name AS contact_first_name,
            c.last_name AS contact_last_name
     FROM deals d
     LEFT JOIN companies co ON co.id = d.company_id
     LEFT JOIN contacts c ON c.id = d.contact_id
     ORDER BY d.created_at DESC, d.id DESC"
);
const PROSPECT_COMPANIES: Sql = sql!(concat!(
    "SELECT ",
    prospect_company_columns!(),
    " FROM companies
     WHERE prospect_score > 0 AND is_deal = FALSE
     ORDER BY prospect_score DESC, created_at DESC, id LIMIT ?1"
))
.with_generic_plan();
// Differs: SQLite's planner prefers the (status, score) index for the IN list and then sorts every
// match; the partial index of migration 0022 yields the best ones in order (Postgres picks it).
const PROSPECT_CONTACTS: Sql = Sql {
    sqlite: sql!(concat!(
        "SELECT c.id, c.first_name, c.last_name, c.title, c.email, c.phone, c.status, c.score,
                c.company_id, co.name AS company_name, co.revenue AS company_revenue
         FROM contacts c INDEXED BY contacts_prospects LEFT JOIN companies co ON co.id = c.company_id",
        " WHERE c.status IN ('new_lead', 'contacted', 'responded')
         ORDER BY c.score DESC, c.created_at DESC, c.id LIMIT ?1"
    ))
    .sqlite,
    postgres: sql!(concat!(
        prospect_contact_select!(),
        " WHERE c.status IN ('new_lead', 'contacted', 'responded')
         ORDER BY c.score DESC, c.created_at DESC, c.id LIMIT ?1"
    ))
    .postgres,
    generic_plan: true,
};
// Differs: the row lock, as for the deal.
const PROSPECT_COMPANY_GET: Sql = Sql {
    sqlite: sql!(concat!(
        "SELECT ",
        prospect_company_columns!(),
        " FROM companies WHERE id = ?1"
    ))
    .sqlite,
    postgres: sql!(concat!(
        "SELECT ",
        prospect_company_columns!(),
        " FROM companies WHERE id = ?1 FOR UPDATE"
    ))
    .postgres,
    generic_plan: false,
};
// Differs: the row lock, on the contact only (not its company).
const PROSPECT_CONTACT_GET: Sql = Sql {
    sqlite: sql!(concat!(prospect_contact_select!(), " WHERE c.id = ?1")).sqlite,
    postgres: sql!(concat!(
        prospect_contact_select!(),
        " WHERE c.id = ?1 FOR UPDATE OF c"
    ))
    .postgres,
    generic_plan: false,
};
const PROSPECT_COMPANY_MARK_DEAL: Sql =
    sql!("UPDATE companies SET is_deal = TRUE, updated_at = ?2 WHERE id = ?1 AND is_deal = FALSE");
const DEAL_EXISTS_FOR_CONTACT: Sql =
    sql!("SELECT EXISTS (SELECT 1 FROM deals WHERE contact_id = ?1)");
const PROSPECT_CONTACT_QUALIFY: Sql =
    sql!("UPDATE contacts SET status = 'qualified', updated_at = ?2 WHERE id = ?1");

impl Db {
    pub async fn deal_list(&self, p: &DealList<'_>) -> Result<(Vec<DealRow>, i64), sqlx::Error> {
        // A board column's further pages: its index range and the rollup's count.
        if let (Some(stage), None, None) = (p.stage, p.company_id, p.contact_id) {
            return on_db!(
                self,
                pool,
                [page = DEAL_STAGE_PAGE, count = DEAL_STAGE_COUNT],
                {
                    let rows = sqlx::query_as(page)
                        .bind(stage)
                        .bind(p.limit)
                        .bind(p.offset)
                        .fetch_all(pool)
                        .await?;
                    let total = sqlx::query_scalar(count)
                        .bind(stage)
                        .fetch_one(pool)
                        .await?;
                    Ok((rows, total))
                }
            );
        }
        on_db!(self, pool, [page = DEAL_PAGE, count = DEAL_COUNT], {
            let rows = sqlx::query_as(page)
                .bind(p.stage)
                .bind(p.company_id)
                .bind(p.contact_id)
                .bind(p.limit)
                .bind(p.offset)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_scalar(count)
                .bind(p.stage)
                .bind(p.company_id)
                .bind(p.contact_id)
                .fetch_one(pool)
                .await?;
            Ok((rows, total))
        })
    }
    /// The newest `limit` deals of each board column (stage-less ones in qualification).
    pub async fn deal_board(&self, limit: i64) -> Result<Vec<DealRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(DEAL_BOARD), limit)
    }
    pub async fn deal_get_by_id(&self, id: &str) -> Result<Option<DealRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(DEAL_GET), id)
    }
    /// Every deal with its company and contact names, newest first (CSV exports).
    pub async fn deal_export_rows(&self) -> Result<Vec<DealExportRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(DEAL_EXPORT))
    }
    /// Companies with a prospect score above 0 that are not deals yet, best first.
    pub async fn prospect_company_list(
        &self,
        limit: i64,
    ) -> Result<Vec<ProspectCompany>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(PROSPECT_COMPANIES), limit)
    }
    /// Contacts in new_lead, contacted or responded, best score first.
    pub async fn prospect_contact_list(
        &self,
        limit: i64,
    ) -> Result<Vec<ProspectContact>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(PROSPECT_CONTACTS), limit)
    }
}

/// Binds ?1..?12, the columns [`DEAL_INSERT`] and [`DEAL_UPDATE`] share, in their order.
macro_rules! bind_deal {
    ($query:expr, $d:expr) => {
        $query
            .bind(&$d.id)
            .bind(&$d.title)
            .bind(&$d.description)
            .bind($d.value)
            .bind(&$d.stage)
            .bind($d.probability)
            .bind(&$d.expected_close_date)
            .bind(&$d.actual_close_date)
            .bind(&$d.contact_id)
            .bind(&$d.company_id)
            .bind(&$d.notes)
            .bind($d.stage_changed_at)
    };
}

impl Tx {
    /// The deal, locked against concurrent changes until the transaction ends.
    pub async fn deal_get_for_update(&mut self, id: &str) -> Result<Option<DealRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(DEAL_GET_FOR_UPDATE), id)
    }
    pub async fn deal_insert(&mut self, d: &DealRow) -> Result<(), sqlx::Error> {
        on_tx!(self, conn, [q = DEAL_INSERT], {
            bind_deal!(sqlx::query(q), d)
                .bind(d.created_at)
                .bind(d.updated_at)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })
    }
    /// Writes every mutable column of `d`; the number of rows changed (0: gone).
    pub async fn deal_update(&mut self, d: &DealRow) -> Result<u64, sqlx::Error> {
        on_tx!(self, conn, [q = DEAL_UPDATE], {
            bind_deal!(sqlx::query(q), d)
                .bind(d.updated_at)
                .execute(&mut *conn)
                .await
                .map(|r| r.rows_affected())
        })
    }
    /// Deletes the deal; its title, or `None` when it was gone.
    pub async fn deal_delete(&mut self, id: &str) -> Result<Option<String>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_scalar(DEAL_DELETE), id)
    }
    /// The company, locked against concurrent changes until the transaction ends.
    pub async fn prospect_company_get(
        &mut self,
        id: &str,
    ) -> Result<Option<ProspectCompany>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(PROSPECT_COMPANY_GET), id)
    }
    /// The contact (locked until the transaction ends) with its company's name and revenue.
    pub async fn prospect_contact_get(
        &mut self,
        id: &str,
    ) -> Result<Option<ProspectContact>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(PROSPECT_CONTACT_GET), id)
    }
    /// Marks the company a deal; 0 when it already was one (or is gone).
    pub async fn prospect_company_mark_deal(
        &mut self,
        id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec_tx!(self, PROSPECT_COMPANY_MARK_DEAL, id, now)
    }
    /// Whether the contact already has a deal (a repeated conversion must not make a second one).
    pub async fn deal_exists_for_contact(&mut self, contact_id: &str) -> Result<bool, sqlx::Error> {
        fetch_tx!(
            self,
            fetch_one,
            query_scalar(DEAL_EXISTS_FOR_CONTACT),
            contact_id
        )
    }
    /// Sets the contact's status to qualified.
    pub async fn prospect_contact_qualify(
        &mut self,
        id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec_tx!(self, PROSPECT_CONTACT_QUALIFY, id, now)
    }
}
