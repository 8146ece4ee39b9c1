//! The per-node reason strings of a scheduler histogram (`<count> <reason>`), typed.
//!
//! Sources: kubernetes/kubernetes `pkg/scheduler/framework/plugins/*` (v1.14–v1.36, wordings by
//! version in `kubernetes-gpu-reasons.md` §2.3 and §15), the ≤1.10 predicate names
//! (`pkg/scheduler/algorithm/predicates/error.go`), Volcano `pkg/scheduler/api/unschedule_info.go`
//! (ed72c7c8) and KAI-Scheduler `pkg/scheduler/api/common_info/pod_errors.go` (d5bc503a).
//! Reasons written by scheduler extenders (HAMi `NodeUnfitPod`, gpu-admission `ExceedsGPUQuota`,
//! ...) are free text and land in [`NodeReason::Other`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One reason of a histogram, typed by the plugin that writes it. Every variant keeps the
/// reason exactly as written in `text`.
///
/// JSON: an object whose `type` (camelCase) names the variant, e.g.
/// `{"type": "insufficient", "text": "Insufficient nvidia.com/gpu", "resource": "nvidia.com/gpu"}`.
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum NodeReason {
    /// NodeResourcesFit `Insufficient <resource>` (also Volcano), or KAI-Scheduler
    /// `node(s) didn't have enough resources: <resource>` / `... enough of mig profile: <profile>`.
    Insufficient {
        /// The reason as written.
        text: String,
        /// The resource name as written: `cpu`, `memory`, `nvidia.com/gpu`, `amd.com/gpu`,
        /// `aliyun.com/gpu-mem`, `hugepages-2Mi`, a MIG profile, or KAI's `GPUs`, `GPU memory`,
        /// `CPU cores`.
        resource: String,
    },
    /// NodeResourcesFit `Too many pods` (Volcano `node(s) pod number exceeded`).
    TooManyPods {
        /// The reason as written.
        text: String,
    },
    /// TaintToleration, in all its wordings: `node(s) had taints that the pod didn't tolerate`
    /// (≤1.17), `node(s) had taint {k: v}, that the pod didn't tolerate` (1.18–~1.24),
    /// `node(s) had untolerated taint {k: v}` (~1.25–1.34), `node(s) had untolerated taint(s)`
    /// (1.35), the ≤1.10 predicate `PodToleratesNodeTaints`.
    UntoleratedTaint {
        /// The reason as written.
        text: String,
        /// The taint key, when the wording names it.
        key: Option<String>,
        /// The taint value, when the wording names the taint; may be empty (`{key: }`).
        value: Option<String>,
    },
    /// NodeAffinity: `node(s) didn't match Pod's node affinity/selector`, the older
    /// `node(s) didn't match node selector` and `node(s) didn't match Pod's node affinity`,
    /// `node(s) didn't match scheduler-enforced node affinity`, the ≤1.10 `MatchNodeSelector`.
    NodeAffinity {
        /// The reason as written.
        text: String,
    },
    /// NodeUnschedulable `node(s) were unschedulable` (cordoned).
    Unschedulable {
        /// The reason as written.
        text: String,
    },
    /// NodeUnschedulable `node(s) had unknown conditions`.
    UnknownConditions {
        /// The reason as written.
        text: String,
    },
    /// The node conditions of old schedulers (CheckNodeCondition and pressure predicates,
    /// ≤1.16): `node(s) were not ready`, `node(s) had memory pressure`, `node(s) had disk
    /// pressure`, `node(s) had pid pressure`, `node(s) were out of disk space`,
    /// `node(s) had network unavailable`.
    NodeCondition {
        /// The reason as written.
        text: String,
    },
    /// NodeName `node(s) didn't match the requested node name` (older `... hostname`).
    NodeName {
        /// The reason as written.
        text: String,
    },
    /// VolumeBinding node affinity: `node(s) had volume node affinity conflict` (≤1.32) and
    /// `node(s) didn't match PersistentVolume's node affinity` (≥1.33, PR #129887).
    VolumeAffinity {
        /// The reason as written.
        text: String,
    },
    /// The other volume reasons: VolumeBinding, NodeVolumeLimits, VolumeRestrictions,
    /// VolumeZone, and the per-node copies of the PVC PreFilter messages of old schedulers.
    Volume {
        /// The reason as written.
        text: String,
    },
    /// NodePorts `node(s) didn't have free ports for the requested pod ports`.
    Ports {
        /// The reason as written.
        text: String,
    },
    /// PodTopologySpread `node(s) didn't match pod topology spread constraints` (with or
    /// without ` (missing required label)`).
    TopologySpread {
        /// The reason as written.
        text: String,
    },
    /// InterPodAffinity: pod affinity and anti-affinity rules, including existing pods'
    /// anti-affinity.
    PodAffinity {
        /// The reason as written.
        text: String,
    },
    /// DynamicResources (DRA): `cannot allocate all claims`, `resourceclaim ...`, device class
    /// and claim allocation messages.
    Dra {
        /// The reason as written.
        text: String,
    },
    /// `node is filtered out by the prefilter result` (~1.28–1.30, PR #119779).
    PrefilterResult {
        /// The reason as written.
        text: String,
    },
    /// `node(s) didn't satisfy plugin(s) [A B]` (≥1.31, PR #122251), with ` simultaneously`,
    /// or `node(s) didn't satisfy plugin A`.
    Plugins {
        /// The reason as written.
        text: String,
        /// The plugin names, in order.
        plugins: Vec<String>,
    },
    /// DefaultPreemption `Preemption is not helpful for scheduling`.
    PreemptionNotHelpful {
        /// The reason as written.
        text: String,
    },
    /// DefaultPreemption `No preemption victims found for incoming pod`.
    NoPreemptionVictims {
        /// The reason as written.
        text: String,
    },
    /// Anything else: extender and third-party tokens (`ExceedsGPUQuota`, `NodeUnfitPod`,
    /// `node unregistered`), gang and out-of-tree plugin texts.
    Other {
        /// The reason as written.
        text: String,
    },
}

/// Builds a variant from the reason text.
type MakeReason = fn(String) -> NodeReason;

/// Reasons matched exactly, with the variant they give.
const EXACT: &[(&str, MakeReason)] = &[
    ("Too many pods", |text| NodeReason::TooManyPods { text }),
    ("node(s) pod number exceeded", |text| NodeReason::TooManyPods { text }),
    ("node(s) were unschedulable", |text| NodeReason::Unschedulable { text }),
    ("NodeUnschedulable", |text| NodeReason::Unschedulable { text }),
    ("node(s) had unknown conditions", |text| NodeReason::UnknownConditions { text }),
    ("node(s) were not ready", |text| NodeReason::NodeCondition { text }),
    ("node(s) had memory pressure", |text| NodeReason::NodeCondition { text }),
    ("node(s) had disk pressure", |text| NodeReason::NodeCondition { text }),
    ("node(s) had pid pressure", |text| NodeReason::NodeCondition { text }),
    ("node(s) were out of disk space", |text| NodeReason::NodeCondition { text }),
    ("node(s) had network unavailable", |text| NodeReason::NodeCondition { text }),
    ("CheckNodeCondition", |text| NodeReason::NodeCondition { text }),
    ("NodeUnderMemoryPressure", |text| NodeReason::NodeCondition { text }),
    ("NodeUnderDiskPressure", |text| NodeReason::NodeCondition { text }),
    ("NodeUnderPIDPressure", |text| NodeReason::NodeCondition { text }),
    ("NodeNotReady", |text| NodeReason::NodeCondition { text }),
    ("node(s) didn't match the requested node name", |text| NodeReason::NodeName { text }),
    ("node(s) didn't match the requested hostname", |text| NodeReason::NodeName { text }),
    ("HostName", |text| NodeReason::NodeName { text }),
    ("node(s) didn't have free ports for the requested pod ports", |text| NodeReason::Ports { text }),
    ("PodFitsHostPorts", |text| NodeReason::Ports { text }),
    ("MatchNodeSelector", |text| NodeReason::NodeAffinity { text }),
    ("MatchInterPodAffinity", |text| NodeReason::PodAffinity { text }),
    ("node is filtered out by the prefilter result", |text| NodeReason::PrefilterResult { text }),
    ("Preemption is not helpful for scheduling", |text| NodeReason::PreemptionNotHelpful { text }),
    ("No preemption victims found for incoming pod", |text| NodeReason::NoPreemptionVictims { text }),
    ("NoVolumeZoneConflict", |text| NodeReason::Volume { text }),
    ("NoDiskConflict", |text| NodeReason::Volume { text }),
    ("MaxVolumeCount", |text| NodeReason::Volume { text }),
    ("NoVolumeNodeConflict", |text| NodeReason::VolumeAffinity { text }),
];

/// Prefixes after which the rest of the reason is a resource name.
const INSUFFICIENT_PREFIXES: &[&str] = &[
    "Insufficient ",
    "node(s) didn't have enough resources: ",
    "node-group(s) didn't have enough resources: ",
    "node(s) didn't have enough of mig profile: ",
    "node-group(s) didn't have enough of mig profile: ",
];

impl NodeReason {
    /// Type one reason string (the text after the count). Never fails: unknown texts are
    /// [`NodeReason::Other`].
    pub fn parse(text: &str) -> NodeReason {
        let text = text.trim();
        if let Some(&(_, make)) = EXACT.iter().find(|(exact, _)| *exact == text) {
            return make(text.to_owned());
        }
        for prefix in INSUFFICIENT_PREFIXES {
            if let Some(resource) = text.strip_prefix(prefix) {
                // KAI appends `. <suffix>` to its short messages.
                let resource = crate::details::text::find(resource, ". ").map_or(resource, |at| &resource[..at]);
                return NodeReason::Insufficient { text: text.to_owned(), resource: resource.trim().to_owned() };
            }
        }
        if is_taint(text) {
            let (key, value) = taint_key_value(text);
            return NodeReason::UntoleratedTaint { text: text.to_owned(), key, value };
        }
        if let Some(rest) = text.strip_prefix("node(s) didn't satisfy plugin") {
            return NodeReason::Plugins { text: text.to_owned(), plugins: plugin_names(rest) };
        }
        let owned = text.to_owned();
        if text.contains("volume node affinity") || text.contains("PersistentVolume's node affinity") {
            NodeReason::VolumeAffinity { text: owned }
        } else if text.contains("node affinity") || text.contains("node selector") {
            NodeReason::NodeAffinity { text: owned }
        } else if text.contains("topology spread") {
            NodeReason::TopologySpread { text: owned }
        } else if text.contains("affinity") {
            NodeReason::PodAffinity { text: owned }
        } else if is_dra(text) {
            NodeReason::Dra { text: owned }
        } else if is_volume(text) {
            NodeReason::Volume { text: owned }
        } else {
            NodeReason::Other { text: owned }
        }
    }

    /// The reason exactly as written.
    pub fn text(&self) -> &str {
        match self {
            NodeReason::Insufficient { text, .. }
            | NodeReason::TooManyPods { text }
            | NodeReason::UntoleratedTaint { text, .. }
            | NodeReason::NodeAffinity { text }
            | NodeReason::Unschedulable { text }
            | NodeReason::UnknownConditions { text }
            | NodeReason::NodeCondition { text }
            | NodeReason::NodeName { text }
            | NodeReason::VolumeAffinity { text }
            | NodeReason::Volume { text }
            | NodeReason::Ports { text }
            | NodeReason::TopologySpread { text }
            | NodeReason::PodAffinity { text }
            | NodeReason::Dra { text }
            | NodeReason::PrefilterResult { text }
            | NodeReason::Plugins { text, .. }
            | NodeReason::PreemptionNotHelpful { text }
            | NodeReason::NoPreemptionVictims { text }
            | NodeReason::Other { text } => text,
        }
    }

    /// The resource of an [`NodeReason::Insufficient`] reason.
    pub fn insufficient_resource(&self) -> Option<&str> {
        match self {
            NodeReason::Insufficient { resource, .. } => Some(resource),
            _ => None,
        }
    }
}

fn is_taint(text: &str) -> bool {
    text == "PodToleratesNodeTaints" || (text.starts_with("node(s) had ") && text.contains("taint"))
}

/// `{key: value}` of a taint wording; `(None, None)` when the wording names no taint.
fn taint_key_value(text: &str) -> (Option<String>, Option<String>) {
    let Some((_, after_open)) = text.split_once('{') else {
        return (None, None);
    };
    let Some((inner, _)) = after_open.split_once('}') else {
        return (None, None);
    };
    match inner.split_once(':') {
        Some((key, value)) => (Some(key.trim().to_owned()), Some(value.trim_start().to_owned())),
        None => (Some(inner.trim().to_owned()), None),
    }
}

/// Plugin names after `node(s) didn't satisfy plugin`: `(s) [A B]`, `(s) [A B] simultaneously`
/// or ` A`.
fn plugin_names(rest: &str) -> Vec<String> {
    if let Some((_, after_open)) = rest.split_once('[') {
        let list = after_open.split_once(']').map_or(after_open, |(l, _)| l);
        return list.split_whitespace().map(str::to_owned).collect();
    }
    let rest = rest.strip_prefix("(s)").unwrap_or(rest);
    rest.split_whitespace().next().map(|name| vec![name.to_owned()]).unwrap_or_default()
}

fn is_dra(text: &str) -> bool {
    let lower_hit =
        |needle: &str| text.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle.as_bytes()));
    lower_hit("resourceclaim")
        || lower_hit("resource claim")
        || text.contains("device class")
        || text.contains("cannot allocate all claims")
        || text.contains("claims to deallocate")
}

fn is_volume(text: &str) -> bool {
    let lower_hit =
        |needle: &str| text.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle.as_bytes()));
    lower_hit("volume")
        || lower_hit("pvc")
        || text.contains("free storage")
        || text.contains("available disk")
        || text.contains("ReadWriteOncePod")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(text: &str) -> (Option<String>, Option<String>) {
        match NodeReason::parse(text) {
            NodeReason::UntoleratedTaint { text: kept, key, value } => {
                assert_eq!(kept, text);
                (key, value)
            }
            other => panic!("{text}: {other:?}"),
        }
    }

    fn some(key: &str, value: &str) -> (Option<String>, Option<String>) {
        (Some(key.to_owned()), Some(value.to_owned()))
    }

    #[test]
    fn insufficient_keeps_any_resource_name() {
        for (text, resource) in [
            ("Insufficient cpu", "cpu"),
            ("Insufficient memory", "memory"),
            ("Insufficient nvidia.com/gpu", "nvidia.com/gpu"),
            ("Insufficient amd.com/gpu", "amd.com/gpu"),
            ("Insufficient aliyun.com/gpu-mem", "aliyun.com/gpu-mem"),
            ("Insufficient hugepages-2Mi", "hugepages-2Mi"),
            ("Insufficient nvidia.com/mig-1g.5gb", "nvidia.com/mig-1g.5gb"),
            ("node(s) didn't have enough resources: GPUs", "GPUs"),
            ("node(s) didn't have enough resources: GPU memory", "GPU memory"),
            ("node(s) didn't have enough of mig profile: nvidia.com/mig-1g.5gb", "nvidia.com/mig-1g.5gb"),
            ("node(s) didn't have enough resources: CPU cores. Gang member", "CPU cores"),
        ] {
            let reason = NodeReason::parse(text);
            assert_eq!(reason.insufficient_resource(), Some(resource), "{text}");
            assert_eq!(reason.text(), text);
        }
    }

    #[test]
    fn taint_wordings_of_every_version() {
        assert_eq!(taint("node(s) had taints that the pod didn't tolerate"), (None, None));
        assert_eq!(
            taint("node(s) had taint {protect: no_schedule}, that the pod didn't tolerate"),
            some("protect", "no_schedule")
        );
        assert_eq!(taint("node(s) had untolerated taint {dedicated: gpuGroup}"), some("dedicated", "gpuGroup"));
        assert_eq!(
            taint("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"),
            some("node-role.kubernetes.io/control-plane", "")
        );
        assert_eq!(taint("node(s) had untolerated taint(s)"), (None, None));
        assert_eq!(taint("PodToleratesNodeTaints"), (None, None));
    }

    #[test]
    fn each_plugin_family_is_typed() {
        let cases: &[(&str, &str)] = &[
            ("Too many pods", "tooManyPods"),
            ("node(s) didn't match Pod's node affinity/selector", "nodeAffinity"),
            ("node(s) didn't match node selector", "nodeAffinity"),
            ("node(s) didn't match Pod's node affinity", "nodeAffinity"),
            ("node(s) didn't match scheduler-enforced node affinity", "nodeAffinity"),
            ("MatchNodeSelector", "nodeAffinity"),
            ("node(s) were unschedulable", "unschedulable"),
            ("node(s) had unknown conditions", "unknownConditions"),
            ("node(s) were not ready", "nodeCondition"),
            ("node(s) didn't match the requested node name", "nodeName"),
            ("node(s) didn't match the requested hostname", "nodeName"),
            ("node(s) had volume node affinity conflict", "volumeAffinity"),
            ("node(s) didn't match PersistentVolume's node affinity", "volumeAffinity"),
            ("node(s) didn't find available persistent volumes to bind", "volume"),
            ("node(s) did not have enough free storage", "volume"),
            ("node(s) exceed max volume count", "volume"),
            ("node(s) had no available disk", "volume"),
            ("node(s) had no available volume zone", "volume"),
            ("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", "volume"),
            ("pod has unbound immediate PersistentVolumeClaims", "volume"),
            ("node(s) didn't have free ports for the requested pod ports", "ports"),
            ("node(s) didn't match pod topology spread constraints", "topologySpread"),
            ("node(s) didn't match pod topology spread constraints (missing required label)", "topologySpread"),
            ("node(s) didn't satisfy existing pods anti-affinity rules", "podAffinity"),
            ("node(s) didn't match pod affinity rules", "podAffinity"),
            ("node(s) didn't match pod anti-affinity rules", "podAffinity"),
            ("node(s) didn't match pod affinity/anti-affinity", "podAffinity"),
            ("cannot allocate all claims", "dra"),
            ("resourceclaim not available on the node", "dra"),
            ("resourceclaim in use", "dra"),
            ("resourceclaim must be reallocated", "dra"),
            ("resource claim gpu-claim is in the process of being allocated", "dra"),
            ("request gpu: device class gpu.nvidia.com does not exist", "dra"),
            ("node is filtered out by the prefilter result", "prefilterResult"),
            ("Preemption is not helpful for scheduling", "preemptionNotHelpful"),
            ("No preemption victims found for incoming pod", "noPreemptionVictims"),
            ("ExceedsGPUQuota", "other"),
            ("NodeUnfitPod", "other"),
            ("node unregistered", "other"),
        ];
        for (text, kind) in cases {
            let reason = NodeReason::parse(text);
            let json = serde_json::to_value(&reason).unwrap();
            assert_eq!(json["type"], *kind, "{text}");
            assert_eq!(json["text"], *text, "{text}");
            assert_eq!(reason.text(), *text);
        }
    }

    #[test]
    fn plugin_lists() {
        let plugins = |text: &str| match NodeReason::parse(text) {
            NodeReason::Plugins { plugins, .. } => plugins,
            other => panic!("{other:?}"),
        };
        assert_eq!(plugins("node(s) didn't satisfy plugin(s) [NodeAffinity]"), ["NodeAffinity"]);
        assert_eq!(
            plugins("node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously"),
            ["NodeAffinity", "VolumeBinding"]
        );
        assert_eq!(plugins("node(s) didn't satisfy plugin NodeAffinity"), ["NodeAffinity"]);
    }

    #[test]
    fn round_trips_through_json() {
        let reason = NodeReason::parse("node(s) had untolerated taint {a: b}");
        let json = serde_json::to_string(&reason).unwrap();
        assert_eq!(
            json,
            r#"{"type":"untoleratedTaint","text":"node(s) had untolerated taint {a: b}","key":"a","value":"b"}"#
        );
        assert_eq!(serde_json::from_str::<NodeReason>(&json).unwrap(), reason);
    }
}
