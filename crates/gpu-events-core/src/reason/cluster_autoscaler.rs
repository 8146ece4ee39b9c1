//! cluster-autoscaler reasons (kubernetes/autoscaler `cluster-autoscaler/processors/status/eventing_scale_up_processor.go`,
//! `core/scaleup/orchestrator/skippedreasons.go`, `core/scaledown/actuation/{actuator.go, drain.go}`, commit 16c271a3;
//! older formats from the pre-1.2x `core/scale_down.go` and `eventing_scale_up_processor.go`).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by cluster-autoscaler (component `cluster-autoscaler`): scale-up decisions
    /// on the pending Pod, scale-down progress on the Node and on the Pods it evicts.
    pub enum ClusterAutoscalerReason in ClusterAutoscaler;

    TriggeredScaleUp {
        meaning: "cluster-autoscaler decided to grow one or more node groups for this pending Pod; the note lists each group with its current, new and maximum size, so a GPU Pod should get a node once the new instance registers.",
        reference: "kubernetes/autoscaler cluster-autoscaler/processors/status/eventing_scale_up_processor.go (16c271a3)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["cluster-autoscaler"],
        note_formats: &["pod triggered scale-up: %v"],
        grammar: Some(&crate::details::ecosystem::TRIGGERED_SCALE_UP),
    }
    NotTriggerScaleUp {
        meaning: "No node group could be grown to fit this pending Pod; the note counts node groups per reason (template predicates such as `Insufficient nvidia.com/gpu`, or skip reasons such as `max node group size reached`, backoff or quota), in random order and possibly empty. For a GPU Pod it usually means no GPU node group matches its selectors or tolerations, or the GPU groups are at their maximum.",
        reference: "kubernetes/autoscaler cluster-autoscaler/processors/status/eventing_scale_up_processor.go, core/scaleup/orchestrator/skippedreasons.go (16c271a3)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["cluster-autoscaler"],
        note_formats: &[
            "pod didn't trigger scale-up: %s",
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added): %s",
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added)",
        ],
        grammar: Some(&crate::details::ecosystem::NOT_TRIGGER_SCALE_UP),
    }
    FailedScaleUp {
        meaning: "A scale-up started for this pending Pod failed in the cloud: the note names the zones and the cloud's error (`GCE out of resources` is a stockout of the machine or GPU type, `GCE quota exceeded` a used-up project or zonal quota). The Pod stays Pending until capacity or quota appears, or it gets a node group in another zone or of another type.",
        reference: "GKE cluster-autoscaler (cloud.google.com/kubernetes-engine/docs/how-to/cluster-autoscaler-visibility, scale-up errors); not in the open-source kubernetes/autoscaler tree",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["cluster-autoscaler"],
        note_formats: &["Node scale up in zones %s associated with this pod failed: %s. Pod is at risk of not being scheduled."],
        grammar: Some(&crate::details::ecosystem::FAILED_SCALE_UP),
    }
    ScaleDown {
        meaning: "cluster-autoscaler is removing an underused node: on the Node it was tainted and marked for deletion, on each Pod it is being evicted so the node can go; a GPU Pod will be recreated elsewhere by its controller.",
        reference: "kubernetes/autoscaler cluster-autoscaler/core/scaledown/actuation/actuator.go, drain.go (16c271a3)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "Pod"],
        reporting_controllers: &["cluster-autoscaler"],
        note_formats: &["marked the node as toBeDeleted/unschedulable", "deleting pod for node scale down"],
        grammar: Some(&crate::details::ecosystem::SCALE_DOWN),
    }
    ScaleDownFailed {
        meaning: "cluster-autoscaler could not finish removing a node (tainting, draining or deleting it failed) and aborted the scale-down; the node stays, often because a Pod could not be evicted.",
        reference: "kubernetes/autoscaler cluster-autoscaler/core/scaledown/actuation/actuator.go (16c271a3); drain/delete formats from older core/scale_down.go",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["cluster-autoscaler"],
        note_formats: &[
            "failed to mark the node as toBeDeleted/unschedulable: %v",
            "failed to delete the node",
            "failed to drain the node, aborting ScaleDown",
        ],
        grammar: Some(&crate::details::ecosystem::SCALE_DOWN),
    }
}
