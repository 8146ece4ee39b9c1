//! HAMi scheduler-extender notes (`FilteringFailed`, `FilteringSucceed`, `BindingSucceed`,
//! `BindingFailed`).
//!
//! Source: Project-HAMi/HAMi `pkg/scheduler/scheduler.go` (`Filter`, `Bind`, `genSuccessMsg`),
//! `pkg/scheduler/score.go` (per-reason failure events), `pkg/scheduler/events.go`
//! (`recordScheduleBindingResultEvent`); 4707fb02 (v2.10.0) and the v2.4-era
//! `no available node, all node scores do not meet`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::SchedulingDetails;
use super::fit_error::count_prefix;
use crate::details::template::captures;
use crate::details::{Details, Grammar, Note};

/// `no available node, %d nodes do not meet` (v2.5+) or `no available node, all node scores do
/// not meet` (earlier): no node can take the Pod's vGPU request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiNoAvailableNode {
    /// Candidate nodes that did not fit (count); absent in the older wording.
    pub nodes_not_fit: Option<u32>,
}

impl HamiNoAvailableNode {
    /// The Go format.
    pub const FORMAT: &'static str = "no available node, %d nodes do not meet";
    /// The older wording, without a count.
    pub const OLD: &'static str = "no available node, all node scores do not meet";

    /// Parse either wording.
    pub fn parse(note: &str) -> Option<Self> {
        let note = note.trim();
        if note == Self::OLD {
            return Some(HamiNoAvailableNode { nodes_not_fit: None });
        }
        let [count] = captures(Self::FORMAT, note)?;
        Some(HamiNoAvailableNode { nodes_not_fit: Some(count.parse().ok()?) })
    }
}

/// One failure reason and the nodes it rejected: `%d nodes %s(%s)`, e.g.
/// `2 nodes CardInsufficientMemory(node-a,node-b)`. HAMi records one such event per reason code
/// when no node fits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiNodesRejected {
    /// Number of nodes rejected for this reason (count).
    pub count: u32,
    /// The reason code (`CardInsufficientMemory`, `CardInsufficientCore`, `CardTypeMismatch`,
    /// `CardUuidMismatch`, `CardTimeSlicingExhausted`, `CardNotHealth`, `NumaNotFit`,
    /// `NodeInsufficientDevice`, `ResourceQuotaNotFit`, ...), as written.
    pub reason: String,
    /// The rejected nodes, sorted as HAMi writes them.
    pub nodes: Vec<String>,
}

impl HamiNodesRejected {
    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let (count, rest) = count_prefix(note.trim())?;
        let rest = rest.strip_prefix("nodes ")?;
        let (reason, nodes) = rest.split_once('(')?;
        let nodes = nodes.strip_suffix(')')?;
        if reason.is_empty() || reason.contains(char::is_whitespace) || nodes.contains(['(', ')']) {
            return None;
        }
        Some(HamiNodesRejected {
            count,
            reason: reason.to_owned(),
            nodes: nodes.split(',').filter(|n| !n.is_empty()).map(str::to_owned).collect(),
        })
    }
}

/// Any other `FilteringFailed` text: the extender's error (`does not request any resource`,
/// `calcScore failed ... for pod ...`, annotation patch or API errors).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiFilterError {
    /// The note as written.
    pub message: String,
}

/// `FilteringSucceed`: `find fit node(%s), %d nodes not fit, %d nodes fit(%s)`, the chosen node
/// and the scores of every node that fit (`node:score` joined by `,`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiNodeSelected {
    /// The node chosen for the Pod.
    pub node: String,
    /// Candidate nodes that did not fit (count).
    pub nodes_not_fit: u32,
    /// Nodes that fit (count).
    pub nodes_fit: u32,
    /// The score of each node that fit, in message order.
    pub scores: Vec<HamiNodeScore>,
}

/// A node's HAMi score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiNodeScore {
    /// Node name.
    pub node: String,
    /// The score (`%.2f`, unitless; higher is preferred).
    pub score: f64,
}

impl HamiNodeSelected {
    /// The Go format.
    pub const FORMAT: &'static str = "find fit node(%s), %d nodes not fit, %d nodes fit(%s)";

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [node, not_fit, fit, scores] = captures(Self::FORMAT, note.trim())?;
        let scores = if scores.is_empty() {
            Vec::new()
        } else {
            scores
                .split(',')
                .map(|entry| {
                    let (node, score) = entry.rsplit_once(':')?;
                    Some(HamiNodeScore { node: node.to_owned(), score: score.parse().ok()? })
                })
                .collect::<Option<_>>()?
        };
        Some(HamiNodeSelected {
            node: node.to_owned(),
            nodes_not_fit: not_fit.parse().ok()?,
            nodes_fit: fit.parse().ok()?,
            scores,
        })
    }
}

/// `BindingSucceed`: `Successfully binding node %v to %v/%v` (the node list as Go prints a
/// slice, `[node-a]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiBound {
    /// The node(s) the Pod was bound to (brackets removed).
    pub nodes: Vec<String>,
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
}

impl HamiBound {
    /// The Go format.
    pub const FORMAT: &'static str = "Successfully binding node %v to %v/%v";

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [nodes, namespace, pod] = captures(Self::FORMAT, note.trim())?;
        let nodes = nodes.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(nodes);
        if namespace.is_empty() || pod.is_empty() {
            return None;
        }
        Some(HamiBound {
            nodes: nodes.split_whitespace().map(str::to_owned).collect(),
            namespace: namespace.to_owned(),
            pod: pod.to_owned(),
        })
    }
}

/// `BindingFailed`: the bind error as written (`failed to get node %s`, node lock, annotation
/// patch or Binding API errors).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HamiBindingFailed {
    /// The note as written.
    pub message: String,
}

/// Grammar of HAMi `FilteringFailed`.
pub(crate) static HAMI_FILTERING_FAILED: Grammar =
    Grammar::new(&[HamiNoAvailableNode::KIND, HamiNodesRejected::KIND, HamiFilterError::KIND], |note: &Note<'_>| {
        let text = note.text.trim();
        if text.is_empty() {
            return None;
        }
        let details = if let Some(d) = HamiNoAvailableNode::parse(text) {
            SchedulingDetails::HamiNoAvailableNode(d)
        } else if let Some(d) = HamiNodesRejected::parse(text) {
            SchedulingDetails::HamiNodesRejected(d)
        } else if text.starts_with("no available node") {
            return None;
        } else {
            SchedulingDetails::HamiFilterError(HamiFilterError { message: text.to_owned() })
        };
        Some(Details::Scheduling(details))
    });

/// Grammar of HAMi `BindingFailed`.
pub(crate) static HAMI_BINDING_FAILED: Grammar = Grammar::new(&[HamiBindingFailed::KIND], |note: &Note<'_>| {
    let text = note.text.trim();
    (!text.is_empty()).then(|| {
        Details::Scheduling(SchedulingDetails::HamiBindingFailed(HamiBindingFailed { message: text.to_owned() }))
    })
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filtering_failed_forms() {
        assert_eq!(
            HamiNoAvailableNode::parse("no available node, 3 nodes do not meet"),
            Some(HamiNoAvailableNode { nodes_not_fit: Some(3) })
        );
        assert_eq!(
            HamiNoAvailableNode::parse("no available node, all node scores do not meet"),
            Some(HamiNoAvailableNode { nodes_not_fit: None })
        );
        let r = HamiNodesRejected::parse("2 nodes CardInsufficientMemory(node-a,node-b)").unwrap();
        assert_eq!(
            (r.count, r.reason.as_str(), r.nodes.clone()),
            (2, "CardInsufficientMemory", vec!["node-a".to_owned(), "node-b".to_owned()])
        );
        let kind = |text: &str| HAMI_FILTERING_FAILED.parse(&Note::new(text)).kind();
        assert_eq!(kind("no available node, 3 nodes do not meet"), "hamiNoAvailableNode");
        assert_eq!(kind("1 nodes CardTypeMismatch(node-c)"), "hamiNodesRejected");
        assert_eq!(kind("does not request any resource"), "hamiFilterError");
        assert_eq!(kind("calcScore failed boom for pod p"), "hamiFilterError");
        assert_eq!(kind("no available node, x nodes do not meet"), "unrecognized");
        assert_eq!(kind(""), "unrecognized");
    }

    #[test]
    fn filtering_succeed_with_scores() {
        let s = HamiNodeSelected::parse("find fit node(node3), 7 nodes not fit, 2 nodes fit(node3:0.98,node4:0.65)")
            .unwrap();
        assert_eq!(s.node, "node3");
        assert_eq!((s.nodes_not_fit, s.nodes_fit), (7, 2));
        assert_eq!(s.scores.len(), 2);
        assert_eq!((s.scores[1].node.as_str(), s.scores[1].score), ("node4", 0.65));
        let s =
            HamiNodeSelected::parse("find fit node(hami-workshop), 0 nodes not fit, 1 nodes fit(hami-workshop:7.21)")
                .unwrap();
        assert_eq!(s.scores[0].score, 7.21);
        assert_eq!(HamiNodeSelected::parse("find fit node(a), x nodes not fit, 1 nodes fit(a:1.00)"), None);
        assert_eq!(HamiNodeSelected::parse("find fit node(a), 0 nodes not fit, 1 nodes fit(a)"), None);
    }

    #[test]
    fn binding_events() {
        let b = HamiBound::parse("Successfully binding node [node-a] to default/gpu-multi").unwrap();
        assert_eq!(b.nodes, ["node-a"]);
        assert_eq!((b.namespace.as_str(), b.pod.as_str()), ("default", "gpu-multi"));
        let b = HamiBound::parse("Successfully binding node node-a to default/p").unwrap();
        assert_eq!(b.nodes, ["node-a"]);
        assert_eq!(HamiBound::parse("Successfully binding node [a] to p"), None);
        let d = HAMI_BINDING_FAILED.parse(&Note::new("failed to get node node-a"));
        assert_eq!(
            serde_json::to_value(d).unwrap(),
            serde_json::json!({"kind": "hamiBindingFailed", "message": "failed to get node node-a"})
        );
        assert_eq!(HamiNodesRejected::parse("2 nodes (a,b)"), None);
        assert_eq!(HamiNodesRejected::parse("2 node X(a)"), None);
    }
}
