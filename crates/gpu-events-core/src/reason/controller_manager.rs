//! kube-controller-manager reasons (kubernetes/kubernetes `pkg/controller/nodelifecycle/`,
//! `pkg/controller/util/node/controller_utils.go`, `pkg/controller/tainteviction/`,
//! `pkg/controller/controller_utils.go`, `pkg/controller/{replicaset,daemon,statefulset,deployment,
//! job,cronjob}/`, `pkg/controller/volume/persistentvolume/pv_controller.go`,
//! `pkg/controller/volume/attachdetach/` and `pkg/volume/util/operationexecutor/`; v1.36, with the
//! older note formats listed where they changed).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by the controllers in kube-controller-manager. Each controller reports
    /// under its own name (`node-controller`, `replicaset-controller`, `job-controller`,
    /// `persistentvolume-controller`, `attachdetach-controller`, ...), on core/v1 with no action.
    pub enum ControllerManagerReason in ControllerManager;

    // --- Node lifecycle -----------------------------------------------------------------------

    NodeNotReady {
        meaning: "The node controller lost contact with the node's kubelet: on each Pod of the node it records a Warning and marks the Pod not ready (so Services drop it), and on the Node a Normal status change. Taint-based eviction follows after the toleration period; GPU Pods on the node stop serving.",
        reference: "kubernetes/kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/util/node/controller_utils.go MarkPodsNotReady, RecordNodeStatusChange (v1.36)",
        group: Node,
        types: &[Warning, Normal],
        objects: &["Pod", "Node"],
        reporting_controllers: &["node-controller"],
        note_formats: &["Node is not ready", "Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_NOT_READY),
    }
    RegisteredNode {
        meaning: "The node lifecycle controller started tracking a new node.",
        reference: "kubernetes/kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/util/node/controller_utils.go RecordNodeEvent (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["node-controller"],
        note_formats: &["Node %s event: Registered Node %s in Controller"],
    }
    RemovingNode {
        meaning: "The node lifecycle controller stopped tracking a node that was deleted (for example scaled down by an autoscaler).",
        reference: "kubernetes/kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/util/node/controller_utils.go RecordNodeEvent (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["node-controller"],
        note_formats: &["Node %s event: Removing Node %s from Controller"],
    }
    TaintManagerEviction {
        meaning: "The taint eviction controller marked the Pod for deletion because its node has a NoExecute taint the Pod does not tolerate (for example `node.kubernetes.io/unreachable` after the toleration period), or cancelled that deletion when the taint went away.",
        reference: "kubernetes/kubernetes pkg/controller/tainteviction/taint_eviction.go (v1.36); pkg/controller/nodelifecycle/scheduler/taint_manager.go (before v1.29)",
        group: Eviction,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["taint-eviction-controller", "taint-controller"],
        note_formats: &["Marking for deletion Pod %s", "Cancelling deletion of Pod %s"],
        grammar: Some(&crate::details::node::POD_DELETION),
    }
    NodeControllerEviction {
        meaning: "Old node controllers deleted the Pods of a node that stayed unreachable, before taint-based eviction replaced this path.",
        reference: "kubernetes/kubernetes pkg/controller/util/node/controller_utils.go DeletePods (v1.26)",
        group: Eviction,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["node-controller"],
        note_formats: &["Marking for deletion Pod %s from Node %s"],
        retired: true,
        grammar: Some(&crate::details::node::POD_DELETION),
    }

    // --- Workload controllers -----------------------------------------------------------------

    SuccessfulCreate {
        meaning: "A workload controller created a Pod (or, for a CronJob, a Job) for its object; the note names what it created.",
        reference: "kubernetes/kubernetes pkg/controller/controller_utils.go, pkg/controller/statefulset/stateful_pod_control.go, pkg/controller/cronjob/cronjob_controllerv2.go (v1.36)",
        group: Controller,
        types: &[Normal],
        objects: &["ReplicaSet", "Job", "DaemonSet", "StatefulSet", "ReplicationController", "CronJob"],
        reporting_controllers: &[
            "replicaset-controller",
            "job-controller",
            "daemonset-controller",
            "statefulset-controller",
            "replication-controller",
            "cronjob-controller",
        ],
        note_formats: &[
            "Created pod: %v",
            "create Pod %s in StatefulSet %s successful",
            "create Claim %s Pod %s in StatefulSet %s success",
            "Created job %v",
        ],
        grammar: Some(&crate::details::node::SUCCESSFUL_CREATE),
    }
    FailedCreate {
        meaning: "A workload controller could not create a Pod (or Job); the note carries the API error, for GPU workloads typically a ResourceQuota on `requests.nvidia.com/gpu` being exhausted, a missing RuntimeClass, or an admission webhook denial. No Pod exists, so no scheduler or kubelet event follows.",
        reference: "kubernetes/kubernetes pkg/controller/controller_utils.go, pkg/controller/statefulset/stateful_pod_control.go, pkg/controller/cronjob/cronjob_controllerv2.go (v1.36)",
        group: Controller,
        types: &[Warning],
        objects: &["ReplicaSet", "Job", "DaemonSet", "StatefulSet", "ReplicationController", "CronJob"],
        reporting_controllers: &[
            "replicaset-controller",
            "job-controller",
            "daemonset-controller",
            "statefulset-controller",
            "replication-controller",
            "cronjob-controller",
        ],
        note_formats: &[
            "Error creating: %v",
            "create Pod %s in StatefulSet %s failed error: %s",
            "create Claim %s for Pod %s in StatefulSet %s failed error: %s",
            "Error creating job: %v",
        ],
        grammar: Some(&crate::details::node::FAILED_CREATE),
    }
    SuccessfulDelete {
        meaning: "A workload controller deleted one of its Pods (scale-down, a finished or failed Job, a suspended Job, a replaced StatefulSet Pod).",
        reference: "kubernetes/kubernetes pkg/controller/controller_utils.go, pkg/controller/statefulset/stateful_pod_control.go (v1.36)",
        group: Controller,
        types: &[Normal],
        objects: &["ReplicaSet", "Job", "DaemonSet", "StatefulSet", "ReplicationController"],
        reporting_controllers: &[
            "replicaset-controller",
            "job-controller",
            "daemonset-controller",
            "statefulset-controller",
            "replication-controller",
        ],
        note_formats: &["Deleted pod: %v", "delete Pod %s in StatefulSet %s successful"],
        grammar: Some(&crate::details::node::SUCCESSFUL_DELETE),
    }
    FailedDelete {
        meaning: "A workload controller could not delete one of its Pods; the note carries the API error.",
        reference: "kubernetes/kubernetes pkg/controller/controller_utils.go, pkg/controller/statefulset/stateful_pod_control.go (v1.36)",
        group: Controller,
        types: &[Warning],
        objects: &["ReplicaSet", "Job", "DaemonSet", "StatefulSet", "ReplicationController"],
        reporting_controllers: &[
            "replicaset-controller",
            "job-controller",
            "daemonset-controller",
            "statefulset-controller",
            "replication-controller",
        ],
        note_formats: &["Error deleting: %v", "delete Pod %s in StatefulSet %s failed error: %s"],
    }
    ScalingReplicaSet {
        meaning: "The Deployment controller scaled one of its ReplicaSets up or down during a rollout or a replica change; the note gives the ReplicaSet and the counts.",
        reference: "kubernetes/kubernetes pkg/controller/deployment/sync.go (v1.36; PR #101142, PR #125118)",
        group: Controller,
        types: &[Normal],
        objects: &["Deployment"],
        reporting_controllers: &["deployment-controller"],
        note_formats: &[
            "Scaled %s replica set %s from %d to %d",
            "Scaled %s replica set %s to %d from %d",
            "Scaled up replica set %s to %d",
            "Scaled down replica set %s to %d",
        ],
        grammar: Some(&crate::details::node::SCALING_REPLICA_SET),
    }
    RecreatingFailedPod {
        meaning: "The StatefulSet controller is deleting a Failed Pod so that it can be recreated under the same name; a loop of these on a GPU StatefulSet usually means the Pod keeps failing kubelet admission (UnexpectedAdmissionError, `OutOf<resource>`) on its node.",
        reference: "kubernetes/kubernetes pkg/controller/statefulset/stateful_set_control.go (v1.36)",
        group: Controller,
        types: &[Warning],
        objects: &["StatefulSet"],
        reporting_controllers: &["statefulset-controller"],
        note_formats: &["StatefulSet %s/%s is recreating failed Pod %s"],
    }
    RecreatingTerminatedPod {
        meaning: "The StatefulSet controller is recreating a Pod that terminated successfully (for example after a node reboot), so that the replica runs again.",
        reference: "kubernetes/kubernetes pkg/controller/statefulset/stateful_set_control.go (v1.36)",
        group: Controller,
        types: &[Normal],
        objects: &["StatefulSet"],
        reporting_controllers: &["statefulset-controller"],
        note_formats: &["StatefulSet %s/%s is recreating terminated Pod %s"],
    }
    FailedDaemonPod {
        meaning: "The DaemonSet controller found one of its Pods Failed on a node and will delete and recreate it; for GPU DaemonSets (device plugin, driver, DCGM exporter) this usually follows an admission rejection or a crash on that node.",
        reference: "kubernetes/kubernetes pkg/controller/daemon/daemon_controller.go (v1.36)",
        group: Controller,
        types: &[Warning],
        objects: &["DaemonSet"],
        reporting_controllers: &["daemonset-controller"],
        note_formats: &["Found failed daemon pod %s/%s on node %s, will try to kill it"],
    }
    FailedPlacement {
        meaning: "Old DaemonSet controllers could not place a daemon Pod on a node because the node lacked resources; the note repeats the kubelet's insufficient-resource text.",
        reference: "kubernetes/kubernetes pkg/controller/daemon/daemon_controller.go (v1.9)",
        group: Controller,
        types: &[Warning],
        objects: &["DaemonSet"],
        reporting_controllers: &["daemonset-controller"],
        note_formats: &["failed to place pod on %q: %s"],
        retired: true,
        grammar: Some(&crate::details::node::FAILED_PLACEMENT),
    }

    // --- Job controller -----------------------------------------------------------------------

    BackoffLimitExceeded {
        meaning: "The Job failed because its Pods failed (or restarted) more times than `backoffLimit` allows; for GPU training Jobs the Pods usually crashed on CUDA or out-of-memory errors or were rejected by the kubelet.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job has reached the specified backoff limit"],
    }
    DeadlineExceeded {
        meaning: "The Job failed because it ran longer than `activeDeadlineSeconds`; its remaining Pods are terminated.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job was active longer than specified deadline"],
    }
    PodFailurePolicy {
        meaning: "The Job failed because a failed Pod matched a `FailJob` rule of its pod failure policy (by container exit code or Pod condition); the note names the container or condition and the rule.",
        reference: "kubernetes/kubernetes pkg/controller/job/pod_failure_policy.go, job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &[
            "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d",
            "Pod %s/%s has condition %v matching %v rule at index %d",
        ],
        grammar: Some(&crate::details::node::POD_FAILURE_POLICY),
    }
    MaxFailedIndexesExceeded {
        meaning: "The Indexed Job failed because more indexes failed than `maxFailedIndexes` allows.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job has exceeded the specified maximal number of failed indexes"],
    }
    FailedIndexes {
        meaning: "The Indexed Job with a per-index backoff limit finished with some indexes failed, so the Job as a whole is Failed.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job has failed indexes"],
    }
    Completed {
        meaning: "The Job reached its required number of successful completions (or met its success policy) and is Complete.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Normal],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job completed"],
    }
    TooManySucceededPods {
        meaning: "More Pods succeeded than the Job's completion count, a sign of duplicated work (for example Pods that ran twice after a node failure).",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Too many succeeded pods running after completion count reached"],
    }
    Suspended {
        meaning: "The Job was suspended (`spec.suspend: true`, for example by a batch queue such as Kueue) and its active Pods are deleted, freeing their GPUs.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Normal],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job suspended"],
    }
    Resumed {
        meaning: "The Job was resumed (`spec.suspend: false`, for example when a batch queue admits it) and its Pods are created again.",
        reference: "kubernetes/kubernetes pkg/controller/job/job_controller.go (v1.36)",
        group: Job,
        types: &[Normal],
        objects: &["Job"],
        reporting_controllers: &["job-controller"],
        note_formats: &["Job resumed"],
    }

    // --- Storage ------------------------------------------------------------------------------

    FailedBinding {
        meaning: "The claim cannot be bound yet: as a Normal event, no PersistentVolume matches and no StorageClass is set, so the claim waits for a matching volume; as a Warning, the requested volume belongs to another claim, or (on a Pod) an ephemeral volume's claim could not be created. Pods using the claim stay Pending.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go, pkg/controller/volume/ephemeral/controller.go (v1.36)",
        group: Volume,
        types: &[Normal, Warning],
        objects: &["PersistentVolumeClaim", "Pod"],
        reporting_controllers: &["persistentvolume-controller", "ephemeral-volume-controller"],
        note_formats: &[
            "no persistent volumes available for this claim and no storage class is set",
            "volume %q already bound to a different claim.",
            "ephemeral volume %s: %v",
        ],
    }
    WaitForFirstConsumer {
        meaning: "The claim's StorageClass uses `WaitForFirstConsumer`, so binding waits until a Pod using it is scheduled; expected while the Pod is still Pending.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["PersistentVolumeClaim"],
        reporting_controllers: &["persistentvolume-controller"],
        note_formats: &["waiting for first consumer to be created before binding"],
    }
    WaitForPodScheduled {
        meaning: "The claim uses delayed binding and the Pods that use it exist but are not scheduled yet; a volume is bound or provisioned once the scheduler picks a node, so this lasts as long as the Pod is Pending.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["PersistentVolumeClaim"],
        reporting_controllers: &["persistentvolume-controller"],
        note_formats: &["waiting for pod %s to be scheduled", "waiting for pods %s to be scheduled"],
    }
    ExternalProvisioning {
        meaning: "The claim waits for an external (CSI) provisioner to create its volume; if it repeats for long, the provisioner named in the note is not running or not registered.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["PersistentVolumeClaim"],
        reporting_controllers: &["persistentvolume-controller"],
        note_formats: &["Waiting for a volume to be created either by the external provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."],
    }
    ProvisioningFailed {
        meaning: "Provisioning a volume for the claim failed (missing StorageClass, quota or capacity in the storage backend, provisioner error); Pods using the claim stay Pending.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (v1.36); kubernetes-csi/external-provisioner",
        group: Volume,
        types: &[Warning],
        objects: &["PersistentVolumeClaim"],
        reporting_controllers: &["persistentvolume-controller"],
        note_formats: &[
            "storageclass.storage.k8s.io %q not found",
            "Failed to provision volume with StorageClass %q: %v",
            "failed to provision volume with StorageClass %q: %v",
        ],
    }
    ProvisioningSucceeded {
        meaning: "A volume was provisioned for the claim, which will now be bound.",
        reference: "kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (v1.36); kubernetes-csi/external-provisioner",
        group: Volume,
        types: &[Normal],
        objects: &["PersistentVolumeClaim"],
        reporting_controllers: &["persistentvolume-controller"],
        note_formats: &["Successfully provisioned volume %s using %s", "Successfully provisioned volume %s"],
    }
    FailedAttachVolume {
        meaning: "The attach/detach controller could not attach a volume to the Pod's node (attach error, or a ReadWriteOnce volume still attached to or used on another node), so the Pod stays in ContainerCreating; common when a GPU Pod is rescheduled before its old node released the volume.",
        reference: "kubernetes/kubernetes pkg/controller/volume/attachdetach/reconciler/reconciler.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["attachdetach-controller"],
        note_formats: &[
            "AttachVolume.Attach failed for volume %q : %v",
            "Multi-Attach error for volume %q Volume is already exclusively attached to one node and can't be attached to another",
            "Multi-Attach error for volume %q Volume is already used by pod(s) %s",
            "Multi-Attach error for volume %q Volume is already used by pod(s) %s and %d pod(s) in different namespaces",
            "Multi-Attach error for volume %q Volume is already used by %d pod(s) in different namespaces",
        ],
        grammar: Some(&crate::details::node::FAILED_ATTACH_VOLUME),
    }
    SuccessfulAttachVolume {
        meaning: "The attach/detach controller attached a volume to the Pod's node; the kubelet can now mount it.",
        reference: "kubernetes/kubernetes pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["attachdetach-controller"],
        note_formats: &["AttachVolume.Attach succeeded for volume %q"],
    }
}
