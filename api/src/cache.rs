//! A short-lived cache for hot reads: dashboard aggregates, list totals and list pages (as the bytes
//! of the answer, so a hit costs a copy of a pointer, not a query and a serialisation). An entry is
//! fresh for `READ_CACHE_TTL_MS` and dies at once when a write succeeds through this api process, so a
//! user never sees their own change missing; writes made elsewhere (workers, other api processes)
//! show within the TTL and the time of one recomputation.
//!
//! A missing entry is computed by one request at a time (a burst of identical requests costs one
//! query). An entry past its TTL is recomputed by the first request that finds it, while the others
//! are still answered with it, so load never queues behind a recomputation.

use std::any::Any;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;
use crate::error::ApiResult;

/// Entries kept before the cache starts over (distinct filters are cheap to recompute).
const MAX_ENTRIES: usize = 1024;

struct Entry {
    generation: u64,
    stored: Instant,
    /// A request is recomputing this entry now.
    refreshing: bool,
    value: Arc<dyn Any + Send + Sync>,
}

enum Lookup<T> {
    Fresh(T),
    /// Past its TTL, and this caller recomputes it.
    Refresh,
    Missing,
}

pub struct ReadCache {
    ttl: Duration,
    generation: AtomicU64,
    entries: Mutex<HashMap<String, Entry>>,
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

    fn lookup<T: Clone + 'static>(&self, key: &str) -> Lookup<T> {
        let generation = self.generation.load(Ordering::Acquire);
        let Ok(mut entries) = self.entries.lock() else {
            return Lookup::Missing;
        };
        let Some(e) = entries.get_mut(key).filter(|e| e.generation == generation) else {
            return Lookup::Missing;
        };
        let Some(value) = e.value.downcast_ref::<T>().cloned() else {
            return Lookup::Missing;
        };
        if e.stored.elapsed() < self.ttl {
            Lookup::Fresh(value)
        } else if e.refreshing {
            // Someone recomputes it: answer with what there is meanwhile.
            Lookup::Fresh(value)
        } else {
            e.refreshing = true;
            Lookup::Refresh
        }
    }

    fn store<T: Send + Sync + 'static>(&self, key: String, generation: u64, value: T) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
            entries.insert(
                key,
                Entry {
                    generation,
                    stored: Instant::now(),
                    refreshing: false,
                    value: Arc::new(value),
                },
            );
        }
    }

    /// The cached value of `key`, or `compute`'s, stored for the next caller. A key holds one type
    /// of value; keys name their area (`contacts:page:…`).
    pub async fn get_or_compute<T, F, Fut>(&self, key: String, compute: F) -> ApiResult<T>
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce() -> Fut,
        Fut: Future<Output = ApiResult<T>>,
    {
        if self.ttl.is_zero() {
            return compute().await;
        }
        match self.lookup::<T>(&key) {
            Lookup::Fresh(v) => return Ok(v),
            Lookup::Refresh => {
                let generation = self.generation.load(Ordering::Acquire);
                let result = compute().await;
                match &result {
                    Ok(v) => self.store(key, generation, v.clone()),
                    // Let the next request try again.
                    Err(_) => {
                        if let Ok(mut entries) = self.entries.lock()
                            && let Some(e) = entries.get_mut(&key)
                        {
                            e.refreshing = false;
                        }
                    }
                }
                return result;
            }
            Lookup::Missing => {}
        }
        let _one_at_a_time = self.compute.lock().await;
        if let Lookup::Fresh(v) = self.lookup::<T>(&key) {
            return Ok(v);
        }
        // Read the generation before computing: a write during the computation makes it stale.
        let generation = self.generation.load(Ordering::Acquire);
        let value = compute().await?;
        self.store(key, generation, value.clone());
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stale_while_one_recomputes_never_after_a_write() {
        let cache = Arc::new(ReadCache::new(Duration::from_millis(30)));
        let get = |c: Arc<ReadCache>, v: i64, wait: u64| async move {
            c.get_or_compute("k".into(), || async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                Ok(v)
            })
            .await
            .unwrap()
        };
        assert_eq!(get(cache.clone(), 1, 0).await, 1);
        assert_eq!(get(cache.clone(), 2, 0).await, 1, "fresh: cached");
        tokio::time::sleep(Duration::from_millis(40)).await;
        // Past its TTL: the first caller recomputes (slowly), the next is answered at once.
        let refresh = tokio::spawn(get(cache.clone(), 3, 200));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let started = Instant::now();
        assert_eq!(get(cache.clone(), 4, 0).await, 1, "stale meanwhile");
        assert!(started.elapsed() < Duration::from_millis(100));
        assert_eq!(refresh.await.unwrap(), 3);
        assert_eq!(get(cache.clone(), 5, 0).await, 3);
        // A write: the old value is never served again, stale or not.
        cache.bump();
        assert_eq!(get(cache.clone(), 6, 0).await, 6);
    }
}
