//! Sinks: where exported records and alerts go. Each sink has its own bounded queue and task,
//! batches what it sends, retries with backoff, and counts what it drops, so a slow or failed
//! sink never blocks the others or the watch.

mod file;
mod http;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

pub use file::FileSink;
pub use http::{OtlpSink, WebhookSink};

/// One line of output: a serialized record or alert (JSON), with what OTLP needs to map it.
#[derive(Clone, Debug)]
pub struct Line {
    /// The JSON object, serialized once and shared by every sink.
    pub json: Arc<str>,
}

/// Where a sink writes, as given on the command line (`stdout`, `file:PATH`,
/// `otlp:http://collector:4318`, `webhook:https://hooks.example/x`) or in the config.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SinkConfig {
    /// The name routes and alerts use (defaults to the spec's kind: `stdout`, `file`, ...).
    #[serde(default)]
    pub name: Option<String>,
    /// `stdout`, `file:PATH`, `otlp:URL` (OTLP/HTTP JSON, `/v1/logs` appended), `webhook:URL`.
    pub spec: String,
    /// Records that may wait (default [`SinkConfig::DEFAULT_QUEUE`]); more are dropped and counted.
    #[serde(default = "default_queue")]
    pub queue: usize,
    /// Records per write (default [`SinkConfig::DEFAULT_BATCH`]).
    #[serde(default = "default_batch")]
    pub batch: usize,
    /// File sink: rotate when the file reaches this many bytes (default
    /// [`SinkConfig::DEFAULT_ROTATE_BYTES`]).
    #[serde(default = "default_rotate")]
    pub rotate_bytes: u64,
    /// File sink: rotated files kept (`PATH.1` … `PATH.N`, default [`SinkConfig::DEFAULT_KEEP`]).
    #[serde(default = "default_keep")]
    pub keep: usize,
    /// HTTP sinks: extra headers (e.g. `Authorization`).
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, String>,
    /// Attempts per batch before it is dropped and counted (default [`SinkConfig::DEFAULT_ATTEMPTS`]).
    #[serde(default = "default_attempts")]
    pub attempts: u32,
    /// The first wait between attempts (default [`SinkConfig::DEFAULT_BACKOFF`]); it doubles up
    /// to 30 s, and a receiver's `Retry-After` (up to a minute) wins over a shorter one.
    #[serde(default = "default_backoff", deserialize_with = "duration")]
    pub backoff: Duration,
}

fn default_attempts() -> u32 {
    SinkConfig::DEFAULT_ATTEMPTS
}
fn default_backoff() -> Duration {
    SinkConfig::DEFAULT_BACKOFF
}
fn duration<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    let text = String::deserialize(deserializer)?;
    crate::alert::parse_duration(&text).map_err(serde::de::Error::custom)
}

fn default_queue() -> usize {
    SinkConfig::DEFAULT_QUEUE
}
fn default_batch() -> usize {
    SinkConfig::DEFAULT_BATCH
}
fn default_rotate() -> u64 {
    SinkConfig::DEFAULT_ROTATE_BYTES
}
fn default_keep() -> usize {
    SinkConfig::DEFAULT_KEEP
}

impl SinkConfig {
    /// The default of [`queue`](SinkConfig::queue), the one place it is written.
    pub const DEFAULT_QUEUE: usize = 10_000;
    /// The default of [`batch`](SinkConfig::batch).
    pub const DEFAULT_BATCH: usize = 500;
    /// The default of [`rotate_bytes`](SinkConfig::rotate_bytes): 100 MiB.
    pub const DEFAULT_ROTATE_BYTES: u64 = 100 * 1024 * 1024;
    /// The default of [`keep`](SinkConfig::keep).
    pub const DEFAULT_KEEP: usize = 5;
    /// The default of [`attempts`](SinkConfig::attempts).
    pub const DEFAULT_ATTEMPTS: u32 = 7;
    /// The default of [`backoff`](SinkConfig::backoff).
    pub const DEFAULT_BACKOFF: Duration = Duration::from_secs(1);

    /// A sink from its spec, with the defaults.
    pub fn from_spec(spec: &str) -> SinkConfig {
        SinkConfig {
            name: None,
            spec: spec.to_owned(),
            queue: Self::DEFAULT_QUEUE,
            batch: Self::DEFAULT_BATCH,
            rotate_bytes: Self::DEFAULT_ROTATE_BYTES,
            keep: Self::DEFAULT_KEEP,
            headers: Default::default(),
            attempts: Self::DEFAULT_ATTEMPTS,
            backoff: Self::DEFAULT_BACKOFF,
        }
    }

    /// The sink's name: the given one, else its kind (`stdout`, `file`, `otlp`, `webhook`).
    pub fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.spec.split(':').next().unwrap_or("sink").to_owned())
    }
}

/// Why a sink could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SinkError {
    /// The spec is not one of the known forms.
    #[error("sink {0:?}: expected stdout, file:PATH, otlp:URL or webhook:URL")]
    Spec(String),
    /// The file cannot be opened.
    #[error("sink file {path}: {source}")]
    File {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An HTTP client could not be built.
    #[error("sink {0}: {1}")]
    Http(String, String),
}

/// Why a write failed, and whether trying again can help.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) why: String,
    /// False for answers that will not change (a 4xx other than 408 and 429).
    pub(crate) retry: bool,
    /// The receiver's `Retry-After`.
    pub(crate) after: Option<Duration>,
}

impl From<String> for Failure {
    fn from(why: String) -> Self {
        Failure { why, retry: true, after: None }
    }
}

/// What a sink's writer does with one batch.
pub(crate) trait Write: Send + 'static {
    /// Writes a batch.
    fn write(&mut self, batch: &[Line]) -> impl Future<Output = Result<(), Failure>> + Send;
    /// Makes written data durable (files: fsync), at checkpoints and shutdown.
    fn sync(&mut self) -> impl Future<Output = Result<(), String>> + Send {
        async { Ok(()) }
    }
}

/// A sink's counters.
#[derive(Debug, Default)]
pub struct SinkStats {
    /// Lines waiting in the queue.
    pub queued: AtomicU64,
    /// Lines written.
    pub written: AtomicU64,
    /// Lines dropped: the queue was full, or the last retry failed.
    pub dropped: AtomicU64,
    /// Failed write attempts.
    pub failures: AtomicU64,
}

/// A running sink: its queue's sending side and its counters.
pub struct Sink {
    name: String,
    tx: mpsc::Sender<Message>,
    stats: Arc<SinkStats>,
    idle: Arc<Notify>,
    task: JoinHandle<()>,
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink").field("name", &self.name).field("stats", &self.stats).finish_non_exhaustive()
    }
}

#[derive(Debug)]
enum Message {
    Line(Line),
    /// Write what is queued, make it durable, then notify.
    Sync,
}

impl Sink {
    /// Starts the sink of `config` (inside a tokio runtime).
    ///
    /// # Errors
    /// [`SinkError`] when the spec is unknown, the file cannot be opened or the URL is bad.
    pub async fn start(config: &SinkConfig) -> Result<Sink, SinkError> {
        let name = config.name();
        let (kind, target) = config.spec.split_once(':').unwrap_or((config.spec.as_str(), ""));
        let batch = config.batch.max(1);
        let queue = config.queue.max(1);
        let retry = Retry { attempts: config.attempts.max(1), backoff: config.backoff };
        match (kind, target) {
            ("stdout", "") => Ok(Self::spawn(name, queue, batch, retry, file::Stdout)),
            ("file", path) if !path.is_empty() => {
                let writer = FileSink::open(path.into(), config.rotate_bytes, config.keep).await?;
                Ok(Self::spawn(name, queue, batch, retry, writer))
            }
            ("otlp", _) => Ok(Self::spawn(name, queue, batch, retry, OtlpSink::new(target, &config.headers)?)),
            ("webhook", _) => Ok(Self::spawn(name, queue, batch, retry, WebhookSink::new(target, &config.headers)?)),
            _ => Err(SinkError::Spec(config.spec.clone())),
        }
    }

    fn spawn(name: String, queue: usize, batch: usize, retry: Retry, writer: impl Write) -> Sink {
        let (tx, rx) = mpsc::channel(queue);
        let stats = Arc::new(SinkStats::default());
        let idle = Arc::new(Notify::new());
        let task = tokio::spawn(run(rx, batch, retry, writer, stats.clone(), idle.clone(), name.clone()));
        Sink { name, tx, stats, idle, task }
    }

    /// The sink's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its counters.
    pub fn stats(&self) -> &Arc<SinkStats> {
        &self.stats
    }

    /// Queues a line without waiting; a full queue drops it (counted).
    pub fn offer(&self, line: Line) {
        match self.tx.try_send(Message::Line(line)) {
            Ok(()) => {
                self.stats.queued.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                self.stats.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// A handle that can wait for this sink's sync from another task.
    pub fn sync_handle(&self) -> SyncHandle {
        SyncHandle { tx: self.tx.clone(), idle: self.idle.clone() }
    }

    /// Waits until what was queued before is written and synced (or given up), at most `timeout`.
    /// Returns false on timeout.
    pub async fn sync(&self, timeout: Duration) -> bool {
        self.sync_handle().sync(timeout).await
    }
}

/// Waits for a sink's sync (see [`Sink::sync_handle`]).
#[derive(Clone, Debug)]
pub struct SyncHandle {
    tx: mpsc::Sender<Message>,
    idle: Arc<Notify>,
}

impl SyncHandle {
    /// As [`Sink::sync`].
    pub async fn sync(&self, timeout: Duration) -> bool {
        let notified = self.idle.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        // Queuing the request is under the timeout too: a hung receiver fills the queue.
        let synced = async {
            if self.tx.send(Message::Sync).await.is_ok() {
                notified.await;
            }
        };
        tokio::time::timeout(timeout, synced).await.is_ok()
    }
}

impl Sink {
    /// Syncs, then stops the task; `timeout` bounds the whole (what is still queued after it is
    /// dropped with the task).
    pub async fn close(self, timeout: Duration) {
        let started = tokio::time::Instant::now();
        self.sync(timeout).await;
        drop(self.tx);
        let left = timeout.saturating_sub(started.elapsed());
        if tokio::time::timeout(left, &mut { self.task }).await.is_err() {
            tracing::warn!(sink = %self.name, "sink did not drain within {timeout:?}");
        }
    }
}

/// How a sink retries a batch (7 attempts with waits of 1, 2, 4, 8, 16 and 30 s by default: a
/// collector restart of about a minute loses nothing).
#[derive(Clone, Copy, Debug)]
struct Retry {
    attempts: u32,
    backoff: Duration,
}

async fn run(
    mut rx: mpsc::Receiver<Message>,
    batch_size: usize,
    retry: Retry,
    mut writer: impl Write,
    stats: Arc<SinkStats>,
    idle: Arc<Notify>,
    name: String,
) {
    let mut batch: Vec<Line> = Vec::with_capacity(batch_size);
    loop {
        let Some(first) = rx.recv().await else { break };
        let mut sync = false;
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Line(line) => batch.push(line),
                Message::Sync => sync = true,
            }
            if batch.len() < batch_size && !sync {
                next = rx.try_recv().ok();
            }
        }
        if !batch.is_empty() {
            write_with_retries(&mut writer, &batch, retry, &stats, &name).await;
            stats.queued.fetch_sub(batch.len() as u64, Ordering::Relaxed);
            batch.clear();
        }
        if sync {
            if let Err(why) = writer.sync().await {
                tracing::warn!(sink = %name, %why, "sink sync failed");
            }
            idle.notify_waiters();
        }
    }
    let _ = writer.sync().await;
}

async fn write_with_retries(writer: &mut impl Write, batch: &[Line], retry: Retry, stats: &SinkStats, name: &str) {
    let mut backoff = retry.backoff;
    for attempt in 1..=retry.attempts {
        match writer.write(batch).await {
            Ok(()) => {
                stats.written.fetch_add(batch.len() as u64, Ordering::Relaxed);
                return;
            }
            Err(failure) => {
                stats.failures.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(sink = %name, attempt, why = %failure.why, "sink write failed");
                if !failure.retry {
                    break;
                }
                if attempt < retry.attempts {
                    let wait = backoff.mul_f64(0.75 + fastrand::f64() * 0.5).max(failure.after.unwrap_or_default());
                    tokio::time::sleep(wait.min(Duration::from_secs(60))).await;
                    backoff = (backoff * 2).min(Duration::from_secs(30));
                }
            }
        }
    }
    stats.dropped.fetch_add(batch.len() as u64, Ordering::Relaxed);
}
