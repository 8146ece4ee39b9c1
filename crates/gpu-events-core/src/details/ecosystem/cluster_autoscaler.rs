//! cluster-autoscaler note grammars (kubernetes/autoscaler `cluster-autoscaler`, commit 16c271a3,
//! with the formats of older releases): `TriggeredScaleUp`, `NotTriggerScaleUp`, `ScaleDown`,
//! `ScaleDownFailed`; and
//! `FailedScaleUp` as GKE's cluster-autoscaler records it on the Pod.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::text::{closing_bracket, split_top_level_where};
use crate::details::template::captures;

/// cluster-autoscaler grows node groups for the pending Pod: `pod triggered scale-up: %v`, a Go
/// slice of `ScaleUpInfo` printed `[{%s %d->%d (max: %d)} ...]` (group id, current size, new size,
/// maximum size) (kubernetes/autoscaler cluster-autoscaler/processors/status/
/// eventing_scale_up_processor.go, 16c271a3). The pre-1.0 form
/// `pod triggered scale-up, group: %s, sizes (current/new): %d/%d` is accepted too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TriggeredScaleUp {
    /// The node groups resized, in note order.
    pub groups: Vec<ScaleUpGroup>,
}

/// One node group of a [`TriggeredScaleUp`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ScaleUpGroup {
    /// The node group id (an ASG or VMSS name, or a full GCE instance-group URL).
    pub group: String,
    /// Node count before the scale-up.
    pub from: u32,
    /// Node count requested.
    pub to: u32,
    /// The group's maximum size (absent in the pre-1.0 form).
    pub max: Option<u32>,
}

impl ScaleUpGroup {
    /// Parse `group from->to (max: max)` (the text inside `{...}`).
    fn parse(text: &str) -> Option<Self> {
        let (head, max) = text.strip_suffix(')')?.rsplit_once(" (max: ")?;
        let (group, sizes) = head.rsplit_once(' ')?;
        let (from, to) = sizes.split_once("->")?;
        (!group.is_empty()).then_some(())?;
        Some(ScaleUpGroup {
            group: group.to_owned(),
            from: from.parse().ok()?,
            to: to.parse().ok()?,
            max: Some(max.parse().ok()?),
        })
    }
}

impl TriggeredScaleUp {
    /// Parse `pod triggered scale-up: [{...} ...]` or the pre-1.0 single-group form.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some([group, from, to]) = captures("pod triggered scale-up, group: %s, sizes (current/new): %d/%d", note)
        {
            return Some(TriggeredScaleUp {
                groups: vec![ScaleUpGroup {
                    group: group.to_owned(),
                    from: from.parse().ok()?,
                    to: to.parse().ok()?,
                    max: None,
                }],
            });
        }
        let list = note.strip_prefix("pod triggered scale-up: [")?.strip_suffix(']')?;
        let mut groups = Vec::new();
        let mut rest = list.trim_start();
        while !rest.is_empty() {
            let end = closing_bracket(rest)?;
            groups.push(ScaleUpGroup::parse(rest.get(1..end - 1)?)?);
            rest = rest.get(end..)?.trim_start();
        }
        (!groups.is_empty()).then_some(TriggeredScaleUp { groups })
    }
}

/// No node group could be grown for the Pod (kubernetes/autoscaler cluster-autoscaler/processors/
/// status/eventing_scale_up_processor.go `ReasonsMessage`, core/scaleup/orchestrator/
/// skippedreasons.go, 16c271a3).
///
/// Formats: current `pod didn't trigger scale-up: %s`; older `pod didn't trigger scale-up (it
/// wouldn't fit if a new node is added): %s`; oldest, with no list, `pod didn't trigger scale-up
/// (it wouldn't fit if a new node is added)`. The list is `%d %s` entries (node-group count,
/// reason) joined by `, ` in random (Go map) order, and may be empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NotTriggerScaleUp {
    /// The older `(it wouldn't fit if a new node is added)` wording was used.
    pub wouldnt_fit: bool,
    /// Reasons with the number of node groups each applies to, in note order.
    pub reasons: Vec<NodeGroupReason>,
}

/// One entry of [`NotTriggerScaleUp::reasons`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeGroupReason {
    /// How many node groups were rejected or skipped for this reason (absent for whole-cluster
    /// reasons such as `max total nodes in cluster reached`).
    pub count: Option<u32>,
    /// The reason as written: a scheduler predicate evaluated on the group's template node
    /// (`Insufficient nvidia.com/gpu`, `node(s) had untolerated taint {...}`) or a skip reason
    /// (`max node group size reached`, `in backoff after failed scale-up`, ...).
    pub reason: String,
}

/// Whether `text` starts with a count and a space (`12 ...`).
fn starts_with_count(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && text.as_bytes().get(digits) == Some(&b' ')
}

impl NotTriggerScaleUp {
    /// Parse the three `pod didn't trigger scale-up` forms.
    pub fn parse(note: &str) -> Option<Self> {
        const OLD: &str = "pod didn't trigger scale-up (it wouldn't fit if a new node is added)";
        let (wouldnt_fit, list) = if let Some(rest) = note.strip_prefix(OLD) {
            if rest.is_empty() {
                (true, "")
            } else {
                (true, rest.strip_prefix(": ").or_else(|| rest.strip_prefix(':'))?)
            }
        } else {
            let rest = note.strip_prefix("pod didn't trigger scale-up:")?;
            (false, rest.strip_prefix(' ').unwrap_or(rest))
        };
        let reasons = if list.trim().is_empty() {
            Vec::new()
        } else {
            split_top_level_where(list, ", ", starts_with_count)
                .map(|entry| {
                    let entry = entry.trim();
                    match entry.split_once(' ') {
                        Some((count, reason)) if starts_with_count(entry) => {
                            NodeGroupReason { count: count.parse().ok(), reason: reason.to_owned() }
                        }
                        _ => NodeGroupReason { count: None, reason: entry.to_owned() },
                    }
                })
                .collect()
        };
        Some(NotTriggerScaleUp { wouldnt_fit, reasons })
    }
}

/// A scale-down step or failure on a Node or Pod (`ScaleDown`, `ScaleDownFailed`;
/// kubernetes/autoscaler cluster-autoscaler/core/scaledown/actuation/actuator.go, drain.go,
/// 16c271a3, and the older core/scale_down.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ScaleDown {
    /// The step the note reports.
    pub step: ScaleDownStep,
    /// The error, for failures that carry one.
    pub error: Option<String>,
}

/// The step of a [`ScaleDown`] note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ScaleDownStep {
    /// `marked the node as toBeDeleted/unschedulable` (Node).
    MarkedToBeDeleted,
    /// `deleting pod for node scale down` (Pod being evicted).
    DeletingPod,
    /// `node removed by cluster autoscaler` (older releases, Node).
    NodeRemoved,
    /// `failed to mark the node as toBeDeleted/unschedulable: %v`.
    MarkFailed,
    /// `failed to delete the node` / `failed to delete empty node: %v`.
    DeleteFailed,
    /// `failed to drain the node, aborting ScaleDown` / `failed to drain and delete node: %v`.
    DrainFailed,
    /// `failed to delete pod for ScaleDown` (Pod that could not be evicted).
    PodDeleteFailed,
}

impl ScaleDown {
    /// Parse one of the known `ScaleDown` / `ScaleDownFailed` notes.
    pub fn parse(note: &str) -> Option<Self> {
        let fixed = [
            ("marked the node as toBeDeleted/unschedulable", ScaleDownStep::MarkedToBeDeleted),
            ("deleting pod for node scale down", ScaleDownStep::DeletingPod),
            ("node removed by cluster autoscaler", ScaleDownStep::NodeRemoved),
            ("failed to delete the node", ScaleDownStep::DeleteFailed),
            ("failed to delete node", ScaleDownStep::DeleteFailed),
            ("failed to drain the node, aborting ScaleDown", ScaleDownStep::DrainFailed),
            ("failed to delete pod for ScaleDown", ScaleDownStep::PodDeleteFailed),
        ];
        if let Some((_, step)) = fixed.iter().find(|(text, _)| *text == note) {
            return Some(ScaleDown { step: *step, error: None });
        }
        let with_error = [
            ("failed to mark the node as toBeDeleted/unschedulable: ", ScaleDownStep::MarkFailed),
            ("failed to delete empty node: ", ScaleDownStep::DeleteFailed),
            ("failed to delete the node: ", ScaleDownStep::DeleteFailed),
            ("failed to drain and delete node: ", ScaleDownStep::DrainFailed),
        ];
        with_error.iter().find_map(|(prefix, step)| {
            let error = note.strip_prefix(prefix)?;
            Some(ScaleDown { step: *step, error: Some(error.to_owned()) })
        })
    }
}

/// A scale-up for the Pod failed in the cloud (`FailedScaleUp`, Warning, on the Pod):
/// `Node scale up in zones %s associated with this pod failed: %s. Pod is at risk of not being
/// scheduled.` as GKE's cluster-autoscaler writes it (GKE docs, "Cluster autoscaler visibility",
/// scale-up error events; the message is not in the open-source tree). The zone list may be empty
/// (`in zones associated`), and the closing sentence is absent in some releases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FailedScaleUp {
    /// The zones the failed scale-up was in, in note order (may be empty).
    pub zones: Vec<String>,
    /// The cloud's error text, without its final period (`GCE out of resources`).
    pub error: String,
    /// What the error says, where it is one of the known scale-up errors.
    pub cause: ScaleUpFailure,
}

/// The cause of a [`FailedScaleUp`], read from its error text (GKE's scale-up error messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ScaleUpFailure {
    /// `GCE out of resources`: the zone has no capacity of the machine type (GPU stockout).
    OutOfResources,
    /// `GCE quota exceeded`: a project or zonal quota (CPUs, GPUs of the type) is used up.
    QuotaExceeded,
    /// `IP space exhausted`: the cluster's subnet has no addresses for new nodes.
    IpSpaceExhausted,
    /// `Waiting for instances timeout`: instances were requested but never came up.
    Timeout,
    /// Any other text (`Internal error`, a service-account or permission error).
    Other,
}

impl FailedScaleUp {
    /// Parse `Node scale up in zones <zones> associated with this pod failed: <error>[. Pod is at risk
    /// of not being scheduled.]`.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.strip_prefix("Node scale up in zones")?;
        let (zones, error) = rest.split_once("associated with this pod failed: ")?;
        let error = error.trim_end();
        // The closing sentence ends the format: text after it is not this message's.
        let error = match error.split_once(" Pod is at risk of not being scheduled") {
            Some((error, "." | "")) => error,
            Some(_) => return None,
            None => error,
        };
        let error = error.strip_suffix('.').unwrap_or(error).trim_end();
        (!error.is_empty()).then_some(())?;
        let zones = zones.split([',', ' ']).filter(|z| !z.is_empty()).map(str::to_owned).collect();
        let lower = error.to_ascii_lowercase();
        let cause = if lower.contains("out of resources") {
            ScaleUpFailure::OutOfResources
        } else if lower.contains("quota exceeded") {
            ScaleUpFailure::QuotaExceeded
        } else if lower.contains("ip space exhausted") {
            ScaleUpFailure::IpSpaceExhausted
        } else if lower.contains("timeout") {
            ScaleUpFailure::Timeout
        } else {
            ScaleUpFailure::Other
        };
        Some(FailedScaleUp { zones, error: error.to_owned(), cause })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_scale_up_reads_zones_error_and_cause() {
        let d = FailedScaleUp::parse(
            "Node scale up in zones us-west1-b associated with this pod failed: GCE out of resources. Pod is at risk of not being scheduled.",
        )
        .unwrap();
        assert_eq!(d.zones, ["us-west1-b"]);
        assert_eq!((d.error.as_str(), d.cause), ("GCE out of resources", ScaleUpFailure::OutOfResources));
        let d = FailedScaleUp::parse("Node scale up in zones associated with this pod failed: Internal error. Pod is at risk of not being scheduled").unwrap();
        assert!(d.zones.is_empty());
        assert_eq!((d.error.as_str(), d.cause), ("Internal error", ScaleUpFailure::Other));
        // Words after the closing sentence are not the message's (prose that quotes it).
        assert!(FailedScaleUp::parse("Node scale up in zones z associated with this pod failed: E. Pod is at risk of not being scheduled. I checked.").is_none());
        let d = FailedScaleUp::parse(
            "Node scale up in zones us-central1-a associated with this pod failed: GCE quota exceeded.",
        )
        .unwrap();
        assert_eq!((d.zones.len(), d.cause), (1, ScaleUpFailure::QuotaExceeded));
        for bad in [
            "Node scale up in zones a failed: x",
            "Node scale up in zones a associated with this pod failed: ",
            "scale up failed",
        ] {
            assert_eq!(FailedScaleUp::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn triggered_scale_up_lists_groups() {
        let d = TriggeredScaleUp::parse("pod triggered scale-up: [{aks-gpunp-98036146-vmss 1->2 (max: 2)}]").unwrap();
        assert_eq!(d.groups, [ScaleUpGroup { group: "aks-gpunp-98036146-vmss".into(), from: 1, to: 2, max: Some(2) }]);
        let d = TriggeredScaleUp::parse(
            "pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/project-a/zones/us-central1-a/instanceGroups/gke-cluster-a-gpu-pool-1a2b3c4d-grp 0->1 (max: 10)} {eks-gpu-2 3->5 (max: 8)}]",
        )
        .unwrap();
        assert_eq!(d.groups.len(), 2);
        assert!(d.groups[0].group.ends_with("gke-cluster-a-gpu-pool-1a2b3c4d-grp"));
        assert_eq!((d.groups[0].from, d.groups[0].to, d.groups[0].max), (0, 1, Some(10)));
        assert_eq!((d.groups[1].group.as_str(), d.groups[1].to), ("eks-gpu-2", 5));
        let d = TriggeredScaleUp::parse("pod triggered scale-up, group: gpu-asg, sizes (current/new): 1/3").unwrap();
        assert_eq!((d.groups[0].from, d.groups[0].to, d.groups[0].max), (1, 3, None));
    }

    #[test]
    fn triggered_scale_up_near_misses() {
        for bad in [
            "pod triggered scale-up: []",
            "pod triggered scale-up: [{g 1->2}]",
            "pod triggered scale-up: [{g x->2 (max: 3)}]",
            "pod triggered scale-up: [{g 1->2 (max: 3)}",
            "pod triggered scale-up: [{ 1->2 (max: 3)}]",
            "pod didn't trigger scale-up: ",
        ] {
            assert_eq!(TriggeredScaleUp::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn not_trigger_scale_up_forms() {
        let d = NotTriggerScaleUp::parse("pod didn't trigger scale-up: 2 max node group size reached").unwrap();
        assert!(!d.wouldnt_fit);
        assert_eq!(d.reasons, [NodeGroupReason { count: Some(2), reason: "max node group size reached".into() }]);

        let d = NotTriggerScaleUp::parse(
            "pod didn't trigger scale-up: 1 node(s) had untolerated taint {nvidia.com/gpu: present}, 3 Insufficient nvidia.com/gpu, 2 exceeded quota: \"gpu-quota\", resources: nvidia.com/gpu, 1 in backoff after failed scale-up",
        )
        .unwrap();
        let reasons: Vec<_> = d.reasons.iter().map(|r| (r.count, r.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                (Some(1), "node(s) had untolerated taint {nvidia.com/gpu: present}"),
                (Some(3), "Insufficient nvidia.com/gpu"),
                (Some(2), "exceeded quota: \"gpu-quota\", resources: nvidia.com/gpu"),
                (Some(1), "in backoff after failed scale-up"),
            ]
        );

        let d = NotTriggerScaleUp::parse("pod didn't trigger scale-up: ").unwrap();
        assert!(d.reasons.is_empty());
        let d = NotTriggerScaleUp::parse(
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match node selector",
        )
        .unwrap();
        assert!(d.wouldnt_fit);
        assert_eq!(d.reasons.len(), 2);
        let d =
            NotTriggerScaleUp::parse("pod didn't trigger scale-up (it wouldn't fit if a new node is added)").unwrap();
        assert!(d.wouldnt_fit && d.reasons.is_empty());
        let d = NotTriggerScaleUp::parse("pod didn't trigger scale-up: max total nodes in cluster reached").unwrap();
        assert_eq!(d.reasons[0].count, None);
        assert_eq!(NotTriggerScaleUp::parse("pod triggered scale-up: [{g 1->2 (max: 3)}]"), None);
        assert_eq!(
            NotTriggerScaleUp::parse("pod didn't trigger scale-up (it wouldn't fit if a new node is added)!"),
            None
        );
    }

    #[test]
    fn scale_down_steps() {
        let d = ScaleDown::parse("marked the node as toBeDeleted/unschedulable").unwrap();
        assert_eq!((d.step, d.error), (ScaleDownStep::MarkedToBeDeleted, None));
        assert_eq!(ScaleDown::parse("deleting pod for node scale down").unwrap().step, ScaleDownStep::DeletingPod);
        let d = ScaleDown::parse("failed to mark the node as toBeDeleted/unschedulable: nodes \"node-a\" is forbidden")
            .unwrap();
        assert_eq!(d.step, ScaleDownStep::MarkFailed);
        assert_eq!(d.error.as_deref(), Some("nodes \"node-a\" is forbidden"));
        assert_eq!(ScaleDown::parse("failed to delete the node").unwrap().step, ScaleDownStep::DeleteFailed);
        assert_eq!(
            ScaleDown::parse("failed to drain the node, aborting ScaleDown").unwrap().step,
            ScaleDownStep::DrainFailed
        );
        assert_eq!(ScaleDown::parse("marked the node"), None);
    }
}
