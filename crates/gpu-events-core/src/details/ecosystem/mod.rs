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

pub use ascend::*;
pub use cluster_autoscaler::*;
pub use gpu_operator::*;
pub use karpenter::*;
pub use kueue::*;

details_family! {
    /// Details of autoscaler, queue and device-vendor notes (`kind` in JSON).
    pub enum EcosystemDetails in Ecosystem;
    /// Karpenter `Nominated`: `Pod should schedule on: nodeclaim/%s[, node/%s]`, `node/%s` alone, or
    /// the pre-v0.32 `machine/%s[, node/%s]`.
    Nominated(Nominated) => "nominated", grammar NOMINATED;
    /// Karpenter `FailedScheduling`: `Failed to schedule pod, %s`, per-NodePool clauses.
    KarpenterFailedScheduling(KarpenterFailedScheduling) => "karpenterFailedScheduling", grammar KARPENTER_FAILED_SCHEDULING;
    /// Karpenter `DisruptionBlocked`: why a node, NodeClaim or NodePool may not be disrupted.
    DisruptionBlocked(DisruptionBlocked) => "disruptionBlocked", grammar DISRUPTION_BLOCKED;
    /// Karpenter `InsufficientCapacityError` / `NodeClassNotReady`: `NodeClaim %s event: %s`.
    NodeClaimEvent(NodeClaimEvent) => "nodeClaimEvent", grammar NODE_CLAIM_EVENT;
    /// Karpenter `DisruptionLaunching` / `DisruptionTerminating`.
    KarpenterDisruption(KarpenterDisruption) => "karpenterDisruption", grammar KARPENTER_DISRUPTION;
    /// Karpenter `Evicted`: `Evicted pod: %s`.
    KarpenterEvicted(KarpenterEvicted) => "karpenterEvicted", grammar KARPENTER_EVICTED;
    /// Karpenter `FailedDraining`: `Failed to drain node, %s`.
    KarpenterFailedDraining(KarpenterFailedDraining) => "karpenterFailedDraining", grammar KARPENTER_FAILED_DRAINING;
    /// Karpenter `AwaitingVolumeDetachment`: the VolumeAttachments a drained node waits for.
    AwaitingVolumeDetachment(AwaitingVolumeDetachment) => "awaitingVolumeDetachment", grammar AWAITING_VOLUME_DETACHMENT;
    /// cluster-autoscaler `TriggeredScaleUp`: the node groups grown.
    TriggeredScaleUp(TriggeredScaleUp) => "triggeredScaleUp", grammar TRIGGERED_SCALE_UP;
    /// cluster-autoscaler `NotTriggerScaleUp`: node-group counts per reason.
    NotTriggerScaleUp(NotTriggerScaleUp) => "notTriggerScaleUp", grammar NOT_TRIGGER_SCALE_UP;
    /// cluster-autoscaler (GKE) `FailedScaleUp`: the zones, the cloud's error and its cause.
    FailedScaleUp(FailedScaleUp) => "failedScaleUp", grammar FAILED_SCALE_UP;
    /// cluster-autoscaler `ScaleDown` / `ScaleDownFailed`.
    ScaleDown(ScaleDown) => "scaleDown", grammar SCALE_DOWN;
    /// Kueue `Pending` (and granular reasons, `SecondPassFailed`): the inadmissible message.
    KueueInadmissible(KueueInadmissible) => "kueueInadmissible", grammar KUEUE_INADMISSIBLE;
    /// Kueue `QuotaReserved`.
    QuotaReserved(QuotaReserved) => "quotaReserved", grammar QUOTA_RESERVED;
    /// Kueue `Admitted`.
    KueueAdmitted(KueueAdmitted) => "kueueAdmitted", grammar KUEUE_ADMITTED;
    /// Kueue `Preempted` (all generations).
    KueuePreempted(KueuePreempted) => "kueuePreempted", grammar KUEUE_PREEMPTED;
    /// Kueue `PreemptedWorkload` (on the preemptor).
    KueuePreemptedWorkload(KueuePreemptedWorkload) => "kueuePreemptedWorkload", grammar KUEUE_PREEMPTED_WORKLOAD;
    /// Kueue `EvictedDueTo<reason>`: the eviction message.
    KueueEvicted(KueueEvicted) => "kueueEvicted", grammar KUEUE_EVICTED;
    /// Kueue `CreatedWorkload`: `Created Workload: %v`.
    CreatedWorkload(CreatedWorkload) => "createdWorkload", grammar CREATED_WORKLOAD;
    /// Kueue `Started`: `Admitted by clusterQueue %v`.
    KueueStarted(KueueStarted) => "kueueStarted", grammar KUEUE_STARTED;
    /// Kueue `FinishedWorkload`: `Workload '%s' is declared finished`.
    FinishedWorkload(FinishedWorkload) => "finishedWorkload", grammar FINISHED_WORKLOAD;
    /// GPU Operator `GPUDriverUpgrade` (and `<DRIVER>DriverUpgrade`): a driver-upgrade step.
    DriverUpgrade(DriverUpgrade) => "driverUpgrade", grammar DRIVER_UPGRADE;
    /// Ascend device plugin `Occur` / `Recovery` / `Notice`: an NPU fault.
    NpuDeviceFault(NpuDeviceFault) => "npuDeviceFault", grammar NPU_DEVICE_FAULT;
}
