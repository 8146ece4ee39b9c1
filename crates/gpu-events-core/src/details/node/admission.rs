//! Kubelet admission rejections: `UnexpectedAdmissionError` (device manager), `OutOf<resource>`
//! and `SMTAlignmentError` (kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go,
//! pkg/kubelet/cm/admission/errors.go, pkg/kubelet/cm/devicemanager/manager.go,
//! pkg/kubelet/cm/cpumanager/policy_static.go; v1.9–v1.36).
//!
//! The event note has no prefix; the rejected Pod's `status.message` is the same text after
//! `Pod was rejected: ` (≥1.26, PR #112644) or `Pod ` (before). Both are accepted.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{GrpcStatus, NvmlError, after, strip_pod_status_prefix};
use crate::details::template::captures;

/// Which kubelet wrapper carried the device-allocation error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AdmissionStep {
    /// `Allocate failed due to %v, which is unexpected` (current kubelets).
    Allocate,
    /// `Update plugin resources failed due to %v, which is unexpected.` (older kubelets ran
    /// device allocation here; the final period is sometimes missing).
    UpdatePluginResources,
    /// `Unexpected error while attempting to recover from admission failure: %v`.
    RecoverAdmissionFailure,
}

/// The device-manager error inside the admission failure, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AllocationCause {
    /// `requested number of devices unavailable for %s. Requested: %d, Available: %d`.
    DevicesUnavailable,
    /// `no healthy devices present; cannot allocate unhealthy devices %s`.
    NoHealthyDevices,
    /// `previously allocated devices are no longer healthy; cannot allocate unhealthy devices %s`.
    PreviouslyAllocatedUnhealthy,
    /// `cannot allocate unregistered device %s` (the device plugin is not registered yet, for
    /// example right after a node reboot).
    UnregisteredDevice,
    /// `pod %v container %v changed request for resource %v from %v to %v`.
    RequestChanged,
    /// `device plugin GetPreferredAllocation rpc failed with err: %v`.
    PreferredAllocationFailed,
    /// The kubelet could not admit a critical Pod by preempting others (pkg/kubelet/preemption,
    /// v1.9–v1.36): `preemption: error finding a set of pods to preempt: no set of running pods
    /// found to reclaim resources: [(res: %v, q: %v), ]`; the node is short of what
    /// [`UnexpectedAdmission::shortfall`] lists, and no running Pod frees it.
    NoPodsToPreempt,
    /// The device plugin's Allocate call returned a gRPC error (`rpc error: code = ...`).
    DevicePluginRpc,
    /// Any other text (vendor plugins, topology manager).
    Other,
}

/// Device allocation failed during kubelet admission (`UnexpectedAdmissionError`).
///
/// Example: `Allocate failed due to requested number of devices unavailable for nvidia.com/gpu.
/// Requested: 4, Available: 0, which is unexpected`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UnexpectedAdmission {
    /// `true` when the text is a Pod `status.message` (prefix `Pod was rejected: ` or `Pod `).
    pub pod_status: bool,
    /// The kubelet wrapper.
    pub step: AdmissionStep,
    /// The classified inner error.
    pub cause: AllocationCause,
    /// The extended resource (`nvidia.com/gpu`), when the error names one. May be a redaction
    /// such as `xxx`; it is not validated.
    pub resource: Option<String>,
    /// Devices requested (count), for `DevicesUnavailable`.
    pub requested: Option<u64>,
    /// Devices available (count), for `DevicesUnavailable`.
    pub available: Option<u64>,
    /// Pod UID, when the error starts `pod <uid> container <name> ` (the kubelet's
    /// request-changed error and some vendor plugins).
    pub pod_uid: Option<String>,
    /// Container name, with `pod_uid`.
    pub container: Option<String>,
    /// The gRPC status of the device plugin call, when the error has one.
    pub grpc: Option<GrpcStatus>,
    /// An NVML error inside the error, when there is one.
    pub nvml: Option<NvmlError>,
    /// What the node is short of, for [`AllocationCause::NoPodsToPreempt`], in the kubelet's
    /// order; empty otherwise (omitted from JSON then).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shortfall: Vec<Shortfall>,
    /// The inner error (the `%v`), verbatim.
    pub error: String,
}

/// One resource the kubelet's admission preemption could not reclaim (`(res: cpu, q: 2550)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Shortfall {
    /// The resource (`cpu`, `memory`, `pods`, `nvidia.com/gpu`).
    pub resource: String,
    /// How much is missing, in the resource's base unit as the kubelet counts it: millicores
    /// for `cpu`, bytes for `memory` and `ephemeral-storage`, a count for `pods` and extended
    /// resources.
    pub quantity: i64,
}

/// The `[(res: %v, q: %v), ...]` list of `admissionRequirementList.toString()`; empty when the
/// text is not one.
fn shortfall_list(text: &str) -> Vec<Shortfall> {
    let Some(list) = text.trim().strip_prefix('[') else { return Vec::new() };
    list.split("(res: ")
        .skip(1)
        .filter_map(|item| {
            let (resource, rest) = item.split_once(", q: ")?;
            let quantity = rest.split_once(')')?.0.trim().parse().ok()?;
            Some(Shortfall { resource: resource.trim().to_owned(), quantity })
        })
        .collect()
}

impl UnexpectedAdmission {
    /// Parse any `UnexpectedAdmissionError` note or Pod status message.
    pub fn parse(note: &str) -> Option<Self> {
        let (pod_status, text) = strip_pod_status_prefix(note);
        let (step, error) = if let Some(rest) = text.strip_prefix("Allocate failed due to ") {
            (AdmissionStep::Allocate, strip_unexpected(rest)?)
        } else if let Some(rest) = text.strip_prefix("Update plugin resources failed due to ") {
            (AdmissionStep::UpdatePluginResources, strip_unexpected(rest)?)
        } else {
            let rest = text.strip_prefix("Unexpected error while attempting to recover from admission failure: ")?;
            (AdmissionStep::RecoverAdmissionFailure, rest)
        };
        let mut admission = UnexpectedAdmission {
            pod_status,
            step,
            cause: AllocationCause::Other,
            resource: None,
            requested: None,
            available: None,
            pod_uid: None,
            container: None,
            grpc: GrpcStatus::find(error),
            nvml: NvmlError::find(error),
            shortfall: Vec::new(),
            error: error.to_owned(),
        };
        admission.classify(error);
        Some(admission)
    }

    fn classify(&mut self, error: &str) {
        if let Some(list) = after(error, "no set of running pods found to reclaim resources: ") {
            let shortfall = shortfall_list(list);
            if !shortfall.is_empty() {
                self.cause = AllocationCause::NoPodsToPreempt;
                self.resource = Some(shortfall[0].resource.clone());
                self.shortfall = shortfall;
                return;
            }
        }
        let mut inner = error;
        if let Some([uid, container, rest]) = captures::<3>("pod %s container %s %s", error)
            && !uid.contains(' ')
            && !container.contains(' ')
        {
            self.pod_uid = Some(uid.to_owned());
            self.container = Some(container.to_owned());
            inner = rest;
        }
        if let Some(rest) = error.strip_prefix("requested number of devices unavailable for ")
            && let Some((resource, requested, available)) = devices_unavailable(rest)
        {
            self.cause = AllocationCause::DevicesUnavailable;
            self.resource = Some(resource.to_owned());
            self.requested = Some(requested);
            self.available = Some(available);
            return;
        }
        for (prefix, cause) in [
            ("no healthy devices present; cannot allocate unhealthy devices ", AllocationCause::NoHealthyDevices),
            (
                "previously allocated devices are no longer healthy; cannot allocate unhealthy devices ",
                AllocationCause::PreviouslyAllocatedUnhealthy,
            ),
            ("cannot allocate unregistered device ", AllocationCause::UnregisteredDevice),
        ] {
            if let Some(resource) = error.strip_prefix(prefix) {
                self.cause = cause;
                self.resource = Some(resource.trim().to_owned());
                return;
            }
        }
        if self.pod_uid.is_some()
            && let Some([resource, _, _]) = captures::<3>("changed request for resource %v from %v to %v", inner)
        {
            self.cause = AllocationCause::RequestChanged;
            self.resource = Some(resource.to_owned());
            return;
        }
        self.cause = if error.contains("GetPreferredAllocation rpc failed") {
            AllocationCause::PreferredAllocationFailed
        } else if self.grpc.is_some() {
            AllocationCause::DevicePluginRpc
        } else {
            AllocationCause::Other
        };
        // Device plugins commonly name the resource as `invalid allocation request for "x"`.
        if let Some(rest) = after(error, "allocation request for \"")
            && let Some((resource, _)) = rest.split_once('"')
        {
            self.resource = Some(resource.to_owned());
        }
    }
}

/// Remove the admission wrapper's `, which is unexpected` (with or without the final period).
fn strip_unexpected(text: &str) -> Option<&str> {
    let text = text.trim_end();
    let text = text.strip_suffix('.').unwrap_or(text);
    text.strip_suffix(", which is unexpected")
}

/// `%s. Requested: %d, Available: %d`, tolerating missing or extra spaces.
fn devices_unavailable(text: &str) -> Option<(&str, u64, u64)> {
    let (resource, numbers) = text.split_once("Requested:")?;
    let resource = resource.trim_end();
    let resource = resource.strip_suffix('.').unwrap_or(resource).trim_end();
    let (requested, available) = numbers.split_once(',')?;
    let available = available.trim_start().strip_prefix("Available:")?;
    let resource = (!resource.is_empty()).then_some(resource)?;
    Some((resource, requested.trim().parse().ok()?, available.trim().parse().ok()?))
}

/// The node lacks a resource the Pod requests (`OutOf<resource>`, pkg/kubelet/lifecycle/predicate.go;
/// the same text in the old DaemonSet `FailedPlacement`):
/// `Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d`.
///
/// Amounts are integers in the resource's base unit as the kubelet counts it: millicores for
/// `cpu`, bytes for `memory` and `ephemeral-storage`, a count for `pods` and extended resources
/// (`nvidia.com/gpu`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OutOfResource {
    /// `true` when the text is a Pod `status.message` (prefix `Pod was rejected: ` or `Pod `).
    pub pod_status: bool,
    /// The resource name (`cpu`, `memory`, `nvidia.com/gpu`).
    pub resource: String,
    /// Amount the Pod requests (base unit, see the type docs).
    pub requested: u64,
    /// Amount already used by admitted Pods (base unit).
    pub used: u64,
    /// Node allocatable capacity (base unit).
    pub capacity: u64,
}

impl OutOfResource {
    /// Parse the insufficient-resource text (optionally with a Pod status prefix).
    pub fn parse(note: &str) -> Option<Self> {
        let (pod_status, text) = strip_pod_status_prefix(note);
        let [resource, requested, used, capacity] =
            captures("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", text.trim_end())?;
        Some(OutOfResource {
            pod_status,
            resource: resource.to_owned(),
            requested: requested.parse().ok()?,
            used: used.parse().ok()?,
            capacity: capacity.parse().ok()?,
        })
    }
}

/// The static CPU manager with `full-pcpus-only` could not give the Pod whole physical cores
/// (`SMTAlignmentError`, pkg/kubelet/cm/cpumanager/policy_static.go): `SMT Alignment Error:
/// requested %d cpus not multiple cpus per core = %d`, or `SMT Alignment Error: not enough free
/// physical CPUs: available physical CPUs = %d, requested CPUs = %d, CPUs per core = %d`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SmtAlignment {
    /// `true` when the text is a Pod `status.message`.
    pub pod_status: bool,
    /// CPUs requested (count).
    pub requested_cpus: u32,
    /// Hardware threads per physical core (count).
    pub cpus_per_core: u32,
    /// Free physical CPUs (count), in the not-enough-physical-CPUs form.
    pub available_physical_cpus: Option<u32>,
}

impl SmtAlignment {
    /// Parse either SMT alignment form.
    pub fn parse(note: &str) -> Option<Self> {
        let (pod_status, text) = strip_pod_status_prefix(note);
        let text = text.trim_end();
        if let Some([requested, per_core]) =
            captures("SMT Alignment Error: requested %d cpus not multiple cpus per core = %d", text)
        {
            return Some(SmtAlignment {
                pod_status,
                requested_cpus: requested.parse().ok()?,
                cpus_per_core: per_core.parse().ok()?,
                available_physical_cpus: None,
            });
        }
        let [available, requested, per_core] = captures(
            "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = %d, requested CPUs = %d, CPUs per core = %d",
            text,
        )?;
        Some(SmtAlignment {
            pod_status,
            requested_cpus: requested.parse().ok()?,
            cpus_per_core: per_core.parse().ok()?,
            available_physical_cpus: Some(available.parse().ok()?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_unavailable_in_every_wording() {
        let a = UnexpectedAdmission::parse(
            "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected",
        )
        .unwrap();
        assert_eq!(a.step, AdmissionStep::Allocate);
        assert_eq!(a.cause, AllocationCause::DevicesUnavailable);
        assert_eq!(a.resource.as_deref(), Some("nvidia.com/gpu"));
        assert_eq!((a.requested, a.available), (Some(4), Some(0)));
        assert!(!a.pod_status);

        let tight = UnexpectedAdmission::parse(
            "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested:1, Available:0, which is unexpected",
        )
        .unwrap();
        assert_eq!((tight.requested, tight.available), (Some(1), Some(0)));

        for note in [
            "Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected.",
            "Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
            "Pod Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
            "Pod was rejected: Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected.",
        ] {
            let u = UnexpectedAdmission::parse(note).unwrap();
            assert_eq!(u.step, AdmissionStep::UpdatePluginResources, "{note}");
            assert_eq!(u.cause, AllocationCause::DevicesUnavailable, "{note}");
            assert_eq!((u.requested, u.available), (Some(1), Some(0)), "{note}");
            assert_eq!(u.pod_status, note.starts_with("Pod"), "{note}");
        }
    }

    #[test]
    fn health_registration_and_request_changes() {
        let cases = [
            (
                "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/mig-1g.5gb, which is unexpected",
                AllocationCause::NoHealthyDevices,
                "nvidia.com/mig-1g.5gb",
            ),
            (
                "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices xxx, which is unexpected",
                AllocationCause::NoHealthyDevices,
                "xxx",
            ),
            (
                "Allocate failed due to previously allocated devices are no longer healthy; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected",
                AllocationCause::PreviouslyAllocatedUnhealthy,
                "nvidia.com/gpu",
            ),
            (
                "Allocate failed due to cannot allocate unregistered device nvidia.com/gpu, which is unexpected",
                AllocationCause::UnregisteredDevice,
                "nvidia.com/gpu",
            ),
            (
                "Allocate failed due to pod 0f1e2d3c-aaaa container trainer changed request for resource nvidia.com/gpu from 1 to 2, which is unexpected",
                AllocationCause::RequestChanged,
                "nvidia.com/gpu",
            ),
        ];
        for (note, cause, resource) in cases {
            let a = UnexpectedAdmission::parse(note).unwrap();
            assert_eq!(a.cause, cause, "{note}");
            assert_eq!(a.resource.as_deref(), Some(resource), "{note}");
            assert_eq!((a.requested, a.available), (None, None), "{note}");
        }
        let changed = UnexpectedAdmission::parse(cases[4].0).unwrap();
        assert_eq!(changed.pod_uid.as_deref(), Some("0f1e2d3c-aaaa"));
        assert_eq!(changed.container.as_deref(), Some("trainer"));
    }

    #[test]
    fn device_plugin_rpc_errors() {
        let eof = UnexpectedAdmission::parse(
            "Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected",
        )
        .unwrap();
        assert_eq!(eof.cause, AllocationCause::DevicePluginRpc);
        let grpc = eof.grpc.unwrap();
        assert_eq!((grpc.code.as_str(), grpc.description.as_str()), ("Unavailable", "error reading from server: EOF"));
        assert_eq!(eof.resource, None);

        let preferred = UnexpectedAdmission::parse(
            "Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = Unable to retrieve list of available devices: error creating nvml.Device 5: nvml: Insufficient Permissions, which is unexpected",
        )
        .unwrap();
        assert_eq!(preferred.cause, AllocationCause::PreferredAllocationFailed);
        assert_eq!(preferred.grpc.unwrap().code, "Unknown");
        let nvml = preferred.nvml.unwrap();
        assert_eq!((nvml.device, nvml.error.as_str()), (Some(5), "Insufficient Permissions"));

        let sharing = UnexpectedAdmission::parse(
            "Allocate failed due to rpc error: code = Unknown desc = invalid allocation request for \"nvidia.com/gpu\": invalid request: maximum request size for shared resources is 1; found 2, which is unexpected",
        )
        .unwrap();
        assert_eq!(sharing.resource.as_deref(), Some("nvidia.com/gpu"));
        assert_eq!(
            sharing.grpc.unwrap().description,
            "invalid allocation request for \"nvidia.com/gpu\": invalid request: maximum request size for shared resources is 1; found 2"
        );

        let vendor = UnexpectedAdmission::parse(
            "Pod Allocate failed due to pod d65f09ad-cca3-4631-a0a3-d5ba850f8a69 container wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected",
        )
        .unwrap();
        assert_eq!(vendor.cause, AllocationCause::Other);
        assert!(vendor.pod_status);
        assert_eq!(vendor.pod_uid.as_deref(), Some("d65f09ad-cca3-4631-a0a3-d5ba850f8a69"));
        assert_eq!(vendor.container.as_deref(), Some("wait-gcs-ready"));

        let recover = UnexpectedAdmission::parse(
            "Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: nvidia.com/gpu, q: 1), ]",
        )
        .unwrap();
        assert_eq!(recover.step, AdmissionStep::RecoverAdmissionFailure);
        assert_eq!(recover.cause, AllocationCause::NoPodsToPreempt);
        assert_eq!(recover.resource.as_deref(), Some("nvidia.com/gpu"));
        assert_eq!(recover.shortfall, vec![Shortfall { resource: "nvidia.com/gpu".to_owned(), quantity: 1 }]);
        // kube-state-metrics#1145: a Pod's status message, two resources.
        let pods = UnexpectedAdmission::parse(
            "Pod Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: pods, q: 1), (res: cpu, q: 2550), ]",
        )
        .unwrap();
        assert!(pods.pod_status);
        assert_eq!(
            pods.shortfall.iter().map(|s| (s.resource.as_str(), s.quantity)).collect::<Vec<_>>(),
            [("pods", 1), ("cpu", 2550)]
        );
        // A list cut short names no shortfall.
        let cut = UnexpectedAdmission::parse(
            "Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: mem",
        )
        .unwrap();
        assert_eq!(cut.cause, AllocationCause::Other);
    }

    #[test]
    fn admission_near_misses() {
        for bad in [
            "Allocate failed due to something",
            "Allocate failed due to x, which is fine",
            "Update plugin resources failed",
            "Pod Allocate failed",
            "UnexpectedAdmissionError",
        ] {
            assert_eq!(UnexpectedAdmission::parse(bad), None, "{bad}");
        }
        // A malformed count falls back to the generic cause instead of failing.
        let odd = UnexpectedAdmission::parse(
            "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: many, Available: 0, which is unexpected",
        )
        .unwrap();
        assert_eq!(odd.cause, AllocationCause::Other);
    }

    #[test]
    fn out_of_resource_and_smt() {
        let out = OutOfResource::parse(
            "Node didn't have enough resource: memory, requested: 2147483648, used: 32290433792, capacity: 32457011200",
        )
        .unwrap();
        assert_eq!(out.resource, "memory");
        assert_eq!((out.requested, out.used, out.capacity), (2147483648, 32290433792, 32457011200));
        let gpu = OutOfResource::parse(
            "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 8, capacity: 8",
        )
        .unwrap();
        assert!(gpu.pod_status);
        assert_eq!(gpu.resource, "nvidia.com/gpu");
        assert_eq!(
            OutOfResource::parse("Node didn't have enough resource: cpu, requested: x, used: 1, capacity: 2"),
            None
        );
        assert_eq!(OutOfResource::parse("Node didn't have enough resource: cpu"), None);

        let multiple =
            SmtAlignment::parse("SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2").unwrap();
        assert_eq!((multiple.requested_cpus, multiple.cpus_per_core, multiple.available_physical_cpus), (3, 2, None));
        let physical = SmtAlignment::parse(
            "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = 4, requested CPUs = 8, CPUs per core = 2",
        )
        .unwrap();
        assert_eq!(
            (physical.requested_cpus, physical.cpus_per_core, physical.available_physical_cpus),
            (8, 2, Some(4))
        );
        assert_eq!(SmtAlignment::parse("SMT Alignment Error: something else"), None);
    }
}
