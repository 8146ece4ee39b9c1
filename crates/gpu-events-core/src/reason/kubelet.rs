//! kubelet reasons (kubernetes/kubernetes `pkg/kubelet/events/event.go` and the files that record
//! them: `images/image_manager.go`, `kuberuntime/kuberuntime_container.go`,
//! `kuberuntime/kuberuntime_manager.go`, `prober/prober.go`, `lifecycle/predicate.go`,
//! `cm/admission/errors.go`, `cm/devicemanager/manager.go`, `eviction/helpers.go`,
//! `kubelet_node_status.go`, `images/image_gc_manager.go`, and
//! `pkg/volume/util/operationexecutor/operation_generator.go`; v1.36, with the older note formats
//! listed where they changed).

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by the kubelet (`source.component` `kubelet`, `source.host` the node). Pod
    /// events are container-scoped where a container is involved (`involvedObject.fieldPath`
    /// `spec.containers{NAME}`); node events are recorded on the Node in namespace `default`.
    pub enum KubeletReason in Kubelet;

    // --- Images -------------------------------------------------------------------------------

    Pulling {
        meaning: "The kubelet started pulling a container image; the note names the image reference.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go (v1.36)",
        group: Image,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Pulling image %q"],
        grammar: Some(&crate::details::node::PULLING),
    }
    Pulled {
        meaning: "The image is ready for the container: either the pull finished (with duration, time including queueing and, in newer kubelets, the image size) or the image was already on the node.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go (v1.36; PR #111772 added the waiting time, issue #91560 the duration)",
        group: Image,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes.",
            "Successfully pulled image %q in %v (%v including waiting)",
            "Successfully pulled image %q in %v",
            "Successfully pulled image %q",
            "Container image %q already present on machine and can be accessed by the pod",
            "Container image %q already present on machine",
        ],
        grammar: Some(&crate::details::node::PULLED),
    }
    Failed {
        meaning: "A container could not be pulled, created or started; the note is either the pull error, the CRI/config error behind `Error: ...` (for GPU Pods often a CDI injection failure, an nvidia-container-cli or OCI hook error, or a missing runtime handler), or the container waiting reason. The container stays Waiting and is retried with back-off.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go, pkg/kubelet/kuberuntime/kuberuntime_container.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Failed to pull image %q: %v",
            "image pull failed for %s because the registry is unavailable%s",
            "image pull failed for %s because the signature validation failed%s",
            "Error: %v",
            "Internal PreStartContainer hook failed: %v",
            "error making pod data directories: %v",
        ],
        grammar: Some(&crate::details::node::FAILED),
    }
    BackOff {
        meaning: "The kubelet is backing off before retrying: as a Normal event, the image pull keeps failing (ImagePullBackOff); as a Warning, the container keeps exiting and is restarted with growing delay (CrashLoopBackOff), which for GPU Pods often follows a CUDA/driver initialisation error or a GPU out-of-memory crash.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.36; PR #113216)",
        group: Container,
        types: &[Normal, Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Back-off pulling image %q",
            "Back-off restarting failed container %s in pod %s",
            "Back-off restarting failed container",
        ],
        grammar: Some(&crate::details::node::BACK_OFF),
    }
    ErrImageNeverPull {
        meaning: "The container uses `imagePullPolicy: Never` and the image is not on the node, so it cannot start; the image must be preloaded on every node the Pod may land on.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go (v1.36)",
        group: Image,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Container image %q is not present with pull policy of Never"],
        grammar: Some(&crate::details::node::ERR_IMAGE_NEVER_PULL),
    }
    InspectFailed {
        meaning: "The kubelet could not normalise the image reference or inspect the image in the runtime, so the container cannot be started until the reference or the runtime is fixed.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_manager.go (v1.36)",
        group: Image,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Failed to apply default image tag %q: %v", "Failed to inspect image %q: %v"],
        grammar: Some(&crate::details::node::INSPECT_FAILED),
    }

    // --- Container lifecycle ------------------------------------------------------------------

    Created {
        meaning: "The runtime created the container; since 1.35 the note no longer names it, so the container comes from the event's fieldPath.",
        reference: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go (v1.36; PR #130471, PR #134043)",
        group: Container,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Container created", "Created container: %s", "Created container %s", "Created container"],
        grammar: Some(&crate::details::node::CREATED),
    }
    Started {
        meaning: "The runtime started the container; since 1.35 the note no longer names it, so the container comes from the event's fieldPath.",
        reference: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go (v1.36; PR #134043)",
        group: Container,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Container started", "Started container %s", "Started container"],
        grammar: Some(&crate::details::node::STARTED),
    }
    Killing {
        meaning: "The kubelet is stopping a container: because the Pod is being deleted or evicted, a liveness or startup probe failed, the container spec changed, or its postStart hook failed.",
        reference: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go, kuberuntime_manager.go (v1.36; PR #73892)",
        group: Container,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Stopping container %s",
            "Container %s failed liveness probe, will be restarted",
            "Container %s failed startup probe, will be restarted",
            "Container %s definition changed, will be restarted",
            "FailedPostStartHook",
            "Killing container with id %s:%s",
        ],
        grammar: Some(&crate::details::node::KILLING),
    }
    ExceededGracePeriod {
        meaning: "The runtime did not stop the Pod's containers within the termination grace period, so they were killed; a GPU process stuck in the driver (for example after an Xid error) can keep a container from exiting.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kuberuntime/kuberuntime_container.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Container runtime did not kill the pod within specified grace period."],
    }
    Preempting {
        meaning: "The kubelet evicted this Pod to admit a critical Pod (for example a system-node-critical DaemonSet such as a device plugin) that did not fit on the node; the victim fails and its controller must recreate it elsewhere.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/preemption/preemption.go (v1.36)",
        group: Preemption,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Preempted in order to admit critical pod"],
    }

    // --- Probes -------------------------------------------------------------------------------

    Unhealthy {
        meaning: "A liveness, readiness or startup probe failed or errored; the note names the probe and gives its output. For inference servers this often means the model is still loading onto the GPU or the server hung.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/prober/prober.go (v1.36; PR #125901)",
        group: Probe,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "%s probe failed: %s",
            "%s probe errored and resulted in %s state: %s",
            "%s probe errored: %v",
        ],
        grammar: Some(&crate::details::node::UNHEALTHY),
    }
    ProbeWarning {
        meaning: "A probe succeeded but reported a warning (for example an HTTP redirect it did not follow); the container is not restarted.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/prober/prober.go (v1.36)",
        group: Probe,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["%s probe warning: %s"],
        grammar: Some(&crate::details::node::PROBE_WARNING),
    }

    // --- Lifecycle hooks ----------------------------------------------------------------------

    FailedPreStopHook {
        meaning: "The container's preStop hook failed; the container is stopped anyway. Newer kubelets no longer put the hook output in the note.",
        reference: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go, pkg/kubelet/lifecycle/handlers.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "PreStopHook failed",
            "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q",
            "HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v",
        ],
    }
    FailedPostStartHook {
        meaning: "The container's postStart hook failed, so the kubelet kills the container and restarts it under the restart policy. Newer kubelets no longer put the hook output in the note.",
        reference: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go, pkg/kubelet/lifecycle/handlers.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "PostStartHook failed",
            "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q",
            "HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v",
        ],
    }

    // --- Sandbox and runtime ------------------------------------------------------------------

    FailedCreatePodSandBox {
        meaning: "The container runtime could not create the Pod sandbox; the note carries the CRI error. For GPU Pods the usual cause is a RuntimeClass handler (such as `nvidia`) that containerd or CRI-O does not have configured, a missing RuntimeClass, or CNI failures.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.36; `Failed create pod sandbox` up to ~v1.15)",
        group: Sandbox,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Failed to create pod sandbox: %v", "Failed create pod sandbox: %v"],
        grammar: Some(&crate::details::node::FAILED_CREATE_POD_SANDBOX),
    }
    FailedPodSandBoxStatus {
        meaning: "The kubelet could not read the status of the Pod sandbox from the runtime, usually because the runtime is unhealthy or restarting.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.36)",
        group: Sandbox,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Unable to get pod sandbox status: %v"],
        grammar: Some(&crate::details::node::FAILED_POD_SANDBOX_STATUS),
    }
    SandboxChanged {
        meaning: "The Pod sandbox is gone or changed (for example after a runtime or node restart), so the kubelet kills it and creates a new one; all containers restart.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.36)",
        group: Sandbox,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Pod sandbox changed, it will be killed and re-created."],
    }

    // --- Admission ----------------------------------------------------------------------------

    OutOfResource = "OutOf<resource>" {
        meaning: "Kubelet admission rejected the Pod because the node lacks the named resource (`OutOfcpu`, `OutOfmemory`, `OutOfnvidia.com/gpu`, ...); the Pod fails even though it was scheduled. For GPUs this usually means the device plugin advertised fewer devices than the scheduler assumed, or another Pod took them first.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d"],
        grammar: Some(&crate::details::node::OUT_OF_RESOURCE),
    }
    UnexpectedAdmissionError {
        meaning: "Device allocation during kubelet admission failed (typically the device plugin's Allocate call, or no healthy devices left), so the Pod is rejected and fails even though the scheduler placed it; common with GPU device plugins that restarted, are not yet registered after a node reboot, or whose devices went unhealthy.",
        reference: "kubernetes/kubernetes pkg/kubelet/cm/admission/errors.go, pkg/kubelet/lifecycle/predicate.go, pkg/kubelet/cm/devicemanager/manager.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Allocate failed due to %v, which is unexpected",
            // The same admission error as the Pod's status and newer kubelets' events write it.
            "Pod Allocate failed due to %v, which is unexpected",
            "Update plugin resources failed due to %v, which is unexpected.",
            "Unexpected error while attempting to recover from admission failure: %v",
        ],
        grammar: Some(&crate::details::node::UNEXPECTED_ADMISSION),
    }
    TopologyAffinityError {
        meaning: "The topology manager could not align the Pod's CPUs, memory and devices (such as GPUs and NICs) on the NUMA nodes its policy requires, so kubelet admission rejected the Pod.",
        reference: "kubernetes/kubernetes pkg/kubelet/cm/topologymanager/topology_manager.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Resources cannot be allocated with Topology locality"],
    }
    SMTAlignmentError {
        meaning: "The static CPU manager with `full-pcpus-only` could not give the Pod whole physical cores, so kubelet admission rejected it.",
        reference: "kubernetes/kubernetes pkg/kubelet/cm/cpumanager/policy_static.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "SMT Alignment Error: requested %d cpus not multiple cpus per core = %d",
            "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = %d, requested CPUs = %d, CPUs per core = %d",
        ],
        grammar: Some(&crate::details::node::SMT_ALIGNMENT),
    }
    InvalidNodeInfo {
        meaning: "The kubelet could not read its own Node object while admitting the Pod, so the Pod was rejected.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Kubelet cannot get node info."],
    }
    PodOSSelectorNodeLabelDoesNotMatch {
        meaning: "The Pod's `kubernetes.io/os` label does not match the node's operating system, so kubelet admission rejected it.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"],
    }
    PodOSNotSupported {
        meaning: "The Pod's `spec.os` names an operating system other than the node's, so kubelet admission rejected it.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Failed to admit pod as the OS field doesn't match node OS"],
    }
    SupplementalGroupsPolicyNotSupported {
        meaning: "The Pod asks for `supplementalGroupsPolicy: Strict` but the node's runtime does not support it, so kubelet admission rejected the Pod.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["SupplementalGroupsPolicy=%s is not supported in this node"],
    }
    PodLevelResourcesIncompatible {
        meaning: "The Pod uses pod-level resources that the node's CPU or memory manager policy cannot honour; newer kubelets admit the Pod but warn that exclusive CPU or memory alignment is not applied.",
        reference: "kubernetes/kubernetes pkg/kubelet/cm/admission/errors.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
    }
    UnknownReason {
        meaning: "Kubelet admission failed its general checks without a specific reason, so the Pod was rejected; this indicates a kubelet bug or an unusual node state.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["GeneralPredicates failed due to unknown reason, which is unexpected."],
    }
    UnexpectedPredicateFailureType {
        meaning: "A kubelet admission check returned a failure of an unknown kind, so the Pod was rejected; the note carries the raw failure.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["GeneralPredicates failed due to %v, which is unexpected."],
    }
    NodeAffinity {
        meaning: "Kubelet admission found that the node no longer matches the Pod's node selector or affinity (for example a GPU product or driver label was removed by feature discovery after a driver change), so the Pod was rejected.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/framework/plugins/nodeaffinity (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Predicate %s failed: %s", "Predicate %s failed"],
    }
    TaintToleration {
        meaning: "Kubelet admission found a NoExecute taint on the node that the Pod does not tolerate (for example a GPU health or maintenance taint), so the Pod was rejected.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/framework/plugins/tainttoleration (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Predicate %s failed: %s", "Predicate %s failed"],
    }
    NodePorts {
        meaning: "Kubelet admission found that a host port the Pod asks for is already taken on the node, so the Pod was rejected.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/framework/plugins/nodeports (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Predicate %s failed: %s", "Predicate %s failed"],
    }
    NodeName {
        meaning: "Kubelet admission found that the Pod's `spec.nodeName` names another node, so the Pod was rejected.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/framework/plugins/nodename (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Predicate %s failed: %s", "Predicate %s failed"],
    }
    MatchNodeSelector {
        meaning: "Old kubelets rejected the Pod because the node's labels no longer matched its node selector (the predecessor of the `NodeAffinity` admission reason); often seen when GPU node labels changed under running Pods.",
        reference: "kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/algorithm/predicates (v1.18)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Predicate %s failed"],
        retired: true,
    }

    // --- Eviction -----------------------------------------------------------------------------

    Evicted {
        meaning: "The kubelet evicted the Pod under node pressure (memory, ephemeral storage, PIDs) or because it exceeded an ephemeral-storage limit; the note names the starved resource and the containers using most of it, and the Pod ends Failed.",
        reference: "kubernetes/kubernetes pkg/kubelet/eviction/eviction_manager.go, pkg/kubelet/eviction/helpers.go (v1.36; PR #111597)",
        group: Eviction,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "The node was low on resource: %v. ",
            "Threshold quantity: %v, available: %v. ",
            "Container %s was using %s, request is %s, has larger consumption of %v. ",
            "Container %s was using %s, which exceeds its request of %s. ",
            "The node had condition: %v. ",
            "Container %s exceeded its local ephemeral storage limit %q. ",
            "Pod ephemeral local storage usage exceeds the total limit of containers %s. ",
            "Usage of EmptyDir volume %q exceeds the limit %q. ",
        ],
        grammar: Some(&crate::details::node::EVICTED),
    }
    EvictionThresholdMet {
        meaning: "A node-pressure eviction threshold was crossed and the kubelet is trying to reclaim the named resource, first by garbage collection and then by evicting Pods.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/eviction/eviction_manager.go (v1.36)",
        group: Eviction,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Attempting to reclaim %s"],
        grammar: Some(&crate::details::node::EVICTION_THRESHOLD_MET),
    }

    // --- Volumes ------------------------------------------------------------------------------

    FailedMount {
        meaning: "The kubelet could not attach or mount a volume of the Pod (timeout, missing ConfigMap or Secret, CSI or device errors), so the Pod stays in ContainerCreating; large model-cache volumes and shared-memory mounts are frequent culprits for GPU Pods.",
        reference: "kubernetes/kubernetes pkg/kubelet/volumemanager/volume_manager.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Unable to attach or mount volumes: unmounted volumes=[%s], unattached volumes=[%s], failed to process volumes=[%s]: %v",
            "Unable to attach or mount volumes: unmounted volumes=[%s], unattached volumes=[%s]: %v",
            "Unable to mount volumes for pod %q: timeout expired waiting for volumes to attach or mount for pod %q. list of unmounted volumes=%v. list of unattached volumes=%v",
            "Unable to mount volumes for pod %q: timeout expired waiting for volumes to attach/mount for pod %q/%q. list of unattached/unmounted volumes=%v",
            "MountVolume.SetUp failed for volume %q : %v",
            "MountVolume.MountDevice failed for volume %q : %v",
            "MountVolume.WaitForAttach failed for volume %q : %v",
        ],
        grammar: Some(&crate::details::node::FAILED_MOUNT),
    }
    FailedMapVolume {
        meaning: "The kubelet could not map a raw block volume into the Pod, so the Pod stays in ContainerCreating.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["MapVolume.%s failed for volume %q : %v"],
        grammar: Some(&crate::details::node::FAILED_MAP_VOLUME),
    }
    SuccessfulMountVolume {
        meaning: "A volume became available to the Pod. Current kubelets record it only for raw block volumes (MapVolume); filesystem mounts were reported this way by old kubelets.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "MapVolume.MapPodDevice succeeded for volume %q globalMapPath %q",
            "MapVolume.MapPodDevice succeeded for volume %q volumeMapPath %q",
            "MapVolume.MapDevice succeeded for volume %q globalMapPath %q",
            "MountVolume.SetUp succeeded for volume %q",
        ],
    }
    AlreadyMountedVolume {
        meaning: "A volume already mounted by another Pod on the node has a different group owner than this Pod's fsGroup, so it may not be shareable between them.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go (WarnAlreadyMountedVolume), pkg/volume (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["The requested fsGroup is %d, but the volume %s has GID %d. The volume may not be shareable."],
    }
    FailedMountOnFilesystemMismatch {
        meaning: "Mounting a persistent volume failed because the filesystem on the device is not the one the volume declares.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["PersistentVolume"],
        reporting_controllers: &["kubelet"],
    }
    VolumeResizeFailed {
        meaning: "Expanding a volume failed, so the claim keeps its old size.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["PersistentVolumeClaim", "Pod"],
        reporting_controllers: &["kubelet"],
    }
    VolumeResizeSuccessful {
        meaning: "A volume expansion finished.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["PersistentVolumeClaim", "Pod"],
        reporting_controllers: &["kubelet"],
    }
    FileSystemResizeFailed {
        meaning: "The kubelet could not grow the filesystem on an expanded volume (node-side expansion), so the Pod still sees the old size.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Warning],
        objects: &["Pod", "PersistentVolumeClaim"],
        reporting_controllers: &["kubelet"],
    }
    FileSystemResizeSuccessful {
        meaning: "The kubelet grew the filesystem of an expanded volume on the node.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/volume/util/operationexecutor/operation_generator.go (v1.36)",
        group: Volume,
        types: &[Normal],
        objects: &["Pod", "PersistentVolumeClaim"],
        reporting_controllers: &["kubelet"],
    }

    // --- Other pod-level events ---------------------------------------------------------------

    FailedSync {
        meaning: "The kubelet could not work out or apply the Pod's status during a sync and will retry; persistent occurrences point at runtime trouble.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        // The last two up to v1.9 (pod_workers.go, kubelet.go).
        note_formats: &["error determining status: %v", "Error syncing pod, skipping: %v", "Error syncing pod"],
    }
    FailedKillPod {
        meaning: "The kubelet could not stop the Pod's containers or sandbox; the Pod can hang in Terminating and keep its GPUs allocated until the runtime recovers.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Container,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["error killing pod: %v"],
    }
    FailedCreatePodContainer {
        meaning: "The kubelet could not create the Pod-level cgroup (for example because the node is out of memory or cgroup limits), so no container can start.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Sandbox,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["unable to ensure pod container exists: %v"],
    }
    NetworkNotReady {
        meaning: "The node's network plugin (CNI) is not ready, so the kubelet will not start Pods that need Pod networking yet.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Sandbox,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["network is not ready: %v"],
    }
    FailedValidation {
        meaning: "The kubelet ignored a Pod from one of its sources (typically a static Pod manifest) because it failed validation, for example a duplicate name.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/config/config.go (v1.36)",
        group: Admission,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Error validating pod %s from %s due to duplicate pod name %q, ignoring"],
    }
    FailedPrepareDynamicResources {
        meaning: "The kubelet could not prepare the Pod's DRA resource claims through the DRA driver (NodePrepareResources failed, timed out, or the driver is not registered), so the Pod's containers cannot start; with GPU DRA drivers this is often a driver that is down or a device still held by another process.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet.go, pkg/kubelet/cm/dra/manager.go (v1.36)",
        group: Device,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Failed to prepare dynamic resources: %v"],
        grammar: Some(&crate::details::node::PREPARE_DYNAMIC_RESOURCES),
    }

    // --- Node-scoped events -------------------------------------------------------------------

    Starting {
        meaning: "The kubelet process started on the node (also after a restart); device plugins must re-register afterwards.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go (StartingKubelet), pkg/kubelet/kubelet.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Starting kubelet."],
    }
    NodeHasSufficientMemory {
        meaning: "The kubelet reports the node's MemoryPressure condition as False.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeHasNoDiskPressure {
        meaning: "The kubelet reports the node's DiskPressure condition as False.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeHasSufficientPID {
        meaning: "The kubelet reports the node's PIDPressure condition as False.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeReady {
        meaning: "The kubelet reports the node Ready.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeNotReady {
        meaning: "The kubelet reports the node not Ready (runtime down, network plugin not ready, or kubelet starting); new Pods are not admitted there until it recovers.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeHasInsufficientMemory {
        meaning: "The kubelet reports the node's MemoryPressure condition as True; memory evictions may follow.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeHasDiskPressure {
        meaning: "The kubelet reports the node's DiskPressure condition as True; image garbage collection and evictions may follow (large GPU images fill disks quickly).",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeHasInsufficientPID {
        meaning: "The kubelet reports the node's PIDPressure condition as True; evictions may follow.",
        reference: "kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeSchedulable {
        meaning: "The node was uncordoned (`spec.unschedulable` cleared).",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeNotSchedulable {
        meaning: "The node was cordoned (`spec.unschedulable` set), for example for a drain or a GPU driver upgrade.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s status is now: %s"],
        grammar: Some(&crate::details::node::NODE_STATUS),
    }
    NodeAllocatableEnforced {
        meaning: "The kubelet applied the node-allocatable cgroup limits (and any system or kube reserved limits).",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go (SuccessfulNodeAllocatableEnforcement), pkg/kubelet/cm/node_container_manager_linux.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Updated Node Allocatable limit across pods",
            "Updated limits on system reserved cgroup %v",
            "Updated limits on kube reserved cgroup %v",
        ],
    }
    FailedNodeAllocatableEnforcement {
        meaning: "The kubelet could not apply the node-allocatable or reserved cgroup limits, so Pods are not isolated from system daemons as configured.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/cm/node_container_manager_linux.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Failed to update Node Allocatable Limits %q: %v",
            "Failed to enforce System Reserved Cgroup Limits on %q: %v",
            "Failed to enforce Kube Reserved Cgroup Limits on %q: %v",
        ],
    }
    KubeletSetupFailed {
        meaning: "A kubelet module (container manager, including the device and topology managers, OOM watcher or cAdvisor) failed to start; the kubelet usually exits and the node goes NotReady.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "%s",
            "Failed to start ContainerManager %v",
            "Failed to start OOM watcher %v",
            "Failed to start cAdvisor %v",
        ],
    }
    Rebooted {
        meaning: "The node's boot ID changed, so the machine rebooted; running Pods were lost and GPU Pods re-admitted before the device plugin re-registers can fail with UnexpectedAdmissionError.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go (NodeRebooted), pkg/kubelet/nodestatus/setters.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Node %s has been rebooted, boot id: %s"],
        grammar: Some(&crate::details::node::REBOOTED),
    }
    Shutdown {
        meaning: "The kubelet's graceful node shutdown manager saw the node start (or cancel) a shutdown and will terminate Pods within the configured grace periods.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go (NodeShutdown), pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go (v1.36)",
        group: Node,
        types: &[Normal],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["Shutdown manager detected shutdown event", "Shutdown manager detected shutdown cancellation"],
    }
    SystemOOM {
        meaning: "The kernel OOM killer killed a process on the node; the note names the victim. On GPU nodes this often hits data loaders or host-memory-heavy model loading.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/oom/oom_watcher_linux.go (v1.36)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["System OOM encountered, victim process: %s, pid: %d", "System OOM encountered"],
        grammar: Some(&crate::details::node::SYSTEM_OOM),
    }
    InvalidDiskCapacity {
        meaning: "The kubelet read a zero capacity for the image filesystem, so image garbage collection cannot work.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_gc_manager.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["invalid capacity 0 on image filesystem", "invalid capacity %d on device %q at mount point %q"],
    }
    ContainerGCFailed {
        meaning: "Garbage collection of dead containers failed, usually because the container runtime is unreachable.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["%v"],
    }
    ImageGCFailed {
        meaning: "Image garbage collection failed or freed too little space; disk pressure and Pod evictions may follow.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_gc_manager.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["wanted to free %d bytes, but freed %d bytes space with errors in image deletion: %v", "%v"],
    }
    FreeDiskSpaceFailed {
        meaning: "Image garbage collection could not free enough space on the image filesystem because too few images are unused; large CUDA and model images commonly cause this.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/images/image_gc_manager.go (v1.36; PR #132578)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &[
            "Insufficient free disk space on the node's image filesystem (%d%% of %s used). Failed to free sufficient space by deleting unused images (freed %d bytes). Investigate disk usage, as it could be used by active images, logs, volumes, or other data.",
            "Failed to garbage collect required amount of images. Attempted to free %d bytes, but only found %d bytes eligible to free.",
        ],
    }
    CgroupV1 {
        meaning: "The node runs on cgroup v1, which the kubelet only maintains; migrating to cgroup v2 is expected.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet_linux.go, pkg/kubelet/cm/container_manager.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["cgroup v1 support is in maintenance mode, please migrate to cgroup v2"],
    }
    PossibleMemoryBackedVolumesOnDisk {
        meaning: "Swap is enabled but the kernel's tmpfs lacks the noswap option, so memory-backed volumes (Secrets, memory emptyDirs) may be swapped to disk.",
        reference: "kubernetes/kubernetes pkg/kubelet/events/event.go, pkg/kubelet/kubelet.go (v1.36)",
        group: Node,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kubelet"],
        note_formats: &["The tmpfs noswap option is not supported. Memory-backed volumes (e.g. secrets, emptyDirs, etc.) might be swapped to disk and should no longer be considered secure."],
    }
}
