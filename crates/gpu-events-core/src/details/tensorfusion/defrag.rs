//! GPUPool defragmentation (`GPUPoolCompaction`, internal/controller/gpupool_defrag.go @3e0a490;
//! the same texts on the v1 line @c7a2417). `node %s` is always the Kubernetes node name.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};
use super::{bool_text, captures_suffixed, go_bool, go_uint, take_quoted};

/// A defragmentation step started (gpupool_defrag.go:449 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragStarted {
    /// The start time as written (RFC 3339 in the controller's time zone, usually `Z`).
    pub started_at: String,
    /// The start time, when `started_at` is valid RFC 3339.
    pub time: Option<DateTime<Utc>>,
}

single_format! {
    impl DefragStarted {
        /// The Go format.
        FORMAT = "defrag step started at %s";
        fields(started_at: String);
        /// From the time text.
        pub fn new(started_at: &str) -> Self {
            DefragStarted {
                started_at: started_at.to_owned(),
                time: DateTime::parse_from_rfc3339(started_at).ok().map(|t| t.with_timezone(&Utc)),
            }
        }
    }
}

/// A defragmentation step finished (gpupool_defrag.go:458 @3e0a490); emitted only after
/// [`DefragStarted`]. All counters are counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragFinished {
    /// Candidate nodes (`candidates=`).
    pub candidates: u32,
    /// Nodes processed (`processed=`).
    pub processed: u32,
    /// Pods evicted (`evicted=`).
    pub evicted: u32,
    /// Evictions that failed (`failed=`).
    pub failed: u32,
    /// Nodes whose workers could not be placed elsewhere (`unmovable=`).
    pub unmovable: u32,
    /// Nodes skipped because a PDB allowed no disruption (`pdbBlocked=`).
    pub pdb_blocked: u32,
    /// Nodes skipped because a Pod has no PDB (`missingPdb=`).
    pub missing_pdb: u32,
    /// Nodes skipped because a worker appeared after candidate collection (`freshSkip=`).
    pub fresh_skip: u32,
    /// Whether the step hit its deadline (`deadline=`).
    pub deadline: bool,
}

impl DefragFinished {
    /// The Go format.
    pub const FORMAT: &'static str = "defrag step finished: candidates=%d processed=%d evicted=%d failed=%d unmovable=%d pdbBlocked=%d missingPdb=%d freshSkip=%d deadline=%t";

    /// From the eight counters in note order (candidates, processed, evicted, failed, unmovable,
    /// pdbBlocked, missingPdb, freshSkip) and the deadline flag.
    pub fn new(counters: [u32; 8], deadline: bool) -> Self {
        let [candidates, processed, evicted, failed, unmovable, pdb_blocked, missing_pdb, fresh_skip] = counters;
        DefragFinished {
            candidates,
            processed,
            evicted,
            failed,
            unmovable,
            pdb_blocked,
            missing_pdb,
            fresh_skip,
            deadline,
        }
    }

    /// The eight counters in note order.
    pub fn counters(&self) -> [u32; 8] {
        [
            self.candidates,
            self.processed,
            self.evicted,
            self.failed,
            self.unmovable,
            self.pdb_blocked,
            self.missing_pdb,
            self.fresh_skip,
        ]
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [a, b, c, d, e, f, g, h, deadline] = captures(Self::FORMAT, note)?;
        let mut counters = [0u32; 8];
        for (slot, text) in counters.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *slot = go_uint(text)?;
        }
        Some(Self::new(counters, go_bool(deadline)?))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        let [a, b, c, d, e, f, g, h] = self.counters().map(|n| Arg::Int(n.into()));
        fill(Self::FORMAT, &[a, b, c, d, e, f, g, h, Arg::Text(bool_text(self.deadline))])
    }
}

single_format! {
    /// Defragmentation evicted a worker Pod (gpupool_defrag.go:2121 @3e0a490).
    pub struct DefragPodEvicted {
        /// Pod namespace.
        pub namespace: String,
        /// Pod name.
        pub pod: String,
        /// The source node.
        pub node: String,
    }
    /// The Go format.
    FORMAT = "evicted pod %s/%s on node %s for defrag";
    /// From the Pod and node.
    new;
}

single_format! {
    /// A node is left out of defragmentation because one of its Pods has no PodDisruptionBudget
    /// (gpupool_defrag.go:661 @3e0a490).
    pub struct DefragSkipMissingPdb {
        /// The node.
        pub node: String,
        /// Namespace of the Pod without a PDB.
        pub namespace: String,
        /// Name of the Pod without a PDB.
        pub pod: String,
    }
    /// The Go format.
    FORMAT = "node %s skipped from defrag: pod %s/%s has no PodDisruptionBudget covering it; please add a PDB to enable safe defrag";
    /// From the node and Pod.
    new;
}

/// The PDB block reason `pod %s/%s is blocked by PDB %s/%s: disruptionsAllowed=%d`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PdbBlock {
    /// Namespace of the blocked Pod.
    pub pod_namespace: String,
    /// Name of the blocked Pod.
    pub pod: String,
    /// Namespace of the PodDisruptionBudget.
    pub pdb_namespace: String,
    /// Name of the PodDisruptionBudget.
    pub pdb: String,
    /// The PDB's `status.disruptionsAllowed` (count).
    pub disruptions_allowed: i32,
}

impl PdbBlock {
    /// The Go format.
    pub const FORMAT: &'static str = "pod %s/%s is blocked by PDB %s/%s: disruptionsAllowed=%d";

    /// Parse a block reason; `None` when it does not have the shape.
    pub fn parse(reason: &str) -> Option<Self> {
        let [pod_namespace, pod, pdb_namespace, pdb, allowed] = captures(Self::FORMAT, reason)?;
        Some(PdbBlock {
            pod_namespace: pod_namespace.to_owned(),
            pod: pod.to_owned(),
            pdb_namespace: pdb_namespace.to_owned(),
            pdb: pdb.to_owned(),
            disruptions_allowed: allowed.parse().ok()?,
        })
    }
}

/// A node is skipped before eviction because a PDB allows no disruption now
/// (gpupool_defrag.go:1065 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragSkipPdbBlocked {
    /// The node.
    pub node: String,
    /// The block reason, verbatim.
    pub reason: String,
    /// The block reason decoded, when it has the usual shape.
    pub block: Option<PdbBlock>,
}

single_format! {
    impl DefragSkipPdbBlocked {
        /// The Go format.
        FORMAT = "node %s skipped before eviction: %s";
        fields(node: String, reason: String);
        /// From the node and reason text.
        pub fn new(node: &str, reason: &str) -> Self {
            DefragSkipPdbBlocked { node: node.to_owned(), reason: reason.to_owned(), block: PdbBlock::parse(reason) }
        }
    }
}

/// The shape of a placement summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum SummaryForm {
    /// `pod=<ns>/<name> feasible=<n> budgetTargets=<n> …` (gpupool_defrag.go:1470-1508).
    Placement,
    /// `current TF workers cannot be jointly placed on other nodes`.
    NotJointlyPlaceable,
    /// `current TF workers cannot be jointly placed; feasible=0 budgetTargets=<n>[ excluded=…]`.
    NotJointlyPlaceableCounts,
    /// Another text (kept only in [`DefragSkipUnschedulable::summary`]).
    Other,
}

/// One `topRejects=` entry: `<target>:<stage>(<reason>)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TargetReject {
    /// The target node that was rejected.
    pub target: String,
    /// The stage that rejected it: `not-in-budget`, `max-worker-per-node`, `monotonicity`,
    /// `virtual-node-resource`, `scheduler-filter`, `allocator-filter`, `allocator-select` or
    /// `scheduler-infeasible`.
    pub stage: String,
    /// Why, as written (≤180 characters, then cut with `...`; may contain parentheses and
    /// commas; without its closing parenthesis when the summary was cut inside it).
    pub reason: String,
}

/// One `budget=` entry: `<node>(t=%d,u=%d,f=%d,d=%d)`, counters as printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeBudget {
    /// The target node.
    pub node: String,
    /// `t=`: the node's pool GPUs in total (count).
    pub t: u32,
    /// `u=`: pool GPUs in use (count).
    pub u: u32,
    /// `f=`: pool GPUs free (count).
    pub f: u32,
    /// `d=`: the fourth counter, as printed (count).
    pub d: u32,
}

/// One `excluded=` entry: `<node>(<why>)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExcludedNode {
    /// The node left out of the simulation.
    pub node: String,
    /// Why: `not in scheduler snapshot`, `nil node in scheduler snapshot`, `deletion-marked`,
    /// `defrag-source-marked`, `no pool GPUs (label mismatch)`, or
    /// `empty node (t=%d,u=0,f=%d,d=%d)`.
    pub why: String,
}

/// The placement summary of [`DefragSkipUnschedulable`] decoded best-effort
/// (gpupool_defrag.go:1470-1508 @3e0a490): space-separated `key=value` parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PlacementSummary {
    /// The summary's shape.
    pub form: SummaryForm,
    /// Whether the summary ends with `...`: TensorFusion cut it at 900 characters, so the last
    /// part may be incomplete.
    pub truncated: bool,
    /// `pod=`: the namespace of the Pod that could not be placed.
    pub pod_namespace: Option<String>,
    /// `pod=`: the Pod's name.
    pub pod: Option<String>,
    /// `feasible=`: feasible target nodes (count).
    pub feasible: Option<u32>,
    /// `budgetTargets=`: nodes with a placement budget (count).
    pub budget_targets: Option<u32>,
    /// `topRejects=`: up to four rejected targets.
    pub top_rejects: Vec<TargetReject>,
    /// `scheduler=`: the scheduler's details, verbatim (`<detail>[,<detail>]`).
    pub scheduler: Option<String>,
    /// `reason=`: e.g. `no feasible defrag target`.
    pub reason: Option<String>,
    /// `budget=`: up to four target budgets.
    pub budget: Vec<NodeBudget>,
    /// `excluded=`: up to four nodes left out.
    pub excluded: Vec<ExcludedNode>,
}

/// The keys of a placement summary and their order group: a value ends where a key of a later
/// group starts (`topRejects=`, `scheduler=` and `reason=` are alternatives).
const SUMMARY_KEYS: [(&str, u8); 8] = [
    ("pod=", 0),
    ("feasible=", 1),
    ("budgetTargets=", 2),
    ("topRejects=", 3),
    ("scheduler=", 3),
    ("reason=", 3),
    ("budget=", 4),
    ("excluded=", 5),
];

/// Where ` <key>` starts in `text` (the position of the space).
fn find_spaced_key(text: &str, key: &str) -> Option<usize> {
    text.match_indices(key).find(|(at, _)| *at > 0 && text.as_bytes().get(at - 1) == Some(&b' ')).map(|(at, _)| at - 1)
}

/// Whether `text` starts with a node-name-like token (`[A-Za-z0-9._-]+`), returning the rest.
fn skip_name(text: &str) -> Option<&str> {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))).unwrap_or(text.len());
    (end > 0).then(|| text.get(end..)).flatten()
}

/// `<name>:<stage>(` starts a `topRejects=` entry.
fn starts_reject(text: &str) -> bool {
    skip_name(text)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| {
            let end = rest.find(|c: char| !(c.is_ascii_lowercase() || c == '-'))?;
            (end > 0).then(|| rest.get(end..)).flatten()
        })
        .is_some_and(|rest| rest.starts_with('('))
}

/// `<name>(` starts a `budget=` or `excluded=` entry.
fn starts_node_entry(text: &str) -> bool {
    skip_name(text).is_some_and(|rest| rest.starts_with('('))
}

/// Call `each` with the entries of a comma-separated list whose entries may themselves contain
/// commas: only a comma followed by what `starts_entry` recognizes separates entries.
fn for_each_entry<'a>(value: &'a str, starts_entry: fn(&str) -> bool, mut each: impl FnMut(&'a str)) {
    let mut start = 0;
    for (at, _) in value.match_indices(',') {
        if at >= start
            && value.get(at + 1..).is_some_and(starts_entry)
            && let Some(entry) = value.get(start..at)
        {
            each(entry);
            start = at + 1;
        }
    }
    if let Some(last) = value.get(start..).filter(|last| !last.is_empty()) {
        each(last);
    }
}

impl PlacementSummary {
    const NOT_PLACEABLE: &'static str = "current TF workers cannot be jointly placed on other nodes";
    const NOT_PLACEABLE_COUNTS: &'static str = "current TF workers cannot be jointly placed; ";

    /// Decode a summary (never fails: an unknown text gives [`SummaryForm::Other`]).
    pub fn parse(summary: &str) -> Self {
        let (body, truncated) = match summary.strip_suffix("...") {
            Some(body) => (body, true),
            None => (summary, false),
        };
        let mut out = PlacementSummary {
            form: SummaryForm::Other,
            truncated,
            pod_namespace: None,
            pod: None,
            feasible: None,
            budget_targets: None,
            top_rejects: Vec::new(),
            scheduler: None,
            reason: None,
            budget: Vec::new(),
            excluded: Vec::new(),
        };
        let parts = if body == Self::NOT_PLACEABLE {
            out.form = SummaryForm::NotJointlyPlaceable;
            return out;
        } else if let Some(parts) = body.strip_prefix(Self::NOT_PLACEABLE_COUNTS) {
            out.form = SummaryForm::NotJointlyPlaceableCounts;
            parts
        } else if body.starts_with("pod=") {
            out.form = SummaryForm::Placement;
            body
        } else {
            return out;
        };
        out.read_parts(parts);
        out
    }

    fn read_parts(&mut self, parts: &str) {
        let mut rest = parts;
        let mut min_group = 0;
        while let Some(&(key, group)) =
            SUMMARY_KEYS.iter().find(|(key, group)| *group >= min_group && rest.starts_with(key))
        {
            let Some(after) = rest.get(key.len()..) else {
                return;
            };
            let end = SUMMARY_KEYS
                .iter()
                .filter(|(_, later)| *later > group)
                .filter_map(|(next, _)| find_spaced_key(after, next))
                .min()
                .unwrap_or(after.len());
            let (Some(value), Some(next)) = (after.get(..end), after.get(end..)) else {
                return;
            };
            self.read_value(key, value);
            rest = next.strip_prefix(' ').unwrap_or(next);
            min_group = group + 1;
        }
    }

    fn read_value(&mut self, key: &str, value: &str) {
        match key {
            "pod=" => match value.split_once('/') {
                Some((namespace, pod)) => {
                    self.pod_namespace = Some(namespace.to_owned());
                    self.pod = Some(pod.to_owned());
                }
                None => self.pod = Some(value.to_owned()),
            },
            "feasible=" => self.feasible = value.parse().ok(),
            "budgetTargets=" => self.budget_targets = value.parse().ok(),
            "scheduler=" => self.scheduler = Some(value.to_owned()),
            "reason=" => self.reason = Some(value.to_owned()),
            "topRejects=" => for_each_entry(value, starts_reject, |entry| {
                let Some((target, rest)) = entry.split_once(':') else {
                    return;
                };
                let (stage, reason) = rest.split_once('(').unwrap_or((rest, ""));
                self.top_rejects.push(TargetReject {
                    target: target.to_owned(),
                    stage: stage.to_owned(),
                    reason: reason.strip_suffix(')').unwrap_or(reason).to_owned(),
                });
            }),
            "budget=" => for_each_entry(value, starts_node_entry, |entry| {
                let parsed = entry.split_once('(').and_then(|(node, counters)| {
                    let counters = counters.strip_suffix(')')?;
                    let [t, u, f, d] = captures("t=%d,u=%d,f=%d,d=%d", counters)?;
                    Some(NodeBudget {
                        node: node.to_owned(),
                        t: t.parse().ok()?,
                        u: u.parse().ok()?,
                        f: f.parse().ok()?,
                        d: d.parse().ok()?,
                    })
                });
                self.budget.extend(parsed);
            }),
            "excluded=" => for_each_entry(value, starts_node_entry, |entry| {
                if let Some((node, why)) = entry.split_once('(') {
                    self.excluded.push(ExcludedNode {
                        node: node.to_owned(),
                        why: why.strip_suffix(')').unwrap_or(why).to_owned(),
                    });
                }
            }),
            _ => {}
        }
    }
}

/// A node is skipped because its workers cannot all be placed elsewhere
/// (gpupool_defrag.go:1051 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragSkipUnschedulable {
    /// The node.
    pub node: String,
    /// The placement summary, verbatim.
    pub summary: String,
    /// The placement summary decoded.
    pub placement: PlacementSummary,
}

single_format! {
    impl DefragSkipUnschedulable {
        /// The Go format.
        FORMAT = "node %s skipped: %s";
        fields(node: String, summary: String);
        /// From the node and summary text.
        pub fn new(node: &str, summary: &str) -> Self {
            DefragSkipUnschedulable {
                node: node.to_owned(),
                summary: summary.to_owned(),
                placement: PlacementSummary::parse(summary),
            }
        }
    }
}

/// Which step of eviction failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum EvictFailureForm {
    /// `failed to mark node %s as defrag source: %v (node eviction aborted)` (line 2076).
    MarkSource,
    /// `evicted pod %s/%s on node %s but failed to mark defrag label: %v (node eviction aborted)`
    /// (line 2113).
    MarkLabel,
    /// `failed to evict pod %s/%s on node %s: %v (node eviction aborted)` (line 2136).
    Evict,
}

impl EvictFailureForm {
    /// The Go format of this form.
    pub fn format(self) -> &'static str {
        match self {
            EvictFailureForm::MarkSource => "failed to mark node %s as defrag source: %v (node eviction aborted)",
            EvictFailureForm::MarkLabel => {
                "evicted pod %s/%s on node %s but failed to mark defrag label: %v (node eviction aborted)"
            }
            EvictFailureForm::Evict => "failed to evict pod %s/%s on node %s: %v (node eviction aborted)",
        }
    }
}

/// Marking the source node or evicting one of its Pods failed; eviction of the node was aborted
/// (gpupool_defrag.go:2076,2113,2136 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragPodEvictFailed {
    /// Which step failed.
    pub form: EvictFailureForm,
    /// The source node.
    pub node: String,
    /// Pod namespace (`None` for [`EvictFailureForm::MarkSource`]).
    pub namespace: Option<String>,
    /// Pod name (`None` for [`EvictFailureForm::MarkSource`]).
    pub pod: Option<String>,
    /// The error (may contain anything; the fixed tail is matched from the end).
    pub error: String,
}

impl DefragPodEvictFailed {
    /// Marking the node as defrag source failed.
    pub fn mark_source(node: &str, error: &str) -> Self {
        DefragPodEvictFailed {
            form: EvictFailureForm::MarkSource,
            node: node.to_owned(),
            namespace: None,
            pod: None,
            error: error.to_owned(),
        }
    }

    /// A Pod was evicted (`MarkLabel`) or failed to be evicted (`Evict`). With
    /// [`EvictFailureForm::MarkSource`] the Pod is dropped, as that note names none.
    pub fn with_pod(form: EvictFailureForm, namespace: &str, pod: &str, node: &str, error: &str) -> Self {
        if form == EvictFailureForm::MarkSource {
            return Self::mark_source(node, error);
        }
        DefragPodEvictFailed {
            form,
            node: node.to_owned(),
            namespace: Some(namespace.to_owned()),
            pod: Some(pod.to_owned()),
            error: error.to_owned(),
        }
    }

    /// Parse a note of any of the three forms.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some([node, error]) = captures_suffixed(EvictFailureForm::MarkSource.format(), note) {
            return Some(Self::mark_source(node, error));
        }
        [EvictFailureForm::MarkLabel, EvictFailureForm::Evict].into_iter().find_map(|form| {
            let [namespace, pod, node, error] = captures_suffixed(form.format(), note)?;
            Some(Self::with_pod(form, namespace, pod, node, error))
        })
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        let node = Arg::Text(&self.node);
        let error = Arg::Text(&self.error);
        match self.form {
            EvictFailureForm::MarkSource => fill(self.form.format(), &[node, error]),
            _ => fill(
                self.form.format(),
                &[
                    Arg::Text(self.namespace.as_deref().unwrap_or_default()),
                    Arg::Text(self.pod.as_deref().unwrap_or_default()),
                    node,
                    error,
                ],
            ),
        }
    }
}

single_format! {
    /// After an eviction failure the node went on the evict-skip list
    /// (gpupool_defrag.go:2146 @3e0a490).
    pub struct DefragNodeEvictSkip {
        /// The node.
        pub node: String,
        /// The eviction error.
        pub error: String,
    }
    /// The Go format.
    FORMAT = "node %s added to defrag evict-skip list after eviction failure: %v";
    /// From the node and error.
    new;
}

/// Why defragmentation gave up on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AbortForm {
    /// `node %s aborted: simulation error: %v` (line 1038).
    SimulationError,
    /// `node %s: eviction preflight failed: %v` (line 1059).
    PreflightFailed,
    /// `node %s: eviction aborted` (line 1076).
    EvictionAborted,
}

impl AbortForm {
    /// The Go format of this form.
    pub fn format(self) -> &'static str {
        match self {
            AbortForm::SimulationError => "node %s aborted: simulation error: %v",
            AbortForm::PreflightFailed => "node %s: eviction preflight failed: %v",
            AbortForm::EvictionAborted => "node %s: eviction aborted",
        }
    }
}

/// Defragmentation gave up on a node (gpupool_defrag.go:1038,1059,1076 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragAbortNode {
    /// Which form.
    pub form: AbortForm,
    /// The node.
    pub node: String,
    /// The error (`None` for [`AbortForm::EvictionAborted`]).
    pub error: Option<String>,
}

impl DefragAbortNode {
    /// From the form, node and error (the error is dropped for `EvictionAborted`, which prints
    /// none, and is empty text when missing for the others).
    pub fn new(form: AbortForm, node: &str, error: Option<&str>) -> Self {
        let error = match form {
            AbortForm::EvictionAborted => None,
            _ => Some(error.unwrap_or_default().to_owned()),
        };
        DefragAbortNode { form, node: node.to_owned(), error }
    }

    /// Parse a note of any of the three forms.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some([node]) = captures(AbortForm::EvictionAborted.format(), note) {
            return Some(Self::new(AbortForm::EvictionAborted, node, None));
        }
        [AbortForm::SimulationError, AbortForm::PreflightFailed].into_iter().find_map(|form| {
            let [node, error] = captures(form.format(), note)?;
            Some(Self::new(form, node, Some(error)))
        })
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(self.form.format(), &[Arg::Text(&self.node), Arg::Text(self.error.as_deref().unwrap_or_default())])
    }
}

/// The typed form of a [`DefragConfigInvalid`] error (internal/utils/cron.go @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum DefragConfigError {
    /// `timezone is required (e.g. "UTC" or "Asia/Shanghai")`.
    TimezoneRequired,
    /// `invalid timezone %q: %v (check IANA name; image needs tzdata or binary must embed time/tzdata)`.
    InvalidTimezone {
        /// The time zone as configured.
        timezone: String,
        /// Go's `time.LoadLocation` error.
        error: String,
    },
    /// `schedule is required`.
    ScheduleRequired,
    /// `schedule must not embed TZ=/CRON_TZ= prefix; use the timezone field instead`.
    ScheduleEmbedsTimezone,
    /// `parse cron schedule %q in timezone %q: %v`.
    ParseSchedule {
        /// The cron schedule as configured.
        schedule: String,
        /// The time zone as configured.
        timezone: String,
        /// The cron parser's error.
        error: String,
    },
    /// Any other error (the text is in `error` of the details).
    Other,
}

impl DefragConfigError {
    const TIMEZONE_HINT: &'static str = " (check IANA name; image needs tzdata or binary must embed time/tzdata)";

    /// Read the typed form of an error text.
    pub fn classify(error: &str) -> Self {
        match error {
            "timezone is required (e.g. \"UTC\" or \"Asia/Shanghai\")" => {
                return DefragConfigError::TimezoneRequired;
            }
            "schedule is required" => return DefragConfigError::ScheduleRequired,
            "schedule must not embed TZ=/CRON_TZ= prefix; use the timezone field instead" => {
                return DefragConfigError::ScheduleEmbedsTimezone;
            }
            _ => {}
        }
        Self::invalid_timezone(error).or_else(|| Self::parse_schedule(error)).unwrap_or(DefragConfigError::Other)
    }

    fn invalid_timezone(error: &str) -> Option<Self> {
        let rest = error.strip_prefix("invalid timezone ")?.strip_suffix(Self::TIMEZONE_HINT)?;
        let (timezone, rest) = take_quoted(rest)?;
        Some(DefragConfigError::InvalidTimezone { timezone, error: rest.strip_prefix(": ")?.to_owned() })
    }

    fn parse_schedule(error: &str) -> Option<Self> {
        let (schedule, rest) = take_quoted(error.strip_prefix("parse cron schedule ")?)?;
        let (timezone, rest) = take_quoted(rest.strip_prefix(" in timezone ")?)?;
        Some(DefragConfigError::ParseSchedule { schedule, timezone, error: rest.strip_prefix(": ")?.to_owned() })
    }
}

/// The pool's defragmentation schedule or time zone is invalid; defragmentation is disabled
/// (gpupool_defrag.go:169 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefragConfigInvalid {
    /// The configuration error, verbatim.
    pub error: String,
    /// The error's typed form.
    pub cause: DefragConfigError,
}

single_format! {
    impl DefragConfigInvalid {
        /// The Go format.
        FORMAT = "defrag disabled: %v";
        fields(error: String);
        /// From the error text.
        pub fn new(error: &str) -> Self {
            DefragConfigInvalid { error: error.to_owned(), cause: DefragConfigError::classify(error) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn started_and_finished() {
        let d = DefragStarted::parse("defrag step started at 2026-08-20T03:00:00Z").unwrap();
        assert_eq!(d.started_at, "2026-08-20T03:00:00Z");
        assert_eq!(d.time.unwrap().to_rfc3339(), "2026-08-20T03:00:00+00:00");
        let d = DefragStarted::parse("defrag step started at 2026-08-20T11:00:00+08:00").unwrap();
        assert_eq!(d.time.unwrap().to_rfc3339(), "2026-08-20T03:00:00+00:00");
        let d = DefragStarted::parse("defrag step started at yesterday").unwrap();
        assert_eq!(d.time, None);
        assert_eq!(d.render(), "defrag step started at yesterday");
        assert_eq!(DefragStarted::parse("defrag run started at 2026-08-20T03:00:00Z"), None);

        let note = "defrag step finished: candidates=3 processed=2 evicted=4 failed=0 unmovable=1 pdbBlocked=0 missingPdb=0 freshSkip=0 deadline=false";
        let d = DefragFinished::parse(note).unwrap();
        assert_eq!(d.counters(), [3, 2, 4, 0, 1, 0, 0, 0]);
        assert!(!d.deadline);
        assert_eq!(d.render(), note);
        assert!(DefragFinished::parse(&note.replace("false", "true")).unwrap().deadline);
        assert_eq!(DefragFinished::parse(&note.replace("false", "no")), None);
        assert_eq!(DefragFinished::parse(&note.replace("=3 ", "=03 ")), None);
    }

    #[test]
    fn evicted_and_pdb() {
        let d = DefragPodEvicted::parse("evicted pod ml/llama-0 on node gpu-node-3 for defrag").unwrap();
        assert_eq!((d.namespace.as_str(), d.pod.as_str(), d.node.as_str()), ("ml", "llama-0", "gpu-node-3"));
        assert_eq!(DefragPodEvicted::parse("evicted pod ml/llama-0 on node gpu-node-3"), None);

        let d = DefragSkipMissingPdb::parse("node gpu-node-3 skipped from defrag: pod ml/llama-0 has no PodDisruptionBudget covering it; please add a PDB to enable safe defrag").unwrap();
        assert_eq!((d.node.as_str(), d.namespace.as_str(), d.pod.as_str()), ("gpu-node-3", "ml", "llama-0"));
        assert_eq!(
            DefragSkipMissingPdb::parse(
                "node gpu-node-3 skipped from defrag: pod ml/llama-0 has no PodDisruptionBudget covering it"
            ),
            None
        );

        let d = DefragSkipPdbBlocked::parse("node gpu-node-3 skipped before eviction: pod ml/llama-0 is blocked by PDB ml/llama-pdb: disruptionsAllowed=0").unwrap();
        assert_eq!(d.node, "gpu-node-3");
        let block = d.block.unwrap();
        assert_eq!(
            (
                block.pod_namespace.as_str(),
                block.pod.as_str(),
                block.pdb_namespace.as_str(),
                block.pdb.as_str(),
                block.disruptions_allowed
            ),
            ("ml", "llama-0", "ml", "llama-pdb", 0)
        );
        let d = DefragSkipPdbBlocked::parse("node n skipped before eviction: list PDBs: timeout").unwrap();
        assert_eq!(d.block, None);
        assert_eq!(d.reason, "list PDBs: timeout");
        assert_eq!(DefragSkipPdbBlocked::parse("node n skipped: x"), None);
    }

    #[test]
    fn placement_summary_example() {
        let note = "node gpu-node-3 skipped: pod=ml/llama-0 feasible=1 budgetTargets=2 topRejects=gpu-node-1:monotonicity(targetUtil=0.25 sourceUtil=0.50) budget=gpu-node-1(t=8,u=2,f=6,d=0)";
        let d = DefragSkipUnschedulable::parse(note).unwrap();
        assert_eq!(d.render(), note);
        let p = &d.placement;
        assert_eq!(p.form, SummaryForm::Placement);
        assert!(!p.truncated);
        assert_eq!(p.pod_namespace.as_deref(), Some("ml"));
        assert_eq!(p.pod.as_deref(), Some("llama-0"));
        assert_eq!((p.feasible, p.budget_targets), (Some(1), Some(2)));
        assert_eq!(
            p.top_rejects,
            [TargetReject {
                target: "gpu-node-1".into(),
                stage: "monotonicity".into(),
                reason: "targetUtil=0.25 sourceUtil=0.50".into(),
            }]
        );
        assert_eq!(p.budget, [NodeBudget { node: "gpu-node-1".into(), t: 8, u: 2, f: 6, d: 0 }]);
        assert!(p.excluded.is_empty() && p.scheduler.is_none() && p.reason.is_none());
    }

    #[test]
    fn placement_summary_is_lenient() {
        let summary = "pod=ml/llama-0 feasible=0 budgetTargets=3 topRejects=gpu-node-1:scheduler-filter(node(s) didn't match Pod's node affinity, taint x),gpu-node-2:allocator-filter(no gpu (vram) left),gpu-node-3:not-in-budget(excluded) budget=gpu-node-1(t=8,u=8,f=0,d=0),gpu-node-2(t=4,u=4,f=0,d=1) excluded=gpu-node-4(empty node (t=4,u=0,f=4,d=0)),gpu-node-5(no pool GPUs (label mismatch)),gpu-node-6(deletion-marked)";
        let p = PlacementSummary::parse(summary);
        assert_eq!(p.form, SummaryForm::Placement);
        let rejects: Vec<_> =
            p.top_rejects.iter().map(|r| (r.target.as_str(), r.stage.as_str(), r.reason.as_str())).collect();
        assert_eq!(
            rejects,
            [
                ("gpu-node-1", "scheduler-filter", "node(s) didn't match Pod's node affinity, taint x"),
                ("gpu-node-2", "allocator-filter", "no gpu (vram) left"),
                ("gpu-node-3", "not-in-budget", "excluded"),
            ]
        );
        assert_eq!(p.budget.len(), 2);
        assert_eq!(p.budget[1].d, 1);
        let excluded: Vec<_> = p.excluded.iter().map(|e| (e.node.as_str(), e.why.as_str())).collect();
        assert_eq!(
            excluded,
            [
                ("gpu-node-4", "empty node (t=4,u=0,f=4,d=0)"),
                ("gpu-node-5", "no pool GPUs (label mismatch)"),
                ("gpu-node-6", "deletion-marked"),
            ]
        );

        let p = PlacementSummary::parse(
            "pod=ml/a feasible=0 budgetTargets=0 scheduler=0/3 nodes are available: 3 Insufficient cpu.,preemption: none",
        );
        assert_eq!(p.scheduler.as_deref(), Some("0/3 nodes are available: 3 Insufficient cpu.,preemption: none"));
        let p = PlacementSummary::parse(
            "pod=ml/a feasible=0 budgetTargets=0 reason=no feasible defrag target excluded=n1(not in scheduler snapshot)",
        );
        assert_eq!(p.reason.as_deref(), Some("no feasible defrag target"));
        assert_eq!(p.excluded[0].why, "not in scheduler snapshot");

        let p = PlacementSummary::parse("current TF workers cannot be jointly placed on other nodes");
        assert_eq!(p.form, SummaryForm::NotJointlyPlaceable);
        let p = PlacementSummary::parse(
            "current TF workers cannot be jointly placed; feasible=0 budgetTargets=2 excluded=n1(defrag-source-marked)",
        );
        assert_eq!(p.form, SummaryForm::NotJointlyPlaceableCounts);
        assert_eq!((p.feasible, p.budget_targets), (Some(0), Some(2)));
        assert_eq!(p.excluded.len(), 1);
        assert_eq!(p.pod, None);

        // Cut at 900 characters: flagged, the partial last entry kept as far as it goes.
        let p = PlacementSummary::parse(
            "pod=ml/a feasible=1 budgetTargets=1 topRejects=n1:monotonicity(targetUtil=0.25 sour...",
        );
        assert!(p.truncated);
        assert_eq!(p.top_rejects[0].reason, "targetUtil=0.25 sour");

        let p = PlacementSummary::parse("something else entirely");
        assert_eq!(p.form, SummaryForm::Other);
        assert!(p.top_rejects.is_empty());
        let p = PlacementSummary::parse("");
        assert_eq!(p.form, SummaryForm::Other);
    }

    #[test]
    fn evict_failed_forms() {
        let note = "failed to evict pod ml/llama-0 on node gpu-node-3: Cannot evict pod as it would violate the pod's disruption budget. (node eviction aborted)";
        let d = DefragPodEvictFailed::parse(note).unwrap();
        assert_eq!(d.form, EvictFailureForm::Evict);
        assert_eq!(d.namespace.as_deref(), Some("ml"));
        assert_eq!(d.pod.as_deref(), Some("llama-0"));
        assert_eq!(d.node, "gpu-node-3");
        assert_eq!(d.error, "Cannot evict pod as it would violate the pod's disruption budget.");
        assert_eq!(d.render(), note);

        let note = "failed to mark node gpu-node-3 as defrag source: conflict (node eviction aborted)";
        let d = DefragPodEvictFailed::parse(note).unwrap();
        assert_eq!((d.form, d.node.as_str(), d.pod.as_deref()), (EvictFailureForm::MarkSource, "gpu-node-3", None));
        assert_eq!(d.render(), note);

        let note = "evicted pod ml/llama-0 on node gpu-node-3 but failed to mark defrag label: conflict (node eviction aborted)";
        let d = DefragPodEvictFailed::parse(note).unwrap();
        assert_eq!(d.form, EvictFailureForm::MarkLabel);
        assert_eq!(d.error, "conflict");
        assert_eq!(d.render(), note);

        assert_eq!(DefragPodEvictFailed::parse("failed to evict pod ml/llama-0 on node gpu-node-3: x"), None);

        let d = DefragNodeEvictSkip::parse(
            "node gpu-node-3 added to defrag evict-skip list after eviction failure: <error>",
        )
        .unwrap();
        assert_eq!((d.node.as_str(), d.error.as_str()), ("gpu-node-3", "<error>"));
        assert_eq!(DefragNodeEvictSkip::parse("node gpu-node-3 added to defrag evict-skip list"), None);
    }

    #[test]
    fn abort_forms() {
        for (note, form, error) in [
            ("node gpu-node-3: eviction aborted", AbortForm::EvictionAborted, None),
            (
                "node gpu-node-3 aborted: simulation error: scheduler vendor patch missing",
                AbortForm::SimulationError,
                Some("scheduler vendor patch missing"),
            ),
            (
                "node gpu-node-3: eviction preflight failed: list pdbs: timeout",
                AbortForm::PreflightFailed,
                Some("list pdbs: timeout"),
            ),
        ] {
            let d = DefragAbortNode::parse(note).unwrap();
            assert_eq!((d.form, d.node.as_str(), d.error.as_deref()), (form, "gpu-node-3", error));
            assert_eq!(d.render(), note);
        }
        assert_eq!(DefragAbortNode::parse("node gpu-node-3: eviction aborted; label retained for stale cleanup"), None);
    }

    #[test]
    fn config_errors() {
        for (error, cause) in [
            ("timezone is required (e.g. \"UTC\" or \"Asia/Shanghai\")", DefragConfigError::TimezoneRequired),
            (
                "invalid timezone \"Mars/Base\": unknown time zone Mars/Base (check IANA name; image needs tzdata or binary must embed time/tzdata)",
                DefragConfigError::InvalidTimezone {
                    timezone: "Mars/Base".into(),
                    error: "unknown time zone Mars/Base".into(),
                },
            ),
            ("schedule is required", DefragConfigError::ScheduleRequired),
            (
                "schedule must not embed TZ=/CRON_TZ= prefix; use the timezone field instead",
                DefragConfigError::ScheduleEmbedsTimezone,
            ),
            (
                "parse cron schedule \"0 3 * *\" in timezone \"UTC\": expected exactly 5 fields, found 4: [0 3 * *]",
                DefragConfigError::ParseSchedule {
                    schedule: "0 3 * *".into(),
                    timezone: "UTC".into(),
                    error: "expected exactly 5 fields, found 4: [0 3 * *]".into(),
                },
            ),
            ("something else", DefragConfigError::Other),
        ] {
            let note = format!("defrag disabled: {error}");
            let d = DefragConfigInvalid::parse(&note).unwrap();
            assert_eq!(d.cause, cause, "{error}");
            assert_eq!(d.render(), note);
        }
        assert_eq!(DefragConfigInvalid::parse("defrag enabled: x"), None);
    }
}
