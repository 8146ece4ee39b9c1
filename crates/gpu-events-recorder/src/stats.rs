//! Counters of what the recorder did, readable at any time with [`Recorder::stats`](crate::Recorder::stats).

use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of the recorder's counters since it was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Publish calls accepted (valid, and the recorder running).
    pub published: u64,
    /// Repeats counted in memory, with no request of their own.
    pub counted: u64,
    /// Events created (POST), including re-creates after a 404.
    pub creates: u64,
    /// Series writes (PATCH of `series` only).
    pub patches: u64,
    /// Re-creates after a series PATCH answered 404 (the event expired or was deleted).
    pub recreates: u64,
    /// Attempts retried after 429, 5xx or a transport error.
    pub retries: u64,
    /// Writes refused by the API server (validation, RBAC) and not retried.
    pub rejected: u64,
    /// Writes given up after the last retry.
    pub failed: u64,
    /// New events dropped because the queue was full (nothing of an accepted event is dropped:
    /// writes of known series wait for room).
    pub dropped_queue_full: u64,
    /// New events dropped by the spam filter.
    pub dropped_spam: u64,
    /// Keys evicted from the full cache (their pending count is written first).
    pub evicted: u64,
    /// Occurrences given up without reaching the server: a failed create's repeats, or a
    /// finished series whose last write kept failing until the event TTL.
    pub lost_occurrences: u64,
    /// Keys (event series) held in memory now, live or finishing.
    pub live_keys: u64,
    /// Write jobs queued or in flight now.
    pub pending_writes: u64,
}

impl Stats {
    /// Every request sent: creates and patches.
    pub fn writes(&self) -> u64 {
        self.creates + self.patches
    }

    /// Everything dropped.
    pub fn dropped(&self) -> u64 {
        self.dropped_queue_full + self.dropped_spam
    }
}

/// The live counters behind [`Stats`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) published: AtomicU64,
    pub(crate) counted: AtomicU64,
    pub(crate) creates: AtomicU64,
    pub(crate) patches: AtomicU64,
    pub(crate) recreates: AtomicU64,
    pub(crate) retries: AtomicU64,
    pub(crate) rejected: AtomicU64,
    pub(crate) failed: AtomicU64,
    pub(crate) dropped_queue_full: AtomicU64,
    pub(crate) dropped_spam: AtomicU64,
    pub(crate) evicted: AtomicU64,
    pub(crate) pending: AtomicU64,
}

impl Counters {
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self, live_keys: usize, lost_occurrences: u64) -> Stats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Stats {
            published: get(&self.published),
            counted: get(&self.counted),
            creates: get(&self.creates),
            patches: get(&self.patches),
            recreates: get(&self.recreates),
            retries: get(&self.retries),
            rejected: get(&self.rejected),
            failed: get(&self.failed),
            dropped_queue_full: get(&self.dropped_queue_full),
            dropped_spam: get(&self.dropped_spam),
            evicted: get(&self.evicted),
            lost_occurrences,
            live_keys: live_keys as u64,
            pending_writes: get(&self.pending),
        }
    }
}
