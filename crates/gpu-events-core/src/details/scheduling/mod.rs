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
use super::{Details, Grammar, Note};

pub use failed_scheduling::{PluginError, PluginStage, SchedulingError, SkipDeletingPod};
pub use fit_error::{Ending, FitError, FitErrorWording, Preemption, ReasonCount};
pub use hami::{
    HamiBindingFailed, HamiBound, HamiFilterError, HamiNoAvailableNode, HamiNodeScore, HamiNodeSelected,
    HamiNodesRejected,
};
pub use kai::KaiUnschedulable;
pub use node_reason::NodeReason;
pub use preempted::Preempted;
pub use volcano::{
    EnqueueLimit, TaskCount, VolcanoEnqueueRejected, VolcanoGangUnschedulable, VolcanoJobFit, VolcanoOrigin,
    VolcanoPodGroupPending, VolcanoPossiblyAssigned,
};

pub(crate) use failed_scheduling::FAILED_SCHEDULING;
pub(crate) use hami::{HAMI_BINDING_FAILED, HAMI_BINDING_SUCCEED, HAMI_FILTERING_FAILED, HAMI_FILTERING_SUCCEED};
pub(crate) use kai::KAI_UNSCHEDULABLE;
pub(crate) use preempted::PREEMPTED;
pub(crate) use volcano::{VOLCANO_FAILED_SCHEDULING, VOLCANO_POD_GROUP_PENDING, VOLCANO_UNSCHEDULABLE};

/// Details of scheduler notes, one variant per grammar (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum SchedulingDetails {
    /// `Scheduled`: `Successfully assigned %v/%v to %v` (or the ≤1.11 form without namespace).
    Scheduled(Scheduled),
    /// `FailedScheduling`: the FitError `0/N nodes are available: ...` (kube-scheduler, all
    /// versions) or `0/N nodes are unavailable: ...` (Volcano).
    FitError(FitError),
    /// `FailedScheduling`: `no nodes available to schedule pods` (the cluster has no nodes).
    NoNodesAvailable,
    /// `FailedScheduling`: `skip schedule deleting pod: %v/%v`.
    SkipDeletingPod(SkipDeletingPod),
    /// `FailedScheduling`: a plugin error wrapped by the framework (`running PreFilter plugin
    /// %q: %w`, ...).
    PluginError(PluginError),
    /// `FailedScheduling`: any other scheduler error text (binding, assume, extender errors).
    SchedulingError(SchedulingError),
    /// kube-scheduler `Preempted`: `Preempted by pod %v on node %v` and older wordings.
    PodPreempted(Preempted),
    /// Volcano `FailedScheduling`: the PodGroup's job fit error (`pod group is not ready, ...`).
    VolcanoJobFit(VolcanoJobFit),
    /// Volcano `FailedScheduling`: `Pod %s/%s can possibly be assigned to %s, once ...`.
    VolcanoPossiblyAssigned(VolcanoPossiblyAssigned),
    /// Volcano PodGroup `Unschedulable`: `%v/%v tasks in gang unschedulable: %v`.
    VolcanoGangUnschedulable(VolcanoGangUnschedulable),
    /// Volcano PodGroup `Unschedulable` (Normal): queue quota or cluster overcommit limit.
    VolcanoEnqueueRejected(VolcanoEnqueueRejected),
    /// Volcano Job `PodGroupPending`: `PodGroup %s:%s %s, reason: %s`.
    VolcanoPodGroupPending(VolcanoPodGroupPending),
    /// KAI-Scheduler `Unschedulable`: `No nodes with enough resources were found: ...`.
    KaiUnschedulable(KaiUnschedulable),
    /// HAMi `FilteringFailed`: `no available node, %d nodes do not meet`.
    HamiNoAvailableNode(HamiNoAvailableNode),
    /// HAMi `FilteringFailed`: `%d nodes %s(%s)`, one reason code and its nodes.
    HamiNodesRejected(HamiNodesRejected),
    /// HAMi `FilteringFailed`: any other extender error.
    HamiFilterError(HamiFilterError),
    /// HAMi `FilteringSucceed`: `find fit node(%s), %d nodes not fit, %d nodes fit(%s)`.
    HamiNodeSelected(HamiNodeSelected),
    /// HAMi `BindingSucceed`: `Successfully binding node %v to %v/%v`.
    HamiBound(HamiBound),
    /// HAMi `BindingFailed`: the bind error text.
    HamiBindingFailed(HamiBindingFailed),
}

impl SchedulingDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            SchedulingDetails::Scheduled(_) => "scheduled",
            SchedulingDetails::FitError(_) => "fitError",
            SchedulingDetails::NoNodesAvailable => "noNodesAvailable",
            SchedulingDetails::SkipDeletingPod(_) => "skipDeletingPod",
            SchedulingDetails::PluginError(_) => "pluginError",
            SchedulingDetails::SchedulingError(_) => "schedulingError",
            SchedulingDetails::PodPreempted(_) => "podPreempted",
            SchedulingDetails::VolcanoJobFit(_) => "volcanoJobFit",
            SchedulingDetails::VolcanoPossiblyAssigned(_) => "volcanoPossiblyAssigned",
            SchedulingDetails::VolcanoGangUnschedulable(_) => "volcanoGangUnschedulable",
            SchedulingDetails::VolcanoEnqueueRejected(_) => "volcanoEnqueueRejected",
            SchedulingDetails::VolcanoPodGroupPending(_) => "volcanoPodGroupPending",
            SchedulingDetails::KaiUnschedulable(_) => "kaiUnschedulable",
            SchedulingDetails::HamiNoAvailableNode(_) => "hamiNoAvailableNode",
            SchedulingDetails::HamiNodesRejected(_) => "hamiNodesRejected",
            SchedulingDetails::HamiFilterError(_) => "hamiFilterError",
            SchedulingDetails::HamiNodeSelected(_) => "hamiNodeSelected",
            SchedulingDetails::HamiBound(_) => "hamiBound",
            SchedulingDetails::HamiBindingFailed(_) => "hamiBindingFailed",
        }
    }
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

/// Grammar of kube-scheduler `Scheduled`.
pub(crate) static SCHEDULED: Grammar = Grammar::new(&["scheduled"], |note: &Note<'_>| {
    Scheduled::parse(note.text).map(|d| Details::Scheduling(SchedulingDetails::Scheduled(d)))
});

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

    /// `kind()` agrees with the serde tag of every variant, and every grammar lists the kinds
    /// it produces.
    #[test]
    fn kind_matches_json() {
        let notes: &[(&Grammar, &str)] = &[
            (&SCHEDULED, "Successfully assigned a/b to n"),
            (&FAILED_SCHEDULING, "0/1 nodes are available: 1 Insufficient cpu."),
            (&FAILED_SCHEDULING, "no nodes available to schedule pods"),
            (&FAILED_SCHEDULING, "skip schedule deleting pod: a/b"),
            (&FAILED_SCHEDULING, "running Bind plugin \"B\": e"),
            (&FAILED_SCHEDULING, "binding rejected: x"),
            (&PREEMPTED, "Preempted by a pod on node n"),
            (&VOLCANO_FAILED_SCHEDULING, "0/1 nodes are unavailable: 1 Insufficient cpu."),
            (&VOLCANO_FAILED_SCHEDULING, "pod group is not ready, 1 Pending, 1 minAvailable"),
            (&VOLCANO_FAILED_SCHEDULING, "Pod a/b can possibly be assigned to n, once minAvailable is satisfied"),
            (&VOLCANO_FAILED_SCHEDULING, "something else"),
            (
                &VOLCANO_UNSCHEDULABLE,
                "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable",
            ),
            (&VOLCANO_UNSCHEDULABLE, "queue resource quota insufficient"),
            (&VOLCANO_POD_GROUP_PENDING, "PodGroup a:b unschedule,reason: x"),
            (
                &KAI_UNSCHEDULABLE,
                "No nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.",
            ),
            (&HAMI_FILTERING_FAILED, "no available node, 3 nodes do not meet"),
            (&HAMI_FILTERING_FAILED, "2 nodes CardInsufficientMemory(a,b)"),
            (&HAMI_FILTERING_FAILED, "does not request any resource"),
            (&HAMI_FILTERING_SUCCEED, "find fit node(a), 0 nodes not fit, 1 nodes fit(a:1.00)"),
            (&HAMI_BINDING_SUCCEED, "Successfully binding node [a] to b/c"),
            (&HAMI_BINDING_FAILED, "failed to get node a"),
        ];
        for (grammar, note) in notes {
            let details = grammar.parse(&Note::new(note));
            let kind = details.kind();
            assert_ne!(kind, "unrecognized", "{note}");
            assert!(grammar.kinds.contains(&kind), "{note}: {kind}");
            let json = serde_json::to_value(&details).unwrap();
            assert_eq!(json["kind"], kind, "{note}");
            let back: Details = serde_json::from_value(json).unwrap();
            assert_eq!(back, details, "{note}");
        }
    }
}
