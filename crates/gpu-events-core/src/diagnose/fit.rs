//! The cause of a scheduler FitError (`0/5 nodes are available: 2 Insufficient nvidia.com/gpu,
//! 3 node(s) had untolerated taint {...}`), by the rule in the [module docs](super).

use super::Cause;
use crate::details::scheduling::{FitError, NodeReason};

/// Whether a FitError's histogram counts every node it says were considered (`0/N`): the
/// scheduler reports a reason for each node, so counts that add up to less than N mean part of
/// the message is missing. Wordings without N, and a PreFilter rejection (no histogram), count
/// as whole.
pub(super) fn counts_every_node(fit: &FitError) -> bool {
    fit.ending != crate::details::scheduling::Ending::Truncated
        && (fit.reasons.is_empty()
            || fit
                .total_nodes
                .is_none_or(|total| fit.reasons.iter().map(|r| u64::from(r.count)).sum::<u64>() >= u64::from(total)))
}

/// Whether a resource name is an accelerator (the [`accelerators`](crate::accelerators) table).
pub(super) fn is_gpu_resource(resource: &str) -> bool {
    crate::accelerators::is_accelerator(resource)
}

/// HAMi's per-node and per-card filter codes (`hami-scheduler`'s extender reasons, fed into the
/// FitError histogram or its own `FilteringFailed` note: `1 nodes ModeNotFit(node-a)`), and what
/// each means for the Pod; matched case-insensitively as a substring (the 2023 releases spell
/// `node unregisterd`). Source: Project-HAMi/HAMi `pkg/scheduler/policy` and
/// `pkg/device/*/device.go` reason constants (v2.4-v2.6).
const HAMI_CODES: &[(&str, Cause)] = &[
    // The node has no device HAMi registered: no GPU there, from the scheduler's view.
    (NODE_UNREGISTERED, Cause::InsufficientGpu),
    ("nodeunfitpod", Cause::InsufficientGpu),
    ("cardinsufficientmemory", Cause::InsufficientGpu),
    ("cardinsufficientcore", Cause::InsufficientGpu),
    ("nodeinsufficientdevice", Cause::InsufficientGpu),
    ("cardtimeslicingexhausted", Cause::InsufficientGpu),
    ("allocatedcardsinsufficientrequest", Cause::InsufficientGpu),
    ("exclusivedeviceallocateconflict", Cause::InsufficientGpu),
    // A quota of HAMi's own (per namespace), not the nodes' capacity.
    ("resourcequotanotfit", Cause::GpuQuotaExceeded),
    // The request asks for what no card offers: a type, a UUID, a sharing mode, a NUMA fit.
    ("cardtypemismatch", Cause::InvalidGpuRequest),
    ("carduuidmismatch", Cause::InvalidGpuRequest),
    ("modenotfit", Cause::InvalidGpuRequest),
    ("numanotfit", Cause::InvalidGpuRequest),
    ("cardnothealth", Cause::DeviceFault),
    // The extender's filter answer when no node fits the device request at all
    // (`no available node, all node scores do not meet`).
    ("all node scores do not meet", Cause::InsufficientGpu),
];

/// HAMi's code for a node its device plugin registered no device of (the `unregisterd`
/// spelling included).
const NODE_UNREGISTERED: &str = "node unregister";

/// The cause a HAMi filter code in `text` names, if one does.
pub(super) fn hami_code(text: &str) -> Option<Cause> {
    let lower = text.to_ascii_lowercase();
    HAMI_CODES.iter().find(|(code, _)| lower.contains(code)).map(|(_, cause)| *cause)
}

/// Whether a resource is one a vendor's own device plugin registers under names that vary by
/// model or mode (`huawei.com/Ascend910B3-memory` beside `huawei.com/Ascend910`,
/// `tencent.com/vcuda-core`, `aws.amazon.com/neuron`, `gpu.intel.com/i915`), so that a request
/// often names what no plugin on the node advertises; not NVIDIA's or AMD's whole-GPU
/// resources, nor the names a scheduler of their own accounts for (HAMi, Volcano vGPU, KAI,
/// TensorFusion), whose shortage is as often real.
fn registered_per_model(resource: &str) -> bool {
    crate::accelerators::family_of(resource)
        .is_some_and(|f| matches!(f.name, "gpu-manager" | "gpushare" | "intel" | "ascend" | "tpu" | "neuron" | "gaudi"))
}

/// Whether every node the FitError counts (`0/N`) is short of one accelerator: then no node may
/// advertise it at all (no device plugin registered it), as well as all of it being in use.
pub(super) fn short_everywhere(fit: &FitError) -> bool {
    fit.total_nodes.is_some_and(|total| {
        fit.reasons.iter().any(|entry| {
            entry.count == total
                && matches!(&entry.reason, NodeReason::Insufficient { resource, .. } if is_gpu_resource(resource))
        })
    })
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
    /// Short of a vendor accelerator by the scheduler's own count (`Insufficient X`, X of a
    /// family [`registered_per_model`]), not an extender's token.
    counted_short: u32,
    /// A request no card offers (HAMi's `ModeNotFit`, `CardTypeMismatch`).
    invalid: u32,
    /// Cards reported unhealthy (HAMi's `CardNotHealth`).
    faulty: u32,
    /// Nodes HAMi has no devices registered for (`node unregistered`: its device plugin never
    /// wrote the node's handshake annotation).
    unregistered: u32,
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

/// The cause of a KAI-Scheduler note: its histogram read as a FitError's (`1 node(s) didn't
/// have enough resources: GPUs` is a GPU shortage, `... CPU cores` is not); a note without one
/// that speaks of a quota is a quota; any other (`Unable to schedule pod`) says no cause.
pub(super) fn kai_cause(kai: &crate::details::scheduling::KaiUnschedulable) -> Option<Cause> {
    if kai.reasons.is_empty() {
        return kai.summary.to_ascii_lowercase().contains("quota").then_some(Cause::GpuQuotaExceeded);
    }
    reasons_cause(&kai.reasons, None, None)
}

/// The cause of a FitError, by the rule of the module docs.
pub(super) fn cause(fit: &FitError) -> Option<Cause> {
    reasons_cause(&fit.reasons, fit.total_nodes, fit.pre_filter.as_deref())
}

/// The rule over a histogram, the nodes counted and a PreFilter message.
fn reasons_cause(
    reasons: &[crate::details::scheduling::ReasonCount],
    total_nodes: Option<u32>,
    pre_filter: Option<&str>,
) -> Option<Cause> {
    let mut tally = Tally::default();
    for entry in reasons {
        let count = entry.count;
        match &entry.reason {
            NodeReason::Insufficient { resource, .. } if is_gpu_resource(resource) => {
                tally.gpu_short = tally.gpu_short.max(count);
                if registered_per_model(resource) {
                    tally.counted_short = tally.counted_short.max(count);
                }
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
            NodeReason::Other { text } if text.to_ascii_lowercase().contains(NODE_UNREGISTERED) => {
                tally.unregistered = tally.unregistered.max(count);
                tally.gpu_short = tally.gpu_short.max(count);
            }
            NodeReason::Other { text } => match hami_code(text) {
                Some(Cause::GpuQuotaExceeded) => tally.quota += count,
                Some(Cause::InvalidGpuRequest) => tally.invalid = tally.invalid.max(count),
                Some(Cause::DeviceFault) => tally.faulty = tally.faulty.max(count),
                Some(_) => tally.gpu_short = tally.gpu_short.max(count),
                // Extender tokens: quotas (`ExceedsGPUQuota`) and GPU shortages.
                None if text.to_ascii_lowercase().contains("quota") => tally.quota += count,
                None if text.to_ascii_lowercase().contains("gpu") => tally.gpu_short = tally.gpu_short.max(count),
                None => {}
            },
            _ => {}
        }
    }
    let t = tally;
    if t.quota > 0 {
        return Some(Cause::GpuQuotaExceeded);
    }
    // Cards no request could use: the request is wrong (or the cards are sick), not the count.
    if t.invalid > 0 && t.invalid >= t.gpu_short {
        return Some(Cause::InvalidGpuRequest);
    }
    if t.faulty > 0 && t.faulty >= t.gpu_short {
        return Some(Cause::DeviceFault);
    }
    if t.dra_unsatisfiable > 0 && t.dra_unsatisfiable >= t.gpu_short {
        return Some(Cause::DraClaimUnsatisfiable);
    }
    // Every node has none of a vendor accelerator to give, and nothing else is wrong: more often
    // nothing advertises the resource (no device plugin, or one that registers other names) than
    // other Pods hold all of it. HAMi saying so of every node says it outright.
    let alone = t.other_short + t.taint + t.affinity + t.volume + t.mig_short == 0;
    let everywhere = |count: u32| count > 0 && total_nodes == Some(count);
    if alone && (everywhere(t.counted_short) || everywhere(t.unregistered)) {
        return Some(Cause::DevicePluginMissing);
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
    let pvc = pre_filter.is_some_and(|p| p.to_ascii_lowercase().contains("persistentvolumeclaim"));
    pvc.then_some(Cause::VolumeMountFailed)
}
