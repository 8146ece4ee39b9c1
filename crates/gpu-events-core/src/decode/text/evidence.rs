//! Lines of GPU components' own logs that are evidence of a cause, though no event: a device
//! plugin that found no GPU, a driver and library out of step, a kernel Xid or OOM kill, an
//! autoscaler that could not launch a node. Pasted beside (or instead of) a stuck Pod's events,
//! they are what an engineer reads the cause from.
//!
//! Each [`Signature`] is one declaration: the words its component always writes (matched as a
//! substring, ASCII case-insensitively, in one pass over a line for all of them), the record's
//! reason (this crate's name for the finding, not a Kubernetes reason: no component records it as
//! an event), the object kind it is evidence about, and the cause and phase the diagnosis reads
//! from it. A line matched is a record flagged `fromLog` and `inferredReason` (never counted as an
//! event), its note the line without its journald or klog prefix, timed by its klog header when
//! it has one (`approximateTime`), else untimed. Only lines no other reader took are looked at.
//!
//! A component's log line names no object: the record is about the paste's unnamed object of the
//! signature's kind (the Node, for what the node's device plugin, driver, kernel or kubelet
//! reports; the Pod, for what a workload's own container prints or a Pod-level step reports),
//! unless the line names one (Karpenter's `"NodeClaim":{"name":...}`). The diagnosis carries a
//! node's cause to the Pods that wait for its GPUs (rule 20 of `diagnose`).

use crate::diagnose::{Cause, Phase};
use crate::record::RawEvent;
use crate::{EventRecord, ObjectReference};
use aho_corasick::{AhoCorasick, MatchKind};
use chrono::{DateTime, Utc};
use std::sync::OnceLock;

/// One kind of evidence line.
#[derive(Debug)]
pub(crate) struct Signature {
    /// Words the component always writes in such a line (ASCII case-insensitive).
    pub(crate) needles: &'static [&'static str],
    /// The record's reason.
    pub(crate) reason: &'static str,
    /// The kind of object the line is evidence about.
    pub(crate) kind: &'static str,
    /// The cause the line points at (at most Medium: read from a log, not typed).
    pub(crate) cause: Cause,
    /// The phase it implies for the object, when it implies one.
    pub(crate) phase: Option<Phase>,
}

/// The signatures, most specific first (a line is the first one it matches).
pub(crate) const SIGNATURES: &[Signature] = &[
    // The NVIDIA toolkit's prestart hook (libnvidia-container) could not load NVML while the
    // runtime started a container: the hook ran, so the runtime is there; the node it landed
    // on has no usable driver. A start failure of that Pod (rule 6 of `diagnose`).
    Signature {
        needles: &["nvidia-container-cli: initialization error: load library failed"],
        reason: "NvidiaHookFailed",
        kind: "Pod",
        cause: Cause::ContainerStartFailed,
        phase: Some(Phase::ContainerCreating),
    },
    // NVIDIA k8s-device-plugin (cmd/nvidia-device-plugin/main.go, internal/rm/factory.go and
    // internal/plugin/manager, v0.9-v0.17): NVML would not load in the plugin's container. The
    // GPUs are not visible to it: the NVIDIA runtime is not the plugin's (or the node's default)
    // runtime, or no driver is installed; the plugin then registers no GPU.
    Signature {
        needles: &[
            "Incompatible strategy detected",
            "Incompatible platform detected",
            "did you configure the NVIDIA Container Toolkit",
            "could not load NVML library",
            "libnvidia-ml.so.1: cannot open shared object file",
            "Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND",
        ],
        reason: "NvmlNotFound",
        kind: "Node",
        cause: Cause::NvidiaRuntimeMissing,
        phase: None,
    },
    // NVML's NVML_ERROR_LIB_RM_VERSION_MISMATCH ("Driver/library version mismatch"): the kernel
    // module loaded is not the user-space driver's version (a driver upgraded without a reboot).
    Signature {
        needles: &["Driver/library version mismatch"],
        reason: "NvmlVersionMismatch",
        kind: "Node",
        cause: Cause::CudaDriverMismatch,
        phase: None,
    },
    // The CUDA runtime's cudaErrorInsufficientDriver and cudaErrorCompatNotSupportedOnDevice
    // (driver_types.h), as frameworks print them.
    Signature {
        needles: &[
            "CUDA driver version is insufficient for CUDA runtime version",
            "forward compatibility was attempted on non supported HW",
        ],
        reason: "CudaDriverInsufficient",
        kind: "Pod",
        cause: Cause::CudaDriverMismatch,
        phase: None,
    },
    // The NVIDIA container toolkit's CLI and the GPU Operator's driver container: no driver to
    // use (libnvidia-container `nvml error: driver not loaded`; the driver container's
    // `Could not resolve Linux kernel version`, `Unable to load the kernel module 'nvidia.ko'`).
    Signature {
        needles: &[
            "nvml error: driver not loaded",
            "Could not resolve Linux kernel version",
            "Unable to load the kernel module 'nvidia.ko'",
        ],
        reason: "DriverNotLoaded",
        kind: "Node",
        cause: Cause::CudaDriverMismatch,
        phase: None,
    },
    // cudaErrorNoDevice as frameworks print it, PyTorch's `No CUDA GPUs are available` and
    // `Found no NVIDIA driver on your system`: the container sees no GPU (the runtime injected
    // none; a Pod that asked for one).
    Signature {
        needles: &[
            "no CUDA-capable device is detected",
            "No CUDA GPUs are available",
            "Found no NVIDIA driver on your system",
        ],
        reason: "CudaNoDevice",
        kind: "Pod",
        cause: Cause::NvidiaRuntimeMissing,
        phase: None,
    },
    // A device plugin that found no device (NVIDIA's main.go, Cambricon's and Ascend's: `No
    // devices found. Waiting indefinitely.`): it registers nothing, so the node advertises none.
    Signature {
        needles: &["No devices found. Waiting indefinitely", "no devices type found. waiting indefinitely"],
        reason: "DevicePluginNoDevices",
        kind: "Node",
        cause: Cause::DevicePluginMissing,
        phase: None,
    },
    // The kubelet's device manager (pkg/kubelet/cm/devicemanager/plugin/v1beta1/client.go,
    // v1.26-v1.35: `ListAndWatch ended unexpectedly for device plugin`): the plugin's stream
    // broke, its devices go unhealthy.
    Signature {
        needles: &["ListAndWatch ended unexpectedly for device plugin"],
        reason: "DevicePluginStreamEnded",
        kind: "Node",
        cause: Cause::DevicePluginUnavailable,
        phase: None,
    },
    // A device plugin that fails after it found its devices: the NVIDIA plugin's `error starting
    // plugins` (cmd/nvidia-device-plugin/main.go) and its single MIG strategy's `More than one
    // MIG device type present on node` (a mixed MIG layout it cannot serve).
    Signature {
        needles: &["More than one MIG device type present on node", "error starting plugins"],
        reason: "DevicePluginFailed",
        kind: "Node",
        cause: Cause::DevicePluginUnavailable,
        phase: None,
    },
    // The NVIDIA DRA driver's kubelet plugin failing a claim's NodePrepareResources
    // (`error preparing devices for claim %v: %w`, cmd/gpu-kubelet-plugin/driver.go, with its
    // MIG `MIG device allocation failed`): the Pod's claims are not prepared, it stays in
    // ContainerCreating.
    Signature {
        needles: &["error preparing devices for claim", "MIG device allocation failed"],
        reason: "DraPrepareFailed",
        kind: "Pod",
        cause: Cause::DraPrepareFailed,
        phase: Some(Phase::ContainerCreating),
    },
    // The NVIDIA kernel module's Xid report in the kernel log (`NVRM: Xid (PCI:...): 79, ...
    // GPU has fallen off the bus.`), and the device plugin's health check that marks a device
    // unhealthy for one (`XidCriticalError: Xid=%d on Device=%s`, internal/rm/health.go): a
    // fault of the node's GPU.
    Signature {
        needles: &["NVRM: Xid", "GPU has fallen off the bus", "XidCriticalError"],
        reason: "NvidiaXid",
        kind: "Node",
        cause: Cause::DeviceFault,
        phase: Some(Phase::Running),
    },
    // The kernel's OOM killer (mm/oom_kill.c): in a memory cgroup (a container over its limit),
    // or for the whole node.
    Signature {
        needles: &["Memory cgroup out of memory: Kill"],
        reason: "CgroupOomKill",
        kind: "Pod",
        cause: Cause::ContainerOom,
        phase: Some(Phase::OomKilled),
    },
    Signature {
        needles: &["Out of memory: Kill"],
        reason: "NodeOomKill",
        kind: "Node",
        cause: Cause::HostOom,
        phase: Some(Phase::Running),
    },
    // Karpenter's controller log when a NodeClaim's instance could not be created
    // (pkg/controllers/nodeclaim/lifecycle/launch.go, v0.32-v1.x: `failed launching nodeclaim`;
    // v0.2x: `Could not launch node`) and the AWS errors it carries.
    Signature {
        needles: &[
            "failed launching nodeclaim",
            "Could not launch node",
            "InsufficientInstanceCapacity",
            "VcpuLimitExceeded",
            "MaxSpotInstanceCountExceeded",
        ],
        reason: "NodeClaimLaunchFailed",
        kind: "NodeClaim",
        cause: Cause::NodeExpansionFailed,
        phase: None,
    },
    // Karpenter's provisioner log for a Pod no NodePool can take (pkg/controllers/provisioning/
    // scheduling: `could not schedule pod` with `incompatible with nodepool ...`, `no instance
    // type satisfied resources`, `all available instance types exceed limits for nodepool`).
    Signature {
        needles: &[
            "no instance type satisfied resources",
            "all available instance types exceed limits",
            "incompatible with nodepool",
            "incompatible with provisioner",
        ],
        reason: "KarpenterCannotSchedule",
        kind: "Pod",
        cause: Cause::NodeExpansionFailed,
        phase: Some(Phase::Pending),
    },
];

/// For every needle, its signature's index (built once).
fn matcher() -> &'static (AhoCorasick, Vec<usize>) {
    static MATCHER: OnceLock<(AhoCorasick, Vec<usize>)> = OnceLock::new();
    MATCHER.get_or_init(|| {
        let mut needles = Vec::new();
        let mut owners = Vec::new();
        for (index, signature) in SIGNATURES.iter().enumerate() {
            for needle in signature.needles {
                needles.push(*needle);
                owners.push(index);
            }
        }
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .build(&needles)
            .expect("the evidence needles are plain strings");
        (automaton, owners)
    })
}

/// The signature a line matches (of the matches in it, the one declared first) and where its
/// match starts.
fn signature_of(line: &str) -> Option<(&'static Signature, usize)> {
    let (automaton, owners) = matcher();
    automaton
        .find_iter(line)
        .map(|m| (owners[m.pattern().as_usize()], m.start()))
        .min_by_key(|(index, _)| *index)
        .map(|(index, at)| (&SIGNATURES[index], at))
}

/// A component's words quoted in a sentence of another script (`...导致报错nvidia-container-cli:
/// ...`) start after the sentence's last character of that script: the prose is no part of the
/// note.
fn after_prose(note: &str, at: usize) -> &str {
    match note[..at].char_indices().rev().find(|(_, c)| !c.is_ascii()) {
        Some((i, c)) => note[i + c.len_utf8()..].trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ':'),
        None => note,
    }
}

/// The signature whose record has this reason.
pub(crate) fn by_reason(reason: &str) -> Option<&'static Signature> {
    SIGNATURES.iter().find(|s| s.reason == reason)
}

/// The record `line` is evidence for; `None` when it matches no signature.
pub(crate) fn record(line: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    signature_of(line)?;
    let (time, note) = super::klog::message_of(line, now);
    let note = note.trim();
    let (signature, at) = signature_of(note)?;
    let note = after_prose(note, at);
    let name = match signature.kind {
        "NodeClaim" => json_name(note, "\"NodeClaim\":{\"name\":\""),
        _ => None,
    };
    let mut record = RawEvent {
        reason: Some(signature.reason),
        type_: Some("Warning"),
        note: Some(note),
        regarding: ObjectReference {
            kind: Some(signature.kind.to_owned()),
            name: name.map(str::to_owned),
            ..ObjectReference::default()
        },
        first: [time, None, None],
        last: [time, None, None],
        approximate_time: time.is_some(),
        inferred_reason: true,
        ..RawEvent::default()
    }
    .into_record();
    if let Err(at) = record.flags.binary_search(&crate::Flag::FromLog) {
        record.flags.insert(at, crate::Flag::FromLog);
    }
    Some(record)
}

/// The JSON string after `key` (`"NodeClaim":{"name":"gpu-x"` gives `gpu-x`).
fn json_name<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let start = text.find(key)? + key.len();
    let name = &text[start..start + text[start..].find('"')?];
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        "2026-01-01T00:00:00Z".parse().unwrap()
    }

    #[test]
    fn the_device_plugins_nvml_failure_is_the_runtime() {
        // From a public report (an LKE node, NVIDIA device plugin v0.17).
        let line = "E1119 17:44:43.345466       1 factory.go:112] Incompatible strategy detected auto";
        let record = record(line, now()).unwrap();
        assert_eq!(record.reason.as_str(), "NvmlNotFound");
        assert_eq!(record.note, "Incompatible strategy detected auto");
        assert_eq!(record.regarding.kind.as_deref(), Some("Node"));
        assert_eq!(record.regarding.name, None);
        assert!(record.has_flag(crate::Flag::FromLog) && record.has_flag(crate::Flag::ApproximateTime));
        assert_eq!(record.last_timestamp, Some("2025-11-19T17:44:43.345466Z".parse().unwrap()));
        assert_eq!(by_reason("NvmlNotFound").unwrap().cause, Cause::NvidiaRuntimeMissing);
    }

    #[test]
    fn the_toolkit_hook_quoted_in_prose_is_the_pods_start_failure_without_the_prose() {
        // Corpus 289 (HAMi, Chinese prose around the kubelet's start error).
        let line = "有概率创建在未设置该label的node中，导致报错nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown";
        let record = record(line, now()).unwrap();
        assert_eq!(record.reason.as_str(), "NvidiaHookFailed");
        assert!(record.note.starts_with("nvidia-container-cli: initialization error"), "{}", record.note);
        assert_eq!(record.regarding.kind.as_deref(), Some("Pod"));
        // In English prose, the sentence stays: nothing tells where the quote begins.
        let english = record_of("the plugin says could not load NVML library");
        assert_eq!(english, "the plugin says could not load NVML library");
    }

    fn record_of(line: &str) -> String {
        record(line, now()).unwrap().note
    }

    #[test]
    fn a_plain_line_is_untimed_and_the_first_declared_signature_wins() {
        // Both `No devices found` and NVML's failure: the NVML failure is the more specific.
        let line = "No devices found. Waiting indefinitely. (could not load NVML library)";
        let record = record(line, now()).unwrap();
        assert_eq!(record.reason.as_str(), "NvmlNotFound");
        assert_eq!(record.last_timestamp, None);
        assert!(!record.has_flag(crate::Flag::ApproximateTime));
        let alone = super::record("I1106 09:17:18.873686 main.go:381] No devices found. Waiting indefinitely.", now());
        assert_eq!(alone.unwrap().reason.as_str(), "DevicePluginNoDevices");
    }

    #[test]
    fn kernel_and_karpenter_lines() {
        let xid = "[ 1234.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.";
        let record = record(xid, now()).unwrap();
        assert_eq!((record.reason.as_str(), record.regarding.kind.as_deref()), ("NvidiaXid", Some("Node")));
        let karpenter = r#"{"level":"ERROR","message":"failed launching nodeclaim","NodeClaim":{"name":"gpu-x7k2p"},"error":"creating instance, insufficient capacity"}"#;
        let record = super::record(karpenter, now()).unwrap();
        assert_eq!(record.regarding.kind.as_deref(), Some("NodeClaim"));
        assert_eq!(record.regarding.name.as_deref(), Some("gpu-x7k2p"));
    }

    #[test]
    fn other_lines_are_no_evidence() {
        for line in ["I0101 00:00:00.000000 1 main.go:1] Starting FS watcher.", "the GPU works on the host", ""] {
            assert!(record(line, now()).is_none(), "{line}");
        }
    }

    #[test]
    fn every_signature_has_a_distinct_reason_and_needles() {
        for (i, signature) in SIGNATURES.iter().enumerate() {
            assert!(!signature.needles.is_empty());
            assert!(SIGNATURES[..i].iter().all(|s| s.reason != signature.reason), "{}", signature.reason);
            assert!(!crate::ReasonName::parse(signature.reason).is_known(), "{} is catalogued", signature.reason);
        }
    }
}
