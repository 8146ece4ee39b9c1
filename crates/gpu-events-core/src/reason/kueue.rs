//! Kueue reasons (kubernetes-sigs/kueue `pkg/scheduler/scheduler.go`, `pkg/scheduler/preemption/preemption.go`,
//! `pkg/controller/core/workload_controller.go`, `pkg/workload/*`, `pkg/controller/jobframework/reconciler.go`;
//! HEAD ff69552e = v0.20.0-devel, with older formats from tags v0.5–v0.19).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by Kueue: the scheduler (`kueue-admission`) and the workload controller
    /// (`kueue-workload-controller`) on `Workload` objects, the job reconcilers
    /// (`<integration>-kueue-controller`, e.g. `batch/job-kueue-controller`) on the job objects.
    /// `Preempted` shares its wire string with kube-scheduler; `Suspended` has one row for the job
    /// reconcilers and one for the granular pending reason. Kueue truncates notes to 1024 bytes.
    pub enum KueueReason in Kueue;

    Pending {
        meaning: "Kueue could not reserve quota for the Workload in this scheduling cycle; the note is the inadmissible message (per pod set: insufficient unused quota, resource not in the ClusterQueue, flavor mismatch, topology) or a queue problem. For a GPU job it usually means the ClusterQueue's GPU quota is used up or does not cover the requested GPU resource.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/scheduler/flavorassigner/flavorassigner.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &[
            "couldn't assign flavors to pod set %s: %s",
            "failed to assign flavors to pod set %s: %v",
            "Workload no longer fits after processing another workload",
            "ClusterQueue %s is inactive",
            "LocalQueue %s doesn't exist",
            "ClusterQueue %s doesn't exist",
        ],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    WaitingForQuota {
        meaning: "Granular form of `Pending` (UnadmittedWorkloadsObservability feature gate): the Workload fits the ClusterQueue's limits but must wait until enough quota is released; GPU jobs wait for running jobs to finish or for a preemption.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, apis/kueue WorkloadQuotaReservedReasonWaitingForQuota (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s", "Workload no longer fits after processing another workload"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    ExceedsMaxQuota {
        meaning: "Granular form of `Pending`: the Workload asks for more than the ClusterQueue (plus borrowing) can ever provide, so it will not be admitted until the request or the quota changes; typical for a GPU count above the queue's nominal quota.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner.go, apis/kueue WorkloadQuotaReservedReasonExceedsMaxQuota (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    NoMatchingFlavor {
        meaning: "Granular form of `Pending`: no ResourceFlavor of the ClusterQueue matches the Workload's node selectors, affinity or tolerations, or provides the requested resource (for example a GPU flavor is missing).",
        reference: "kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner.go, apis/kueue WorkloadQuotaReservedReasonNoMatchingFlavor (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    TopologyPlacementFailed {
        meaning: "Granular form of `Pending`: topology-aware scheduling found no topology domain with room for all the Workload's Pods (for example not enough free GPUs within one rack or block).",
        reference: "kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner.go, apis/kueue WorkloadQuotaReservedReasonTopologyPlacementFailed (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    WaitingForPreemptedWorkloads {
        meaning: "Granular form of `Pending`: Kueue has issued preemptions for this Workload and waits for the preempted Workloads to release their quota before admitting it.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, apis/kueue WorkloadQuotaReservedReasonWaitingForPreemptedWorkloads (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s. Pending the preemption of %d workload(s)"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    Misconfigured {
        meaning: "Granular form of `Pending`: the Workload cannot be admitted because its queue setup is broken (LocalQueue or ClusterQueue missing or inactive); nothing will happen until the configuration is fixed.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/controller/core/workload_controller.go, apis/kueue WorkloadQuotaReservedReasonMisconfigured (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission", "kueue-workload-controller"],
        note_formats: &["ClusterQueue %s is inactive", "LocalQueue %s doesn't exist", "ClusterQueue %s doesn't exist"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    SecondPassFailed {
        meaning: "The second scheduling pass of topology-aware scheduling (run after delayed topology requests or node failures) could not place the admitted Workload; the note is the inadmissible message.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["couldn't assign flavors to pod set %s: %s"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
    QuotaReserved {
        meaning: "Kueue reserved quota for the Workload in a ClusterQueue; the note gives the queue, the seconds it waited and optionally the flavors considered. Admission follows once admission checks pass.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &[
            "Quota reserved in ClusterQueue %s, wait time since queued was %.0fs; Flavors considered: %s",
            "Quota reserved in ClusterQueue %s, wait time since queued was %.0fs",
        ],
        grammar: Some(&crate::details::ecosystem::QUOTA_RESERVED),
    }
    Admitted {
        meaning: "The Workload is admitted: quota is reserved and all admission checks passed, so Kueue unsuspends the job and its Pods can be created and scheduled.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/controller/core/workload_controller.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission", "kueue-workload-controller"],
        note_formats: &[
            "Admitted by ClusterQueue %s, wait time since reservation was 0s",
            "Admitted by ClusterQueue %s, wait time since reservation was %.0fs",
        ],
        grammar: Some(&crate::details::ecosystem::KUEUE_ADMITTED),
    }
    Preempted {
        meaning: "Kueue preempted this admitted Workload to make room for another (priority within the ClusterQueue, reclamation within the cohort, or fair sharing); the job is suspended and its GPU Pods are deleted, then it is requeued.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/preemption/preemption.go (v0.20.0-devel, ff69552e; formats of v0.5, v0.6, v0.11, v0.15, v0.17)",
        group: Preemption,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &[
            "Preempted to accommodate a workload (UID: %s, JobUID: %s) due to %s; preemptor path: %s; preemptee path: %s; preemptor effective priority: %d (base: %d, boost: %d); preemptee effective priority: %d (base: %d, boost: %d)",
            "Preempted to accommodate a workload (UID: %s, JobUID: %s) due to %s; preemptor path: %s; preemptee path: %s",
            "Preempted to accommodate a workload (UID: %s, JobUID: %s) due to %s",
            "Preempted to accommodate a workload (UID: %s) due to %s",
            "Preempted by another workload in the %s",
        ],
        grammar: Some(&crate::details::ecosystem::KUEUE_PREEMPTED),
    }
    PreemptedWorkload {
        meaning: "Recorded on the preempting Workload: Kueue preempted the named Workload on its behalf; the note gives the victim, its ClusterQueue and both effective priorities.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/preemption/preemption.go (v0.20.0-devel, ff69552e)",
        group: Preemption,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission"],
        note_formats: &["Preempted workload %s (UID: %s) in ClusterQueue %s; preemptor effective priority: %d (base: %d, boost: %d); preemptee effective priority: %d (base: %d, boost: %d)"],
        grammar: Some(&crate::details::ecosystem::KUEUE_PREEMPTED_WORKLOAD),
    }
    EvictedDueTo = "EvictedDueTo<reason>" {
        meaning: "Family of eviction reasons: Kueue evicted the admitted Workload for the named cause (Preempted, PodsReadyTimeout, AdmissionCheck, ClusterQueueStopped, LocalQueueStopped, Deactivated, `DeactivatedDueTo<cause>`, NodeFailures); the job is suspended and its Pods removed. A PodsReadyTimeout on a GPU job usually means its Pods could not all start (e.g. GPUs not schedulable) in time.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go, pkg/workload/evict (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller", "kueue-admission"],
        note_formats: &["Exceeded the PodsReady timeout %s"],
        grammar: Some(&crate::details::ecosystem::KUEUE_EVICTED),
    }
    MaximumExecutionTimeExceeded {
        meaning: "The Workload ran longer than its maximum execution time and Kueue deactivated it; the job is stopped and its GPUs released.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller"],
        note_formats: &["The maximum execution time (%ds) exceeded"],
    }
    AdmissionCheckRejected {
        meaning: "An admission check (for example a ProvisioningRequest for GPU capacity) rejected the Workload, so Kueue deactivated it; it will not run until reactivated.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller"],
        note_formats: &["Deactivated due to %s"],
    }
    AdmissionGated {
        meaning: "The Workload is held back from admission by an admission gate and will not be considered until the gate is cleared.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go, pkg/scheduler/scheduler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller", "kueue-admission"],
    }
    AdmissionGateCleared {
        meaning: "The admission gate that held the Workload back was removed; it can now be considered for admission.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller", "kueue-admission"],
    }
    Deleted {
        meaning: "Kueue garbage-collected a finished Workload after its retention period elapsed.",
        reference: "kubernetes-sigs/kueue pkg/controller/core/workload_controller.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Workload"],
        reporting_controllers: &["kueue-workload-controller"],
        note_formats: &["Deleted finished workload due to elapsed retention"],
    }
    CreatedWorkload {
        meaning: "The Kueue job reconciler created the Workload that represents this job in the queue; the note names it.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
        note_formats: &["Created Workload: %v"],
        grammar: Some(&crate::details::ecosystem::CREATED_WORKLOAD),
    }
    Started {
        meaning: "The job's Workload was admitted and Kueue unsuspended the job (injecting the flavor's node selectors), so its Pods are being created.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
        note_formats: &["Admitted by clusterQueue %v"],
        grammar: Some(&crate::details::ecosystem::KUEUE_STARTED),
    }
    Stopped {
        meaning: "Kueue suspended the running job because its Workload lost admission (evicted, preempted, deleted); the note is the cause. Its GPU Pods are terminated and the job waits in the queue again.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
        note_formats: &["Not admitted by cluster queue", "Workload is deleted"],
    }
    Suspended {
        meaning: "Kueue suspended a child job that it manages through its parent's Workload.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
        note_formats: &["Kueue managed child job suspended"],
    }
    FinishedWorkload {
        meaning: "The job completed or failed and Kueue marked its Workload finished, releasing the quota (and GPUs) it held.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
        note_formats: &["Workload '%s' is declared finished"],
        grammar: Some(&crate::details::ecosystem::FINISHED_WORKLOAD),
    }
    UpdatedAdmissionCheck {
        meaning: "The state of one of the Workload's admission checks changed; the note carries the check's status text (for example the ProvisioningRequest progress).",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Normal],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
    }
    ErrWorkloadCompose {
        meaning: "Kueue could not build a Workload from the job spec (invalid pod sets, resources or annotations); the note is the error. The job is never queued until the spec is fixed.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
    }
    WorkloadPriorityClassNotFound {
        meaning: "The job names a WorkloadPriorityClass that does not exist, so Kueue cannot create its Workload; the job stays unqueued until the class exists or the label is fixed.",
        reference: "kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Job", "JobSet", "RayJob", "PyTorchJob", "Pod"],
        reporting_controllers: &["*-kueue-controller"],
    }
    WorkloadSuspended = "Suspended" {
        meaning: "Granular form of `Pending` on the Workload: its LocalQueue or ClusterQueue has an active stop policy (held or draining), so no admission happens until the queue is resumed.",
        reference: "kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/controller/core/workload_controller.go, apis/kueue WorkloadQuotaReservedReasonSuspended (v0.20.0-devel, ff69552e)",
        group: Queueing,
        types: &[Warning],
        objects: &["Workload"],
        reporting_controllers: &["kueue-admission", "kueue-workload-controller"],
        grammar: Some(&crate::details::ecosystem::KUEUE_INADMISSIBLE),
    }
}
