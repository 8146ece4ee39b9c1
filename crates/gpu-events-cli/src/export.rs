//! `gpu-events export`: the exporter of `gpu-events-export`, configured from a YAML file and
//! flags (flags win), stopped by Ctrl-C or SIGTERM with a final checkpoint.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use gpu_events_export::config::{ExportConfig, parse_duration};
use gpu_events_export::exporter::{self, ExporterOptions, ExporterStats};
use gpu_events_export::leader::LeaderElector;
use gpu_events_export::sink::SinkConfig;
use gpu_events_export::watch::EventApi;
use gpu_events_export::{AlertRule, Metrics, RedactionRule, Route};

/// Flags of `gpu-events export`.
#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    /// The configuration file (YAML); flags override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Cluster name written into every record and metric.
    #[arg(long)]
    cluster: Option<String>,
    /// Namespace to watch (repeatable); default: the whole cluster.
    #[arg(short, long = "namespace")]
    namespaces: Vec<String>,
    /// Which Event API to watch.
    #[arg(long, value_enum)]
    api: Option<ApiChoice>,
    /// A sink (repeatable): `stdout`, `file:PATH`, `otlp:URL`, `webhook:URL`.
    #[arg(long = "sink")]
    sinks: Vec<String>,
    /// The checkpoint file: a restart neither replays nor skips.
    #[arg(long)]
    state: Option<PathBuf>,
    /// How often the checkpoint is written (`30s`, `5m`).
    #[arg(long, value_parser = parse_duration)]
    checkpoint_interval: Option<std::time::Duration>,
    /// Events remembered for deduplication.
    #[arg(long)]
    max_events: Option<NonZeroUsize>,
    /// How long an exported event is remembered (`2h`); keep it above the API server's --event-ttl.
    #[arg(long, value_parser = parse_duration)]
    mark_ttl: Option<std::time::Duration>,
    /// Serve Prometheus metrics on this address (`/metrics`).
    #[arg(long)]
    metrics_addr: Option<SocketAddr>,
    /// Add a `namespace` label to the metrics (bounded by your namespaces).
    #[arg(long)]
    metrics_namespace_label: bool,
    /// Turn off the built-in redaction rules (credentials, tokens, keys, passwords, ids, addresses:
    /// `gpu-events redact --list-rules`).
    #[arg(long)]
    no_default_redaction: bool,
    /// A redaction rule (repeatable), as in the config file, inline YAML:
    /// `{name: tenant, pattern: 'tenant-[0-9]+', replacement: '<tenant>'}`.
    #[arg(long = "redact", value_parser = yaml::<RedactionRule>)]
    redact: Vec<RedactionRule>,
    /// A route (repeatable), inline YAML: `{name: w, match: {types: [Warning]}, sinks: [file]}`.
    #[arg(long = "route", value_parser = yaml::<Route>)]
    routes: Vec<Route>,
    /// An alert rule (repeatable), inline YAML:
    /// `{name: starved, match: {causes: [insufficient-gpu]}, groupBy: [owner], for: 10m, sink: file}`.
    #[arg(long = "alert", value_parser = yaml::<AlertRule>)]
    alerts: Vec<AlertRule>,
    /// Resolve each event's owning workload (needs get on the owner kinds: deploy/owner-rbac.yaml).
    #[arg(long)]
    owners: bool,
    /// Run as one of several replicas: export only while holding the Lease.
    #[arg(long)]
    leader_elect: bool,
    /// The Lease's namespace (default: $POD_NAMESPACE, else the kubeconfig's namespace).
    #[arg(long)]
    leader_elect_namespace: Option<String>,
    /// The Lease's name (default gpu-events-export).
    #[arg(long)]
    leader_elect_lease_name: Option<String>,
    /// This replica's identity in the Lease (default $POD_NAME or $HOSTNAME, with a random suffix).
    #[arg(long)]
    leader_elect_identity: Option<String>,
    /// Owner lookups per second (default 5).
    #[arg(long)]
    owners_qps: Option<f64>,
    /// Owner lookups in a burst (default 10).
    #[arg(long)]
    owners_burst: Option<u32>,
    /// Objects whose owner is remembered (default 10 000).
    #[arg(long)]
    owners_cache_size: Option<usize>,
    /// Queue of each `--sink` (records that may wait; more are dropped and counted).
    #[arg(long)]
    sink_queue: Option<usize>,
    /// Records per write of each `--sink`.
    #[arg(long)]
    sink_batch: Option<usize>,
    /// File sinks of `--sink`: rotate at this many bytes.
    #[arg(long)]
    sink_rotate_bytes: Option<u64>,
    /// File sinks of `--sink`: rotated files kept.
    #[arg(long)]
    sink_keep: Option<usize>,
}

/// A flag value in the config file's YAML form.
fn yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_yaml_ng::from_str(text).map_err(|e| e.to_string())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ApiChoice {
    /// events.k8s.io/v1 (the default).
    Events,
    /// core/v1.
    Core,
    /// Both (each Event is still exported once).
    Both,
}

/// The options from the file and the flags.
/// Leader election, when on: the Lease settings.
type Election = Option<gpu_events_export::config::LeaderElectionConfig>;

fn options(args: ExportArgs) -> Result<(ExporterOptions, Election, Option<String>), String> {
    let file = match &args.config {
        Some(path) => ExportConfig::load(path).map_err(|e| e.to_string())?,
        None => ExportConfig::default(),
    };
    let mut options = ExporterOptions::default();
    options.cluster = args.cluster.or(file.cluster);
    options.namespaces = if args.namespaces.is_empty() { file.namespaces } else { args.namespaces };
    options.apis = match args.api {
        Some(ApiChoice::Events) => vec![EventApi::EventsV1],
        Some(ApiChoice::Core) => vec![EventApi::CoreV1],
        Some(ApiChoice::Both) => vec![EventApi::EventsV1, EventApi::CoreV1],
        None if !file.apis.is_empty() => file.apis,
        None => vec![EventApi::EventsV1],
    };
    options.state = args.state.or(file.state);
    if let Some(interval) = args.checkpoint_interval.or(file.checkpoint_interval) {
        options.checkpoint_interval = interval.max(std::time::Duration::from_millis(100));
    }
    if let Some(max) = args.max_events.or(file.max_events.and_then(NonZeroUsize::new)) {
        options.max_events = max;
    }
    if let Some(ttl) = args.mark_ttl.or(file.mark_ttl) {
        options.mark_ttl = ttl;
    }
    options.sinks = if args.sinks.is_empty() {
        file.sinks
    } else {
        let sink = |spec: &String| {
            let mut sink = SinkConfig::from_spec(spec);
            sink.queue = args.sink_queue.unwrap_or(sink.queue);
            sink.batch = args.sink_batch.unwrap_or(sink.batch);
            sink.rotate_bytes = args.sink_rotate_bytes.unwrap_or(sink.rotate_bytes);
            sink.keep = args.sink_keep.unwrap_or(sink.keep);
            sink
        };
        args.sinks.iter().map(sink).collect()
    };
    if options.sinks.is_empty() {
        options.sinks.push(SinkConfig::from_spec("stdout"));
    }
    options.metrics_addr = args.metrics_addr.or(file.metrics_addr);
    let namespace_label = args.metrics_namespace_label || file.metrics.namespace_label;
    options.metrics = file.metrics.with_namespace_label(namespace_label);
    options.redaction = file.redaction;
    if args.no_default_redaction {
        options.redaction.defaults = false;
    }
    if !args.redact.is_empty() {
        options.redaction.rules = args.redact;
    }
    options.routes = if args.routes.is_empty() { file.routes } else { args.routes };
    options.alerts = if args.alerts.is_empty() { file.alerts } else { args.alerts };
    options.owners = file.owners.to_owner_config();
    options.owners.enabled |= args.owners;
    options.owners.qps = args.owners_qps.unwrap_or(options.owners.qps);
    options.owners.burst = args.owners_burst.unwrap_or(options.owners.burst);
    options.owners.cache_size = args.owners_cache_size.unwrap_or(options.owners.cache_size);
    let mut leader = file.leader_election;
    if args.leader_elect_lease_name.is_some() {
        leader.lease_name = args.leader_elect_lease_name;
    }
    if args.leader_elect_identity.is_some() {
        leader.identity = args.leader_elect_identity;
    }
    let election = (args.leader_elect || leader.enabled).then_some(leader);
    Ok((options, election, args.leader_elect_namespace))
}

/// Runs until Ctrl-C or SIGTERM.
pub(crate) fn run(args: ExportArgs, cluster: &crate::cluster::ClusterArgs) -> Result<ExitCode, String> {
    let (options, election, lease_namespace) = options(args)?;
    // Warnings and errors (failed lists, sinks, checkpoints) on stderr; RUST_LOG refines it.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,gpu_events_export=info"));
    let ansi = crate::table::colour_stderr();
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let mut config = cluster.config().await?;
        // The exporter retries with its own backoff and must see each 429/5xx at once: kube's
        // default policy retries them for minutes (a checkpoint ahead of the server answers
        // 504 ResourceVersionTooLarge, which then went unnoticed while /healthz said ok).
        config.default_retry = false;
        let client = kube::Client::try_from(config).map_err(|e| format!("building the cluster client: {e}"))?;
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let signal = stop.clone();
        tokio::spawn(async move {
            shutdown_signal().await;
            let _ = signal.send(true);
        });
        let Some(election) = election else {
            exporter::run(client, options, Arc::new(ExporterStats::default()), stopped)
                .await
                .map_err(|e| e.to_string())?;
            return Ok(ExitCode::SUCCESS);
        };
        // Export only while leading; losing the Lease stops the exporter (with its final
        // checkpoint) and ends the process, so the Deployment restarts it as a standby.
        let namespace = lease_namespace
            .or_else(|| std::env::var("POD_NAMESPACE").ok())
            .unwrap_or_else(|| client.default_namespace().to_owned());
        let elector =
            LeaderElector::new(client.clone(), election.to_lease_config(&namespace)).map_err(|e| e.to_string())?;
        // A standby serves /healthz (healthy while it campaigns) and its metrics, leader 0, from
        // the start; the exporter fills the same metrics once this replica leads.
        let mut options = options;
        let metrics = Arc::new(Metrics::new(&options.metrics, options.cluster.as_deref()));
        metrics.set_leader(false);
        let _metrics_server = match options.metrics_addr.take() {
            Some(addr) => {
                let (_, task) = gpu_events_export::metrics::serve(addr, metrics.clone())
                    .await
                    .map_err(|e| format!("metrics address {addr}: {e}"))?;
                Some(AbortOnDrop(task))
            }
            None => None,
        };
        let (leading_tx, mut leading) = tokio::sync::watch::channel(false);
        // The Lease is released only after the exporter has written its final checkpoint, so a
        // standby sharing the state file resumes exactly where this replica stopped.
        let (release, released) = tokio::sync::watch::channel(false);
        let election_task = tokio::spawn(elector.run(leading_tx, released));
        let mut waiting = stopped.clone();
        tokio::select! {
            got = leading.wait_for(|l| *l) => if got.is_err() {
                return match election_task.await {
                    Ok(Err(err)) => Err(err.to_string()),
                    _ => Err("leader election ended".into()),
                };
            },
            _ = waiting.wait_for(|s| *s) => {
                let _ = release.send(true);
                let _ = election_task.await;
                return Ok(ExitCode::SUCCESS);
            }
        }
        let lost = stop.clone();
        tokio::spawn(async move {
            let _ = leading.wait_for(|l| !*l).await;
            let _ = lost.send(true);
        });
        let exported = exporter::run_with_metrics(client, options, metrics, stopped).await.map_err(|e| e.to_string());
        let _ = release.send(true);
        let elected = election_task.await;
        exported?;
        match elected {
            Ok(Err(err)) => Err(err.to_string()),
            _ => Ok(ExitCode::SUCCESS),
        }
    })
}

/// Stops a background task when dropped (the metrics server, on every way out of `run`).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
