//! The exporter: watch streams -> typed records -> deduplication with deltas -> (redaction,
//! routing) -> sinks, with a checkpoint written at intervals and on stop.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{mpsc, watch as signal};

use crate::alert::{Alert, AlertEngine, AlertRule};
use crate::checkpoint::{Checkpoint, CheckpointError, FORMAT_VERSION};
use crate::dedupe::{Seen, Watermarks};
use crate::error::ConfigError;
use crate::metrics::{Metrics, MetricsConfig};
use crate::owner::{OwnerConfig, OwnerError, OwnerResolver};
use crate::record::ExportRecord;
use crate::redact::{RedactionConfig, Redactor};
use crate::route::{Route, Router};
use crate::sink::{Line, Sink, SinkConfig, SinkError};
use crate::watch::{EventApi, Observed, Stream, WatchTiming};

/// What the exporter does: the runtime settings, complete (no field is optional for lack of a
/// default). The config file and the flags of `gpu-events export` are
/// [`ExportConfig`](crate::config::ExportConfig), resolved into this by
/// [`ExportConfig::into_options`](crate::config::ExportConfig::into_options).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ExporterOptions {
    /// `cluster` of every record.
    pub cluster: Option<String>,
    /// Namespaces to watch; empty: the whole cluster.
    pub namespaces: Vec<String>,
    /// The Event APIs to watch (both may be on: nothing is counted twice; default
    /// [`ExporterOptions::DEFAULT_APIS`]).
    pub apis: Vec<EventApi>,
    /// The checkpoint file, if any.
    pub state: Option<PathBuf>,
    /// How often the checkpoint is written (after the sinks have synced; default
    /// [`ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL`]).
    pub checkpoint_interval: Duration,
    /// Where records go.
    pub sinks: Vec<SinkConfig>,
    /// Events remembered for deduplication (an event's mark lives until its TTL has passed;
    /// default [`ExporterOptions::DEFAULT_MAX_EVENTS`]).
    pub max_events: NonZeroUsize,
    /// Marks of events last seen longer ago than this are dropped (the API server's event TTL
    /// plus a margin; default [`ExporterOptions::DEFAULT_MARK_TTL`]).
    pub mark_ttl: Duration,
    /// The watch loop's timing.
    pub watch: WatchTiming,
    /// Redaction, applied to every record before any sink (built-in rules on by default).
    pub redaction: RedactionConfig,
    /// Routing rules; none: every record to every sink.
    pub routes: Vec<Route>,
    /// Alert rules on sustained patterns.
    pub alerts: Vec<AlertRule>,
    /// Metric labels.
    pub metrics: MetricsConfig,
    /// Where `/metrics` is served, if anywhere.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// Owner resolution (off by default; needs `get` on the owner kinds, deploy/owner-rbac.yaml).
    pub owners: OwnerConfig,
}

impl ExporterOptions {
    /// The default of [`apis`](ExporterOptions::apis): `events.k8s.io/v1`. These `DEFAULT_*`
    /// constants are the one place each default is written: [`Default`] uses them, and so do
    /// the config file's resolution ([`ExportConfig::into_options`](crate::config::ExportConfig::into_options))
    /// and `gpu-events export --help`.
    pub const DEFAULT_APIS: &'static [EventApi] = &[EventApi::EventsV1];
    /// The default of [`checkpoint_interval`](ExporterOptions::checkpoint_interval).
    pub const DEFAULT_CHECKPOINT_INTERVAL: Duration = Duration::from_secs(30);
    /// The shortest [`checkpoint_interval`](ExporterOptions::checkpoint_interval) the config file
    /// and flags may set (a shorter one is raised to it).
    pub const MIN_CHECKPOINT_INTERVAL: Duration = Duration::from_millis(100);
    /// The default of [`max_events`](ExporterOptions::max_events).
    pub const DEFAULT_MAX_EVENTS: NonZeroUsize = NonZeroUsize::new(500_000).unwrap();
    /// The default of [`mark_ttl`](ExporterOptions::mark_ttl): above the API server's default
    /// `--event-ttl` of 1 h.
    pub const DEFAULT_MARK_TTL: Duration = Duration::from_secs(2 * 3600);
    /// The sink when none is configured (a spec for [`SinkConfig::from_spec`]).
    pub const DEFAULT_SINK: &'static str = "stdout";
}

impl Default for ExporterOptions {
    fn default() -> Self {
        ExporterOptions {
            cluster: None,
            namespaces: Vec::new(),
            apis: Self::DEFAULT_APIS.to_vec(),
            state: None,
            checkpoint_interval: Self::DEFAULT_CHECKPOINT_INTERVAL,
            sinks: Vec::new(),
            max_events: Self::DEFAULT_MAX_EVENTS,
            mark_ttl: Self::DEFAULT_MARK_TTL,
            watch: WatchTiming::default(),
            redaction: RedactionConfig::default(),
            routes: Vec::new(),
            alerts: Vec::new(),
            metrics: MetricsConfig::default(),
            metrics_addr: None,
            owners: OwnerConfig::default(),
        }
    }
}

/// Why the exporter could not start or stop cleanly (the errors name what to fix).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A sink could not be set up.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// The checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// Nothing to watch, or no sink.
    #[error("{0}")]
    Options(String),
    /// Redaction, routing or alert rules that cannot work.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Owner resolution settings out of range.
    #[error(transparent)]
    Owners(#[from] OwnerError),
    /// The metrics address cannot be bound.
    #[error("metrics address {addr}: {source}")]
    Metrics {
        /// The address.
        addr: std::net::SocketAddr,
        /// The bind error.
        source: std::io::Error,
    },
}

pub use crate::stats::ExporterStats;

/// A checkpoint waiting for the sinks.
struct CheckpointJob {
    path: PathBuf,
    checkpoint: Checkpoint,
    sinks: Vec<(String, crate::sink::SyncHandle)>,
    stats: Arc<ExporterStats>,
}

impl CheckpointJob {
    async fn run(self, wait: Duration) {
        let syncs = self.sinks.iter().map(|(name, sink)| async move { (name, sink.sync(wait).await) });
        for (name, synced) in futures::future::join_all(syncs).await {
            if !synced {
                tracing::warn!(sink = %name, "sink did not sync within {wait:?}; checkpointing anyway");
            }
        }
        // A failed write (full disk, a directory in the way) is retried at the next interval;
        // stopping would turn every restart into a replay.
        let (checkpoint, path) = (self.checkpoint, self.path);
        let saved = tokio::task::spawn_blocking(move || checkpoint.save(&path)).await;
        match saved {
            Ok(Ok(())) => {
                self.stats.checkpoints.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Err(err)) => {
                self.stats.checkpoint_failures.fetch_add(1, Ordering::Relaxed);
                tracing::error!(error = %err, "writing the checkpoint failed; retrying at the next interval");
            }
            Err(err) => tracing::error!(error = %err, "the checkpoint task failed"),
        }
    }
}

/// A running pipeline's state.
struct Pipeline {
    options: ExporterOptions,
    sinks: Vec<Sink>,
    /// Each sink's counters at the last metrics update, to report differences.
    reported: Vec<(u64, u64)>,
    marks: Watermarks,
    positions: BTreeMap<String, String>,
    redactor: Redactor,
    owners: OwnerResolver,
    router: Router,
    alerts: AlertEngine,
    metrics: Arc<Metrics>,
    /// When a stream last showed it is alive (a list, an event, a bookmark).
    last_alive: DateTime<Utc>,
    last_export: Option<DateTime<Utc>>,
    /// The checkpoint being written, if any.
    checkpointing: Option<tokio::task::JoinHandle<()>>,
    /// When a list or watch last failed.
    last_failure: Option<DateTime<Utc>>,
}

/// Serializes a record or alert once, for every sink.
fn line(value: &impl serde::Serialize) -> Option<Line> {
    match serde_json::to_string(value) {
        Ok(json) => Some(Line { json: json.into() }),
        Err(err) => {
            tracing::error!(%err, "a record could not be serialized");
            None
        }
    }
}

/// Runs the exporter until `stop` turns true: restores the checkpoint, starts the sinks and one
/// watch stream per API and namespace, exports, and on stop drains, syncs the sinks and writes
/// the checkpoint.
///
/// # Errors
/// [`ExportError`] when the options are unusable, a sink cannot start or the checkpoint cannot
/// be read or written.
pub async fn run(
    client: kube::Client,
    options: ExporterOptions,
    stats: Arc<ExporterStats>,
    stop: signal::Receiver<bool>,
) -> Result<(), ExportError> {
    let metrics = Arc::new(Metrics::with_stats(&options.metrics, options.cluster.as_deref(), stats));
    let metrics_server = match options.metrics_addr {
        Some(addr) => {
            let (_, task) = crate::metrics::serve(addr, metrics.clone())
                .await
                .map_err(|source| ExportError::Metrics { addr, source })?;
            Some(task)
        }
        None => None,
    };
    let result = run_with_metrics(client, options, metrics, stop).await;
    if let Some(server) = metrics_server {
        server.abort();
    }
    result
}

/// [`run`], counting into `metrics` that the caller serves (`options.metrics_addr` is not
/// bound): a standby replica serves `/healthz` and its metrics before it leads, with the same
/// [`Metrics`] the exporter then fills. The counters are [`Metrics::stats`].
///
/// # Errors
/// As [`run`].
pub async fn run_with_metrics(
    client: kube::Client,
    options: ExporterOptions,
    metrics: Arc<Metrics>,
    mut stop: signal::Receiver<bool>,
) -> Result<(), ExportError> {
    if options.apis.is_empty() {
        return Err(ExportError::Options("no Event API to watch: choose events.k8s.io/v1, v1 or both".into()));
    }
    if options.sinks.is_empty() {
        return Err(ExportError::Options(
            "no sink: give at least one (stdout, file:PATH, otlp:URL, webhook:URL)".into(),
        ));
    }
    let checkpoint = match &options.state {
        Some(path) => Checkpoint::load(path)?,
        None => None,
    };
    let names: Vec<String> = options.sinks.iter().map(SinkConfig::name).collect();
    let owners = OwnerResolver::new(client.clone(), options.owners.clone())?;
    let redactor = Redactor::new(&options.redaction)?;
    let router = Router::new(&options.routes, &names)?;
    let alerts = AlertEngine::new(&options.alerts)?;
    alerts.check_sinks(&names)?;
    metrics.set_leader(true);
    if owners.enabled() {
        metrics.set_owner_counters(owners.counters());
    }
    let mut sinks = Vec::new();
    for config in &options.sinks {
        sinks.push(Sink::start(config).await?);
    }
    let mut marks = Watermarks::new(options.max_events);
    let mut positions = BTreeMap::new();
    if let Some(checkpoint) = checkpoint {
        marks.restore(checkpoint.marks);
        positions = checkpoint.resource_versions;
    }
    let reported = vec![(0, 0); sinks.len()];
    let mut pipeline = Pipeline {
        options,
        sinks,
        reported,
        marks,
        positions,
        redactor,
        owners,
        router,
        alerts,
        metrics,
        last_alive: Utc::now(),
        last_export: None,
        checkpointing: None,
        last_failure: None,
    };

    let (tx, mut rx) = mpsc::channel::<Observed>(1024);
    let (stop_watches, watches_stop) = signal::channel(false);
    let mut streams = Vec::new();
    let namespaces: Vec<Option<String>> = if pipeline.options.namespaces.is_empty() {
        vec![None]
    } else {
        pipeline.options.namespaces.iter().cloned().map(Some).collect()
    };
    for api in pipeline.options.apis.clone() {
        for namespace in &namespaces {
            let stream = Stream { api, namespace: namespace.clone() };
            let resume = pipeline.positions.get(&stream.key()).cloned();
            streams.push(tokio::spawn(crate::watch::run(
                client.clone(),
                stream,
                resume,
                pipeline.options.watch,
                tx.clone(),
                watches_stop.clone(),
            )));
        }
    }
    drop(tx);

    let mut checkpoint_timer = tokio::time::interval(pipeline.options.checkpoint_interval);
    checkpoint_timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    checkpoint_timer.tick().await;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            observed = rx.recv() => match observed {
                Some(observed) => pipeline.handle(observed).await,
                None => break,
            },
            _ = checkpoint_timer.tick() => pipeline.checkpoint(),
            _ = tick.tick() => pipeline.tick(),
            () = crate::watch::stopped(&mut stop) => break,
        }
    }
    // Stop the streams, then export what they had already sent.
    let _ = stop_watches.send(true);
    for stream in streams {
        let _ = stream.await;
    }
    while let Ok(observed) = rx.try_recv() {
        pipeline.handle(observed).await;
    }
    pipeline.tick();
    pipeline.final_checkpoint().await;
    let closing = std::mem::take(&mut pipeline.sinks).into_iter().map(|sink| sink.close(CLOSE_WAIT));
    futures::future::join_all(closing).await;
    Ok(())
}

/// How often alerts are re-evaluated and sink metrics updated.
const TICK: Duration = Duration::from_secs(5);

/// The longest a checkpoint waits for the sinks to sync.
const SYNC_WAIT: Duration = Duration::from_secs(2);

/// The longest shutdown waits for the sinks, once to sync before the final checkpoint and once
/// to drain: at most about 12 s in all, well inside Kubernetes' default 30 s grace period.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

impl Pipeline {
    async fn handle(&mut self, observed: Observed) {
        let now = Utc::now();
        match observed {
            Observed::Applied { record, .. } => {
                self.last_alive = now;
                self.apply(*record, now).await;
            }
            Observed::Deleted { .. } => {
                // The mark stays until its TTL: the other API's stream (or a replay after a
                // restart) may still bring the same Event, which must not count as new.
                self.last_alive = now;
            }
            Observed::Position { stream, resource_version } => {
                self.last_alive = now;
                self.positions.insert(stream, resource_version);
            }
            Observed::Relisted { api, gap_suspected } => {
                self.last_alive = now;
                self.metrics.relisted(api);
                if gap_suspected {
                    self.metrics.gaps_suspected(api, 1);
                }
            }
            Observed::CheckpointAhead { api, resource_version, why } => {
                // Named here, where the state file is known: the operator has to find which one.
                let state = self.options.state.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
                tracing::warn!(%state, api = api.as_str(), %resource_version, %why,
                    "the state file's resourceVersion is newer than the API server's (a restored volume, or a state file from another cluster?); re-listing, events may have been missed");
                self.metrics.checkpoint_ahead(api);
            }
            Observed::Failed { api, .. } => {
                self.last_failure = Some(now);
                self.metrics.watch_failed(api);
            }
            Observed::Restarted { api, .. } => {
                self.metrics.watch_restarted(api);
            }
        }
    }

    async fn apply(&mut self, mut record: gpu_events_core::EventRecord, now: DateTime<Utc>) {
        if self.options.cluster.is_some() {
            record.cluster.clone_from(&self.options.cluster);
        }
        let delta = match self.marks.observe(&record, now) {
            Seen::New(delta) | Seen::Repeat(delta) => delta,
            Seen::Unchanged => {
                self.metrics.duplicates_suppressed(1);
                return;
            }
        };
        let mut export = ExportRecord::new(record, delta);
        // Owners first (alerts group by them); a cache miss costs a few bounded, rate-limited GETs.
        if self.owners.enabled() {
            export.owner = self.owners.resolve(&export.record).await;
            self.metrics.set_owner_counters(self.owners.counters());
        }
        // Redaction comes first: nothing unredacted reaches a sink, an alert or a metric.
        self.redactor.redact(&mut export);
        // Counted once, in the stats the metrics render.
        self.metrics.record_exported(&export);
        for alert in self.alerts.observe(&export, now) {
            self.send_alert(&alert);
        }
        let sinks = self.router.sinks_for(&export);
        if sinks.is_empty() {
            self.metrics.record_unrouted();
        } else if let Some(line) = line(&export) {
            for index in sinks {
                if let Some(sink) = self.sinks.get(index) {
                    sink.offer(line.clone());
                }
            }
        }
        self.last_export = Some(now);
    }

    fn send_alert(&self, alert: &Alert) {
        self.metrics.alert(alert);
        let Some(line) = line(alert) else { return };
        if let Some(sink) = self.sinks.iter().find(|s| s.name() == alert.sink) {
            sink.offer(line);
        }
    }

    /// Alerts that fire or resolve with time, and the sinks' counters into the metrics.
    fn tick(&mut self) {
        let now = Utc::now();
        let since_alive = now - self.last_alive;
        let long = |d: Duration| chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX);
        // Failing: errors since the last success for longer than two backoffs, or nothing at
        // all (not even a bookmark or a watch timeout) for two watch timeouts.
        let failing = self.last_failure.is_some_and(|f| f > self.last_alive)
            && since_alive > long(self.options.watch.max_backoff * 2);
        let healthy = !failing && since_alive < long(self.options.watch.watch_timeout * 2);
        self.metrics.set_healthy(healthy);
        self.metrics.set_marks(self.marks.len());
        for alert in self.alerts.tick(now, self.last_export, healthy) {
            self.send_alert(&alert);
        }
        for (sink, reported) in self.sinks.iter().zip(self.reported.iter_mut()) {
            let stats = sink.stats();
            self.metrics.set_queue_depth(sink.name(), stats.queued.load(Ordering::Relaxed) as usize);
            let failures = stats.failures.load(Ordering::Relaxed);
            let dropped = stats.dropped.load(Ordering::Relaxed);
            for _ in reported.0..failures {
                self.metrics.sink_failed(sink.name());
            }
            if dropped > reported.1 {
                self.metrics.sink_dropped(sink.name(), dropped - reported.1);
            }
            *reported = (failures, dropped);
        }
    }

    /// Syncs the sinks (what was exported is durable), then writes the checkpoint.
    /// Starts a checkpoint in the background (unless one is still running): the state as of now
    /// is written once the sinks have synced what was offered before it (bounded), so a hung sink
    /// delays the checkpoint, never the watch.
    fn checkpoint(&mut self) {
        // Marks expire on this timer whether or not there is a state file to write.
        self.expire_marks();
        if self.checkpointing.as_ref().is_some_and(|task| !task.is_finished()) {
            return;
        }
        if let Some(job) = self.checkpoint_job() {
            self.checkpointing = Some(tokio::spawn(job.run(SYNC_WAIT)));
        }
    }

    /// The last checkpoint at shutdown, after any running one.
    async fn final_checkpoint(&mut self) {
        if let Some(task) = self.checkpointing.take() {
            let _ = task.await;
        }
        self.expire_marks();
        if let Some(job) = self.checkpoint_job() {
            job.run(CLOSE_WAIT).await;
        }
    }

    /// Drops the marks exported last more than `markTtl` ago.
    fn expire_marks(&mut self) {
        // A TTL beyond chrono's range keeps every mark (the default is not restated here).
        let ttl = chrono::Duration::from_std(self.options.mark_ttl).unwrap_or(chrono::Duration::MAX);
        self.marks.expire(Utc::now().checked_sub_signed(ttl).unwrap_or(DateTime::<Utc>::MIN_UTC));
        self.metrics.set_marks(self.marks.len());
    }

    fn checkpoint_job(&mut self) -> Option<CheckpointJob> {
        let path = self.options.state.clone()?;
        let now = Utc::now();
        let checkpoint = Checkpoint {
            version: FORMAT_VERSION,
            saved_at: Some(now),
            resource_versions: self.positions.clone(),
            marks: self.marks.snapshot(),
        };
        let sinks = self.sinks.iter().map(|s| (s.name().to_owned(), s.sync_handle())).collect();
        Some(CheckpointJob { path, checkpoint, sinks, stats: self.metrics.stats().clone() })
    }
}
