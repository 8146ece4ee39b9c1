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
//! ```

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Deserializer};

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
    /// Sinks.
    #[serde(default)]
    pub sinks: Vec<SinkConfig>,
    /// Address of the Prometheus metrics endpoint (`/metrics`).
    pub metrics_addr: Option<SocketAddr>,
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

/// A duration written as a number and a unit: `500ms`, `30s`, `10m`, `1h`, `1h30m`.
///
/// # Errors
/// A message naming the text, when it is not of that form.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a duration such as 500ms, 30s, 10m, 1h or 1h30m");
    let mut total = Duration::ZERO;
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let number: u64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let part = match &rest[..unit] {
            "ms" => Duration::from_millis(number),
            "s" => Duration::from_secs(number),
            "m" => Duration::from_secs(number.saturating_mul(60)),
            "h" => Duration::from_secs(number.saturating_mul(3600)),
            _ => return Err(bad()),
        };
        total = total.saturating_add(part);
        rest = &rest[unit..];
    }
    Ok(total)
}

fn optional_duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Duration>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    text.map(|t| parse_duration(&t).map_err(serde::de::Error::custom)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        for bad in ["", "10", "m", "5 minutes", "-1s", "1.5h"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
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
