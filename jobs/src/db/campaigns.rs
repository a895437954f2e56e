//! Campaign content written in the composer: a campaign's own body, and the templates users save,
//! change and delete (the seed's built-in templates stay as they are).

use super::sql::Sql;
use super::*;

const CAMPAIGN_BODY_GET: Sql = sql!("SELECT body FROM campaigns WHERE id = ?1");
const CAMPAIGN_BODY_SET: Sql = sql!("UPDATE campaigns SET body = ?2 WHERE id = ?1");
/// Built-in templates are never changed or deleted.
const TEMPLATE_UPDATE: Sql = sql!(
    "UPDATE email_templates SET name = ?2, category = ?3, subject = ?4, body = ?5
     WHERE id = ?1 AND NOT is_builtin"
);
const TEMPLATE_DELETE: Sql = sql!("DELETE FROM email_templates WHERE id = ?1 AND NOT is_builtin");
const TEMPLATE_IN_USE: Sql = sql!("SELECT COUNT(*) FROM campaigns WHERE template_id = ?1");
/// A single campaign's message and audience, set when it is sent.
const CAMPAIGN_CONTENT_SET: Sql =
    sql!("UPDATE campaigns SET subject = ?2, target_filters = ?3, body = ?4 WHERE id = ?1");
/// A page of an audience (?1..?5, as the send reads it), by name; ?6 limit, ?7 offset.
macro_rules! audience_page {
    ($d:ident) => {
        concat!(
            "SELECT c.id, c.first_name, c.last_name, c.email, c.score, c.status, co.name AS company_name
             FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE ",
            audience!($d),
            " ORDER BY lower(c.last_name), lower(c.first_name), c.id LIMIT ?6 OFFSET ?7"
        )
    };
}
const AUDIENCE_PAGE: Sql = per_dialect!(audience_page);

/// One contact of an audience, as the campaign dialog's pick list shows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AudienceMember {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub score: i32,
    pub status: String,
    pub company_name: Option<String>,
}

impl Db {
    /// The contacts an audience selects (the same filter the send applies), a page at a time.
    pub async fn audience_page(
        &self,
        a: &Audience,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<AudienceMember>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(AUDIENCE_PAGE),
            a.score_min,
            a.score_max,
            a.statuses_json(),
            a.states_json(),
            a.ids_json(),
            limit,
            offset
        )
    }
    /// The campaign's own body, when it was written in the composer.
    pub async fn campaign_body(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let body: Option<Option<String>> =
            fetch!(self, fetch_optional, query_scalar(CAMPAIGN_BODY_GET), id)?;
        Ok(body.flatten())
    }
    /// Changes a saved template; false when it does not exist or is built in.
    pub async fn template_update(&self, t: &TemplateRow) -> Result<bool, sqlx::Error> {
        let n = exec!(
            self,
            TEMPLATE_UPDATE,
            &t.id,
            &t.name,
            &t.category,
            &t.subject,
            &t.body
        )?;
        Ok(n > 0)
    }
    /// Whether a campaign started from the template (it then stays, for that campaign's record).
    pub async fn template_in_use(&self, id: &str) -> Result<bool, sqlx::Error> {
        let n: i64 = fetch!(self, fetch_one, query_scalar(TEMPLATE_IN_USE), id)?;
        Ok(n > 0)
    }
    /// Gives a campaign its subject, body and audience (a single campaign sent as a bulk send).
    pub async fn campaign_content_set(
        &self,
        id: &str,
        subject: &str,
        filters: &serde_json::Value,
        body: &str,
    ) -> Result<(), sqlx::Error> {
        let filters = Json(filters);
        exec!(self, CAMPAIGN_CONTENT_SET, id, subject, &filters, body).map(|_| ())
    }
    /// Deletes a saved template; false when it does not exist or is built in.
    pub async fn template_delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        Ok(exec!(self, TEMPLATE_DELETE, id)? > 0)
    }
}

impl Tx {
    pub async fn campaign_body_set(&mut self, id: &str, body: &str) -> Result<(), sqlx::Error> {
        exec_tx!(self, CAMPAIGN_BODY_SET, id, body).map(|_| ())
    }
}
