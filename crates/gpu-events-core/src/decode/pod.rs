//! What a Pod's status says, as one record flagged `fromStatus`: from a pasted `kubectl
//! describe pod` (its `Reason:`/`Message:` and container states) or a Pod object (`kubectl get
//! pod -o yaml|json`, or just its `status:`). The kubelet mirrors its admission and eviction
//! events into the status, and the events may have expired: the status is often all a paste has.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::EventRecord;
use crate::record::{ObjectReference, RawEvent};

/// A container's state reason (`CrashLoopBackOff`, `OOMKilled`, ...), and which container.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContainerState {
    pub(crate) reason: String,
    pub(crate) container: Option<String>,
    pub(crate) init: bool,
    /// The state's `message` (a waiting container's `back-off 5m0s restarting failed
    /// container=...`, the runtime error of a `RunContainerError`), when the input gives one.
    pub(crate) message: Option<String>,
}

impl ContainerState {
    /// The container as the kubelet's events name it (`spec.initContainers{download}`).
    fn field_path(&self) -> Option<String> {
        let list = if self.init { "initContainers" } else { "containers" };
        self.container.as_ref().map(|c| format!("spec.{list}{{{c}}}"))
    }
}

/// A Pod's status, as far as a diagnosis needs it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PodStatus {
    pub(crate) kind: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) uid: Option<String>,
    /// The status's `reason` and `message` (`UnexpectedAdmissionError`, `Evicted`).
    pub(crate) reason: Option<String>,
    pub(crate) message: Option<String>,
    /// The first container killed for memory, in its state or last state.
    pub(crate) oom_killed: Option<ContainerState>,
    /// The first container waiting for a reason (init containers first).
    pub(crate) waiting: Option<ContainerState>,
    /// The first container the runtime failed to start ([`START_FAILURES`]), in its state or
    /// last state: the root of the back-off that follows.
    pub(crate) start_failure: Option<ContainerState>,
    /// The message of a `PodScheduled` condition that is `False` for `Unschedulable`: the
    /// scheduler writes the FitError it also records as the `FailedScheduling` event there
    /// (kube-scheduler `handleSchedulingFailure`, v1.37), and the condition outlives the event.
    pub(crate) unschedulable: Option<String>,
    /// When the status was true: `now` for a pasted describe, the newest time in an object.
    pub(crate) time: Option<DateTime<Utc>>,
    /// A phase that says the Pod is waiting (`Pending`, or `ContainerCreating` in a `get pods`
    /// STATUS) when nothing else in the status says why: the Pod is seen, stuck, and the input
    /// may say why elsewhere (its gang's events, a quoted message).
    pub(crate) waiting_phase: Option<&'static str>,
}

/// A terminated container's reasons when the runtime failed to start it: containerd's CRI
/// plugin writes `StartError` (exit code 128) when StartContainer fails (a hook, a CDI
/// injection, the entrypoint not found), dockershim wrote `ContainerCannotRun` (Docker's
/// `State.Error`); the state's `message` is the runtime's error chain.
pub(crate) const START_FAILURES: &[&str] = &["StartError", "ContainerCannotRun"];

/// The phases [`PodStatus::waiting_phase`] takes, as `status.phase` or kubectl's STATUS
/// column writes them (a `Failed` Pod is not waiting, but stuck all the same).
pub(crate) fn waiting_phase(text: &str) -> Option<&'static str> {
    ["Pending", "ContainerCreating", "Failed"].into_iter().find(|p| *p == text)
}

impl PodStatus {
    /// The status of a Pod object (`kind: Pod`), or of a bare `status:` fragment.
    pub(crate) fn of_object(map: &Map<String, Value>) -> Option<PodStatus> {
        let status = map.get("status")?.as_object()?;
        let metadata = map.get("metadata").and_then(Value::as_object);
        let text = |m: Option<&Map<String, Value>>, key: &str| m?.get(key)?.as_str().map(str::to_owned);
        let mut pod = PodStatus {
            kind: Some("Pod".to_owned()),
            namespace: text(metadata, "namespace"),
            name: text(metadata, "name"),
            uid: text(metadata, "uid"),
            reason: text(Some(status), "reason"),
            message: text(Some(status), "message"),
            time: newest_time(&Value::Object(status.clone())),
            waiting_phase: status.get("phase").and_then(Value::as_str).and_then(waiting_phase),
            ..PodStatus::default()
        };
        pod.unschedulable = status.get("conditions").and_then(Value::as_array).into_iter().flatten().find_map(|c| {
            let field = |key: &str| c.get(key).and_then(Value::as_str);
            (field("type") == Some("PodScheduled")
                && field("status") == Some("False")
                && field("reason") == Some("Unschedulable"))
            .then(|| field("message").unwrap_or_default().to_owned())
        });
        for (list, init) in [("initContainerStatuses", true), ("containerStatuses", false)] {
            for container in status.get(list).and_then(Value::as_array).into_iter().flatten() {
                let reason = |state: &str, phase: &str| {
                    container.get(state)?.get(phase)?.get("reason")?.as_str().map(str::to_owned)
                };
                let state = |reason: String| ContainerState {
                    reason,
                    container: container.get("name").and_then(Value::as_str).map(str::to_owned),
                    init,
                    message: None,
                };
                let message = |state: &str, phase: &str| {
                    container.get(state)?.get(phase)?.get("message")?.as_str().map(str::to_owned)
                };
                let oom = [reason("state", "terminated"), reason("lastState", "terminated")]
                    .into_iter()
                    .flatten()
                    .find(|r| r == "OOMKilled");
                if pod.oom_killed.is_none() {
                    pod.oom_killed = oom.map(state);
                }
                if pod.start_failure.is_none() {
                    pod.start_failure = ["state", "lastState"].into_iter().find_map(|which| {
                        let found = reason(which, "terminated").filter(|r| START_FAILURES.contains(&r.as_str()))?;
                        Some(ContainerState { message: message(which, "terminated"), ..state(found) })
                    });
                }
                if pod.waiting.is_none() {
                    pod.waiting = reason("state", "waiting")
                        .map(state)
                        .map(|w| ContainerState { message: message("state", "waiting"), ..w });
                }
            }
        }
        Some(pod)
    }

    /// The status of a container's state pasted alone (`terminated: {reason: StartError,
    /// exitCode: 128, message: ...}`, or its fields without the parent), about an unnamed Pod;
    /// `None` for a map that is no container state (an Event has `reason` and `message` too,
    /// but none of a terminated state's own fields).
    pub(crate) fn of_state_fragment(map: &Map<String, Value>) -> Option<PodStatus> {
        const TERMINATED: &[&str] = &["exitCode", "startedAt", "finishedAt", "containerID", "signal"];
        let nested = |map: &Map<String, Value>| {
            ["terminated", "waiting"].into_iter().find_map(|k| Some((k, map.get(k)?.as_object()?.clone())))
        };
        let (which, state) = match ["state", "lastState"].into_iter().find_map(|k| map.get(k)?.as_object()) {
            Some(parent) => nested(parent)?,
            None => match nested(map) {
                Some(found) => found,
                None if TERMINATED.iter().any(|k| map.contains_key(*k)) => ("terminated", map.clone()),
                None => return None,
            },
        };
        let text = |key: &str| state.get(key).and_then(Value::as_str).map(str::to_owned);
        let found = ContainerState { reason: text("reason")?, message: text("message"), ..ContainerState::default() };
        let mut pod = PodStatus {
            kind: Some("Pod".to_owned()),
            time: newest_time(&Value::Object(state.clone())),
            ..PodStatus::default()
        };
        match which {
            _ if found.reason == "OOMKilled" => pod.oom_killed = Some(found),
            _ if START_FAILURES.contains(&found.reason.as_str()) => pod.start_failure = Some(found),
            "waiting" => pod.waiting = Some(found),
            _ => return None,
        }
        Some(pod)
    }

    /// The records of what the status says: [`record`](Self::record), and beside a container's
    /// state the Pod's phase when it is `Failed` (the container will not be started again, so
    /// the Pod is not waiting on it; the state alone does not say so).
    pub(crate) fn records(&self) -> impl Iterator<Item = EventRecord> + use<> {
        let container = self.oom_killed.is_some() || self.start_failure.is_some() || self.waiting.is_some();
        let phase = (self.reason.is_none() && container && self.waiting_phase == Some("Failed")).then(|| {
            PodStatus { oom_killed: None, start_failure: None, waiting: None, unschedulable: None, ..self.clone() }
                .record()
        });
        self.record().into_iter().chain(phase.flatten())
    }

    /// The record of what the status says; `None` when it says nothing is wrong.
    pub(crate) fn record(&self) -> Option<EventRecord> {
        // An OOM kill, or a start the runtime failed, outranks the back-off it causes.
        let container = self.oom_killed.as_ref().or(self.start_failure.as_ref()).or(self.waiting.as_ref());
        let (reason, note, field_path) = match (self.reason.as_deref(), container) {
            (Some(reason), _) => (reason, self.message.clone(), None),
            // The kubelet's own words for the state, when the input has them.
            (None, Some(state)) if state.message.is_some() => {
                (state.reason.as_str(), state.message.clone(), state.field_path())
            }
            (None, Some(state)) => {
                let note = match &state.container {
                    Some(name) if state.init => format!("init container {name} status: {}", state.reason),
                    Some(name) => format!("container {name} status: {}", state.reason),
                    None if state.init => format!("init container status: {}", state.reason),
                    None => format!("container status: {}", state.reason),
                };
                (state.reason.as_str(), Some(note), state.field_path())
            }
            (None, None) => match (&self.unschedulable, self.waiting_phase) {
                (Some(message), _) => ("FailedScheduling", Some(message.clone()), None),
                (None, Some(phase)) => (phase, Some(format!("pod status: {phase}")), None),
                (None, None) => return None,
            },
        };
        // A phase is no warning: the Pod waits, and the rest of the input may say why.
        let type_ = if reason == self.waiting_phase.unwrap_or_default() { "Normal" } else { "Warning" };
        let regarding = ObjectReference {
            kind: Some(self.kind.clone().unwrap_or_else(|| "Pod".to_owned())),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            uid: self.uid.clone(),
            field_path,
            ..ObjectReference::default()
        };
        Some(
            RawEvent {
                reason: Some(reason),
                type_: Some(type_),
                note: note.as_deref(),
                regarding,
                namespace: self.namespace.as_deref(),
                last: [self.time, None, None],
                first: [self.time, None, None],
                approximate_time: true,
                from_status: true,
                status_word: Some(reason) == self.waiting_phase,
                ..RawEvent::default()
            }
            .into_record(),
        )
    }
}

/// What a Pod's status says, as a record flagged `fromStatus` and timed `now` (the status is
/// the Pod as it is when read): its status reason and message (`UnexpectedAdmissionError`,
/// `Evicted`), else the first container killed for memory, else the first waiting one, named in
/// `regarding.fieldPath`, else an `Unschedulable` `PodScheduled` condition as the
/// `FailedScheduling` it mirrors. `None` when the status says nothing is wrong (a phase alone,
/// `Pending`, is not a record here: a pasted one is, so that the Pod is an object of the paste). Live tools add it to the
/// Pod's events before [`diagnose`](crate::diagnose::diagnose).
pub fn pod_status_record(pod: &k8s_openapi::api::core::v1::Pod, now: DateTime<Utc>) -> Option<EventRecord> {
    let value = serde_json::to_value(pod).ok()?;
    let status = PodStatus::of_object(value.as_object()?)?;
    // A live tool asked for the Pod: its phase alone adds nothing to its events.
    PodStatus { time: Some(now), waiting_phase: None, ..status }.record()
}

/// The newest RFC 3339 time anywhere in a status (`startTime`, conditions'
/// `lastTransitionTime`, containers' `startedAt`/`finishedAt`).
fn newest_time(value: &Value) -> Option<DateTime<Utc>> {
    match value {
        // `1970-01-01T00:00:00Z` is Go's zero time as the runtime reports it for a container
        // that never started (`startedAt`), not a time anything happened.
        Value::String(text) if text.len() >= 20 && text.as_bytes()[4] == b'-' => {
            DateTime::parse_from_rfc3339(text).ok().map(|t| t.to_utc()).filter(|t| t.timestamp() > 0)
        }
        Value::Array(items) => items.iter().filter_map(newest_time).max(),
        Value::Object(map) => map.values().filter_map(newest_time).max(),
        _ => None,
    }
}
