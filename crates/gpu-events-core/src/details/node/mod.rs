//! Node-side note grammars: kubelet (kubernetes/kubernetes pkg/kubelet, v1.9–v1.36),
//! node-problem-detector and kube-controller-manager.
//!
//! One module per area: [images](PulledImage) (`image.rs`), container lifecycle
//! (`container.rs`), probes (`probe.rs`), sandbox and runtime error chains (`runtime.rs`),
//! admission (`admission.rs`), eviction (`eviction.rs`), OOM kills (`oom.rs`), volumes
//! (`volume.rs`) and the controller-manager and node-scoped notes (`controller.rs`). All types
//! are re-exported here. Every parser is written without regex, slices the note, allocates only
//! the owned output fields and never panics; it returns `None` when the note does not match.
//!
//! Error chains (sandbox, `Error: ...`, device-plugin and CRI errors) are classified by
//! searching for known markers rather than by splitting on `: `, because quoted names, IDs and
//! nested gRPC errors contain colons (reference §4.5, §16.6).

mod admission;
mod container;
mod controller;
mod eviction;
mod image;
mod oom;
mod probe;
mod runtime;
mod volume;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::template::go_unquote;
use super::text::go_duration_seconds;

pub use admission::*;
pub use container::*;
pub use controller::*;
pub use eviction::*;
pub use image::*;
pub use oom::*;
pub use probe::*;
pub use runtime::*;
pub use volume::*;

details_family! {
    /// Details of kubelet, node-problem-detector and controller-manager notes (`kind` in JSON).
    pub enum NodeDetails in Node;
    /// `Pulling`: `Pulling image %q`.
    PullingImage(PullingImage) => "pullingImage", grammar PULLING;
    /// `Pulled`: a finished pull (with durations and size) or an image already present.
    PulledImage(PulledImage) => "pulledImage", grammar PULLED;
    /// `BackOff` (Normal): `Back-off pulling image %q`.
    ImagePullBackOff(ImagePullBackOff) => "imagePullBackOff";
    /// `BackOff` (Warning): `Back-off restarting failed container %s in pod %s`.
    RestartBackOff(RestartBackOff) => "restartBackOff";
    /// `ErrImageNeverPull`: `Container image %q is not present with pull policy of Never`.
    ImageNeverPull(ImageNeverPull) => "imageNeverPull", grammar ERR_IMAGE_NEVER_PULL;
    /// `InspectFailed`: the image reference could not be defaulted or inspected.
    ImageInspectFailed(ImageInspectFailed) => "imageInspectFailed", grammar INSPECT_FAILED;
    /// `Failed`: `Failed to pull image %q: %v` and the kubelet's rewritten pull errors.
    ImagePullFailed(ImagePullFailed) => "imagePullFailed";
    /// `Failed`: `Error: <container waiting reason>` (`Error: ErrImagePull`).
    ContainerWaiting(ContainerWaiting) => "containerWaiting";
    /// `FailedCreatePodSandBox`, `FailedPodSandBoxStatus`, `Failed` (`Error: ...`): a CRI
    /// error chain, classified.
    RuntimeFailure(RuntimeFailure) => "runtimeFailure";
    /// `FailedPrepareDynamicResources`: `Failed to prepare dynamic resources: %v`.
    DynamicResourcesFailed(DynamicResourcesFailed) => "dynamicResourcesFailed", grammar PREPARE_DYNAMIC_RESOURCES;
    /// `Created`: the runtime created a container.
    ContainerCreated(ContainerCreated) => "containerCreated", grammar CREATED;
    /// `Started`: the runtime started a container.
    ContainerStarted(ContainerStarted) => "containerStarted", grammar STARTED;
    /// `Killing`: the kubelet is stopping a container.
    ContainerKilling(ContainerKilling) => "containerKilling", grammar KILLING;
    /// `Unhealthy`: a probe failed or errored.
    ProbeFailed(ProbeFailed) => "probeFailed", grammar UNHEALTHY;
    /// `ProbeWarning`: a probe succeeded with a warning.
    ProbeWarning(ProbeWarning) => "probeWarning", grammar PROBE_WARNING;
    /// `UnexpectedAdmissionError`: device allocation failed during kubelet admission.
    UnexpectedAdmission(UnexpectedAdmission) => "unexpectedAdmission", grammar UNEXPECTED_ADMISSION;
    /// `OutOf<resource>`: `Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d`.
    OutOfResource(OutOfResource) => "outOfResource", grammar OUT_OF_RESOURCE;
    /// `SMTAlignmentError`: the static CPU manager could not give whole physical cores.
    SmtAlignment(SmtAlignment) => "smtAlignment", grammar SMT_ALIGNMENT;
    /// `Evicted`: node-pressure or limit eviction, fragment by fragment.
    PodEvicted(PodEvicted) => "podEvicted", grammar EVICTED;
    /// `EvictionThresholdMet`: `Attempting to reclaim %s`.
    ResourceReclaim(ResourceReclaim) => "resourceReclaim", grammar EVICTION_THRESHOLD_MET;
    /// node-problem-detector `OOMKilling`: the kernel's `Killed process ...` line.
    OomKill(OomKill) => "oomKill", grammar OOM_KILLING;
    /// kubelet `SystemOOM`: `System OOM encountered, victim process: %s, pid: %d`.
    SystemOom(SystemOom) => "systemOom", grammar SYSTEM_OOM;
    /// `FailedMount`: `Unable to attach or mount volumes: unmounted volumes=[...], ...`.
    VolumesNotMounted(VolumesNotMounted) => "volumesNotMounted";
    /// `FailedMount`, `FailedMapVolume`, `FailedAttachVolume`: `%s failed for volume %q : %v`.
    VolumeOperationFailed(VolumeOperationFailed) => "volumeOperationFailed", grammar FAILED_MAP_VOLUME;
    /// `FailedAttachVolume`: `Multi-Attach error for volume %q ...`.
    VolumeMultiAttach(VolumeMultiAttach) => "volumeMultiAttach";
    /// `SuccessfulCreate`: a workload controller created a Pod, claim or Job.
    ControllerCreated(ControllerCreated) => "controllerCreated", grammar SUCCESSFUL_CREATE;
    /// `SuccessfulDelete`: a workload controller deleted a Pod or Job.
    ControllerDeleted(ControllerDeleted) => "controllerDeleted", grammar SUCCESSFUL_DELETE;
    /// `FailedCreate`: a workload controller could not create a Pod, claim or Job.
    ControllerCreateFailed(ControllerCreateFailed) => "controllerCreateFailed", grammar FAILED_CREATE;
    /// `ScalingReplicaSet`: the Deployment controller scaled a ReplicaSet.
    ReplicaSetScaled(ReplicaSetScaled) => "replicaSetScaled", grammar SCALING_REPLICA_SET;
    /// `PodFailurePolicy`: a failed Pod matched a Job's pod failure policy rule.
    PodFailurePolicyMatched(PodFailurePolicyMatched) => "podFailurePolicyMatched", grammar POD_FAILURE_POLICY;
    /// `NodeNotReady` on a Pod: `Node is not ready`.
    PodNodeNotReady(PodNodeNotReady) => "podNodeNotReady";
    /// Node condition events: `Node %s status is now: %s`.
    NodeStatus(NodeStatus) => "nodeStatus", grammar NODE_STATUS;
    /// `TaintManagerEviction`, `NodeControllerEviction`: a Pod marked for deletion (or not).
    PodDeletionMarked(PodDeletionMarked) => "podDeletionMarked", grammar POD_DELETION;
    /// `Rebooted`: `Node %s has been rebooted, boot id: %s`.
    NodeRebooted(NodeRebooted) => "nodeRebooted", grammar REBOOTED;
    /// `FailedPlacement` (old DaemonSet controller): `failed to place pod on %q: %s`.
    DaemonPlacementFailed(DaemonPlacementFailed) => "daemonPlacementFailed", grammar FAILED_PLACEMENT;
}

// --- Shared value types ------------------------------------------------------------------------

/// A gRPC status as Go prints it: `rpc error: code = <Code> desc = <description>`
/// (google.golang.org/grpc/status `Status.Err().Error()`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GrpcStatus {
    /// The status code name (`Unavailable`, `Unknown`, `DeadlineExceeded`, ...).
    pub code: String,
    /// Everything after `desc = `, verbatim; it may itself contain colons, commas and nested
    /// gRPC errors. Empty when the text has no `desc = ` part.
    pub description: String,
}

impl GrpcStatus {
    /// The first (outermost) gRPC status in `text`, wherever it starts.
    pub fn find(text: &str) -> Option<Self> {
        let (code, description) = grpc_parts(text)?;
        Some(GrpcStatus { code: code.to_owned(), description: description.to_owned() })
    }
}

/// The code and description of the first `rpc error: code = X desc = Y` in `text`.
pub(crate) fn grpc_parts(text: &str) -> Option<(&str, &str)> {
    let rest = after(text, "rpc error: code = ")?;
    let (code, description) = match rest.split_once(" desc = ") {
        Some((code, description)) if is_word(code) => (code, description),
        _ => (rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or_default(), ""),
    };
    (!code.is_empty()).then_some((code, description))
}

/// A Go `time.Duration` as printed by `%v` (`1m21.284220239s`, `523ms`), and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GoDuration {
    /// The text exactly as written.
    pub duration: String,
    /// The value in seconds; `None` when the text is not a Go duration.
    pub seconds: Option<f64>,
}

impl GoDuration {
    /// Keep `text` and parse its value.
    pub fn parse(text: &str) -> Self {
        GoDuration { duration: text.to_owned(), seconds: go_duration_seconds(text) }
    }
}

/// A Pod as the kubelet names it in notes (`format.Pod`): `NAME_NAMESPACE(UID)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodRef {
    /// Pod name.
    pub name: String,
    /// Pod namespace.
    pub namespace: String,
    /// Pod UID.
    pub uid: String,
}

impl PodRef {
    /// Parse `NAME_NAMESPACE(UID)` (kubernetes/kubernetes pkg/kubelet/util/format/pod.go). Pod
    /// names and namespaces are DNS names, so they never contain `_`.
    pub fn parse(text: &str) -> Option<Self> {
        let (name_namespace, uid) = text.strip_suffix(')')?.split_once('(')?;
        let (name, namespace) = name_namespace.split_once('_')?;
        if name.is_empty() || namespace.is_empty() || uid.is_empty() {
            return None;
        }
        Some(PodRef { name: name.to_owned(), namespace: namespace.to_owned(), uid: uid.to_owned() })
    }
}

/// An NVML error reported through a device plugin or the NVIDIA container CLI
/// (`error creating nvml.Device 5: nvml: Insufficient Permissions`, `nvml error: driver not loaded`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NvmlError {
    /// The NVML device index, when the text names one (`nvml.Device 5`).
    pub device: Option<u32>,
    /// The NVML error text (`Insufficient Permissions`, `driver not loaded`).
    pub error: String,
}

impl NvmlError {
    /// The NVML error in `text`, found by its `nvml: ` or `nvml error: ` marker.
    pub fn find(text: &str) -> Option<Self> {
        let error = after(text, "nvml: ").or_else(|| after(text, "nvml error: "))?;
        let error = strip_nested_quoting(error);
        let device = after(text, "nvml.Device ").and_then(|rest| {
            let digits =
                rest.find(|c: char| !c.is_ascii_digit()).map_or(rest, |end| rest.get(..end).unwrap_or_default());
            digits.parse().ok()
        });
        (!error.is_empty()).then(|| NvmlError { device, error: error.to_owned() })
    }
}

// --- Shared text helpers ------------------------------------------------------------------------

/// The text after the first occurrence of `marker`.
pub(crate) fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    let at = text.find(marker)?;
    text.get(at + marker.len()..)
}

/// Whether `text` is one non-empty word of ASCII letters and digits.
fn is_word(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Case-insensitive (ASCII) substring search, without allocating.
pub(crate) fn contains_ci(haystack: &str, needle: &str) -> bool {
    let needle = needle.as_bytes();
    needle.is_empty() || haystack.as_bytes().windows(needle.len()).any(|window| window.eq_ignore_ascii_case(needle))
}

/// Split a leading Go double-quoted string (`%q`) off `text`: its unquoted value and the rest.
pub(crate) fn split_quoted(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut escaped = false;
    for (at, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                let end = at + 2; // opening quote + body up to and including the closing quote
                return Some((go_unquote(text.get(..end)?)?, text.get(end..)?));
            }
            _ => {}
        }
    }
    None
}

/// A `%q` value, or the text as is when it is not quoted (old kubelets printed some with `%s`).
pub(crate) fn unquote_or_raw(text: &str) -> String {
    go_unquote(text).unwrap_or_else(|| text.to_owned())
}

/// Remove the Pod status prefix the kubelet adds to a rejected Pod's `status.message`
/// (`Pod was rejected: ` since 1.26, PR #112644; `Pod ` before). Returns whether one was removed.
pub(crate) fn strip_pod_status_prefix(note: &str) -> (bool, &str) {
    if let Some(rest) = note.strip_prefix("Pod was rejected: ") {
        (true, rest)
    } else if let Some(rest) = note.strip_prefix("Pod ") {
        (true, rest)
    } else {
        (false, note)
    }
}

/// Remove the `: unknown` an OCI runtime (runc, nvidia-container-runtime) appends to its errors
/// when it passes them to containerd, and surrounding whitespace.
pub(crate) fn strip_runtime_suffix(text: &str) -> &str {
    let text = text.trim();
    text.strip_suffix(": unknown").unwrap_or(text).trim_end()
}

/// Cut `text` where Go's nested `%q` quoting of an inner error starts (a backslash or a quote:
/// `driver not loaded\\n\"": unknown`), then remove the runtime's `: unknown`.
pub(crate) fn strip_nested_quoting(text: &str) -> &str {
    let end = text.find(['\\', '"']).unwrap_or(text.len());
    strip_runtime_suffix(text.get(..end).unwrap_or(text))
}

/// A `[a b c]` list as Go prints a string slice with `%v`; `[]` is empty.
pub(crate) fn go_list(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split_whitespace().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_status_is_found_anywhere_and_keeps_nested_text() {
        let status = GrpcStatus::find(
            "Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF",
        )
        .unwrap();
        assert_eq!(status.code, "Unavailable");
        assert_eq!(status.description, "error reading from server: EOF");
        let nested =
            GrpcStatus::find("rpc error: code = Unknown desc = failed: rpc error: code = NotFound desc = x, y: z")
                .unwrap();
        assert_eq!(nested.code, "Unknown");
        assert_eq!(nested.description, "failed: rpc error: code = NotFound desc = x, y: z");
        assert_eq!(GrpcStatus::find("rpc error: code = Canceled").unwrap().code, "Canceled");
        assert_eq!(GrpcStatus::find("no rpc here"), None);
        assert_eq!(GrpcStatus::find("rpc error: code = "), None);
    }

    #[test]
    fn go_durations_convert_to_seconds() {
        let cases = [
            ("2.134s", 2.134),
            ("1m21.284220239s", 81.284220239),
            ("523ms", 0.523),
            ("1h2m3s", 3723.0),
            ("1.5µs", 1.5e-6),
            ("10us", 1e-5),
            ("7ns", 7e-9),
            ("0s", 0.0),
            ("0", 0.0),
            ("-1s", -1.0),
        ];
        for (text, want) in cases {
            let got = go_duration_seconds(text).unwrap();
            assert!((got - want).abs() < 1e-9, "{text}: {got}");
        }
        for bad in ["", "s", "1", "1x", "1.2.3s", "m1"] {
            assert_eq!(go_duration_seconds(bad), None, "{bad}");
        }
        assert_eq!(GoDuration::parse("nonsense").seconds, None);
    }

    #[test]
    fn pod_refs_split_name_namespace_and_uid() {
        let pod = PodRef::parse("cuda-job-0_ml(3c1b6d3e-1f7a-4b4e-9a5e-7f2b1d9c0a11)").unwrap();
        assert_eq!(pod.name, "cuda-job-0");
        assert_eq!(pod.namespace, "ml");
        assert_eq!(pod.uid, "3c1b6d3e-1f7a-4b4e-9a5e-7f2b1d9c0a11");
        for bad in ["cuda-job-0", "cuda_ml", "(uid)", "a_(u)", "_b(u)", "a_b()"] {
            assert_eq!(PodRef::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn nvml_errors_are_found_by_marker() {
        let e = NvmlError::find(
            "Unable to retrieve list of available devices: error creating nvml.Device 5: nvml: Insufficient Permissions",
        )
        .unwrap();
        assert_eq!((e.device, e.error.as_str()), (Some(5), "Insufficient Permissions"));
        let e = NvmlError::find("nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown")
            .unwrap();
        assert_eq!((e.device, e.error.as_str()), (None, "driver not loaded"));
        assert_eq!(NvmlError::find("nvml.Device 3 without error"), None);
    }

    #[test]
    fn text_helpers() {
        assert_eq!(split_quoted(r#""a \"b\"" rest"#), Some((r#"a "b""#.to_owned(), " rest")));
        assert_eq!(split_quoted(r#""unterminated"#), None);
        assert_eq!(split_quoted("plain"), None);
        assert_eq!(split_quoted("\"é\"x"), Some(("é".to_owned(), "x")));
        assert!(contains_ci("HTTP 429 Too Many Requests", "too many requests"));
        assert!(!contains_ci("short", "much longer needle"));
        assert_eq!(strip_pod_status_prefix("Pod was rejected: x"), (true, "x"));
        assert_eq!(strip_pod_status_prefix("Pod x"), (true, "x"));
        assert_eq!(strip_pod_status_prefix("Podx"), (false, "Podx"));
        assert_eq!(strip_runtime_suffix(" a: b: unknown\n"), "a: b");
        assert_eq!(go_list("[a b]"), Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(go_list("[]"), Some(vec![]));
        assert_eq!(go_list("a b"), None);
        assert_eq!(unquote_or_raw("\"x\""), "x");
        assert_eq!(unquote_or_raw("x"), "x");
    }
}
