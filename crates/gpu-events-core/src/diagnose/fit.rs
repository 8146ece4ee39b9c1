//! The cause of a scheduler FitError (`0/5 nodes are available: 2 Insufficient nvidia.com/gpu,
//! 3 node(s) had untolerated taint {...}`), by the rule in the [module docs](super).

use super::Cause;
use crate::details::scheduling::{FitError, NodeReason};

/// Whether a resource name is an accelerator (the [`accelerators`](crate::accelerators) table).
pub(super) fn is_gpu_resource(resource: &str) -> bool {
    crate::accelerators::is_accelerator(resource)
}

/// Node counts per class of reason.
#[derive(Default)]
struct Tally {
    quota: u32,
    gpu_short: u32,
    other_short: u32,
    volume: u32,
    taint: u32,
    affinity: u32,
    accelerator_taint: bool,
    other_taint: bool,
    /// DRA: `cannot allocate all claims` (no published device satisfies a claim).
    dra_unsatisfiable: u32,
    /// MIG: short of a `nvidia.com/mig-<profile>` resource.
    mig_short: u32,
}

/// Taints that mark a node's state or role, not a dedication to some workloads.
fn is_state_taint(key: &str) -> bool {
    ["node.kubernetes.io/", "node-role.kubernetes.io/", "node.cloudprovider.kubernetes.io/", "karpenter.sh/"]
        .iter()
        .any(|prefix| key.starts_with(prefix))
        || key == "ToBeDeletedByClusterAutoscaler"
}

/// Whether a FitError from `reporter` asks for resources only another scheduler places: HAMi's
/// and Volcano's vGPU resources mean nothing to `default-scheduler` (the Pod's `schedulerName`
/// is wrong or missing).
pub(super) fn wrong_scheduler(fit: &FitError, reporter: Option<&str>) -> bool {
    reporter == Some("default-scheduler")
        && fit.reasons.iter().any(|entry| match &entry.reason {
            NodeReason::Insufficient { resource, .. } => {
                crate::accelerators::family_of(resource).is_some_and(|f| f.scheduler.is_some())
            }
            _ => false,
        })
}

/// The cause of a FitError, by the rule of the module docs.
pub(super) fn cause(fit: &FitError) -> Option<Cause> {
    let mut tally = Tally::default();
    for entry in &fit.reasons {
        let count = entry.count;
        match &entry.reason {
            NodeReason::Insufficient { resource, .. } if is_gpu_resource(resource) => {
                tally.gpu_short = tally.gpu_short.max(count);
                if crate::accelerators::family_of(resource).is_some_and(|f| f.name == "nvidia-mig") {
                    tally.mig_short = tally.mig_short.max(count);
                }
            }
            NodeReason::Insufficient { .. } | NodeReason::TooManyPods { .. } => {
                tally.other_short = tally.other_short.max(count)
            }
            NodeReason::UntoleratedTaint { key, value, .. } => {
                tally.taint += count;
                match key.as_deref() {
                    Some(key) if is_gpu_resource(key) || value.as_deref().is_some_and(is_gpu_resource) => {
                        tally.accelerator_taint = true
                    }
                    Some(key) if is_state_taint(key) => {}
                    _ => tally.other_taint = true,
                }
            }
            NodeReason::NodeAffinity { .. } => tally.affinity += count,
            NodeReason::VolumeAffinity { .. } | NodeReason::Volume { .. } => tally.volume += count,
            NodeReason::Dra { text } if text.contains("cannot allocate all claims") => {
                tally.dra_unsatisfiable = tally.dra_unsatisfiable.max(count)
            }
            // Extender and vendor tokens: quotas (`ExceedsGPUQuota`) and GPU shortages (HAMi's
            // `NodeUnfitPod`, `CardInsufficientMemory`, `NodeInsufficientDevice`).
            NodeReason::Other { text } => {
                let lower = text.to_ascii_lowercase();
                if lower.contains("quota") {
                    tally.quota += count;
                } else if ["gpu", "nodeunfitpod", "cardinsufficient", "insufficientdevice"]
                    .iter()
                    .any(|m| lower.contains(m))
                {
                    tally.gpu_short = tally.gpu_short.max(count);
                }
            }
            _ => {}
        }
    }
    let t = tally;
    if t.quota > 0 {
        return Some(Cause::GpuQuotaExceeded);
    }
    if t.dra_unsatisfiable > 0 && t.dra_unsatisfiable >= t.gpu_short {
        return Some(Cause::DraClaimUnsatisfiable);
    }
    if t.gpu_short > 0 {
        return Some(if t.other_short > t.gpu_short {
            Cause::InsufficientResources
        } else if t.mig_short == t.gpu_short {
            // Every node short of accelerators lacks the MIG profile asked for.
            Cause::MigProfileUnavailable
        } else {
            Cause::InsufficientGpu
        });
    }
    if t.other_short > 0 || t.volume > 0 {
        return Some(if t.other_short >= t.volume { Cause::InsufficientResources } else { Cause::VolumeMountFailed });
    }
    match (t.taint > 0, t.affinity > 0) {
        (true, false) => return Some(Cause::UntoleratedTaint),
        (false, true) => return Some(Cause::NodeAffinityMismatch),
        (true, true) if t.accelerator_taint => return Some(Cause::UntoleratedTaint),
        (true, true) if !t.other_taint => return Some(Cause::NodeAffinityMismatch),
        (true, true) if t.taint >= t.affinity => return Some(Cause::UntoleratedTaint),
        (true, true) => return Some(Cause::NodeAffinityMismatch),
        (false, false) => {}
    }
    let pvc = fit.pre_filter.as_deref().is_some_and(|p| p.to_ascii_lowercase().contains("persistentvolumeclaim"));
    pvc.then_some(Cause::VolumeMountFailed)
}
