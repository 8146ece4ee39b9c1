//! TensorFusion reasons (NexusGPU/tensor-fusion): the scheduler plugins, gang manager, node
//! expander and operator controllers. Source: main @3e0a490 (v2.17.1), v1 branch @c7a2417, and
//! the newer v1-line PRs #769–#777 (node-expansion candidate fallback); retired rows come from
//! older releases.

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by TensorFusion components. The scheduler plugins report as
    /// `tensor-fusion-scheduler`, the gang manager as `GangScheduler`, the node expander as
    /// `TensorFusionScheduler`, the controllers under their own names. The three gang reasons
    /// emitted by both the plugin and the gang manager have one row per reporter.
    pub enum TensorFusionReason in TensorFusion;

    PreScheduleDone {
        meaning: "The TensorFusion scheduler plugin finished PreFilter for a GPU workload Pod; the note gives how many nodes have at least one GPU that matches the request.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:304 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["pre filter for TensorFusion workload"],
        note_formats: &["TensorFusion pre schedule done, valid GPU node count: %d"],
        grammar: Some(&crate::details::tensorfusion::PRE_SCHEDULE_DONE),
    }
    GPUDeviceAllocated {
        meaning: "The scheduler plugin reserved GPUs for the Pod and wrote their device IDs into its annotations (PreBind on main, PostBind on the v1 line); the note lists the GPU names.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:1036 @3e0a490 (main); v1 line gpuresources.go:747 @c7a2417",
        group: SchedulingAllocation,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Attach GPU device ID info"],
        note_formats: &["Attach TensorFusion GPU device IDs to Pod: %s"],
        grammar: Some(&crate::details::tensorfusion::GPU_DEVICE_ALLOCATED),
    }
    PodIndexAllocationPending {
        meaning: "The Pod's TensorFusion index on the node is still held by another Pod; it will be patched in once that Pod releases it. The note gives the index and the node.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:1046 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Pod index allocation pending"],
        note_formats: &["Index %d will be patched into pod after released by other pod on the same node: %s"],
        grammar: Some(&crate::details::tensorfusion::POD_INDEX_ALLOCATION_PENDING),
    }
    ScheduleWithNativeGPU {
        meaning: "In progressive-migration mode the Pod asks for native GPU resources, so the scheduler plugin lets it use plain GPUs; the note counts the nodes not used by TensorFusion.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:167 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Scheduling non-TF workload for progressive migration"],
        note_formats: &["use native GPU resources, available native GPU nodes: %d"],
        grammar: Some(&crate::details::tensorfusion::SCHEDULE_WITH_NATIVE_GPU),
    }
    GPUQuotaOrCapacityNotEnough {
        meaning: "The TensorFusion scheduler plugin could not place the Pod: a GPU quota is exhausted or no GPU in the pool passes the filters; the note carries the quota or filter error. The Pod stays Pending until quota or capacity frees up.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:209 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["check quota and filter"],
        note_formats: &["TensorFusion schedule failed, no enough resource or quotas: %s"],
        grammar: Some(&crate::details::tensorfusion::GPU_QUOTA_OR_CAPACITY_NOT_ENOUGH),
    }
    PartitionTemplateMatchFailed {
        meaning: "For partitioned GPU isolation, no partition template fits the Pod's TFLOPS/VRAM request on the available GPUs; the Pod cannot be placed until a fitting partition exists.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:229 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["match partition template"],
        note_formats: &["Failed to match partition template: %s"],
        grammar: Some(&crate::details::tensorfusion::PARTITION_TEMPLATE_MATCH_FAILED),
    }
    GPUDeviceAllocatedFailed {
        meaning: "Writing the allocated GPU device IDs onto the Pod failed after retries, so the allocation was rolled back; the Pod will be retried by the scheduler.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:1024 @3e0a490 (main); v1 line gpuresources.go:750 @c7a2417",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Attach GPU device ID info failed"],
        note_formats: &["Can not add GPU device IDs: %s"],
        grammar: Some(&crate::details::tensorfusion::GPU_DEVICE_ALLOCATED_FAILED),
    }
    ContainerGPUAllocationFailed {
        meaning: "The plugin could not map the Pod's allocated GPUs onto its individual containers (bad per-container GPU counts or too few GPUs); binding continues, but a container may end up without its GPUs.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:987 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Failed to allocate GPUs to containers"],
        note_formats: &["Error: %v"],
        grammar: Some(&crate::details::tensorfusion::CONTAINER_GPU_ALLOCATION_FAILED),
    }
    CommitFailed {
        meaning: "The GPU allocator could not commit the Pod's assumed allocation after retries; the Pod's GPU reservation is lost and it will be rescheduled.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:911 @3e0a490 (main)",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["GPU allocation commit failed"],
        note_formats: &["Commit failed for pod %s after retries: %v"],
        grammar: Some(&crate::details::tensorfusion::COMMIT_FAILED),
    }
    GPUInterconnectTopologyFallback {
        meaning: "GPU interconnect topology data is missing for some nodes, so topology-aware scheduling fell back to NUMA-level or unknown placement for them.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gputopo/gpu_network_topo.go:205 @3e0a490 (main)",
        group: Topology,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["topology evaluation"],
        note_formats: &["Topology data incomplete, fell back to NUMA or unknown for some nodes"],
    }
    GPUInterconnectTopologyUnsatisfied {
        meaning: "A hard GPU topology constraint cannot be met: no node can give the Pod GPUs within the allowed interconnect tier, so the Pod stays Pending.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gputopo/gpu_network_topo.go:209 @3e0a490 (main)",
        group: Topology,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["topology evaluation"],
        note_formats: &["No node satisfies GPU topology constraint (mode=hard, maxTier=%d)"],
        grammar: Some(&crate::details::tensorfusion::GPU_INTERCONNECT_TOPOLOGY_UNSATISFIED),
    }
    GangWaitingForMembers {
        meaning: "The scheduler plugin's Permit holds this gang member until enough other members of its group can be scheduled; the note names the group.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:828 @3e0a490 (main)",
        group: Gang,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Waiting for gang members"],
        note_formats: &["Waiting for other members in group %s"],
        grammar: Some(&crate::details::tensorfusion::GANG_MEMBERS_WAITING),
    }
    GangManagerWaitingForMembers = "GangWaitingForMembers" {
        meaning: "The gang manager reports that the Pod's gang is still below quorum; the note counts ready members against the required number.",
        reference: "NexusGPU/tensor-fusion internal/gang/manager.go:833 @3e0a490 (main)",
        group: Gang,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["GangScheduler"],
        actions: &["Waiting"],
        note_formats: &["Waiting for gang members: %d/%d ready"],
        grammar: Some(&crate::details::tensorfusion::GANG_MEMBERS_WAITING),
    }
    GangScheduled {
        meaning: "The scheduler plugin saw the gang reach quorum and released all waiting members; recorded on the Pod that completed the group.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:822 @3e0a490 (main)",
        group: Gang,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Gang scheduling complete"],
        note_formats: &["All gang members ready for group %s"],
        grammar: Some(&crate::details::tensorfusion::GANG_SCHEDULED),
    }
    GangManagerScheduled = "GangScheduled" {
        meaning: "The gang manager scheduled the whole Pod group; recorded on a representative Pod, with the group and its member count.",
        reference: "NexusGPU/tensor-fusion internal/gang/manager.go:1092 @3e0a490 (main)",
        group: Gang,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["GangScheduler"],
        actions: &["Scheduled"],
        note_formats: &["Pod group %s scheduled with %d members"],
        grammar: Some(&crate::details::tensorfusion::GANG_SCHEDULED),
    }
    GangSchedulingTimeout {
        meaning: "The gang did not reach quorum before its timeout, so the scheduler plugin rejected the waiting member; the group's Pods go back to Pending and release their reservations.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:834 @3e0a490 (main)",
        group: Gang,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Gang scheduling timeout"],
        note_formats: &["Gang scheduling timeout for group %s"],
        grammar: Some(&crate::details::tensorfusion::GANG_SCHEDULING_TIMEOUT),
    }
    GangManagerSchedulingTimeout = "GangSchedulingTimeout" {
        meaning: "The gang manager timed the Pod group out before quorum; recorded on a representative waiting Pod with how many members were ready. The group's reservations are released.",
        reference: "NexusGPU/tensor-fusion internal/gang/manager.go:1040 @3e0a490 (main)",
        group: Gang,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["GangScheduler"],
        actions: &["Timeout"],
        note_formats: &["Pod group %s timed out with %d/%d members ready"],
        grammar: Some(&crate::details::tensorfusion::GANG_SCHEDULING_TIMEOUT),
    }
    GangStrictRejected {
        meaning: "In strict gang mode one member could not be scheduled, so the whole group was rejected; none of its Pods are placed until all can be.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/gpuresources/gpuresources.go:775 @3e0a490 (main)",
        group: Gang,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["tensor-fusion-scheduler"],
        actions: &["Gang strict-rejected"],
        note_formats: &["Gang group %s rejected because member %s could not be scheduled"],
        grammar: Some(&crate::details::tensorfusion::GANG_STRICT_REJECTED),
    }
    NodeExpansionCheck {
        meaning: "The node expander checked whether a pending Pod needs a new GPU node; the action tells the outcome (schedulable, pre-scheduled on an in-flight node, delegated to Karpenter, scheduled). As a Warning (NoGPUNodes, NonGPUIssue, ScheduleTimeout) it means expansion cannot help and the Pod needs a manual look.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/expander/handler.go:82,205,212,245,257,261,267,331,338 @3e0a490 (main); v1 wording at handler.go:221,228,276 @c7a2417",
        group: NodeExpansion,
        types: &[Normal, Warning],
        objects: &["Pod"],
        reporting_controllers: &["TensorFusionScheduler"],
        actions: &[
            "Scheduled",
            "DelegateToKarpenter",
            "NoGPUNodes",
            "PreScheduled",
            "Schedulable",
            "NonGPUIssue",
            "ScheduleTimeout",
        ],
        note_formats: &[
            "new node provisioned and pod scheduled successfully",
            "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion. error: %v",
            "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion, 0 fit nodes",
            "all schedulable nodes are none GPU nodes, manual check required",
            "fit in-flight GPU resources, pod should be scheduled after new node is provisioned",
            "fit GPU resources, pod should be scheduled now or a while later on existing/provisioning nodes",
            "pod scheduling failure not due to GPU resources, manual check required",
            "failed to schedule pod after 10 minutes",
        ],
        grammar: Some(&crate::details::tensorfusion::NODE_EXPANSION_CHECK),
    }
    NodeExpansionCompleted {
        meaning: "The node expander created a GPUNodeClaim or Karpenter NodeClaim to provision a new GPU node for the pending Pod; the note names the claim.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/expander/handler.go:721,770 @3e0a490 (main)",
        group: NodeExpansion,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["TensorFusionScheduler"],
        actions: &["Created"],
        note_formats: &[
            "created new GPUNodeClaim for node expansion: %s",
            "created new NodeClaim for node expansion: %s",
        ],
        grammar: Some(&crate::details::tensorfusion::NODE_EXPANSION_COMPLETED),
    }
    NodeExpansionFailed {
        meaning: "Node expansion could not help the pending Pod: no candidate GPU node type fits, or creating the GPUNodeClaim/NodeClaim failed; the Pod stays Pending.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/expander/handler.go:298,717,765 @3e0a490 (main)",
        group: NodeExpansion,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["TensorFusionScheduler"],
        actions: &["Failed", "CreateFailed"],
        note_formats: &[
            "failed to satisfy the pending pod, no potential GPU nodes can fit",
            "failed to create new GPUNodeClaim: %v",
            "failed to create new NodeClaim: %v",
        ],
        grammar: Some(&crate::details::tensorfusion::NODE_EXPANSION_FAILED),
    }
    NodeExpansionCandidateFailed {
        meaning: "A Karpenter NodeClaim created for the Pod failed for insufficient cloud capacity and was deleted; the expander moves on to the next expansion preference.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/expander/handler.go (v1 line, PRs #769–#777; not on main @3e0a490)",
        group: NodeExpansion,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["TensorFusionScheduler"],
        actions: &[],
        note_formats: &["Karpenter NodeClaim %s failed due to insufficient capacity; trying the next expansion preference"],
        grammar: Some(&crate::details::tensorfusion::NODE_EXPANSION_CANDIDATE_FAILED),
    }
    NodeExpansionCandidatesExhausted {
        meaning: "Every Karpenter expansion preference, including the relaxed fallback, failed for lack of capacity; no new node will be provisioned and the Pod stays Pending.",
        reference: "NexusGPU/tensor-fusion internal/scheduler/expander/handler.go (v1 line, PRs #769–#777; not on main @3e0a490)",
        group: NodeExpansion,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["TensorFusionScheduler"],
        actions: &[],
        note_formats: &["all Karpenter expansion preferences, including the relaxed fallback, have failed"],
    }
    ManagedNodeCreated {
        meaning: "The GPU pool provisioned a new managed GPU node from a GPUNodeClaim; the note gives the cloud instance ID and its IP.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpunodeclaim_controller.go:159 @3e0a490 (main)",
        group: Capacity,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUNodeClaim"],
        actions: &["Created"],
        note_formats: &["Created node: %s, IP: %s"],
        grammar: Some(&crate::details::tensorfusion::NODE_CREATED),
    }
    Compaction {
        meaning: "Pool compaction found an empty GPU node whose removal keeps the warm-up capacity, and is terminating it.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_compaction_controller.go:228 @3e0a490 (main)",
        group: Capacity,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["Compacting"],
        note_formats: &["Node %s is empty and deletion won't impact warm-up capacity, try terminating it"],
        grammar: Some(&crate::details::tensorfusion::COMPACTION),
    }
    MaxResourceConstraintReached {
        meaning: "The pool wanted more GPU nodes but its configured maximum resources would be exceeded, so it did not scale up; pending workloads may wait for capacity. The note dumps the max-resources struct.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_node_provision.go:131 @3e0a490 (main)",
        group: Capacity,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPool"],
        actions: &["ConstraintReached"],
        note_formats: &["Max resource constraint can not be satisfied, can not scale up: %v"],
        grammar: Some(&crate::details::tensorfusion::MAX_RESOURCE_CONSTRAINT_REACHED),
    }
    DefragStarted {
        meaning: "A scheduled defragmentation step started on the GPU pool; the note gives the start time.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:449 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragStarted"],
        note_formats: &["defrag step started at %s"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_STARTED),
    }
    DefragPodEvicted {
        meaning: "Defragmentation evicted a worker Pod from a source node so it can be packed onto another node.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:2121 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragPodEvicted"],
        note_formats: &["evicted pod %s/%s on node %s for defrag"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_POD_EVICTED),
    }
    DefragFinished {
        meaning: "A defragmentation step finished; the note summarises candidates, processed nodes, evictions, failures and skips, and whether the deadline was hit.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:458 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragFinished"],
        note_formats: &["defrag step finished: candidates=%d processed=%d evicted=%d failed=%d unmovable=%d pdbBlocked=%d missingPdb=%d freshSkip=%d deadline=%t"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_FINISHED),
    }
    DefragSkipUnschedulable {
        meaning: "Defragmentation skipped a node because its workers could not all be placed elsewhere; the note carries the placement summary.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:1051 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragSkipUnschedulable"],
        note_formats: &["node %s skipped: %s"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_SKIP_UNSCHEDULABLE),
    }
    DefragSkipPDBBlocked {
        meaning: "Defragmentation skipped a node before evicting because a PodDisruptionBudget currently allows no disruption of one of its Pods.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:1065 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragSkipPDBBlocked"],
        note_formats: &["node %s skipped before eviction: %s"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_SKIP_PDB_BLOCKED),
    }
    DefragBlockedBySourceNode {
        meaning: "The defragmentation step is paused because an earlier source node is still being drained.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:197 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragBlockedBySourceNode"],
        note_formats: &["defrag step paused: existing defrag source node is still draining"],
    }
    DefragBlockedByEvictedPod {
        meaning: "The defragmentation step is paused because a Pod it evicted earlier has not been rescheduled yet.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:191 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragBlockedByEvictedPod"],
        note_formats: &["defrag step paused: defrag-evicted pod still pending reschedule"],
    }
    DefragSkipMissingPDB {
        meaning: "Defragmentation refused to touch a node because one of its Pods has no PodDisruptionBudget; that node will not be defragmented until a PDB is added.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:661 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragSkipMissingPDB"],
        note_formats: &["node %s skipped from defrag: pod %s/%s has no PodDisruptionBudget covering it; please add a PDB to enable safe defrag"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_SKIP_MISSING_PDB),
    }
    DefragPodEvictFailed {
        meaning: "Defragmentation failed to mark the source node or to evict one of its Pods, so eviction of that node was aborted; the node may be left partially drained.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:2076,2113,2136 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragPodEvictFailed"],
        note_formats: &[
            "failed to mark node %s as defrag source: %v (node eviction aborted)",
            "evicted pod %s/%s on node %s but failed to mark defrag label: %v (node eviction aborted)",
            "failed to evict pod %s/%s on node %s: %v (node eviction aborted)",
        ],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_POD_EVICT_FAILED),
    }
    DefragNodeEvictSkip {
        meaning: "After an eviction failure the node was put on the defragmentation skip list, so later steps will leave it alone.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:2146 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragNodeEvictSkip"],
        note_formats: &["node %s added to defrag evict-skip list after eviction failure: %v"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_NODE_EVICT_SKIP),
    }
    DefragAbortNode {
        meaning: "Defragmentation gave up on a node because placement simulation or the eviction preflight failed, or eviction was aborted; the node keeps its workers.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:1038,1059,1076 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragAbortNode"],
        note_formats: &[
            "node %s aborted: simulation error: %v",
            "node %s: eviction preflight failed: %v",
            "node %s: eviction aborted",
        ],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_ABORT_NODE),
    }
    DefragConfigInvalid {
        meaning: "The pool's defragmentation schedule or timezone is invalid, so defragmentation is disabled until the configuration is fixed.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpupool_defrag.go:169 @3e0a490 (main)",
        group: Defragmentation,
        types: &[Warning],
        objects: &["GPUPool"],
        reporting_controllers: &["GPUPoolCompaction"],
        actions: &["DefragConfigInvalid"],
        note_formats: &["defrag disabled: %v"],
        grammar: Some(&crate::details::tensorfusion::DEFRAG_CONFIG_INVALID),
    }
    HypervisorCrashLoopRecreate {
        meaning: "The node's hypervisor Pod kept crashing past the restart threshold, so it was deleted to be recreated; GPU workers on that node may be disrupted meanwhile.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpunode_controller.go:494 @3e0a490 (main)",
        group: Node,
        types: &[Warning],
        objects: &["GPUNode"],
        reporting_controllers: &["GPUNode"],
        actions: &["Recreate"],
        note_formats: &["Hypervisor pod %s deleted for recreation: container %s restarted %d times (threshold %d)"],
        grammar: Some(&crate::details::tensorfusion::HYPERVISOR_CRASH_LOOP_RECREATE),
    }
    DriverProbeFailed {
        meaning: "The GPU driver probe Job for a node failed through its whole backoff; the node's GPU driver is likely broken or missing and it cannot serve GPU workloads.",
        reference: "NexusGPU/tensor-fusion internal/controller/gpunode_controller.go:854 @3e0a490 (main)",
        group: Node,
        types: &[Warning],
        objects: &["Job"],
        reporting_controllers: &["GPUNode"],
        actions: &["Failed"],
        note_formats: &["Driver probe job failed after %d attempts"],
        grammar: Some(&crate::details::tensorfusion::DRIVER_PROBE_FAILED),
    }
    ResourceScaledUp {
        meaning: "The autoscaler raised the workload's TFLOPS and/or VRAM requests; the note gives old and new values.",
        reference: "NexusGPU/tensor-fusion internal/autoscaler/workload/handler.go:240-247 @3e0a490 (main)",
        group: Autoscaling,
        types: &[Normal],
        objects: &["TensorFusionWorkload"],
        reporting_controllers: &["autoscaler"],
        actions: &["Scaled"],
        note_formats: &["Resources scaled up: Compute %s->%s, VRAM %s->%s"],
        grammar: Some(&crate::details::tensorfusion::RESOURCE_SCALED_UP),
    }
    ResourceScaledDown {
        meaning: "The autoscaler lowered the workload's TFLOPS and/or VRAM requests (or changed only limits); the note gives old and new values.",
        reference: "NexusGPU/tensor-fusion internal/autoscaler/workload/handler.go:234-247 @3e0a490 (main)",
        group: Autoscaling,
        types: &[Normal],
        objects: &["TensorFusionWorkload"],
        reporting_controllers: &["autoscaler"],
        actions: &["Scaled"],
        note_formats: &["Resources scaled down: Compute %s->%s, VRAM %s->%s"],
        grammar: Some(&crate::details::tensorfusion::RESOURCE_SCALED_DOWN),
    }
    WorkerSelected {
        meaning: "A worker Pod was chosen to serve the remote-GPU connection.",
        reference: "NexusGPU/tensor-fusion internal/controller/tensorfusionconnection_controller.go:161 @3e0a490 (main)",
        group: Connection,
        types: &[Normal],
        objects: &["TensorFusionConnection"],
        reporting_controllers: &["TensorFusionConnection"],
        actions: &["Selected"],
        note_formats: &["Worker %s successfully selected for connection"],
        grammar: Some(&crate::details::tensorfusion::WORKER_SELECTED),
    }
    ConnectionReady {
        meaning: "The remote-GPU connection is ready; the note gives the URL the client uses to reach its worker.",
        reference: "NexusGPU/tensor-fusion internal/controller/tensorfusionconnection_controller.go:196 @3e0a490 (main)",
        group: Connection,
        types: &[Normal],
        objects: &["TensorFusionConnection"],
        reporting_controllers: &["TensorFusionConnection"],
        actions: &["Ready"],
        note_formats: &["Connection URL: %s"],
        grammar: Some(&crate::details::tensorfusion::CONNECTION_READY),
    }
    WorkerSelectionFailed {
        meaning: "Selecting a worker for the connection failed with an API error; the client stays unconnected until a later reconcile succeeds.",
        reference: "NexusGPU/tensor-fusion internal/controller/tensorfusionconnection_controller.go:158 @3e0a490 (main)",
        group: Connection,
        types: &[Warning],
        objects: &["TensorFusionConnection"],
        reporting_controllers: &["TensorFusionConnection"],
        actions: &["SelectionFailed"],
        note_formats: &["Failed to select worker: %v"],
        grammar: Some(&crate::details::tensorfusion::WORKER_SELECTION_FAILED),
    }
    GPUNodeCreated {
        meaning: "Older name of ManagedNodeCreated: the pool provisioned a new GPU node; the note gives its instance ID and IP.",
        reference: "NexusGPU/tensor-fusion GPUPool controller, older releases; renamed ManagedNodeCreated in PR #52 (2025-02-26)",
        group: Capacity,
        types: &[Normal],
        objects: &["GPUPool"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["Created node: %s, IP: %s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::NODE_CREATED),
    }
    OrphanedNode {
        meaning: "A provisioned GPU node could not be found in the cloud or has no instance ID; the node may be orphaned and needs manual cleanup.",
        reference: "NexusGPU/tensor-fusion GPUNode controller, older releases; removed in PR #282 (2025-07-21)",
        group: Node,
        types: &[Warning],
        objects: &["GPUNode"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &[
            "provisioned node not found, this could result in orphaned nodes, please check manually: %s",
            "provisioned node without instanceID, …: %s",
        ],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::ORPHANED_NODE),
    }
    NodeProvisionerNotFound {
        meaning: "The GPUNode's provisioner, or the GPUNode for a Kubernetes node, could not be found.",
        reference: "NexusGPU/tensor-fusion GPUNode / Node controllers, older releases; removed in PR #282 (2025-07-21)",
        group: Node,
        types: &[Normal],
        objects: &["GPUNode", "Node"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &[
            "GPUNode %q provisioner not found, current Kubernetes node %q",
            "GPUNode not found for node %s",
        ],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::NODE_PROVISIONER_NOT_FOUND),
    }
    NodeNotFound {
        meaning: "The Kubernetes node behind a GPUNode disappeared, so the GPUNode is being deleted.",
        reference: "NexusGPU/tensor-fusion GPUNode controller, older releases; removed in PR #282 (2025-07-21)",
        group: Node,
        types: &[Normal],
        objects: &["GPUNode"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["Kubernetes node has been disappeared, deleting GPUNode"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::NODE_NOT_FOUND),
    }
    CloudVendorParamEmpty {
        meaning: "A GPUNode in provisioned mode has no cloud vendor parameters, so the node cannot be managed through the cloud provider.",
        reference: "NexusGPU/tensor-fusion GPUNode controller, older releases; removed in PR #282 (2025-07-21)",
        group: Node,
        types: &[Warning],
        objects: &["GPUNode"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["cloud vendor param is empty, but manage mode is provisioned: %s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::CLOUD_VENDOR_PARAM_EMPTY),
    }
    SelectingWorker {
        meaning: "The connection controller began selecting a worker for a remote-GPU connection.",
        reference: "NexusGPU/tensor-fusion TensorFusionConnection controller, older releases; removed in PR #241 (2025-06-30)",
        group: Connection,
        types: &[Normal],
        objects: &["TensorFusionConnection"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["Selecting worker for connection %s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::SELECTING_WORKER),
    }
    ScheduleGPUFailed {
        meaning: "The workload controller could not allocate a GPU for the workload; its workers stay unscheduled.",
        reference: "NexusGPU/tensor-fusion TensorFusionWorkload controller, older releases; removed in PR #241 (2025-06-30)",
        group: SchedulingAllocation,
        types: &[Warning],
        objects: &["TensorFusionWorkload"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["Failed to schedule GPU: %v"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::SCHEDULE_GPU_FAILED),
    }
    AlertThresholdReached {
        meaning: "A namespace's GPU resource usage crossed the GPUResourceQuota alert threshold; new workloads may soon hit the quota.",
        reference: "NexusGPU/tensor-fusion GPUResourceQuota controller, older releases; removed in PR #241 (2025-06-30)",
        group: Quota,
        types: &[Warning],
        objects: &["GPUResourceQuota"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["One of the following resources has reached alert threshold:%s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::ALERT_THRESHOLD_REACHED),
    }
    WorkerFailed {
        meaning: "Some worker Pods of the workload failed; the note gives how many, and the workload runs below its intended size.",
        reference: "NexusGPU/tensor-fusion TensorFusionWorkload controller, older releases; removed in PR #350 (2025-09-04)",
        group: Workload,
        types: &[Warning],
        objects: &["TensorFusionWorkload"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["Failed workers num: %d", "Failed workers: %d"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::WORKER_FAILED),
    }
    CheckComponentStatusError {
        meaning: "The cluster controller failed to check the status of a TensorFusion component; the note is the raw error.",
        reference: "NexusGPU/tensor-fusion TensorFusionCluster controller, older releases; removed in PR #350 (2025-09-04)",
        group: Cluster,
        types: &[Warning],
        objects: &["TensorFusionCluster"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["%s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::RAW_ERROR),
    }
    UpdateClusterStatusError {
        meaning: "The cluster controller failed to update the TensorFusionCluster status; the note is the raw error.",
        reference: "NexusGPU/tensor-fusion TensorFusionCluster controller, older releases; removed in PR #350 (2025-09-04)",
        group: Cluster,
        types: &[Warning],
        objects: &["TensorFusionCluster"],
        reporting_controllers: &[],
        actions: &[],
        note_formats: &["%s"],
        retired: true,
        grammar: Some(&crate::details::tensorfusion::RAW_ERROR),
    }
}
