//! The exporter's options, each declared once: as a key of the configuration file (`--config`,
//! YAML, camelCase keys) and, with this crate's `clap` feature, as a flag of `gpu-events export`
//! (the same struct derives `Deserialize` and `clap::Args`; the command flattens it).
//!
//! - **One struct per option group**: [`ExportConfig`] (top level), [`OwnersConfig`] (`owners:`,
//!   `--owners*`), [`LeaderElectionConfig`] (`leaderElection:`, `--leader-elect*`),
//!   [`MetricsConfig`] (`metrics:`), [`RedactionConfig`] (`redaction:`) and [`SinkFlags`] (the
//!   `--sink-*` settings of `--sink` sinks, flags only: a file's sinks carry their own).
//! - **Flags overlay the file** ([`ExportConfig::overlay`]): an option is `Option<T>`, `None` when
//!   not given, and a flag given wins; a list given on the command line (`--sink`, `--route`, ...)
//!   replaces the file's; a switch (`--owners`, `--leader-elect`, `--metrics-namespace-label`,
//!   `--no-default-redaction`) can only turn its option on (or, for the last, off) over the file.
//! - **Defaults in one place**: what neither gives comes from the runtime settings' constants
//!   ([`ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL`], [`OwnerConfig::DEFAULT_QPS`],
//!   [`LeaseConfig::DEFAULT_LEASE_DURATION`], [`SinkConfig::DEFAULT_QUEUE`], ...), applied by
//!   [`ExportConfig::into_options`]; `--help` prints them from the same constants.
//!
//! | key | flag | default |
//! |---|---|---|
//! | `cluster` | `--cluster` | none |
//! | `namespaces` | `-n`, `--namespace` (repeatable) | the whole cluster |
//! | `apis` | `--api` (`events`, `core`, `both`) | [`ExporterOptions::DEFAULT_APIS`] |
//! | `state` | `--state` | none (no checkpoint) |
//! | `checkpointInterval` | `--checkpoint-interval` | [`ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL`] |
//! | `maxEvents` | `--max-events` | [`ExporterOptions::DEFAULT_MAX_EVENTS`] |
//! | `markTtl` | `--mark-ttl` | [`ExporterOptions::DEFAULT_MARK_TTL`] |
//! | `sinks` | `--sink` (repeatable), `--sink-queue`, `--sink-batch`, `--sink-rotate-bytes`, `--sink-keep` | [`ExporterOptions::DEFAULT_SINK`]; [`SinkConfig`]'s `DEFAULT_*` |
//! | `metricsAddr` | `--metrics-addr` | none (no `/metrics`) |
//! | `metrics.namespaceLabel` | `--metrics-namespace-label` | off |
//! | `redaction.defaults` | `--no-default-redaction` | on |
//! | `redaction.rules` | `--redact` (repeatable) | none |
//! | `routes` | `--route` (repeatable) | every record to every sink |
//! | `alerts` | `--alert` (repeatable) | none |
//! | `owners.enabled` | `--owners` | off |
//! | `owners.qps`, `.burst`, `.cacheSize`, `.ttl` | `--owners-qps`, `--owners-burst`, `--owners-cache-size`, `--owners-ttl` | [`OwnerConfig`]'s `DEFAULT_*` |
//! | `leaderElection.enabled` | `--leader-elect` | off |
//! | `leaderElection.leaseName` | `--leader-elect-lease-name` | [`LeaseConfig::DEFAULT_NAME`] |
//! | `leaderElection.leaseNamespace` | `--leader-elect-namespace` | `$POD_NAMESPACE`, else the kubeconfig's namespace |
//! | `leaderElection.identity` | `--leader-elect-identity` | [`default_identity`](crate::leader::default_identity) |
//! | `leaderElection.leaseDuration`, `.renewDeadline`, `.retryPeriod` | `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`, `--leader-elect-retry-period` | [`LeaseConfig`]'s `DEFAULT_*` |
//!
//! An example (`deploy/exporter/config.yaml` is another, checked by `tests/deploy.rs`):
//!
//! ```yaml
//! cluster: gpu-lab
//! namespaces: [ml, cv]            # empty or absent: the whole cluster
//! apis: [events.k8s.io/v1]        # or [v1], or both
//! state: /var/lib/gpu-events/state.json
//! checkpointInterval: 30s
//! maxEvents: 500000
//! sinks:
//!   - spec: file:/var/log/gpu-events/events.jsonl
//!     rotateBytes: 104857600
//!   - name: collector
//!     spec: otlp:http://otel-collector.monitoring:4318
//! metricsAddr: 0.0.0.0:9464
//! redaction:
//!   rules:
//!     - name: tenant
//!       pattern: 'tenant-[0-9]+'
//!       replacement: '<tenant>'
//! routes:
//!   - name: warnings-to-collector
//!     match: {types: [Warning]}
//!     sinks: [collector]
//! alerts:
//!   - name: gpu-starved
//!     match: {reasons: [FailedScheduling], causes: [insufficient-gpu]}
//!     groupBy: [cluster, namespace, reason]   # `owner` needs `owners: {enabled: true}`
//!     for: 10m
//!     sink: collector
//! ```

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use crate::alert::AlertRule;
use crate::exporter::ExporterOptions;
use crate::leader::LeaseConfig;
use crate::metrics::MetricsConfig;
use crate::owner::OwnerConfig;
use crate::redact::RedactionConfig;
use crate::route::Route;
use crate::sink::SinkConfig;
use crate::watch::EventApi;

/// A list of Event APIs: the type of [`ExportConfig::apis`], named so that clap parses one
/// `--api` value (`events`, `core`, `both`) into the whole list.
pub type EventApis = Vec<EventApi>;

/// The configuration file, and (feature `clap`) the flags of `gpu-events export`: each option
/// is declared once, here or in the group it belongs to. `None` (or an empty list) is "not
/// given": [`ExportConfig::overlay`] lays the flags over the file, [`ExportConfig::into_options`]
/// fills in the defaults.
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct ExportConfig {
    /// Cluster name written into every record and metric.
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub cluster: Option<String>,
    /// Namespace to watch (repeatable); default: the whole cluster.
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(short, long = "namespace", value_name = "NAMESPACE"))]
    pub namespaces: Vec<String>,
    /// The Event APIs to watch: `[events.k8s.io/v1]`, `[v1]` or both (flag `--api`; default
    /// [`ExporterOptions::DEFAULT_APIS`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "api",
            value_name = "API",
            value_parser = api_choice(),
            help = default_help(
                "Which Event API to watch: `events` (events.k8s.io/v1), `core` (v1) or `both` (each Event is still exported once)",
                apis_text(ExporterOptions::DEFAULT_APIS),
            )
        )
    )]
    pub apis: Option<EventApis>,
    /// The checkpoint file: a restart neither replays nor skips.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub state: Option<PathBuf>,
    /// How often the checkpoint is written (`30s`, `5m`; default
    /// [`ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL`], at least
    /// [`ExporterOptions::MIN_CHECKPOINT_INTERVAL`]).
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help(
                "How often the checkpoint is written (`30s`, `5m`)",
                format_duration(ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL),
            )
        )
    )]
    pub checkpoint_interval: Option<Duration>,
    /// Events remembered for deduplication (default [`ExporterOptions::DEFAULT_MAX_EVENTS`]; 0 is
    /// refused).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "N",
            help = default_help("Events remembered for deduplication", ExporterOptions::DEFAULT_MAX_EVENTS)
        )
    )]
    pub max_events: Option<NonZeroUsize>,
    /// How long an exported event's watermark is kept (default
    /// [`ExporterOptions::DEFAULT_MARK_TTL`]): longer than the API server's `--event-ttl` (1 h by
    /// default, 3 h on OpenShift), or a re-list after it expires exports the event again.
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help(
                "How long an exported event is remembered; keep it above the API server's --event-ttl",
                format_duration(ExporterOptions::DEFAULT_MARK_TTL),
            )
        )
    )]
    pub mark_ttl: Option<Duration>,
    /// Sinks (default: [`ExporterOptions::DEFAULT_SINK`]). The flag `--sink` takes a spec
    /// (`stdout`, `file:PATH`, `otlp:URL`, `webhook:URL`) with [`SinkFlags`] applied.
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "sink",
            value_name = "SPEC",
            value_parser = sink_spec,
            help = default_help(
                "A sink (repeatable): `stdout`, `file:PATH`, `otlp:URL`, `webhook:URL`",
                ExporterOptions::DEFAULT_SINK,
            )
        )
    )]
    pub sinks: Vec<SinkConfig>,
    /// The settings of `--sink` sinks (flags only: the file's sinks carry their own keys).
    #[serde(skip)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub sink_flags: SinkFlags,
    /// Address of the Prometheus metrics endpoint (`/metrics`).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "ADDR", help = "Serve Prometheus metrics on this address (`/metrics`)")
    )]
    pub metrics_addr: Option<SocketAddr>,
    /// Metric labels (`namespaceLabel: true` adds `namespace`).
    #[serde(default)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub metrics: MetricsConfig,
    /// Redaction: built-in rules (`defaults`, on unless `false`) and your own `rules`.
    #[serde(default)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub redaction: RedactionConfig,
    /// Routing rules (see [`Route`]); none: every record to every sink.
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "route",
            value_name = "ROUTE",
            value_parser = inline_yaml::<Route>,
            help = "A route (repeatable), inline YAML: `{name: w, match: {types: [Warning]}, sinks: [file]}`"
        )
    )]
    pub routes: Vec<Route>,
    /// Alert rules on sustained patterns (see [`AlertRule`]).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "alert",
            value_name = "ALERT",
            value_parser = inline_yaml::<AlertRule>,
            help = "An alert rule (repeatable), inline YAML: \
                    `{name: starved, match: {causes: [insufficient-gpu]}, groupBy: [owner], for: 10m, sink: file}`"
        )
    )]
    pub alerts: Vec<AlertRule>,
    /// Owner resolution (Pod -> ReplicaSet -> Deployment, Job, TensorFusionWorkload, ...).
    #[serde(default)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub owners: OwnersConfig,
    /// Leader election, for two replicas.
    #[serde(default)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub leader_election: LeaderElectionConfig,
}

/// The settings of the sinks given as `--sink` flags (flags only: a sink of the file sets them
/// as its own keys, [`SinkConfig`]); each not given is [`SinkConfig`]'s default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[non_exhaustive]
pub struct SinkFlags {
    /// Queue of each `--sink` (default [`SinkConfig::DEFAULT_QUEUE`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "sink-queue",
            value_name = "RECORDS",
            help = default_help(
                "Queue of each `--sink` (records that may wait; more are dropped and counted)",
                SinkConfig::DEFAULT_QUEUE,
            )
        )
    )]
    pub queue: Option<usize>,
    /// Records per write of each `--sink` (default [`SinkConfig::DEFAULT_BATCH`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "sink-batch",
            value_name = "RECORDS",
            help = default_help("Records per write of each `--sink`", SinkConfig::DEFAULT_BATCH)
        )
    )]
    pub batch: Option<usize>,
    /// File sinks of `--sink`: rotate at this many bytes (default
    /// [`SinkConfig::DEFAULT_ROTATE_BYTES`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "sink-rotate-bytes",
            value_name = "BYTES",
            help = default_help("File sinks of `--sink`: rotate at this many bytes", SinkConfig::DEFAULT_ROTATE_BYTES)
        )
    )]
    pub rotate_bytes: Option<u64>,
    /// File sinks of `--sink`: rotated files kept (default [`SinkConfig::DEFAULT_KEEP`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "sink-keep",
            value_name = "FILES",
            help = default_help("File sinks of `--sink`: rotated files kept", SinkConfig::DEFAULT_KEEP)
        )
    )]
    pub keep: Option<usize>,
}

impl SinkFlags {
    /// `sink` with the settings given here.
    pub fn apply(&self, mut sink: SinkConfig) -> SinkConfig {
        let SinkFlags { queue, batch, rotate_bytes, keep } = *self;
        sink.queue = queue.unwrap_or(sink.queue);
        sink.batch = batch.unwrap_or(sink.batch);
        sink.rotate_bytes = rotate_bytes.unwrap_or(sink.rotate_bytes);
        sink.keep = keep.unwrap_or(sink.keep);
        sink
    }
}

/// `owners:` of the configuration file and the `--owners*` flags (see
/// [`OwnerConfig`], whose constants are the defaults).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct OwnersConfig {
    /// Resolve owners (default off; the flag `--owners` turns it on over the file).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "owners",
            long = "owners",
            help = "Resolve each event's owning workload (needs get on the owner kinds: deploy/owner-rbac.yaml)"
        )
    )]
    pub enabled: bool,
    /// Metadata GETs per second (default [`OwnerConfig::DEFAULT_QPS`]).
    #[cfg_attr(
        feature = "clap",
        arg(long = "owners-qps", value_name = "QPS", help = default_help("Owner lookups per second", OwnerConfig::DEFAULT_QPS))
    )]
    pub qps: Option<f64>,
    /// Burst of GETs (default [`OwnerConfig::DEFAULT_BURST`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "owners-burst",
            value_name = "GETS",
            help = default_help("Owner lookups in a burst", OwnerConfig::DEFAULT_BURST)
        )
    )]
    pub burst: Option<u32>,
    /// Objects remembered (default [`OwnerConfig::DEFAULT_CACHE_SIZE`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "owners-cache-size",
            value_name = "OBJECTS",
            help = default_help("Objects whose owner is remembered", OwnerConfig::DEFAULT_CACHE_SIZE)
        )
    )]
    pub cache_size: Option<usize>,
    /// How long an answer is kept (`10m`; default [`OwnerConfig::DEFAULT_TTL`]).
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "owners-ttl",
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help("How long an owner answer is remembered", format_duration(OwnerConfig::DEFAULT_TTL))
        )
    )]
    pub ttl: Option<Duration>,
}

impl OwnersConfig {
    /// `flags` over `self`: a value given wins; `enabled` is on if either turns it on.
    pub fn overlay(self, flags: OwnersConfig) -> OwnersConfig {
        // Destructured: a new field does not compile until it is overlaid.
        let OwnersConfig { enabled, qps, burst, cache_size, ttl } = flags;
        OwnersConfig {
            enabled: enabled || self.enabled,
            qps: qps.or(self.qps),
            burst: burst.or(self.burst),
            cache_size: cache_size.or(self.cache_size),
            ttl: ttl.or(self.ttl),
        }
    }

    /// The resolver's settings: what is given, else [`OwnerConfig::default`].
    pub fn to_owner_config(&self) -> OwnerConfig {
        let defaults = OwnerConfig::default();
        let OwnersConfig { enabled, qps, burst, cache_size, ttl } = *self;
        OwnerConfig {
            enabled,
            qps: qps.unwrap_or(defaults.qps),
            burst: burst.unwrap_or(defaults.burst),
            cache_size: cache_size.unwrap_or(defaults.cache_size),
            ttl: ttl.unwrap_or(defaults.ttl),
            ..defaults
        }
    }
}

/// `leaderElection:` of the configuration file and the `--leader-elect*` flags (see
/// [`LeaseConfig`], whose constants are the defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct LeaderElectionConfig {
    /// Elect a leader (default off; the flag `--leader-elect` turns it on over the file).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "leader-elect",
            long = "leader-elect",
            help = "Run as one of several replicas: export only while holding the Lease"
        )
    )]
    pub enabled: bool,
    /// The Lease's name (default [`LeaseConfig::DEFAULT_NAME`]).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-lease-name",
            value_name = "NAME",
            help = default_help("The Lease's name", LeaseConfig::DEFAULT_NAME)
        )
    )]
    pub lease_name: Option<String>,
    /// The Lease's namespace (default `$POD_NAMESPACE`, else the kubeconfig's namespace).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-namespace",
            value_name = "NAMESPACE",
            help = "The Lease's namespace [default: $POD_NAMESPACE, else the kubeconfig's namespace]"
        )
    )]
    pub lease_namespace: Option<String>,
    /// This replica's identity (default `$POD_NAME`/`$HOSTNAME` and a random suffix,
    /// [`default_identity`](crate::leader::default_identity)).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-identity",
            value_name = "IDENTITY",
            help = "This replica's identity in the Lease [default: $POD_NAME or $HOSTNAME, with a random suffix]"
        )
    )]
    pub identity: Option<String>,
    /// Default [`LeaseConfig::DEFAULT_LEASE_DURATION`].
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-lease-duration",
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help(
                "How long a Lease stays with its holder without renewal",
                format_duration(LeaseConfig::DEFAULT_LEASE_DURATION),
            )
        )
    )]
    pub lease_duration: Option<Duration>,
    /// Default [`LeaseConfig::DEFAULT_RENEW_DEADLINE`].
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-renew-deadline",
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help(
                "How long the leader leads without a successful renewal",
                format_duration(LeaseConfig::DEFAULT_RENEW_DEADLINE),
            )
        )
    )]
    pub renew_deadline: Option<Duration>,
    /// Default [`LeaseConfig::DEFAULT_RETRY_PERIOD`].
    #[serde(default, deserialize_with = "optional_duration")]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "leader-elect-retry-period",
            value_name = "DURATION",
            value_parser = parse_duration,
            help = default_help(
                "How often the Lease is read and renewed or acquired",
                format_duration(LeaseConfig::DEFAULT_RETRY_PERIOD),
            )
        )
    )]
    pub retry_period: Option<Duration>,
}

impl LeaderElectionConfig {
    /// `flags` over `self`: a value given wins; `enabled` is on if either turns it on.
    pub fn overlay(self, flags: LeaderElectionConfig) -> LeaderElectionConfig {
        // Destructured: a new field does not compile until it is overlaid.
        let LeaderElectionConfig {
            enabled,
            lease_name,
            lease_namespace,
            identity,
            lease_duration,
            renew_deadline,
            retry_period,
        } = flags;
        LeaderElectionConfig {
            enabled: enabled || self.enabled,
            lease_name: lease_name.or(self.lease_name),
            lease_namespace: lease_namespace.or(self.lease_namespace),
            identity: identity.or(self.identity),
            lease_duration: lease_duration.or(self.lease_duration),
            renew_deadline: renew_deadline.or(self.renew_deadline),
            retry_period: retry_period.or(self.retry_period),
        }
    }

    /// The Lease settings, with `namespace` when none is configured, else the defaults
    /// ([`LeaseConfig::DEFAULT_NAME`], [`default_identity`](crate::leader::default_identity),
    /// [`LeaseConfig::new`]'s timing).
    pub fn to_lease_config(&self, namespace: &str) -> LeaseConfig {
        let mut config = LeaseConfig::new(
            self.lease_name.clone().unwrap_or_else(|| LeaseConfig::DEFAULT_NAME.into()),
            self.lease_namespace.clone().unwrap_or_else(|| namespace.to_owned()),
            self.identity.clone().unwrap_or_else(crate::leader::default_identity),
        );
        config.lease_duration = self.lease_duration.unwrap_or(config.lease_duration);
        config.renew_deadline = self.renew_deadline.unwrap_or(config.renew_deadline);
        config.retry_period = self.retry_period.unwrap_or(config.retry_period);
        config
    }
}

impl ExportConfig {
    /// `flags` over `self` (the file): a value given wins; a list given (`--namespace`,
    /// `--sink`, `--redact`, `--route`, `--alert`) replaces the file's, `--sink` sinks with the
    /// [`SinkFlags`] applied; a switch turns its option on (`--no-default-redaction`: off).
    pub fn overlay(self, flags: ExportConfig) -> ExportConfig {
        // Destructured: a new option does not compile until it is overlaid.
        let ExportConfig {
            cluster,
            namespaces,
            apis,
            state,
            checkpoint_interval,
            max_events,
            mark_ttl,
            sinks,
            sink_flags,
            metrics_addr,
            metrics,
            redaction,
            routes,
            alerts,
            owners,
            leader_election,
        } = flags;
        let sinks =
            if sinks.is_empty() { self.sinks } else { sinks.into_iter().map(|sink| sink_flags.apply(sink)).collect() };
        let RedactionConfig { defaults, rules } = redaction;
        let mut file_redaction = self.redaction;
        file_redaction.defaults &= defaults;
        file_redaction.rules = given(rules, file_redaction.rules);
        let MetricsConfig { namespace_label } = metrics;
        let namespace_label = namespace_label || self.metrics.namespace_label;
        ExportConfig {
            cluster: cluster.or(self.cluster),
            namespaces: given(namespaces, self.namespaces),
            apis: apis.or(self.apis),
            state: state.or(self.state),
            checkpoint_interval: checkpoint_interval.or(self.checkpoint_interval),
            max_events: max_events.or(self.max_events),
            mark_ttl: mark_ttl.or(self.mark_ttl),
            sinks,
            sink_flags,
            metrics_addr: metrics_addr.or(self.metrics_addr),
            metrics: self.metrics.with_namespace_label(namespace_label),
            redaction: file_redaction,
            routes: given(routes, self.routes),
            alerts: given(alerts, self.alerts),
            owners: self.owners.overlay(owners),
            leader_election: self.leader_election.overlay(leader_election),
        }
    }

    /// The exporter's settings: what is given, else the defaults ([`ExporterOptions::default`],
    /// one [`ExporterOptions::DEFAULT_SINK`] when no sink is given, an empty `apis` list as not
    /// given). Leader election is not an exporter setting: read
    /// [`leader_election`](ExportConfig::leader_election) first.
    pub fn into_options(self) -> ExporterOptions {
        let defaults = ExporterOptions::default();
        let ExportConfig {
            cluster,
            namespaces,
            apis,
            state,
            checkpoint_interval,
            max_events,
            mark_ttl,
            mut sinks,
            sink_flags: _,
            metrics_addr,
            metrics,
            redaction,
            routes,
            alerts,
            owners,
            leader_election: _,
        } = self;
        if sinks.is_empty() {
            sinks.push(SinkConfig::from_spec(ExporterOptions::DEFAULT_SINK));
        }
        ExporterOptions {
            cluster,
            namespaces,
            apis: apis.filter(|apis| !apis.is_empty()).unwrap_or(defaults.apis),
            state,
            checkpoint_interval: checkpoint_interval
                .map_or(defaults.checkpoint_interval, |i| i.max(ExporterOptions::MIN_CHECKPOINT_INTERVAL)),
            sinks,
            max_events: max_events.unwrap_or(defaults.max_events),
            mark_ttl: mark_ttl.unwrap_or(defaults.mark_ttl),
            watch: defaults.watch,
            redaction,
            routes,
            alerts,
            metrics,
            metrics_addr,
            owners: owners.to_owner_config(),
        }
    }
}

/// A list given on the command line replaces the file's; an empty one is "not given".
fn given<T>(flags: Vec<T>, file: Vec<T>) -> Vec<T> {
    if flags.is_empty() { file } else { flags }
}

/// Why the configuration file cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigFileError {
    /// It cannot be read.
    #[error("config {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It is not valid YAML of this shape (unknown keys are errors, with their position).
    #[error("config {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What serde_yaml_ng said, with line and column.
        message: String,
    },
}

impl ExportConfig {
    /// Reads a YAML file.
    ///
    /// # Errors
    /// [`ConfigFileError`] when it cannot be read or parsed.
    pub fn load(path: &Path) -> Result<ExportConfig, ConfigFileError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigFileError::Read { path: path.to_owned(), source })?;
        Self::parse(&text).map_err(|message| ConfigFileError::Parse { path: path.to_owned(), message })
    }

    /// Parses YAML text; the error says what and where.
    ///
    /// # Errors
    /// The parser's message.
    pub fn parse(text: &str) -> Result<ExportConfig, String> {
        serde_yaml_ng::from_str(text).map_err(|e| e.to_string())
    }
}

pub use crate::alert::parse_duration;

/// A duration as [`parse_duration`] reads it back: `2h`, `10m`, `1m30s`, `100ms`.
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    let mut out = String::new();
    let mut rest = millis;
    for (unit, size) in [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)] {
        if rest >= size {
            out.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    if out.is_empty() { "0s".to_owned() } else { out }
}

/// The Event APIs as the config file writes them: `events.k8s.io/v1`, `events.k8s.io/v1,v1`.
pub fn apis_text(apis: &[EventApi]) -> String {
    apis.iter().map(|api| api.as_str()).collect::<Vec<_>>().join(",")
}

/// A flag value in the config file's YAML form (`--redact`, `--route`, `--alert`).
///
/// # Errors
/// The YAML parser's message.
pub fn inline_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_yaml_ng::from_str(text).map_err(|e| e.to_string())
}

/// `--sink SPEC`: a sink with [`SinkConfig`]'s defaults (the spec is checked when it starts).
#[cfg_attr(not(feature = "clap"), allow(dead_code))]
fn sink_spec(spec: &str) -> Result<SinkConfig, String> {
    Ok(SinkConfig::from_spec(spec))
}

/// A flag's help with its default, in clap's own `[default: ...]` form, from the constant.
#[cfg(feature = "clap")]
fn default_help(text: &str, default: impl std::fmt::Display) -> String {
    format!("{text} [default: {default}]")
}

/// `--api`: `events`, `core` or `both` (or an apiVersion, as in the file).
#[cfg(feature = "clap")]
fn api_choice() -> impl clap::builder::TypedValueParser<Value = EventApis> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["events", "core", "both", "events.k8s.io/v1", "v1"]).map(|choice| {
        match choice.as_str() {
            "core" | "v1" => vec![EventApi::CoreV1],
            "both" => EventApi::ALL.to_vec(),
            _ => vec![EventApi::EventsV1],
        }
    })
}

fn optional_duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Duration>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    text.map(|t| parse_duration(&t).map_err(serde::de::Error::custom)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_docs_example_is_a_valid_config() {
        let docs = include_str!("config.rs");
        let yaml: String = docs
            .lines()
            .skip_while(|l| !l.starts_with("//! ```yaml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| l.strip_prefix("//! ").or_else(|| l.strip_prefix("//!")).unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n");
        let config = ExportConfig::parse(&yaml).unwrap();
        assert_eq!(config.sinks.len(), 2);
        assert_eq!(config.alerts[0].name, "gpu-starved");
        assert_eq!(config.routes[0].sinks, ["collector"]);
    }

    #[test]
    fn reads_the_documented_example_and_refuses_unknown_keys() {
        let config = ExportConfig::parse(
            "cluster: gpu-lab\nnamespaces: [ml]\napis: [events.k8s.io/v1, v1]\ncheckpointInterval: 1m\nsinks:\n  - spec: stdout\nmetricsAddr: 127.0.0.1:9464\n",
        )
        .unwrap();
        assert_eq!(config.apis.as_deref(), Some(&[EventApi::EventsV1, EventApi::CoreV1][..]));
        assert_eq!(config.checkpoint_interval, Some(Duration::from_secs(60)));
        assert_eq!(config.sinks[0].name(), "stdout");
        let err = ExportConfig::parse("clustr: x\n").unwrap_err();
        assert!(err.contains("unknown field `clustr`"), "{err}");
        assert!(ExportConfig::parse("apis: [events]\n").is_err());
    }

    #[test]
    fn flags_overlay_the_file_and_defaults_come_from_the_runtime_constants() {
        let file = ExportConfig::parse(
            "cluster: from-file\nnamespaces: [ml]\napis: [v1]\ncheckpointInterval: 1m\nsinks:\n  - spec: stdout\n\
             redaction: {rules: [{name: t, pattern: 'tenant-[0-9]+'}]}\nowners: {qps: 2, burst: 3}\n\
             leaderElection: {leaseNamespace: file-ns, leaseName: file-lease}\n",
        )
        .unwrap();
        // The flags are the same struct: written here as YAML, as clap would fill it.
        let mut flags = ExportConfig::parse(
            "cluster: from-flag\nsinks:\n  - spec: file:/tmp/x.jsonl\nowners: {enabled: true, qps: 7}\n\
             leaderElection: {enabled: true, leaseNamespace: flag-ns}\nmetrics: {namespaceLabel: true}\n",
        )
        .unwrap();
        flags.sink_flags.keep = Some(9);
        flags.redaction.defaults = false;
        let config = file.overlay(flags);
        assert!(config.leader_election.enabled, "a switch turns its option on over the file");
        let lease = config.leader_election.to_lease_config("fallback");
        assert_eq!((lease.namespace.as_str(), lease.name.as_str()), ("flag-ns", "file-lease"), "flags win, per key");
        assert_eq!(lease.retry_period, LeaseConfig::DEFAULT_RETRY_PERIOD);
        let options = config.into_options();
        assert_eq!(options.cluster.as_deref(), Some("from-flag"));
        assert_eq!(options.namespaces, ["ml"], "not given as a flag: the file's");
        assert_eq!(options.apis, [EventApi::CoreV1]);
        assert_eq!(options.checkpoint_interval, Duration::from_secs(60));
        assert_eq!(options.sinks.len(), 1, "flag sinks replace the file's");
        assert_eq!(options.sinks[0].spec, "file:/tmp/x.jsonl");
        assert_eq!(options.sinks[0].keep, 9, "--sink-keep applies to --sink sinks");
        assert_eq!(options.sinks[0].queue, SinkConfig::DEFAULT_QUEUE);
        assert!(!options.redaction.defaults, "--no-default-redaction turns the built-in rules off");
        assert_eq!(options.redaction.rules.len(), 1, "no --redact: the file's rules");
        assert!(options.metrics.namespace_label);
        assert!(options.owners.enabled);
        assert_eq!((options.owners.qps, options.owners.burst), (7.0, 3));
        assert_eq!(options.owners.cache_size, OwnerConfig::DEFAULT_CACHE_SIZE);
        assert_eq!(options.max_events, ExporterOptions::DEFAULT_MAX_EVENTS);
        assert_eq!(options.mark_ttl, ExporterOptions::DEFAULT_MARK_TTL);
    }

    #[test]
    fn nothing_given_is_the_runtime_defaults() {
        let options = ExportConfig::default().overlay(ExportConfig::default()).into_options();
        let defaults = ExporterOptions::default();
        assert_eq!(options.apis, ExporterOptions::DEFAULT_APIS);
        assert_eq!(options.apis, defaults.apis);
        assert_eq!(options.checkpoint_interval, ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL);
        assert_eq!(options.max_events, defaults.max_events);
        assert_eq!(options.mark_ttl, defaults.mark_ttl);
        assert_eq!(options.sinks, [SinkConfig::from_spec(ExporterOptions::DEFAULT_SINK)]);
        assert_eq!(options.owners, OwnerConfig::default());
        assert_eq!(options.redaction, RedactionConfig::default());
        assert!(options.redaction.defaults, "built-in redaction is on unless turned off");
        // An empty list in the file is "not given", as it was.
        let empty = ExportConfig::parse("apis: []\n").unwrap().into_options();
        assert_eq!(empty.apis, ExporterOptions::DEFAULT_APIS);
        // A checkpoint interval below the floor is raised to it.
        let fast = ExportConfig::parse("checkpointInterval: 1ms\n").unwrap().into_options();
        assert_eq!(fast.checkpoint_interval, ExporterOptions::MIN_CHECKPOINT_INTERVAL);
        assert!(ExportConfig::parse("maxEvents: 0\n").is_err(), "0 events remembered cannot work");
        assert!(ExportConfig::parse("sinkFlags: {keep: 1}\n").is_err(), "the --sink-* settings are flags only");
    }

    #[test]
    fn formatted_durations_read_back() {
        for (text, duration) in [
            ("30s", Duration::from_secs(30)),
            ("2h", Duration::from_secs(7200)),
            ("10m", Duration::from_secs(600)),
            ("1m30s", Duration::from_secs(90)),
            ("100ms", Duration::from_millis(100)),
            ("1d1h", Duration::from_secs(90_000)),
            ("0s", Duration::ZERO),
        ] {
            assert_eq!(format_duration(duration), text);
            assert_eq!(parse_duration(text), Ok(duration), "{text}");
        }
        assert_eq!(apis_text(&EventApi::ALL), "events.k8s.io/v1,v1");
    }

    /// Every key of the module docs' options table is one the file accepts.
    #[test]
    fn the_docs_table_names_keys_the_file_accepts() {
        let docs = include_str!("config.rs");
        let mut keys = Vec::new();
        for row in docs.lines().filter(|l| l.starts_with("//! | `")) {
            let cell = row.split('|').nth(1).unwrap_or_default();
            let mut parent = String::new();
            for key in cell.split(',').map(|k| k.trim().trim_matches('`')) {
                let key = match key.strip_prefix('.') {
                    Some(child) => format!("{parent}.{child}"),
                    None => key.to_owned(),
                };
                key.split('.').next().unwrap_or_default().clone_into(&mut parent);
                keys.push(key);
            }
        }
        assert!(keys.len() > 20, "{keys:?}");
        for key in keys {
            // `a.b` as `a: {b: null}`: a known key may refuse null, an unknown one says so.
            let yaml = match key.split_once('.') {
                Some((group, child)) => format!("{group}: {{{child}: null}}\n"),
                None => format!("{key}: null\n"),
            };
            if let Err(err) = ExportConfig::parse(&yaml) {
                assert!(!err.contains("unknown field"), "{key}: {err}");
            }
        }
    }
}
