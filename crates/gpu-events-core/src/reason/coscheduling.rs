//! scheduler-plugins Coscheduling reasons (kubernetes-sigs/scheduler-plugins
//! `pkg/controllers/podgroup_controller.go`, commit 903da7df = v0.35.4-devel). The plugin's own
//! texts (`pkg/coscheduling/*`) are not event reasons: they arrive inside kube-scheduler
//! `FailedScheduling` notes.

use crate::EventType::Warning;

reason_table! {
    /// Reasons recorded by the scheduler-plugins PodGroup controller (`PodGroupController`) on
    /// `scheduling.x-k8s.io` PodGroups.
    pub enum CoschedulingReason in Coscheduling;

    Timeout {
        meaning: "The PodGroup has been pending or scheduling for more than 48 hours without a running member, so the PodGroup controller stops reconciling it. The Coscheduling plugin's other texts (too few sibling Pods, permit timeouts, rejections) appear only inside kube-scheduler `FailedScheduling` notes on the member Pods; a GPU gang that times out usually never had enough free GPUs for minMember Pods at once.",
        reference: "kubernetes-sigs/scheduler-plugins pkg/controllers/podgroup_controller.go (903da7df, v0.35.4-devel)",
        group: Gang,
        types: &[Warning],
        objects: &["PodGroup"],
        reporting_controllers: &["PodGroupController"],
        note_formats: &["schedule time longer than 48 hours"],
    }
}
