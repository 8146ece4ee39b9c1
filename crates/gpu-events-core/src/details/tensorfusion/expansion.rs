//! The node expander (`TensorFusionScheduler`, internal/scheduler/expander/handler.go @3e0a490;
//! v1 line handler.go @c7a2417; the Karpenter candidate fallback of the newer v1-line PRs
//! #769–#777).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};
use super::super::{Grammar, Note};
use crate::details::Details;

/// What the node expander concluded for a pending Pod; named after the event's `action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ExpansionOutcome {
    /// `Scheduled`: a new node was provisioned and the Pod scheduled on it (handler.go:82,331).
    Scheduled,
    /// `DelegateToKarpenter`: the Pod fits no node even without GPU constraints, so Karpenter
    /// should expand (handler.go:205,212; on the v1 line the same branch asks for a manual check,
    /// handler.go:221,228 @c7a2417).
    DelegateToKarpenter,
    /// `NoGPUNodes`: every schedulable node is a non-GPU node (handler.go:245).
    NoGpuNodes,
    /// `PreScheduled`: the Pod fits GPU capacity that is still being provisioned (handler.go:257).
    PreScheduled,
    /// `Schedulable`: the Pod fits existing or provisioning GPU capacity (handler.go:261).
    Schedulable,
    /// `NonGPUIssue`: the scheduling failure is not about GPUs (handler.go:267).
    NonGpuIssue,
    /// `ScheduleTimeout`: the pre-scheduled Pod was not scheduled within 10 minutes (handler.go:338).
    ScheduleTimeout,
}

impl ExpansionOutcome {
    /// Every outcome.
    pub const ALL: [ExpansionOutcome; 7] = [
        ExpansionOutcome::Scheduled,
        ExpansionOutcome::DelegateToKarpenter,
        ExpansionOutcome::NoGpuNodes,
        ExpansionOutcome::PreScheduled,
        ExpansionOutcome::Schedulable,
        ExpansionOutcome::NonGpuIssue,
        ExpansionOutcome::ScheduleTimeout,
    ];

    /// The event `action` TensorFusion main records with this outcome.
    pub fn action(self) -> &'static str {
        match self {
            ExpansionOutcome::Scheduled => "Scheduled",
            ExpansionOutcome::DelegateToKarpenter => "DelegateToKarpenter",
            ExpansionOutcome::NoGpuNodes => "NoGPUNodes",
            ExpansionOutcome::PreScheduled => "PreScheduled",
            ExpansionOutcome::Schedulable => "Schedulable",
            ExpansionOutcome::NonGpuIssue => "NonGPUIssue",
            ExpansionOutcome::ScheduleTimeout => "ScheduleTimeout",
        }
    }

    /// The outcome of a known `action`.
    pub fn from_action(action: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.action() == action)
    }
}

/// Which release line's wording a note uses. The v1 line (@c7a2417) words three
/// `NodeExpansionCheck` notes differently; all other notes are the same on both lines and parse
/// as [`NoteWording::Main`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum NoteWording {
    /// main (v2.x) wording.
    Main,
    /// v1-line wording.
    V1,
}

/// One `NodeExpansionCheck` wording: outcome, line, and the text (with `%v` for the error).
const CHECK_WORDINGS: [(ExpansionOutcome, NoteWording, &str); 11] = [
    (ExpansionOutcome::Scheduled, NoteWording::Main, "new node provisioned and pod scheduled successfully"),
    (
        ExpansionOutcome::DelegateToKarpenter,
        NoteWording::Main,
        "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion. error: %v",
    ),
    (
        ExpansionOutcome::DelegateToKarpenter,
        NoteWording::Main,
        "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion, 0 fit nodes",
    ),
    (
        ExpansionOutcome::DelegateToKarpenter,
        NoteWording::V1,
        "can not schedule on any nodes even without GPU constraints, manual check required. error: %v",
    ),
    (
        ExpansionOutcome::DelegateToKarpenter,
        NoteWording::V1,
        "can not schedule on any nodes, manual check required, 0 fit nodes",
    ),
    (
        ExpansionOutcome::NoGpuNodes,
        NoteWording::Main,
        "all schedulable nodes are none GPU nodes, manual check required",
    ),
    (
        ExpansionOutcome::PreScheduled,
        NoteWording::Main,
        "fit in-flight GPU resources, pod should be scheduled after new node is provisioned",
    ),
    (
        ExpansionOutcome::Schedulable,
        NoteWording::Main,
        "fit GPU resources, pod should be scheduled now or a while later on existing/provisioning nodes",
    ),
    (
        ExpansionOutcome::Schedulable,
        NoteWording::V1,
        "fit GPU resources, pod should be scheduled now or whiles later on existing/provisioning nodes",
    ),
    (
        ExpansionOutcome::NonGpuIssue,
        NoteWording::Main,
        "pod scheduling failure not due to GPU resources, manual check required",
    ),
    (ExpansionOutcome::ScheduleTimeout, NoteWording::Main, "failed to schedule pod after 10 minutes"),
];

/// The node expander's verdict on a pending Pod (handler.go:82-338 @3e0a490; v1 wording
/// handler.go:221,228,276 @c7a2417).
///
/// The outcome is read from the note's wording; when the event has an `action` naming a known
/// outcome, it must agree with the note, else the note is not recognized.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeExpansionCheck {
    /// The verdict.
    pub outcome: ExpansionOutcome,
    /// The scheduling simulation error (`DelegateToKarpenter` with `. error: %v` only); `None`
    /// for the other notes, including the `0 fit nodes` form.
    pub error: Option<String>,
    /// Which line's wording the note uses (kept so that rendering reproduces it).
    pub wording: NoteWording,
}

impl NodeExpansionCheck {
    /// Every wording: outcome, release line, Go format (`%v` = the error).
    pub const FORMATS: [(ExpansionOutcome, NoteWording, &'static str); 11] = CHECK_WORDINGS;

    /// From the parts, normalized to what a note can say: the wording becomes
    /// [`NoteWording::Main`] when the v1 line words this outcome the same, and the error is
    /// dropped for outcomes whose notes carry none (all but `DelegateToKarpenter`).
    pub fn new(outcome: ExpansionOutcome, error: Option<&str>, wording: NoteWording) -> Self {
        let has = |wanted: fn(NoteWording, &str) -> bool| {
            CHECK_WORDINGS.iter().any(|(o, w, format)| *o == outcome && wanted(*w, format))
        };
        let wording = if has(|w, _| w == NoteWording::V1) { wording } else { NoteWording::Main };
        let error = error.filter(|_| has(|_, format| format.contains('%')));
        NodeExpansionCheck { outcome, error: error.map(str::to_owned), wording }
    }

    /// Parse a note (no `action` known).
    pub fn parse(note: &str) -> Option<Self> {
        Self::parse_with_action(note, None)
    }

    /// Parse a note with the event's `action`, which must agree with the note when it names a
    /// known outcome.
    pub fn parse_with_action(note: &str, action: Option<&str>) -> Option<Self> {
        let found = CHECK_WORDINGS.iter().find_map(|&(outcome, wording, format)| {
            if format.contains('%') {
                let [error] = captures(format, note)?;
                Some(Self::new(outcome, Some(error), wording))
            } else {
                (format == note).then(|| Self::new(outcome, None, wording))
            }
        })?;
        match action.and_then(ExpansionOutcome::from_action) {
            Some(expected) if expected != found.outcome => None,
            _ => Some(found),
        }
    }

    /// The Go format this value renders with.
    fn format(&self) -> &'static str {
        let wants_error = self.error.is_some();
        let pick = |wording: NoteWording| {
            CHECK_WORDINGS
                .iter()
                .filter(|(outcome, w, _)| *outcome == self.outcome && *w == wording)
                .map(|(_, _, format)| *format)
                .max_by_key(|format| format.contains('%') == wants_error)
        };
        pick(self.wording).or_else(|| pick(NoteWording::Main)).unwrap_or_default()
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(self.format(), &[Arg::Text(self.error.as_deref().unwrap_or_default())])
    }
}

/// Which kind of claim the expander created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ClaimKind {
    /// A TensorFusion `GPUNodeClaim` (name `<owner label>-<8 random [a-z0-9]>`).
    GpuNodeClaim,
    /// A Karpenter `NodeClaim` (name `tensor-fusion-<10 random chars>`).
    NodeClaim,
}

impl ClaimKind {
    /// The kind as the note spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimKind::GpuNodeClaim => "GPUNodeClaim",
            ClaimKind::NodeClaim => "NodeClaim",
        }
    }
}

/// The expander created a claim for a new GPU node (handler.go:721,770 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeExpansionCompleted {
    /// GPUNodeClaim or Karpenter NodeClaim.
    pub claim: ClaimKind,
    /// The claim's name.
    pub name: String,
}

impl NodeExpansionCompleted {
    /// The Go format for a GPUNodeClaim.
    pub const GPU_NODE_CLAIM_FORMAT: &'static str = "created new GPUNodeClaim for node expansion: %s";
    /// The Go format for a Karpenter NodeClaim.
    pub const NODE_CLAIM_FORMAT: &'static str = "created new NodeClaim for node expansion: %s";

    /// From the claim kind and name.
    pub fn new(claim: ClaimKind, name: &str) -> Self {
        NodeExpansionCompleted { claim, name: name.to_owned() }
    }

    /// Parse a note of either format.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some([name]) = captures(Self::GPU_NODE_CLAIM_FORMAT, note) {
            return Some(Self::new(ClaimKind::GpuNodeClaim, name));
        }
        let [name] = captures(Self::NODE_CLAIM_FORMAT, note)?;
        Some(Self::new(ClaimKind::NodeClaim, name))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        let format = match self.claim {
            ClaimKind::GpuNodeClaim => Self::GPU_NODE_CLAIM_FORMAT,
            ClaimKind::NodeClaim => Self::NODE_CLAIM_FORMAT,
        };
        fill(format, &[Arg::Text(&self.name)])
    }
}

/// Why node expansion failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ExpansionFailure {
    /// Action `Failed`: `failed to satisfy the pending pod, no potential GPU nodes can fit`
    /// (handler.go:298).
    NoFittingNodeType,
    /// Action `CreateFailed`: `failed to create new GPUNodeClaim: %v` (handler.go:717).
    CreateGpuNodeClaim,
    /// Action `CreateFailed`: `failed to create new NodeClaim: %v` (handler.go:765).
    CreateNodeClaim,
}

/// Node expansion could not help the pending Pod (handler.go:298,717,765 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeExpansionFailed {
    /// Which failure.
    pub failure: ExpansionFailure,
    /// The API create error (`None` for [`ExpansionFailure::NoFittingNodeType`]).
    pub error: Option<String>,
}

impl NodeExpansionFailed {
    /// The fixed note when no node type fits.
    pub const NO_FIT_NOTE: &'static str = "failed to satisfy the pending pod, no potential GPU nodes can fit";
    /// The Go format when creating a GPUNodeClaim failed.
    pub const GPU_NODE_CLAIM_FORMAT: &'static str = "failed to create new GPUNodeClaim: %v";
    /// The Go format when creating a Karpenter NodeClaim failed.
    pub const NODE_CLAIM_FORMAT: &'static str = "failed to create new NodeClaim: %v";

    /// From the failure and error (the error is ignored for `NoFittingNodeType`).
    pub fn new(failure: ExpansionFailure, error: Option<&str>) -> Self {
        let error = match failure {
            ExpansionFailure::NoFittingNodeType => None,
            _ => Some(error.unwrap_or_default().to_owned()),
        };
        NodeExpansionFailed { failure, error }
    }

    /// Parse a note of any of the three forms.
    pub fn parse(note: &str) -> Option<Self> {
        if note == Self::NO_FIT_NOTE {
            return Some(Self::new(ExpansionFailure::NoFittingNodeType, None));
        }
        if let Some([error]) = captures(Self::GPU_NODE_CLAIM_FORMAT, note) {
            return Some(Self::new(ExpansionFailure::CreateGpuNodeClaim, Some(error)));
        }
        let [error] = captures(Self::NODE_CLAIM_FORMAT, note)?;
        Some(Self::new(ExpansionFailure::CreateNodeClaim, Some(error)))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        let format = match self.failure {
            ExpansionFailure::NoFittingNodeType => return Self::NO_FIT_NOTE.to_owned(),
            ExpansionFailure::CreateGpuNodeClaim => Self::GPU_NODE_CLAIM_FORMAT,
            ExpansionFailure::CreateNodeClaim => Self::NODE_CLAIM_FORMAT,
        };
        fill(format, &[Arg::Text(self.error.as_deref().unwrap_or_default())])
    }
}

single_format! {
    /// A Karpenter NodeClaim created for the Pod failed for insufficient capacity and was deleted
    /// (newer v1-line handler.go, PRs #769–#777; not on main @3e0a490).
    pub struct NodeExpansionCandidateFailed {
        /// The Karpenter NodeClaim's name.
        pub node_claim: String,
    }
    /// The Go format.
    FORMAT = "Karpenter NodeClaim %s failed due to insufficient capacity; trying the next expansion preference";
    /// From the NodeClaim name.
    new;
}

/// Grammar of `NodeExpansionCheck` (uses the event's `action`).
pub(crate) static NODE_EXPANSION_CHECK: Grammar = Grammar::new(&[NodeExpansionCheck::KIND], |note: &Note<'_>| {
    NodeExpansionCheck::parse_with_action(note.text, note.action).map(Details::from)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_wording_round_trips() {
        for (outcome, wording, format) in NodeExpansionCheck::FORMATS {
            let note = fill(format, &[Arg::Text("scheduler framework not found")]);
            let d = NodeExpansionCheck::parse(&note).unwrap();
            assert_eq!((d.outcome, d.wording), (outcome, wording), "{note}");
            assert_eq!(d.error.is_some(), format.contains('%'));
            assert_eq!(d.render(), note);
            // The matching action is accepted, another known one is not.
            assert!(NodeExpansionCheck::parse_with_action(&note, Some(outcome.action())).is_some());
            let other = ExpansionOutcome::ALL.into_iter().find(|o| *o != outcome).unwrap();
            assert_eq!(NodeExpansionCheck::parse_with_action(&note, Some(other.action())), None);
            // An action the catalogue does not know does not decide anything.
            assert!(NodeExpansionCheck::parse_with_action(&note, Some("Other")).is_some());
        }
    }

    #[test]
    fn check_examples() {
        let d = NodeExpansionCheck::parse_with_action(
            "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion. error: scheduler framework not found",
            Some("DelegateToKarpenter"),
        )
        .unwrap();
        assert_eq!(d.outcome, ExpansionOutcome::DelegateToKarpenter);
        assert_eq!(d.error.as_deref(), Some("scheduler framework not found"));
        assert_eq!(d.wording, NoteWording::Main);
        let d = NodeExpansionCheck::parse("can not schedule on any nodes, manual check required, 0 fit nodes").unwrap();
        assert_eq!((d.outcome, d.wording, d.error), (ExpansionOutcome::DelegateToKarpenter, NoteWording::V1, None));
        let d = NodeExpansionCheck::parse_with_action(
            "fit GPU resources, pod should be scheduled now or whiles later on existing/provisioning nodes",
            None,
        )
        .unwrap();
        assert_eq!((d.outcome, d.wording), (ExpansionOutcome::Schedulable, NoteWording::V1));
        assert_eq!(NodeExpansionCheck::parse("new node provisioned"), None);
        assert_eq!(NodeExpansionCheck::parse("failed to schedule pod after 10 minutes."), None);
        // A wording the line does not have renders main's.
        let d = NodeExpansionCheck::new(ExpansionOutcome::NoGpuNodes, None, NoteWording::V1);
        assert_eq!(d.render(), "all schedulable nodes are none GPU nodes, manual check required");
    }

    #[test]
    fn completed_failed_candidate() {
        let d = NodeExpansionCompleted::parse("created new NodeClaim for node expansion: tensor-fusion-x8k2mq9vbt")
            .unwrap();
        assert_eq!((d.claim, d.name.as_str()), (ClaimKind::NodeClaim, "tensor-fusion-x8k2mq9vbt"));
        let d = NodeExpansionCompleted::parse("created new GPUNodeClaim for node expansion: pool-a-k2j4h5g6").unwrap();
        assert_eq!(d.claim, ClaimKind::GpuNodeClaim);
        assert_eq!(NodeExpansionCompleted::parse("created new Claim for node expansion: x"), None);

        let d = NodeExpansionFailed::parse(NodeExpansionFailed::NO_FIT_NOTE).unwrap();
        assert_eq!((d.failure, d.error), (ExpansionFailure::NoFittingNodeType, None));
        let d = NodeExpansionFailed::parse("failed to create new GPUNodeClaim: forbidden").unwrap();
        assert_eq!(d.failure, ExpansionFailure::CreateGpuNodeClaim);
        assert_eq!(d.error.as_deref(), Some("forbidden"));
        let d = NodeExpansionFailed::parse("failed to create new NodeClaim: quota").unwrap();
        assert_eq!(d.failure, ExpansionFailure::CreateNodeClaim);
        assert_eq!(d.render(), "failed to create new NodeClaim: quota");
        assert_eq!(NodeExpansionFailed::parse("failed to create new Node: x"), None);

        let d = NodeExpansionCandidateFailed::parse(
            "Karpenter NodeClaim tensor-fusion-abc failed due to insufficient capacity; trying the next expansion preference",
        )
        .unwrap();
        assert_eq!(d.node_claim, "tensor-fusion-abc");
        assert_eq!(
            NodeExpansionCandidateFailed::parse("Karpenter NodeClaim x failed due to insufficient capacity"),
            None
        );
    }
}
