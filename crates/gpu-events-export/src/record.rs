//! [`ExportRecord`]: what the exporter ships, one JSON object per line: the typed
//! [`EventRecord`] of the core crate, plus how many occurrences are new since the last export,
//! the owner it belongs to, the GPU cause it points at, and what redaction changed.

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::diagnose::{Cause, Confidence};
use serde::Serialize;

/// How many occurrences of an event this export adds: a repeat (a core/v1 `count` increment or
/// an events.k8s.io/v1 series update) becomes a delta, never a fresh duplicate and never lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Delta {
    /// Occurrences since the previous export of this event (the whole count the first time).
    pub occurrences: u64,
    /// Occurrences in all (`series.count`, else `count`, else 1).
    pub total: u64,
    /// The first observation (`firstTimestamp` / `eventTime`), RFC 3339 UTC.
    pub first_seen: Option<DateTime<Utc>>,
    /// The latest observation (`series.lastObservedTime` / `lastTimestamp` / `eventTime`).
    pub last_seen: Option<DateTime<Utc>>,
    /// When this event was exported before, if it was.
    pub previous_export: Option<DateTime<Utc>>,
}

impl Delta {
    /// A delta of `occurrences` new ones out of `total`, observed from `first_seen` to
    /// `last_seen`, after an export at `previous_export` (if any).
    pub fn new(
        occurrences: u64,
        total: u64,
        first_seen: Option<DateTime<Utc>>,
        last_seen: Option<DateTime<Utc>>,
        previous_export: Option<DateTime<Utc>>,
    ) -> Self {
        Delta { occurrences, total, first_seen, last_seen, previous_export }
    }
}

/// The workload an event's object belongs to, from owner references (Pod -> ReplicaSet ->
/// Deployment, Job, TensorFusionWorkload, ...), when owner resolution is on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Owner {
    /// Kind of the top owner (`Deployment`, `Job`, `TensorFusionWorkload`, ...).
    pub kind: String,
    /// Its namespace (none for cluster-scoped owners).
    pub namespace: Option<String>,
    /// Its name.
    pub name: String,
}

impl Owner {
    /// An owner.
    pub fn new(kind: impl Into<String>, namespace: Option<String>, name: impl Into<String>) -> Self {
        Owner { kind: kind.into(), namespace, name: name.into() }
    }

    /// `Kind/namespace/name` (or `Kind/name`), the form used as an alert group value.
    pub fn key(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{}/{ns}/{}", self.kind, self.name),
            None => format!("{}/{}", self.kind, self.name),
        }
    }
}

/// One exported event: the record contract of `gpu-events` (flattened), plus `delta`, `owner`,
/// `cause`, `causeConfidence` and `redactions`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExportRecord {
    /// The typed record (its `cluster` is set from the exporter's `--cluster`).
    #[serde(flatten)]
    pub record: EventRecord,
    /// What this export adds.
    pub delta: Delta,
    /// The owning workload, when resolved.
    pub owner: Option<Owner>,
    /// The GPU cause this record alone points at (`insufficient-gpu`, ...), if any.
    pub cause: Option<Cause>,
    /// How sure [`cause`](ExportRecord::cause) is.
    pub cause_confidence: Option<Confidence>,
    /// Names of the redaction rules that changed this record (empty when none did).
    pub redactions: Vec<String>,
}

impl ExportRecord {
    /// A record as first seen: the cause read from it, no owner, no redaction yet.
    pub fn new(record: EventRecord, delta: Delta) -> Self {
        let (cause, cause_confidence) = match gpu_events_core::diagnose::cause_of(&record) {
            Some((cause, confidence)) => (Some(cause), Some(confidence)),
            None => (None, None),
        };
        ExportRecord { record, delta, owner: None, cause, cause_confidence, redactions: Vec::new() }
    }
}
