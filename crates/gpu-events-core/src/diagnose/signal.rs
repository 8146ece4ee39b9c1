//! What one record says about its object: the phase it implies and the cause it points at.
//! Typed details decide where they exist; otherwise the catalogue reason (and, for a few
//! TensorFusion errors whose text is the only discriminator, a marker in the note).

use super::{Cause, Confidence, Phase};
use crate::details::node::{KillCause, NodeDetails, OomScope, ProbeKind, RuntimeCause, RuntimePhase};
use crate::details::scheduling::SchedulingDetails;
use crate::details::{Details, EcosystemDetails};
use crate::reason::{
    ClusterAutoscalerReason, ControllerManagerReason, KarpenterReason, KubeletReason, NodeProblemDetectorReason,
    SchedulerReason, TensorFusionReason,
};
use crate::{EventRecord, Reason};

/// The reading of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Signal {
    /// The phase the record implies for its object, if any.
    pub(super) phase: Option<Phase>,
    /// The cause it points at, with how sure the reading is.
    pub(super) cause: Option<(Cause, Confidence)>,
    /// The record sums up other records' errors (the kubelet's `Unable to attach or mount
    /// volumes`): their own causes come first.
    pub(super) summary: bool,
    /// Another cause the same record supports about as well, for "also possible" (a one-node
    /// shortage: nothing advertises the resource, or it is all taken).
    pub(super) also: Option<Cause>,
}

const fn phase(phase: Phase) -> Signal {
    Signal { phase: Some(phase), cause: None, summary: false, also: None }
}

const fn cause(phase: Phase, cause: Cause, confidence: Confidence) -> Signal {
    Signal { phase: Some(phase), cause: Some((cause, confidence)), summary: false, also: None }
}

/// Nothing to say.
const NONE: Signal = Signal { phase: None, cause: None, summary: false, also: None };

/// What a record says.
pub(super) fn read(record: &EventRecord) -> Signal {
    use Confidence::{High, Medium};
    let none = NONE;
    if record.has_flag(crate::record::Flag::FromStatus) && !record.known {
        return container_status(record.reason.as_str(), in_init_container(record), &record.note);
    }
    let Some(reason) = record.reason.reason() else {
        // A GPU component's log line read as evidence (`decode/text/evidence.rs`): its cause,
        // at most Medium (read from a log's words, not a typed detail).
        if record.has_flag(crate::record::Flag::FromLog)
            && let Some(signature) = crate::decode::evidence::by_reason(record.reason.as_str())
        {
            return Signal {
                phase: signature.phase,
                cause: Some((signature.cause, Medium)),
                summary: false,
                also: None,
            };
        }
        // Uncatalogued reasons of GPU health monitors (vendor node-problem-detector rules, DCGM
        // or device-plugin health events) that report an NVIDIA Xid.
        if mentions_xid(record.reason.as_str()) || mentions_xid(&record.note) {
            return cause(Phase::Running, Cause::DeviceFault, Medium);
        }
        return none;
    };
    let details = record.details.as_ref();
    let note = record.note.as_str();
    match reason {
        Reason::KubeScheduler(SchedulerReason::Scheduled) => phase(Phase::ContainerCreating),
        // vc-controller-manager copies the PodGroup's condition onto the Job: the same gang
        // reading as the PodGroup's own `Unschedulable`.
        Reason::Volcano(_) if record.reason == "PodGroupPending" => match details {
            Some(Details::Scheduling(SchedulingDetails::VolcanoPodGroupPending(pending))) => match &pending.gang {
                Some(gang) if gang.job_fit.min_available == Some(1) && gang.unschedulable_tasks >= 1 => {
                    cause(Phase::Pending, Cause::InsufficientResources, Medium)
                }
                Some(_) if is_gang_summary_only(&pending.message) => cause(Phase::Pending, Cause::GangWaiting, Medium),
                _ => cause(Phase::Pending, Cause::Unknown, Medium),
            },
            _ => cause(Phase::Pending, Cause::Unknown, Medium),
        },
        Reason::KubeScheduler(SchedulerReason::FailedScheduling)
        | Reason::Volcano(_)
        | Reason::KaiScheduler(_)
        | Reason::Hami(_)
            if record.reason == "FailedScheduling"
                || record.reason == "Unschedulable"
                || record.reason == "FilteringFailed" =>
        {
            match details {
                Some(Details::Scheduling(SchedulingDetails::FitError(fit)))
                    if super::fit::wrong_scheduler(fit, record.reporting_controller.as_deref()) =>
                {
                    cause(Phase::Pending, Cause::WrongScheduler, Medium)
                }
                Some(Details::Scheduling(SchedulingDetails::FitError(fit))) => match super::fit::cause(fit) {
                    // Inferred from the shape of the cluster, not said by the note.
                    Some(Cause::DevicePluginMissing) => Signal {
                        also: Some(Cause::InsufficientGpu),
                        ..cause(Phase::Pending, Cause::DevicePluginMissing, Medium)
                    },
                    // A histogram that leaves nodes uncounted lost part of its message (a paste
                    // or the note limit cut it): what it says of the rest may not be the cause.
                    Some(cause_) if !super::fit::counts_every_node(fit) => cause(Phase::Pending, cause_, Medium),
                    // Every node short of the accelerator: as likely none advertises it.
                    Some(Cause::InsufficientGpu) if super::fit::short_everywhere(fit) => Signal {
                        also: Some(Cause::DevicePluginMissing),
                        ..cause(Phase::Pending, Cause::InsufficientGpu, Medium)
                    },
                    Some(cause_) => cause(Phase::Pending, cause_, High),
                    None => cause(Phase::Pending, Cause::Unknown, Medium),
                },
                Some(Details::Scheduling(SchedulingDetails::KaiUnschedulable(kai))) => {
                    cause(Phase::Pending, super::fit::kai_cause(kai).unwrap_or(Cause::Unknown), Medium)
                }
                // HAMi's own notes (`1 nodes ModeNotFit(node-a)`) name its filter codes.
                _ if reason_is_hami(reason) && super::fit::hami_code(note).is_some() => {
                    cause(Phase::Pending, super::fit::hami_code(note).unwrap_or(Cause::Unknown), Medium)
                }
                // A scheduler extender's bind refused the node it chose (HAMi: `binding
                // rejected: node X has been locked within 5 minutes`, another Pod's device
                // allocation holds the node): the GPU allocation failed, not the fit.
                _ if note.starts_with("binding rejected") => cause(Phase::Pending, Cause::GpuAllocationFailed, Medium),
                // Karpenter's: the node it launched never initialized (Karpenter waits for the
                // requested extended resources, `nvidia.com/gpu`, to be registered: a GPU driver
                // or device plugin failing on the node keeps it uninitialized).
                _ if note.contains("would schedule against uninitialized nodeclaim") => {
                    cause(Phase::Pending, Cause::NodeNeverReady, Medium)
                }
                // Volcano's enqueue check: the Queue's capability (its quota) cannot take the
                // PodGroup's minResources (`pkg/scheduler/plugins/proportion`, `capacity`).
                _ if note.starts_with("queue resource quota insufficient") => {
                    cause(Phase::Pending, Cause::GpuQuotaExceeded, Medium)
                }
                // A gang of one waits for no other member: its one task does not fit (Volcano
                // gives no per-node reason here; the PodGroup's condition says NotEnoughResources).
                Some(Details::Scheduling(SchedulingDetails::VolcanoGangUnschedulable(gang)))
                    if gang.job_fit.min_available == Some(1) && gang.unschedulable_tasks >= 1 =>
                {
                    cause(Phase::Pending, Cause::InsufficientResources, Medium)
                }
                // `0/0 tasks in gang unschedulable`: no Pod of the gang exists yet (Volcano
                // creates them once the PodGroup is enqueued), so it waits for no member: the
                // enqueue's own reason (a queue's quota) is the cause (corpus 119, 217).
                Some(Details::Scheduling(SchedulingDetails::VolcanoGangUnschedulable(gang)))
                    if gang.total_tasks == 0 =>
                {
                    cause(Phase::Pending, Cause::Unknown, Medium)
                }
                // A Volcano gang that waits for its members, with no per-node reason:
                // `10/16 tasks in gang unschedulable: pod group is not ready, 10 minAvailable`.
                _ if is_gang_summary_only(note) => cause(Phase::Pending, Cause::GangWaiting, Medium),
                _ => cause(Phase::Pending, Cause::Unknown, Medium),
            }
        }
        // KAI's binder could not finish a bind the scheduler decided: a GPU-sharing reservation
        // Pod that never got its GPU is the GPU allocation failing (corpus 285).
        Reason::KaiScheduler(_) if record.reason == "BindingError" => {
            match note.contains("reservation pod") || crate::accelerators::mentions_accelerator(note) {
                true => cause(Phase::Pending, Cause::GpuAllocationFailed, Medium),
                false => cause(Phase::Pending, Cause::Unknown, Medium),
            }
        }
        Reason::KaiScheduler(_) if record.reason == "Bound" => phase(Phase::ContainerCreating),
        Reason::Karpenter(KarpenterReason::Nominated)
        | Reason::ClusterAutoscaler(ClusterAutoscalerReason::TriggeredScaleUp) => {
            cause(Phase::Pending, Cause::NodeExpansionPending, High)
        }
        // Karpenter initializes a node once it is Ready, its startup taints are gone and every
        // extended resource its NodeClaim asked for (`nvidia.com/gpu`, `aws.amazon.com/neuron`)
        // is allocatable: a node that stays uninitialized is most often a device plugin that
        // never registered the resource (corpus 226), else a startup taint no one removes.
        Reason::Karpenter(KarpenterReason::DisruptionBlocked)
            if note.ends_with("isn't initialized") || note.ends_with("is not initialized") =>
        {
            Signal { also: Some(Cause::NodeNeverReady), ..cause(Phase::Running, Cause::DevicePluginMissing, Medium) }
        }
        // Karpenter's consistency check: the node never registered an extended resource its
        // instance type promised (`expected resource "nvidia.com/gpu" didn't register on the
        // node`, nodeclaim/consistency/nodeshape.go): no device plugin serves it there.
        Reason::Karpenter(KarpenterReason::FailedConsistencyCheck) if note.contains("didn't register on the node") => {
            cause(Phase::Running, Cause::DevicePluginMissing, Medium)
        }
        Reason::Karpenter(KarpenterReason::FailedScheduling) if note.contains("against uninitialized nodeclaim") => {
            cause(Phase::Pending, Cause::NodeNeverReady, Medium)
        }
        Reason::Karpenter(KarpenterReason::FailedScheduling) => {
            cause(Phase::Pending, Cause::NodeExpansionFailed, Medium)
        }
        // The scale-up for this Pod was tried and failed (a cloud quota, a stockout): GKE's
        // `Node scale up in zones Z associated with this pod failed: E`.
        Reason::ClusterAutoscaler(ClusterAutoscalerReason::FailedScaleUp) => {
            cause(Phase::Pending, Cause::NodeExpansionFailed, High)
        }
        // A node group that would fit cannot grow (backing off after a failed scale-up, at its
        // maximum size, at a cluster-wide limit): the scale-up, not the shortage it was for,
        // is what failed (cluster-autoscaler core/scaleup/orchestrator.go's skipped reasons).
        Reason::ClusterAutoscaler(ClusterAutoscalerReason::NotTriggerScaleUp)
            if SCALE_UP_LIMITS.iter().any(|limit| note.contains(limit)) =>
        {
            cause(Phase::Pending, Cause::NodeExpansionFailed, Medium)
        }
        // Otherwise it says no node group would fit the Pod either: it sums up the FitError's
        // shortage, which comes first (corpus 144).
        Reason::ClusterAutoscaler(ClusterAutoscalerReason::NotTriggerScaleUp) => {
            Signal { summary: true, ..cause(Phase::Pending, Cause::NodeExpansionFailed, Medium) }
        }
        Reason::TensorFusion(tf) => tensorfusion(tf, note),
        Reason::Kubelet(kubelet) => kubelet_signal(kubelet, record, details),
        // The kernel line says whether a memory cgroup (a container's limit) or the node ran out.
        Reason::NodeProblemDetector(NodeProblemDetectorReason::OOMKilling) => match details {
            Some(Details::Node(NodeDetails::OomKill(kill))) => match kill.scope {
                Some(OomScope::MemoryCgroup) => cause(Phase::Running, Cause::ContainerOom, High),
                Some(OomScope::System) => cause(Phase::Running, Cause::HostOom, High),
                _ => cause(Phase::Running, Cause::HostOom, Medium),
            },
            _ => cause(Phase::Running, Cause::HostOom, Medium),
        },
        // A ResourceQuota refused the Pod: a GPU quota when a GPU resource is over.
        Reason::ControllerManager(ControllerManagerReason::FailedCreate)
            if matches!(details, Some(Details::Node(NodeDetails::ControllerCreateFailed(f)))
                if f.quota.as_ref().is_some_and(|q| q.resources.iter().any(|r| super::fit::is_gpu_resource(&r.resource)))) =>
        {
            cause(Phase::Pending, Cause::GpuQuotaExceeded, High)
        }
        // The RuntimeClass admission plugin rejects the Pod before it exists.
        Reason::ControllerManager(ControllerManagerReason::FailedCreate) if note.contains("RuntimeClass") => {
            cause(Phase::Pending, Cause::RuntimeHandlerMissing, High)
        }
        // The old DaemonSet controller's placement check: the node lacks the resource.
        Reason::ControllerManager(ControllerManagerReason::FailedPlacement) => match details {
            Some(Details::Node(NodeDetails::DaemonPlacementFailed(placement))) => match &placement.insufficient {
                Some(short) => cause(Phase::Pending, shortage(&short.resource), High),
                None => cause(Phase::Pending, Cause::Unknown, Medium),
            },
            _ => cause(Phase::Pending, Cause::Unknown, Medium),
        },
        Reason::ControllerManager(ControllerManagerReason::FailedAttachVolume) => {
            cause(Phase::ContainerCreating, Cause::VolumeMountFailed, High)
        }
        // Kueue holds the Workload for lack of quota in its ClusterQueue: a GPU quota only when
        // the message names a GPU resource.
        Reason::Kueue(_) if record.reason == "Pending" && crate::accelerators::mentions_accelerator(note) => {
            cause(Phase::Pending, Cause::GpuQuotaExceeded, Medium)
        }
        Reason::Kueue(_) if record.reason == "Pending" => cause(Phase::Pending, Cause::Unknown, Medium),

        // An accelerator fault reported by the device plugin: the device itself is faulty.
        Reason::AscendDevicePlugin(_) if record.reason == "Occur" => cause(Phase::Running, Cause::DeviceFault, High),

        _ => match details {
            Some(Details::Ecosystem(EcosystemDetails::KarpenterEvicted(_))) => phase(Phase::Evicted),
            _ => none,
        },
    }
}

/// cluster-autoscaler's reasons for skipping a node group that would fit the Pod
/// (`NotTriggerScaleUp`'s `%d <reason>` list; core/scaleup/orchestrator.go,
/// processors/status/scale_up_status_processor.go, v1.24–v1.34): the group cannot grow.
/// `max cluster %s limit reached` and GKE's `Max cluster limit reached` end in `limit reached`.
const SCALE_UP_LIMITS: &[&str] =
    &["in backoff after failed scale-up", "max node group size reached", "not ready for scale-up", "limit reached"];

/// Whether the reason is HAMi's.
fn reason_is_hami(reason: Reason) -> bool {
    matches!(reason, Reason::Hami(_))
}

/// Whether a scheduling note is only a Volcano gang summary (`M/N tasks in gang unschedulable:
/// pod group is not ready` or 2019's `job is not ready`, with counts), without the per-task
/// node reasons that would name a shortage (`Pending: 1 Unschedulable` followed by a FitError).
fn is_gang_summary_only(note: &str) -> bool {
    let Some((_, rest)) = note.split_once("tasks in gang unschedulable: ") else { return false };
    (rest.starts_with("pod group is not ready") || rest.starts_with("job is not ready"))
        && !rest.contains("nodes are")
        && !rest.contains("Insufficient")
}

/// Whether a kubelet `Failed` note is a container config error naming a missing ConfigMap or
/// Secret (or key).
fn is_missing_config(note: &str) -> bool {
    use crate::details::node::VolumeProblem as P;
    note.starts_with("Error: ")
        && matches!(
            P::find(note),
            Some(
                P::SecretNotFound { .. }
                    | P::ConfigMapNotFound { .. }
                    | P::SecretKeyNotFound { .. }
                    | P::ConfigMapKeyNotFound { .. }
            )
        )
}

/// Whether the record is about an init container (its `fieldPath`).
fn in_init_container(record: &EventRecord) -> bool {
    match record.regarding.field_path.as_deref() {
        Some(path) => path.starts_with("spec.initContainers"),
        // A status that says an init container without naming it (`Init:CrashLoopBackOff`);
        // a back-off note that names a container GPU components run as an init container.
        None => {
            (record.has_flag(crate::Flag::FromStatus) && record.note.starts_with("init container "))
                || back_off_container(record).is_some_and(crate::accelerators::is_init_container)
        }
    }
}

/// The container a back-off note names (`Back-off restarting failed container C in pod P`).
pub(super) fn back_off_container(record: &EventRecord) -> Option<&str> {
    match &record.details {
        Some(Details::Node(NodeDetails::RestartBackOff(back_off))) => back_off.container.as_deref(),
        _ => None,
    }
}

/// The cause of a node lacking `resource`: GPUs, or something else.
fn shortage(resource: &str) -> Cause {
    if super::fit::is_gpu_resource(resource) { Cause::InsufficientGpu } else { Cause::InsufficientResources }
}

/// A container state reason read from a pasted Pod status (`State: Waiting` / `Last State:
/// Terminated`), which is not an event reason.
fn container_status(reason: &str, init: bool, note: &str) -> Signal {
    use Confidence::{High, Medium};
    // A state with the kubelet's message (`state.waiting.message`): a start failure's runtime
    // error chain names its cause as the kubelet's `Failed` event would.
    // The readers' own `container NAME status: REASON` says nothing the reason does not.
    let synthetic = note.strip_suffix(reason).is_some_and(|n| n.ends_with("status: "));
    let said = !note.is_empty() && !synthetic;
    // The runtime's reasons for a container it failed to start (containerd's `StartError`,
    // dockershim's `ContainerCannotRun`, the kubelet's `RunContainerError`) say what failed
    // even without a message: the start, not the program.
    let start = matches!(reason, "RunContainerError") || crate::decode::START_FAILURES.contains(&reason);
    if (matches!(reason, "CreateContainerError") || start) && said {
        let failure = crate::details::node::RuntimeFailure::classify(None, note);
        return match runtime_cause(&failure.cause, note) {
            Cause::Unknown if start || failure.phase.is_some() => {
                cause(Phase::ContainerCreating, Cause::ContainerStartFailed, Medium)
            }
            Cause::Unknown => cause(Phase::ContainerCreating, Cause::Unknown, Medium),
            found => cause(Phase::ContainerCreating, found, Medium),
        };
    }
    if start {
        return cause(Phase::ContainerCreating, Cause::ContainerStartFailed, Medium);
    }
    match reason {
        "OOMKilled" => cause(Phase::OomKilled, Cause::ContainerOom, High),
        "CrashLoopBackOff" if init => cause(Phase::InitCrashLoopBackOff, Cause::CrashLoop, High),
        "CrashLoopBackOff" => cause(Phase::CrashLoopBackOff, Cause::CrashLoop, High),
        "ImagePullBackOff" | "ErrImagePull" | "InvalidImageName" | "ErrImageNeverPull" => {
            cause(Phase::ContainerCreating, Cause::ImagePullFailed, High)
        }
        "CreateContainerConfigError" => cause(Phase::ContainerCreating, Cause::ConfigNotFound, Medium),
        // The runtime could not create the container and the input has no message saying why:
        // a create failure (rule 17), at Low.
        "CreateContainerError" => cause(Phase::ContainerCreating, Cause::ContainerStartFailed, Confidence::Low),
        // A Pod seen waiting (`pod status: Pending`, a Normal record): stuck, why unknown here.
        "Pending" if synthetic => cause(Phase::Pending, Cause::Unknown, Confidence::Low),
        "ContainerCreating" if synthetic => cause(Phase::ContainerCreating, Cause::Unknown, Confidence::Low),
        // A Node with fewer of an accelerator allocatable than it has: none at all, no device
        // plugin serves them; some, the plugin withholds the devices it finds unhealthy.
        crate::decode::ALLOCATABLE_BELOW_CAPACITY if note.contains(": allocatable 0 of") => {
            cause(Phase::Running, Cause::DevicePluginMissing, Medium)
        }
        crate::decode::ALLOCATABLE_BELOW_CAPACITY => cause(Phase::Running, Cause::DeviceFault, Medium),
        // Resources pasted with no accelerator among them, and no Node of the input lists one:
        // nothing registered one there (Low: the node may be a CPU node the paste shows for
        // another reason).
        crate::decode::NO_ACCELERATOR_LISTED => cause(Phase::Running, Cause::DevicePluginMissing, Confidence::Low),
        // A Pod seen `Failed` (describe's `Status:`): done for good; its containers' states say why.
        "Failed" if synthetic => cause(Phase::Failed, Cause::Unknown, Confidence::Low),
        "ContainerCreating" | "PodInitializing" => phase(Phase::ContainerCreating),
        _ => NONE,
    }
}

fn tensorfusion(reason: TensorFusionReason, note: &str) -> Signal {
    use Confidence::{High, Medium};
    use TensorFusionReason as T;
    match reason {
        T::GPUQuotaOrCapacityNotEnough if note.contains("quota exceeded") => {
            cause(Phase::Pending, Cause::GpuQuotaExceeded, High)
        }
        T::GPUQuotaOrCapacityNotEnough => cause(Phase::Pending, Cause::TensorfusionCapacity, High),
        T::GPUInterconnectTopologyUnsatisfied => cause(Phase::Pending, Cause::TopologyUnsatisfied, High),
        T::GangWaitingForMembers | T::GangManagerWaitingForMembers => cause(Phase::Pending, Cause::GangWaiting, High),
        T::GangSchedulingTimeout | T::GangManagerSchedulingTimeout => cause(Phase::Pending, Cause::GangTimeout, High),
        T::GangStrictRejected => cause(Phase::Pending, Cause::GangRejected, High),
        T::PartitionTemplateMatchFailed => cause(Phase::Pending, Cause::PartitionTemplateMismatch, High),
        T::GPUDeviceAllocatedFailed | T::ContainerGPUAllocationFailed | T::CommitFailed => {
            cause(Phase::Pending, Cause::GpuAllocationFailed, High)
        }
        T::NodeExpansionCheck if note.starts_with("all schedulable nodes are none GPU nodes") => {
            cause(Phase::Pending, Cause::NodeExpansionFailed, Medium)
        }
        T::NodeExpansionCheck if note.starts_with("pod scheduling failure not due to GPU") => {
            cause(Phase::Pending, Cause::Unknown, Medium)
        }
        T::NodeExpansionCheck if note.starts_with("failed to schedule pod after") => {
            cause(Phase::Pending, Cause::NodeExpansionFailed, High)
        }
        T::NodeExpansionCheck if note.starts_with("new node provisioned") => phase(Phase::ContainerCreating),
        T::NodeExpansionCheck | T::NodeExpansionCompleted => cause(Phase::Pending, Cause::NodeExpansionPending, High),
        T::NodeExpansionFailed | T::NodeExpansionCandidatesExhausted => {
            cause(Phase::Pending, Cause::NodeExpansionFailed, High)
        }
        T::NodeExpansionCandidateFailed => cause(Phase::Pending, Cause::NodeExpansionPending, Medium),
        T::MaxResourceConstraintReached => cause(Phase::Running, Cause::NodeExpansionFailed, High),
        T::HypervisorCrashLoopRecreate => cause(Phase::Running, Cause::CrashLoop, High),
        T::DriverProbeFailed => cause(Phase::Failed, Cause::CudaDriverMismatch, Medium),
        T::GPUDeviceAllocated | T::PreScheduleDone | T::GangScheduled | T::GangManagerScheduled => NONE,
        _ => NONE,
    }
}

fn kubelet_signal(reason: KubeletReason, record: &EventRecord, details: Option<&Details>) -> Signal {
    use Confidence::{High, Medium};
    use KubeletReason as K;
    let init = in_init_container(record);
    let crash_phase = if init { Phase::InitCrashLoopBackOff } else { Phase::CrashLoopBackOff };
    let node_details = match details {
        Some(Details::Node(d)) => Some(d),
        _ => None,
    };
    match reason {
        K::Pulled | K::Created | K::Pulling => phase(Phase::ContainerCreating),
        K::Started => phase(Phase::Running),
        K::BackOff => match node_details {
            Some(NodeDetails::ImagePullBackOff(_)) => cause(Phase::ContainerCreating, Cause::ImagePullFailed, High),
            _ if record.note.starts_with("Back-off pulling image") => {
                cause(Phase::ContainerCreating, Cause::ImagePullFailed, High)
            }
            _ => cause(crash_phase, Cause::CrashLoop, High),
        },
        // `Error: secret "x" not found`, `Error: couldn't find key K in ConfigMap ns/x`.
        K::Failed if is_missing_config(&record.note) => cause(Phase::ContainerCreating, Cause::ConfigNotFound, High),
        K::Failed | K::FailedCreatePodSandBox => match node_details {
            Some(NodeDetails::ImagePullFailed(_)) => cause(Phase::ContainerCreating, Cause::ImagePullFailed, High),
            Some(NodeDetails::RuntimeFailure(failure)) => match runtime_cause(&failure.cause, &failure.error) {
                // The runtime failed to create or start the container, for no reason known
                // here (a spec it could not generate, a mount propagation it refused).
                Cause::Unknown
                    if matches!(failure.phase, Some(RuntimePhase::CreateContainer | RuntimePhase::StartContainer)) =>
                {
                    cause(Phase::ContainerCreating, Cause::ContainerStartFailed, Medium)
                }
                Cause::Unknown => cause(Phase::ContainerCreating, Cause::Unknown, Medium),
                found => {
                    Signal { also: nvidia_handler(&failure.cause), ..cause(Phase::ContainerCreating, found, High) }
                }
            },
            Some(NodeDetails::ContainerWaiting(waiting)) if waiting.reason.contains("Image") => {
                cause(Phase::ContainerCreating, Cause::ImagePullFailed, Medium)
            }
            _ => cause(Phase::ContainerCreating, Cause::Unknown, Medium),
        },
        // The kubelet's own count at admission: the node's GPUs (or CPU, memory) are all in use.
        K::OutOfResource => match node_details {
            Some(NodeDetails::OutOfResource(short)) => cause(Phase::Failed, shortage(&short.resource), High),
            // A note cut or in other words: the reason names the resource (`OutOfcpu`).
            _ => match record.reason.family_member() {
                Some(resource) if !super::fit::is_gpu_resource(resource) => {
                    cause(Phase::Failed, Cause::InsufficientResources, Medium)
                }
                // The kubelet counted the alpha GPUs itself (1.6-1.10): no plugin to blame.
                Some(resource) if resource.starts_with("alpha.kubernetes.io/") => {
                    cause(Phase::Failed, Cause::InsufficientGpu, Medium)
                }
                _ => cause(Phase::Failed, Cause::DevicePluginUnavailable, Medium),
            },
        },
        // Admission preemption for a critical Pod found nothing to evict: the node is short of
        // what the kubelet lists (`pods`: its max-pods), no device plugin is involved.
        K::UnexpectedAdmissionError
            if let Some(Details::Node(NodeDetails::UnexpectedAdmission(admission))) = details
                && let Some(short) = admission.shortfall.first() =>
        {
            let gpu = admission.shortfall.iter().find(|s| super::fit::is_gpu_resource(&s.resource));
            cause(Phase::Failed, shortage(&gpu.unwrap_or(short).resource), High)
        }
        // The plugin answered that a device is gone (`nvml: GPU is lost`, an Xid): the device
        // is at fault, not the plugin.
        K::UnexpectedAdmissionError if names_device_fault(&record.note) => {
            cause(Phase::Failed, Cause::DeviceFault, High)
        }
        // The plugin's Allocate answered with an error of its own (`Allocate failed due to rpc
        // error: code = Unknown desc = ...`: HAMi's `device number not matched`, gpushare's
        // `failed to find gpu id`, a vGPU plugin's `remain 0`): it is up and refused the devices
        // the scheduler chose for the Pod, an allocation that failed (corpus 116, 225, 256);
        // the plugin's own state is the runner-up.
        K::UnexpectedAdmissionError
            if record.note.contains("code = Unknown desc")
                && !record.note.contains("GetPreferredAllocation")
                && record.note.starts_with("Allocate failed due to") =>
        {
            Signal {
                also: Some(Cause::DevicePluginUnavailable),
                ..cause(Phase::Failed, Cause::GpuAllocationFailed, Medium)
            }
        }
        // The plugin answered with an error of its own elsewhere (GetPreferredAllocation, a
        // vendor plugin's words the kubelet's forms do not cover): it is up, and its words say
        // more than "unavailable" can: no High on the plugin's state.
        K::UnexpectedAdmissionError
            if record.note.contains("code = Unknown desc")
                || matches!(details, Some(Details::Node(NodeDetails::UnexpectedAdmission(a))) if a.cause == crate::details::node::AllocationCause::Other) =>
        {
            cause(Phase::Failed, Cause::DevicePluginUnavailable, Medium)
        }
        K::UnexpectedAdmissionError => cause(Phase::Failed, Cause::DevicePluginUnavailable, High),
        K::Evicted => cause(Phase::Evicted, Cause::NodePressureEviction, High),
        K::SystemOOM => cause(Phase::Running, Cause::HostOom, High),
        // A hostPath of the GPU driver's install directory that is not there (GKE's
        // `/home/kubernetes/bin/nvidia`, `/usr/local/nvidia`): the driver is not installed.
        K::FailedMount if is_missing_driver_path(&record.note) => {
            cause(Phase::ContainerCreating, Cause::CudaDriverMismatch, High)
        }
        // The kubelet's summary after a volume's own error (`Unable to attach or mount volumes:
        // unmounted volumes=[x] ...: timed out waiting for the condition`) names no cause.
        K::FailedMount if record.note.starts_with("Unable to attach or mount volumes") => {
            Signal { summary: true, ..cause(Phase::ContainerCreating, Cause::VolumeMountFailed, Medium) }
        }
        K::FailedMount | K::FailedMapVolume => cause(Phase::ContainerCreating, Cause::VolumeMountFailed, High),
        // The claim's driver has no kubelet plugin on the node: that, not the claim, is the fault.
        K::FailedPrepareDynamicResources if matches!(&record.details, Some(Details::Node(NodeDetails::DynamicResourcesFailed(f))) if f.unregistered) => {
            cause(Phase::ContainerCreating, Cause::DraDriverMissing, High)
        }
        K::FailedPrepareDynamicResources => cause(Phase::ContainerCreating, Cause::DraPrepareFailed, High),
        // A GPU container's probe that runs `nvidia-smi` and finds no GPU, or reports an Xid.
        K::Unhealthy if names_device_fault(&record.note) => cause(Phase::Running, Cause::DeviceFault, Medium),
        // A probe that fails again and again: the server never comes up (GPU inference servers
        // load their model for minutes). Readiness alone keeps traffic away, and restarts
        // nothing: the surer causes are startup and liveness.
        K::Unhealthy => match details {
            Some(Details::Node(NodeDetails::ProbeFailed(probe))) if probe.probe == ProbeKind::Readiness => {
                cause(Phase::Running, Cause::ProbeFailing, Medium)
            }
            Some(Details::Node(NodeDetails::ProbeFailed(_))) => cause(Phase::Running, Cause::ProbeFailing, High),
            _ => phase(Phase::Running),
        },
        K::Killing => match details {
            Some(Details::Node(NodeDetails::ContainerKilling(killing)))
                if matches!(killing.cause, KillCause::LivenessProbeFailed | KillCause::StartupProbeFailed) =>
            {
                cause(Phase::Running, Cause::ProbeFailing, High)
            }
            _ => NONE,
        },
        _ => NONE,
    }
}

/// Whether a note says an accelerator itself is gone or faulty: NVML's `GPU is lost`, the
/// driver's `has fallen off the bus`, `nvidia-smi`'s `No devices were found`, or an Xid.
fn names_device_fault(note: &str) -> bool {
    ["GPU is lost", "fallen off the bus", "No devices were found", "GPU requires reset"]
        .iter()
        .any(|m| note.contains(m))
        || mentions_xid(note)
}

/// Whether a FailedMount note is a hostPath type check of a GPU driver directory that is not
/// there (`hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory`).
fn is_missing_driver_path(note: &str) -> bool {
    note.split_once("hostPath type check failed: ").is_some_and(|(_, path)| {
        let path = path.split_whitespace().next().unwrap_or("");
        path.contains("nvidia") || path.contains("/opt/rocm") || path.contains("/dev/kfd")
    })
}

/// Whether `text` names an NVIDIA Xid (`Xid=79`, `NVRM: Xid (PCI:0000:3b:00): 79`,
/// `XidCriticalError`, `GPUXidError`): `Xid`/`XID` not inside a lower-case word.
pub(super) fn mentions_xid(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices("Xid").chain(text.match_indices("XID")).chain(text.match_indices("xid")).any(|(at, m)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + 3).copied();
        let lower_word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_lowercase());
        let inside_word = if m == "xid" {
            before.is_some_and(|b| b.is_ascii_alphanumeric()) || after.is_some_and(|b| b.is_ascii_alphabetic())
        } else {
            lower_word(before) || lower_word(after)
        };
        !inside_word
    })
}

/// A runtime failure's cause, with the GPU markers that point at the driver.
/// `nvidia-runtime-missing` as the other reading of a missing handler named for NVIDIA's runtime
/// (the container toolkit configures that handler in containerd or CRI-O).
fn nvidia_handler(runtime: &RuntimeCause) -> Option<Cause> {
    match runtime {
        RuntimeCause::RuntimeHandlerMissing { handler } if handler.to_ascii_lowercase().contains("nvidia") => {
            Some(Cause::NvidiaRuntimeMissing)
        }
        _ => None,
    }
}

fn runtime_cause(runtime: &RuntimeCause, error: &str) -> Cause {
    let lower = error.to_ascii_lowercase();
    if lower.contains("driver not loaded")
        || lower.contains("libnvidia-ml")
        || lower.contains("cuda driver version is insufficient")
        || lower.contains("driver/library version mismatch")
    {
        return Cause::CudaDriverMismatch;
    }
    match runtime {
        // The runtime says which layer failed: no handler of that name in its configuration
        // (`no runtime for "nvidia" is configured`) is the handler, whatever its name; the
        // NVIDIA runtime missing is its binary not found (below). A missing `nvidia` handler
        // is most often the toolkit never configured: an "also possible" ([`nvidia_handler`]).
        RuntimeCause::RuntimeHandlerMissing { .. } | RuntimeCause::RuntimeClassNotFound { .. } => {
            Cause::RuntimeHandlerMissing
        }
        RuntimeCause::CdiDevicesUnresolvable { .. } | RuntimeCause::CdiInjectionFailed { .. } => {
            Cause::CdiDeviceUnresolvable
        }
        RuntimeCause::RuntimeBinaryMissing { path } if path.contains("nvidia") => Cause::NvidiaRuntimeMissing,
        // The toolkit's hook ran and failed (a mount, a cgroup, an initialization error): the
        // runtime is there; the container failed to start.
        RuntimeCause::NvidiaContainerCli { .. } => Cause::ContainerStartFailed,
        RuntimeCause::RuntimeBinaryMissing { .. } => Cause::RuntimeHandlerMissing,
        RuntimeCause::CriSocketUnavailable { .. } => Cause::CriUnavailable,
        RuntimeCause::PodNetworkFailed { .. } => Cause::PodNetworkFailed,
        RuntimeCause::ContainerInitOomKilled => Cause::ContainerOom,
        // Kata/CoCo GPU cold plug reads the kubelet's PodResources API to plug the device.
        RuntimeCause::DeviceColdPlugFailed { .. } => Cause::ColdPlugFailed,
        _ => Cause::Unknown,
    }
}
