//! Scheduler note grammars: kube-scheduler (kubernetes/kubernetes pkg/scheduler, v1.14–v1.36),
//! Volcano, KAI-Scheduler, HAMi.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::template::captures;
use super::{Details, Grammar, Note};

/// Details of scheduler notes, one variant per grammar (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum SchedulingDetails {
    /// `Scheduled`: `Successfully assigned %v/%v to %v` (or the ≤1.11 form without namespace).
    Scheduled(Scheduled),
}

impl SchedulingDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            SchedulingDetails::Scheduled(_) => "scheduled",
        }
    }
}

/// A Pod bound to a node (pkg/scheduler/schedule_one.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Scheduled {
    /// Pod namespace (absent in the ≤1.11 form).
    pub namespace: Option<String>,
    /// Pod name.
    pub pod: String,
    /// Node name.
    pub node: String,
}

impl Scheduled {
    /// Parse `Successfully assigned ns/pod to node` (or `Successfully assigned pod to node`).
    pub fn parse(note: &str) -> Option<Self> {
        let [object, node] = captures("Successfully assigned %v to %v", note)?;
        let (namespace, pod) = match object.split_once('/') {
            Some((namespace, pod)) => (Some(namespace.to_owned()), pod),
            None => (None, object),
        };
        Some(Scheduled {
            namespace,
            pod: pod.to_owned(),
            node: node.to_owned(),
        })
    }
}

/// Grammar of kube-scheduler `Scheduled`.
pub(crate) static SCHEDULED: Grammar = Grammar::new(&["scheduled"], |note: &Note<'_>| {
    Scheduled::parse(note.text).map(|d| Details::Scheduling(SchedulingDetails::Scheduled(d)))
});
