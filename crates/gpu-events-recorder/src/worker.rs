//! The workers: take write jobs from the bounded queue and send them, with bounded retries, the
//! 404 and AlreadyExists fallbacks, and the cache updated (never locked across a request).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use k8s_openapi::api::events::v1::Event;
use tokio::sync::{Notify, mpsc, oneshot};

use crate::backend::{Backend, CallError, Reporter, event_body, series};
use crate::cache::{Cache, Job, JobKind};
use crate::clock::Clock;
use crate::error::WriteError;
use crate::name::event_name;
use crate::stats::Counters;

/// How writes are retried after 429, 5xx and transport errors (validation and RBAC errors are
/// never retried).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts per write, the first included (at least 1).
    pub max_attempts: u32,
    /// The wait before the second attempt; it doubles for each further one.
    pub initial_backoff: Duration,
    /// The longest wait between attempts.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// 5 attempts, waits of 200 ms doubling up to 10 s, each ±25 % (client-go jitters its 10 s
    /// waits by 25 % too).
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    fn backoff(&self, retry: u32) -> Duration {
        let base = self.initial_backoff.saturating_mul(1u32 << retry.min(16)).min(self.max_backoff);
        base.mul_f64(0.75 + fastrand::f64() * 0.5)
    }
}

/// The longest `Retry-After` honoured.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// A job on the queue, with whoever awaits it.
pub(crate) struct Envelope {
    pub(crate) job: Job,
    pub(crate) done: Option<oneshot::Sender<Result<(), WriteError>>>,
}

/// What the publish side and the workers share.
pub(crate) struct Shared {
    pub(crate) cache: Mutex<Cache>,
    pub(crate) backend: Backend,
    pub(crate) reporter: Reporter,
    pub(crate) counters: Counters,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) retry: RetryPolicy,
    /// Woken when the last pending write finishes.
    pub(crate) idle: Notify,
}

impl Shared {
    pub(crate) fn cache(&self) -> MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until no write is queued or in flight.
    pub(crate) async fn wait_idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.counters.pending.load(Ordering::Acquire) == 0 {
                return;
            }
            notified.await;
        }
    }

    fn finish_one(&self) {
        if self.counters.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle.notify_waiters();
        }
    }

    /// Sends a job and the follow-ups it leads to (a series start after a create that saw repeats).
    async fn execute(&self, mut job: Job) -> Result<(), WriteError> {
        loop {
            self.cache().refresh(&mut job);
            let sent = match job.kind {
                JobKind::Create => self.create(&mut job).await,
                JobKind::Series => self.update_series(&mut job).await,
            };
            match sent {
                Ok(()) => match self.cache().written(&job, self.clock.now()) {
                    Some(next) => job = next,
                    None => return Ok(()),
                },
                Err(err) => {
                    self.cache().failed(&job);
                    match &err {
                        WriteError::Rejected { .. } => Counters::bump(&self.counters.rejected),
                        WriteError::RetriesExhausted { .. } => Counters::bump(&self.counters.failed),
                    }
                    tracing::warn!(error = %err, reason = %job.key.reason, "gpu-events recorder could not write an event");
                    return Err(err);
                }
            }
        }
    }

    /// One request with bounded retries; the answer that ends them.
    async fn call<F, Fut>(&self, mut request: F) -> Result<(), (CallError, u32)>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<(), CallError>>,
    {
        let attempts = self.retry.max_attempts.max(1);
        let mut attempt = 1;
        loop {
            match request().await {
                Ok(()) => return Ok(()),
                Err(CallError::Retryable(_, after)) if attempt < attempts => {
                    Counters::bump(&self.counters.retries);
                    // The server's Retry-After wins over a shorter backoff, within a minute.
                    let wait = self.retry.backoff(attempt - 1).max(after.unwrap_or_default().min(MAX_RETRY_AFTER));
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err(err) => return Err((err, attempt)),
            }
        }
    }

    /// POST the event. A 409 means the name is taken: by this very event when an earlier attempt
    /// got through but its answer was lost (then it is done), or by another event (then it gets a
    /// new name).
    async fn create(&self, job: &mut Job) -> Result<(), WriteError> {
        let mut body = event_body(&job.key, &job.snapshot, &self.reporter);
        for _ in 0..3 {
            let name = job.snapshot.name.clone();
            match self.call(|| self.backend.create(&body)).await {
                Ok(()) => {
                    Counters::bump(&self.counters.creates);
                    return Ok(());
                }
                Err((CallError::AlreadyExists, _)) => {
                    match self.backend.get(&job.snapshot.namespace, &name).await {
                        Ok(Some(existing)) if same_event(&existing, &body) => {
                            // An earlier attempt of ours got through; its answer was lost. A
                            // re-create carries a series the stored event may lack: write it.
                            Counters::bump(&self.counters.creates);
                            return self.patch_existing(job).await;
                        }
                        Ok(Some(_)) => {}
                        Ok(None) => continue,
                        Err(err) => {
                            // Names are unique to this process (nanoseconds and a counter), so a
                            // taken name is almost surely our own lost answer: assume so rather
                            // than risk a duplicate.
                            tracing::warn!(event = %name, error = ?err, "create answered AlreadyExists and the event cannot be read (RBAC `get` on events.k8s.io events?); assuming the earlier attempt created it");
                            Counters::bump(&self.counters.creates);
                            return self.patch_existing(job).await;
                        }
                    }
                    let renamed = event_name(&job.key.regarding.name, nanos(self.clock.now()));
                    self.cache().renamed(job, &renamed);
                    job.snapshot.name = renamed.clone();
                    body.metadata.name = Some(renamed);
                }
                Err((err, attempts)) => return Err(write_error("create", &name, err, attempts)),
            }
        }
        Err(WriteError::RetriesExhausted {
            method: "create",
            name: job.snapshot.name.clone(),
            attempts: 3,
            last: "every name tried was taken".into(),
        })
    }

    /// After a create that found our own event: its series, if the create carried one.
    async fn patch_existing(&self, job: &Job) -> Result<(), WriteError> {
        let Some(series) = series(&job.snapshot) else { return Ok(()) };
        let (namespace, name) = (&job.snapshot.namespace, &job.snapshot.name);
        match self.call(|| self.backend.patch_series(namespace, name, &series)).await {
            Ok(()) => {
                Counters::bump(&self.counters.patches);
                Ok(())
            }
            Err((err, attempts)) => Err(write_error("patch", name, err, attempts)),
        }
    }

    /// PATCH `series`; a 404 (expired or deleted) re-creates the event with its series.
    async fn update_series(&self, job: &mut Job) -> Result<(), WriteError> {
        let Some(series) = series(&job.snapshot) else { return Ok(()) };
        let (namespace, name) = (job.snapshot.namespace.clone(), job.snapshot.name.clone());
        match self.call(|| self.backend.patch_series(&namespace, &name, &series)).await {
            Ok(()) => {
                Counters::bump(&self.counters.patches);
                Ok(())
            }
            Err((CallError::NotFound(_), _)) => {
                Counters::bump(&self.counters.recreates);
                self.create(job).await
            }
            Err((err, attempts)) => Err(write_error("patch", &name, err, attempts)),
        }
    }
}

/// Whether a stored event is the one we meant to create (an earlier attempt of ours).
fn same_event(existing: &Event, ours: &Event) -> bool {
    existing.reason == ours.reason
        && existing.note == ours.note
        && existing.action == ours.action
        && existing.type_ == ours.type_
        && existing.reporting_controller == ours.reporting_controller
        && existing.reporting_instance == ours.reporting_instance
        && existing.regarding.as_ref().map(|r| (&r.kind, &r.name, &r.uid))
            == ours.regarding.as_ref().map(|r| (&r.kind, &r.name, &r.uid))
}

fn write_error(method: &'static str, name: &str, err: CallError, attempts: u32) -> WriteError {
    match err {
        CallError::Rejected { code, reason, message } => {
            WriteError::Rejected { method, name: name.to_owned(), code, reason, message }
        }
        CallError::Retryable(last, _) => WriteError::RetriesExhausted { method, name: name.to_owned(), attempts, last },
        CallError::NotFound(message) => {
            WriteError::Rejected { method, name: name.to_owned(), code: 404, reason: "NotFound".into(), message }
        }
        CallError::AlreadyExists => WriteError::Rejected {
            method,
            name: name.to_owned(),
            code: 409,
            reason: "AlreadyExists".into(),
            message: "the event already exists".into(),
        },
    }
}

/// Nanoseconds since the epoch, for names (0 before 1970).
pub(crate) fn nanos(time: chrono::DateTime<chrono::Utc>) -> u64 {
    time.timestamp_nanos_opt().and_then(|n| u64::try_from(n).ok()).unwrap_or(0)
}

/// One worker: runs until the queue is closed and empty.
pub(crate) async fn run(shared: Arc<Shared>, queue: Arc<tokio::sync::Mutex<mpsc::Receiver<Envelope>>>) {
    loop {
        let next = queue.lock().await.recv().await;
        let Some(Envelope { job, done }) = next else { return };
        let result = shared.execute(job).await;
        if let Some(done) = done {
            let _ = done.send(result);
        }
        shared.finish_one();
    }
}
