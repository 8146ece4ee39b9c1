//! Next steps of a diagnosis: the steps the evidence's typed details make specific (the Secret
//! a volume lacks, the hypervisor Pod that crashed), then the cause's steps whose
//! [`StepScope`] the object and its evidence are in, with the object's names filled in.

use super::{Cause, ObjectKey, StepScope};
use crate::details::node::{NodeDetails, RuntimeCause, VolumeProblem};
use crate::details::scheduling::{NodeReason, SchedulingDetails};
use crate::details::tensorfusion::TensorFusionDetails;
use crate::details::{Details, EcosystemDetails};
use crate::{EventRecord, Source};

/// TensorFusion's kinds (API group `tensor-fusion.ai`), for pasted text that has no apiVersion.
const TENSORFUSION_KINDS: &[&str] = &[
    "GPU",
    "GPUPool",
    "GPUNode",
    "GPUNodeClaim",
    "GPUNodeClass",
    "GPUResourceQuota",
    "TensorFusionCluster",
    "TensorFusionConnection",
    "TensorFusionWorkload",
    "SchedulingConfigTemplate",
    "WorkloadProfile",
];

/// Karpenter's kinds (API group `karpenter.sh`).
const KARPENTER_KINDS: &[&str] = &["NodeClaim", "NodePool"];

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
    let mut steps = specific(cause, object, supporting);
    steps.dedup();
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

/// The scopes a diagnosis is in.
struct Scopes {
    kind: Option<String>,
    sources: Vec<Source>,
    api_groups: Vec<String>,
    nvidia: bool,
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
        }
    }

    fn kind_is(&self, kinds: &[&str]) -> bool {
        self.kind.as_deref().is_some_and(|k| kinds.iter().any(|known| known.eq_ignore_ascii_case(k)))
    }

    fn from(&self, source: Source, api_group: &str, kinds: &[&str]) -> bool {
        self.sources.contains(&source) || self.api_groups.iter().any(|g| g == api_group) || self.kind_is(kinds)
    }

    fn contains(&self, scope: StepScope) -> bool {
        match scope {
            StepScope::Pod => self.kind.is_none() || self.kind_is(&["Pod"]),
            StepScope::Node => self.kind_is(&["Node"]),
            StepScope::TensorFusion => self.from(Source::TensorFusion, "tensor-fusion.ai", TENSORFUSION_KINDS),
            StepScope::Karpenter => self.from(Source::Karpenter, "karpenter.sh", KARPENTER_KINDS),
            StepScope::ClusterAutoscaler => self.sources.contains(&Source::ClusterAutoscaler),
            StepScope::Kueue => self.from(Source::Kueue, "kueue.x-k8s.io", &["ClusterQueue", "LocalQueue"]),
            StepScope::Nvidia => self.nvidia || self.sources.contains(&Source::NvidiaGpuOperator),
            StepScope::Ascend => self.sources.contains(&Source::AscendDevicePlugin),
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

/// Steps that the typed details of the evidence make specific.
fn specific(cause: Cause, object: &ObjectKey, evidence: &[&EventRecord]) -> Vec<String> {
    let ns = object.namespace.as_deref();
    let details = evidence.iter().filter_map(|r| r.details.as_ref());
    match cause {
        Cause::VolumeMountFailed => {
            let named: Vec<String> = details.clone().flat_map(|d| volume_steps(d, ns)).collect();
            // The kubelet's timeout names no kind; an earlier error that does says what to fix.
            let timed_out = details.clone().any(|d| matches!(d, Details::Node(NodeDetails::VolumesNotMounted(_))));
            match (named.is_empty(), timed_out, ns) {
                (true, true, Some(ns)) => vec![format!("kubectl get pvc -n {ns}"), format!("kubectl describe pvc -n {ns}")],
                (true, true, None) => vec!["kubectl get pvc".to_owned(), "kubectl describe pvc".to_owned()],
                _ => named,
            }
        }
        Cause::CrashLoop | Cause::ContainerOom if pod_like(object) => container_steps(object, evidence),
        Cause::CrashLoop => details
            .filter_map(|d| match d {
                Details::TensorFusion(TensorFusionDetails::HypervisorCrashLoopRecreate(h)) => {
                    Some(format!("kubectl logs -n tensor-fusion-sys {} -c {} --previous", h.pod, h.container))
                }
                _ => None,
            })
            .collect(),
        Cause::ConfigNotFound => {
            let ns = ns.map(|ns| format!(" -n {ns}")).unwrap_or_default();
            evidence.iter().filter_map(|r| VolumeProblem::find(&r.note)).flat_map(|p| problem_steps(&p, &ns)).collect()
        }
        // The quota the controller names.
        Cause::GpuQuotaExceeded => details
            .filter_map(|d| match d {
                Details::Node(NodeDetails::ControllerCreateFailed(failed)) => failed.quota.as_ref().map(|quota| {
                    fill(&format!("kubectl describe resourcequota {} -n {{ns}}", quota.quota), object)
                }),
                _ => None,
            })
            .collect(),
        Cause::DraPrepareFailed => details
            .flat_map(|d| match d {
                Details::Node(NodeDetails::DynamicResourcesFailed(failed)) => {
                    let claim = failed
                        .claim
                        .as_deref()
                        .and_then(|c| c.split_once('/'))
                        .map(|(claim_ns, claim)| format!("kubectl describe resourceclaim {claim} -n {claim_ns}"));
                    let driver = failed
                        .driver
                        .as_deref()
                        .map(|driver| format!("kubectl get resourceslices -o wide | grep {driver}"));
                    claim.into_iter().chain(driver).collect()
                }
                _ => Vec::new(),
            })
            .collect(),
        // Kata's GPU cold plug asks the kubelet's PodResources API which devices the Pod got.
        Cause::DevicePluginUnavailable => details
            .filter_map(|d| match d {
                Details::Node(NodeDetails::RuntimeFailure(failure)) => match &failure.cause {
                    RuntimeCause::DeviceColdPlugFailed { error } if error.contains("Get method disabled") => Some(
                        "enable the kubelet feature gate KubeletPodResourcesGet on the node: the Kata runtime's device cold plug calls the PodResources Get API".to_owned(),
                    ),
                    RuntimeCause::DeviceColdPlugFailed { .. } => {
                        Some("check the kubelet's PodResources API socket (/var/lib/kubelet/pod-resources) on the node: the Kata runtime's device cold plug reads it".to_owned())
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        // The Ascend plugin's event regards its own Pod; the faulty NPU's node is in the note.
        Cause::DeviceFault => details
            .filter_map(|d| match d {
                Details::Ecosystem(EcosystemDetails::NpuDeviceFault(fault)) => {
                    Some(format!("kubectl describe node {}", fault.node_name))
                }
                _ => None,
            })
            .collect(),
        // The kernel names the memory cgroup of the Pod whose container hit its limit.
        Cause::ContainerOom => details
            .filter_map(|d| match d {
                Details::Node(NodeDetails::OomKill(kill)) => kill.pod_uid.as_deref().map(|uid| {
                    format!(
                        "kubectl get pods -A -o jsonpath='{{range .items[?(@.metadata.uid==\"{uid}\")]}}{{.metadata.namespace}}/{{.metadata.name}}{{end}}'"
                    )
                }),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether the object is a Pod (or of unknown kind).
fn pod_like(object: &ObjectKey) -> bool {
    object.kind.as_deref().is_none_or(|k| k.eq_ignore_ascii_case("Pod"))
}

/// The failing container's previous logs and last state, when the evidence names it (the
/// `fieldPath` of kubelet events and pasted container states, a back-off note).
fn container_steps(object: &ObjectKey, evidence: &[&EventRecord]) -> Vec<String> {
    let from_path = |r: &&EventRecord| {
        let path = r.regarding.field_path.as_deref()?;
        let (list, rest) = path.split_once('{')?;
        Some((rest.strip_suffix('}')?.to_owned(), list == "spec.initContainers"))
    };
    let from_note = |r: &&EventRecord| match &r.details {
        Some(Details::Node(NodeDetails::RestartBackOff(back_off))) => back_off.container.clone().map(|c| (c, false)),
        _ => None,
    };
    let named = evidence.iter().find_map(from_path).or_else(|| evidence.iter().find_map(from_note));
    let Some((container, init)) = named else {
        return Vec::new();
    };
    let statuses = if init { "initContainerStatuses" } else { "containerStatuses" };
    let last_state = format!(
        "kubectl get {{kind}} {{name}} -n {{ns}} -o jsonpath='{{.status.{statuses}[?(@.name==\"{container}\")].lastState}}'"
    );
    vec![fill(&format!("kubectl logs {{name}} -n {{ns}} -c {container} --previous"), object), fill(&last_state, object)]
}

/// What to look at for a missing object or a failing CSI driver (`ns` is ` -n NS` or empty).
fn problem_steps(problem: &VolumeProblem, ns: &str) -> Vec<String> {
    match problem {
        VolumeProblem::SecretNotFound { name } => vec![format!("kubectl get secret {name}{ns}")],
        VolumeProblem::ConfigMapNotFound { name } => vec![format!("kubectl get configmap {name}{ns}")],
        VolumeProblem::ClaimNotFound { name } => vec![format!("kubectl get pvc {name}{ns}")],
        // describe lists a Secret's keys without their values.
        VolumeProblem::SecretKeyNotFound { name, key } => {
            vec![format!("kubectl describe secret {name}{ns}   # is there a key {key}?")]
        }
        VolumeProblem::ConfigMapKeyNotFound { name, key } => {
            vec![format!("kubectl describe configmap {name}{ns}   # is there a key {key}?")]
        }
        VolumeProblem::CsiDriverNotRegistered { driver } => {
            vec![format!("kubectl get csidriver {driver}"), "kubectl get pods -A -o wide | grep -i csi".to_owned()]
        }
        VolumeProblem::CsiDriverError => {
            vec!["kubectl get csidrivers".to_owned(), "kubectl get pods -A -o wide | grep -i csi".to_owned()]
        }
    }
}

/// What to look at for one volume failure: the missing Secret, ConfigMap or claim, or the CSI
/// driver.
fn volume_steps(details: &Details, ns: Option<&str>) -> Vec<String> {
    let ns = ns.map(|ns| format!(" -n {ns}")).unwrap_or_default();
    let claims = || vec![format!("kubectl get pvc{ns}"), format!("kubectl describe pvc{ns}")];
    match details {
        Details::Node(NodeDetails::VolumeOperationFailed(failure)) => match failure.problem() {
            Some(problem) => problem_steps(&problem, &ns),
            // An attach failure names the PersistentVolume.
            None if failure.operation.starts_with("AttachVolume") => {
                vec![format!("kubectl describe pv {}", failure.volume)]
            }
            None => Vec::new(),
        },
        Details::Node(NodeDetails::VolumeMultiAttach(attach)) => vec![
            format!("kubectl get volumeattachments | grep {}", attach.volume),
            format!("kubectl get pods{ns} -o wide"),
        ],
        Details::Scheduling(SchedulingDetails::FitError(fit))
            if fit
                .reasons
                .iter()
                .any(|r| matches!(r.reason, NodeReason::VolumeAffinity { .. } | NodeReason::Volume { .. }))
                || fit
                    .pre_filter
                    .as_deref()
                    .is_some_and(|p| p.to_ascii_lowercase().contains("persistentvolumeclaim")) =>
        {
            match fit.pre_filter.as_deref().and_then(VolumeProblem::find) {
                Some(VolumeProblem::ClaimNotFound { name }) => vec![format!("kubectl get pvc {name}{ns}")],
                _ => claims(),
            }
        }
        _ => Vec::new(),
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
    text.replace("{kind}", &kind).replace("{name}", name)
}
