//! [`Cause`]: the stable ids of what keeps a GPU workload from running, declared once with their
//! summary and next steps.

use schemars::JsonSchema;
use serde::Serialize;

/// Where a next step applies: a step that names an object kind's fields, or the CRDs or
/// components of one ecosystem, is suggested only when the diagnosed object or its evidence is
/// of that kind or ecosystem (`kubectl get gpupools` fails on a cluster without TensorFusion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StepScope {
    /// The diagnosed object is a Pod (or of unknown kind: pasted Events sections are mostly a
    /// Pod's).
    Pod,
    /// The diagnosed object is a Node.
    Node,
    /// The evidence is TensorFusion's, or the object is a TensorFusion kind.
    TensorFusion,
    /// The evidence is Karpenter's, or the object is a NodeClaim or NodePool.
    Karpenter,
    /// The evidence is cluster-autoscaler's.
    ClusterAutoscaler,
    /// The evidence is Kueue's.
    Kueue,
    /// The evidence is Volcano's (its scheduler or controllers, a PodGroup or vcjob).
    Volcano,
    /// The evidence is KAI-Scheduler's (Run:ai's queues and PodGroups).
    Kai,
    /// The evidence names NVIDIA (a runtime, a device, an Xid) or comes from the GPU Operator.
    Nvidia,
    /// The evidence is the Ascend device plugin's.
    Ascend,
    /// The evidence comes from the NVIDIA GPU Operator: its reasons, its namespace
    /// (`gpu-operator`, OpenShift's `nvidia-gpu-operator`) or one of its Pods
    /// (`nvidia-operator-validator-*`, `nvidia-driver-daemonset-*`, ...). Steps in this scope name
    /// its namespace as `{operator-ns}`: the object's when it is one of those, else the chart's
    /// default `gpu-operator`, with a comment saying it is assumed.
    GpuOperator,
}

/// One next step: a kubectl command (or a check on the node) with `{kind}`, `{ns}`, `{name}`
/// placeholders for the diagnosed object, and where it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The command template.
    pub template: &'static str,
    /// Where it applies; `None`: everywhere.
    pub scope: Option<StepScope>,
}

/// Declares [`Cause`]: id, summary, and next steps, each optionally scoped (`TensorFusion:
/// "kubectl get gpupools -o wide"`, see [`StepScope`]).
macro_rules! causes {
    ($( $Variant:ident($id:literal, $summary:literal, [$($($scope:ident :)? $step:literal),* $(,)?]), )+) => {
        /// Why a GPU Pod (or its node, pool or workload) is stuck. Serialized as a stable
        /// kebab-case id (`insufficient-gpu`); `#[non_exhaustive]`: ids may be added, never renamed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize, JsonSchema)]
        #[non_exhaustive]
        pub enum Cause {
            $( #[doc = $summary] #[serde(rename = $id)] $Variant, )+
        }

        impl Cause {
            /// Every cause, in declaration order.
            pub const ALL: &'static [Cause] = &[$(Cause::$Variant),+];

            /// The stable kebab-case id.
            pub fn id(self) -> &'static str {
                match self { $(Cause::$Variant => $id,)+ }
            }

            /// One sentence on the cause.
            pub fn summary(self) -> &'static str {
                match self { $(Cause::$Variant => $summary,)+ }
            }

            /// The next steps, every scope included (`{kind}`, `{ns}`, `{name}` placeholders);
            /// a diagnosis keeps those whose scope its object and evidence are in.
            pub fn steps(self) -> &'static [Step] {
                match self {
                    $(Cause::$Variant => &[$(Step { template: $step, scope: causes!(@scope $($scope)?) }),*],)+
                }
            }
        }
    };
    (@scope) => { None };
    (@scope $scope:ident) => { Some(StepScope::$scope) };
}

causes! {
    InsufficientGpu("insufficient-gpu", "No node that the Pod may run on has enough free GPUs (or GPU memory) for its request.", [
        "kubectl describe nodes | grep -E 'Name:|nvidia.com/gpu|amd.com/gpu'",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources}'",
        "check whether a node autoscaler (Karpenter, cluster-autoscaler) can add a GPU node",
    ]),
    InsufficientResources("insufficient-resources", "The nodes the Pod may run on lack CPU, memory or Pod slots (not GPUs) for its request.", [
        "kubectl describe nodes | grep -A10 'Allocated resources'",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources}'",
    ]),
    UntoleratedTaint("untolerated-taint", "The GPU nodes carry a taint the Pod does not tolerate.", [
        "kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.tolerations}'",
    ]),
    NodeAffinityMismatch("node-affinity-mismatch", "No node matches the Pod's node selector or node affinity.", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeSelector}{.spec.affinity}'",
        "kubectl get nodes --show-labels",
    ]),
    GpuQuotaExceeded("gpu-quota-exceeded", "A GPU quota (a ResourceQuota, a Kueue ClusterQueue, a Volcano or KAI queue's capability, TensorFusion's GPUResourceQuota or a scheduler extender's quota) is exhausted.", [
        "kubectl describe resourcequota -n {ns}",
        TensorFusion: "kubectl get gpuresourcequotas -n {ns} -o yaml",
        Kueue: "kubectl get clusterqueues -o wide",
        Kueue: "kubectl get localqueues -n {ns} -o wide",
        Volcano: "kubectl get queues.scheduling.volcano.sh -o wide",
        Volcano: "kubectl describe podgroups.scheduling.volcano.sh -n {ns}",
        Kai: "kubectl get queues.scheduling.run.ai -o yaml",
    ]),
    TensorfusionCapacity("tensorfusion-capacity", "The TensorFusion GPU pool has no GPU that passes the filters for this request.", [
        TensorFusion: "kubectl get gpupools -o wide",
        TensorFusion: "kubectl get gpus -o wide",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
    ]),
    TopologyUnsatisfied("topology-unsatisfied", "No node satisfies the hard GPU interconnect topology constraint.", [
        TensorFusion: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations.tensor-fusion\\.ai/gpu-topology-max-tier}'",
        TensorFusion: "kubectl get gpunodes -o wide",
        "kubectl describe {kind} {name} -n {ns}",
    ]),
    GangWaiting("gang-waiting", "The Pod waits for the other members of its gang to be schedulable.", [
        TensorFusion: "kubectl get pods -n {ns} -l tensor-fusion.ai/workload -o wide",
        Volcano: "kubectl describe podgroups.scheduling.volcano.sh -n {ns}",
        Kai: "kubectl describe podgroups.scheduling.run.ai -n {ns}",
        "kubectl get pods -n {ns} -o wide",
        "kubectl get events -n {ns} --field-selector reason=FailedScheduling",
    ]),
    GangTimeout("gang-timeout", "The gang did not reach quorum before its scheduling timeout.", [
        "kubectl get pods -n {ns} -o wide",
        TensorFusion: "kubectl get tensorfusionworkloads -n {ns} -o yaml",
    ]),
    GangRejected("gang-rejected", "The gang was rejected because one member could not be scheduled (strict gang).", [
        TensorFusion: "kubectl get events -n {ns} --field-selector reason=GangStrictRejected",
        "kubectl get pods -n {ns} -o wide",
    ]),
    PartitionTemplateMismatch("partition-template-mismatch", "No GPU partition template fits the requested TFLOPS and VRAM.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
        TensorFusion: "kubectl get gpus -o yaml | grep -A20 partition",
    ]),
    GpuAllocationFailed("gpu-allocation-failed", "The scheduler chose GPUs but could not attach or commit the allocation.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
        TensorFusion: "kubectl logs -n tensor-fusion-sys deploy/tensor-fusion-scheduler --tail=200",
    ]),
    DevicePluginUnavailable("device-plugin-unavailable", "The node's GPU device plugin could not allocate devices at admission (plugin down or restarting, devices not registered or gone).", [
        "kubectl get pods -A -o wide | grep -i device-plugin",
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        Node: "kubectl describe node {name}",
    ]),
    DraPrepareFailed("dra-prepare-failed", "The kubelet could not prepare the Pod's ResourceClaims through their DRA driver (driver not running or not registered on the node, or NodePrepareResources failing or timing out).", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.resourceClaimStatuses}'",
        "kubectl get resourceclaims -n {ns} -o wide",
        "kubectl get resourceslices -o wide",
        "kubectl get pods -A -o wide | grep -iE 'dra|kubelet-plugin'",
    ]),
    DeviceFault("device-fault", "A GPU or other accelerator on the node reported a hardware or driver fault (an NVIDIA Xid, an Ascend fault code); its workloads fail and the device may be marked unhealthy.", [
        Node: "kubectl describe node {name}",
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        Nvidia: "dmesg -T | grep -i xid   # on the node; the Xid code names the fault",
        Nvidia: "nvidia-smi -q   # on the node; look for retired or remapped pages and ECC errors",
        Ascend: "npu-smi info   # on the node",
        "if the fault persists, cordon the node and reset or replace the device",
    ]),
    RuntimeHandlerMissing("runtime-handler-missing", "The container runtime has no handler for the Pod's RuntimeClass (for `nvidia`: the NVIDIA container toolkit did not configure it on the node, or the Pod should not ask for that RuntimeClass).", [
        "kubectl get runtimeclass",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.runtimeClassName}'",
        "check the containerd config on the node for the runtime handler",
        Nvidia: "kubectl get pods -A -o wide | grep -E 'toolkit|driver'   # the NVIDIA container toolkit configures the nvidia handler",
    ]),
    NvidiaRuntimeMissing("nvidia-runtime-missing", "The NVIDIA container runtime or toolkit is missing or broken on the node.", [
        "kubectl get pods -A -o wide | grep -E 'toolkit|driver'",
        GpuOperator: "kubectl logs -n {operator-ns} -l app=nvidia-container-toolkit-daemonset --tail=100   # the GPU Operator's default namespace",
        "nvidia-ctk --version; grep -A3 nvidia /etc/containerd/config.toml   # on the node",
    ]),
    CdiDeviceUnresolvable("cdi-device-unresolvable", "The runtime cannot resolve the CDI device names the Pod was given (CDI spec missing or stale).", [
        "ls /etc/cdi /var/run/cdi   # on the node",
        "kubectl get pods -A -o wide | grep -E 'device-plugin|dra'",
    ]),
    ColdPlugFailed("cold-plug-failed", "The sandbox runtime (Kata, confidential containers) could not cold-plug the Pod's GPU into its VM: the kubelet's PodResources API it reads is disabled or unreachable, or the device is not bound for passthrough.", [
        "journalctl -u containerd | grep -i 'cold plug'   # on the node",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.runtimeClassName}'",
        "kubectl get runtimeclass",
    ]),
    CriUnavailable("cri-unavailable", "The kubelet cannot reach the container runtime (CRI socket refused).", [
        "systemctl status containerd   # on the node",
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        Node: "kubectl describe node {name}",
    ]),
    PodNetworkFailed("pod-network-failed", "The runtime could not set up the Pod's network (the node's CNI plugin is missing, failing or cannot reach the API server): no Pod starts on that node, GPU or not.", [
        "kubectl get pods -n kube-system -o wide | grep -iE 'cni|calico|flannel|cilium|weave|aws-node|kube-proxy'",
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        "ls /etc/cni/net.d /opt/cni/bin   # on the node",
    ]),
    ImagePullFailed("image-pull-failed", "The container image cannot be pulled (not found, unauthorized, timeout, rate limit).", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].image}'",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.imagePullSecrets}'",
        "kubectl describe {kind} {name} -n {ns}",
    ]),
    CrashLoop("crash-loop", "A container keeps exiting and the kubelet backs off restarting it.", [
        Pod: "kubectl logs {name} -n {ns} --previous --all-containers",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.containerStatuses[*].lastState}'",
        "kubectl describe {kind} {name} -n {ns}",
    ]),
    ContainerOom("container-oom", "A container used more memory than its limit and the kernel killed it in its memory cgroup (OOMKilled).", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources.limits}'",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.containerStatuses[*].lastState.terminated}'",
        Node: "kubectl get pods -A -o wide --field-selector spec.nodeName={name}",
        "raise the container's memory limit, or lower its use (batch size, data-loader workers, model staging in host memory)",
    ]),
    HostOom("host-oom", "The node ran out of memory and the kernel killed processes outside any container's own limit.", [
        Node: "kubectl describe node {name}",
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        "kubectl top pods -A --sort-by=memory | head",
    ]),
    NodePressureEviction("node-pressure-eviction", "The kubelet evicted the Pod to relieve node pressure (memory, disk, PIDs).", [
        Pod: "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.message}'",
        Node: "kubectl describe node {name}",
        "kubectl get events -A --field-selector reason=Evicted",
    ]),
    ConfigNotFound("config-not-found", "A ConfigMap or Secret (or a key in one) that the Pod's containers reference does not exist, so the kubelet cannot create them (CreateContainerConfigError).", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].env}{.spec.containers[*].envFrom}'",
        "kubectl get configmaps,secrets -n {ns}",
    ]),
    VolumeMountFailed("volume-mount-failed", "A volume could not be attached or mounted.", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.volumes}'",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
    NodeExpansionPending("node-expansion-pending", "A node autoscaler is provisioning a node for the Pod; it should schedule when the node is ready.", [
        Karpenter: "kubectl get nodeclaims -o wide",
        TensorFusion: "kubectl get gpunodeclaims -o wide",
        ClusterAutoscaler: "kubectl get configmap cluster-autoscaler-status -n kube-system -o yaml",
        "kubectl get nodes -w",
    ]),
    NodeExpansionFailed("node-expansion-failed", "The node autoscaler could not provision a node that fits the Pod.", [
        Karpenter: "kubectl get nodepools -o yaml",
        TensorFusion: "kubectl get gpupools -o yaml",
        TensorFusion: "kubectl get events -A --field-selector reason=NodeExpansionFailed",
        ClusterAutoscaler: "kubectl get configmap cluster-autoscaler-status -n kube-system -o yaml",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources}'",
        "kubectl describe {kind} {name} -n {ns}",
    ]),
    CudaDriverMismatch("cuda-driver-mismatch", "The GPU driver on the node is missing, not loaded, or too old for the container's CUDA.", [
        TensorFusion: "kubectl logs job/{name} -n {ns} --all-containers",
        "kubectl get pods -A -o wide | grep -iE 'nvidia-driver|driver-installer'",
        GpuOperator: "kubectl logs -n {operator-ns} -l app=nvidia-driver-daemonset --tail=100   # the GPU Operator's default namespace",
        "nvidia-smi   # on the node",
    ]),
    DevicePluginMissing("device-plugin-missing", "No device plugin advertises the requested accelerator on the nodes: the resource is not registered (capacity without allocatable, or absent), so the scheduler sees none of it.", [
        "kubectl get nodes -o json | jq '.items[] | {name: .metadata.name, capacity: .status.capacity, allocatable: .status.allocatable}'",
        "kubectl get pods -A -o wide | grep -iE 'device-plugin|hami|vgpu|gpu-manager|ascend'",
    ]),
    DraClaimUnsatisfiable("dra-claim-unsatisfiable", "No device published in a ResourceSlice satisfies the Pod's ResourceClaim (its DeviceClass, CEL selectors or count), so the scheduler cannot allocate it.", [
        "kubectl get resourceclaims -n {ns} -o wide",
        "kubectl get resourceslices -o wide",
        "kubectl get deviceclasses",
    ]),
    DraDriverMissing("dra-driver-missing", "The DRA driver the claim's devices need is not registered with the kubelet on the node (its kubelet plugin is not running there).", [
        "kubectl get pods -A -o wide | grep -iE 'dra|kubelet-plugin'",
        "kubectl get resourceslices -o wide",
    ]),
    MigProfileUnavailable("mig-profile-unavailable", "No node offers the requested MIG profile (no GPU is partitioned that way, or all such instances are in use).", [
        "kubectl get nodes -o json | jq '.items[] | {name: .metadata.name, mig: (.status.allocatable | with_entries(select(.key | startswith(\"nvidia.com/mig-\"))))}'",
        "kubectl get nodes -L nvidia.com/mig.config -L nvidia.com/mig.config.state",
    ]),
    WrongScheduler("wrong-scheduler", "The Pod asks for resources only a GPU-sharing scheduler understands (HAMi, Volcano, gpu-manager), but another scheduler (usually default-scheduler) is placing it.", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.schedulerName}'",
        "kubectl get pods -A -o wide | grep -iE 'scheduler'",
    ]),
    InvalidGpuRequest("invalid-gpu-request", "The accelerator request is one the sharing mode or device plugin refuses (more than one time-shared GPU, a mode or size the node does not offer).", [
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources}'",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
    NodeNeverReady("node-never-ready", "New nodes (NodeClaims) keep being launched for the Pod but never become ready to run it: a churn of nominations, not progress (bootstrap, GPU driver or device plugin failing on the new nodes).", [
        Karpenter: "kubectl get nodeclaims -o wide",
        Karpenter: "kubectl describe nodeclaims",
        "kubectl get nodes -o wide",
    ]),
    QueuePending("queue-pending", "The workload waits in its queue (Kueue, Volcano, KAI) for admission, not for nodes: the queue's turn, priority or a parent queue decides.", [
        Kueue: "kubectl get clusterqueues -o wide",
        Kueue: "kubectl get workloads -n {ns}",
        Volcano: "kubectl get queues.scheduling.volcano.sh -o wide",
        Kai: "kubectl get queues.scheduling.run.ai -o yaml",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
    ContainerStartFailed("container-start-failed", "The container was created but failed to start (StartError, RunContainerError): the OCI runtime, a hook (the NVIDIA container toolkit, CDI injection) or the entrypoint failed at start.", [
        Pod: "kubectl describe {kind} {name} -n {ns}",
        Pod: "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.containerStatuses[*].lastState}'",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
    ProbeFailing("probe-failing", "The container runs but its startup, liveness or readiness probe keeps failing: the server is not up yet (a model still loading onto the GPU), listens on another port or path, or the probe gives it too little time.", [
        Pod: "kubectl logs {name} -n {ns} --all-containers --tail=100",
        Pod: "kubectl get {kind} {name} -n {ns} -o yaml | grep -A8 -E 'startupProbe|livenessProbe|readinessProbe'",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
    NodeNotReady("node-not-ready", "The node is NotReady (kubelet not reporting, network or runtime down): its Pods cannot start and may be evicted.", [
        Node: "kubectl describe node {name}",
        "kubectl get nodes -o wide",
    ]),
    Unknown("unknown", "The events do not point at a known cause.", [
        "kubectl describe {kind} {name} -n {ns}",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
        Kueue: "kubectl get clusterqueues -o wide",
    ]),
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.id())
    }
}
