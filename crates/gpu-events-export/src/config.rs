//! The exporter's configuration file (`--config`, YAML, camelCase keys); every option is also a
//! flag of `gpu-events export`, and flags win.
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
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use crate::alert::AlertRule;
use crate::metrics::MetricsConfig;
use crate::redact::RedactionConfig;
use crate::route::Route;
use crate::sink::SinkConfig;
use crate::watch::EventApi;

/// The configuration file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct ExportConfig {
    /// `cluster` of every record (also a metrics label).
    pub cluster: Option<String>,
    /// Namespaces to watch; empty: all.
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// Event APIs to watch (default `events.k8s.io/v1`).
    #[serde(default)]
    pub apis: Vec<EventApi>,
    /// The checkpoint file.
    pub state: Option<PathBuf>,
    /// How often the checkpoint is written (`30s`, `5m`; default 30 s).
    #[serde(default, deserialize_with = "optional_duration")]
    pub checkpoint_interval: Option<Duration>,
    /// Events remembered for deduplication (default 500 000).
    pub max_events: Option<usize>,
    /// How long an exported event's watermark is kept (`2h` by default): longer than the API
    /// server's `--event-ttl` (1 h by default, 3 h on OpenShift), or a re-list after it expires
    /// exports the event again.
    #[serde(default, deserialize_with = "optional_duration")]
    pub mark_ttl: Option<Duration>,
    /// Sinks.
    #[serde(default)]
    pub sinks: Vec<SinkConfig>,
    /// Address of the Prometheus metrics endpoint (`/metrics`).
    pub metrics_addr: Option<SocketAddr>,
    /// Metric labels (`namespaceLabel: true` adds `namespace`).
    #[serde(default)]
    pub metrics: MetricsConfig,
    /// Redaction: built-in rules (`defaults`, on unless `false`) and your own `rules`.
    #[serde(default)]
    pub redaction: RedactionConfig,
    /// Routing rules (see [`Route`]); none: every record to every sink.
    #[serde(default)]
    pub routes: Vec<Route>,
    /// Alert rules on sustained patterns (see [`AlertRule`]).
    #[serde(default)]
    pub alerts: Vec<AlertRule>,
    /// Owner resolution (Pod -> ReplicaSet -> Deployment, Job, TensorFusionWorkload, ...).
    #[serde(default)]
    pub owners: OwnersConfig,
    /// Leader election, for two replicas.
    #[serde(default)]
    pub leader_election: LeaderElectionConfig,
}

/// `owners:` of the configuration file (see [`OwnerConfig`](crate::owner::OwnerConfig)).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct OwnersConfig {
    /// Resolve owners (default off).
    #[serde(default)]
    pub enabled: bool,
    /// Metadata GETs per second (default 5).
    pub qps: Option<f64>,
    /// Burst of GETs (default 10).
    pub burst: Option<u32>,
    /// Objects remembered (default 10 000).
    pub cache_size: Option<usize>,
    /// How long an answer is kept (`10m`).
    #[serde(default, deserialize_with = "optional_duration")]
    pub ttl: Option<Duration>,
}

impl OwnersConfig {
    /// The resolver's settings.
    pub fn to_owner_config(&self) -> crate::owner::OwnerConfig {
        let mut config = crate::owner::OwnerConfig { enabled: self.enabled, ..Default::default() };
        if let Some(qps) = self.qps {
            config.qps = qps;
        }
        if let Some(burst) = self.burst {
            config.burst = burst;
        }
        if let Some(size) = self.cache_size {
            config.cache_size = size;
        }
        if let Some(ttl) = self.ttl {
            config.ttl = ttl;
        }
        config
    }
}

/// `leaderElection:` of the configuration file (see [`LeaseConfig`](crate::leader::LeaseConfig)).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct LeaderElectionConfig {
    /// Elect a leader (default off).
    #[serde(default)]
    pub enabled: bool,
    /// The Lease's name (default `gpu-events-export`).
    pub lease_name: Option<String>,
    /// The Lease's namespace (default `$POD_NAMESPACE`, else the kubeconfig's namespace).
    pub lease_namespace: Option<String>,
    /// This replica's identity (default `$POD_NAME`/`$HOSTNAME` and a random suffix).
    pub identity: Option<String>,
    /// `15s` by default.
    #[serde(default, deserialize_with = "optional_duration")]
    pub lease_duration: Option<Duration>,
    /// `10s` by default.
    #[serde(default, deserialize_with = "optional_duration")]
    pub renew_deadline: Option<Duration>,
    /// `2s` by default.
    #[serde(default, deserialize_with = "optional_duration")]
    pub retry_period: Option<Duration>,
}

impl LeaderElectionConfig {
    /// The Lease settings, with `namespace` when none is configured.
    pub fn to_lease_config(&self, namespace: &str) -> crate::leader::LeaseConfig {
        let mut config = crate::leader::LeaseConfig::new(
            self.lease_name.clone().unwrap_or_else(|| "gpu-events-export".into()),
            self.lease_namespace.clone().unwrap_or_else(|| namespace.to_owned()),
            self.identity.clone().unwrap_or_else(crate::leader::default_identity),
        );
        if let Some(d) = self.lease_duration {
            config.lease_duration = d;
        }
        if let Some(d) = self.renew_deadline {
            config.renew_deadline = d;
        }
        if let Some(d) = self.retry_period {
            config.retry_period = d;
        }
        config
    }
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
        assert_eq!(config.apis, [EventApi::EventsV1, EventApi::CoreV1]);
        assert_eq!(config.checkpoint_interval, Some(Duration::from_secs(60)));
        assert_eq!(config.sinks[0].name(), "stdout");
        let err = ExportConfig::parse("clustr: x\n").unwrap_err();
        assert!(err.contains("unknown field `clustr`"), "{err}");
        assert!(ExportConfig::parse("apis: [events]\n").is_err());
    }
}
