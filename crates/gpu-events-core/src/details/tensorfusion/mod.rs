//! TensorFusion note grammars (NexusGPU/tensor-fusion main @3e0a490; v1 line @c7a2417 where it
//! differs). Every grammar parses *and renders*: `render(parse(note)) == note`, byte for byte.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::template::{Arg, captures, fill};
use super::{Details, Grammar, Note};

/// Details of TensorFusion notes, one variant per note format (`kind` in JSON).
///
/// `#[non_exhaustive]`: variants may be added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum TensorFusionDetails {
    /// `GangWaitingForMembers` from `GangScheduler`: `Waiting for gang members: %d/%d ready`.
    GangMembersWaiting(GangMembersWaiting),
}

impl TensorFusionDetails {
    /// The `kind` as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            TensorFusionDetails::GangMembersWaiting(_) => "gangMembersWaiting",
        }
    }

    /// The note exactly as TensorFusion writes it.
    pub fn render(&self) -> String {
        match self {
            TensorFusionDetails::GangMembersWaiting(d) => d.render(),
        }
    }
}

/// Gang progress as the gang manager reports it (internal/gang/manager.go:833 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GangMembersWaiting {
    /// Pods of the group waiting at Permit, this one included.
    pub ready: u32,
    /// The group's required members (`RequiredMembers`).
    pub required: u32,
}

impl GangMembersWaiting {
    /// The Go format.
    pub const FORMAT: &'static str = "Waiting for gang members: %d/%d ready";

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [ready, required] = captures(Self::FORMAT, note)?;
        Some(GangMembersWaiting {
            ready: ready.parse().ok()?,
            required: required.parse().ok()?,
        })
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(
            Self::FORMAT,
            &[Arg::Int(self.ready.into()), Arg::Int(self.required.into())],
        )
    }
}

/// Grammar of `GangWaitingForMembers` as recorded by `GangScheduler`.
pub(crate) static GANG_MEMBERS_WAITING: Grammar =
    Grammar::new(&["gangMembersWaiting"], |note: &Note<'_>| {
        GangMembersWaiting::parse(note.text)
            .map(|d| Details::TensorFusion(TensorFusionDetails::GangMembersWaiting(d)))
    });
