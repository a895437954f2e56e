//! SQLite's WAL checkpoints off the write path. By default the connection whose commit takes the
//! WAL past 1,000 pages copies them into the database file and syncs it before its `COMMIT`
//! returns; with one write connection, every write behind that one waits too (0.3–0.9 s write
//! stalls under `bench api`'s mixed load, docs/performance.md). So the write connection checkpoints
//! only as a backstop ([`BACKSTOP_PAGES`]), and a task of the pools checkpoints on a connection of
//! its own every [`EVERY`]: PASSIVE, so it never takes the write lock nor waits for a reader.

use std::time::Duration;

use sqlx::ConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;
use tokio::task::AbortHandle;

/// The write connection's `wal_autocheckpoint`: reached only when the task below has not run for a
/// while (it stopped, or readers held it back), so the WAL stays bounded (40 MB of 4 KiB pages).
pub(crate) const BACKSTOP_PAGES: u32 = 10_000;

/// How often the task checkpoints. One with nothing to copy reads the WAL's header and returns.
const EVERY: Duration = Duration::from_millis(250);

/// The checkpointing task; stopped when the pools are closed or the last of them is dropped.
#[derive(Debug)]
pub(crate) struct Checkpointer(AbortHandle);

impl Checkpointer {
    /// Opens the task's connection (no memory map: it only copies pages) and starts it.
    pub(crate) async fn start(options: &SqliteConnectOptions) -> Result<Self, sqlx::Error> {
        let mut conn = options.clone().pragma("mmap_size", "0").connect().await?;
        let task = tokio::spawn(async move {
            let mut every = tokio::time::interval(EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .execute(&mut conn)
                    .await
                {
                    tracing::warn!(error = %e, "SQLite WAL checkpoint failed; trying again");
                }
            }
        });
        Ok(Self(task.abort_handle()))
    }

    pub(crate) fn stop(&self) {
        self.0.abort();
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use crate::config::DatabaseUrl;
    use crate::db::Db;

    /// A write's pages reach the database file without any writer checkpointing: the write
    /// connection's own checkpoint waits for the backstop, the task copies them in its stead.
    #[tokio::test]
    async fn the_task_checkpoints_what_the_writer_commits() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let file = dir.path().join("cp.db");
        let url = DatabaseUrl::Sqlite(format!("sqlite://{}", file.display()));
        let db = Db::connect(&url, 2).await.unwrap_or_else(|e| panic!("{e}"));
        let Db::Sqlite(pools) = &db else {
            panic!("a SQLite url opens SQLite")
        };
        let backstop: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
            .fetch_one(pools.write())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(backstop, i64::from(super::BACKSTOP_PAGES));

        let before = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        sqlx::query("CREATE TABLE filler (b BLOB)")
            .execute(pools.write())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        // About 500 pages: under the backstop and under SQLite's default of 1,000.
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
             INSERT INTO filler SELECT randomblob(4000) FROM n",
        )
        .execute(pools.write())
        .await
        .unwrap_or_else(|e| panic!("{e}"));

        let mut grown = before;
        for _ in 0..40 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            grown = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            if grown >= before + 500 * 4000 {
                break;
            }
        }
        assert!(
            grown >= before + 500 * 4000,
            "the database file grew from {before} to {grown} bytes only"
        );
        db.close().await;
    }
}
