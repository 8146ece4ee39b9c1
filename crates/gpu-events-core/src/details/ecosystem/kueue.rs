//! Kueue note grammars (kubernetes-sigs/kueue, v0.20.0-devel ff69552e, with the formats of tags
//! v0.5–v0.19): the inadmissible message of `Pending` and its granular reasons, `QuotaReserved`,
//! `Admitted`, `Preempted`, `PreemptedWorkload`, `EvictedDueTo<reason>`, `CreatedWorkload`,
//! `Started`, `FinishedWorkload`. Kueue cuts notes at 1024 bytes and appends ` ...`; every
//! grammar here tolerates that.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::text::{
    closing_bracket, go_duration_seconds, quoted_prefix, split_top_level, split_top_level_where, strip_truncation,
};
use crate::details::Quantity;
use crate::details::template::captures;

/// Why Kueue could not reserve quota for a Workload: the inadmissible message recorded as
/// `Pending` (and, with the UnadmittedWorkloadsObservability gate, as `WaitingForQuota`,
/// `ExceedsMaxQuota`, `NoMatchingFlavor`, `TopologyPlacementFailed`,
/// `WaitingForPreemptedWorkloads`, `Misconfigured`, `Suspended`; `SecondPassFailed` for the TAS
/// second pass).
///
/// Formats (kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/scheduler/flavorassigner/
/// flavorassigner.go `Assignment.Message`, ff69552e): per pod set `couldn't assign flavors to pod
/// set %s: %s` (reasons sorted, joined `, `), several pod sets joined `; `; or `failed to assign
/// flavors to pod set %s: %v`; or a whole-workload sentence (`Workload no longer fits after
/// processing another workload`, `ClusterQueue %s is inactive`, `LocalQueue %s doesn't exist`,
/// `ClusterQueue %s doesn't exist` / `not found`, ...). The scheduler may append
/// `. Pending the preemption of %d workload(s)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueInadmissible {
    /// What kind of message this is.
    pub cause: KueueInadmissibleCause,
    /// The pod sets that got no flavor, in note order (empty for whole-workload sentences).
    pub pod_sets: Vec<KueuePodSetFailure>,
    /// The ClusterQueue a whole-workload sentence names.
    pub cluster_queue: Option<String>,
    /// The LocalQueue a whole-workload sentence names.
    pub local_queue: Option<String>,
    /// The whole-workload sentence as written (absent for pod-set messages).
    pub message: Option<String>,
    /// `. Pending the preemption of N workload(s)`: preemptions issued for this Workload.
    pub pending_preemptions: Option<u32>,
    /// `. Pending the migration of N workload(s)`: flavor migrations issued for it.
    pub pending_migrations: Option<u32>,
    /// `. Preempting N workload(s) failed, will retry.`
    pub failed_preemptions: Option<u32>,
    /// The note ended with Kueue's truncation marker ` ...` (the last reason may be cut).
    pub truncated: bool,
}

/// The class of a [`KueueInadmissible`] message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum KueueInadmissibleCause {
    /// `couldn't assign flavors to pod set ...` / `failed to assign flavors ...`: see `podSets`.
    FlavorAssignment,
    /// `Workload no longer fits after processing another workload`.
    NoLongerFits,
    /// `Workload has overlapping preemption targets with another workload`.
    OverlappingPreemptionTargets,
    /// `ClusterQueue %s is inactive`.
    ClusterQueueInactive,
    /// `ClusterQueue %s doesn't exist` / `ClusterQueue %s not found`.
    ClusterQueueNotFound,
    /// `LocalQueue %s doesn't exist`.
    LocalQueueNotFound,
    /// `The workload has failed admission checks`.
    FailedAdmissionChecks,
    /// Any other sentence; see `message`.
    Other,
}

/// One pod set of a [`KueueInadmissible`] message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueuePodSetFailure {
    /// The pod set name (e.g. `main`, `worker`, `job`).
    pub pod_set: String,
    /// The flavor reasons, in note order (sorted by Kueue).
    pub reasons: Vec<KueueFlavorReason>,
    /// The error of `failed to assign flavors to pod set %s: %v` (then `reasons` is empty).
    pub error: Option<String>,
}

/// One reason fragment of a pod set (kubernetes-sigs/kueue pkg/scheduler/flavorassigner/
/// flavorassigner.go, tas_flavorassigner.go, pkg/cache tas_flavor_snapshot.go; `type` in JSON).
///
/// Quantities: `value` is in cores for `cpu`, bytes for `memory` and `ephemeral-storage`, and a
/// count for `pods`, GPUs and other extended resources.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum KueueFlavorReason {
    /// `insufficient unused quota for %s in flavor %s, %s more needed` (≤v0.9 also `... quota in
    /// cohort for ...`): the quota exists but is in use; waiting or preemption can help.
    #[serde(rename_all = "camelCase")]
    InsufficientUnusedQuota {
        /// The resource name.
        resource: String,
        /// The ResourceFlavor.
        flavor: String,
        /// How much more is needed (unit per resource, see the enum docs).
        more_needed: Quantity,
        /// The ≤v0.9 `in cohort` wording.
        in_cohort: bool,
    },
    /// `insufficient quota for %s in flavor %s, ...`: the request exceeds what the ClusterQueue can
    /// ever provide. v0.10–v0.14: `request > maximum capacity (%s > %s)`; HEAD: `previously
    /// considered podsets requests (%s) + current podset request (%s) > maximum capacity (%s)`;
    /// ≤v0.9: `insufficient quota for %s in flavor %s in ClusterQueue`.
    #[serde(rename_all = "camelCase")]
    InsufficientQuota {
        /// The resource name.
        resource: String,
        /// The ResourceFlavor.
        flavor: String,
        /// The requested quantity (the current pod set's request in the HEAD form).
        request: Option<Quantity>,
        /// Requests of the pod sets considered before this one (HEAD form).
        previous_requests: Option<Quantity>,
        /// The maximum the ClusterQueue (with borrowing) can provide.
        maximum_capacity: Option<Quantity>,
    },
    /// `resource %s unavailable in ClusterQueue`: no resource group of the ClusterQueue covers it.
    ResourceUnavailable {
        /// The resource name.
        resource: String,
    },
    /// `flavor %s not found`.
    FlavorNotFound {
        /// The ResourceFlavor.
        flavor: String,
    },
    /// `flavor %s doesn't match node affinity`: the pod set's node selector or affinity excludes it.
    FlavorAffinityMismatch {
        /// The ResourceFlavor.
        flavor: String,
    },
    /// `untolerated taint %s in flavor %s`.
    UntoleratedTaint {
        /// The taint as Kueue printed it.
        taint: String,
        /// The ResourceFlavor.
        flavor: String,
    },
    /// `flavor %s does not provide resource %s`.
    FlavorMissingResource {
        /// The ResourceFlavor.
        flavor: String,
        /// The resource name.
        resource: String,
    },
    /// Topology-aware scheduling: `topology %q allows to fit only %d out of %d %s(s)` or
    /// `topology %q doesn't allow to fit any of %d %s(s)`, optionally followed by
    /// `. Total nodes: %d; excluded: %s`.
    #[serde(rename_all = "camelCase")]
    TopologyFit {
        /// The Topology name.
        topology: String,
        /// How many units fit (0 for `doesn't allow to fit any`).
        fit: i64,
        /// How many units were requested.
        requested: i64,
        /// The unit: `pod` or `slice`.
        unit: String,
        /// `Total nodes: N`.
        total_nodes: Option<u32>,
        /// `excluded: ...`: node counts excluded per cause (`nodeSelector`, `taint "x"`,
        /// `resource "cpu"`, ...), in note order.
        excluded: Vec<KueueTopologyExclusion>,
    },
    /// Any other fragment, as written.
    Other {
        /// The fragment.
        text: String,
    },
}

/// One `excluded:` entry of [`KueueFlavorReason::TopologyFit`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueTopologyExclusion {
    /// The cause as written (`nodeSelector`, `affinity`, `topologyDomain`, `taint "key"`,
    /// `resource "cpu"`).
    pub cause: String,
    /// Nodes excluded for it.
    pub nodes: u32,
}

/// Whether the text after a `, ` continues the current reason fragment rather than starting one:
/// a quantity (`3 more needed`), a maximum-capacity comparison, or a TAS exclusion entry.
fn continues_fragment(rest: &str) -> bool {
    rest.starts_with(|c: char| c.is_ascii_digit())
        || rest.starts_with("request > ")
        || rest.starts_with("previously considered")
        || rest.starts_with("nodeSelector: ")
        || rest.starts_with("affinity: ")
        || rest.starts_with("topologyDomain: ")
        || rest.starts_with("taint \"")
        || rest.starts_with("resource \"")
}

impl KueueFlavorReason {
    /// Classify one fragment; never fails (unknown text is [`KueueFlavorReason::Other`]).
    pub fn parse(text: &str) -> Self {
        Self::typed(text).unwrap_or_else(|| KueueFlavorReason::Other { text: text.to_owned() })
    }

    fn typed(text: &str) -> Option<Self> {
        if let Some(rest) = text.strip_prefix("insufficient unused quota ") {
            let (in_cohort, rest) = match rest.strip_prefix("in cohort ") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let [resource, flavor, more] = captures("for %s in flavor %s, %s more needed", rest)?;
            return Some(KueueFlavorReason::InsufficientUnusedQuota {
                resource: resource.to_owned(),
                flavor: flavor.to_owned(),
                more_needed: Quantity::parse(more),
                in_cohort,
            });
        }
        if let Some(rest) = text.strip_prefix("insufficient quota for ") {
            let quota = |resource: &str, flavor: &str, request, previous, max| KueueFlavorReason::InsufficientQuota {
                resource: resource.to_owned(),
                flavor: flavor.to_owned(),
                request,
                previous_requests: previous,
                maximum_capacity: max,
            };
            if let Some([resource, flavor, previous, request, max]) = captures(
                "%s in flavor %s, previously considered podsets requests (%s) + current podset request (%s) > maximum capacity (%s)",
                rest,
            ) {
                return Some(quota(
                    resource,
                    flavor,
                    Some(Quantity::parse(request)),
                    Some(Quantity::parse(previous)),
                    Some(Quantity::parse(max)),
                ));
            }
            if let Some([resource, flavor, request, max]) =
                captures("%s in flavor %s, request > maximum capacity (%s > %s)", rest)
            {
                return Some(quota(resource, flavor, Some(Quantity::parse(request)), None, Some(Quantity::parse(max))));
            }
            let [resource, flavor] = captures("%s in flavor %s in ClusterQueue", rest)?;
            return Some(quota(resource, flavor, None, None, None));
        }
        if let Some([resource]) = captures("resource %s unavailable in ClusterQueue", text) {
            return Some(KueueFlavorReason::ResourceUnavailable { resource: resource.to_owned() });
        }
        if let Some([flavor]) = captures("flavor %s doesn't match node affinity", text) {
            return Some(KueueFlavorReason::FlavorAffinityMismatch { flavor: flavor.to_owned() });
        }
        if let Some([flavor, resource]) = captures("flavor %s does not provide resource %s", text) {
            return Some(KueueFlavorReason::FlavorMissingResource {
                flavor: flavor.to_owned(),
                resource: resource.to_owned(),
            });
        }
        if let Some([flavor]) = captures("flavor %s not found", text) {
            return Some(KueueFlavorReason::FlavorNotFound { flavor: flavor.to_owned() });
        }
        if let Some(rest) = text.strip_prefix("untolerated taint ") {
            let (taint, flavor) = rest.rsplit_once(" in flavor ")?;
            return Some(KueueFlavorReason::UntoleratedTaint { taint: taint.to_owned(), flavor: flavor.to_owned() });
        }
        if let Some(rest) = text.strip_prefix("topology ") {
            return Self::topology_fit(rest);
        }
        None
    }

    /// `%q allows to fit only %d out of %d %s(s)` / `%q doesn't allow to fit any of %d %s(s)`,
    /// with the optional `. Total nodes: %d; excluded: %s`.
    fn topology_fit(text: &str) -> Option<Self> {
        let (topology, rest) = quoted_prefix(text)?;
        let (fit_part, stats) = match rest.split_once(". Total nodes: ") {
            Some((fit, stats)) => (fit, Some(stats)),
            None => (rest, None),
        };
        let (fit, requested, unit) =
            if let Some([fit, requested, unit]) = captures(" allows to fit only %d out of %d %s(s)", fit_part) {
                (fit.parse().ok()?, requested.parse().ok()?, unit)
            } else {
                let [requested, unit] = captures(" doesn't allow to fit any of %d %s(s)", fit_part)?;
                (0, requested.parse().ok()?, unit)
            };
        let mut total_nodes = None;
        let mut excluded = Vec::new();
        if let Some(stats) = stats {
            let (total, list) = stats.split_once("; excluded: ").unwrap_or((stats, ""));
            total_nodes = total.parse().ok();
            excluded = split_top_level(list, ", ")
                .filter_map(|entry| {
                    let (cause, nodes) = entry.rsplit_once(": ")?;
                    Some(KueueTopologyExclusion { cause: cause.to_owned(), nodes: nodes.parse().ok()? })
                })
                .collect();
        }
        Some(KueueFlavorReason::TopologyFit { topology, fit, requested, unit: unit.to_owned(), total_nodes, excluded })
    }

    /// Split a pod set's reasons (`, `-joined, with commas inside fragments) and classify each.
    pub fn parse_list(text: &str) -> Vec<Self> {
        if text.is_empty() {
            return Vec::new();
        }
        split_top_level_where(text, ", ", |rest| !continues_fragment(rest)).map(Self::parse).collect()
    }
}

/// `. Pending the preemption of N workload(s)` and friends, appended by the scheduler.
struct Outcome {
    pending_preemptions: Option<u32>,
    pending_migrations: Option<u32>,
    failed_preemptions: Option<u32>,
}

/// The leading count of `text` (`3 workload(s)` → 3).
fn leading_count(text: &str) -> Option<u32> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    text.get(..digits)?.parse().ok()
}

/// Cut the scheduler's outcome suffixes off `text`.
fn strip_outcome(mut text: &str) -> (&str, Outcome) {
    let mut outcome = Outcome { pending_preemptions: None, pending_migrations: None, failed_preemptions: None };
    for (marker, slot) in
        [(". Preempting ", 2), (". Pending the migration of ", 1), (". Pending the preemption of ", 0)]
    {
        if let Some(at) = text.rfind(marker) {
            let count = text.get(at + marker.len()..).and_then(leading_count);
            if count.is_some() {
                match slot {
                    0 => outcome.pending_preemptions = count,
                    1 => outcome.pending_migrations = count,
                    _ => outcome.failed_preemptions = count,
                }
                text = text.get(..at).unwrap_or(text);
            }
        }
    }
    (text, outcome)
}

impl KueueInadmissible {
    /// Parse an inadmissible message; any non-empty text is accepted (unknown sentences are
    /// [`KueueInadmissibleCause::Other`]).
    pub fn parse(note: &str) -> Option<Self> {
        let (text, truncated) = strip_truncation(note);
        if text.trim().is_empty() {
            return None;
        }
        let (text, outcome) = strip_outcome(text);
        let mut out = KueueInadmissible {
            cause: KueueInadmissibleCause::Other,
            pod_sets: Vec::new(),
            cluster_queue: None,
            local_queue: None,
            message: None,
            pending_preemptions: outcome.pending_preemptions,
            pending_migrations: outcome.pending_migrations,
            failed_preemptions: outcome.failed_preemptions,
            truncated,
        };
        const COULD_NOT: &str = "couldn't assign flavors to pod set ";
        if let Some(first) = text.strip_prefix(COULD_NOT) {
            out.cause = KueueInadmissibleCause::FlavorAssignment;
            out.pod_sets = first
                .split("; couldn't assign flavors to pod set ")
                .map(|pod_set| {
                    let (name, reasons) = pod_set.split_once(": ").unwrap_or((pod_set, ""));
                    KueuePodSetFailure {
                        pod_set: name.to_owned(),
                        reasons: KueueFlavorReason::parse_list(reasons),
                        error: None,
                    }
                })
                .collect();
            return Some(out);
        }
        if let Some(rest) = text.strip_prefix("failed to assign flavors to pod set ") {
            out.cause = KueueInadmissibleCause::FlavorAssignment;
            let (name, error) = rest.split_once(": ").unwrap_or((rest, ""));
            out.pod_sets.push(KueuePodSetFailure {
                pod_set: name.to_owned(),
                reasons: Vec::new(),
                error: Some(error.to_owned()),
            });
            return Some(out);
        }
        out.message = Some(text.to_owned());
        if text == "Workload no longer fits after processing another workload" {
            out.cause = KueueInadmissibleCause::NoLongerFits;
        } else if text == "Workload has overlapping preemption targets with another workload" {
            out.cause = KueueInadmissibleCause::OverlappingPreemptionTargets;
        } else if text == "The workload has failed admission checks" {
            out.cause = KueueInadmissibleCause::FailedAdmissionChecks;
        } else if let Some([queue]) = captures("ClusterQueue %s is inactive", text) {
            out.cause = KueueInadmissibleCause::ClusterQueueInactive;
            out.cluster_queue = Some(queue.to_owned());
        } else if let Some([queue]) =
            captures("ClusterQueue %s doesn't exist", text).or_else(|| captures("ClusterQueue %s not found", text))
        {
            out.cause = KueueInadmissibleCause::ClusterQueueNotFound;
            out.cluster_queue = Some(queue.to_owned());
        } else if let Some([queue]) = captures("LocalQueue %s doesn't exist", text) {
            out.cause = KueueInadmissibleCause::LocalQueueNotFound;
            out.local_queue = Some(queue.to_owned());
        }
        Some(out)
    }
}

/// Kueue reserved quota for the Workload (kubernetes-sigs/kueue pkg/scheduler/scheduler.go,
/// ff69552e): `Quota reserved in ClusterQueue %s, wait time since queued was %.0fs`, optionally
/// followed by `; Flavors considered: %s` (flavorassigner `FormatFlavorAssignmentAttemptsForEvents`:
/// `podset: flavor(mode;borrow=N;reason;...), ... | podset: ...`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuotaReserved {
    /// The ClusterQueue.
    pub cluster_queue: String,
    /// Seconds the Workload waited since it was queued.
    pub wait_seconds: i64,
    /// The `Flavors considered` text as written.
    pub flavors_considered_text: Option<String>,
    /// The flavors considered per pod set, parsed from that text.
    pub flavors_considered: Vec<KueueFlavorsConsidered>,
}

/// The flavors Kueue tried for one pod set ([`QuotaReserved::flavors_considered`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueFlavorsConsidered {
    /// The pod set name.
    pub pod_set: String,
    /// The flavors tried that did not simply fit, in note order.
    pub flavors: Vec<KueueFlavorAttempt>,
}

/// One flavor tried for a pod set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueFlavorAttempt {
    /// The ResourceFlavor.
    pub flavor: String,
    /// The assignment mode (`Fit`, `Preempt`, `NoFit`) when no preemption was simulated.
    pub mode: Option<String>,
    /// `preemptionMode=%s`: the preemption possibility found by the simulation.
    pub preemption_mode: Option<String>,
    /// `borrow=N`: the borrowing height needed.
    pub borrow: Option<u32>,
    /// The reasons the flavor did not fit.
    pub reasons: Vec<KueueFlavorReason>,
}

impl KueueFlavorsConsidered {
    /// Parse the `Flavors considered` text; `None` if it does not have the documented shape.
    pub fn parse_list(text: &str) -> Option<Vec<Self>> {
        text.split(" | ")
            .map(|pod_set| {
                let (name, attempts) = pod_set.split_once(": ")?;
                let mut flavors = Vec::new();
                for attempt in split_top_level(attempts, ", ") {
                    let open = attempt.find('(')?;
                    let group = attempt.get(open..)?;
                    if closing_bracket(group)? != group.len() {
                        return None;
                    }
                    let mut parsed = KueueFlavorAttempt {
                        flavor: attempt.get(..open)?.to_owned(),
                        mode: None,
                        preemption_mode: None,
                        borrow: None,
                        reasons: Vec::new(),
                    };
                    let inner = group.get(1..group.len() - 1)?;
                    for (i, item) in split_top_level(inner, ";").enumerate() {
                        if i == 0 {
                            match item.strip_prefix("preemptionMode=") {
                                Some(mode) => parsed.preemption_mode = Some(mode.to_owned()),
                                None => parsed.mode = Some(item.to_owned()),
                            }
                        } else if let Some(borrow) = item.strip_prefix("borrow=") {
                            parsed.borrow = borrow.parse().ok();
                        } else if !item.is_empty() {
                            parsed.reasons.push(KueueFlavorReason::parse(item));
                        }
                    }
                    flavors.push(parsed);
                }
                Some(KueueFlavorsConsidered { pod_set: name.to_owned(), flavors })
            })
            .collect()
    }
}

/// `%.0f` seconds as written (`12`, `-0`).
fn whole_seconds(text: &str) -> Option<i64> {
    text.parse().ok()
}

impl QuotaReserved {
    /// Parse `Quota reserved in ClusterQueue %s, wait time since queued was %.0fs[; Flavors considered: %s]`.
    pub fn parse(note: &str) -> Option<Self> {
        let (note, _) = strip_truncation(note);
        let (head, considered) = match note.split_once("; Flavors considered: ") {
            Some((head, considered)) => (head, Some(considered)),
            None => (note, None),
        };
        let [queue, wait] = captures("Quota reserved in ClusterQueue %s, wait time since queued was %ss", head)?;
        Some(QuotaReserved {
            cluster_queue: queue.to_owned(),
            wait_seconds: whole_seconds(wait)?,
            flavors_considered_text: considered.map(str::to_owned),
            flavors_considered: considered.and_then(KueueFlavorsConsidered::parse_list).unwrap_or_default(),
        })
    }
}

/// The Workload is admitted: `Admitted by ClusterQueue %s, wait time since reservation was %.0fs`
/// (kubernetes-sigs/kueue pkg/scheduler/scheduler.go, pkg/controller/core/workload_controller.go;
/// HEAD ff69552e prints a literal `0s`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueAdmitted {
    /// The ClusterQueue.
    pub cluster_queue: String,
    /// Seconds between quota reservation and admission.
    pub wait_seconds: i64,
}

impl KueueAdmitted {
    /// Parse `Admitted by ClusterQueue %s, wait time since reservation was %.0fs`.
    pub fn parse(note: &str) -> Option<Self> {
        let [queue, wait] = captures("Admitted by ClusterQueue %s, wait time since reservation was %ss", note)?;
        Some(KueueAdmitted { cluster_queue: queue.to_owned(), wait_seconds: whole_seconds(wait)? })
    }
}

/// An effective priority with its parts: `%d (base: %d, boost: %d)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueuePriority {
    /// The effective priority (base + boost).
    pub effective: i64,
    /// The Workload's priority.
    pub base: i64,
    /// The boost applied (e.g. by fair sharing).
    pub boost: i64,
}

impl KueuePriority {
    fn new(effective: &str, base: &str, boost: &str) -> Option<Self> {
        Some(KueuePriority { effective: effective.parse().ok()?, base: base.parse().ok()?, boost: boost.parse().ok()? })
    }
}

/// Kueue preempted this admitted Workload (kubernetes-sigs/kueue pkg/scheduler/preemption/
/// preemption.go, ff69552e and tags v0.5–v0.19).
///
/// Generations: ≤v0.5 `Preempted by another workload in the %s`; v0.6–v0.10 `Preempted to
/// accommodate a workload (UID: %s) due to %s`; v0.11–v0.14 `... (UID: %s, JobUID: %s) due to %s`;
/// ≥v0.15 adds `; preemptor path: %s; preemptee path: %s`; ≥v0.17 adds `; preemptor effective
/// priority: %d (base: %d, boost: %d); preemptee effective priority: %d (base: %d, boost: %d)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueuePreempted {
    /// The preempting Workload's UID.
    pub preemptor_uid: Option<String>,
    /// The preempting job's UID (`UNKNOWN` when Kueue does not know it).
    pub preemptor_job_uid: Option<String>,
    /// The reason phrase after `due to` (`prioritization in the ClusterQueue`, `reclamation
    /// within the cohort`, `reclamation within the cohort while borrowing`, `Fair Sharing within
    /// the cohort`, ...).
    pub reason: Option<String>,
    /// ≤v0.5: where the preemptor is, `ClusterQueue` or `cohort`.
    pub scope: Option<String>,
    /// The preemptor's ClusterQueue/cohort path.
    pub preemptor_path: Option<String>,
    /// The preemptee's ClusterQueue/cohort path.
    pub preemptee_path: Option<String>,
    /// The preemptor's effective priority.
    pub preemptor_priority: Option<KueuePriority>,
    /// The preemptee's (this Workload's) effective priority.
    pub preemptee_priority: Option<KueuePriority>,
}

impl KueuePreempted {
    /// Parse any generation of the Kueue preemption message.
    pub fn parse(note: &str) -> Option<Self> {
        let (note, _) = strip_truncation(note);
        let mut out = KueuePreempted {
            preemptor_uid: None,
            preemptor_job_uid: None,
            reason: None,
            scope: None,
            preemptor_path: None,
            preemptee_path: None,
            preemptor_priority: None,
            preemptee_priority: None,
        };
        if let Some([scope]) = captures("Preempted by another workload in the %s", note) {
            out.scope = Some(scope.to_owned());
            return Some(out);
        }
        let rest = note.strip_prefix("Preempted to accommodate a workload (UID: ")?;
        let (uid, rest) = match rest.split_once(", JobUID: ") {
            Some((uid, rest)) if !uid.contains(')') => {
                let (job_uid, rest) = rest.split_once(") due to ")?;
                out.preemptor_job_uid = Some(job_uid.to_owned());
                (uid, rest)
            }
            _ => rest.split_once(") due to ")?,
        };
        out.preemptor_uid = Some(uid.to_owned());
        let (reason, rest) = match rest.split_once("; preemptor path: ") {
            Some((reason, rest)) => (reason, Some(rest)),
            None => (rest, None),
        };
        out.reason = Some(reason.to_owned());
        if let Some(rest) = rest {
            let (paths, priorities) = match rest.split_once("; preemptor effective priority: ") {
                Some((paths, priorities)) => (paths, Some(priorities)),
                None => (rest, None),
            };
            let (preemptor, preemptee) = paths.split_once("; preemptee path: ").unwrap_or((paths, ""));
            out.preemptor_path = Some(preemptor.to_owned());
            out.preemptee_path = (!preemptee.is_empty()).then(|| preemptee.to_owned());
            if let Some([a, b, c, d, e, f]) = priorities.and_then(|p| {
                captures("%d (base: %d, boost: %d); preemptee effective priority: %d (base: %d, boost: %d)", p)
            }) {
                out.preemptor_priority = KueuePriority::new(a, b, c);
                out.preemptee_priority = KueuePriority::new(d, e, f);
            }
        }
        Some(out)
    }
}

/// Recorded on the preempting Workload: `Preempted workload %s (UID: %s) in ClusterQueue %s;
/// preemptor effective priority: %d (base: %d, boost: %d); preemptee effective priority: %d
/// (base: %d, boost: %d)` (kubernetes-sigs/kueue pkg/scheduler/preemption/preemption.go, ff69552e).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueuePreemptedWorkload {
    /// The preempted Workload, `namespace/name`.
    pub workload: String,
    /// Its UID.
    pub uid: String,
    /// Its ClusterQueue.
    pub cluster_queue: String,
    /// The preemptor's (this Workload's) effective priority.
    pub preemptor_priority: Option<KueuePriority>,
    /// The preempted Workload's effective priority.
    pub preemptee_priority: Option<KueuePriority>,
}

impl KueuePreemptedWorkload {
    /// Parse the `PreemptedWorkload` note (the priorities are optional).
    pub fn parse(note: &str) -> Option<Self> {
        let (note, _) = strip_truncation(note);
        let (head, priorities) = match note.split_once("; preemptor effective priority: ") {
            Some((head, priorities)) => (head, Some(priorities)),
            None => (note, None),
        };
        let [workload, uid, queue] = captures("Preempted workload %s (UID: %s) in ClusterQueue %s", head)?;
        let mut out = KueuePreemptedWorkload {
            workload: workload.to_owned(),
            uid: uid.to_owned(),
            cluster_queue: queue.to_owned(),
            preemptor_priority: None,
            preemptee_priority: None,
        };
        if let Some([a, b, c, d, e, f]) = priorities.and_then(|p| {
            captures("%d (base: %d, boost: %d); preemptee effective priority: %d (base: %d, boost: %d)", p)
        }) {
            out.preemptor_priority = KueuePriority::new(a, b, c);
            out.preemptee_priority = KueuePriority::new(d, e, f);
        }
        Some(out)
    }
}

/// Kueue evicted the admitted Workload: the eviction message of the `EvictedDueTo<reason>` family
/// (kubernetes-sigs/kueue pkg/controller/core/workload_controller.go, pkg/workload/evict,
/// pkg/scheduler/scheduler.go, ff69552e).
///
/// Messages: `Exceeded the PodsReady timeout %s` (the Workload key `namespace/name`; older
/// releases print nothing after `timeout`), a preemption message (see [`KueuePreempted`]),
/// `The workload is deactivated` (+ ` due to %s`), `The ClusterQueue is stopped`,
/// `The LocalQueue is stopped`, `At least one admission check is false`,
/// `Workload was evicted as there was no replacement for unhealthy node(s): %s`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueEvicted {
    /// The eviction cause, classified from the message.
    pub cause: KueueEvictionCause,
    /// The message as written.
    pub message: String,
    /// For a PodsReady timeout: the Workload `namespace/name` printed after `timeout`.
    pub workload: Option<String>,
    /// For a PodsReady timeout whose suffix is a Go duration: that duration in seconds.
    pub timeout_seconds: Option<f64>,
    /// For a deactivation: the text after `due to`.
    pub detail: Option<String>,
    /// For node failures: the unhealthy nodes.
    pub unhealthy_nodes: Vec<String>,
    /// For a preemption: the parsed preemption message.
    pub preemption: Option<KueuePreempted>,
}

/// The class of a [`KueueEvicted`] message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum KueueEvictionCause {
    /// `Exceeded the PodsReady timeout`: the Pods did not all become ready in time.
    PodsReadyTimeout,
    /// Preempted by another Workload.
    Preempted,
    /// `The workload is deactivated`.
    Deactivated,
    /// `The ClusterQueue is stopped`.
    ClusterQueueStopped,
    /// `The LocalQueue is stopped`.
    LocalQueueStopped,
    /// `At least one admission check is false`.
    AdmissionCheck,
    /// No replacement for unhealthy nodes (topology-aware scheduling).
    NodeFailures,
    /// Migrated to a more favorable flavor.
    FlavorMigration,
    /// Another message; see `message`.
    Other,
}

impl KueueEvicted {
    /// Parse an eviction message; any non-empty text is accepted.
    pub fn parse(note: &str) -> Option<Self> {
        let (text, _) = strip_truncation(note);
        if text.trim().is_empty() {
            return None;
        }
        let mut out = KueueEvicted {
            cause: KueueEvictionCause::Other,
            message: note.to_owned(),
            workload: None,
            timeout_seconds: None,
            detail: None,
            unhealthy_nodes: Vec::new(),
            preemption: None,
        };
        if let Some(rest) = text.strip_prefix("Exceeded the PodsReady timeout") {
            out.cause = KueueEvictionCause::PodsReadyTimeout;
            let rest = rest.trim();
            if !rest.is_empty() {
                match go_duration_seconds(rest) {
                    Some(seconds) => out.timeout_seconds = Some(seconds),
                    None => out.workload = Some(rest.to_owned()),
                }
            }
        } else if text.starts_with("Evicted to accommodate a workload") && text.contains("migration") {
            out.cause = KueueEvictionCause::FlavorMigration;
        } else if let Some(preemption) = KueuePreempted::parse(text) {
            out.cause = KueueEvictionCause::Preempted;
            out.preemption = Some(preemption);
        } else if let Some(rest) = text.strip_prefix("The workload is deactivated") {
            out.cause = KueueEvictionCause::Deactivated;
            out.detail = rest.strip_prefix(" due to ").map(str::to_owned);
        } else if text.starts_with("The ClusterQueue is stopped") {
            out.cause = KueueEvictionCause::ClusterQueueStopped;
        } else if text.starts_with("The LocalQueue is stopped") {
            out.cause = KueueEvictionCause::LocalQueueStopped;
        } else if text.starts_with("At least one admission check is false") {
            out.cause = KueueEvictionCause::AdmissionCheck;
        } else if let Some(nodes) =
            text.strip_prefix("Workload was evicted as there was no replacement for unhealthy node(s): ")
        {
            out.cause = KueueEvictionCause::NodeFailures;
            out.unhealthy_nodes =
                nodes.split(',').map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned).collect();
        }
        Some(out)
    }
}

/// The job reconciler created the job's Workload: `Created Workload: %v` (kubernetes-sigs/kueue
/// pkg/controller/jobframework/reconciler.go, ff69552e).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreatedWorkload {
    /// The Workload, `namespace/name`.
    pub workload: String,
}

impl CreatedWorkload {
    /// Parse `Created Workload: %v`.
    pub fn parse(note: &str) -> Option<Self> {
        let workload = note.strip_prefix("Created Workload: ")?;
        (!workload.is_empty()).then(|| CreatedWorkload { workload: workload.to_owned() })
    }
}

/// The job was unsuspended after admission: `Admitted by clusterQueue %v` (kubernetes-sigs/kueue
/// pkg/controller/jobframework/reconciler.go, ff69552e).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KueueStarted {
    /// The ClusterQueue that admitted the Workload.
    pub cluster_queue: String,
}

impl KueueStarted {
    /// Parse `Admitted by clusterQueue %v`.
    pub fn parse(note: &str) -> Option<Self> {
        let queue = note.strip_prefix("Admitted by clusterQueue ")?;
        (!queue.is_empty() && !queue.contains(' ')).then(|| KueueStarted { cluster_queue: queue.to_owned() })
    }
}

/// The job finished and its Workload was marked finished: `Workload '%s' is declared finished`
/// (kubernetes-sigs/kueue pkg/controller/jobframework/reconciler.go, ff69552e).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FinishedWorkload {
    /// The Workload, `namespace/name`.
    pub workload: String,
}

impl FinishedWorkload {
    /// Parse `Workload '%s' is declared finished`.
    pub fn parse(note: &str) -> Option<Self> {
        let [workload] = captures("Workload '%s' is declared finished", note)?;
        (!workload.is_empty()).then(|| FinishedWorkload { workload: workload.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(note: &str) -> Vec<KueueFlavorReason> {
        let d = KueueInadmissible::parse(note).unwrap();
        assert_eq!(d.cause, KueueInadmissibleCause::FlavorAssignment);
        d.pod_sets.into_iter().flat_map(|p| p.reasons).collect()
    }

    #[test]
    fn resource_unavailable_from_case_047() {
        let d = KueueInadmissible::parse(
            "couldn't assign flavors to pod set job: resource cpu unavailable in ClusterQueue",
        )
        .unwrap();
        assert_eq!(d.pod_sets.len(), 1);
        assert_eq!(d.pod_sets[0].pod_set, "job");
        assert_eq!(d.pod_sets[0].reasons, [KueueFlavorReason::ResourceUnavailable { resource: "cpu".into() }]);
        assert!(!d.truncated);
    }

    #[test]
    fn quota_fragments_keep_their_commas() {
        let r = reasons(
            "couldn't assign flavors to pod set main: flavor on-demand doesn't match node affinity, insufficient unused quota for nvidia.com/gpu in flavor a100, 3 more needed, insufficient unused quota for memory in flavor a100, 500Mi more needed",
        );
        assert_eq!(r.len(), 3);
        assert_eq!(r[0], KueueFlavorReason::FlavorAffinityMismatch { flavor: "on-demand".into() });
        let KueueFlavorReason::InsufficientUnusedQuota { resource, flavor, more_needed, in_cohort } = &r[1] else {
            panic!("{r:?}")
        };
        assert_eq!((resource.as_str(), flavor.as_str(), *in_cohort), ("nvidia.com/gpu", "a100", false));
        assert_eq!(more_needed.value, Some(3.0));
        let KueueFlavorReason::InsufficientUnusedQuota { more_needed, .. } = &r[2] else { panic!() };
        assert_eq!(more_needed.quantity, "500Mi");
    }

    #[test]
    fn insufficient_quota_generations() {
        let r = reasons(
            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, request > maximum capacity (16 > 8)",
        );
        let KueueFlavorReason::InsufficientQuota { request, maximum_capacity, previous_requests, .. } = &r[0] else {
            panic!("{r:?}")
        };
        assert_eq!(request.as_ref().unwrap().value, Some(16.0));
        assert_eq!(maximum_capacity.as_ref().unwrap().value, Some(8.0));
        assert!(previous_requests.is_none());

        let r = reasons(
            "couldn't assign flavors to pod set worker: insufficient quota for cpu in flavor default, previously considered podsets requests (2) + current podset request (500m) > maximum capacity (2), resource nvidia.com/gpu unavailable in ClusterQueue",
        );
        assert_eq!(r.len(), 2);
        let KueueFlavorReason::InsufficientQuota { request, previous_requests, maximum_capacity, .. } = &r[0] else {
            panic!("{r:?}")
        };
        assert_eq!(request.as_ref().unwrap().value, Some(0.5));
        assert_eq!(previous_requests.as_ref().unwrap().quantity, "2");
        assert_eq!(maximum_capacity.as_ref().unwrap().quantity, "2");

        let r = reasons(
            "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default in ClusterQueue, insufficient unused quota in cohort for memory in flavor default, 1Gi more needed",
        );
        assert!(matches!(&r[0], KueueFlavorReason::InsufficientQuota { request: None, .. }));
        assert!(matches!(&r[1], KueueFlavorReason::InsufficientUnusedQuota { in_cohort: true, .. }));
    }

    #[test]
    fn taint_topology_and_other_fragments() {
        let r = reasons(
            "couldn't assign flavors to pod set main: flavor spot not found, untolerated taint {gpu true NoSchedule <nil>} in flavor tainted, flavor cpu-only does not provide resource nvidia.com/gpu, something new",
        );
        assert_eq!(r[0], KueueFlavorReason::FlavorNotFound { flavor: "spot".into() });
        assert_eq!(
            r[1],
            KueueFlavorReason::UntoleratedTaint {
                taint: "{gpu true NoSchedule <nil>}".into(),
                flavor: "tainted".into()
            }
        );
        assert_eq!(
            r[2],
            KueueFlavorReason::FlavorMissingResource { flavor: "cpu-only".into(), resource: "nvidia.com/gpu".into() }
        );
        assert_eq!(r[3], KueueFlavorReason::Other { text: "something new".into() });

        let r = reasons(
            r#"couldn't assign flavors to pod set worker: topology "default" allows to fit only 4 out of 10 pod(s). Total nodes: 8; excluded: resource "cpu": 6, taint "gpu": 1"#,
        );
        assert_eq!(r.len(), 1, "{r:?}");
        let KueueFlavorReason::TopologyFit { topology, fit, requested, unit, total_nodes, excluded } = &r[0] else {
            panic!("{r:?}")
        };
        assert_eq!((topology.as_str(), *fit, *requested, unit.as_str()), ("default", 4, 10, "pod"));
        assert_eq!(*total_nodes, Some(8));
        assert_eq!(excluded.len(), 2);
        assert_eq!((excluded[0].cause.as_str(), excluded[0].nodes), (r#"resource "cpu""#, 6));
        let r = reasons(
            r#"couldn't assign flavors to pod set worker: topology "block" doesn't allow to fit any of 2 slice(s)"#,
        );
        assert!(matches!(&r[0], KueueFlavorReason::TopologyFit { fit: 0, requested: 2, .. }));
    }

    #[test]
    fn several_pod_sets_suffixes_and_truncation() {
        let d = KueueInadmissible::parse(
            "couldn't assign flavors to pod set launcher: resource cpu unavailable in ClusterQueue; couldn't assign flavors to pod set worker: insufficient unused quota for nvidia.com/gpu in flavor h100, 8 more needed. Pending the preemption of 2 workload(s)",
        )
        .unwrap();
        assert_eq!(d.pod_sets.len(), 2);
        assert_eq!(d.pod_sets[1].pod_set, "worker");
        assert_eq!(d.pending_preemptions, Some(2));
        assert!(
            matches!(&d.pod_sets[1].reasons[0], KueueFlavorReason::InsufficientUnusedQuota { more_needed, .. } if more_needed.quantity == "8")
        );

        let d = KueueInadmissible::parse(
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor x, 3 more needed, insufficient unused quota for memory in fla ...",
        )
        .unwrap();
        assert!(d.truncated);
        let r = &d.pod_sets[0].reasons;
        assert_eq!(r.len(), 2);
        assert!(
            matches!(&r[1], KueueFlavorReason::Other { text } if text == "insufficient unused quota for memory in fla")
        );

        let d = KueueInadmissible::parse("failed to assign flavors to pod set main: internal error").unwrap();
        assert_eq!(d.pod_sets[0].error.as_deref(), Some("internal error"));
        assert!(d.pod_sets[0].reasons.is_empty());
    }

    #[test]
    fn whole_workload_sentences() {
        for (note, cause) in [
            ("Workload no longer fits after processing another workload", KueueInadmissibleCause::NoLongerFits),
            (
                "Workload has overlapping preemption targets with another workload",
                KueueInadmissibleCause::OverlappingPreemptionTargets,
            ),
            ("The workload has failed admission checks", KueueInadmissibleCause::FailedAdmissionChecks),
            ("Something else entirely", KueueInadmissibleCause::Other),
        ] {
            let d = KueueInadmissible::parse(note).unwrap();
            assert_eq!(d.cause, cause, "{note}");
            assert_eq!(d.message.as_deref(), Some(note));
        }
        let d = KueueInadmissible::parse("ClusterQueue gpu-cq is inactive").unwrap();
        assert_eq!(
            (d.cause, d.cluster_queue.as_deref()),
            (KueueInadmissibleCause::ClusterQueueInactive, Some("gpu-cq"))
        );
        let d = KueueInadmissible::parse("ClusterQueue gpu-cq doesn't exist").unwrap();
        assert_eq!(d.cause, KueueInadmissibleCause::ClusterQueueNotFound);
        let d = KueueInadmissible::parse("ClusterQueue gpu-cq not found").unwrap();
        assert_eq!(d.cause, KueueInadmissibleCause::ClusterQueueNotFound);
        let d = KueueInadmissible::parse("LocalQueue team-a doesn't exist").unwrap();
        assert_eq!((d.cause, d.local_queue.as_deref()), (KueueInadmissibleCause::LocalQueueNotFound, Some("team-a")));
        assert_eq!(KueueInadmissible::parse(""), None);
        assert_eq!(KueueInadmissible::parse(" ..."), None);
    }

    #[test]
    fn quota_reserved_and_admitted() {
        let d = QuotaReserved::parse("Quota reserved in ClusterQueue gpu-cq, wait time since queued was 12s").unwrap();
        assert_eq!((d.cluster_queue.as_str(), d.wait_seconds), ("gpu-cq", 12));
        assert!(d.flavors_considered.is_empty() && d.flavors_considered_text.is_none());
        let d = QuotaReserved::parse(
            "Quota reserved in ClusterQueue gpu-cq, wait time since queued was 3s; Flavors considered: main: a100(NoFit;insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more needed), h100(preemptionMode=Preempt;borrow=1) | worker: spot(NoFit;flavor spot doesn't match node affinity)",
        )
        .unwrap();
        assert_eq!(d.flavors_considered.len(), 2);
        let main = &d.flavors_considered[0];
        assert_eq!(main.pod_set, "main");
        assert_eq!(main.flavors.len(), 2);
        assert_eq!(main.flavors[0].flavor, "a100");
        assert_eq!(main.flavors[0].mode.as_deref(), Some("NoFit"));
        assert!(
            matches!(&main.flavors[0].reasons[0], KueueFlavorReason::InsufficientUnusedQuota { more_needed, .. } if more_needed.quantity == "4")
        );
        assert_eq!(main.flavors[1].preemption_mode.as_deref(), Some("Preempt"));
        assert_eq!(main.flavors[1].borrow, Some(1));
        assert_eq!(d.flavors_considered[1].flavors[0].flavor, "spot");
        assert_eq!(QuotaReserved::parse("Quota reserved in ClusterQueue gpu-cq"), None);
        assert_eq!(QuotaReserved::parse("Quota reserved in ClusterQueue gpu-cq, wait time since queued was xs"), None);

        let d = KueueAdmitted::parse("Admitted by ClusterQueue gpu-cq, wait time since reservation was 0s").unwrap();
        assert_eq!((d.cluster_queue.as_str(), d.wait_seconds), ("gpu-cq", 0));
        assert_eq!(KueueAdmitted::parse("Admitted by clusterQueue gpu-cq"), None);
    }

    #[test]
    fn preempted_generations() {
        let full = KueuePreempted::parse(
            "Preempted to accommodate a workload (UID: 5f6a, JobUID: 9c1d) due to prioritization in the ClusterQueue; preemptor path: /cohort-a/gpu-cq; preemptee path: /cohort-a/gpu-cq; preemptor effective priority: 1000 (base: 1000, boost: 0); preemptee effective priority: 10 (base: 100, boost: -90)",
        )
        .unwrap();
        assert_eq!(full.preemptor_uid.as_deref(), Some("5f6a"));
        assert_eq!(full.preemptor_job_uid.as_deref(), Some("9c1d"));
        assert_eq!(full.reason.as_deref(), Some("prioritization in the ClusterQueue"));
        assert_eq!(full.preemptor_path.as_deref(), Some("/cohort-a/gpu-cq"));
        assert_eq!(full.preemptee_path.as_deref(), Some("/cohort-a/gpu-cq"));
        assert_eq!(full.preemptor_priority, Some(KueuePriority { effective: 1000, base: 1000, boost: 0 }));
        assert_eq!(full.preemptee_priority, Some(KueuePriority { effective: 10, base: 100, boost: -90 }));

        let paths = KueuePreempted::parse(
            "Preempted to accommodate a workload (UID: u1, JobUID: j1) due to reclamation within the cohort; preemptor path: /c/a; preemptee path: /c/b",
        )
        .unwrap();
        assert_eq!(paths.preemptee_path.as_deref(), Some("/c/b"));
        assert_eq!(paths.preemptor_priority, None);

        let job = KueuePreempted::parse(
            "Preempted to accommodate a workload (UID: u1, JobUID: UNKNOWN) due to Fair Sharing within the cohort",
        )
        .unwrap();
        assert_eq!(job.preemptor_job_uid.as_deref(), Some("UNKNOWN"));
        assert_eq!(job.reason.as_deref(), Some("Fair Sharing within the cohort"));
        assert_eq!(job.preemptor_path, None);

        let uid = KueuePreempted::parse(
            "Preempted to accommodate a workload (UID: u1) due to reclamation within the cohort while borrowing",
        )
        .unwrap();
        assert_eq!((uid.preemptor_uid.as_deref(), uid.preemptor_job_uid), (Some("u1"), None));

        let old = KueuePreempted::parse("Preempted by another workload in the ClusterQueue").unwrap();
        assert_eq!(old.scope.as_deref(), Some("ClusterQueue"));
        assert_eq!(KueuePreempted::parse("Preempted by pod 1234 on node node-a"), None);
        assert_eq!(KueuePreempted::parse("Preempted to accommodate a workload (UID: u1"), None);

        let w = KueuePreemptedWorkload::parse(
            "Preempted workload ml/train-low (UID: 77aa) in ClusterQueue gpu-cq; preemptor effective priority: 1000 (base: 1000, boost: 0); preemptee effective priority: 10 (base: 10, boost: 0)",
        )
        .unwrap();
        assert_eq!((w.workload.as_str(), w.uid.as_str(), w.cluster_queue.as_str()), ("ml/train-low", "77aa", "gpu-cq"));
        assert_eq!(w.preemptee_priority.map(|p| p.effective), Some(10));
    }

    #[test]
    fn eviction_messages() {
        let d = KueueEvicted::parse("Exceeded the PodsReady timeout ml/train-0").unwrap();
        assert_eq!(d.cause, KueueEvictionCause::PodsReadyTimeout);
        assert_eq!((d.workload.as_deref(), d.timeout_seconds), (Some("ml/train-0"), None));
        let d = KueueEvicted::parse("Exceeded the PodsReady timeout 5m0s").unwrap();
        assert_eq!(d.timeout_seconds, Some(300.0));
        let d = KueueEvicted::parse("Exceeded the PodsReady timeout").unwrap();
        assert_eq!((d.cause, d.workload), (KueueEvictionCause::PodsReadyTimeout, None));
        let d = KueueEvicted::parse(
            "Preempted to accommodate a workload (UID: u1, JobUID: j1) due to prioritization in the ClusterQueue",
        )
        .unwrap();
        assert_eq!(d.cause, KueueEvictionCause::Preempted);
        assert_eq!(d.preemption.unwrap().preemptor_uid.as_deref(), Some("u1"));
        let d = KueueEvicted::parse(
            "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
        )
        .unwrap();
        assert_eq!(d.cause, KueueEvictionCause::Deactivated);
        assert_eq!(d.detail.as_deref(), Some("exceeding the maximum number of re-queuing retries"));
        let d = KueueEvicted::parse(
            "Workload was evicted as there was no replacement for unhealthy node(s): node-a,node-b",
        )
        .unwrap();
        assert_eq!(d.unhealthy_nodes, ["node-a", "node-b"]);
        for (note, cause) in [
            ("The ClusterQueue is stopped", KueueEvictionCause::ClusterQueueStopped),
            ("The LocalQueue is stopped", KueueEvictionCause::LocalQueueStopped),
            ("At least one admission check is false", KueueEvictionCause::AdmissionCheck),
            (
                "Evicted to accommodate a workload (UID: u1) due to migration to more favorable resource flavor",
                KueueEvictionCause::FlavorMigration,
            ),
            ("Unexpected", KueueEvictionCause::Other),
        ] {
            assert_eq!(KueueEvicted::parse(note).unwrap().cause, cause, "{note}");
        }
        assert_eq!(KueueEvicted::parse(""), None);
    }

    #[test]
    fn job_side_notes() {
        assert_eq!(
            CreatedWorkload::parse("Created Workload: ml/job-train-3f2a1").unwrap().workload,
            "ml/job-train-3f2a1"
        );
        assert_eq!(CreatedWorkload::parse("Created Workload: "), None);
        assert_eq!(KueueStarted::parse("Admitted by clusterQueue gpu-cq").unwrap().cluster_queue, "gpu-cq");
        assert_eq!(KueueStarted::parse("Admitted by ClusterQueue gpu-cq, wait time since reservation was 0s"), None);
        assert_eq!(
            FinishedWorkload::parse("Workload 'ml/job-train-3f2a1' is declared finished").unwrap().workload,
            "ml/job-train-3f2a1"
        );
        assert_eq!(FinishedWorkload::parse("Workload ml/x is declared finished"), None);
    }
}
