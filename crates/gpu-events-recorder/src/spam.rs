//! The optional per-object spam filter: a token bucket per regarding object and event type, as
//! client-go's `EventSourceObjectSpamFilter` (tools/record/events_cache.go: burst 25, one token
//! per 5 minutes). It only meters *new* events: repeats of a live series cost no request here,
//! so they are never refused.

use std::time::Duration;

use chrono::{DateTime, Utc};
use lru::LruCache;

use crate::object_key::ObjectKey;
use gpu_events_core::EventType;

/// Settings of the spam filter (see [`RecorderBuilder::spam_filter`](crate::RecorderBuilder::spam_filter)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpamFilter {
    /// New events allowed at once per object and type.
    pub burst: u32,
    /// One more is allowed after each such interval.
    pub refill_every: Duration,
}

impl SpamFilter {
    /// client-go's defaults: a burst of 25, then one event per 5 minutes per object and type.
    pub const fn client_go() -> Self {
        SpamFilter { burst: 25, refill_every: Duration::from_secs(300) }
    }
}

impl Default for SpamFilter {
    fn default() -> Self {
        Self::client_go()
    }
}

struct Bucket {
    tokens: f64,
    at: DateTime<Utc>,
}

/// Buckets for the most recently seen objects (as many as the series cache holds).
pub(crate) struct SpamFilterState {
    filter: SpamFilter,
    buckets: LruCache<(ObjectKey, EventType), Bucket>,
    capacity: usize,
}

impl SpamFilterState {
    pub(crate) fn new(filter: SpamFilter, capacity: usize) -> Self {
        // Unbounded with a cap of our own: nothing preallocated for a large capacity.
        SpamFilterState { filter, buckets: LruCache::unbounded(), capacity: capacity.max(1) }
    }

    /// Takes a token for a new event about `object`; false when the bucket is empty.
    pub(crate) fn allow(&mut self, object: &ObjectKey, event_type: &EventType, now: DateTime<Utc>) -> bool {
        let burst = f64::from(self.filter.burst);
        let per_second = 1.0 / self.filter.refill_every.as_secs_f64().max(f64::MIN_POSITIVE);
        let bucket =
            self.buckets.get_or_insert_mut((object.clone(), event_type.clone()), || Bucket { tokens: burst, at: now });
        let elapsed = (now - bucket.at).to_std().map(|d| d.as_secs_f64()).unwrap_or(0.0);
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(burst);
        bucket.at = bucket.at.max(now);
        let allowed = bucket.tokens >= 1.0;
        if allowed {
            bucket.tokens -= 1.0;
        }
        while self.buckets.len() > self.capacity {
            self.buckets.pop_lru();
        }
        allowed
    }
}
