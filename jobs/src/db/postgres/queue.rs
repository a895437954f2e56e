//! The queue's wake-up channel and its batch finish over arrays, which only Postgres has.

use sqlx::PgConnection;

use crate::db::{Finish, JobFinishBatch};

/// The LISTEN/NOTIFY channel; the payload is the job kind.
pub const JOBS_CHANNEL: &str = "prospector_jobs";

/// Differs: only Postgres has a channel to wake the workers of other processes.
pub async fn job_notify(conn: &mut PgConnection, kind: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(JOBS_CHANNEL)
        .bind(kind)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Differs: the batch's successes are finished in one statement over arrays (the common case of
/// a busy queue); SQLite reads them from a JSON array.
pub async fn job_succeed_many(
    conn: &mut PgConnection,
    p: &JobFinishBatch<'_>,
) -> Result<(), sqlx::Error> {
    let (ids, results): (Vec<&str>, Vec<Option<String>>) = p
        .items
        .iter()
        .filter_map(|i| match &i.finish {
            Finish::Succeeded { result } => {
                Some((i.id.as_str(), result.as_ref().map(|r| r.to_string())))
            }
            _ => None,
        })
        .unzip();
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE jobs SET status = 'succeeded', finished_at = $2, result = v.result::jsonb, error = NULL,
                progress_percent = CASE WHEN progress_percent IS NULL THEN NULL ELSE 100 END
         FROM unnest($3::text[], $4::text[]) AS v(id, result)
         WHERE jobs.id = v.id AND jobs.status = 'running' AND jobs.locked_by = $1",
    )
    .bind(p.worker_id)
    .bind(p.now)
    .bind(&ids)
    .bind(&results)
    .execute(conn)
    .await
    .map(|_| ())
}
