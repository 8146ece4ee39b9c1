//! [`Cause`]: the stable ids of what keeps a GPU workload from running, declared once with their
//! summary and next steps.

use schemars::JsonSchema;
use serde::Serialize;

/// Declares [`Cause`]: id, summary, and next steps (kubectl commands with `{kind}`, `{ns}`,
/// `{name}` filled in from the diagnosed object).
macro_rules! causes {
    ($( $Variant:ident($id:literal, $summary:literal, [$($step:literal),* $(,)?]), )+) => {
        /// Why a GPU Pod (or its node, pool or workload) is stuck. Serialized as a stable
        /// kebab-case id (`insufficient-gpu`); `#[non_exhaustive]`: ids may be added, never renamed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
        #[non_exhaustive]
        pub enum Cause {
            $( #[doc = $summary] #[serde(rename = $id)] $Variant, )+
        }

        impl Cause {
            /// Every cause.
            pub const ALL: &'static [Cause] = &[$(Cause::$Variant),+];

            /// The stable kebab-case id.
            pub fn id(self) -> &'static str {
                match self { $(Cause::$Variant => $id,)+ }
            }

            /// One sentence on the cause.
            pub fn summary(self) -> &'static str {
                match self { $(Cause::$Variant => $summary,)+ }
            }

            /// Next-step templates (`{kind}`, `{ns}`, `{name}` placeholders).
            pub fn step_templates(self) -> &'static [&'static str] {
                match self { $(Cause::$Variant => &[$($step),*],)+ }
            }
        }
    };
}

causes! {
    InsufficientGpu("insufficient-gpu", "No node has enough free GPUs (or GPU memory) for the Pod's request.", [
        "kubectl describe nodes | grep -E 'Name:|nvidia.com/gpu|amd.com/gpu'",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].resources}'",
        "check whether a node autoscaler (Karpenter, cluster-autoscaler) can add a GPU node",
    ]),
    UntoleratedTaint("untolerated-taint", "The GPU nodes carry a taint the Pod does not tolerate.", [
        "kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.tolerations}'",
    ]),
    NodeAffinityMismatch("node-affinity-mismatch", "No node matches the Pod's node selector or node affinity.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeSelector}{.spec.affinity}'",
        "kubectl get nodes --show-labels",
    ]),
    GpuQuotaExceeded("gpu-quota-exceeded", "A GPU quota (TensorFusion GPUResourceQuota or a ResourceQuota) is exhausted.", [
        "kubectl get gpuresourcequotas -n {ns} -o yaml",
        "kubectl describe resourcequota -n {ns}",
    ]),
    TensorfusionCapacity("tensorfusion-capacity", "The TensorFusion GPU pool has no GPU that passes the filters for this request.", [
        "kubectl get gpupools -o wide",
        "kubectl get gpus -o wide",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
    ]),
    TopologyUnsatisfied("topology-unsatisfied", "No node satisfies the hard GPU interconnect topology constraint.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations.tensor-fusion\\.ai/gpu-topology-max-tier}'",
        "kubectl get gpunodes -o wide",
    ]),
    GangWaiting("gang-waiting", "The Pod waits for the other members of its gang to be schedulable.", [
        "kubectl get pods -n {ns} -l tensor-fusion.ai/workload -o wide",
        "kubectl get events -n {ns} --field-selector reason=FailedScheduling",
    ]),
    GangTimeout("gang-timeout", "The gang did not reach quorum before its scheduling timeout.", [
        "kubectl get pods -n {ns} -o wide",
        "kubectl get tensorfusionworkloads -n {ns} -o yaml",
    ]),
    GangRejected("gang-rejected", "The gang was rejected because one member could not be scheduled (strict gang).", [
        "kubectl get events -n {ns} --field-selector reason=GangStrictRejected",
        "kubectl get pods -n {ns} -o wide",
    ]),
    PartitionTemplateMismatch("partition-template-mismatch", "No GPU partition template fits the requested TFLOPS and VRAM.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
        "kubectl get gpus -o yaml | grep -A20 partition",
    ]),
    GpuAllocationFailed("gpu-allocation-failed", "The scheduler chose GPUs but could not attach or commit the allocation.", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.metadata.annotations}'",
        "kubectl logs -n tensor-fusion-sys deploy/tensor-fusion-scheduler --tail=200",
    ]),
    DevicePluginUnavailable("device-plugin-unavailable", "The node's GPU device plugin could not allocate devices at admission (plugin down, devices unhealthy or gone).", [
        "kubectl get pods -A -o wide | grep -i device-plugin",
        "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
    ]),
    RuntimeHandlerMissing("runtime-handler-missing", "The container runtime has no handler for the Pod's RuntimeClass.", [
        "kubectl get runtimeclass",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.runtimeClassName}'",
        "check the containerd config on the node for the runtime handler",
    ]),
    NvidiaRuntimeMissing("nvidia-runtime-missing", "The NVIDIA container runtime or toolkit is missing or broken on the node.", [
        "kubectl get pods -n gpu-operator -o wide | grep -E 'toolkit|driver'",
        "kubectl logs -n gpu-operator -l app=nvidia-container-toolkit-daemonset --tail=100",
    ]),
    CdiDeviceUnresolvable("cdi-device-unresolvable", "The runtime cannot resolve the CDI device names the Pod was given (CDI spec missing or stale).", [
        "ls /etc/cdi /var/run/cdi   # on the node",
        "kubectl get pods -A -o wide | grep -E 'device-plugin|dra'",
    ]),
    CriUnavailable("cri-unavailable", "The kubelet cannot reach the container runtime (CRI socket refused).", [
        "systemctl status containerd   # on the node",
        "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
    ]),
    ImagePullFailed("image-pull-failed", "The container image cannot be pulled (not found, unauthorized, timeout, rate limit).", [
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.containers[*].image}'",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.imagePullSecrets}'",
    ]),
    CrashLoop("crash-loop", "A container keeps exiting and the kubelet backs off restarting it.", [
        "kubectl logs {name} -n {ns} --previous --all-containers",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.containerStatuses[*].lastState}'",
    ]),
    HostOom("host-oom", "The node ran out of memory and the kernel killed processes.", [
        "kubectl describe node {name}",
        "kubectl top pods -A --sort-by=memory | head",
    ]),
    NodePressureEviction("node-pressure-eviction", "The kubelet evicted the Pod to relieve node pressure (memory, disk, PIDs).", [
        "kubectl describe node $(kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.nodeName}')",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.status.message}'",
    ]),
    VolumeMountFailed("volume-mount-failed", "A volume could not be attached or mounted.", [
        "kubectl get pvc -n {ns}",
        "kubectl get {kind} {name} -n {ns} -o jsonpath='{.spec.volumes}'",
    ]),
    NodeExpansionPending("node-expansion-pending", "A node autoscaler is provisioning a node for the Pod; it should schedule when the node is ready.", [
        "kubectl get nodeclaims,gpunodeclaims -o wide",
        "kubectl get nodes -w",
    ]),
    NodeExpansionFailed("node-expansion-failed", "The node autoscaler could not provision a node that fits the Pod.", [
        "kubectl get nodepools,gpupools -o yaml",
        "kubectl get events -A --field-selector reason=NodeExpansionFailed",
    ]),
    CudaDriverMismatch("cuda-driver-mismatch", "The GPU driver on the node is missing, not loaded, or too old for the container's CUDA.", [
        "kubectl get pods -n gpu-operator -o wide | grep driver",
        "nvidia-smi   # on the node",
    ]),
    Unknown("unknown", "The events do not point at a known cause.", [
        "kubectl describe {kind} {name} -n {ns}",
        "kubectl get events -n {ns} --field-selector involvedObject.name={name}",
    ]),
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.id())
    }
}
