//! HAMi reasons (Project-HAMi/HAMi `pkg/scheduler/events.go`, `pkg/scheduler/scheduler.go`,
//! `pkg/util/util.go` node events; commit 4707fb02 = v2.10.0). HAMi's per-node reasons
//! (`NodeUnfitPod`, `node unregistered`, `CardInsufficientMemory`, ...) are not event reasons:
//! they reach kube-scheduler's `FailedScheduling` histogram through the extender.

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by the HAMi scheduler extender (component = scheduler name, default
    /// `hami-scheduler`) on the Pods it filters and binds, and node warnings that HAMi writes
    /// directly (component `hami-device-plugin`).
    pub enum HamiReason in Hami;

    FilteringFailed {
        meaning: "HAMi's extender filter found no node whose GPUs can take the Pod's vGPU request (count, memory, cores, type), or failed to record the chosen devices; the note says how many nodes did not fit. The Pod stays Pending with a matching kube-scheduler FailedScheduling.",
        reference: "Project-HAMi/HAMi pkg/scheduler/scheduler.go, events.go (4707fb02, v2.10.0)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["hami-scheduler"],
        note_formats: &["no available node, %d nodes do not meet", "no available node, all node scores do not meet"],
        grammar: Some(&crate::details::scheduling::HAMI_FILTERING_FAILED),
    }
    FilteringSucceed {
        meaning: "HAMi's extender filter chose a node for the Pod and reserved GPU devices on it; the note names the node and the scores of the nodes that fit.",
        reference: "Project-HAMi/HAMi pkg/scheduler/scheduler.go genSuccessMsg (4707fb02, v2.10.0)",
        group: Scheduling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["hami-scheduler"],
        note_formats: &["find fit node(%s), %d nodes not fit, %d nodes fit(%s)"],
        grammar: Some(&crate::details::scheduling::HAMI_FILTERING_SUCCEED),
    }
    BindingFailed {
        meaning: "HAMi's extender could not bind the Pod to the chosen node (node lock, annotation patch or bind call failed); the note is the error and the Pod is retried.",
        reference: "Project-HAMi/HAMi pkg/scheduler/events.go recordScheduleBindingResultEvent (4707fb02, v2.10.0)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["hami-scheduler"],
        grammar: Some(&crate::details::scheduling::HAMI_BINDING_FAILED),
    }
    BindingSucceed {
        meaning: "HAMi's extender bound the Pod to the node whose GPUs it allocated.",
        reference: "Project-HAMi/HAMi pkg/scheduler/events.go recordScheduleBindingResultEvent (4707fb02, v2.10.0)",
        group: Scheduling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["hami-scheduler"],
        note_formats: &["Successfully binding node %v to %v/%v"],
        grammar: Some(&crate::details::scheduling::HAMI_BINDING_SUCCEED),
    }
    AsymmetricGPUP2PLink {
        meaning: "HAMi found that the GPU peer-to-peer link data of a node is not symmetric (GPU A reports a link to B that B does not report back); instead of failing it scores that GPU pair as 0, so topology-aware placement on the node degrades. Usually an NVLink hardware or driver problem on the node.",
        reference: "Project-HAMi/HAMi pkg/device/nvidia/calculate_score.go, pkg/util/util.go EmitNodeWarningEvent (4707fb02, v2.10.0 line)",
        group: Device,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["hami-device-plugin", "hami-scheduler"],
    }
}
