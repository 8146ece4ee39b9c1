//! Scheduler note grammars: kube-scheduler (kubernetes/kubernetes pkg/scheduler, v1.14–v1.36),
//! Volcano, KAI-Scheduler, HAMi.
//!
//! * kube-scheduler: `Scheduled` ([`Scheduled`]), `FailedScheduling` (the [`FitError`] in all
//!   its historical forms with typed per-node reasons [`NodeReason`], or [`SkipDeletingPod`],
//!   `noNodesAvailable`, [`PluginError`], [`SchedulingError`]), `Preempted` ([`Preempted`]).
//! * Volcano: `FailedScheduling` (FitError with the `unavailable` wording, [`VolcanoJobFit`],
//!   [`VolcanoPossiblyAssigned`]), PodGroup `Unschedulable` ([`VolcanoGangUnschedulable`],
//!   [`VolcanoEnqueueRejected`]), Job `PodGroupPending` ([`VolcanoPodGroupPending`]).
//! * KAI-Scheduler: `Unschedulable` ([`KaiUnschedulable`]).
//! * HAMi: `FilteringFailed`, `FilteringSucceed`, `BindingSucceed`, `BindingFailed`.

mod failed_scheduling;
mod fit_error;
mod hami;
mod kai;
mod node_reason;
mod preempted;
mod volcano;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::template::captures;

pub use failed_scheduling::*;
pub use fit_error::*;
pub use hami::*;
pub use kai::*;
pub use node_reason::*;
pub use preempted::*;
pub use volcano::*;

details_family! {
    /// Details of scheduler notes, one variant per grammar (`kind` in JSON).
    pub enum SchedulingDetails in Scheduling;
    /// `Scheduled`: `Successfully assigned %v/%v to %v` (or the ≤1.11 form without namespace).
    Scheduled(Scheduled) => "scheduled", grammar SCHEDULED;
    /// `FailedScheduling`: the FitError `0/N nodes are available: ...` (kube-scheduler, all
    /// versions) or `0/N nodes are unavailable: ...` (Volcano).
    FitError(FitError) => "fitError";
    /// `FailedScheduling`: `skip schedule deleting pod: %v/%v`.
    SkipDeletingPod(SkipDeletingPod) => "skipDeletingPod";
    /// `FailedScheduling`: a plugin error wrapped by the framework (`running PreFilter plugin
    /// %q: %w`, ...).
    PluginError(PluginError) => "pluginError";
    /// `FailedScheduling`: any other scheduler error text (binding, assume, extender errors).
    SchedulingError(SchedulingError) => "schedulingError";
    /// kube-scheduler `Preempted`: `Preempted by pod %v on node %v` and older wordings.
    PodPreempted(Preempted) => "podPreempted", grammar PREEMPTED;
    /// Volcano `FailedScheduling`: the PodGroup's job fit error (`pod group is not ready, ...`).
    VolcanoJobFit(VolcanoJobFit) => "volcanoJobFit";
    /// Volcano `FailedScheduling`: `Pod %s/%s can possibly be assigned to %s, once ...`.
    VolcanoPossiblyAssigned(VolcanoPossiblyAssigned) => "volcanoPossiblyAssigned";
    /// Volcano PodGroup `Unschedulable`: `%v/%v tasks in gang unschedulable: %v`.
    VolcanoGangUnschedulable(VolcanoGangUnschedulable) => "volcanoGangUnschedulable";
    /// Volcano PodGroup `Unschedulable` (Normal): queue quota or cluster overcommit limit.
    VolcanoEnqueueRejected(VolcanoEnqueueRejected) => "volcanoEnqueueRejected";
    /// Volcano Job `PodGroupPending`: `PodGroup %s:%s %s, reason: %s`.
    VolcanoPodGroupPending(VolcanoPodGroupPending) => "volcanoPodGroupPending", grammar VOLCANO_POD_GROUP_PENDING;
    /// KAI-Scheduler `Unschedulable`: `No nodes with enough resources were found: ...`.
    KaiUnschedulable(KaiUnschedulable) => "kaiUnschedulable", grammar KAI_UNSCHEDULABLE;
    /// HAMi `FilteringFailed`: `no available node, %d nodes do not meet`.
    HamiNoAvailableNode(HamiNoAvailableNode) => "hamiNoAvailableNode";
    /// HAMi `FilteringFailed`: `%d nodes %s(%s)`, one reason code and its nodes.
    HamiNodesRejected(HamiNodesRejected) => "hamiNodesRejected";
    /// HAMi `FilteringFailed`: any other extender error.
    HamiFilterError(HamiFilterError) => "hamiFilterError";
    /// HAMi `FilteringSucceed`: `find fit node(%s), %d nodes not fit, %d nodes fit(%s)`.
    HamiNodeSelected(HamiNodeSelected) => "hamiNodeSelected", grammar HAMI_FILTERING_SUCCEED;
    /// HAMi `BindingSucceed`: `Successfully binding node %v to %v/%v`.
    HamiBound(HamiBound) => "hamiBound", grammar HAMI_BINDING_SUCCEED;
    /// HAMi `BindingFailed`: the bind error text.
    HamiBindingFailed(HamiBindingFailed) => "hamiBindingFailed";
    unit:
    /// `FailedScheduling`: `no nodes available to schedule pods` (the cluster has no nodes).
    NoNodesAvailable as NO_NODES_AVAILABLE => "noNodesAvailable";
}

/// A Pod bound to a node (pkg/scheduler/schedule_one.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Scheduled {
    /// Pod namespace (absent in the ≤1.11 form).
    pub namespace: Option<String>,
    /// Pod name.
    pub pod: String,
    /// Node name.
    pub node: String,
}

impl Scheduled {
    /// Parse `Successfully assigned ns/pod to node` (or `Successfully assigned pod to node`).
    pub fn parse(note: &str) -> Option<Self> {
        let [object, node] = captures("Successfully assigned %v to %v", note)?;
        let (namespace, pod) = match object.split_once('/') {
            Some((namespace, pod)) => (Some(namespace.to_owned()), pod),
            None => (None, object),
        };
        Some(Scheduled { namespace, pod: pod.to_owned(), node: node.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheduled_both_forms() {
        let s = Scheduled::parse(
            "Successfully assigned stablediffusion/stablediffusion-raycluster-ms6pl-worker-gpu-85d22 to node-a",
        )
        .unwrap();
        assert_eq!(s.namespace.as_deref(), Some("stablediffusion"));
        assert_eq!(s.pod, "stablediffusion-raycluster-ms6pl-worker-gpu-85d22");
        assert_eq!(s.node, "node-a");
        let s = Scheduled::parse("Successfully assigned gpu-pod to node-a").unwrap();
        assert_eq!((s.namespace, s.pod.as_str(), s.node.as_str()), (None, "gpu-pod", "node-a"));
        assert_eq!(Scheduled::parse("Successfully assigned gpu-pod"), None);
        assert_eq!(Scheduled::parse("Assigned gpu-pod to node-a"), None);
    }

    #[test]
    fn schema_lists_every_kind() {
        let schema = serde_json::to_string(&schemars::schema_for!(SchedulingDetails)).unwrap();
        for kind in [
            "scheduled",
            "fitError",
            "noNodesAvailable",
            "skipDeletingPod",
            "pluginError",
            "schedulingError",
            "podPreempted",
            "volcanoJobFit",
            "volcanoPossiblyAssigned",
            "volcanoGangUnschedulable",
            "volcanoEnqueueRejected",
            "volcanoPodGroupPending",
            "kaiUnschedulable",
            "hamiNoAvailableNode",
            "hamiNodesRejected",
            "hamiFilterError",
            "hamiNodeSelected",
            "hamiBound",
            "hamiBindingFailed",
            // NodeReason types and camelCase fields inside them.
            "untoleratedTaint",
            "noPreemptionVictims",
            "totalNodes",
        ] {
            assert!(schema.contains(&format!("\"{kind}\"")), "{kind}");
        }
    }
}
