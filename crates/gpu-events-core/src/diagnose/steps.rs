//! Next steps of a diagnosis: the steps the evidence's typed details make specific
//! ([`specific`](super::specific)), then the cause's steps whose [`StepScope`] the object and
//! its evidence are in, with the object's names filled in.

use super::{Cause, ObjectKey, StepScope};
use crate::{EventRecord, Source};

/// The next steps for `cause` on `object`, from the records that support the cause (latest
/// first) and the diagnosis's evidence (for the kind, as [`Diagnosis::kind`](super::Diagnosis::kind)).
pub(super) fn next_steps(
    cause: Cause,
    object: &ObjectKey,
    supporting: &[&EventRecord],
    evidence: &[EventRecord],
) -> Vec<String> {
    let object = &ObjectKey { kind: likely_kind(object, evidence.iter()), ..object.clone() };
    let scopes = Scopes::of(object, supporting);
    let mut steps: Vec<String> = Vec::new();
    for step in super::specific::steps(cause, object, supporting) {
        if !steps.contains(&step) {
            steps.push(step);
        }
    }
    let specific_forms: Vec<&str> = steps.iter().filter_map(|s| form(s)).collect();
    for step in cause.steps().iter().filter(|s| s.scope.is_none_or(|scope| scopes.contains(scope))) {
        let step = fill(step.template, object);
        let replaced = form(&step).is_some_and(|f| specific_forms.contains(&f));
        if !replaced && !steps.contains(&step) {
            steps.push(step);
        }
    }
    steps
}

/// The object's kind; when the input does not name it (a pasted Events section without its
/// describe header), the one kind the catalogue gives every evidence reason (`FailedScheduling`
/// regards a Pod, Kueue's `Pending` a Workload).
pub(super) fn likely_kind<'a>(object: &ObjectKey, records: impl Iterator<Item = &'a EventRecord>) -> Option<String> {
    if object.kind.is_some() {
        return object.kind.clone();
    }
    let mut kinds = records.filter_map(|r| r.reason.reason()).map(|r| r.info().objects);
    let first = match kinds.next()? {
        [only] => *only,
        _ => return None,
    };
    kinds.all(|k| k == [first]).then(|| first.to_owned())
}

/// The namespaces the NVIDIA GPU Operator is installed in (its Helm chart's documented
/// `gpu-operator`, OpenShift's OperatorHub `nvidia-gpu-operator`).
const GPU_OPERATOR_NAMESPACES: &[&str] = &["gpu-operator", "nvidia-gpu-operator"];

/// The prefixes of the GPU Operator's Pods (its DaemonSets' names, gpu-operator
/// assets/state-*, v25.3) and its own Deployment's.
const GPU_OPERATOR_PODS: &[&str] = &[
    "gpu-operator-",
    "nvidia-operator-validator-",
    "nvidia-driver-daemonset-",
    "nvidia-container-toolkit-daemonset-",
    "nvidia-device-plugin-daemonset-",
    "nvidia-cuda-validator-",
    "nvidia-dcgm-exporter-",
    "gpu-feature-discovery-",
    "nvidia-mig-manager-",
];

/// Whether an object is the GPU Operator's, by its namespace or its Pod's name.
fn of_gpu_operator(namespace: Option<&str>, name: Option<&str>) -> bool {
    namespace.is_some_and(|ns| GPU_OPERATOR_NAMESPACES.contains(&ns))
        || name.is_some_and(|n| GPU_OPERATOR_PODS.iter().any(|p| n.starts_with(p)))
}

/// The scopes a diagnosis is in.
struct Scopes {
    kind: Option<String>,
    sources: Vec<Source>,
    api_groups: Vec<String>,
    nvidia: bool,
    gpu_operator: bool,
}

impl Scopes {
    fn of(object: &ObjectKey, evidence: &[&EventRecord]) -> Scopes {
        let mentions_nvidia = |r: &&EventRecord| {
            r.note.to_ascii_lowercase().contains("nvidia")
                || super::signal::mentions_xid(&r.note)
                || super::signal::mentions_xid(r.reason.as_str())
        };
        Scopes {
            kind: object.kind.clone(),
            sources: evidence.iter().filter_map(|r| r.source).collect(),
            api_groups: evidence
                .iter()
                .filter_map(|r| r.regarding.api_version.as_deref())
                .filter_map(|v| v.split_once('/').map(|(group, _)| group.to_owned()))
                .collect(),
            nvidia: evidence.iter().any(mentions_nvidia),
            gpu_operator: of_gpu_operator(object.namespace.as_deref(), object.name.as_deref())
                || evidence.iter().any(|r| {
                    r.source == Some(Source::NvidiaGpuOperator)
                        || of_gpu_operator(r.regarding.namespace.as_deref(), r.regarding.name.as_deref())
                }),
        }
    }

    fn kind_is(&self, kinds: &[&str]) -> bool {
        self.kind.as_deref().is_some_and(|k| kinds.iter().any(|known| known.eq_ignore_ascii_case(k)))
    }

    /// Evidence from `source`, an object of `api_group`, or a kind of that group (pasted text
    /// names kinds without their apiVersion).
    fn from(&self, source: Source, api_group: &str) -> bool {
        self.sources.contains(&source)
            || self.api_groups.iter().any(|g| g == api_group)
            || self
                .kind
                .as_deref()
                .is_some_and(|k| crate::record::kinds::kind_info(k).is_some_and(|info| info.group == api_group))
    }

    fn contains(&self, scope: StepScope) -> bool {
        match scope {
            StepScope::Pod => self.kind.is_none() || self.kind_is(&["Pod"]),
            StepScope::Node => self.kind_is(&["Node"]),
            StepScope::TensorFusion => self.from(Source::TensorFusion, "tensor-fusion.ai"),
            StepScope::Karpenter => self.from(Source::Karpenter, "karpenter.sh"),
            StepScope::ClusterAutoscaler => self.sources.contains(&Source::ClusterAutoscaler),
            StepScope::Kueue => self.from(Source::Kueue, "kueue.x-k8s.io"),
            StepScope::Volcano => {
                self.from(Source::Volcano, "scheduling.volcano.sh") || self.from(Source::Volcano, "batch.volcano.sh")
            }
            StepScope::Kai => self.from(Source::KaiScheduler, "scheduling.run.ai"),
            StepScope::Nvidia => self.nvidia || self.sources.contains(&Source::NvidiaGpuOperator),
            StepScope::Ascend => self.sources.contains(&Source::AscendDevicePlugin),
            StepScope::GpuOperator => self.gpu_operator,
        }
    }
}

/// The kind of look a step takes, so that a specific step (the node the note names, the
/// container that failed) stands in for the generic one (the `$(...)` lookup of the object's
/// node, `--all-containers`).
fn form(step: &str) -> Option<&'static str> {
    if step.starts_with("kubectl describe node ") {
        Some("node")
    } else if step.starts_with("kubectl logs ") {
        Some("logs")
    } else if step.contains("lastState") {
        Some("last-state")
    } else {
        None
    }
}

/// Put the object's kind, namespace and name into a step template; a cluster-scoped object
/// (no namespace: Node, GPUPool, GPUNode) gets no `-n` flag.
pub(super) fn fill(template: &str, object: &ObjectKey) -> String {
    let kind = object.kind.as_deref().unwrap_or("pod").to_ascii_lowercase();
    // A placeholder a shell does not read as a redirect.
    let name = object.name.as_deref().unwrap_or("NAME");
    let text = match object.namespace.as_deref() {
        Some(ns) => template.replace("{ns}", ns),
        None => template.replace(" -n {ns}", "").replace("{ns}", "default"),
    };
    // The GPU Operator's namespace: the object's when it is one, else the chart's default.
    let operator_ns = object.namespace.as_deref().filter(|ns| GPU_OPERATOR_NAMESPACES.contains(ns));
    let text = match operator_ns {
        Some(ns) => text.replace("{operator-ns}", ns).replace("   # the GPU Operator's default namespace", ""),
        None => text.replace("{operator-ns}", GPU_OPERATOR_NAMESPACES[0]),
    };
    text.replace("{kind}", &kind).replace("{name}", name)
}
