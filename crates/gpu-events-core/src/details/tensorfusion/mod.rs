//! TensorFusion note grammars (NexusGPU/tensor-fusion main @3e0a490; v1 line @c7a2417 where it
//! differs; older releases for the retired reasons). Every grammar parses *and renders*:
//! `render(parse(note)) == note`, byte for byte.
//!
//! One struct per note format that carries data, grouped by the component that writes it:
//! the GPUResourcesFit and topology scheduler plugins ([`PreScheduleDone`] …), the gang
//! plugin and gang manager ([`GangWaitingInGroup`] …), the node expander
//! ([`NodeExpansionCheck`] …), the GPUPool controllers ([`NodeCreated`] …), defragmentation
//! ([`DefragStarted`] …), the GPUNode controller, the autoscaler and the connection controller,
//! and the reasons only older releases emit ([`OrphanedNode`] …).
//!
//! Free text (errors, group keys, summaries, Go struct dumps) is kept verbatim and rendered as
//! kept, so Go's `%`-mangling of pre-concatenated notes (`50%!u(MISSING)sed`) survives the round
//! trip; the typed pieces next to it are read from that text best-effort. Numbers written with
//! `%d` must be in Go's form (no `+`, no leading zero) or the note is not recognized, since a
//! different spelling could not be rendered back.
//!
//! Every details struct has a constructor (`new`, or one per form) taking the values the Go call
//! site passes; derived fields (a group key's parts, a URL's parts, an error's typed cause) are
//! computed from them, so a value built from names, numbers and errors of the shapes TensorFusion
//! writes renders to a note that parses back to the same value.

#[macro_use]
mod single_format;

mod connection;
mod defrag;
mod emit;
mod expansion;
mod gang;
mod node;
mod pool;
mod retired;
mod scheduling;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Details, Grammar, Note};

pub use connection::*;
pub use defrag::*;
pub use emit::Emission;
pub use expansion::*;
pub use gang::*;
pub use node::*;
pub use pool::*;
pub use retired::*;
pub use scheduling::*;

/// Declares [`TensorFusionDetails`] from one list: each row is the one declaration of a TensorFusion
/// note format, with its variant (the struct of the same name), its JSON `kind`, the `Grammar` static the
/// catalogue row points at (when the grammar is the struct's own `parse`), what TensorFusion records it
/// with (`emits (Reason)`: the catalogue row's type and action; `emits (by f)`: `f` decides from the
/// value; `emits (retired)`: only retired releases write it) and the kind of object it is recorded on.
///
/// Derived from the list: the enum and its serde tags, `kind()`, `render()`, `KINDS`, each struct's
/// `KIND`, the `From` conversions, the statics, [`TensorFusionDetails::emission`] and the exported
/// [`for_each_tensorfusion_note!`](crate::for_each_tensorfusion_note) macro the recorder derives its
/// `Publishable` impls from. The leading `$` is the dollar sign the exported macro's own matchers need.
macro_rules! tensorfusion_details {
    (@emit $details:ident, (retired)) => {{ let _ = $details; None }};
    (@emit $details:ident, (by $decide:ident)) => { Some(emit::$decide($details)) };
    (@emit $details:ident, ($Reason:ident)) => {{
        let _ = $details;
        Some(Emission::of(crate::reason::TensorFusionReason::$Reason))
    }};
    (
        $d:tt
        $(
            $(#[doc = $doc:literal])+
            $Variant:ident => $kind:literal $(, grammar $GRAMMAR:ident)?, emits $emit:tt $(on $Regarding:ident)?;
        )+
    ) => {
        /// Details of TensorFusion notes, one variant per note format (`kind` in JSON).
        ///
        /// `#[non_exhaustive]`: variants may be added.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "kind")]
        #[non_exhaustive]
        pub enum TensorFusionDetails {
            $(
                $(#[doc = $doc])+
                #[serde(rename = $kind)]
                $Variant($Variant),
            )+
        }

        impl TensorFusionDetails {
            /// The `kind` as in JSON.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(TensorFusionDetails::$Variant(_) => $kind,)+
                }
            }

            /// The note exactly as TensorFusion writes it.
            pub fn render(&self) -> String {
                match self {
                    $(TensorFusionDetails::$Variant(d) => d.render(),)+
                }
            }

            /// Every `kind` value, in declaration order.
            pub const KINDS: &'static [&'static str] = &[$($kind),+];

            /// The reason, type and action TensorFusion main records this note with; `None` for the
            /// formats only retired releases write (no current reason carries them).
            ///
            /// Most formats have one row whose type and action are the catalogue's; the gang variants name
            /// their reporter's row (`gangMembersWaiting` is the gang manager's `GangWaitingForMembers`,
            /// `gangWaitingInGroup` the scheduler plugin's), and a node-expansion check or failure and a
            /// resource scale decide from their value (internal/scheduler/expander/handler.go:82-338).
            pub fn emission(&self) -> Option<Emission> {
                match self {
                    $(TensorFusionDetails::$Variant(details) => tensorfusion_details!(@emit details, $emit),)+
                }
            }
        }

        impl super::DetailsType for TensorFusionDetails {
            fn from_details(details: &Details) -> Option<&Self> {
                match details {
                    Details::TensorFusion(details) => Some(details),
                    _ => None,
                }
            }
        }

        /// The variant names, in declaration order (to check that each `kind` is its variant's
        /// name in camelCase).
        #[cfg(test)]
        impl TensorFusionDetails {
            pub(crate) const VARIANTS: &'static [&'static str] = &[$(stringify!($Variant)),+];
        }

        $(
            impl $Variant {
                #[doc = concat!("The `kind` of this details type in JSON: `", $kind, "`.")]
                pub const KIND: &'static str = $kind;
            }

            impl super::DetailsType for $Variant {
                fn from_details(details: &Details) -> Option<&Self> {
                    match details {
                        Details::TensorFusion(TensorFusionDetails::$Variant(details)) => Some(details),
                        _ => None,
                    }
                }
            }

            impl From<$Variant> for TensorFusionDetails {
                fn from(details: $Variant) -> Self {
                    TensorFusionDetails::$Variant(details)
                }
            }

            impl From<$Variant> for Details {
                fn from(details: $Variant) -> Self {
                    Details::TensorFusion(TensorFusionDetails::$Variant(details))
                }
            }

            $(
                #[doc = concat!("Grammar producing `", $kind, "`: [`", stringify!($Variant), "::parse`] on the note.")]
                pub(crate) static $GRAMMAR: Grammar =
                    Grammar::new(&[$kind], |note: &Note<'_>| $Variant::parse(note.text).map(Details::from));
            )?
        )+

        /// Calls `$callback! { Details => Regarding; ... }` with every TensorFusion details type that a current
        /// reason records, and the kind of object it is recorded on (`Pod`, `GpuPool`, `GpuNode`, `Job`,
        /// `TensorFusionWorkload`, `TensorFusionConnection`), from the one list in
        /// `gpu_events_core::details::tensorfusion`. `gpu-events-recorder` derives its `Publishable` impls
        /// from it; a details type added there is publishable with no other change.
        #[macro_export]
        macro_rules! for_each_tensorfusion_note {
            ($d callback:ident) => {
                $d callback! { $($($Variant => $Regarding;)?)+ }
            };
        }
    };
}

tensorfusion_details! {
    $
    /// `PreScheduleDone`: `TensorFusion pre schedule done, valid GPU node count: %d`.
    PreScheduleDone => "preScheduleDone", grammar PRE_SCHEDULE_DONE, emits (PreScheduleDone) on Pod;
    /// `ScheduleWithNativeGPU`: `use native GPU resources, available native GPU nodes: %d`.
    ScheduleWithNativeGpu => "scheduleWithNativeGpu", grammar SCHEDULE_WITH_NATIVE_GPU, emits (ScheduleWithNativeGPU) on Pod;
    /// `GPUDeviceAllocated`: `Attach TensorFusion GPU device IDs to Pod: %s`.
    GpuDeviceAllocated => "gpuDeviceAllocated", grammar GPU_DEVICE_ALLOCATED, emits (GPUDeviceAllocated) on Pod;
    /// `GPUDeviceAllocatedFailed`: `Can not add GPU device IDs: %s`.
    GpuDeviceAllocatedFailed => "gpuDeviceAllocatedFailed", grammar GPU_DEVICE_ALLOCATED_FAILED, emits (GPUDeviceAllocatedFailed) on Pod;
    /// `PodIndexAllocationPending`: `Index %d will be patched into pod after released by other pod on the same node: %s`.
    PodIndexAllocationPending => "podIndexAllocationPending", grammar POD_INDEX_ALLOCATION_PENDING, emits (PodIndexAllocationPending) on Pod;
    /// `CommitFailed`: `Commit failed for pod %s after retries: %v`.
    CommitFailed => "commitFailed", grammar COMMIT_FAILED, emits (CommitFailed) on Pod;
    /// `ContainerGPUAllocationFailed`: `Error: %v`.
    ContainerGpuAllocationFailed => "containerGpuAllocationFailed", grammar CONTAINER_GPU_ALLOCATION_FAILED, emits (ContainerGPUAllocationFailed) on Pod;
    /// `GPUQuotaOrCapacityNotEnough`: `TensorFusion schedule failed, no enough resource or quotas: <error>`.
    GpuQuotaOrCapacityNotEnough => "gpuQuotaOrCapacityNotEnough", grammar GPU_QUOTA_OR_CAPACITY_NOT_ENOUGH, emits (GPUQuotaOrCapacityNotEnough) on Pod;
    /// `PartitionTemplateMatchFailed`: `Failed to match partition template: <error>`.
    PartitionTemplateMatchFailed => "partitionTemplateMatchFailed", grammar PARTITION_TEMPLATE_MATCH_FAILED, emits (PartitionTemplateMatchFailed) on Pod;
    /// `GPUInterconnectTopologyUnsatisfied`: `No node satisfies GPU topology constraint (mode=hard, maxTier=%d)`.
    GpuInterconnectTopologyUnsatisfied => "gpuInterconnectTopologyUnsatisfied", grammar GPU_INTERCONNECT_TOPOLOGY_UNSATISFIED, emits (GPUInterconnectTopologyUnsatisfied) on Pod;
    /// `GangWaitingForMembers` from the scheduler plugin: `Waiting for other members in group %s`.
    GangWaitingInGroup => "gangWaitingInGroup", emits (GangWaitingForMembers) on Pod;
    /// `GangWaitingForMembers` from `GangScheduler`: `Waiting for gang members: %d/%d ready`.
    GangMembersWaiting => "gangMembersWaiting", emits (GangManagerWaitingForMembers) on Pod;
    /// `GangScheduled` from the scheduler plugin: `All gang members ready for group %s`.
    GangMembersReady => "gangMembersReady", emits (GangScheduled) on Pod;
    /// `GangScheduled` from `GangScheduler`: `Pod group %s scheduled with %d members`.
    PodGroupScheduled => "podGroupScheduled", emits (GangManagerScheduled) on Pod;
    /// `GangSchedulingTimeout` from the scheduler plugin: `Gang scheduling timeout for group %s`.
    GangTimeout => "gangTimeout", emits (GangSchedulingTimeout) on Pod;
    /// `GangSchedulingTimeout` from `GangScheduler`: `Pod group %s timed out with %d/%d members ready`.
    PodGroupTimedOut => "podGroupTimedOut", emits (GangManagerSchedulingTimeout) on Pod;
    /// `GangStrictRejected`: `Gang group %s rejected because member %s could not be scheduled`.
    GangStrictRejected => "gangStrictRejected", grammar GANG_STRICT_REJECTED, emits (GangStrictRejected) on Pod;
    /// `NodeExpansionCheck`: the outcome (from the action and the note's wording) and the error.
    NodeExpansionCheck => "nodeExpansionCheck", emits (by check_emission) on Pod;
    /// `NodeExpansionCompleted`: `created new GPUNodeClaim|NodeClaim for node expansion: %s`.
    NodeExpansionCompleted => "nodeExpansionCompleted", grammar NODE_EXPANSION_COMPLETED, emits (NodeExpansionCompleted) on Pod;
    /// `NodeExpansionFailed`: no fitting node type, or a claim creation error.
    NodeExpansionFailed => "nodeExpansionFailed", grammar NODE_EXPANSION_FAILED, emits (by failure_emission) on Pod;
    /// `NodeExpansionCandidateFailed`: `Karpenter NodeClaim %s failed due to insufficient capacity; …`.
    NodeExpansionCandidateFailed => "nodeExpansionCandidateFailed", grammar NODE_EXPANSION_CANDIDATE_FAILED, emits (NodeExpansionCandidateFailed) on Pod;
    /// `ManagedNodeCreated` and the retired `GPUNodeCreated`: `Created node: %s, IP: %s`.
    NodeCreated => "nodeCreated", grammar NODE_CREATED, emits (ManagedNodeCreated) on GpuPool;
    /// `Compaction`: `Node %s is empty and deletion won't impact warm-up capacity, try terminating it`.
    Compaction => "compaction", grammar COMPACTION, emits (Compaction) on GpuPool;
    /// `MaxResourceConstraintReached`: `Max resource constraint can not be satisfied, can not scale up: %v`.
    MaxResourceConstraintReached => "maxResourceConstraintReached", grammar MAX_RESOURCE_CONSTRAINT_REACHED, emits (MaxResourceConstraintReached) on GpuPool;
    /// `DefragStarted`: `defrag step started at %s`.
    DefragStarted => "defragStarted", grammar DEFRAG_STARTED, emits (DefragStarted) on GpuPool;
    /// `DefragFinished`: `defrag step finished: candidates=%d … deadline=%t`.
    DefragFinished => "defragFinished", grammar DEFRAG_FINISHED, emits (DefragFinished) on GpuPool;
    /// `DefragPodEvicted`: `evicted pod %s/%s on node %s for defrag`.
    DefragPodEvicted => "defragPodEvicted", grammar DEFRAG_POD_EVICTED, emits (DefragPodEvicted) on GpuPool;
    /// `DefragSkipMissingPDB`: `node %s skipped from defrag: pod %s/%s has no PodDisruptionBudget covering it; …`.
    DefragSkipMissingPdb => "defragSkipMissingPdb", grammar DEFRAG_SKIP_MISSING_PDB, emits (DefragSkipMissingPDB) on GpuPool;
    /// `DefragSkipPDBBlocked`: `node %s skipped before eviction: %s`.
    DefragSkipPdbBlocked => "defragSkipPdbBlocked", grammar DEFRAG_SKIP_PDB_BLOCKED, emits (DefragSkipPDBBlocked) on GpuPool;
    /// `DefragSkipUnschedulable`: `node %s skipped: %s` with the placement summary.
    DefragSkipUnschedulable => "defragSkipUnschedulable", grammar DEFRAG_SKIP_UNSCHEDULABLE, emits (DefragSkipUnschedulable) on GpuPool;
    /// `DefragPodEvictFailed`: three forms, all ending `(node eviction aborted)`.
    DefragPodEvictFailed => "defragPodEvictFailed", grammar DEFRAG_POD_EVICT_FAILED, emits (DefragPodEvictFailed) on GpuPool;
    /// `DefragNodeEvictSkip`: `node %s added to defrag evict-skip list after eviction failure: %v`.
    DefragNodeEvictSkip => "defragNodeEvictSkip", grammar DEFRAG_NODE_EVICT_SKIP, emits (DefragNodeEvictSkip) on GpuPool;
    /// `DefragAbortNode`: three forms (simulation error, preflight failure, eviction aborted).
    DefragAbortNode => "defragAbortNode", grammar DEFRAG_ABORT_NODE, emits (DefragAbortNode) on GpuPool;
    /// `DefragConfigInvalid`: `defrag disabled: %v`.
    DefragConfigInvalid => "defragConfigInvalid", grammar DEFRAG_CONFIG_INVALID, emits (DefragConfigInvalid) on GpuPool;
    /// `HypervisorCrashLoopRecreate`: `Hypervisor pod %s deleted for recreation: container %s restarted %d times (threshold %d)`.
    HypervisorCrashLoopRecreate => "hypervisorCrashLoopRecreate", grammar HYPERVISOR_CRASH_LOOP_RECREATE, emits (HypervisorCrashLoopRecreate) on GpuNode;
    /// `DriverProbeFailed`: `Driver probe job failed after %d attempts`.
    DriverProbeFailed => "driverProbeFailed", grammar DRIVER_PROBE_FAILED, emits (DriverProbeFailed) on Job;
    /// `ResourceScaledUp` / `ResourceScaledDown`: `Resources scaled up|down: Compute %s->%s, VRAM %s->%s`.
    ResourceScaled => "resourceScaled", emits (by scale_emission) on TensorFusionWorkload;
    /// `WorkerSelected`: `Worker %s successfully selected for connection`.
    WorkerSelected => "workerSelected", grammar WORKER_SELECTED, emits (WorkerSelected) on TensorFusionConnection;
    /// `WorkerSelectionFailed`: `Failed to select worker: %v`.
    WorkerSelectionFailed => "workerSelectionFailed", grammar WORKER_SELECTION_FAILED, emits (WorkerSelectionFailed) on TensorFusionConnection;
    /// `ConnectionReady`: `Connection URL: %s`.
    ConnectionReady => "connectionReady", grammar CONNECTION_READY, emits (ConnectionReady) on TensorFusionConnection;
    /// Retired `OrphanedNode`: `provisioned node not found|without instanceID, …: %s`.
    OrphanedNode => "orphanedNode", grammar ORPHANED_NODE, emits (retired);
    /// Retired `NodeProvisionerNotFound`: two forms.
    NodeProvisionerNotFound => "nodeProvisionerNotFound", grammar NODE_PROVISIONER_NOT_FOUND, emits (retired);
    /// Retired `NodeNotFound`: fixed text plus Go's `%!(EXTRA string=…)` artefact.
    NodeNotFound => "nodeNotFound", grammar NODE_NOT_FOUND, emits (retired);
    /// Retired `CloudVendorParamEmpty`: `cloud vendor param is empty, but manage mode is provisioned: %s`.
    CloudVendorParamEmpty => "cloudVendorParamEmpty", grammar CLOUD_VENDOR_PARAM_EMPTY, emits (retired);
    /// Retired `SelectingWorker`: `Selecting worker for connection %s`.
    SelectingWorker => "selectingWorker", grammar SELECTING_WORKER, emits (retired);
    /// Retired `ScheduleGPUFailed`: `Failed to schedule GPU: %v`.
    ScheduleGpuFailed => "scheduleGpuFailed", grammar SCHEDULE_GPU_FAILED, emits (retired);
    /// Retired `AlertThresholdReached`: usage-over-threshold items.
    AlertThresholdReached => "alertThresholdReached", grammar ALERT_THRESHOLD_REACHED, emits (retired);
    /// Retired `WorkerFailed`: `Failed workers num: %d` (earlier `Failed workers: %d`).
    WorkerFailed => "workerFailed", grammar WORKER_FAILED, emits (retired);
    /// Retired `CheckComponentStatusError` / `UpdateClusterStatusError`: the raw error text.
    RawError => "rawError", grammar RAW_ERROR, emits (retired);
}

/// A number as Go's `%d` prints an unsigned value: ASCII digits, no sign, no leading zero.
///
/// Stricter than `str::parse` so that rendering the number gives back the same text.
fn go_uint<T: std::str::FromStr>(text: &str) -> Option<T> {
    let bytes = text.as_bytes();
    let canonical =
        !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) && (bytes.len() == 1 || bytes.first() != Some(&b'0'));
    if canonical { text.parse().ok() } else { None }
}

/// A number as Go's `%d` prints a signed value: [`go_uint`] with an optional `-` (never `-0`).
fn go_int<T: std::str::FromStr>(text: &str) -> Option<T> {
    match text.strip_prefix('-') {
        Some("0") => None,
        Some(digits) => go_uint::<u64>(digits).and_then(|_| text.parse().ok()),
        None => go_uint(text),
    }
}

/// `%t`: `true` or `false`.
fn go_bool(text: &str) -> Option<bool> {
    match text {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// `%t` as Go prints it.
fn bool_text(value: bool) -> &'static str {
    if value { "true" } else { "false" }
}

/// Like [`captures`](super::template::captures), but the format is matched from its end: each
/// verb takes the text back to the *last* occurrence of the literal before it, so the first verb
/// absorbs any text, including pieces that look like the format's own literals. Used where the
/// first value is free text (a gang group key) and the later ones are not. Every verb is one
/// character (`%s`, `%d`, …); `%%` is not supported.
fn rcaptures<'n, const N: usize>(format: &str, note: &'n str) -> Option<[&'n str; N]> {
    let mut out = [""; N];
    let mut format = format;
    let mut rest = note;
    for slot in (0..N).rev() {
        let verb = format.rfind('%')?;
        rest = rest.strip_suffix(format.get(verb + 2..)?)?;
        format = format.get(..verb)?;
        let literal_start = format.rfind('%').map_or(0, |at| at + 2);
        let literal = format.get(literal_start..)?;
        let value_start = if slot == 0 {
            rest.starts_with(literal).then_some(literal.len())?
        } else {
            rest.rfind(literal)? + literal.len()
        };
        *out.get_mut(slot)? = rest.get(value_start..)?;
        rest = rest.get(..value_start)?;
    }
    (rest == format).then_some(out)
}

/// Split a format at its last verb: the head (up to and including the verb) and the literal tail.
/// Used to match notes whose last value is free text followed by fixed text: the tail is
/// stripped first, so the value may contain anything.
fn split_last_verb(format: &'static str) -> (&'static str, &'static str) {
    match format.rfind('%') {
        Some(at) => (format.get(..at + 2).unwrap_or(format), format.get(at + 2..).unwrap_or("")),
        None => (format, ""),
    }
}

/// [`captures`](super::template::captures) for a format whose last verb is followed by fixed
/// text: the fixed text is stripped from the end of the note first.
fn captures_suffixed<'n, const N: usize>(format: &'static str, note: &'n str) -> Option<[&'n str; N]> {
    let (head, tail) = split_last_verb(format);
    super::template::captures(head, note.strip_suffix(tail)?)
}

/// Read a Go `%q` string at the start of `text`: the unquoted value and the text after it.
/// `None` when `text` does not start with a quoted string, or when quoting the value again would
/// not give the same text (so that rendering reproduces the note).
fn take_quoted(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut escaped = false;
    let mut end = None;
    for (at, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                end = Some(at);
                break;
            }
            _ => {}
        }
    }
    let end = end? + 2; // Both quotes.
    let quoted = text.get(..end)?;
    let value = unquote_canonical(quoted)?;
    Some((value, text.get(end..)?))
}

/// Undo `%q`, only when quoting the value again gives `quoted` back.
fn unquote_canonical(quoted: &str) -> Option<String> {
    let value = super::template::go_unquote(quoted)?;
    let again = super::template::fill("%q", &[super::template::Arg::Text(&value)]);
    (again == quoted).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_numbers_are_canonical() {
        assert_eq!(go_uint::<u32>("0"), Some(0));
        assert_eq!(go_uint::<u32>("42"), Some(42));
        for bad in ["", "007", "+1", "-1", "1.0", " 1", "4294967296", "１"] {
            assert_eq!(go_uint::<u32>(bad), None, "{bad:?}");
        }
        assert_eq!(go_int::<i32>("-5"), Some(-5));
        assert_eq!(go_int::<i32>("5"), Some(5));
        for bad in ["-0", "-", "--1", "-05", "+5"] {
            assert_eq!(go_int::<i32>(bad), None, "{bad:?}");
        }
        assert_eq!(go_bool("true"), Some(true));
        assert_eq!(go_bool("True"), None);
    }

    #[test]
    fn rcaptures_gives_the_slack_to_the_first_verb() {
        let format = "Pod group %s timed out with %d/%d members ready";
        assert_eq!(
            rcaptures(format, "Pod group a timed out with b timed out with 3/4 members ready"),
            Some(["a timed out with b", "3", "4"])
        );
        assert_eq!(rcaptures(format, "Pod group ml/x/y timed out with 3/4 members ready"), Some(["ml/x/y", "3", "4"]));
        assert_eq!(rcaptures::<3>(format, "Pod group x timed out with 3/4 members"), None);
        assert_eq!(rcaptures::<3>(format, "Pod grou x timed out with 3/4 members ready"), None);
        assert_eq!(rcaptures::<2>(format, "Pod group x timed out with 3/4 members ready"), None);
        assert_eq!(rcaptures("Worker %s selected", "Worker  selected"), Some([""]));
        assert_eq!(rcaptures("%s", "anything"), Some(["anything"]));
    }

    #[test]
    fn suffixed_captures_strip_the_tail_first() {
        let format = "failed to mark node %s as defrag source: %v (node eviction aborted)";
        assert_eq!(
            captures_suffixed(
                format,
                "failed to mark node n as defrag source: x (node eviction aborted) y (node eviction aborted)"
            ),
            Some(["n", "x (node eviction aborted) y"])
        );
        assert_eq!(captures_suffixed::<2>(format, "failed to mark node n as defrag source: x"), None);
    }

    #[test]
    fn quoted_strings_are_read_canonically() {
        assert_eq!(take_quoted(r#""a\"b" rest"#), Some(("a\"b".to_owned(), " rest")));
        assert_eq!(take_quoted(r#""unterminated"#), None);
        assert_eq!(take_quoted("bare"), None);
        // `\a` is valid Go but would be written back differently: not canonical.
        assert_eq!(take_quoted(r#""\a""#), None);
    }
}
