//! Ecosystem note grammars: Karpenter, cluster-autoscaler, Kueue, NVIDIA GPU Operator, Ascend.
//!
//! One public struct per grammar, each with a `parse(&str) -> Option<Self>`; the reason tables
//! point at the `Grammar` statics. Submodules: Karpenter (`karpenter`), cluster-autoscaler
//! (`cluster_autoscaler`), Kueue (`kueue`), the GPU Operator driver upgrade (`gpu_operator`) and
//! the Ascend device plugin (`ascend`); their types are re-exported here.

mod ascend;
mod cluster_autoscaler;
mod gpu_operator;
mod karpenter;
mod kueue;
mod text;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use ascend::NpuDeviceFault;
pub use cluster_autoscaler::{
    NodeGroupReason, NotTriggerScaleUp, ScaleDown, ScaleDownStep, ScaleUpGroup, TriggeredScaleUp,
};
pub use gpu_operator::{DriverUpgrade, DriverUpgradeStep};
pub use karpenter::{
    AwaitingVolumeDetachment, DisruptionAction, DisruptionBlocked, DisruptionBlockedCause, KarpenterCause,
    KarpenterDisruption, KarpenterEvicted, KarpenterFailedDraining, KarpenterFailedScheduling,
    KarpenterIncompatibility, KarpenterRequirement, NodeClaimEvent, Nominated,
};
pub use kueue::{
    CreatedWorkload, FinishedWorkload, KueueAdmitted, KueueEvicted, KueueEvictionCause, KueueFlavorAttempt,
    KueueFlavorReason, KueueFlavorsConsidered, KueueInadmissible, KueueInadmissibleCause, KueuePodSetFailure,
    KueuePreempted, KueuePreemptedWorkload, KueuePriority, KueueStarted, KueueTopologyExclusion, QuotaReserved,
};

pub(crate) use ascend::NPU_DEVICE_FAULT;
pub(crate) use cluster_autoscaler::{NOT_TRIGGER_SCALE_UP, SCALE_DOWN, TRIGGERED_SCALE_UP};
pub(crate) use gpu_operator::DRIVER_UPGRADE;
pub(crate) use karpenter::{
    AWAITING_VOLUME_DETACHMENT, DISRUPTION_BLOCKED, KARPENTER_DISRUPTION, KARPENTER_EVICTED, KARPENTER_FAILED_DRAINING,
    KARPENTER_FAILED_SCHEDULING, NODE_CLAIM_EVENT, NOMINATED,
};
pub(crate) use kueue::{
    CREATED_WORKLOAD, FINISHED_WORKLOAD, KUEUE_ADMITTED, KUEUE_EVICTED, KUEUE_INADMISSIBLE, KUEUE_PREEMPTED,
    KUEUE_PREEMPTED_WORKLOAD, KUEUE_STARTED, QUOTA_RESERVED,
};

/// Details of autoscaler, queue and device-vendor notes (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum EcosystemDetails {
    /// Karpenter `Nominated`: `Pod should schedule on: nodeclaim/%s[, node/%s]`, `node/%s` alone, or
    /// the pre-v0.32 `machine/%s[, node/%s]`.
    Nominated(Nominated),
    /// Karpenter `FailedScheduling`: `Failed to schedule pod, %s`, per-NodePool clauses.
    KarpenterFailedScheduling(KarpenterFailedScheduling),
    /// Karpenter `DisruptionBlocked`: why a node, NodeClaim or NodePool may not be disrupted.
    DisruptionBlocked(DisruptionBlocked),
    /// Karpenter `InsufficientCapacityError` / `NodeClassNotReady`: `NodeClaim %s event: %s`.
    NodeClaimEvent(NodeClaimEvent),
    /// Karpenter `DisruptionLaunching` / `DisruptionTerminating`.
    KarpenterDisruption(KarpenterDisruption),
    /// Karpenter `Evicted`: `Evicted pod: %s`.
    KarpenterEvicted(KarpenterEvicted),
    /// Karpenter `FailedDraining`: `Failed to drain node, %s`.
    KarpenterFailedDraining(KarpenterFailedDraining),
    /// Karpenter `AwaitingVolumeDetachment`: the VolumeAttachments a drained node waits for.
    AwaitingVolumeDetachment(AwaitingVolumeDetachment),
    /// cluster-autoscaler `TriggeredScaleUp`: the node groups grown.
    TriggeredScaleUp(TriggeredScaleUp),
    /// cluster-autoscaler `NotTriggerScaleUp`: node-group counts per reason.
    NotTriggerScaleUp(NotTriggerScaleUp),
    /// cluster-autoscaler `ScaleDown` / `ScaleDownFailed`.
    ScaleDown(ScaleDown),
    /// Kueue `Pending` (and granular reasons, `SecondPassFailed`): the inadmissible message.
    KueueInadmissible(KueueInadmissible),
    /// Kueue `QuotaReserved`.
    QuotaReserved(QuotaReserved),
    /// Kueue `Admitted`.
    KueueAdmitted(KueueAdmitted),
    /// Kueue `Preempted` (all generations).
    KueuePreempted(KueuePreempted),
    /// Kueue `PreemptedWorkload` (on the preemptor).
    KueuePreemptedWorkload(KueuePreemptedWorkload),
    /// Kueue `EvictedDueTo<reason>`: the eviction message.
    KueueEvicted(KueueEvicted),
    /// Kueue `CreatedWorkload`: `Created Workload: %v`.
    CreatedWorkload(CreatedWorkload),
    /// Kueue `Started`: `Admitted by clusterQueue %v`.
    KueueStarted(KueueStarted),
    /// Kueue `FinishedWorkload`: `Workload '%s' is declared finished`.
    FinishedWorkload(FinishedWorkload),
    /// GPU Operator `GPUDriverUpgrade` (and `<DRIVER>DriverUpgrade`): a driver-upgrade step.
    DriverUpgrade(DriverUpgrade),
    /// Ascend device plugin `Occur` / `Recovery` / `Notice`: an NPU fault.
    NpuDeviceFault(NpuDeviceFault),
}

impl EcosystemDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            EcosystemDetails::Nominated(_) => "nominated",
            EcosystemDetails::KarpenterFailedScheduling(_) => "karpenterFailedScheduling",
            EcosystemDetails::DisruptionBlocked(_) => "disruptionBlocked",
            EcosystemDetails::NodeClaimEvent(_) => "nodeClaimEvent",
            EcosystemDetails::KarpenterDisruption(_) => "karpenterDisruption",
            EcosystemDetails::KarpenterEvicted(_) => "karpenterEvicted",
            EcosystemDetails::KarpenterFailedDraining(_) => "karpenterFailedDraining",
            EcosystemDetails::AwaitingVolumeDetachment(_) => "awaitingVolumeDetachment",
            EcosystemDetails::TriggeredScaleUp(_) => "triggeredScaleUp",
            EcosystemDetails::NotTriggerScaleUp(_) => "notTriggerScaleUp",
            EcosystemDetails::ScaleDown(_) => "scaleDown",
            EcosystemDetails::KueueInadmissible(_) => "kueueInadmissible",
            EcosystemDetails::QuotaReserved(_) => "quotaReserved",
            EcosystemDetails::KueueAdmitted(_) => "kueueAdmitted",
            EcosystemDetails::KueuePreempted(_) => "kueuePreempted",
            EcosystemDetails::KueuePreemptedWorkload(_) => "kueuePreemptedWorkload",
            EcosystemDetails::KueueEvicted(_) => "kueueEvicted",
            EcosystemDetails::CreatedWorkload(_) => "createdWorkload",
            EcosystemDetails::KueueStarted(_) => "kueueStarted",
            EcosystemDetails::FinishedWorkload(_) => "finishedWorkload",
            EcosystemDetails::DriverUpgrade(_) => "driverUpgrade",
            EcosystemDetails::NpuDeviceFault(_) => "npuDeviceFault",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::{Details, Grammar, Note};

    /// Every grammar, with a note it accepts.
    fn samples() -> Vec<(&'static Grammar, &'static str)> {
        vec![
            (&NOMINATED, "Pod should schedule on: nodeclaim/a"),
            (&NOMINATED, "Pod should schedule on: node/n"),
            (&NOMINATED, "Pod should schedule on: machine/m, node/n"),
            (&KARPENTER_FAILED_SCHEDULING, "Failed to schedule pod, did not tolerate taint (taint=a:NoSchedule)"),
            (&DISRUPTION_BLOCKED, "Node is nominated for a pending pod"),
            (&NODE_CLAIM_EVENT, "NodeClaim a event: b"),
            (&KARPENTER_DISRUPTION, "Disrupting Node: Empty"),
            (&KARPENTER_EVICTED, "Evicted pod: Empty"),
            (&KARPENTER_FAILED_DRAINING, "Failed to drain node, x"),
            (&AWAITING_VOLUME_DETACHMENT, "Awaiting deletion of bound volumeattachments (a)"),
            (&TRIGGERED_SCALE_UP, "pod triggered scale-up: [{g 1->2 (max: 3)}]"),
            (&NOT_TRIGGER_SCALE_UP, "pod didn't trigger scale-up: 1 x"),
            (&SCALE_DOWN, "deleting pod for node scale down"),
            (&KUEUE_INADMISSIBLE, "ClusterQueue a is inactive"),
            (&QUOTA_RESERVED, "Quota reserved in ClusterQueue a, wait time since queued was 1s"),
            (&KUEUE_ADMITTED, "Admitted by ClusterQueue a, wait time since reservation was 0s"),
            (&KUEUE_PREEMPTED, "Preempted by another workload in the cohort"),
            (&KUEUE_PREEMPTED_WORKLOAD, "Preempted workload a/b (UID: u) in ClusterQueue c"),
            (&KUEUE_EVICTED, "The ClusterQueue is stopped"),
            (&CREATED_WORKLOAD, "Created Workload: a/b"),
            (&KUEUE_STARTED, "Admitted by clusterQueue a"),
            (&FINISHED_WORKLOAD, "Workload 'a/b' is declared finished"),
            (&DRIVER_UPGRADE, "Successfully drained the node"),
            (
                &NPU_DEVICE_FAULT,
                "device fault, nodeName:n, assertion:Notice, cardID:0, deviceID:0, faultCodes:A, faultLevelName:L, alarmRaisedTime:t",
            ),
        ]
    }

    #[test]
    fn each_grammar_lists_the_kind_it_produces_and_round_trips() {
        for (grammar, note) in samples() {
            let details = grammar.parse(&Note::new(note));
            let Details::Ecosystem(inner) = &details else { panic!("{note}: {details:?}") };
            assert_eq!(grammar.kinds, [inner.kind()], "{note}");
            let json = serde_json::to_value(&details).unwrap();
            assert_eq!(json["kind"], inner.kind());
            let back: EcosystemDetails = serde_json::from_value(json).unwrap();
            assert_eq!(&back, inner);
        }
    }
}
