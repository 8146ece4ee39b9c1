//! The series cache: one entry per live event key, bounded, with no I/O. Every decision about
//! when to write (create, series start, heartbeat, final write, eviction) is taken here, under
//! one short lock, and handed to the workers as [`Job`]s.
//!
//! An entry that leaves the live set (evicted, or its series went quiet) while the server lacks
//! some of its count, or while a write of it is in flight, moves to the *finishing* set until
//! that count is written: no accepted occurrence is lost to eviction.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use lru::LruCache;

use gpu_events_core::EventType;

use crate::event::EventSpec;
use crate::object_key::ObjectKey;
use crate::spam::SpamFilterState;
use crate::{Dropped, SpamFilter};

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
    pub(crate) fn new(regarding: ObjectKey, related: Option<ObjectKey>, spec: EventSpec) -> Key {
        Key {
            regarding,
            related,
            reason: spec.reason,
            action: spec.action,
            event_type: spec.event_type.clone(),
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

/// One series: only what later writes need.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    key: Arc<Key>,
    name: String,
    namespace: String,
    field_path: Option<String>,
    first: DateTime<Utc>,
    last_observed: DateTime<Utc>,
    last_write: DateTime<Utc>,
    count: u32,
    written: u32,
    stage: Stage,
    /// A write for this event is queued or in flight (one at a time, so counts arrive in order).
    busy: bool,
    /// The last write was refused or failed: no eager write until a flush, a heartbeat or the
    /// final write (a missing `patch` permission must not cost a request per repeat).
    failed: bool,
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

/// A write for the workers, refreshed from its entry just before it is sent (so a queued write
/// reports the latest count).
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) kind: JobKind,
    pub(crate) key: Arc<Key>,
    pub(crate) snapshot: Snapshot,
}

/// What a publish did to the cache.
#[derive(Debug)]
pub(crate) enum Observed {
    /// A new key: the create to queue.
    New(Job),
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
    /// The API server's event TTL: a finishing entry older than this is gone from the server.
    pub(crate) ttl: chrono::Duration,
}

pub(crate) struct Cache {
    /// Live series, least recently observed first out.
    live: LruCache<Arc<Key>, Entry>,
    /// Series out of the live set whose last count is not written yet, by event name.
    finishing: LruCache<String, Entry>,
    capacity: usize,
    /// Cap of the finishing set: every finishing series has a write queued or in flight, so the
    /// queue's capacity plus the workers bound it; beyond that (writes that keep failing), the
    /// oldest count is given up and counted.
    finishing_capacity: usize,
    spam: Option<SpamFilterState>,
    timing: Timing,
    /// Occurrences given up: a finishing entry pushed out by the cap, or expired unwritten.
    pub(crate) lost: u64,
}

impl Cache {
    pub(crate) fn new(capacity: usize, in_flight: usize, spam: Option<SpamFilter>, timing: Timing) -> Cache {
        Cache {
            // Unbounded maps with a cap of our own: nothing is preallocated for `capacity`.
            live: LruCache::unbounded(),
            finishing: LruCache::unbounded(),
            capacity: capacity.max(1),
            finishing_capacity: capacity.max(1).saturating_add(in_flight),
            spam: spam.map(|f| SpamFilterState::new(f, capacity)),
            timing,
            lost: 0,
        }
    }

    /// Series held: live and finishing.
    pub(crate) fn len(&self) -> usize {
        self.live.len() + self.finishing.len()
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
        if let Some(entry) = self.live.get_mut(&key) {
            entry.count = entry.count.saturating_add(1);
            // A clock that went back must not put the last observation before the first.
            entry.last_observed = entry.last_observed.max(now);
            if entry.stage == Stage::Created && entry.written < 2 && !entry.busy && !entry.failed {
                entry.busy = true;
                return Observed::SeriesStart(entry.job(JobKind::Series), entry.count);
            }
            return Observed::Counted(entry.count);
        }
        if let Some(spam) = &mut self.spam
            && !spam.allow(&key.regarding, &key.event_type, now)
        {
            return Observed::Dropped(Dropped::SpamFilter);
        }
        let key = Arc::new(key);
        let entry = Entry {
            key: key.clone(),
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
            failed: false,
        };
        let job = entry.job(JobKind::Create);
        self.live.push(key, entry);
        Observed::New(job)
    }

    /// Undo a new key whose create could not be queued.
    pub(crate) fn forget(&mut self, key: &Key) {
        self.live.pop(key);
    }

    /// After a new key was queued: if the live set is over its cap, its least recently observed
    /// series leaves it. Returns whether one left, and the write its unwritten count needs.
    pub(crate) fn make_room(&mut self) -> (bool, Option<Job>) {
        if self.live.len() <= self.capacity {
            return (false, None);
        }
        let Some((_, entry)) = self.live.pop_lru() else { return (false, None) };
        (true, self.finish(entry))
    }

    /// Moves an entry out of the live set: to the finishing set when a write is in flight or some
    /// count is unwritten (returning that write when none is in flight), else it is done.
    fn finish(&mut self, mut entry: Entry) -> Option<Job> {
        let pending = entry.stage == Stage::Creating || entry.count > entry.written;
        if !entry.busy && !pending {
            return None;
        }
        let job = (!entry.busy).then(|| {
            entry.busy = true;
            entry.job(JobKind::Series)
        });
        if let Some((_, pushed_out)) = self.finishing.push(entry.name.clone(), entry) {
            // Same name twice cannot happen (names are unique); keep the accounting honest anyway.
            self.lost += u64::from(pushed_out.count.saturating_sub(pushed_out.written));
        }
        while self.finishing.len() > self.finishing_capacity {
            if let Some((_, old)) = self.finishing.pop_lru() {
                self.lost += u64::from(old.count.saturating_sub(old.written));
            }
        }
        job
    }

    fn find_mut(&mut self, job: &Job) -> Option<&mut Entry> {
        let name = &job.snapshot.name;
        match self.live.peek_mut(&job.key) {
            Some(entry) if entry.name == *name => Some(entry),
            _ => self.finishing.peek_mut(name),
        }
    }

    /// A write that could not be queued: the next flush or sweep will send it.
    pub(crate) fn unbusy(&mut self, job: &Job) {
        if let Some(entry) = self.find_mut(job) {
            entry.busy = false;
        }
    }

    /// The latest count of a job's event, just before a worker sends it.
    pub(crate) fn refresh(&mut self, job: &mut Job) {
        if let Some(entry) = self.find_mut(job) {
            job.snapshot = entry.snapshot();
        }
    }

    /// The server now has `job.snapshot.count` occurrences. Returns the follow-up write when
    /// more arrived meanwhile and should be sent now: the series start of a live event, or the
    /// rest of a finishing one.
    pub(crate) fn written(&mut self, job: &Job, now: DateTime<Utc>) -> Option<Job> {
        let finishing = self.live.peek(&job.key).is_none_or(|e| e.name != job.snapshot.name);
        let entry = self.find_mut(job)?;
        entry.stage = Stage::Created;
        entry.written = entry.written.max(job.snapshot.count);
        entry.last_write = now;
        entry.failed = false;
        let more = entry.count > entry.written;
        if more && (finishing || entry.written < 2) {
            return Some(entry.job(JobKind::Series));
        }
        entry.busy = false;
        if finishing && !more {
            self.finishing.pop(&job.snapshot.name);
        }
        None
    }

    /// A write failed for good: a failed create forgets the event (the next publish tries again);
    /// a failed series write keeps its count for the next flush, heartbeat or final write.
    pub(crate) fn failed(&mut self, job: &Job) {
        let Some(entry) = self.find_mut(job) else { return };
        if entry.stage == Stage::Creating {
            let lost = entry.count.saturating_sub(1);
            self.lost += u64::from(lost);
            if self.live.peek(&job.key).is_some_and(|e| e.name == job.snapshot.name) {
                self.live.pop(&job.key);
            } else {
                self.finishing.pop(&job.snapshot.name);
            }
        } else {
            entry.busy = false;
            entry.failed = true;
        }
    }

    /// The event of a job was renamed (its name was taken by another event).
    pub(crate) fn renamed(&mut self, job: &Job, new_name: &str) {
        let in_live = self.live.peek(&job.key).is_some_and(|e| e.name == job.snapshot.name);
        if in_live {
            if let Some(entry) = self.live.peek_mut(&job.key) {
                entry.name = new_name.to_owned();
            }
        } else if let Some(mut entry) = self.finishing.pop(&job.snapshot.name) {
            entry.name = new_name.to_owned();
            self.finishing.push(new_name.to_owned(), entry);
        }
    }

    /// The timed work at `now`: heartbeats for long series, final writes for quiet ones (which
    /// leave the live set), retries of finishing ones. O(series); run on a timer, never on publish.
    pub(crate) fn sweep(&mut self, now: DateTime<Utc>) -> Vec<Job> {
        let timing = self.timing;
        let mut jobs = Vec::new();
        let mut quiet = Vec::new();
        for (key, entry) in self.live.iter_mut() {
            if entry.busy || entry.stage != Stage::Created {
                continue;
            }
            if now - entry.last_observed >= timing.quiet {
                quiet.push(key.clone());
            } else if entry.count > entry.written && now - entry.last_write >= timing.heartbeat {
                entry.busy = true;
                jobs.push(entry.job(JobKind::Series));
            }
        }
        for key in quiet {
            if let Some(entry) = self.live.pop(&key)
                && let Some(job) = self.finish(entry)
            {
                jobs.push(job);
            }
        }
        let mut expired = Vec::new();
        for (name, entry) in self.finishing.iter_mut() {
            if entry.busy {
                continue;
            }
            if now - entry.last_write >= timing.ttl {
                expired.push(name.clone());
            } else if now - entry.last_write >= timing.heartbeat.min(timing.quiet) {
                entry.busy = true;
                jobs.push(entry.job(JobKind::Series));
            }
        }
        for name in expired {
            if let Some(entry) = self.finishing.pop(&name) {
                self.lost += u64::from(entry.count.saturating_sub(entry.written));
            }
        }
        jobs
    }

    /// Every series with counts the server does not have yet (for a flush), failed ones included.
    pub(crate) fn unwritten(&mut self) -> Vec<Job> {
        let mut jobs = Vec::new();
        let entries = self.live.iter_mut().map(|(_, e)| e).chain(self.finishing.iter_mut().map(|(_, e)| e));
        for entry in entries {
            if !entry.busy && entry.stage == Stage::Created && entry.count > entry.written {
                entry.busy = true;
                jobs.push(entry.job(JobKind::Series));
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

    fn job(&self, kind: JobKind) -> Job {
        Job { kind, key: self.key.clone(), snapshot: self.snapshot() }
    }
}
