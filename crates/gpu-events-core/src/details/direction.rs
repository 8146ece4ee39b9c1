//! Up or down: one type for every grammar that reports a scale direction.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which way something was scaled: a ReplicaSet's replicas (`ScalingReplicaSet`, see
/// [`node::ReplicaSetScaled`](super::node::ReplicaSetScaled)) or a TensorFusion workload's
/// TFLOPS/VRAM requests (`ResourceScaledUp` / `ResourceScaledDown`, see
/// [`tensorfusion::ResourceScaled`](super::tensorfusion::ResourceScaled)). Serialized `"up"` / `"down"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ScaleDirection {
    /// `up`: more replicas, or a larger TFLOPS or VRAM request.
    Up,
    /// `down`: fewer replicas, or a smaller request (TensorFusion: also when only limits changed).
    Down,
}
