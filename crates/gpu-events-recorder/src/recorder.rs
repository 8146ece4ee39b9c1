//! [`Recorder`] and its [`RecorderBuilder`]: the publish side (validation, keys, the cache, the
//! queue), the sweeper, flush and shutdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use k8s_openapi::api::core::v1::ObjectReference;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::backend::{Backend, MemoryApi, Reporter};
use crate::cache::{Cache, Job, Key, Observed, Timing};
use crate::clock::{Clock, SystemClock};
use crate::error::{BuildError, InvalidEvent, PublishError, WriteError};
use crate::event::{IntoEvent, Publishable, SameKind, WithRelated};
use crate::name::event_name;
use crate::object_key::ObjectKey;
use crate::reporting::Reporting;
use crate::stats::{Counters, Stats};
use crate::validate::{is_dns_label, qualified_name_problem, short_field};
use crate::worker::{self, Envelope, RetryPolicy, Shared, nanos};
use crate::{SpamFilter, validate};

/// What a publish did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Published {
    /// A new event: its create is queued.
    Queued,
    /// Written to the API server (awaited publishes only).
    Written,
    /// A repeat of a live event, counted in memory as occurrence `count`; the count reaches the
    /// server with the series start (the second occurrence), a heartbeat, the final write of the
    /// series or a flush.
    Counted {
        /// Occurrences so far, this one included.
        count: u32,
    },
    /// Not written (counted in [`Stats`]).
    Dropped(Dropped),
}

/// Why a new event was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dropped {
    /// The write queue was full (see [`RecorderBuilder::queue_capacity`]).
    QueueFull,
    /// The object's spam-filter bucket was empty (see [`RecorderBuilder::spam_filter`]).
    SpamFilter,
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dropped::QueueFull => "the write queue is full",
            Dropped::SpamFilter => "the spam filter refused it",
        })
    }
}

/// Settings of a [`Recorder`]; start with [`Recorder::builder`].
///
/// Defaults: reportingInstance from `POD_NAME`, else `HOSTNAME`, else the controller's name
/// part; cluster-scoped objects' events in `default`; a queue of 1024 writes and 4 workers;
/// 4096 live keys; a series is finished after 6 minutes without a repeat and written at least
/// every 30 minutes while it lasts (client-go `tools/events`); a sweep every 10 seconds; the
/// system clock; [`RetryPolicy::default`]; no spam filter.
#[must_use]
pub struct RecorderBuilder {
    backend: Backend,
    controller: String,
    instance: Option<String>,
    cluster_namespace: String,
    queue_capacity: usize,
    workers: usize,
    max_keys: usize,
    quiet: Duration,
    heartbeat: Duration,
    event_ttl: Duration,
    sweep_interval: Duration,
    spam: Option<SpamFilter>,
    clock: Arc<dyn Clock>,
    retry: RetryPolicy,
}

impl std::fmt::Debug for RecorderBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecorderBuilder")
            .field("controller", &self.controller)
            .field("instance", &self.instance)
            .field("cluster_namespace", &self.cluster_namespace)
            .finish_non_exhaustive()
    }
}

impl RecorderBuilder {
    fn new(backend: Backend, reporting: Reporting) -> Self {
        RecorderBuilder {
            backend,
            controller: reporting.controller,
            instance: reporting.instance,
            cluster_namespace: "default".into(),
            queue_capacity: 1024,
            workers: 4,
            max_keys: 4096,
            quiet: Duration::from_secs(6 * 60),
            heartbeat: Duration::from_secs(30 * 60),
            event_ttl: Duration::from_secs(60 * 60),
            sweep_interval: Duration::from_secs(10),
            spam: None,
            clock: Arc::new(SystemClock),
            retry: RetryPolicy::default(),
        }
    }

    /// `reportingInstance`: which replica records (at most 128 bytes; the Pod name is usual). Overrides the
    /// instance of the [`Reporting`](crate::Reporting) the builder was made with.
    pub fn instance(mut self, instance: impl Into<String>) -> Self {
        self.instance = Some(instance.into());
        self
    }

    /// The namespace for events about cluster-scoped objects (GPUPool, GPUNode, Node): `default`
    /// (the default) or `kube-system`, the only two the API server accepts for them (events.go).
    /// Servers older than 1.23 (1.22.3, 1.21.6, 1.20.12) accept only `kube-system`.
    pub fn cluster_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.cluster_namespace = namespace.into();
        self
    }

    /// How many writes may wait; a new event that finds the queue full is dropped and counted.
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.queue_capacity = capacity;
        self
    }

    /// How many writes run at once.
    pub fn workers(mut self, workers: usize) -> Self {
        self.workers = workers;
        self
    }

    /// How many event series are kept in memory (at most 10 000 000; each holds its key, note
    /// included, so at most about 1.5 KB); the least recently seen leaves first and its
    /// unwritten count is still written. Size it above the number of series live at once: a
    /// series that left and repeats becomes a new event.
    pub fn max_keys(mut self, max_keys: usize) -> Self {
        self.max_keys = max_keys;
        self
    }

    /// A series without a repeat for this long is finished: its count is written and a later
    /// repeat starts a new event. Must be shorter than the event TTL.
    pub fn series_quiet_after(mut self, quiet: Duration) -> Self {
        self.quiet = quiet;
        self
    }

    /// A running series is written at least this often, so the API server's TTL never removes
    /// it. Must be shorter than the event TTL.
    pub fn heartbeat(mut self, heartbeat: Duration) -> Self {
        self.heartbeat = heartbeat;
        self
    }

    /// The API server's `--event-ttl` (1 hour by default; 3 hours on OpenShift).
    pub fn event_ttl(mut self, ttl: Duration) -> Self {
        self.event_ttl = ttl;
        self
    }

    /// How often the sweeper looks for due heartbeats and quiet series.
    pub fn sweep_interval(mut self, interval: Duration) -> Self {
        self.sweep_interval = interval;
        self
    }

    /// Meter new events per object and type (client-go's spam filter: [`SpamFilter::client_go`]).
    pub fn spam_filter(mut self, filter: SpamFilter) -> Self {
        self.spam = Some(filter);
        self
    }

    /// The clock for event times and the series timing (tests pass a [`ManualClock`](crate::ManualClock)).
    pub fn clock(mut self, clock: impl Clock) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    /// How writes are retried (a server's `Retry-After` is honoured, up to a minute).
    ///
    /// A kube `Client` built from a `Config` (`Client::try_default`) also retries 429, 503 and
    /// 504 itself, up to 15 times with backoff up to 1000 s, before the recorder sees an error;
    /// for the recorder's bounds to be the whole story, build the client from a `Config` with
    /// `default_retry = false`.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Checks the settings and starts the workers and the sweeper.
    ///
    /// # Errors
    /// [`BuildError`] when the reportingController is not a qualified name, the instance or the
    /// namespace is invalid, a setting is out of range, or no tokio runtime is running.
    pub fn build(self) -> Result<Recorder, BuildError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| BuildError::NoRuntime)?;
        if let Some(problem) = qualified_name_problem(&self.controller) {
            return Err(BuildError::ReportingController { value: self.controller, problem });
        }
        let instance = match self.instance {
            Some(instance) => {
                short_field("reportingInstance", &instance)
                    .map_err(|source| BuildError::ReportingInstance { value: instance.clone(), source })?;
                instance
            }
            None => default_instance(&self.controller),
        };
        // events.go: an Event about a cluster-scoped object must live in one of these.
        if !matches!(self.cluster_namespace.as_str(), "default" | "kube-system") {
            return Err(BuildError::ClusterNamespace(self.cluster_namespace));
        }
        let setting = |setting: &'static str, problem: &str| BuildError::Setting { setting, problem: problem.into() };
        if !(1..=MAX_KEYS).contains(&self.max_keys) {
            return Err(setting("max_keys", "must be between 1 and 10 000 000"));
        }
        if !(1..=MAX_QUEUE).contains(&self.queue_capacity) {
            return Err(setting("queue_capacity", "must be between 1 and 1 000 000"));
        }
        if self.spam.is_some_and(|f| f.burst == 0 || f.refill_every.is_zero()) {
            return Err(setting("spam_filter", "burst and refill_every must be above zero"));
        }
        if !(1..=1024).contains(&self.workers) {
            return Err(setting("workers", "must be between 1 and 1024"));
        }
        if self.heartbeat.is_zero() || self.heartbeat >= self.event_ttl {
            return Err(setting("heartbeat", "must be above zero and shorter than the event TTL"));
        }
        if self.quiet.is_zero() || self.quiet >= self.event_ttl {
            return Err(setting("series_quiet_after", "must be above zero and shorter than the event TTL"));
        }
        if self.sweep_interval.is_zero() {
            return Err(setting("sweep_interval", "must be above zero"));
        }
        let to_chrono = |d: Duration| chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX);
        let timing = Timing {
            quiet: to_chrono(self.quiet),
            heartbeat: to_chrono(self.heartbeat),
            ttl: to_chrono(self.event_ttl),
        };

        let shared = Arc::new(Shared {
            cache: Mutex::new(Cache::new(self.max_keys, self.queue_capacity + self.workers, self.spam, timing)),
            backend: self.backend,
            reporter: Reporter { controller: self.controller, instance },
            counters: Counters::default(),
            clock: self.clock,
            retry: self.retry,
            idle: tokio::sync::Notify::new(),
        });
        let (tx, rx) = mpsc::channel(self.queue_capacity);
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        let workers = (0..self.workers).map(|_| runtime.spawn(worker::run(shared.clone(), rx.clone()))).collect();
        let inner = Arc::new(Inner {
            shared,
            tx: Mutex::new(Some(tx)),
            cluster_namespace: self.cluster_namespace,
            workers: Mutex::new(workers),
            sweeper: Mutex::new(None),
            shut_down: AtomicBool::new(false),
        });
        let sweeper = runtime.spawn(sweep_loop(Arc::downgrade(&inner), self.sweep_interval));
        *lock(&inner.sweeper) = Some(sweeper);
        Ok(Recorder { inner })
    }
}

/// `details` back when `K`, the object's type, has the API group of the reason's type (always, unless `K` was
/// declared [`SameKind`] by hand); the kind is checked with the catalogue's kinds when the event is observed.
fn same_group<K, D>(details: D) -> Result<D, PublishError>
where
    K: SameKind<D::Regarding>,
    D: Publishable,
{
    use kube::Resource;
    let (expected, group) = (D::Regarding::group(&()), K::group(&()));
    if expected == group {
        return Ok(details);
    }
    let reason = details.into_event()?.reason.into_owned();
    let (kind, expected, group) = (K::kind(&()).into_owned(), expected.into_owned(), group.into_owned());
    Err(InvalidEvent::WrongGroup { reason, kind, expected, group }.into())
}

/// The most keys a recorder may hold (about 1.5 KB each at most).
const MAX_KEYS: usize = 10_000_000;
/// The longest write queue.
const MAX_QUEUE: usize = 1_000_000;

/// `POD_NAME`, else `HOSTNAME`, else the controller's name part, cut to 128 bytes.
fn default_instance(controller: &str) -> String {
    let from_env = ["POD_NAME", "HOSTNAME"].iter().find_map(|var| std::env::var(var).ok().filter(|v| !v.is_empty()));
    let mut instance = from_env.unwrap_or_else(|| controller.rsplit('/').next().unwrap_or(controller).to_owned());
    if instance.len() > validate::FIELD_LIMIT {
        let mut end = validate::FIELD_LIMIT;
        while !instance.is_char_boundary(end) {
            end -= 1;
        }
        instance.truncate(end);
    }
    instance
}

/// Kinds that are always namespaced (core and TensorFusion); one without a namespace is a
/// mistake, not a cluster-scoped object.
const NAMESPACED_KINDS: &[&str] = &[
    "Pod",
    "Job",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "PersistentVolumeClaim",
    "TensorFusionWorkload",
    "TensorFusionConnection",
    "GPUResourceQuota",
    "WorkloadProfile",
];

/// Waits for the write a publish queued.
async fn wait_for(
    published: Result<Published, PublishError>,
    rx: oneshot::Receiver<Result<(), WriteError>>,
    timeout: Duration,
) -> Result<Published, PublishError> {
    match published? {
        Published::Queued => {}
        Published::Dropped(dropped) => return Err(PublishError::Dropped(dropped)),
        other => return Ok(other),
    }
    match tokio::time::timeout(timeout, rx).await {
        Ok(Ok(Ok(()))) => Ok(Published::Written),
        Ok(Ok(Err(err))) => Err(PublishError::Write(err)),
        Ok(Err(_)) => Err(PublishError::Shutdown),
        Err(_) => Err(PublishError::Timeout(timeout)),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Inner {
    shared: Arc<Shared>,
    /// `None` once shut down: the workers finish the queue and stop.
    tx: Mutex<Option<mpsc::Sender<Envelope>>>,
    cluster_namespace: String,
    workers: Mutex<Vec<JoinHandle<()>>>,
    sweeper: Mutex<Option<JoinHandle<()>>>,
    shut_down: AtomicBool,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(sweeper) = lock(&self.sweeper).take() {
            sweeper.abort();
        }
    }
}

/// Sweeps on a timer until the recorder is gone.
async fn sweep_loop(inner: Weak<Inner>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        Recorder { inner }.sweep();
    }
}

/// Records typed events through the events.k8s.io/v1 API, correctly and cheaply. Cheap to clone;
/// clones share everything. Put one in your controller's context.
///
/// * [`publish`](Recorder::publish) never blocks and never does I/O: it validates, counts
///   repeats in memory and queues the writes a worker sends.
/// * A new event is one create; its second occurrence one series PATCH (only `series` in the
///   body); later repeats are counted in memory and written by a heartbeat (at most every 30
///   minutes), when the series goes quiet (6 minutes) or on [`flush`](Recorder::flush).
/// * The note is part of an event's identity: a changed note is a new event, never hidden
///   behind a stale one.
///
/// RBAC: `create` and `patch` on `events.k8s.io` `events`, plus `get` (to tell a lost answer
/// from a name collision on 409), in the objects' namespaces and the cluster namespace.
#[derive(Clone)]
pub struct Recorder {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("reporting_controller", &self.inner.shared.reporter.controller)
            .field("reporting_instance", &self.inner.shared.reporter.instance)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Recorder {
    /// A builder for a recorder writing through `client` as `reporter`: the reportingController's name (a
    /// qualified name such as `tensor-fusion.ai/my-controller`, checked by [`RecorderBuilder::build`]), or a
    /// [`Reporting`](crate::Reporting) or kube's `kube::runtime::events::Reporter` (controller and instance).
    pub fn builder(client: kube::Client, reporter: impl Into<Reporting>) -> RecorderBuilder {
        RecorderBuilder::new(Backend::Kube(client), reporter.into())
    }

    pub(crate) fn memory_builder(api: Arc<MemoryApi>, reporter: Reporting) -> RecorderBuilder {
        RecorderBuilder::new(Backend::Memory(api), reporter)
    }

    /// Publishes typed details on the object they are about; the compiler checks the kind
    /// (`GangMembersWaiting` needs a `Pod`, `NodeCreated` a [`GpuPool`](crate::GpuPool), or your own type of
    /// that kind declared [`SameKind`]). Arguments in the order of kube's `Recorder::publish(event, reference)`.
    /// Never blocks.
    ///
    /// # Errors
    /// [`PublishError::Invalid`] when the object has no name, or its type was declared [`SameKind`] but has
    /// another API group ([`InvalidEvent::WrongGroup`]) or kind ([`InvalidEvent::WrongKind`]);
    /// [`PublishError::Shutdown`] after [`shutdown`](Recorder::shutdown). Drops (full queue, spam filter) are
    /// not errors: [`Published::Dropped`].
    pub fn publish<K, D>(&self, details: D, object: &K) -> Result<Published, PublishError>
    where
        K: SameKind<D::Regarding>,
        D: Publishable,
    {
        let details = same_group::<K, D>(details)?;
        self.publish_ref(details, &object.object_ref(&()))
    }

    /// [`publish`](Recorder::publish) with a `related` (secondary) object: kube's `Event::secondary`, e.g. the
    /// Node a Pod was evicted from or the ReplicaSet of a Deployment. The related object is part of the event's
    /// key, as the regarding one is.
    ///
    /// # Errors
    /// As [`publish`](Recorder::publish), and [`InvalidEvent::Missing`] when the related object has no name.
    pub fn publish_related<K, D, R>(&self, details: D, object: &K, related: &R) -> Result<Published, PublishError>
    where
        K: SameKind<D::Regarding>,
        D: Publishable,
        R: kube::Resource<DynamicType = ()>,
    {
        self.publish(WithRelated::new(details, related.object_ref(&())), object)
    }

    /// Publishes on an object given by reference, in the argument order of kube's
    /// `Recorder::publish(&event, &reference)` (a `kube::runtime::events::Event`, by value or reference, is an
    /// [`IntoEvent`]); the reason's kinds are checked at run time ([`InvalidEvent::WrongKind`]). The reference's
    /// `resourceVersion` is ignored; its `fieldPath` is written (the first one of a series) but is not part of
    /// the key.
    ///
    /// # Errors
    /// As [`publish`](Recorder::publish), and [`InvalidEvent::WrongKind`].
    pub fn publish_ref(&self, event: impl IntoEvent, regarding: &ObjectReference) -> Result<Published, PublishError> {
        self.observe(event, regarding, None)
    }

    /// [`publish`](Recorder::publish), then a future that waits up to `timeout` for the write.
    /// The publish happens at the call, as with [`publish`](Recorder::publish); the future
    /// borrows nothing. A repeat that needs no request resolves to [`Published::Counted`] at once.
    ///
    /// # Errors
    /// As [`publish`](Recorder::publish), [`PublishError::Dropped`] when it was dropped,
    /// [`PublishError::Write`] when the server refused it or retries ran out, and
    /// [`PublishError::Timeout`] (the write may still finish).
    pub fn publish_and_wait<K, D>(
        &self,
        details: D,
        object: &K,
        timeout: Duration,
    ) -> impl Future<Output = Result<Published, PublishError>> + Send + 'static + use<K, D>
    where
        K: SameKind<D::Regarding>,
        D: Publishable,
    {
        let (tx, rx) = oneshot::channel();
        let published =
            same_group::<K, D>(details).and_then(|details| self.observe(details, &object.object_ref(&()), Some(tx)));
        wait_for(published, rx, timeout)
    }

    /// [`publish_ref`](Recorder::publish_ref), then a future that waits up to `timeout` for the
    /// write (see [`publish_and_wait`](Recorder::publish_and_wait)).
    ///
    /// # Errors
    /// As [`publish_and_wait`](Recorder::publish_and_wait) and [`publish_ref`](Recorder::publish_ref).
    pub fn publish_ref_and_wait<E: IntoEvent>(
        &self,
        event: E,
        regarding: &ObjectReference,
        timeout: Duration,
    ) -> impl Future<Output = Result<Published, PublishError>> + Send + 'static + use<E> {
        let (tx, rx) = oneshot::channel();
        wait_for(self.observe(event, regarding, Some(tx)), rx, timeout)
    }

    fn observe(
        &self,
        event: impl IntoEvent,
        regarding: &ObjectReference,
        done: Option<oneshot::Sender<Result<(), WriteError>>>,
    ) -> Result<Published, PublishError> {
        let spec = event.into_event()?;
        let object =
            ObjectKey::of(regarding).ok_or(InvalidEvent::Missing { field: "regarding.kind and regarding.name" })?;
        match &object.namespace {
            Some(namespace) if !is_dns_label(namespace) => {
                return Err(InvalidEvent::Namespace(namespace.clone()).into());
            }
            None if NAMESPACED_KINDS.contains(&object.kind.as_str()) => {
                return Err(InvalidEvent::Missing { field: "regarding.namespace (the kind is namespaced)" }.into());
            }
            _ => {}
        }
        if let Some(kinds) = &spec.kinds
            && !kinds.contains(&object.kind.as_str())
        {
            let reason = spec.reason.into_owned();
            return Err(InvalidEvent::WrongKind { reason, expected: kinds.to_vec(), kind: object.kind }.into());
        }
        let related = match &spec.related {
            Some(related) => {
                Some(ObjectKey::of(related).ok_or(InvalidEvent::Missing { field: "related.kind and related.name" })?)
            }
            None => None,
        };
        let shared = &self.inner.shared;
        let namespace = object.namespace.clone().unwrap_or_else(|| self.inner.cluster_namespace.clone());
        let field_path = regarding.field_path.as_deref().filter(|p| !p.is_empty());
        let key = Key::new(object, related, spec);
        let now = shared.clock.now();

        // Shutdown sets its flag under this lock before it flushes: a publish that gets past
        // here is counted before the flush starts, so every accepted occurrence is written.
        let tx = lock(&self.inner.tx);
        let tx = match tx.as_ref() {
            Some(tx) if !self.inner.shut_down.load(Ordering::Acquire) => tx,
            _ => return Err(PublishError::Shutdown),
        };
        if tx.is_closed() {
            // The workers are gone: the runtime the recorder was built on has shut down.
            return Err(PublishError::Shutdown);
        }
        Counters::bump(&shared.counters.published);
        // The cache lock is held across `try_send` (which never waits), so a key is never seen
        // half-queued.
        let mut cache = shared.cache();
        let observed =
            cache.observe(key, field_path, &namespace, now, |key| event_name(&key.regarding.name, nanos(now)));
        let published = match observed {
            Observed::New(create) => match self.enqueue(tx, create, done) {
                Ok(()) => {
                    let (evicted, final_write) = cache.make_room();
                    if evicted {
                        Counters::bump(&shared.counters.evicted);
                    }
                    if let Some(job) = final_write
                        && let Err(job) = self.enqueue(tx, job, None)
                    {
                        // It stays among the finishing series; the next flush or sweep writes it.
                        cache.unbusy(&job);
                    }
                    Published::Queued
                }
                Err(job) => {
                    cache.forget(&job.key);
                    Counters::bump(&shared.counters.dropped_queue_full);
                    Published::Dropped(Dropped::QueueFull)
                }
            },
            Observed::SeriesStart(job, count) => {
                Counters::bump(&shared.counters.counted);
                let waits = done.is_some();
                match self.enqueue(tx, job, done) {
                    Ok(()) if waits => Published::Queued,
                    Ok(()) => Published::Counted { count },
                    Err(job) => {
                        cache.unbusy(&job);
                        Published::Counted { count }
                    }
                }
            }
            Observed::Counted(count) => {
                Counters::bump(&shared.counters.counted);
                Published::Counted { count }
            }
            Observed::Dropped(dropped) => {
                Counters::bump(&shared.counters.dropped_spam);
                Published::Dropped(dropped)
            }
        };
        Ok(published)
    }

    /// Queues a job without waiting; gives it back when the queue is full.
    fn enqueue(
        &self,
        tx: &mpsc::Sender<Envelope>,
        job: Job,
        done: Option<oneshot::Sender<Result<(), WriteError>>>,
    ) -> Result<(), Job> {
        let counters = &self.inner.shared.counters;
        counters.pending.fetch_add(1, Ordering::AcqRel);
        match tx.try_send(Envelope { job, done }) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(envelope) | mpsc::error::TrySendError::Closed(envelope)) => {
                counters.pending.fetch_sub(1, Ordering::AcqRel);
                Err(envelope.job)
            }
        }
    }

    /// Queues a job, waiting for room (flush and sweep: nothing of theirs is dropped).
    async fn enqueue_waiting(&self, job: Job) {
        let Some(tx) = lock(&self.inner.tx).clone() else { return };
        let counters = &self.inner.shared.counters;
        counters.pending.fetch_add(1, Ordering::AcqRel);
        if tx.send(Envelope { job, done: None }).await.is_err() {
            counters.pending.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Runs the timed work now: heartbeat writes for series not written for the heartbeat
    /// interval, final writes for series quiet for the quiet interval (they leave the cache).
    /// The sweeper calls it on its timer; tests with a [`ManualClock`](crate::ManualClock) call it
    /// after moving the clock. Never blocks: writes that find the queue full wait in a task.
    pub fn sweep(&self) {
        let jobs = self.inner.shared.cache().sweep(self.inner.shared.clock.now());
        if jobs.is_empty() {
            return;
        }
        let Some(tx) = lock(&self.inner.tx).clone() else { return };
        let mut waiting = Vec::new();
        for job in jobs {
            if let Err(job) = self.enqueue(&tx, job, None) {
                waiting.push(job);
            }
        }
        if !waiting.is_empty() {
            let recorder = self.clone();
            tokio::spawn(async move {
                for job in waiting {
                    recorder.enqueue_waiting(job).await;
                }
            });
        }
    }

    /// Writes every count the server does not have yet and waits until no write is queued or in
    /// flight. Call it before a controller exits (or use [`shutdown`](Recorder::shutdown)).
    ///
    /// Counts that arrive while it runs are written too, for a few rounds; a write that fails
    /// (see [`Stats::failed`]) is not tried again by the same flush. How long it takes is bounded
    /// by the [`RetryPolicy`]; wrap it in `tokio::time::timeout` to bound it further.
    pub async fn flush(&self) {
        const ROUNDS: usize = 3;
        let shared = &self.inner.shared;
        let gave_up =
            || shared.counters.failed.load(Ordering::Relaxed) + shared.counters.rejected.load(Ordering::Relaxed);
        let before = gave_up();
        for _ in 0..ROUNDS {
            // Writes in flight may leave counts behind them: wait for them, then look.
            shared.wait_idle().await;
            if gave_up() > before {
                return;
            }
            let jobs = shared.cache().unwritten();
            if jobs.is_empty() {
                return;
            }
            for job in jobs {
                self.enqueue_waiting(job).await;
            }
        }
        shared.wait_idle().await;
    }

    /// Flushes, then stops the workers and the sweeper; later publishes fail with
    /// [`PublishError::Shutdown`]. Clones share the shutdown.
    pub async fn shutdown(&self) {
        {
            // Under the queue's lock, so no publish is half-way when the flush starts.
            let _tx = lock(&self.inner.tx);
            self.inner.shut_down.store(true, Ordering::Release);
        }
        self.flush().await;
        lock(&self.inner.tx).take();
        if let Some(sweeper) = lock(&self.inner.sweeper).take() {
            sweeper.abort();
        }
        let workers = std::mem::take(&mut *lock(&self.inner.workers));
        for worker in workers {
            let _ = worker.await;
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        let shared = &self.inner.shared;
        let cache = shared.cache();
        shared.counters.snapshot(cache.len(), cache.lost)
    }

    /// `reportingController`.
    pub fn reporting_controller(&self) -> &str {
        &self.inner.shared.reporter.controller
    }

    /// `reportingInstance`.
    pub fn reporting_instance(&self) -> &str {
        &self.inner.shared.reporter.instance
    }
}
