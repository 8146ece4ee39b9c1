//! kube-scheduler `Preempted` notes on the victim Pod.
//!
//! Source: kubernetes/kubernetes `pkg/scheduler/framework/preemption/preemption.go` (v1.36):
//! `Preempted by pod %v on node %v` (preemptor UID, ≈1.29+, PR #119971); before it
//! `Preempted by a pod on node %v` (PR #114923/#114980, 2023 patches of 1.23–1.26); originally
//! `Preempted by %v/%v on node %v` (preemptor namespace and name).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A Pod evicted by the scheduler to make room for a higher-priority Pod (the preemptor).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Preempted {
    /// The preemptor's UID (current wording).
    pub preemptor_uid: Option<String>,
    /// The preemptor's namespace (oldest wording).
    pub preemptor_namespace: Option<String>,
    /// The preemptor's name (oldest wording).
    pub preemptor_name: Option<String>,
    /// The node the victim ran on.
    pub node: String,
}

impl Preempted {
    /// Parse any of the three wordings.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.trim().strip_prefix("Preempted by ")?;
        let (who, node) = rest.rsplit_once(" on node ")?;
        if node.is_empty() || node.contains(' ') {
            return None;
        }
        let mut out =
            Preempted { preemptor_uid: None, preemptor_namespace: None, preemptor_name: None, node: node.to_owned() };
        if who == "a pod" {
            return Some(out);
        }
        if let Some(uid) = who.strip_prefix("pod ") {
            if uid.is_empty() || uid.contains([' ', '/']) {
                return None;
            }
            out.preemptor_uid = Some(uid.to_owned());
            return Some(out);
        }
        let (namespace, name) = who.split_once('/')?;
        if namespace.is_empty() || name.is_empty() || who.contains(' ') {
            return None;
        }
        out.preemptor_namespace = Some(namespace.to_owned());
        out.preemptor_name = Some(name.to_owned());
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::Note;
    use crate::details::scheduling::PREEMPTED;

    #[test]
    fn three_wordings() {
        let p = Preempted::parse("Preempted by pod 6c5f2a1e-0b7d-4c8e-9a3b-2f1d0e9c8b7a on node gpu-node-1").unwrap();
        assert_eq!(p.preemptor_uid.as_deref(), Some("6c5f2a1e-0b7d-4c8e-9a3b-2f1d0e9c8b7a"));
        assert_eq!(p.preemptor_namespace, None);
        assert_eq!(p.node, "gpu-node-1");

        let p = Preempted::parse("Preempted by a pod on node gpu-node-1").unwrap();
        assert_eq!((p.preemptor_uid, p.preemptor_name, p.node.as_str()), (None, None, "gpu-node-1"));

        let p = Preempted::parse("Preempted by ml/high-prio on node gpu-node-1").unwrap();
        assert_eq!(p.preemptor_namespace.as_deref(), Some("ml"));
        assert_eq!(p.preemptor_name.as_deref(), Some("high-prio"));
        assert_eq!(p.node, "gpu-node-1");

        let json = serde_json::to_value(PREEMPTED.parse(&Note::new("Preempted by a pod on node n"))).unwrap();
        assert_eq!(json["kind"], "podPreempted");
        assert_eq!(json["node"], "n");
    }

    #[test]
    fn near_misses() {
        for note in [
            "Preempted by pod  on node n",
            "Preempted by pod x on node ",
            "Preempted by someone on node n",
            "Preempted by ml/ on node n",
            "Preempted on node n",
            "preempted by a pod on node n",
            "Preempted by a pod on node n m",
        ] {
            assert_eq!(Preempted::parse(note), None, "{note}");
        }
    }
}
