//! The other direction: from a TensorFusion details value to the reason, type and action that
//! TensorFusion records with it (main @3e0a490), so that a recorder needs nothing but the details.
//!
//! Everything a catalogue row already says (the one type, the one action) is read from the row;
//! only where a row allows several (gang reporters, node-expansion outcomes, scale direction) does
//! the details value decide, as TensorFusion's call sites do.

use super::{
    ExpansionFailure, ExpansionOutcome, NodeExpansionCheck, NodeExpansionFailed, ResourceScaled, ScaleDirection,
};
use crate::EventType;
use crate::reason::TensorFusionReason;

/// What TensorFusion records together with a note: the reason, the event type and the action.
///
/// Built by [`TensorFusionDetails::emission`](super::TensorFusionDetails::emission) and [`TensorFusionReason::fixed_note`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Emission {
    /// The reason (its wire string is [`TensorFusionReason::as_str`]).
    pub reason: TensorFusionReason,
    /// `Normal` or `Warning`, as the call site records it.
    pub event_type: EventType,
    /// The `action` of the call site; for the reasons whose action is not known (the newer
    /// node-expansion fallback reasons), the reason's wire string, the convention TensorFusion's
    /// defrag and pool controllers follow.
    pub action: &'static str,
}

impl Emission {
    /// The row's own type and action (the first where there are several).
    pub(super) fn of(reason: TensorFusionReason) -> Emission {
        let info = reason.info();
        Emission {
            reason,
            event_type: info.types.first().cloned().unwrap_or(EventType::Normal),
            action: info.actions.first().copied().unwrap_or(info.wire),
        }
    }

    fn with(mut self, event_type: EventType, action: &'static str) -> Emission {
        self.event_type = event_type;
        self.action = action;
        self
    }
}

impl TensorFusionReason {
    /// The type and action this reason is recorded with, for a reason whose note carries no data
    /// (`GPUInterconnectTopologyFallback`, `DefragBlockedBySourceNode`,
    /// `DefragBlockedByEvictedPod`, `NodeExpansionCandidatesExhausted`), together with that fixed
    /// note. `None` for reasons whose note has a grammar (use their details) and for retired
    /// reasons.
    pub fn fixed_note(self) -> Option<(Emission, &'static str)> {
        let info = self.info();
        match info.note_formats {
            [note] if info.grammar.is_none() && !info.retired && !note.contains('%') => {
                Some((Emission::of(self), note))
            }
            _ => None,
        }
    }
}

/// `NodeExpansionCheck`: the action and the type follow the outcome (handler.go:82-338).
pub(super) fn check_emission(check: &NodeExpansionCheck) -> Emission {
    let warning = matches!(
        check.outcome,
        ExpansionOutcome::NoGpuNodes | ExpansionOutcome::NonGpuIssue | ExpansionOutcome::ScheduleTimeout
    );
    let event_type = if warning { EventType::Warning } else { EventType::Normal };
    Emission::of(TensorFusionReason::NodeExpansionCheck).with(event_type, check.outcome.action())
}

/// `NodeExpansionFailed`: no fitting node type is `Failed`, a claim that could not be created `CreateFailed`.
pub(super) fn failure_emission(failed: &NodeExpansionFailed) -> Emission {
    let action = match failed.failure {
        ExpansionFailure::NoFittingNodeType => "Failed",
        ExpansionFailure::CreateGpuNodeClaim | ExpansionFailure::CreateNodeClaim => "CreateFailed",
    };
    Emission::of(TensorFusionReason::NodeExpansionFailed).with(EventType::Warning, action)
}

/// `ResourceScaledUp` or `ResourceScaledDown`, by the direction.
pub(super) fn scale_emission(scaled: &ResourceScaled) -> Emission {
    Emission::of(match scaled.direction {
        ScaleDirection::Up => TensorFusionReason::ResourceScaledUp,
        ScaleDirection::Down => TensorFusionReason::ResourceScaledDown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::tensorfusion::{GangMembersWaiting, NodeExpansionCheck, NoteWording, TensorFusionDetails};

    #[test]
    fn rows_decide_where_they_can_and_details_where_they_must() {
        let gang = TensorFusionDetails::from(GangMembersWaiting::new(2, 4)).emission().unwrap();
        assert_eq!(gang.reason, TensorFusionReason::GangManagerWaitingForMembers);
        assert_eq!((gang.event_type, gang.action), (EventType::Normal, "Waiting"));

        let check = NodeExpansionCheck::new(ExpansionOutcome::NonGpuIssue, None, NoteWording::Main);
        let check = TensorFusionDetails::from(check).emission().unwrap();
        assert_eq!((check.event_type, check.action), (EventType::Warning, "NonGPUIssue"));

        let (fallback, note) = TensorFusionReason::NodeExpansionCandidatesExhausted.fixed_note().unwrap();
        assert_eq!(fallback.action, "NodeExpansionCandidatesExhausted");
        assert_eq!(fallback.event_type, EventType::Warning);
        assert!(note.starts_with("all Karpenter expansion preferences"));
        assert!(TensorFusionReason::PreScheduleDone.fixed_note().is_none());
        assert!(TensorFusionReason::GPUNodeCreated.fixed_note().is_none());
    }
}
