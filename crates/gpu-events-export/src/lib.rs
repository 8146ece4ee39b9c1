//! Export Kubernetes events before they expire: watch both Event APIs, normalize to the typed
//! records of [`gpu_events_core`], deduplicate with counts preserved, redact, route to sinks,
//! expose bounded-cardinality metrics and alert on sustained patterns. `gpu-events export` is
//! this crate behind flags; [`exporter::run`] is the same for a program of your own.
//!
//! A library crate: it enables no Kubernetes version feature of k8s-openapi; the binary or test that links it
//! picks one (`k8s-openapi = { version = "0.29", features = ["latest"] }`), as with kube. A bare `cargo build`
//! or `cargo doc` of a library on this crate needs `K8S_OPENAPI_ENABLED_VERSION=1.37` in the environment (any
//! version k8s-openapi 0.29 supports, 1.33 to 1.37).
//!
//! # Map
//!
//! | module | what it does, in pipeline order |
//! |---|---|
//! | [`watch`] | list and watch `events.k8s.io/v1` and `core/v1` Events, resume from a resourceVersion, re-list after 410 |
//! | [`dedupe`] | [`dedupe::Watermarks`]: what each notification adds (new occurrences, not replays, not the other API's copy) |
//! | [`owner`] | the Pod's owners (Job, Deployment, TensorFusionWorkload), for grouping |
//! | [`redact`] | [`Redactor`]: secrets out of every text before any sink, metric or alert |
//! | [`route`], [`sink`] | which records go where (stdout, files, HTTP), each with a bounded queue |
//! | [`alert`] | rules over sustained patterns, firing and resolving |
//! | [`metrics`], [`stats`] | Prometheus metrics with bounded labels, read from one set of counters ([`ExporterStats`]) |
//! | [`checkpoint`], [`leader`] | restart where it stopped; one exporter per cluster through a Lease |
//! | [`config`], [`exporter`] | the options (file and flags) and the loop that ties it together |
//!
//! # Example: what the pipeline does to one event
//!
//! ```
//! use std::num::NonZeroUsize;
//! use gpu_events_core::decode::Decoder;
//! use gpu_events_export::dedupe::{Seen, Watermarks};
//! use gpu_events_export::{ExportRecord, RedactionConfig, Redactor};
//!
//! let event = r#"{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "w.1", "namespace": "ml", "uid": "u-1"},
//!   "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "w"}, "reason": "FailedMount", "type": "Warning",
//!   "message": "MountVolume.SetUp failed for volume \"models\" : mount failed: s3://bucket?X-Amz-Signature=0123456789abcdef0123456789abcdef",
//!   "count": 3}"#;
//! let record = Decoder::from_str(event).next().unwrap()?;
//! let mut marks = Watermarks::new(NonZeroUsize::new(1000).unwrap());
//! let now = chrono::Utc::now();
//! // First seen: all three occurrences are new; seen again unchanged, it adds nothing.
//! let Seen::New(delta) = marks.observe(&record, now) else { panic!() };
//! assert_eq!(delta.occurrences, 3);
//! assert!(matches!(marks.observe(&record, now), Seen::Unchanged));
//! // Redacted before it reaches a sink: the signature goes, the facts stay.
//! let mut export = ExportRecord::new(record, delta);
//! Redactor::new(&RedactionConfig::default()).unwrap().redact(&mut export);
//! assert!(!export.record.note.contains("0123456789abcdef"), "{}", export.record.note);
//! assert!(export.record.note.contains("volume \"models\""));
//! # Ok::<(), gpu_events_core::decode::DecodeError>(())
//! ```

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
