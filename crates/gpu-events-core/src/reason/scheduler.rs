//! kube-scheduler reasons (kubernetes/kubernetes `pkg/scheduler/schedule_one.go`,
//! `framework/preemption/preemption.go`, v1.36).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by kube-scheduler on the Pod it places (`default-scheduler`, or the
    /// profile's `schedulerName` for secondary schedulers built on the framework).
    pub enum SchedulerReason in KubeScheduler;

    Scheduled {
        meaning: "The scheduler bound the Pod to a node; the note names the Pod and the node.",
        reference: "kubernetes/kubernetes pkg/scheduler/schedule_one.go (v1.36)",
        group: Scheduling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["default-scheduler"],
        actions: &["Binding"],
        note_formats: &["Successfully assigned %v/%v to %v", "Successfully assigned %v to %v"],
        grammar: Some(&crate::details::scheduling::SCHEDULED),
    }
    FailedScheduling {
        meaning: "No node can take the Pod right now; the note is the FitError (`0/N nodes are available: ...`) with the per-node reasons and the preemption outcome, or a plugin error.",
        reference: "kubernetes/kubernetes pkg/scheduler/schedule_one.go, framework/types.go FitError (v1.36)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["default-scheduler"],
        actions: &["Scheduling"],
        note_formats: &[
            "0/%v nodes are available: %v. preemption: %v",
            "0/%v nodes are available: %v.",
            "skip schedule deleting pod: %v/%v",
            "no nodes available to schedule pods",
        ],
        grammar: Some(&crate::details::scheduling::FAILED_SCHEDULING),
    }
    Preempted {
        meaning: "The Pod was preempted (evicted) by the scheduler to make room for a higher-priority Pod; regarding is the victim, related the preemptor.",
        reference: "kubernetes/kubernetes pkg/scheduler/framework/preemption/preemption.go (v1.36; PR #119971)",
        group: Preemption,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["default-scheduler"],
        actions: &["Preempting"],
        note_formats: &["Preempted by pod %v on node %v", "Preempted by a pod on node %v", "Preempted by %v/%v on node %v"],
        grammar: Some(&crate::details::scheduling::PREEMPTED),
    }
}
