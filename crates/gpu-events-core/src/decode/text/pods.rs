//! `kubectl get pods` tables pasted beside events (`NAME READY STATUS RESTARTS AGE`, with
//! `NAMESPACE` for `-A` and `IP NODE ...` for `-o wide`; kubectl's pod printer in
//! `pkg/printers/internalversion/printers.go`). Their rows are not events; they name the Pods
//! the paste is about, and a STATUS that says a Pod is stuck (`CrashLoopBackOff`,
//! `UnexpectedAdmissionError`) is that Pod's status now, a `fromStatus` record.

use chrono::{DateTime, Utc};

use super::columns::cells;
use crate::EventRecord;
use crate::decode::pod::{ContainerState, PodStatus};

/// A Pod a `get pods` row lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ListedPod {
    pub(super) namespace: Option<String>,
    pub(super) name: String,
    /// STATUS: the Pod's status reason, else a container's state reason, else its phase
    /// (`Init:` before an init container's).
    pub(super) status: String,
    /// READY counts every container ready (`1/1`).
    pub(super) ready: bool,
}

impl ListedPod {
    /// Not ready and not done: the Pod a paste's unnamed events are most likely about, when it
    /// is the only one so in its table (the others `Running 1/1` or `Completed`).
    pub(super) fn stuck(&self) -> bool {
        !self.ready && !matches!(self.status.as_str(), "Completed" | "Succeeded" | "Terminating")
    }

    /// The record STATUS is when it names a problem: a Pod status reason the catalogue knows
    /// (`UnexpectedAdmissionError`, `Evicted`, `OutOfnvidia.com/gpu`) or a container state
    /// (`CrashLoopBackOff`, `Init:ImagePullBackOff`, `OOMKilled`); a Normal record of a waiting
    /// phase (`Pending`, `ContainerCreating`); `None` for phases and states that are no problem
    /// (`Running`, `Completed`).
    pub(super) fn status_record(&self, now: DateTime<Utc>) -> Option<EventRecord> {
        let (init, reason) = match self.status.strip_prefix("Init:") {
            Some(reason) => (true, reason),
            None => (false, self.status.as_str()),
        };
        let fine =
            ["Running", "Pending", "ContainerCreating", "PodInitializing", "Completed", "Succeeded", "Terminating"];
        if let Some(phase) = crate::decode::pod::waiting_phase(reason).filter(|_| !init) {
            // Seen waiting: a Normal record of the phase, so that the Pod is an object of the
            // paste (its gang's or its quoted message's cause may be read for it).
            let status = PodStatus {
                kind: Some("Pod".to_owned()),
                namespace: self.namespace.clone(),
                name: Some(self.name.clone()),
                time: Some(now),
                waiting_phase: Some(phase),
                ..PodStatus::default()
            };
            return status.record();
        }
        if fine.contains(&reason) || (init && reason.contains('/')) || reason.is_empty() {
            return None;
        }
        let state = || Some(ContainerState { reason: reason.to_owned(), container: None, init, message: None });
        let mut status = PodStatus {
            kind: Some("Pod".to_owned()),
            namespace: self.namespace.clone(),
            name: Some(self.name.clone()),
            time: Some(now),
            ..PodStatus::default()
        };
        match reason {
            "OOMKilled" => status.oom_killed = state(),
            _ if !init && crate::ReasonName::parse(reason).reason().is_some() => {
                status.reason = Some(reason.to_owned())
            }
            _ => status.waiting = state(),
        }
        status.record()
    }
}

/// Whether `line` is a `get pods` header; `Some(true)` when it has a NAMESPACE column.
pub(super) fn header(line: &str) -> Option<bool> {
    let texts: Vec<&str> = cells(line).into_iter().map(|(_, t)| t).collect();
    let at = |i: usize, name: &str| texts.get(i).is_some_and(|t| *t == name);
    if at(0, "NAME") && at(1, "READY") && at(2, "STATUS") {
        Some(false)
    } else if at(0, "NAMESPACE") && at(1, "NAME") && at(2, "READY") && at(3, "STATUS") {
        Some(true)
    } else {
        None
    }
}

/// `1/2`: the READY cell.
fn is_ready(text: &str) -> bool {
    text.split_once('/').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// A `get pods` row (with or without its header): NAME, READY (`0/1`), STATUS, RESTARTS.
pub(super) fn row(line: &str, namespaced: bool) -> Option<ListedPod> {
    let texts: Vec<&str> = cells(line).into_iter().map(|(_, t)| t).collect();
    // Without a header, `get pods -A` (or `get all -A`) rows open with the namespace: a DNS
    // label before a row of the shape.
    let label = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    row_at(&texts, namespaced)
        .or_else(|| (!namespaced && texts.len() >= 6 && label(texts[0])).then(|| row_at(&texts, true)).flatten())
}

/// A row's cells read as a `get pods` row, with or without a NAMESPACE column first.
fn row_at(texts: &[&str], namespaced: bool) -> Option<ListedPod> {
    let offset = usize::from(namespaced);
    let name = texts.get(offset)?;
    let restarts = texts.get(offset + 3)?;
    let restarts_ok = restarts.split_whitespace().next().is_some_and(|r| r.bytes().all(|c| c.is_ascii_digit()));
    let status = texts.get(offset + 2)?;
    let ready = texts.get(offset + 1)?;
    // A STATUS is a word (`Running`, `Init:0/1`, `CrashLoopBackOff`); a Pod's name has no
    // `kind/` but `pod/` (`get all` lists `deployment.apps/x  0/1  1  0` in the same columns).
    let status_ok = status.starts_with(|c: char| c.is_ascii_alphabetic());
    let name = name.strip_prefix("pod/").unwrap_or(name);
    (is_ready(ready) && restarts_ok && status_ok && !name.contains([' ', '/'])).then(|| ListedPod {
        namespace: namespaced.then(|| texts[0].to_owned()),
        name: name.to_owned(),
        status: (*status).to_owned(),
        ready: ready.split_once('/').is_some_and(|(a, b)| a == b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_tables_are_told_from_event_rows() {
        assert_eq!(header("NAME          READY   STATUS    RESTARTS   AGE"), Some(false));
        assert_eq!(header("NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE   IP"), Some(true));
        assert_eq!(header("LAST SEEN   TYPE   REASON   OBJECT   MESSAGE"), None);
        let pod = row("usera-2q6ld   0/1     UnexpectedAdmissionError   0          4s", false).unwrap();
        assert_eq!(pod.name, "usera-2q6ld");
        assert_eq!(
            row("ml   train-0   1/1   Running   3 (2m ago)   1h", true).unwrap().namespace.as_deref(),
            Some("ml")
        );
        assert_eq!(row("  Warning  FailedScheduling  10s  default-scheduler  0/1 nodes are available", false), None);
        // llm-d/llm-d-inference-sim#45 (a helper's paste): a Deployment row of `get all`.
        assert!(row("deployment.apps/vllm-standalone-3b   0/1     1            0           20m", false).is_none());
        assert_eq!(row("pod/vllm-0   0/1     Pending   0          20m", false).unwrap().name, "vllm-0");
        // A new user's paste (canonical/microk8s#1370): `get all -A` rows without their header.
        let all =
            row("mynamespace    pod/rapidsai-worker-77c9d9d8cb-6jmlt    0/1     Evicted        0          60s", false);
        let all = all.unwrap();
        assert_eq!(
            (all.namespace.as_deref(), all.name.as_str(), all.status.as_str()),
            (Some("mynamespace"), "rapidsai-worker-77c9d9d8cb-6jmlt", "Evicted")
        );
    }

    #[test]
    fn a_stuck_status_is_a_status_record() {
        let now = "2026-11-30T06:00:00Z".parse().unwrap();
        let status = |line: &str| row(line, false).and_then(|pod| pod.status_record(now));
        // corpus 175 (dcgm-exporter issue): a container state.
        let record = status("dcgm-exporter-8k4s5   0/1     CrashLoopBackOff   27         117m").unwrap();
        assert_eq!(
            (record.reason.as_str(), record.note.as_str()),
            ("CrashLoopBackOff", "container status: CrashLoopBackOff")
        );
        assert!(record.has_flag(crate::Flag::FromStatus));
        assert_eq!(record.regarding.name.as_deref(), Some("dcgm-exporter-8k4s5"));
        // A Pod status reason the catalogue knows.
        assert_eq!(
            status("usera-2q6ld   0/1     UnexpectedAdmissionError   0          4s").unwrap().reason,
            "UnexpectedAdmissionError"
        );
        let init = status("x-0   0/1     Init:CrashLoopBackOff   4          3m").unwrap();
        assert_eq!(init.regarding.field_path, None);
        assert!(init.note.starts_with("init container") || init.note.contains("CrashLoopBackOff"), "{}", init.note);
        // Progress is no problem.
        for line in ["a   1/1   Running   0   1h", "d   0/1   Init:0/2   0   1m", "e   0/1   Completed   0   1m"] {
            assert!(status(line).is_none(), "{line}");
        }
        // A Pod waiting is seen: a Normal record of its phase, not a catalogue reason.
        for (line, phase) in
            [("b   0/1   Pending   0   1m", "Pending"), ("c   0/1   ContainerCreating   0   1m", "ContainerCreating")]
        {
            let record = status(line).unwrap();
            assert_eq!(record.reason.as_str(), phase);
            assert_eq!(record.note, format!("pod status: {phase}"));
            assert_eq!(record.type_, Some(crate::EventType::Normal));
            assert!(!record.known && record.has_flag(crate::Flag::FromStatus));
        }
    }
}

/// A waiting container's message quoted anywhere (a console, `-o yaml`'s `state.waiting.message`,
/// prose): `back-off 20s restarting failed container=NAME pod=POD_NAMESPACE(UID)` (the kubelet's
/// CrashLoopBackOff message, pkg/kubelet/kuberuntime/kuberuntime_manager.go, `format.Pod`), as
/// that Pod's `fromStatus` record: the container is in CrashLoopBackOff now.
pub(super) fn waiting_message(line: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    let marker = line.find(" restarting failed container=")?;
    let start = line[..marker].rfind("ack-off ").and_then(|at| at.checked_sub(1))?;
    if !line[start..].starts_with(['B', 'b']) {
        return None;
    }
    let after = &line[marker + " restarting failed container=".len()..];
    let (container, rest) = after.split_once(' ')?;
    let pod = rest.strip_prefix("pod=")?;
    let close = pod.find(')')?;
    let pod_ref = crate::details::node::PodRef::parse(&pod[..=close])?;
    let end = line.len() - rest.len() + "pod=".len() + close + 1;
    PodStatus {
        kind: Some("Pod".to_owned()),
        namespace: Some(pod_ref.namespace),
        name: Some(pod_ref.name),
        uid: Some(pod_ref.uid),
        waiting: Some(ContainerState {
            reason: "CrashLoopBackOff".to_owned(),
            container: Some(container.to_owned()),
            // The message does not say which list; GPU components' known init containers do.
            init: crate::accelerators::is_init_container(container),
            message: Some(line[start..end].to_owned()),
        }),
        time: Some(now),
        ..PodStatus::default()
    }
    .record()
}

/// The API server's answer to `kubectl logs` for a container that has not started
/// (pkg/registry/core/pod/strategy.go, `LogLocation`, v1.x): `container "C" in pod "P" is
/// waiting to start: R`, R the waiting reason (`CreateContainerError`, `ContainerCreating`) or,
/// for an image that cannot be pulled, `image can't be pulled` (ErrImagePull) or `trying and
/// failing to pull image` (ImagePullBackOff). The Pod's waiting container, as a status record.
pub(super) fn logs_waiting_to_start(line: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    let at = line.find("container \"")?;
    let rest = &line[at + "container \"".len()..];
    let (container, rest) = rest.split_once('"')?;
    let (pod, rest) = rest.strip_prefix(" in pod \"")?.split_once('"')?;
    let said = rest.strip_prefix(" is waiting to start: ")?.trim().trim_end_matches(['.', '`']);
    let reason = match said {
        "image can't be pulled" => "ErrImagePull",
        "trying and failing to pull image" => "ImagePullBackOff",
        word if !word.is_empty()
            && word.chars().all(|c| c.is_ascii_alphanumeric())
            && word.starts_with(|c: char| c.is_ascii_uppercase()) =>
        {
            word
        }
        _ => return None,
    };
    if container.is_empty() || pod.is_empty() {
        return None;
    }
    PodStatus {
        kind: Some("Pod".to_owned()),
        name: Some(pod.to_owned()),
        waiting: Some(ContainerState {
            reason: reason.to_owned(),
            container: Some(container.to_owned()),
            init: crate::accelerators::is_init_container(container),
            message: None,
        }),
        time: Some(now),
        ..PodStatus::default()
    }
    .record()
}

/// The runtime's error chains a container's start fails with, as a waiting container's
/// `message` shows them without the kubelet's `Error: ` (containerd's task and shim errors,
/// runc's OCI error; kuberuntime_container.go's StartContainer, containerd v1.7-v2.4).
const RUNTIME_ERROR_STARTS: &[&str] = &[
    "failed to create task for container: ",
    "failed to create containerd task: ",
    "failed to start containerd task",
    "OCI runtime create failed: ",
];

/// A runtime error chain quoted alone on its line (a `RunContainerError` container's message,
/// pasted from `kubectl describe` or the dashboard): that container's waiting state, a
/// `fromStatus` record of an unnamed Pod.
pub(super) fn runtime_error_message(line: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    let text = line.trim();
    RUNTIME_ERROR_STARTS.iter().any(|start| text.starts_with(start)).then_some(())?;
    PodStatus {
        kind: Some("Pod".to_owned()),
        waiting: Some(ContainerState {
            reason: "RunContainerError".to_owned(),
            message: Some(text.to_owned()),
            ..ContainerState::default()
        }),
        time: Some(now),
        ..PodStatus::default()
    }
    .record()
}

/// The e2e framework's error for a Pod that failed (test/e2e/framework/pod:
/// `fmt.Errorf("pod %q failed with reason: %q, message: %q", ...)`), in a test log or a Go value
/// dump that quotes it again (`\"`): the Pod's status reason and message, a `fromStatus` record.
pub(super) fn e2e_pod_failure(line: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    if !line.contains("failed with reason: ") {
        return None;
    }
    // Quoted once more in a dump: its closing quote too ends the line.
    let quoted_again = line.contains("\\\"");
    let line = line.replace("\\\"", "\"");
    let (before, after) = line.split_once("\" failed with reason: \"")?;
    let name = &before[before.rfind("pod \"")? + "pod \"".len()..];
    let (reason, rest) = after.split_once("\", message: \"")?;
    let mut message = rest.trim_end();
    for _ in 0..1 + usize::from(quoted_again) {
        message = message.trim_end_matches([',', ' ']);
        message = message.strip_suffix('"').unwrap_or(message);
    }
    let valid = |text: &str| !text.is_empty() && !text.contains(char::is_whitespace);
    (valid(name) && valid(reason)).then_some(())?;
    PodStatus {
        kind: Some("Pod".to_owned()),
        name: Some(name.to_owned()),
        reason: Some(reason.to_owned()),
        message: Some(message.to_owned()).filter(|m| !m.is_empty()),
        time: Some(now),
        ..PodStatus::default()
    }
    .record()
}

#[cfg(test)]
mod waiting_tests {
    use super::*;

    #[test]
    fn kubectl_logs_of_a_container_not_started_is_its_waiting_state() {
        // A new user's paste (4paradigm/k8s-vgpu-scheduler#37): `kubectl logs` stderr.
        let now = "2026-01-01T00:00:00Z".parse().unwrap();
        let line =
            "container \"device-plugin\" in pod \"vgpu-device-plugin-h54cq\" is waiting to start: CreateContainerError";
        let record = logs_waiting_to_start(line, now).unwrap();
        assert_eq!(record.reason, "CreateContainerError");
        assert_eq!(record.regarding.name.as_deref(), Some("vgpu-device-plugin-h54cq"));
        assert!(record.has_flag(crate::Flag::FromStatus));
        let pull = "Error from server (BadRequest): container \"main\" in pod \"x-0\" is waiting to start: trying and failing to pull image";
        assert_eq!(logs_waiting_to_start(pull, now).unwrap().reason, "ImagePullBackOff");
        assert!(logs_waiting_to_start("container \"a\" in pod \"b\" is waiting to start: some words", now).is_none());
    }

    #[test]
    fn a_crash_loop_message_quoted_in_prose_is_the_pods_status() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T06:00:00Z").unwrap().to_utc();
        let line = "you'd see an error \"Back-off 20s restarting failed container=installer pod=installer-z7ht8_kube-system(b362cd39-f621): CrashLoopBackOff\" on Init containers";
        let record = waiting_message(line, now).unwrap();
        assert_eq!(record.reason, "CrashLoopBackOff");
        assert_eq!(
            record.note,
            "Back-off 20s restarting failed container=installer pod=installer-z7ht8_kube-system(b362cd39-f621)"
        );
        assert_eq!(record.regarding.name.as_deref(), Some("installer-z7ht8"));
        assert_eq!(record.regarding.namespace.as_deref(), Some("kube-system"));
        assert_eq!(record.regarding.field_path.as_deref(), Some("spec.containers{installer}"));
        assert!(record.has_flag(crate::Flag::FromStatus));
        assert!(waiting_message("restarting failed container=x, pod y", now).is_none());
    }

    #[test]
    fn an_e2e_pod_failure_in_a_go_dump_is_the_pods_status() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T06:00:00Z").unwrap().to_utc();
        let line = r#"        s: "pod \"gpu-1\" failed with reason: \"UnexpectedAdmissionError\", message: \"Pod Allocate failed due to x, which is unexpected\"","#;
        let record = e2e_pod_failure(line, now).unwrap();
        assert_eq!(record.reason, "UnexpectedAdmissionError");
        assert_eq!(record.note, "Pod Allocate failed due to x, which is unexpected");
        assert_eq!(record.regarding.name.as_deref(), Some("gpu-1"));
        assert!(record.has_flag(crate::Flag::FromStatus));
        assert!(e2e_pod_failure("it failed with reason: none", now).is_none());
    }
}
