//! Karpenter reasons (kubernetes-sigs/karpenter `pkg/events/reason.go` and the `events.go` files of
//! `pkg/controllers/{provisioning/scheduling, disruption/events, node/termination/terminator/events,
//! nodeclaim/lifecycle, nodeclaim/consistency, node/health}` and `pkg/utils/pod/events.go`; HEAD
//! 22664681 = v1.14.0, with older formats from tags v1.0–v1.13).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by Karpenter (component `karpenter`) on Pods, Nodes, NodeClaims and
    /// NodePools. `FailedScheduling` shares its wire string with kube-scheduler and `Evicted` with
    /// the kubelet; the reporting controller `karpenter` tells them apart.
    pub enum KarpenterReason in Karpenter;

    Nominated {
        meaning: "Karpenter expects this pending Pod to land on a NodeClaim it is launching (or on an existing node); the note names the NodeClaim and, once registered, the node.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/events.go (v1.14.0, 22664681)",
        group: Scheduling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Pod should schedule on: nodeclaim/%s, node/%s", "Pod should schedule on: nodeclaim/%s"],
        grammar: Some(&crate::details::ecosystem::NOMINATED),
    }
    FailedScheduling {
        meaning: "Karpenter's own provisioning simulation found no NodePool and instance type that can run this pending Pod, so it launches nothing for it; the note gives the per-NodePool incompatibility (requirements, limits, taints, missing resources). For a GPU Pod it usually means no NodePool offers the GPU instance type, the NodePool GPU limit is exhausted, or a GPU taint is not tolerated.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/events.go (v1.14.0, 22664681; pre-v1.5 format from v1.0–v1.4)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &[
            "Failed to schedule pod, %s",
            "Failed to schedule pod, incompatible with nodepool %q, daemonset overhead=%s, %s",
        ],
        grammar: Some(&crate::details::ecosystem::KARPENTER_FAILED_SCHEDULING),
    }
    NoCompatibleInstanceTypes {
        meaning: "A NodePool's requirements exclude every instance type the cloud provider offers, so the NodePool can never launch a node; for GPU pools this is typically a GPU instance family or capacity type that is not available.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["NodePool"],
        reporting_controllers: &["karpenter"],
        note_formats: &[
            "NodePool requirements filtered out all compatible available instance types due to minValues incompatibility",
            "NodePool requirements filtered out all compatible available instance types",
        ],
    }
    DisruptionBlocked {
        meaning: "Karpenter may not disrupt (consolidate, drift-replace, expire) this node or NodePool right now; since v1.2 the note is just the blocking sentence (do-not-disrupt Pod, PDB, node not initialized, nominated, disruption budget).",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681; `Cannot disrupt` forms v1.0–v1.1)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim", "NodePool"],
        reporting_controllers: &["karpenter"],
        note_formats: &[
            "No allowed disruptions for disruption reason %s due to blocking budget",
            "No allowed disruptions due to blocking budget",
            "Cannot disrupt Node: %s",
            "Cannot disrupt NodeClaim: %s",
        ],
        grammar: Some(&crate::details::ecosystem::DISRUPTION_BLOCKED),
    }
    DisruptionLaunching {
        meaning: "Karpenter is launching a replacement NodeClaim as part of a disruption; the note gives the disruption reason (Underutilized, Empty, Drifted, ...).",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Launching NodeClaim: %s"],
        grammar: Some(&crate::details::ecosystem::KARPENTER_DISRUPTION),
    }
    DisruptionWaitingReadiness {
        meaning: "A replacement NodeClaim launched for a disruption is not ready yet; Karpenter waits before terminating the old node.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Waiting on readiness to continue disruption"],
    }
    DisruptionTerminating {
        meaning: "Karpenter is terminating this node or NodeClaim as part of a disruption; the note gives the reason. GPU Pods on it will be drained and rescheduled.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Disrupting Node: %s", "Disrupting NodeClaim: %s"],
        grammar: Some(&crate::details::ecosystem::KARPENTER_DISRUPTION),
    }
    Unconsolidatable {
        meaning: "Karpenter evaluated this node for consolidation and will not consolidate it; the note explains why (no cheaper replacement, Pod constraints, spot-to-spot rules).",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &[
            "Can't replace with a cheaper node",
            "SpotToSpotConsolidation requires %d cheaper instance type options than the current candidate to consolidate, got %d",
        ],
    }
    ConsolidationCandidate {
        meaning: "Karpenter picked this node as a consolidation candidate; the note gives the planned command and the estimated savings.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Consolidation candidate: %s (savings: $%.2f)"],
    }
    ConsolidationRejected {
        meaning: "A consolidation candidate failed validation or scoring and will not be acted on; the note gives the command, the reason and the savings it would have brought.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/disruption/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Consolidation rejected: %s, reason: %s (savings: $%.2f)"],
    }
    ConsolidationApproved {
        meaning: "The balanced consolidation policy scored this move above its threshold, so Karpenter will consolidate the node; the note carries the score, threshold and savings/disruption figures.",
        reference: "kubernetes-sigs/karpenter pkg/events/reason.go, pkg/controllers/disruption/balanced.go (newer than v1.13; 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
    }
    Evicted {
        meaning: "Karpenter evicted this Pod through the eviction API while draining a node it is terminating; the note gives the reason. A GPU Pod is recreated by its controller on another node.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go (v1.14.0, 22664681)",
        group: Eviction,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Evicted pod: %s"],
        grammar: Some(&crate::details::ecosystem::KARPENTER_EVICTED),
    }
    Disrupted {
        meaning: "Karpenter deleted this Pod directly because the node's termination grace period is running out, bypassing its PDB and do-not-disrupt annotation; a long-running GPU job is cut off.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go (v1.14.0, 22664681)",
        group: Eviction,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Deleting the pod to accommodate the terminationTime %v of the node. The pod was granted %v seconds of grace-period of its %v terminationGracePeriodSeconds. This bypasses the PDB of the pod and the do-not-disrupt annotation."],
    }
    FailedDraining {
        meaning: "Karpenter could not drain a node it is terminating (for example a PDB blocks an eviction) and will retry; the node and its Pods stay until the drain succeeds or the grace period expires.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Failed to drain node, %s", "Failed to drain node, %d pods are waiting to be evicted"],
        grammar: Some(&crate::details::ecosystem::KARPENTER_FAILED_DRAINING),
    }
    TerminationGracePeriodExpiring {
        meaning: "The node's termination grace period will end at the given time, after which Karpenter deletes the remaining Pods regardless of PDBs; GPU workloads still running then are killed.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["All pods will be deleted by %s"],
    }
    AwaitingVolumeDetachment {
        meaning: "A drained node is waiting for its VolumeAttachments to be removed before Karpenter terminates the instance; the note lists up to five of them.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Awaiting deletion of bound volumeattachments (%s)"],
        grammar: Some(&crate::details::ecosystem::AWAITING_VOLUME_DETACHMENT),
    }
    InsufficientCapacityError {
        meaning: "The cloud provider had no capacity for the instance type chosen for this NodeClaim (an insufficient-capacity error), so the launch failed and Karpenter retries with other offerings; common for scarce GPU instance types.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["NodeClaim %s event: %s"],
        grammar: Some(&crate::details::ecosystem::NODE_CLAIM_EVENT),
    }
    NodeClassNotReady {
        meaning: "The NodeClass referenced by this NodeClaim is not ready, so the instance cannot be launched until the NodeClass (AMI, subnets, roles) is fixed.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["NodeClaim %s event: %s"],
        grammar: Some(&crate::details::ecosystem::NODE_CLAIM_EVENT),
    }
    UnregisteredTaintMissing {
        meaning: "The node registered without Karpenter's `karpenter.sh/unregistered` taint, which opens a race in which Pods can schedule before Karpenter has applied labels and taints; usually a custom bootstrap configuration problem.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["NodeClaim"],
        reporting_controllers: &["karpenter"],
        note_formats: &["Missing karpenter.sh/unregistered taint which prevents registration related race conditions on Karpenter-managed nodes"],
    }
    FailedConsistencyCheck {
        meaning: "A node no longer matches what its NodeClaim promised (for example its capacity differs from the instance type's); the note describes the mismatch. On GPU nodes this can indicate missing GPU capacity.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/nodeclaim/consistency/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Node", "NodeClaim"],
        reporting_controllers: &["karpenter"],
    }
    NodeRepairBlocked {
        meaning: "Node auto-repair did not replace an unhealthy node because too large a share of its NodePool is unhealthy (circuit breaker); the fault is likely correlated and needs manual attention.",
        reference: "kubernetes-sigs/karpenter pkg/controllers/node/health/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Node", "NodeClaim", "NodePool"],
        reporting_controllers: &["karpenter"],
        note_formats: &["more than %s of nodes in nodepool %q are unhealthy"],
    }
    DoNotDisruptUntil {
        meaning: "The Pod's duration-valued `karpenter.sh/do-not-disrupt` annotation still protects its node from voluntary disruption until the given time.",
        reference: "kubernetes-sigs/karpenter pkg/utils/pod/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &["The karpenter.sh/do-not-disrupt grace period will elapse at %s"],
    }
    DoNotDisruptGracePeriodElapsed {
        meaning: "The grace period of the Pod's duration-valued `karpenter.sh/do-not-disrupt` annotation has passed; its node can be disrupted again.",
        reference: "kubernetes-sigs/karpenter pkg/utils/pod/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &["The karpenter.sh/do-not-disrupt grace period has elapsed, pod is now disruptable"],
    }
    InvalidDoNotDisruptAnnotation {
        meaning: "The Pod's `karpenter.sh/do-not-disrupt` annotation value is neither `true` nor a duration, so Karpenter ignores it and the Pod is not protected from disruption.",
        reference: "kubernetes-sigs/karpenter pkg/utils/pod/events.go (v1.14.0, 22664681)",
        group: NodeAutoscaling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["karpenter"],
        note_formats: &[
            "Invalid karpenter.sh/do-not-disrupt annotation: %s, ignoring annotation",
            "Invalid karpenter.sh/do-not-disrupt annotation value %q, ignoring annotation. Use 'true' or a duration like '5m', '1h'",
        ],
    }
}
