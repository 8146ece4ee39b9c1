//! The exporter's counters: one set, which the exporter increments and everything else reads.
//!
//! [`Metrics`](crate::Metrics) holds an `Arc` of these and renders them when `/metrics` is
//! scraped (it keeps no copy of its own), and whoever started the exporter reads the same
//! `Arc<ExporterStats>` (tests, an embedding program): an event is counted once, and both views
//! agree. A leaf module: it imports nothing from this crate, so the exporter, the metrics and the
//! watch loop can all use it.

use std::collections::BTreeMap;
use std::ops::Index;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// How many Event APIs a [`PerApi`] counter has a slot for (see
/// [`EventApi::index`](crate::watch::EventApi::index)).
pub const APIS: usize = 2;

/// A counter per Event API, indexed by [`EventApi::index`](crate::watch::EventApi::index)
/// (`stats.relists[0]`); [`PerApi::load`] is the total over both.
#[derive(Debug, Default)]
pub struct PerApi([AtomicU64; APIS]);

impl PerApi {
    /// The total over both APIs.
    pub fn load(&self, order: Ordering) -> u64 {
        self.0.iter().map(|c| c.load(order)).sum()
    }

    /// Adds `count` for API `api`; an index out of range is ignored.
    pub fn add(&self, api: usize, count: u64) {
        if let Some(counter) = self.0.get(api) {
            counter.fetch_add(count, Ordering::Relaxed);
        }
    }

    /// Each API's value, in index order.
    pub fn values(&self) -> [u64; APIS] {
        std::array::from_fn(|i| self.0[i].load(Ordering::Relaxed))
    }
}

impl Index<usize> for PerApi {
    type Output = AtomicU64;

    fn index(&self, api: usize) -> &AtomicU64 {
        &self.0[api]
    }
}

/// The labels of one `events_exported_total` series, `(name, value)` in exposition order
/// (`namespace` is left out entirely when that label is off).
pub type EventLabels = Vec<(&'static str, String)>;

/// No event exported yet (the newest event time).
const NEVER: i64 = i64::MIN;

/// The exporter's counters, the one source of its metrics (see the module docs).
#[derive(Debug)]
#[non_exhaustive]
pub struct ExporterStats {
    /// Records exported (new events and deltas).
    pub exported: AtomicU64,
    /// Records suppressed as replays or as the same Event through the other API.
    pub duplicates: AtomicU64,
    /// Watch restarts, per API.
    pub watch_restarts: PerApi,
    /// Lists, per API (the first list included).
    pub relists: PerApi,
    /// Lists and watches that failed, per API.
    pub watch_errors: PerApi,
    /// Re-lists after a 410 or a dead watch, per API: events may have been missed.
    pub gaps_suspected: PerApi,
    /// Streams whose checkpoint resourceVersion was newer than the server's, per API (re-listed,
    /// each also counted in `gaps_suspected`).
    pub checkpoints_ahead: PerApi,
    /// Checkpoints written.
    pub checkpoints: AtomicU64,
    /// Checkpoint writes that failed (retried at the next interval).
    pub checkpoint_failures: AtomicU64,
    /// When the last record was exported (seconds since the epoch, 0: never).
    pub last_export: AtomicU64,
    /// The newest event time exported, Unix milliseconds ([`NEVER`] before the first).
    newest_event: AtomicI64,
    /// Occurrences exported (`delta.occurrences`), per label set.
    occurrences: Mutex<BTreeMap<EventLabels, u64>>,
}

impl Default for ExporterStats {
    fn default() -> Self {
        ExporterStats {
            exported: AtomicU64::default(),
            duplicates: AtomicU64::default(),
            watch_restarts: PerApi::default(),
            relists: PerApi::default(),
            watch_errors: PerApi::default(),
            gaps_suspected: PerApi::default(),
            checkpoints_ahead: PerApi::default(),
            checkpoints: AtomicU64::default(),
            checkpoint_failures: AtomicU64::default(),
            last_export: AtomicU64::default(),
            newest_event: AtomicI64::new(NEVER),
            occurrences: Mutex::default(),
        }
    }
}

impl ExporterStats {
    /// Counts one exported record: `occurrences` more under `labels`, the newest event time moved
    /// forward to `event_millis` (Unix milliseconds) and the export time set to `now_secs`.
    pub fn record_exported(&self, labels: EventLabels, occurrences: u64, event_millis: i64, now_secs: u64) {
        *self.lock().entry(labels).or_default() += occurrences;
        self.exported.fetch_add(1, Ordering::Relaxed);
        self.newest_event.fetch_max(event_millis, Ordering::Relaxed);
        self.last_export.store(now_secs, Ordering::Relaxed);
    }

    /// Occurrences exported (the sum of `delta.occurrences`), over every label set.
    pub fn occurrences(&self) -> u64 {
        self.lock().values().sum()
    }

    /// Occurrences exported per label set, in label order.
    pub fn occurrences_by_labels(&self) -> Vec<(EventLabels, u64)> {
        self.lock().iter().map(|(labels, count)| (labels.clone(), *count)).collect()
    }

    /// The newest event time exported (Unix milliseconds), `None` before the first.
    pub fn newest_event_millis(&self) -> Option<i64> {
        Some(self.newest_event.load(Ordering::Relaxed)).filter(|&millis| millis != NEVER)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<EventLabels, u64>> {
        self.occurrences.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_api_counters_total_over_both_apis() {
        let counter = PerApi::default();
        counter.add(0, 2);
        counter.add(1, 3);
        counter.add(APIS, 100);
        assert_eq!(counter.load(Ordering::Relaxed), 5);
        assert_eq!(counter.values(), [2, 3]);
        assert_eq!(counter[1].load(Ordering::Relaxed), 3);
    }

    #[test]
    fn an_exported_record_is_counted_once_under_its_labels() {
        let stats = ExporterStats::default();
        assert_eq!(stats.newest_event_millis(), None);
        let labels = |reason: &str| vec![("reason", reason.to_owned())];
        stats.record_exported(labels("B"), 3, 2_000, 7);
        stats.record_exported(labels("A"), 1, 1_000, 8);
        stats.record_exported(labels("B"), 2, 1_500, 9);
        assert_eq!(stats.exported.load(Ordering::Relaxed), 3);
        assert_eq!(stats.occurrences(), 6);
        assert_eq!(stats.occurrences_by_labels(), [(labels("A"), 1), (labels("B"), 5)]);
        assert_eq!(stats.newest_event_millis(), Some(2_000), "the newest wins, whatever the order");
        assert_eq!(stats.last_export.load(Ordering::Relaxed), 9);
    }
}
