//! Symptom to cause: why a GPU Pod (or its node, pool, workload) is stuck, from its events.
//!
//! [`diagnose`] groups records by their `regarding` object and reads each object's events as a
//! person does, latest first: the newest record that implies a phase gives the phase (`Pending`,
//! `ContainerCreating`, `CrashLoopBackOff`, ...), and the newest record that points at a cause in
//! that phase gives the [`Cause`]. Typed details decide where they exist (a FitError's
//! `Insufficient nvidia.com/gpu`, a runtime chain's missing `nvidia` handler); otherwise the
//! catalogue reason does, with lower confidence. Objects with no Warning and no stuck signal are
//! left out.

mod cause;
mod signal;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

pub use cause::Cause;

use crate::EventRecord;
use crate::EventType;

/// The phase an object is stuck in, as `kubectl get pods` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[non_exhaustive]
pub enum Phase {
    /// Not scheduled yet.
    Pending,
    /// Scheduled; sandbox, volumes or images not ready.
    ContainerCreating,
    /// An init container keeps failing.
    #[serde(rename = "Init:CrashLoopBackOff")]
    InitCrashLoopBackOff,
    /// A container keeps failing.
    CrashLoopBackOff,
    /// Killed for memory.
    #[serde(rename = "OOMKilled")]
    OomKilled,
    /// Evicted from its node.
    Evicted,
    /// Rejected or failed for good (admission errors).
    Failed,
    /// Running (problems are on the node or the workload).
    Running,
    /// The events do not say.
    Unknown,
}

/// How sure a diagnosis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Confidence {
    /// Only that something is wrong.
    Low,
    /// From the reason alone.
    Medium,
    /// From the typed details of the note.
    High,
}

/// The object a diagnosis is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ObjectKey {
    /// Kind (`Pod`, `Node`, `GPUPool`, ...), when known.
    pub kind: Option<String>,
    /// Namespace, for namespaced objects.
    pub namespace: Option<String>,
    /// Name, when known.
    pub name: Option<String>,
}

/// What is wrong with one object, and what to do next (`gpu-events explain --diagnose -o json`
/// prints one per line).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Diagnosis {
    /// The object.
    pub object: ObjectKey,
    /// The phase it is stuck in.
    pub phase: Phase,
    /// The most likely cause (`unknown` when none is recognized).
    pub cause: Cause,
    /// How sure the cause is.
    pub confidence: Confidence,
    /// The records that support the cause, latest first (at most five), then the latest record.
    pub evidence: Vec<EventRecord>,
    /// kubectl commands and checks, with the object's names filled in.
    pub next_steps: Vec<String>,
}

/// Diagnose every object that has a Warning event or a stuck signal, in object order.
pub fn diagnose(records: &[EventRecord]) -> Vec<Diagnosis> {
    let mut by_object: BTreeMap<ObjectKey, Vec<&EventRecord>> = BTreeMap::new();
    for record in records {
        let key = ObjectKey {
            kind: record.regarding.kind.clone(),
            namespace: record.regarding.namespace.clone(),
            name: record.regarding.name.clone(),
        };
        by_object.entry(key).or_default().push(record);
    }
    by_object
        .into_iter()
        .filter_map(|(object, records)| diagnose_object(object, records))
        .collect()
}

fn diagnose_object(object: ObjectKey, mut records: Vec<&EventRecord>) -> Option<Diagnosis> {
    // Latest first. Equal times (ages in a pasted table are coarse) keep the input's order,
    // reversed: kubectl lists events oldest first.
    let mut records: Vec<(usize, &EventRecord)> = records.drain(..).enumerate().collect();
    records.sort_by_key(|(index, r)| std::cmp::Reverse((r.last_timestamp, *index)));
    let records: Vec<&EventRecord> = records.into_iter().map(|(_, r)| r).collect();

    let signals: Vec<_> = records.iter().map(|r| signal::read(r)).collect();
    let has_warning = records.iter().any(|r| r.type_ == Some(EventType::Warning));
    let has_cause = signals.iter().any(|s| s.cause.is_some());
    if !has_warning && !has_cause {
        return None;
    }
    let phase = signals
        .iter()
        .find_map(|s| s.phase)
        .unwrap_or(Phase::Unknown);
    // The newest cause in the current phase; else the newest cause at all.
    let chosen = signals
        .iter()
        .enumerate()
        .find(|(_, s)| s.cause.is_some() && s.phase == Some(phase))
        .or_else(|| signals.iter().enumerate().find(|(_, s)| s.cause.is_some()));
    let (cause, confidence) = match chosen {
        Some((_, s)) => s.cause.unwrap_or((Cause::Unknown, Confidence::Low)),
        None => (Cause::Unknown, Confidence::Low),
    };
    // A known cause outranks `unknown` from a later record of the same phase.
    let (cause, confidence) = if cause == Cause::Unknown {
        signals
            .iter()
            .filter_map(|s| {
                s.cause
                    .filter(|(c, _)| *c != Cause::Unknown)
                    .filter(|_| s.phase == Some(phase))
            })
            .next()
            .unwrap_or((cause, confidence))
    } else {
        (cause, confidence)
    };
    let mut evidence: Vec<EventRecord> = records
        .iter()
        .zip(&signals)
        .filter(|(_, s)| s.cause.is_some_and(|(c, _)| c == cause))
        .map(|(r, _)| (*r).clone())
        .take(5)
        .collect();
    if let Some(latest) = records.first()
        && !evidence.iter().any(|e| e == *latest)
    {
        evidence.push((*latest).clone());
    }
    let next_steps = cause
        .step_templates()
        .iter()
        .map(|step| fill(step, &object))
        .collect();
    Some(Diagnosis {
        object,
        phase,
        cause,
        confidence,
        evidence,
        next_steps,
    })
}

/// Put the object's kind, namespace and name into a step template.
fn fill(template: &str, object: &ObjectKey) -> String {
    template
        .replace(
            "{kind}",
            &object.kind.as_deref().unwrap_or("pod").to_ascii_lowercase(),
        )
        .replace("{ns}", object.namespace.as_deref().unwrap_or("default"))
        .replace("{name}", object.name.as_deref().unwrap_or("<name>"))
}
