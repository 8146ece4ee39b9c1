//! Volcano reasons (volcano-sh/volcano `pkg/scheduler/api/{job_info.go, unschedule_info.go}`,
//! `pkg/scheduler/cache/cache.go`, `pkg/scheduler/plugins/{capacity, proportion, overcommit}`,
//! `pkg/controllers/job/*`, `pkg/apis/batch/v1alpha1` JobEvent; commit ed72c7c8 = v1.16.0-alpha.1,
//! older vcjob format from earlier releases).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by Volcano: the scheduler (component = scheduler name, default `volcano`)
    /// on Pods and PodGroups, the job controller (`vc-controller-manager`) on Volcano Jobs
    /// (`batch.volcano.sh` `Job`). `FailedScheduling` and `Scheduled` share their wire strings
    /// with kube-scheduler, `Unschedulable` with KAI-Scheduler; the reporter tells them apart.
    pub enum VolcanoReason in Volcano;

    FailedScheduling {
        meaning: "The Volcano scheduler could not place this Pod in the session; the note is either the per-node histogram (`0/N nodes are unavailable: ...`, note \"unavailable\"), the gang status of its PodGroup, or that the Pod could go to a node once its gang is complete. For a GPU Pod it usually means not enough free GPUs across nodes, or that the rest of its gang does not fit yet.",
        reference: "volcano-sh/volcano pkg/scheduler/cache/cache.go taskUnschedulable, pkg/scheduler/api/unschedule_info.go (ed72c7c8, v1.16.0-alpha.1)",
        group: Scheduling,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["volcano", "vc-scheduler", "volcano-*"],
        note_formats: &[
            "0/%v nodes are unavailable: %v.",
            "In hyperNode %s: 0/%v nodes are unavailable: %v.",
            "all nodes are unavailable",
            "pod group is not ready, %s",
            "Pod %s/%s can possibly be assigned to %s, once minAvailable is satisfied",
            "Pod %s/%s can possibly be assigned to %s, once resource is released and minAvailable is satisfied",
        ],
        grammar: Some(&crate::details::scheduling::VOLCANO_FAILED_SCHEDULING),
    }
    Unschedulable {
        meaning: "The PodGroup (gang) cannot be scheduled as a whole: as a Warning, too few of its tasks fit (`N/M tasks in gang unschedulable` with the job fit error); as a Normal event from the queue plugins, the queue's quota or the cluster's overcommit limit blocks it. For GPU gangs this usually means the queue's GPU share or free GPUs are insufficient for minAvailable Pods.",
        reference: "volcano-sh/volcano pkg/scheduler/api/job_info.go, pkg/scheduler/cache/cache.go, plugins capacity/proportion/overcommit (ed72c7c8, v1.16.0-alpha.1)",
        group: Gang,
        types: &[Warning, Normal],
        objects: &["PodGroup"],
        reporting_controllers: &["volcano", "vc-scheduler", "volcano-*"],
        note_formats: &[
            "%v/%v tasks in gang unschedulable: %v",
            "queue resource quota insufficient: %s",
            "resource in cluster is overused: %s",
        ],
        grammar: Some(&crate::details::scheduling::VOLCANO_UNSCHEDULABLE),
    }
    Scheduled {
        meaning: "The Volcano scheduler found room for at least minAvailable tasks of the PodGroup; the gang is ready and its Pods are being bound.",
        reference: "volcano-sh/volcano pkg/scheduler/cache/cache.go, pkg/scheduler/api/job_info.go PodGroupReady (ed72c7c8, v1.16.0-alpha.1)",
        group: Gang,
        types: &[Normal],
        objects: &["PodGroup"],
        reporting_controllers: &["volcano", "vc-scheduler", "volcano-*"],
        note_formats: &["pod group is ready"],
    }
    PodGroupPending {
        meaning: "The Volcano Job's PodGroup is still pending; the job controller copies the PodGroup's latest condition (typically `unschedulable`) and its message onto the Job, so the gang scheduling failure is visible there.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller_actions.go (ed72c7c8, v1.16.0-alpha.1; `unschedule,reason` form from older releases)",
        group: Gang,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["PodGroup %s:%s %s, reason: %s", "PodGroup %s:%s unschedule,reason: %s"],
        grammar: Some(&crate::details::scheduling::VOLCANO_POD_GROUP_PENDING),
    }
    CommandIssued {
        meaning: "A user command (vcctl or a bus Command such as suspend, resume, abort, restart) was picked up for the Volcano Job and is being executed once.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller.go processNextCommand (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Normal],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Start to execute command %s, and clean it up to make sure executed not more than once."],
    }
    PluginError {
        meaning: "A Volcano Job plugin (ssh, svc, env, pytorch, ...) failed while the job was being set up, so its Pods are not created; the note is the plugin error.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller_actions.go initJob (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Execute plugin when job add failed, err: %v"],
    }
    PVCError {
        meaning: "The job controller could not create the PersistentVolumeClaims declared by the Volcano Job, so the job cannot start.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller_actions.go initJob (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Failed to create PVC, err: %v"],
    }
    PodGroupError {
        meaning: "The job controller could not create or update the Volcano Job's PodGroup, so the gang is never scheduled.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller_actions.go initJob (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Failed to create PodGroup, err: %v"],
    }
    ExecuteAction {
        meaning: "The job controller is executing a lifecycle action on the Volcano Job (restart, abort, terminate, ...), usually triggered by a policy such as a Pod failure or eviction; when retries are exhausted the note says the job failed on that action.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller.go processNextReq (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Normal],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Start to execute action %s ", "Job failed on action %s for retry limit reached"],
    }
    JobStatusError {
        meaning: "The job controller could not initialise or update the Volcano Job's status, so the job is not processed further until the error clears.",
        reference: "volcano-sh/volcano pkg/controllers/job/job_controller_actions.go initJob (ed72c7c8, v1.16.0-alpha.1)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["vc-controller-manager"],
        note_formats: &["Failed to initialize job status, err: %v"],
    }
}
