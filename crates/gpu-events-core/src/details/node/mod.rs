//! Node-side note grammars: kubelet (kubernetes/kubernetes pkg/kubelet, v1.14–v1.36),
//! node-problem-detector and kube-controller-manager.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::template::{captures, go_unquote};
use super::{Details, Grammar, Note};

/// Details of kubelet, node-problem-detector and controller-manager notes (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum NodeDetails {
    /// `Pulling`: `Pulling image %q`.
    PullingImage(PullingImage),
}

impl NodeDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            NodeDetails::PullingImage(_) => "pullingImage",
        }
    }
}

/// The kubelet started pulling an image (pkg/kubelet/images/image_manager.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PullingImage {
    /// The image reference.
    pub image: String,
}

impl PullingImage {
    /// Parse `Pulling image "ref"`.
    pub fn parse(note: &str) -> Option<Self> {
        let [image] = captures("Pulling image %q", note)?;
        Some(PullingImage {
            image: go_unquote(image)?,
        })
    }
}

/// Grammar of kubelet `Pulling`.
pub(crate) static PULLING: Grammar = Grammar::new(&["pullingImage"], |note: &Note<'_>| {
    PullingImage::parse(note.text).map(|d| Details::Node(NodeDetails::PullingImage(d)))
});
