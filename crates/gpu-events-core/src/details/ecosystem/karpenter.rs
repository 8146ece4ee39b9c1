//! Karpenter note grammars (kubernetes-sigs/karpenter, v1.14.0 22664681 with the older formats of
//! tags v0.3x–v1.13): `Nominated`, `FailedScheduling`, `DisruptionBlocked`,
//! `DisruptionLaunching`/`DisruptionTerminating`, `InsufficientCapacityError`/`NodeClassNotReady`,
//! `Evicted`, `FailedDraining`, `AwaitingVolumeDetachment`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::text::{
    closing_bracket, key_values, pretty_slice, quantity_map, quoted_prefix, split_top_level, split_top_level_where,
    structured_suffix, unquote_or_keep,
};
use crate::details::Quantity;
use crate::details::template::captures;

/// Karpenter nominated a (future) node for the Pod (kubernetes-sigs/karpenter
/// pkg/controllers/provisioning/scheduling/events.go, v1.14.0).
///
/// Formats: `Pod should schedule on: nodeclaim/%s`, with `, node/%s` once the claim has a Node,
/// or `node/%s` alone when Karpenter nominates an existing Node (no NodeClaim); before v0.32
/// (Machine API) `machine/%s` stands where `nodeclaim/%s` does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Nominated {
    /// The NodeClaim name; `None` when the note names only a Node or a Machine.
    pub node_claim: Option<String>,
    /// The Machine name, in the pre-v0.32 `machine/%s` form (the Machine API preceded NodeClaim).
    pub machine: Option<String>,
    /// The Node name, once the claim has one (or the existing Node nominated).
    pub node: Option<String>,
}

impl Nominated {
    /// Parse `Pod should schedule on: nodeclaim/NAME` (or `machine/NAME`) with an optional
    /// `, node/NAME`, or `Pod should schedule on: node/NAME`. Every name must be non-empty.
    pub fn parse(note: &str) -> Option<Self> {
        let target = note.strip_prefix("Pod should schedule on: ")?;
        let (owner, node) = match target.strip_prefix("node/") {
            Some(node) => (None, Some(node)),
            None => match target.split_once(", node/") {
                Some((owner, node)) => (Some(owner), Some(node)),
                None => (Some(target), None),
            },
        };
        let name = |name: &str| (!name.is_empty()).then(|| name.to_owned());
        let mut out = Nominated { node_claim: None, machine: None, node: None };
        if let Some(owner) = owner {
            if let Some(claim) = owner.strip_prefix("nodeclaim/") {
                out.node_claim = Some(name(claim)?);
            } else if let Some(machine) = owner.strip_prefix("machine/") {
                out.machine = Some(name(machine)?);
            } else {
                return None;
            }
        }
        if let Some(node) = node {
            out.node = Some(name(node)?);
        }
        Some(out)
    }
}

/// Karpenter could not fit a pending Pod on any NodePool: `Failed to schedule pod, %s`, the error
/// being one clause per NodePool (or per cause) joined by `; ` (go.uber.org/multierr).
///
/// Formats (kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/scheduler.go,
/// nodeclaim.go, events.go): v0.3x–v1.4 clauses are
/// `incompatible with nodepool %q, daemonset overhead=%s, %s` (`provisioner` before v0.32; the
/// overhead is the JSON of `resources.String`), or `all available instance types exceed limits for
/// nodepool: %q`; since v1.1–v1.5 the causes are structured errors whose values print as a
/// ` (key=value, ...)` suffix, e.g. `all available instance types exceed limits for nodepool
/// (NodePool=gpu)` or `did not tolerate taint (taint=gpu=true:NoSchedule)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterFailedScheduling {
    /// One entry per clause, in note order.
    pub incompatibilities: Vec<KarpenterIncompatibility>,
}

/// Why Karpenter's simulation rejected a NodePool (one clause of [`KarpenterFailedScheduling`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterIncompatibility {
    /// The NodePool (Provisioner before v0.32): from `incompatible with nodepool %q`, from the
    /// older `exceed limits for nodepool: %q`, or from the structured `NodePool=` value.
    pub node_pool: Option<String>,
    /// `daemonset overhead=` of the v0.3x–v1.4 form: resources the NodePool's DaemonSets take on
    /// every new node, resource name → quantity (cores for `cpu`, bytes for `memory` and
    /// `ephemeral-storage`, a count for `pods` and device resources such as `nvidia.com/gpu`).
    pub daemonset_overhead: Option<BTreeMap<String, Quantity>>,
    /// The cause, classified from the error sentence.
    pub cause: KarpenterCause,
    /// The error sentence, without its structured values (`no instance type has enough
    /// resources`, `incompatible requirements`, `did not tolerate taint`, ...).
    pub reason: String,
    /// For `incompatible requirements, %s`: the requirement error after the comma (e.g.
    /// `label "x" does not have known values`).
    pub detail: Option<String>,
    /// The taint the Pod does not tolerate, `key=value:Effect`.
    pub taint: Option<String>,
    /// The node requirements Karpenter tried (`requirements=`), in note order.
    pub requirements: Vec<KarpenterRequirement>,
    /// The resources requested on the new node (`resources=`, Pod plus DaemonSets), resource name
    /// → quantity (cores for `cpu`, bytes for `memory` and `ephemeral-storage`, a count for
    /// `pods` and device resources).
    pub resources: Option<BTreeMap<String, Quantity>>,
    /// Other structured values (`key=value`) as written.
    pub values: BTreeMap<String, String>,
}

/// The class of a [`KarpenterIncompatibility`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum KarpenterCause {
    /// `all available instance types exceed limits for nodepool`: the NodePool's `limits` are used up.
    LimitsExceeded,
    /// `node limits have been exhausted for nodepool`: the NodePool's node-count limit is reached.
    NodeLimitsExhausted,
    /// `incompatible requirements, ...`: the Pod's node selector or affinity cannot be met.
    IncompatibleRequirements,
    /// `did not tolerate ...`: the NodePool taints the node and the Pod lacks the toleration.
    UntoleratedTaint,
    /// `no instance type ...`: no instance type meets the requirements, resources and offerings.
    NoInstanceType,
    /// `checking host port usage, ...`: a host port conflict.
    HostPortConflict,
    /// Any other error (topology spread, volumes, DRA, ...); the text is in `reason`.
    Other,
}

/// One node requirement as Karpenter prints it (kubernetes-sigs/karpenter pkg/scheduling/
/// requirement.go `Requirement.String`, v1.14.0):
/// `key Operator [v1 v2]` with optional `>N`, `<N`, `minValues N`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterRequirement {
    /// The label key, e.g. `karpenter.sh/capacity-type`.
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt` (empty when the text has none).
    pub operator: String,
    /// The values inside `[...]`, in order (at most five are printed).
    pub values: Vec<String>,
    /// `and N others`: values not printed.
    pub more_values: Option<u32>,
    /// `>N`: the value must be greater than N.
    pub greater_than: Option<i64>,
    /// `<N`: the value must be less than N.
    pub less_than: Option<i64>,
    /// `minValues N`: at least N distinct values are required.
    pub min_values: Option<u32>,
}

impl KarpenterRequirement {
    /// Parse one requirement; never fails (unknown tails are ignored).
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        let (key, rest) = text.split_once(' ').unwrap_or((text, ""));
        let (operator, mut rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let mut requirement = KarpenterRequirement {
            key: key.to_owned(),
            operator: operator.to_owned(),
            values: Vec::new(),
            more_values: None,
            greater_than: None,
            less_than: None,
            min_values: None,
        };
        if rest.starts_with('[')
            && let Some(end) = closing_bracket(rest)
        {
            let inner = rest.get(1..end - 1).unwrap_or("");
            let (values, more) = match inner.rsplit_once(" and ") {
                Some((values, tail)) => match tail.strip_suffix(" others").and_then(|n| n.parse().ok()) {
                    Some(n) => (values, Some(n)),
                    None => (inner, None),
                },
                None => (inner, None),
            };
            requirement.values = values.split_whitespace().map(str::to_owned).collect();
            requirement.more_values = more;
            rest = rest.get(end..).unwrap_or("");
        }
        let mut tokens = rest.split_whitespace();
        while let Some(token) = tokens.next() {
            if let Some(n) = token.strip_prefix('>') {
                requirement.greater_than = n.parse().ok();
            } else if let Some(n) = token.strip_prefix('<') {
                requirement.less_than = n.parse().ok();
            } else if token == "minValues" {
                requirement.min_values = tokens.next().and_then(|n| n.parse().ok());
            }
        }
        requirement
    }

    /// Parse `Requirements.String`: requirements joined by `, `.
    pub fn parse_list(text: &str) -> Vec<Self> {
        split_top_level(text, ", ").filter(|item| !item.trim().is_empty()).map(Self::parse).collect()
    }
}

impl KarpenterFailedScheduling {
    /// Parse `Failed to schedule pod, %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let body = note.strip_prefix("Failed to schedule pod, ")?;
        if body.trim().is_empty() {
            return None;
        }
        Some(KarpenterFailedScheduling {
            incompatibilities: split_top_level(body, "; ")
                .filter(|clause| !clause.is_empty())
                .map(KarpenterIncompatibility::parse)
                .collect(),
        })
    }
}

impl KarpenterIncompatibility {
    /// Parse one clause of a Karpenter scheduling error; never fails (unknown errors are
    /// [`KarpenterCause::Other`]).
    pub fn parse(clause: &str) -> Self {
        let mut node_pool = None;
        let mut daemonset_overhead = None;
        let mut error = clause;
        let owner = clause
            .strip_prefix("incompatible with nodepool ")
            .or_else(|| clause.strip_prefix("incompatible with provisioner "));
        if let Some((name, after)) = owner.and_then(quoted_prefix) {
            node_pool = Some(name);
            error = after.strip_prefix(", ").unwrap_or(after);
            if let Some(overhead) = after.strip_prefix(", daemonset overhead=")
                && let Some(end) = closing_bracket(overhead)
                && let (Some(json), Some(rest)) = (overhead.get(..end), overhead.get(end..))
            {
                daemonset_overhead = quantity_map(json);
                error = rest.strip_prefix(", ").unwrap_or(rest);
            }
        }
        let mut out = KarpenterIncompatibility {
            node_pool,
            daemonset_overhead,
            cause: KarpenterCause::Other,
            reason: String::new(),
            detail: None,
            taint: None,
            requirements: Vec::new(),
            resources: None,
            values: BTreeMap::new(),
        };
        out.read_error(error);
        out
    }

    /// Classify the error text and pull out its structured values.
    fn read_error(&mut self, error: &str) {
        let (sentence, values) = split_values(error);
        for (key, value) in values.into_iter().flat_map(key_values) {
            match key {
                "requirements" => self.requirements = KarpenterRequirement::parse_list(value),
                "resources" => self.resources = quantity_map(value),
                "NodePool" if self.node_pool.is_none() => {
                    self.node_pool = Some(unquote_or_keep(value));
                }
                "taint" => self.taint = Some(value.to_owned()),
                _ => {
                    self.values.insert(key.to_owned(), value.to_owned());
                }
            }
        }
        let mut reason = sentence;
        if let Some(rest) = sentence.strip_prefix("all available instance types exceed limits for ") {
            self.cause = KarpenterCause::LimitsExceeded;
            // v0.3x–v1.0: `... for nodepool: "name"` / `... for provisioner: "name"`.
            for owner in ["nodepool", "provisioner"] {
                if let Some(name) = rest.strip_prefix(owner) {
                    let name = name.strip_prefix(':').unwrap_or(name).trim_start();
                    if let Some((name, "")) = quoted_prefix(name) {
                        self.node_pool.get_or_insert(name);
                        reason = sentence.get(..sentence.len() - rest.len() + owner.len()).unwrap_or(sentence);
                    }
                }
            }
        } else if sentence.starts_with("node limits have been exhausted for ") {
            self.cause = KarpenterCause::NodeLimitsExhausted;
        } else if let Some(detail) = sentence.strip_prefix("incompatible requirements") {
            self.cause = KarpenterCause::IncompatibleRequirements;
            reason = "incompatible requirements";
            let detail = detail.strip_prefix(", ").unwrap_or(detail).trim();
            self.detail = (!detail.is_empty()).then(|| detail.to_owned());
        } else if let Some(rest) = sentence.strip_prefix("did not tolerate") {
            self.cause = KarpenterCause::UntoleratedTaint;
            let rest = rest.trim_start();
            if rest != "taint" && !rest.is_empty() {
                // v0.3x–v1.4: `did not tolerate key=value:Effect`.
                self.taint.get_or_insert_with(|| rest.to_owned());
                reason = "did not tolerate";
            }
        } else if let Some(rest) = sentence.strip_prefix("no instance type satisfied resources ") {
            // v0.2x–v0.3x: `no instance type satisfied resources %s and requirements %s (%s)`.
            self.cause = KarpenterCause::NoInstanceType;
            if let Some(end) = closing_bracket(rest)
                && let (Some(json), Some(after)) = (rest.get(..end), rest.get(end..))
            {
                self.resources = quantity_map(json);
                if let Some(after) = after.strip_prefix(" and requirements ") {
                    let (requirements, why) = match after.strip_suffix(')').and_then(|a| a.split_once(" (")) {
                        Some((requirements, why)) => (requirements, Some(why)),
                        None => (after, None),
                    };
                    self.requirements = KarpenterRequirement::parse_list(requirements);
                    if let Some(why) = why {
                        reason = why;
                    }
                }
            }
        } else if sentence.starts_with("no instance type") {
            self.cause = KarpenterCause::NoInstanceType;
        } else if sentence.starts_with("checking host port usage") {
            self.cause = KarpenterCause::HostPortConflict;
        }
        self.reason = reason.to_owned();
    }
}

/// Split an error into its sentence and the text of its structured values: the ` (k=v, ...)`
/// suffix, or the v1.0–v1.4 `, requirements=..., resources=...` tail.
fn split_values(error: &str) -> (&str, Option<&str>) {
    if let Some((sentence, values)) = structured_suffix(error) {
        return (sentence, Some(values));
    }
    let mut parts =
        split_top_level_where(error, ", ", |rest| rest.starts_with("requirements=") || rest.starts_with("resources="));
    let sentence = parts.next().unwrap_or(error);
    match error.get(sentence.len()..).and_then(|tail| tail.strip_prefix(", ")) {
        Some(values) if !values.is_empty() => (sentence, Some(values)),
        _ => (error, None),
    }
}

/// Karpenter may not disrupt this node, NodeClaim or NodePool now (kubernetes-sigs/karpenter
/// pkg/controllers/disruption/events/events.go, pkg/controllers/state/statenode.go,
/// pkg/utils/pod/scheduling.go; v1.14.0).
///
/// Formats: ≤v1.1 `Cannot disrupt Node: %s` / `Cannot disrupt NodeClaim: %s`; ≥v1.2 the blocking
/// error with its first letter upper-cased (`Node is nominated for a pending pod`,
/// v1.2–v1.4 `Pdb %q prevents pod evictions`, ≥v1.5 `Pdb prevents pod evictions
/// (PodDisruptionBudget=[ns/name])`); NodePool: `No allowed disruptions due to blocking budget`,
/// `No allowed disruptions for disruption reason %s due to blocking budget`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DisruptionBlocked {
    /// `Node` or `NodeClaim` in the ≤v1.1 `Cannot disrupt <kind>: ` form.
    pub object_kind: Option<String>,
    /// The blocking cause, classified from the sentence.
    pub cause: DisruptionBlockedCause,
    /// The blocking sentence without its structured values and quoted object names.
    pub reason: String,
    /// For a budget block on one disruption reason: that reason (`Underutilized`, `Drifted`, ...).
    pub disruption_reason: Option<String>,
    /// The Pod (`namespace/name`) with the do-not-disrupt annotation or the PDB.
    pub pod: Option<String>,
    /// The PodDisruptionBudgets (`namespace/name`) preventing evictions.
    pub pdbs: Vec<String>,
    /// The NodePool named in the values (`NodePool=`).
    pub node_pool: Option<String>,
    /// Other structured values (`key=value`) as written.
    pub values: BTreeMap<String, String>,
}

/// The class of a [`DisruptionBlocked`] note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum DisruptionBlockedCause {
    /// The NodePool's disruption budget allows no disruption now.
    Budget,
    /// A PodDisruptionBudget prevents evicting a Pod.
    Pdb,
    /// A Pod uses more than one PDB, which the eviction API rejects.
    MultiplePdbs,
    /// A Pod or the node carries `karpenter.sh/do-not-disrupt`.
    DoNotDisrupt,
    /// The node is not initialized yet.
    NotInitialized,
    /// The node is being deleted.
    Deleting,
    /// The node is nominated for a pending Pod.
    Nominated,
    /// The node lacks a label Karpenter requires.
    MissingLabel,
    /// The node's NodePool does not exist.
    NodePoolNotFound,
    /// Another sentence (e.g. a scheduling error while simulating drift); see `reason`.
    Other,
}

/// Whether `text` starts with `prefix`, ignoring ASCII case.
fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.as_bytes().get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// The text of `text` after `prefix` (ASCII case ignored).
fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    if starts_with_ignore_case(text, prefix) { text.get(prefix.len()..) } else { None }
}

impl DisruptionBlocked {
    /// Parse a `DisruptionBlocked` note; any non-empty sentence is accepted.
    pub fn parse(note: &str) -> Option<Self> {
        if note.trim().is_empty() {
            return None;
        }
        let mut out = DisruptionBlocked {
            object_kind: None,
            cause: DisruptionBlockedCause::Other,
            reason: String::new(),
            disruption_reason: None,
            pod: None,
            pdbs: Vec::new(),
            node_pool: None,
            values: BTreeMap::new(),
        };
        if let Some([reason]) = captures("No allowed disruptions for disruption reason %s due to blocking budget", note)
        {
            out.cause = DisruptionBlockedCause::Budget;
            out.disruption_reason = Some(reason.to_owned());
            out.reason = "No allowed disruptions due to blocking budget".to_owned();
            return Some(out);
        }
        let mut sentence = note;
        for kind in ["Node", "NodeClaim"] {
            if let Some(rest) = note
                .strip_prefix("Cannot disrupt ")
                .and_then(|r| r.strip_prefix(kind))
                .and_then(|r| r.strip_prefix(": "))
            {
                out.object_kind = Some(kind.to_owned());
                sentence = rest;
            }
        }
        let (sentence, values) = match structured_suffix(sentence) {
            Some((sentence, values)) => (sentence, Some(values)),
            None => (sentence, None),
        };
        for (key, value) in values.into_iter().flat_map(key_values) {
            match key {
                "Pod" => out.pod = Some(value.to_owned()),
                "PodDisruptionBudget" | "PodDisruptionBudgets" => {
                    let list = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')).unwrap_or(value);
                    out.pdbs.extend(list.split([' ', ',']).filter(|p| !p.is_empty()).map(str::to_owned));
                }
                "NodePool" => out.node_pool = Some(value.to_owned()),
                _ => {
                    out.values.insert(key.to_owned(), value.to_owned());
                }
            }
        }
        let mut reason = sentence.to_owned();
        if starts_with_ignore_case(sentence, "No allowed disruptions") {
            out.cause = DisruptionBlockedCause::Budget;
        } else if let Some(rest) = strip_prefix_ignore_case(sentence, "pdb ") {
            out.cause = DisruptionBlockedCause::Pdb;
            // v1.0–v1.4: `pdb "ns/name" prevents pod evictions`.
            if let Some((pdb, after)) = quoted_prefix(rest) {
                out.pdbs.push(pdb);
                reason = format!("{}{}", sentence.get(..3).unwrap_or("Pdb"), after);
            }
        } else if let Some(rest) = strip_prefix_ignore_case(sentence, "pod ") {
            if rest.contains("do-not-disrupt") {
                out.cause = DisruptionBlockedCause::DoNotDisrupt;
            }
            // v1.0–v1.4: `pod "ns/name" has "karpenter.sh/do-not-disrupt" annotation`.
            if let Some((pod, after)) = quoted_prefix(rest) {
                out.pod.get_or_insert(pod);
                reason = format!("{}{}", sentence.get(..3).unwrap_or("Pod"), after);
            }
        } else if sentence.contains("do-not-disrupt") {
            out.cause = DisruptionBlockedCause::DoNotDisrupt;
        } else if starts_with_ignore_case(sentence, "eviction does not support multiple") {
            out.cause = DisruptionBlockedCause::MultiplePdbs;
        } else if starts_with_ignore_case(sentence, "node isn't initialized")
            || starts_with_ignore_case(sentence, "node is not initialized")
        {
            out.cause = DisruptionBlockedCause::NotInitialized;
        } else if starts_with_ignore_case(sentence, "node is deleting") {
            out.cause = DisruptionBlockedCause::Deleting;
        } else if starts_with_ignore_case(sentence, "node is nominated") {
            out.cause = DisruptionBlockedCause::Nominated;
        } else if starts_with_ignore_case(sentence, "node doesn't have required label") {
            out.cause = DisruptionBlockedCause::MissingLabel;
        } else if starts_with_ignore_case(sentence, "nodepool not found") {
            out.cause = DisruptionBlockedCause::NodePoolNotFound;
        }
        out.reason = reason;
        Some(out)
    }
}

/// A NodeClaim lifecycle error: `NodeClaim %s event: %s` (kubernetes-sigs/karpenter
/// pkg/controllers/nodeclaim/lifecycle/events.go, v1.14.0), recorded as
/// `InsufficientCapacityError` (the cloud provider had no capacity for the chosen offerings) and
/// `NodeClassNotReady`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeClaimEvent {
    /// The NodeClaim name.
    pub node_claim: String,
    /// The error as written (cloud provider text, e.g. an insufficient-capacity error for a GPU
    /// instance type).
    pub message: String,
}

impl NodeClaimEvent {
    /// Parse `NodeClaim %s event: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let [claim, message] = captures("NodeClaim %s event: %s", note)?;
        (!claim.is_empty() && !claim.contains(' '))
            .then(|| NodeClaimEvent { node_claim: claim.to_owned(), message: message.to_owned() })
    }
}

/// A disruption step: `Launching NodeClaim: %s` (`DisruptionLaunching`), `Disrupting Node: %s` /
/// `Disrupting NodeClaim: %s` (`DisruptionTerminating`) (kubernetes-sigs/karpenter
/// pkg/controllers/disruption/events/events.go, v1.14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterDisruption {
    /// What Karpenter does.
    pub action: DisruptionAction,
    /// The object the step acts on: `NodeClaim` for launching, `Node` or `NodeClaim` for
    /// terminating.
    pub object_kind: String,
    /// The disruption reason, Title-cased (`Underutilized`, `Empty`, `Drifted`, ...).
    pub reason: String,
}

/// The step of a [`KarpenterDisruption`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum DisruptionAction {
    /// A replacement NodeClaim is being launched.
    Launching,
    /// The node or NodeClaim is being terminated.
    Terminating,
}

impl KarpenterDisruption {
    /// Parse `Launching NodeClaim: %s` or `Disrupting Node: %s` / `Disrupting NodeClaim: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let (action, kind, reason) = if let Some(reason) = note.strip_prefix("Launching NodeClaim: ") {
            (DisruptionAction::Launching, "NodeClaim", reason)
        } else if let Some(reason) = note.strip_prefix("Disrupting Node: ") {
            (DisruptionAction::Terminating, "Node", reason)
        } else {
            let reason = note.strip_prefix("Disrupting NodeClaim: ")?;
            (DisruptionAction::Terminating, "NodeClaim", reason)
        };
        (!reason.is_empty()).then(|| KarpenterDisruption {
            action,
            object_kind: kind.to_owned(),
            reason: reason.to_owned(),
        })
    }
}

/// Karpenter evicted the Pod while draining a node: `Evicted pod: %s` (kubernetes-sigs/karpenter
/// pkg/controllers/node/termination/terminator/events/events.go, v1.14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterEvicted {
    /// Why the Pod was evicted, as written (e.g. the disruption reason).
    pub reason: String,
}

impl KarpenterEvicted {
    /// Parse `Evicted pod: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let reason = note.strip_prefix("Evicted pod: ")?;
        (!reason.is_empty()).then(|| KarpenterEvicted { reason: reason.to_owned() })
    }
}

/// Karpenter could not drain a node it terminates: `Failed to drain node, %s`, older
/// `Failed to drain node, %d pods are waiting to be evicted` (kubernetes-sigs/karpenter
/// pkg/controllers/node/termination/terminator/events/events.go, v1.14.0 and v0.3x).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KarpenterFailedDraining {
    /// The drain error as written (e.g. `evicting pod violates a PDB`), absent for the count form.
    pub error: Option<String>,
    /// The number of Pods still waiting to be evicted (older form).
    pub waiting_pods: Option<u32>,
}

impl KarpenterFailedDraining {
    /// Parse `Failed to drain node, %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.strip_prefix("Failed to drain node, ")?;
        if rest.is_empty() {
            return None;
        }
        if let Some([count]) = captures("%d pods are waiting to be evicted", rest)
            && let Ok(count) = count.parse()
        {
            return Some(KarpenterFailedDraining { error: None, waiting_pods: Some(count) });
        }
        Some(KarpenterFailedDraining { error: Some(rest.to_owned()), waiting_pods: None })
    }
}

/// A drained node waits for its VolumeAttachments: `Awaiting deletion of bound volumeattachments
/// (%s)`, the names printed by `pretty.Slice` (at most five, then ` and N other(s)`)
/// (kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events/events.go,
/// v1.14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AwaitingVolumeDetachment {
    /// The VolumeAttachment names printed.
    pub volume_attachments: Vec<String>,
    /// How many more were not printed (` and N other(s)`).
    pub others: Option<u32>,
}

impl AwaitingVolumeDetachment {
    /// Parse `Awaiting deletion of bound volumeattachments (%s)`.
    pub fn parse(note: &str) -> Option<Self> {
        let list = note.strip_prefix("Awaiting deletion of bound volumeattachments (")?.strip_suffix(')')?;
        let (volume_attachments, others) = pretty_slice(list);
        Some(AwaitingVolumeDetachment { volume_attachments, others })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::Note;
    use crate::details::ecosystem::{KARPENTER_EVICTED, KARPENTER_FAILED_SCHEDULING};

    const CASE_013: &str = r#"Failed to schedule pod, incompatible with nodepool "spot-pool", daemonset overhead={"cpu":"1566m","memory":"930Mi","pods":"11"}, no instance type has enough resources, requirements=eks.amazonaws.com/instance-category In [c m t], eks.amazonaws.com/nodeclass In [spot-default], karpenter.sh/capacity-type In [spot], karpenter.sh/nodepool In [spot-pool], kubernetes.io/arch In [amd64], resources={"cpu":"1566m","memory":"930Mi","nvidia.com/gpu":"1","pods":"12"}; all available instance types exceed limits for nodepool (NodePool=gpu-nodepool)"#;

    #[test]
    fn nominated_with_and_without_node() {
        let d = Nominated::parse("Pod should schedule on: nodeclaim/gpu-ljvhl").unwrap();
        assert_eq!((d.node_claim.as_deref(), d.machine, d.node), (Some("gpu-ljvhl"), None, None));
        let d = Nominated::parse("Pod should schedule on: nodeclaim/gpu-ljvhl, node/node-a").unwrap();
        assert_eq!((d.node_claim.as_deref(), d.node.as_deref()), (Some("gpu-ljvhl"), Some("node-a")));
        assert_eq!(Nominated::parse("Pod should schedule on: nodeclaim/"), None);
        assert_eq!(Nominated::parse("Pod should schedule on: nodeclaim/a, node/"), None);
        assert_eq!(Nominated::parse("Pod should schedule on: "), None);
        assert_eq!(Nominated::parse("Pod should schedule on: node/"), None);
        assert_eq!(Nominated::parse("Pod should schedule on: pod/a"), None);
    }

    #[test]
    fn nominated_existing_node_and_machine() {
        // NominatePodEvent with a nil NodeClaim: only the Node.
        let d = Nominated::parse("Pod should schedule on: node/ip-10-0-1-5.us-west-2.compute.internal").unwrap();
        assert_eq!(d.node_claim, None);
        assert_eq!(d.machine, None);
        assert_eq!(d.node.as_deref(), Some("ip-10-0-1-5.us-west-2.compute.internal"));
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["nodeClaim"], serde_json::Value::Null);
        assert_eq!(json["node"], "ip-10-0-1-5.us-west-2.compute.internal");
        // Pre-v0.32 Machine API.
        let d = Nominated::parse("Pod should schedule on: machine/default-8m2xk, node/ip-10-0-1-5").unwrap();
        assert_eq!(
            (d.node_claim, d.machine.as_deref(), d.node.as_deref()),
            (None, Some("default-8m2xk"), Some("ip-10-0-1-5"))
        );
        let d = Nominated::parse("Pod should schedule on: machine/default-8m2xk").unwrap();
        assert_eq!((d.machine.as_deref(), d.node), (Some("default-8m2xk"), None));
        assert_eq!(Nominated::parse("Pod should schedule on: machine/, node/n"), None);
    }

    #[test]
    fn failed_scheduling_nodepool_clause_and_structured_clause() {
        let d = KarpenterFailedScheduling::parse(CASE_013).unwrap();
        assert_eq!(d.incompatibilities.len(), 2);
        let first = &d.incompatibilities[0];
        assert_eq!(first.node_pool.as_deref(), Some("spot-pool"));
        assert_eq!(first.cause, KarpenterCause::NoInstanceType);
        assert_eq!(first.reason, "no instance type has enough resources");
        let overhead = first.daemonset_overhead.as_ref().unwrap();
        assert_eq!(overhead["cpu"].quantity, "1566m");
        assert_eq!(overhead["memory"].quantity, "930Mi");
        assert_eq!(overhead["pods"].value, Some(11.0));
        assert_eq!(first.requirements.len(), 5);
        assert_eq!(first.requirements[0].key, "eks.amazonaws.com/instance-category");
        assert_eq!(first.requirements[0].operator, "In");
        assert_eq!(first.requirements[0].values, ["c", "m", "t"]);
        assert_eq!(first.requirements[4].values, ["amd64"]);
        let resources = first.resources.as_ref().unwrap();
        assert_eq!(resources["nvidia.com/gpu"].value, Some(1.0));
        assert_eq!(resources["pods"].quantity, "12");
        let second = &d.incompatibilities[1];
        assert_eq!(second.cause, KarpenterCause::LimitsExceeded);
        assert_eq!(second.node_pool.as_deref(), Some("gpu-nodepool"));
        assert_eq!(second.reason, "all available instance types exceed limits for nodepool");
        assert!(second.daemonset_overhead.is_none());
    }

    #[test]
    fn failed_scheduling_historical_clauses() {
        let note = r#"Failed to schedule pod, incompatible with nodepool "system", daemonset overhead={"cpu":"821m","memory":"1350Mi","pods":"10"}, incompatible requirements, label "nvidia.com/device-plugin.config" does not have known values; incompatible with nodepool "runner-arm", daemonset overhead={}, did not tolerate workload-type=ci-runner:NoSchedule; all available instance types exceed limits for nodepool: "graviton""#;
        let d = KarpenterFailedScheduling::parse(note).unwrap();
        let [system, runner, graviton] = &d.incompatibilities[..] else { panic!("{d:?}") };
        assert_eq!(system.cause, KarpenterCause::IncompatibleRequirements);
        assert_eq!(
            system.detail.as_deref(),
            Some(r#"label "nvidia.com/device-plugin.config" does not have known values"#)
        );
        assert_eq!(runner.node_pool.as_deref(), Some("runner-arm"));
        assert_eq!(runner.daemonset_overhead.as_ref().map(BTreeMap::len), Some(0));
        assert_eq!(runner.cause, KarpenterCause::UntoleratedTaint);
        assert_eq!(runner.taint.as_deref(), Some("workload-type=ci-runner:NoSchedule"));
        assert_eq!(graviton.cause, KarpenterCause::LimitsExceeded);
        assert_eq!(graviton.node_pool.as_deref(), Some("graviton"));
        assert_eq!(graviton.reason, "all available instance types exceed limits for nodepool");

        // v0.3x provisioner form with the old resources/requirements sentence.
        let note = r#"Failed to schedule pod, incompatible with provisioner "monitoring", daemonset overhead={"cpu":"655m","memory":"628000Ki","pods":"7"}, no instance type satisfied resources {"cpu":"2655m","memory":"21599520Ki","pods":"8"} and requirements karpenter.k8s.aws/instance-category In [c m r], karpenter.k8s.aws/instance-generation Exists >2, karpenter.sh/capacity-type In [on-demand spot] (no instance type met the scheduling requirements or had a required offering)"#;
        let d = KarpenterFailedScheduling::parse(note).unwrap();
        let clause = &d.incompatibilities[0];
        assert_eq!(clause.node_pool.as_deref(), Some("monitoring"));
        assert_eq!(clause.cause, KarpenterCause::NoInstanceType);
        assert_eq!(clause.reason, "no instance type met the scheduling requirements or had a required offering");
        assert_eq!(clause.resources.as_ref().unwrap()["cpu"].quantity, "2655m");
        assert_eq!(clause.requirements[1].operator, "Exists");
        assert_eq!(clause.requirements[1].greater_than, Some(2));
        assert_eq!(clause.requirements[2].values, ["on-demand", "spot"]);
    }

    #[test]
    fn failed_scheduling_v1_5_structured_errors() {
        let note = r#"Failed to schedule pod, did not tolerate taint (taint=CriticalAddonsOnly:NoSchedule); incompatible requirements, label "NodeGroupType" does not have known values; node limits have been exhausted for nodepool (NodePool=gpu); no instance type met the scheduling requirements or had a required offering, requirements=coder In [workspace], karpenter.k8s.aws/instance-cpu Exists >4, topology.kubernetes.io/zone DoesNotExist, karpenter.sh/capacity-type In [a b c d e and 2 others] minValues 3, resources={"cpu":"4180m","memory":"6264Mi","pods":"7"}"#;
        let d = KarpenterFailedScheduling::parse(note).unwrap();
        let [taint, reqs, nodes, none] = &d.incompatibilities[..] else { panic!("{d:?}") };
        assert_eq!(taint.cause, KarpenterCause::UntoleratedTaint);
        assert_eq!(taint.reason, "did not tolerate taint");
        assert_eq!(taint.taint.as_deref(), Some("CriticalAddonsOnly:NoSchedule"));
        assert_eq!(taint.node_pool, None);
        assert_eq!(reqs.cause, KarpenterCause::IncompatibleRequirements);
        assert_eq!(nodes.cause, KarpenterCause::NodeLimitsExhausted);
        assert_eq!(nodes.node_pool.as_deref(), Some("gpu"));
        assert_eq!(none.cause, KarpenterCause::NoInstanceType);
        assert_eq!(none.reason, "no instance type met the scheduling requirements or had a required offering");
        let zone = &none.requirements[2];
        assert_eq!((zone.key.as_str(), zone.operator.as_str()), ("topology.kubernetes.io/zone", "DoesNotExist"));
        let capacity = &none.requirements[3];
        assert_eq!(capacity.values, ["a", "b", "c", "d", "e"]);
        assert_eq!(capacity.more_values, Some(2));
        assert_eq!(capacity.min_values, Some(3));
        assert_eq!(none.resources.as_ref().unwrap()["memory"].quantity, "6264Mi");

        // Parenthesised values and unknown keys are kept.
        let d = KarpenterFailedScheduling::parse(
            "Failed to schedule pod, pod has Dynamic Resource Allocation requirements that are not yet supported by Karpenter",
        )
        .unwrap();
        assert_eq!(d.incompatibilities[0].cause, KarpenterCause::Other);
        let clause = KarpenterIncompatibility::parse("something odd (Foo=bar, Baz=[a b])");
        assert_eq!(clause.values["Foo"], "bar");
        assert_eq!(clause.values["Baz"], "[a b]");
        assert_eq!(clause.reason, "something odd");
    }

    #[test]
    fn failed_scheduling_near_misses() {
        assert_eq!(KarpenterFailedScheduling::parse("Failed to schedule pod, "), None);
        assert_eq!(KarpenterFailedScheduling::parse("0/3 nodes are available: 3 Insufficient nvidia.com/gpu."), None);
        // A broken overhead object keeps the rest as the error.
        let d = KarpenterFailedScheduling::parse(
            r#"Failed to schedule pod, incompatible with nodepool "a", daemonset overhead={"cpu":"1"#,
        )
        .unwrap();
        assert_eq!(d.incompatibilities[0].node_pool.as_deref(), Some("a"));
        assert!(d.incompatibilities[0].daemonset_overhead.is_none());
    }

    #[test]
    fn disruption_blocked_forms() {
        let d = DisruptionBlocked::parse(
            "No allowed disruptions for disruption reason Underutilized due to blocking budget",
        )
        .unwrap();
        assert_eq!(d.cause, DisruptionBlockedCause::Budget);
        assert_eq!(d.disruption_reason.as_deref(), Some("Underutilized"));
        let d = DisruptionBlocked::parse("No allowed disruptions due to blocking budget").unwrap();
        assert_eq!((d.cause, d.disruption_reason), (DisruptionBlockedCause::Budget, None));

        let d = DisruptionBlocked::parse(
            "Pdb prevents pod evictions (PodDisruptionBudget=[kube-system/ebs-csi-controller])",
        )
        .unwrap();
        assert_eq!(d.cause, DisruptionBlockedCause::Pdb);
        assert_eq!(d.pdbs, ["kube-system/ebs-csi-controller"]);
        assert_eq!(d.reason, "Pdb prevents pod evictions");
        let d =
            DisruptionBlocked::parse("Pdb prevents pod evictions (PodDisruptionBudget=kube-system/coredns)").unwrap();
        assert_eq!(d.pdbs, ["kube-system/coredns"]);
        let d = DisruptionBlocked::parse(r#"Pdb "default/inflate-pdb" prevents pod evictions"#).unwrap();
        assert_eq!(
            (d.cause, d.pdbs.as_slice()),
            (DisruptionBlockedCause::Pdb, &["default/inflate-pdb".to_owned()][..])
        );
        assert_eq!(d.reason, "Pdb prevents pod evictions");

        let d = DisruptionBlocked::parse(
            r#"Cannot disrupt Node: pod "ml/train-0" has "karpenter.sh/do-not-disrupt" annotation"#,
        )
        .unwrap();
        assert_eq!(d.object_kind.as_deref(), Some("Node"));
        assert_eq!(d.cause, DisruptionBlockedCause::DoNotDisrupt);
        assert_eq!(d.pod.as_deref(), Some("ml/train-0"));
        assert_eq!(d.reason, r#"pod has "karpenter.sh/do-not-disrupt" annotation"#);
        let d =
            DisruptionBlocked::parse(r#"Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=ml/train-0)"#).unwrap();
        assert_eq!((d.cause, d.pod.as_deref()), (DisruptionBlockedCause::DoNotDisrupt, Some("ml/train-0")));
        let d = DisruptionBlocked::parse("Cannot disrupt NodeClaim: node isn't initialized").unwrap();
        assert_eq!(d.object_kind.as_deref(), Some("NodeClaim"));
        assert_eq!(d.cause, DisruptionBlockedCause::NotInitialized);
        for (note, cause) in [
            ("Node is deleting or marked for deletion", DisruptionBlockedCause::Deleting),
            ("Node is nominated for a pending pod", DisruptionBlockedCause::Nominated),
            (
                r#"Disruption is blocked through the "karpenter.sh/do-not-disrupt" annotation"#,
                DisruptionBlockedCause::DoNotDisrupt,
            ),
            ("Node doesn't have required label (label=karpenter.sh/nodepool)", DisruptionBlockedCause::MissingLabel),
            ("Eviction does not support multiple PDBs", DisruptionBlockedCause::MultiplePdbs),
            ("Something new", DisruptionBlockedCause::Other),
        ] {
            assert_eq!(DisruptionBlocked::parse(note).unwrap().cause, cause, "{note}");
        }
        let d = DisruptionBlocked::parse("NodePool not found (NodePool=gpu)").unwrap();
        assert_eq!((d.cause, d.node_pool.as_deref()), (DisruptionBlockedCause::NodePoolNotFound, Some("gpu")));
        assert_eq!(DisruptionBlocked::parse(""), None);
    }

    #[test]
    fn node_claim_events_and_disruption_steps() {
        let d = NodeClaimEvent::parse(
            "NodeClaim gpu-x7k2p event: creating instance, insufficient capacity, all requested instance types were unavailable during launch",
        )
        .unwrap();
        assert_eq!(d.node_claim, "gpu-x7k2p");
        assert!(d.message.starts_with("creating instance, insufficient capacity"));
        assert_eq!(NodeClaimEvent::parse("NodeClaim event: x"), None);

        let d = KarpenterDisruption::parse("Launching NodeClaim: Underutilized").unwrap();
        assert_eq!(
            (d.action, d.object_kind.as_str(), d.reason.as_str()),
            (DisruptionAction::Launching, "NodeClaim", "Underutilized")
        );
        let d = KarpenterDisruption::parse("Disrupting Node: Drifted").unwrap();
        assert_eq!((d.action, d.object_kind.as_str()), (DisruptionAction::Terminating, "Node"));
        let d = KarpenterDisruption::parse("Disrupting NodeClaim: Empty").unwrap();
        assert_eq!(d.object_kind, "NodeClaim");
        assert_eq!(KarpenterDisruption::parse("Disrupting Node: "), None);
        assert_eq!(KarpenterDisruption::parse("Launching node"), None);
    }

    #[test]
    fn evicted_draining_and_volume_attachments() {
        assert_eq!(KarpenterEvicted::parse("Evicted pod: Underutilized").unwrap().reason, "Underutilized");
        assert_eq!(KarpenterEvicted::parse("Evicted pod"), None);

        let d = KarpenterFailedDraining::parse("Failed to drain node, 3 pods are waiting to be evicted").unwrap();
        assert_eq!((d.error, d.waiting_pods), (None, Some(3)));
        let d = KarpenterFailedDraining::parse("Failed to drain node, evicting pod violates a PDB").unwrap();
        assert_eq!(d.error.as_deref(), Some("evicting pod violates a PDB"));
        assert_eq!(KarpenterFailedDraining::parse("Failed to drain the node, x"), None);

        let d = AwaitingVolumeDetachment::parse(
            "Awaiting deletion of bound volumeattachments (csi-1, csi-2, csi-3, csi-4, csi-5 and 2 other(s))",
        )
        .unwrap();
        assert_eq!(d.volume_attachments.len(), 5);
        assert_eq!(d.volume_attachments[4], "csi-5");
        assert_eq!(d.others, Some(2));
        let d = AwaitingVolumeDetachment::parse("Awaiting deletion of bound volumeattachments (csi-1)").unwrap();
        assert_eq!((d.volume_attachments.len(), d.others), (1, None));
        assert_eq!(AwaitingVolumeDetachment::parse("Awaiting deletion of bound volumeattachments csi-1"), None);
    }

    #[test]
    fn grammars_wrap_details() {
        let note = Note::new("Evicted pod: Drifted");
        assert_eq!(KARPENTER_EVICTED.parse(&note).kind(), "karpenterEvicted");
        assert_eq!(KARPENTER_EVICTED.parse(&Note::new("nope")).kind(), "unrecognized");
        assert_eq!(KARPENTER_FAILED_SCHEDULING.parse(&Note::new(CASE_013)).kind(), "karpenterFailedScheduling");
    }
}
