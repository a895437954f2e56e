//! The queue's batch finish of successes over a JSON array.

use sqlx::SqliteConnection;

use crate::db::{Finish, JobFinishBatch};

/// Differs: the batch's successes are finished in one statement over a JSON array of
/// `[id, result]` pairs (Postgres uses arrays). One statement instead of one per job keeps the
/// database's single write lock short, so claims wait less behind the outcome writer. The `+`
/// keeps the planner from reading the status index instead of looking each id up.
pub async fn job_succeed_many(
    conn: &mut SqliteConnection,
    p: &JobFinishBatch<'_>,
) -> Result<(), sqlx::Error> {
    let pairs: Vec<(&str, Option<String>)> = p
        .items
        .iter()
        .filter_map(|i| match &i.finish {
            Finish::Succeeded { result } => {
                Some((i.id.as_str(), result.as_ref().map(|r| r.to_string())))
            }
            _ => None,
        })
        .collect();
    if pairs.is_empty() {
        return Ok(());
    }
    let pairs = serde_json::to_string(&pairs).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query(
        "UPDATE jobs SET status = 'succeeded', finished_at = ?2, result = v.result, error = NULL,
                progress_percent = CASE WHEN progress_percent IS NULL THEN NULL ELSE 100 END
         FROM (SELECT value ->> 0 AS id, value ->> 1 AS result FROM json_each(?3)) AS v
         WHERE jobs.id = v.id AND +jobs.status = 'running' AND +jobs.locked_by = ?1",
    )
    .bind(p.worker_id)
    .bind(p.now)
    .bind(pairs)
    .execute(conn)
    .await
    .map(|_| ())
}
