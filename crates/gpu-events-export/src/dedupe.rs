//! Count-preserving deduplication: a bounded watermark per event UID (the count already
//! exported and when), so a repeat becomes a delta, a replay (relist, restart, the same Event
//! seen through both APIs) is suppressed, and nothing is exported twice.

use std::hash::{BuildHasher, Hasher};
use std::num::NonZeroUsize;

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use lru::LruCache;
use serde::{Deserialize, Serialize};

use crate::record::Delta;

/// An event's identity: its UID as 128 bits (a UUID's own bits; any other string hashed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventId(u128);

impl EventId {
    /// The id of a record: its `eventUid`, else `eventNamespace/eventName`; `None` when it has
    /// neither (text inputs), which cannot be deduplicated.
    pub fn of(record: &EventRecord) -> Option<EventId> {
        if let Some(uid) = record.event_uid.as_deref().filter(|u| !u.is_empty()) {
            return Some(Self::from_uid(uid));
        }
        let name = record.event_name.as_deref()?;
        let namespace = record.event_namespace.as_deref().unwrap_or("");
        Some(EventId(hash128(&format!("{namespace}/{name}"))))
    }

    /// From a UID string.
    pub fn from_uid(uid: &str) -> EventId {
        let hex: String = uid.chars().filter(|c| *c != '-').collect();
        match (hex.len(), u128::from_str_radix(&hex, 16)) {
            (32, Ok(bits)) => EventId(bits),
            _ => EventId(hash128(uid)),
        }
    }
}

/// A 128-bit hash with fixed keys, the same in every run of a build (API server UIDs are UUIDs
/// and never take this path; it serves names of events that lack a UID).
fn hash128(text: &str) -> u128 {
    let half = |seed: u64| {
        let mut hasher =
            std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
        hasher.write_u64(seed);
        hasher.write(text.as_bytes());
        hasher.finish()
    };
    (u128::from(half(0x6770_752d_6576_656e)) << 64) | u128::from(half(0x7473_2d65_7870_6f72))
}

/// What is remembered of an exported event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    /// The count already exported.
    pub count: u64,
    /// When it was exported last.
    pub exported_at: DateTime<Utc>,
    /// Its latest observation then (to expire marks of events the API server has deleted).
    pub last_seen: Option<DateTime<Utc>>,
}

/// What to do with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Never exported: export it with all its occurrences.
    New(Delta),
    /// Exported before with a lower count: export the new occurrences.
    Repeat(Delta),
    /// Nothing new (a replay, or the same Event through the other API).
    Unchanged,
}

/// The watermarks, at most `capacity` (least recently updated evicted first).
pub struct Watermarks {
    /// Bounded by hand: `LruCache::new` would allocate its table for the whole capacity up front
    /// (about 17 MB for the default 500 000), so memory follows the marks actually held.
    marks: LruCache<EventId, Mark>,
    capacity: NonZeroUsize,
    evicted: u64,
}

impl std::fmt::Debug for Watermarks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watermarks").field("len", &self.marks.len()).field("evicted", &self.evicted).finish()
    }
}

impl Watermarks {
    /// Empty watermarks holding at most `capacity` events.
    pub fn new(capacity: NonZeroUsize) -> Self {
        Watermarks { marks: LruCache::unbounded(), capacity, evicted: 0 }
    }

    /// Decides what `record` adds, and remembers it as exported at `now` unless unchanged.
    /// Records without an id are always new.
    pub fn observe(&mut self, record: &EventRecord, now: DateTime<Utc>) -> Seen {
        let total = u64::from(record.count.max(1));
        let delta = |occurrences: u64, previous: Option<DateTime<Utc>>| Delta {
            occurrences,
            total,
            first_seen: record.first_timestamp,
            last_seen: record.last_timestamp,
            previous_export: previous,
        };
        let Some(id) = EventId::of(record) else { return Seen::New(delta(total, None)) };
        let mark = Mark { count: total, exported_at: now, last_seen: record.last_timestamp };
        match self.marks.get_mut(&id) {
            Some(seen) if total <= seen.count => Seen::Unchanged,
            Some(seen) => {
                let out = Seen::Repeat(delta(total - seen.count, Some(seen.exported_at)));
                *seen = mark;
                out
            }
            None => {
                if self.push(id, mark) {
                    self.evicted += 1;
                }
                Seen::New(delta(total, None))
            }
        }
    }

    /// Adds a mark, evicting the least recently used one when full; whether one was evicted.
    fn push(&mut self, id: EventId, mark: Mark) -> bool {
        let full = !self.marks.contains(&id) && self.marks.len() >= self.capacity.get();
        let evicted = full && self.marks.pop_lru().is_some();
        self.marks.push(id, mark);
        evicted
    }

    /// Forgets a deleted event.
    pub fn forget(&mut self, record: &EventRecord) {
        if let Some(id) = EventId::of(record) {
            self.marks.pop(&id);
        }
    }

    /// Drops the marks of events exported last before `cutoff`. Our own clock decides, not the
    /// event's timestamps (a cluster clock may be off): an event lives at most the API server's
    /// TTL after its last change, and we exported that change after it happened, so a cutoff of
    /// now minus the TTL (plus a margin) forgets only events the server has deleted.
    pub fn expire(&mut self, cutoff: DateTime<Utc>) -> usize {
        let old: Vec<EventId> = self.marks.iter().filter(|(_, m)| m.exported_at < cutoff).map(|(id, _)| *id).collect();
        for id in &old {
            self.marks.pop(id);
        }
        old.len()
    }

    /// Marks, oldest first (for a checkpoint).
    pub fn snapshot(&self) -> Vec<(EventId, Mark)> {
        self.marks.iter().rev().map(|(id, m)| (*id, *m)).collect()
    }

    /// Restores marks saved by [`snapshot`](Watermarks::snapshot).
    pub fn restore(&mut self, marks: impl IntoIterator<Item = (EventId, Mark)>) {
        for (id, mark) in marks {
            self.push(id, mark);
        }
    }

    /// How many events are remembered.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// Marks evicted because the cache was full (their events, if updated later, are exported
    /// again with their whole count).
    pub fn evicted(&self) -> u64 {
        self.evicted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_events_core::decode::Decoder;

    fn record(uid: &str, count: u32) -> EventRecord {
        let json = serde_json::json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "llama-0.1", "namespace": "ml", "uid": uid},
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
            "reason": "FailedScheduling", "type": "Warning", "count": count,
            "message": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            "firstTimestamp": "2026-12-01T10:00:00Z", "lastTimestamp": "2026-12-01T10:05:00Z"});
        Decoder::from_str(&json.to_string()).next().unwrap().unwrap()
    }

    #[test]
    fn repeats_are_deltas_and_replays_are_suppressed() {
        let now: DateTime<Utc> = "2026-12-01T10:06:00Z".parse().unwrap();
        let mut marks = Watermarks::new(NonZeroUsize::new(10).unwrap());
        let uid = "0b6c8f8e-7d1e-4a57-9a3c-2f1f7e0d9a10";
        let Seen::New(first) = marks.observe(&record(uid, 3), now) else { panic!() };
        assert_eq!((first.occurrences, first.total, first.previous_export), (3, 3, None));
        assert_eq!(marks.observe(&record(uid, 3), now), Seen::Unchanged);
        let Seen::Repeat(more) = marks.observe(&record(uid, 7), now) else { panic!() };
        assert_eq!((more.occurrences, more.total, more.previous_export), (4, 7, Some(now)));
        assert_eq!(marks.observe(&record(uid, 5), now), Seen::Unchanged, "a stale copy adds nothing");

        let saved = marks.snapshot();
        let mut again = Watermarks::new(NonZeroUsize::new(10).unwrap());
        again.restore(saved);
        assert_eq!(again.observe(&record(uid, 7), now), Seen::Unchanged);
        assert!(matches!(again.observe(&record(uid, 8), now), Seen::Repeat(Delta { occurrences: 1, .. })));
    }

    #[test]
    fn bounded_with_evictions_counted_and_expiry() {
        let now: DateTime<Utc> = "2026-12-01T10:06:00Z".parse().unwrap();
        let mut marks = Watermarks::new(NonZeroUsize::new(2).unwrap());
        for i in 0..5 {
            marks.observe(&record(&format!("uid-{i}"), 1), now);
        }
        assert_eq!((marks.len(), marks.evicted()), (2, 3));
        assert_eq!(marks.expire("2026-12-01T10:06:00Z".parse().unwrap()), 0, "exported at the cutoff: kept");
        assert_eq!(marks.expire("2026-12-01T10:06:01Z".parse().unwrap()), 2);
        assert!(marks.is_empty());
    }

    #[test]
    fn uuids_keep_their_bits_and_other_ids_hash_stably() {
        assert_eq!(EventId::from_uid("00000000-0000-0000-0000-00000000002a"), EventId(42));
        assert_eq!(EventId::from_uid("not-a-uuid"), EventId::from_uid("not-a-uuid"));
        assert_ne!(EventId::from_uid("a"), EventId::from_uid("b"));
    }
}
