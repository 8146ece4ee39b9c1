//! Steps that the typed details of the evidence make specific: the Secret, ConfigMap, claim or
//! CSI driver a volume or container lacks, the failing container, the DRA claim and driver, the
//! node of a faulty device, the Pod of a memory cgroup, the quota that refused a Pod.

use super::steps::fill;
use super::{Cause, ObjectKey};
use crate::EventRecord;
use crate::details::node::{NodeDetails, RuntimeCause, VolumeProblem};
use crate::details::scheduling::{NodeReason, SchedulingDetails};
use crate::details::tensorfusion::TensorFusionDetails;
use crate::details::{Details, EcosystemDetails};

/// Steps that the typed details of the evidence make specific.
pub(super) fn steps(cause: Cause, object: &ObjectKey, evidence: &[&EventRecord]) -> Vec<String> {
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
        Cause::ColdPlugFailed => details
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
    let from_note = |r: &&EventRecord| {
        super::signal::back_off_container(r).map(|c| (c.to_owned(), crate::accelerators::is_init_container(c)))
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
