//! Accelerator resource families: the extended resource names (and the words schedulers print)
//! that mean a GPU, NPU or TPU, as one table. The diagnosis's notion of "an accelerator
//! resource" (a FitError short of GPUs, a quota on them) comes from here.
//!
//! Sources: NVIDIA k8s-device-plugin (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, MIG
//! `nvidia.com/mig-<profile>`); Kubernetes v1.6-v1.10's alpha `alpha.kubernetes.io/nvidia-gpu`; HAMi (`nvidia.com/gpucores`, `nvidia.com/gpumem`,
//! `nvidia.com/gpumem-percentage`); tkestack gpu-manager (`tencent.com/vcuda-core`,
//! `tencent.com/vcuda-memory`); Volcano vGPU device plugin (`volcano.sh/vgpu-*`,
//! `volcano.sh/gpu-*`); Alibaba gpushare (`aliyun.com/gpu-mem`, `aliyun.com/gpu-count`);
//! ROCm k8s-device-plugin (`amd.com/gpu`); Intel device plugins (`gpu.intel.com/*`); Ascend
//! device plugin (`huawei.com/Ascend*`, `huawei.com/npu*`); GKE TPU (`google.com/tpu`); AWS
//! Neuron (`aws.amazon.com/neuron*`); Habana (`habana.ai/gaudi`); KAI-Scheduler's messages
//! (`GPUs`, `GPU memory`); TensorFusion's quota notes (`TFLOPS`, `VRAM`).

/// One family of accelerator resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Family {
    /// A short name (`nvidia`, `nvidia-mig`, `hami`, `ascend`).
    pub name: &'static str,
    /// Resource names; a trailing `*` matches any suffix. Matched without regard to case.
    pub resources: &'static [&'static str],
    /// The scheduler that must place Pods asking for them (their device plugins do not work
    /// with `default-scheduler` alone): `hami-scheduler`, `volcano`.
    pub scheduler: Option<&'static str>,
}

const fn family(name: &'static str, resources: &'static [&'static str]) -> Family {
    Family { name, resources, scheduler: None }
}

const fn scheduled_by(name: &'static str, resources: &'static [&'static str], scheduler: &'static str) -> Family {
    Family { name, resources, scheduler: Some(scheduler) }
}

/// Every accelerator family the diagnosis knows.
pub const FAMILIES: &[Family] = &[
    // `nvidia.com/gpu.shared` (time-slicing renamed), `nvidia.com/gpu.memory` (plugins that
    // count memory); `alpha.kubernetes.io/nvidia-gpu`, the kubelet's own (v1.6-v1.10).
    family("nvidia", &["nvidia.com/gpu", "nvidia.com/gpu.*", "alpha.kubernetes.io/nvidia-gpu"]),
    family("nvidia-mig", &["nvidia.com/mig-*"]),
    scheduled_by(
        "hami",
        &["nvidia.com/gpucores", "nvidia.com/gpumem", "nvidia.com/gpumem-percentage"],
        "hami-scheduler",
    ),
    family("gpu-manager", &["tencent.com/vcuda-core", "tencent.com/vcuda-memory"]),
    scheduled_by("volcano-vgpu", &["volcano.sh/vgpu-*", "volcano.sh/gpu-*"], "volcano"),
    family("gpushare", &["aliyun.com/gpu-mem", "aliyun.com/gpu-count", "aliyun.com/gpu*"]),
    family("amd", &["amd.com/gpu"]),
    family("intel", &["gpu.intel.com/*"]),
    family("ascend", &["huawei.com/ascend*", "huawei.com/npu*"]),
    family("tpu", &["google.com/tpu"]),
    family("neuron", &["aws.amazon.com/neuron*"]),
    family("gaudi", &["habana.ai/gaudi"]),
    family("kai-scheduler", &["gpus", "gpu memory", "gpu"]),
    family("tensorfusion", &["tflops", "vram", "tensor-fusion.ai/*"]),
];

fn matches(pattern: &str, resource: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => resource.len() >= prefix.len() && resource[..prefix.len()].eq_ignore_ascii_case(prefix),
        None => pattern.eq_ignore_ascii_case(resource),
    }
}

/// The family of an accelerator resource name, `None` for anything else (`cpu`, `memory`,
/// `pods`, `ephemeral-storage`, `example.com/foo`).
pub fn family_of(resource: &str) -> Option<&'static Family> {
    let resource = resource.trim();
    // Quota notes name resources as `requests.nvidia.com/gpu` or `limits.nvidia.com/gpu`.
    let resource = resource.strip_prefix("requests.").or_else(|| resource.strip_prefix("limits.")).unwrap_or(resource);
    FAMILIES.iter().find(|f| f.resources.iter().any(|p| matches(p, resource)))
}

/// Whether `resource` is an accelerator resource.
pub fn is_accelerator(resource: &str) -> bool {
    family_of(resource).is_some()
}

/// Whether a message names an accelerator resource among its words (`couldn't assign flavors to
/// pod set main: insufficient quota for nvidia.com/gpu in flavor a100`).
pub fn mentions_accelerator(text: &str) -> bool {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '[' | ']' | '{' | '}' | '=')
    })
    .map(|word| word.trim_end_matches(['.', ':']))
    .any(is_accelerator)
}

/// Containers that GPU components run as init containers, by name: a crash loop of one leaves
/// its Pod `Init:CrashLoopBackOff` (phase Pending) even where the input does not say `init`
/// (a back-off note names only the container). Sources: NVIDIA gpu-operator
/// `assets/state-operator-validation/0500_daemonset.yaml` (the validator's `driver-`,
/// `toolkit-`, `cuda-`, `plugin-validation`; the operands' `toolkit-validation` and
/// `driver-validation` waits; the CUDA and plugin validator Pods' `cuda-validation` and
/// `plugin-validation`); GoogleCloudPlatform/container-engine-accelerators
/// `nvidia-driver-installer/*/daemonset.yaml` (`nvidia-driver-installer`, beside a `pause`
/// container).
pub const INIT_CONTAINERS: &[&str] = &[
    "driver-validation",
    "toolkit-validation",
    "cuda-validation",
    "plugin-validation",
    "mofed-validation",
    "vfio-pci-validation",
    "nvidia-driver-installer",
];

/// Whether `container` is one of [`INIT_CONTAINERS`].
pub fn is_init_container(container: &str) -> bool {
    INIT_CONTAINERS.contains(&container)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_is_found_and_ordinary_resources_are_not() {
        for (resource, family) in [
            ("nvidia.com/gpu", "nvidia"),
            ("nvidia.com/mig-1g.10gb", "nvidia-mig"),
            ("nvidia.com/gpumem", "hami"),
            ("tencent.com/vcuda-core", "gpu-manager"),
            ("volcano.sh/vgpu-number", "volcano-vgpu"),
            ("aliyun.com/gpu-mem", "gpushare"),
            ("amd.com/gpu", "amd"),
            ("gpu.intel.com/i915", "intel"),
            ("huawei.com/Ascend910", "ascend"),
            ("google.com/tpu", "tpu"),
            ("aws.amazon.com/neuroncore", "neuron"),
            ("GPU memory", "kai-scheduler"),
            ("requests.nvidia.com/gpu", "nvidia"),
            ("nvidia.com/gpu.memory", "nvidia"),
            ("alpha.kubernetes.io/nvidia-gpu", "nvidia"),
        ] {
            assert_eq!(family_of(resource).map(|f| f.name), Some(family), "{resource}");
        }
        assert!(mentions_accelerator("insufficient quota for nvidia.com/gpu in flavor a100, 2 more needed"));
        assert!(!mentions_accelerator("insufficient quota for cpu in flavor default"));
        for resource in ["cpu", "memory", "pods", "ephemeral-storage", "example.com/foo", "hugepages-2Mi"] {
            assert!(!is_accelerator(resource), "{resource}");
        }
    }
}
