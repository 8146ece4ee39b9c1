#![doc = include_str!("../README.md")]
//!
//! The facade of the gpu-events workspace: it re-exports the member crates behind features, as
//! the `kube` crate does for `kube-core`, `kube-client` and `kube-runtime`.

/// The catalogue, records and decoders (`gpu-events-core`). Feature `core`, on by default.
#[cfg(feature = "core")]
pub use gpu_events_core as core;

/// The typed event recorder for controllers (`gpu-events-recorder`, on kube and tokio). Feature
/// `recorder`.
#[cfg(feature = "recorder")]
pub use gpu_events_recorder as recorder;

/// The exporter: watch, deduplicate, redact, route, sinks, metrics and alerts
/// (`gpu-events-export`, on kube and tokio). Feature `export`.
#[cfg(feature = "export")]
pub use gpu_events_export as export;
