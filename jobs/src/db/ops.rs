//! What ops do to the queue besides retry and cancel: pause and resume a kind (a paused kind's jobs
//! wait; running ones finish), run a waiting job now, delete a job that is not running, and the bulk
//! forms over a kind and status (SQL in sqlite/ops.rs and postgres/ops.rs).

use super::*;

/// A bulk action: `retry` (failed, cancelled), `cancel` (waiting; running ones are asked to stop),
/// `delete` (finished) or `run_now` (waiting), over the jobs of `kind` and `status` (each optional).
pub struct JobBulk<'a> {
    pub action: &'a str,
    pub kind: Option<&'a str>,
    pub status: Option<&'a str>,
    pub now: i64,
}

impl Db {
    /// False when the kind was paused already.
    pub async fn kind_pause(
        &self,
        kind: &str,
        by: Option<&str>,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, kind_pause(kind, by, now))
    }
    /// False when the kind was not paused.
    pub async fn kind_resume(&self, kind: &str) -> Result<bool, sqlx::Error> {
        dispatch!(self, kind_resume(kind))
    }
    pub async fn kinds_paused(&self) -> Result<Vec<String>, sqlx::Error> {
        dispatch!(self, kinds_paused())
    }
    /// The job's kind when it was waiting and now is due.
    pub async fn job_run_now(&self, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, job_run_now(id, now))
    }
    /// The job's kind when it existed and was not running.
    pub async fn job_delete(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, job_delete(id))
    }
    /// Jobs changed (for `cancel`: cancelled plus asked to stop).
    pub async fn jobs_bulk(&self, b: &JobBulk<'_>) -> Result<u64, sqlx::Error> {
        dispatch!(self, jobs_bulk(b))
    }
}
