//! Export Kubernetes events before they expire: watch both Event APIs, normalize to the typed
//! records of [`gpu_events_core`], deduplicate with counts preserved, redact, route to sinks,
//! expose bounded-cardinality metrics and alert on sustained patterns.

pub mod alert;
pub mod checkpoint;
pub mod config;
pub mod dedupe;
pub mod exporter;
pub mod metrics;
pub mod record;
pub mod redact;
pub mod route;
pub mod sink;
pub mod watch;

pub use record::{Delta, ExportRecord, Owner};
