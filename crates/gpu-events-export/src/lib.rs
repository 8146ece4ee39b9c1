//! Export Kubernetes events before they expire: watch both Event APIs, normalize to the typed
//! records of [`gpu_events_core`], deduplicate with counts preserved, redact, route to sinks,
//! expose bounded-cardinality metrics and alert on sustained patterns.

pub mod alert;
pub mod checkpoint;
pub mod config;
pub mod dedupe;
pub mod error;
pub mod exporter;
pub mod leader;
pub mod metrics;
pub mod owner;
pub mod record;
pub mod redact;
pub mod route;
pub mod sink;
pub mod stats;
#[cfg(test)]
mod test_support;
pub mod watch;

pub use alert::{Alert, AlertEngine, AlertRule, AlertState, GroupKey};
pub use error::ConfigError;
pub use metrics::{Metrics, MetricsConfig};
pub use record::{Delta, ExportRecord, Owner};
pub use redact::{RedactionConfig, RedactionRule, Redactor};
pub use route::{Matcher, Route, Router};
pub use stats::ExporterStats;
