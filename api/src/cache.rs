//! A short-lived cache for hot reads: dashboard aggregates, list totals and list pages (as the bytes
//! of the answer, so a hit costs a copy of a pointer, not a query and a serialisation). An entry is
//! fresh for `READ_CACHE_TTL_MS` and dies at once when a write succeeds through this api process, so a
//! user never sees their own change missing; writes made elsewhere (workers, other api processes)
//! show within the TTL and the time of one recomputation.
//!
//! A missing entry is computed once per key (a burst of identical requests costs one query; requests
//! for other keys never wait on it). An entry past its TTL is recomputed by the first request that
//! finds it, while the others are still answered with it, so load never queues behind a
//! recomputation. Entries live in a bounded `moka` cache, whose admission policy keeps the keys in
//! use when one-off keys flood in.

use std::any::Any;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;
use crate::error::ApiResult;

/// Entries kept (sessions, list pages, aggregates); the least used go first.
const MAX_ENTRIES: u64 = 10_000;
/// An entry nobody read for this long is dropped, stale or not.
const IDLE: Duration = Duration::from_secs(600);

struct Entry {
    generation: u64,
    stored: Instant,
    /// A request is recomputing this entry now.
    refreshing: AtomicBool,
    value: Arc<dyn Any + Send + Sync>,
}

enum Lookup<T> {
    Fresh(T),
    /// Past its TTL, and this caller recomputes it.
    Refresh,
    Missing,
}

/// One computation at a time for a key.
type Gate = Arc<tokio::sync::Mutex<()>>;

pub struct ReadCache {
    ttl: Duration,
    generation: AtomicU64,
    entries: moka::sync::Cache<String, Arc<Entry>>,
    /// Keys being computed now; an entry lives while its computation does.
    inflight: Mutex<HashMap<String, Gate>>,
}

impl ReadCache {
    /// A cache whose entries live `ttl` (zero: nothing is kept).
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            generation: AtomicU64::new(0),
            entries: moka::sync::Cache::builder()
                .max_capacity(MAX_ENTRIES)
                .time_to_idle(IDLE.max(ttl))
                .build(),
            inflight: Mutex::new(HashMap::new()),
        }
    }

    /// Forgets everything (a write succeeded).
    pub fn bump(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    fn lookup<T: Clone + 'static>(&self, key: &str) -> Lookup<T> {
        let generation = self.generation.load(Ordering::Acquire);
        let Some(e) = self.entries.get(key).filter(|e| e.generation == generation) else {
            return Lookup::Missing;
        };
        let Some(value) = e.value.downcast_ref::<T>().cloned() else {
            return Lookup::Missing;
        };
        if e.stored.elapsed() < self.ttl
            // Someone recomputes it: answer with what there is meanwhile.
            || e.refreshing.swap(true, Ordering::AcqRel)
        {
            Lookup::Fresh(value)
        } else {
            Lookup::Refresh
        }
    }

    fn store<T: Send + Sync + 'static>(&self, key: String, generation: u64, value: T) {
        self.entries.insert(
            key,
            Arc::new(Entry {
                generation,
                stored: Instant::now(),
                refreshing: AtomicBool::new(false),
                value: Arc::new(value),
            }),
        );
    }

    /// The cached value of `key`, or `compute`'s, stored for the next caller. A key holds one type
    /// of value; keys name their area (`contacts:page:…`).
    pub async fn get_or_compute<T, F, Fut>(&self, key: String, compute: F) -> ApiResult<T>
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce() -> Fut,
        Fut: Future<Output = ApiResult<T>>,
    {
        self.get_or_compute_kept(key, compute, |_| true).await
    }

    /// As [`Self::get_or_compute`], storing only the values `keep` accepts (a session lookup keeps
    /// the sessions it found, so made-up tokens take no room).
    pub async fn get_or_compute_kept<T, F, Fut>(
        &self,
        key: String,
        compute: F,
        keep: impl Fn(&T) -> bool,
    ) -> ApiResult<T>
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
                    Ok(v) if keep(v) => self.store(key, generation, v.clone()),
                    Ok(_) => self.entries.invalidate(&key),
                    // Let the next request try again.
                    Err(_) => {
                        if let Some(e) = self.entries.get(&key) {
                            e.refreshing.store(false, Ordering::Release);
                        }
                    }
                }
                return result;
            }
            Lookup::Missing => {}
        }
        let gate = self
            .inflight
            .lock()
            .map(|mut m| m.entry(key.clone()).or_default().clone())
            .unwrap_or_default();
        let _one_at_a_time = gate.lock().await;
        if let Lookup::Fresh(v) = self.lookup::<T>(&key) {
            return Ok(v);
        }
        // Read the generation before computing: a write during the computation makes it stale.
        let generation = self.generation.load(Ordering::Acquire);
        let result = compute().await;
        if let Ok(v) = &result
            && keep(v)
        {
            self.store(key.clone(), generation, v.clone());
        }
        // Waiters hold the gate already and will find the entry; later callers need no gate.
        if let Ok(mut m) = self.inflight.lock() {
            m.remove(&key);
        }
        result
    }
}

/// Bumps the cache after every successful write request.
pub(crate) async fn bump_on_write(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let write = crate::writes::is_write(req.method());
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

    /// Two keys computing at once: each waits for the other, which a lock shared by all keys would
    /// turn into a deadlock.
    #[tokio::test]
    async fn keys_compute_side_by_side_and_one_key_once() {
        let cache = Arc::new(ReadCache::new(Duration::from_secs(60)));
        let barrier = Arc::new(tokio::sync::Barrier::new(2));
        let both = |key: &'static str| {
            let (cache, barrier) = (cache.clone(), barrier.clone());
            tokio::spawn(async move {
                cache
                    .get_or_compute(key.into(), || async move {
                        barrier.wait().await;
                        Ok(key.len())
                    })
                    .await
                    .unwrap()
            })
        };
        let (a, b) = (both("a"), both("bb"));
        let done = tokio::time::timeout(Duration::from_secs(5), async {
            (a.await.unwrap(), b.await.unwrap())
        })
        .await;
        assert_eq!(
            done.ok(),
            Some((1, 2)),
            "the keys did not wait on each other"
        );

        // Twenty callers of one missing key: one computation.
        let calls = Arc::new(AtomicU64::new(0));
        let mut all = Vec::new();
        for _ in 0..20 {
            let (cache, calls) = (cache.clone(), calls.clone());
            all.push(tokio::spawn(async move {
                cache
                    .get_or_compute("same".into(), || async move {
                        calls.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        Ok(7)
                    })
                    .await
                    .unwrap()
            }));
        }
        for h in all {
            assert_eq!(h.await.unwrap(), 7);
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    /// Made-up session tokens are looked up every time and never push a real session out.
    #[tokio::test]
    async fn unknown_sessions_take_no_room() {
        let cache = ReadCache::new(Duration::from_secs(60));
        let lookup = |key: String, found: Option<i64>| {
            cache.get_or_compute_kept(key, move || async move { Ok(found) }, Option::is_some)
        };
        assert_eq!(
            lookup("session:real".into(), Some(1)).await.unwrap(),
            Some(1)
        );
        for i in 0..(MAX_ENTRIES * 2) {
            assert_eq!(
                lookup(format!("session:fake{i}"), None).await.unwrap(),
                None
            );
        }
        cache.entries.run_pending_tasks();
        assert_eq!(
            cache.entries.entry_count(),
            1,
            "only the real session is kept"
        );
        assert_eq!(
            lookup("session:real".into(), Some(2)).await.unwrap(),
            Some(1),
            "still cached"
        );
    }
}
