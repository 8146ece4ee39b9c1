//! The series cache: one entry per live event key, bounded, with no I/O. Every decision about
//! when to write (create, series start, heartbeat, final write, eviction) is taken here, under
//! one short lock, and handed to the workers as [`Job`]s that carry what the write needs.

use std::num::NonZeroUsize;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::ObjectReference;
use lru::LruCache;

use crate::event::{EventSpec, EventType};
use crate::spam::SpamFilterState;
use crate::{Dropped, SpamFilter};

/// An object as the key sees it: never `resourceVersion` or `fieldPath`, which change without
/// the object changing (kube-rs's key includes them, so a changed resourceVersion breaks a series).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ObjectKey {
    pub(crate) kind: String,
    pub(crate) api_version: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    pub(crate) uid: Option<String>,
}

impl ObjectKey {
    pub(crate) fn of(reference: &ObjectReference) -> Option<ObjectKey> {
        let text = |s: &Option<String>| s.as_deref().filter(|s| !s.is_empty()).map(str::to_owned);
        Some(ObjectKey {
            kind: text(&reference.kind)?,
            api_version: text(&reference.api_version),
            namespace: text(&reference.namespace),
            name: text(&reference.name)?,
            uid: text(&reference.uid),
        })
    }

    pub(crate) fn reference(&self, field_path: Option<&str>) -> ObjectReference {
        ObjectReference {
            kind: Some(self.kind.clone()),
            api_version: self.api_version.clone(),
            namespace: self.namespace.clone(),
            name: Some(self.name.clone()),
            uid: self.uid.clone(),
            field_path: field_path.map(str::to_owned),
            resource_version: None,
        }
    }
}

/// What makes two publishes the same event. The note is part of it: the API server never lets a
/// note change (events.go `ValidateEventUpdate`), so a new note is a new event and a reader always
/// sees the latest one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) regarding: ObjectKey,
    pub(crate) related: Option<ObjectKey>,
    pub(crate) reason: std::borrow::Cow<'static, str>,
    pub(crate) action: std::borrow::Cow<'static, str>,
    pub(crate) event_type: EventType,
    pub(crate) note: String,
}

impl Key {
    pub(crate) fn new(regarding: ObjectKey, spec: EventSpec) -> Key {
        Key {
            regarding,
            related: spec.related.as_ref().and_then(ObjectKey::of),
            reason: spec.reason,
            action: spec.action,
            event_type: spec.event_type,
            note: spec.note,
        }
    }
}

/// Where an entry's event stands on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The create is queued or in flight.
    Creating,
    /// The server has the event with `written` occurrences.
    Created,
}

/// One live series: only what later writes need.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    name: String,
    namespace: String,
    field_path: Option<String>,
    first: DateTime<Utc>,
    last_observed: DateTime<Utc>,
    last_write: DateTime<Utc>,
    count: u32,
    written: u32,
    stage: Stage,
    /// A write for this key is queued or in flight (one at a time per key, so counts arrive in order).
    busy: bool,
}

/// What a write sends: the event's identity and the count it reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Snapshot {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) field_path: Option<String>,
    pub(crate) first: DateTime<Utc>,
    pub(crate) last_observed: DateTime<Utc>,
    pub(crate) count: u32,
}

/// Create the event, or update its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JobKind {
    Create,
    Series,
}

/// A write for the workers. `snapshot` is fresh when queued; a worker refreshes it from the entry
/// (if still cached) just before sending, so a queued write reports the latest count.
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) kind: JobKind,
    pub(crate) key: Arc<Key>,
    pub(crate) snapshot: Snapshot,
    /// The entry was removed when the job was made (final write of a quiet or evicted series).
    pub(crate) detached: bool,
}

/// What a publish did to the cache.
#[derive(Debug)]
pub(crate) enum Observed {
    /// A new key: the create to queue; `evicted` when a key left the full cache to make room,
    /// with `final_write` for its unwritten count.
    New { create: Job, evicted: bool, final_write: Option<Job> },
    /// The second occurrence of a created event: the series-start write to queue.
    SeriesStart(Job, u32),
    /// Counted in memory.
    Counted(u32),
    /// Refused before any write.
    Dropped(Dropped),
}

/// The timing rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// A series quiet for this long gets its final write and leaves the cache.
    pub(crate) quiet: chrono::Duration,
    /// A series with unwritten counts is written at least this often (below the API server's event TTL).
    pub(crate) heartbeat: chrono::Duration,
}

pub(crate) struct Cache {
    entries: LruCache<Arc<Key>, Entry>,
    spam: Option<SpamFilterState>,
    timing: Timing,
}

impl Cache {
    pub(crate) fn new(capacity: NonZeroUsize, spam: Option<SpamFilter>, timing: Timing) -> Cache {
        Cache { entries: LruCache::new(capacity), spam: spam.map(|f| SpamFilterState::new(f, capacity)), timing }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// One occurrence of `key` at `now`; `name` names the event if the key is new.
    pub(crate) fn observe(
        &mut self,
        key: Key,
        field_path: Option<&str>,
        namespace: &str,
        now: DateTime<Utc>,
        name: impl FnOnce(&Key) -> String,
    ) -> Observed {
        if let Some((shared_key, entry)) = self.entries.get_key_value_mut(&key) {
            entry.count = entry.count.saturating_add(1);
            entry.last_observed = now;
            if entry.stage == Stage::Created && entry.written < 2 && !entry.busy {
                entry.busy = true;
                let job =
                    Job { kind: JobKind::Series, key: shared_key.clone(), snapshot: entry.snapshot(), detached: false };
                return Observed::SeriesStart(job, entry.count);
            }
            return Observed::Counted(entry.count);
        }
        if let Some(spam) = &mut self.spam
            && !spam.allow(&key.regarding, key.event_type, now)
        {
            return Observed::Dropped(Dropped::SpamFilter);
        }
        let entry = Entry {
            name: name(&key),
            namespace: namespace.to_owned(),
            field_path: field_path.map(str::to_owned),
            first: now,
            last_observed: now,
            last_write: now,
            count: 1,
            written: 0,
            stage: Stage::Creating,
            busy: true,
        };
        let snapshot = entry.snapshot();
        let key = Arc::new(key);
        let evicted = self.entries.push(key.clone(), entry);
        let create = Job { kind: JobKind::Create, key, snapshot, detached: false };
        Observed::New {
            create,
            evicted: evicted.is_some(),
            final_write: evicted.and_then(|(old_key, old)| final_write(old_key, old)),
        }
    }

    /// Undo a new key whose create could not be queued.
    pub(crate) fn forget(&mut self, key: &Key) {
        self.entries.pop(key);
    }

    /// A queued series write could not be queued: the next flush or sweep will write it.
    pub(crate) fn unbusy(&mut self, key: &Key) {
        if let Some(entry) = self.entries.peek_mut(key) {
            entry.busy = false;
        }
    }

    /// The latest count of a job's key, just before a worker sends it.
    pub(crate) fn refresh(&self, job: &mut Job) {
        if job.detached {
            return;
        }
        if let Some(entry) = self.entries.peek(&job.key)
            && entry.name == job.snapshot.name
        {
            job.snapshot = entry.snapshot();
        }
    }

    /// The server now has `snapshot.count` occurrences. Returns the follow-up series-start write
    /// when more occurrences arrived during a create (the series has begun and should be seen).
    pub(crate) fn written(&mut self, job: &Job, now: DateTime<Utc>) -> Option<Job> {
        if job.detached {
            return None;
        }
        let entry = self.entries.peek_mut(&job.key).filter(|e| e.name == job.snapshot.name)?;
        entry.stage = Stage::Created;
        entry.written = entry.written.max(job.snapshot.count);
        entry.last_write = now;
        if entry.written < 2 && entry.count > entry.written {
            let snapshot = entry.snapshot();
            return Some(Job { kind: JobKind::Series, key: job.key.clone(), snapshot, detached: false });
        }
        entry.busy = false;
        None
    }

    /// A write failed for good: a failed create forgets the key (the next publish tries again); a
    /// failed series write leaves the count for the next flush or sweep.
    pub(crate) fn failed(&mut self, job: &Job) {
        if job.detached {
            return;
        }
        let Some(entry) = self.entries.peek_mut(&job.key).filter(|e| e.name == job.snapshot.name) else { return };
        if entry.stage == Stage::Creating {
            self.entries.pop(&job.key);
        } else {
            entry.busy = false;
        }
    }

    /// The event of a job was renamed (its name was taken by another event).
    pub(crate) fn renamed(&mut self, job: &Job, new_name: &str) {
        if let Some(entry) = self.entries.peek_mut(&job.key).filter(|e| e.name == job.snapshot.name) {
            entry.name = new_name.to_owned();
        }
    }

    /// The timed work at `now`: heartbeats for long series, final writes for quiet ones (which
    /// leave the cache). O(keys); run on a timer, never on publish.
    pub(crate) fn sweep(&mut self, now: DateTime<Utc>) -> Vec<Job> {
        let mut jobs = Vec::new();
        let mut quiet = Vec::new();
        for (key, entry) in self.entries.iter_mut() {
            if entry.busy || entry.stage != Stage::Created {
                continue;
            }
            if now - entry.last_observed >= self.timing.quiet {
                quiet.push(key.clone());
            } else if entry.count > entry.written && now - entry.last_write >= self.timing.heartbeat {
                entry.busy = true;
                jobs.push(Job { kind: JobKind::Series, key: key.clone(), snapshot: entry.snapshot(), detached: false });
            }
        }
        for key in quiet {
            if let Some((key, entry)) = self.entries.pop_entry(&key)
                && let Some(job) = final_write(key, entry)
            {
                jobs.push(job);
            }
        }
        jobs
    }

    /// Every series with counts the server does not have yet (for a flush).
    pub(crate) fn unwritten(&mut self) -> Vec<Job> {
        let mut jobs = Vec::new();
        for (key, entry) in self.entries.iter_mut() {
            if !entry.busy && entry.stage == Stage::Created && entry.count > entry.written {
                entry.busy = true;
                jobs.push(Job { kind: JobKind::Series, key: key.clone(), snapshot: entry.snapshot(), detached: false });
            }
        }
        jobs
    }
}

impl Entry {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            field_path: self.field_path.clone(),
            first: self.first,
            last_observed: self.last_observed,
            count: self.count,
        }
    }
}

/// The last write of an entry leaving the cache, if the server lacks some of its count. An entry
/// whose write is in flight is left to that write.
fn final_write(key: Arc<Key>, entry: Entry) -> Option<Job> {
    (entry.stage == Stage::Created && !entry.busy && entry.count > entry.written).then(|| Job {
        kind: JobKind::Series,
        key,
        snapshot: entry.snapshot(),
        detached: true,
    })
}
