//! KAI-Scheduler reasons (kai-scheduler/KAI-Scheduler `pkg/scheduler/api/common_info/{pod_errors.go,
//! job_errors.go}` and the scheduler's event recording; commit d5bc503a = v0.17.0, with the
//! capitalised message of earlier releases seen in real dumps).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by NVIDIA KAI-Scheduler (component `kai-scheduler`) on Pods and their
    /// PodGroups. `Unschedulable` shares its wire string with Volcano's PodGroup reason; the
    /// reporter `kai-scheduler` tells them apart.
    pub enum KaiSchedulerReason in KaiScheduler;

    Unschedulable {
        meaning: "KAI-Scheduler could not place the Pod or its PodGroup; the note is a histogram of node reasons (`N node(s) didn't have enough resources: GPUs`, GPU memory, MIG profile, taints, affinity) or a queue/quota explanation. For a GPU workload it usually means no node has enough whole or fractional GPU capacity, or the queue is over its GPU quota.",
        reference: "kai-scheduler/KAI-Scheduler pkg/scheduler/api/common_info/pod_errors.go, job_errors.go (d5bc503a, v0.17.0)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod", "PodGroup"],
        reporting_controllers: &["kai-scheduler"],
        note_formats: &[
            "no nodes with enough resources were found: %v.",
            "Unable to schedule podgroup: %v.",
            "Not enough resources for the workload: %v.",
            "No nodes with enough resources were found: %v.",
            // The PodGroup's scheduling condition (pkg/scheduler/api/podgroup_info, job fit
            // errors): a gang short of members, or one Pod, with the allocation error after it.
            "Resources were found for %d pods while %d are required for gang scheduling. Additional pods cannot be scheduled due to: %s",
            "Resources were found for %d pods from all sub-groups while sub-group %s requires %d pods for gang scheduling. Additional pods cannot be scheduled in this sub-group due to: %s",
            "Resources were not found for pod %s/%s due to: %s",
        ],
        grammar: Some(&crate::details::scheduling::KAI_UNSCHEDULABLE),
    }
    BindingError {
        meaning: "KAI-Scheduler's binder could not bind the Pod to the node the scheduler chose (its BindRequest failed): the GPU-sharing reservation Pod never got its GPU, a DRA claim or a volume could not be prepared. The Pod stays Pending while the binder retries, and is scheduled again.",
        reference: "NVIDIA/KAI-Scheduler pkg/binder/controllers/bindrequest_controller.go updatePodCondition (07b7a469), recorder `binder` (cmd/binder/app)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["binder"],
        note_formats: &["Failed to bind pod %s/%s to node %s: %s"],
        grammar: None,
    }
    Bound {
        meaning: "KAI-Scheduler's binder bound the Pod to the node the scheduler chose.",
        reference: "NVIDIA/KAI-Scheduler pkg/binder/controllers/bindrequest_controller.go updatePodCondition (07b7a469), recorder `binder` (cmd/binder/app)",
        group: Scheduling,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["binder"],
        note_formats: &["Pod bound successfully to node %s"],
        grammar: None,
    }
}
