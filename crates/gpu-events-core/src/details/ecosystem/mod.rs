//! Ecosystem note grammars: Karpenter, cluster-autoscaler, Kueue, NVIDIA GPU Operator, Ascend.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Details, Grammar, Note};

/// Details of autoscaler, queue and device-vendor notes (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum EcosystemDetails {
    /// Karpenter `Nominated`: `Pod should schedule on: nodeclaim/%s[, node/%s]`.
    Nominated(Nominated),
}

impl EcosystemDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            EcosystemDetails::Nominated(_) => "nominated",
        }
    }
}

/// Karpenter nominated a (future) node for the Pod (kubernetes-sigs/karpenter
/// pkg/controllers/provisioning/scheduling/events.go, v1.14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Nominated {
    /// The NodeClaim name.
    pub node_claim: String,
    /// The Node name, once the claim has one.
    pub node: Option<String>,
}

impl Nominated {
    /// Parse `Pod should schedule on: nodeclaim/NAME` with an optional `, node/NAME`.
    pub fn parse(note: &str) -> Option<Self> {
        let target = note.strip_prefix("Pod should schedule on: nodeclaim/")?;
        let (claim, node) = match target.split_once(", node/") {
            Some((claim, node)) => (claim, Some(node.to_owned())),
            None => (target, None),
        };
        (!claim.is_empty()).then(|| Nominated {
            node_claim: claim.to_owned(),
            node,
        })
    }
}

/// Grammar of Karpenter `Nominated`.
pub(crate) static NOMINATED: Grammar = Grammar::new(&["nominated"], |note: &Note<'_>| {
    Nominated::parse(note.text).map(|d| Details::Ecosystem(EcosystemDetails::Nominated(d)))
});
