//! A short-lived cache for expensive reads: dashboard aggregates and list totals. An entry lives at
//! most `READ_CACHE_TTL_MS` and dies at once when a write succeeds through this api process, so a
//! user never sees their own change missing; writes made elsewhere (workers, other api processes)
//! show within the TTL.
//! One computation runs at a time, so a burst of identical requests costs one query.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use crate::AppState;
use crate::error::ApiResult;

/// Entries kept before the cache starts over (distinct filters are cheap to recompute).
const MAX_ENTRIES: usize = 1024;

pub struct ReadCache {
    ttl: Duration,
    generation: AtomicU64,
    entries: Mutex<HashMap<String, (u64, Instant, Value)>>,
    compute: tokio::sync::Mutex<()>,
}

impl ReadCache {
    /// A cache whose entries live `ttl` (zero: nothing is kept).
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            generation: AtomicU64::new(0),
            entries: Mutex::new(HashMap::new()),
            compute: tokio::sync::Mutex::new(()),
        }
    }

    /// Forgets everything (a write succeeded).
    pub fn bump(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    fn fresh(&self, key: &str) -> Option<Value> {
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.lock().ok()?;
        entries
            .get(key)
            .filter(|(g, at, _)| *g == generation && at.elapsed() < self.ttl)
            .map(|(_, _, v)| v.clone())
    }

    /// The cached value of `key`, or `compute`'s, stored for the next caller.
    pub async fn get_or_compute<F, Fut>(&self, key: String, compute: F) -> ApiResult<Value>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = ApiResult<Value>>,
    {
        if let Some(v) = self.fresh(&key) {
            return Ok(v);
        }
        let _one_at_a_time = self.compute.lock().await;
        if let Some(v) = self.fresh(&key) {
            return Ok(v);
        }
        // Read the generation before computing: a write during the computation makes it stale.
        let generation = self.generation.load(Ordering::Acquire);
        let value = compute().await?;
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
            entries.insert(key, (generation, Instant::now(), value.clone()));
        }
        Ok(value)
    }
}

/// Bumps the cache after every successful write request.
pub(crate) async fn bump_on_write(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let res = next.run(req).await;
    if write && res.status().is_success() {
        state.read_cache.bump();
    }
    res
}
