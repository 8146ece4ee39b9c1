//! [`ReasonInfo`]: the metadata every catalogue row carries.

use super::{Group, Reason, Source, TensorFusionReason};
use crate::EventType;
use crate::details::Grammar;

/// One catalogue entry. Read-only: every value comes from the reason's row in its source table.
///
/// `#[non_exhaustive]`: fields may be added.
#[derive(Debug)]
#[non_exhaustive]
pub struct ReasonInfo {
    /// The reason this entry describes.
    pub reason: Reason,
    /// Unique identifier, `Source::Variant`.
    pub id: &'static str,
    /// The wire string of `Event.reason`. A family of reasons is written as a pattern with one
    /// `<placeholder>`: `OutOf<resource>` matches `OutOfnvidia.com/gpu`.
    pub wire: &'static str,
    /// The event types this reason is recorded with (`Normal`, `Warning`, or both).
    pub types: &'static [EventType],
    /// Kinds of the `regarding` (`involvedObject`) object, e.g. `Pod`, `GPUPool`, `Node`.
    pub objects: &'static [&'static str],
    /// The functional group (see [`Group`]).
    pub group: Group,
    /// The component that records it.
    pub source: Source,
    /// Known `reportingController` (`source.component`) values. A leading or trailing `*` is a
    /// wildcard (`*-kueue-controller`).
    pub reporting_controllers: &'static [&'static str],
    /// Known `action` values (events.k8s.io/v1); empty when the recorder sends none.
    pub actions: &'static [&'static str],
    /// The note (message) formats, as Go format strings from the source, newest first where they changed.
    pub note_formats: &'static [&'static str],
    /// What the reason means, in this project's words.
    pub meaning: &'static str,
    /// Where the reason is defined: repository, file, version.
    pub reference: &'static str,
    /// `true` when only older releases of the source emit it.
    pub retired: bool,
    /// The grammar of the note, when the note carries data (see [`crate::details`]).
    pub grammar: Option<&'static Grammar>,
}

impl ReasonInfo {
    /// Defaults for the optional fields of a row; the macro always overwrites the identity fields.
    pub(crate) const TEMPLATE: ReasonInfo = ReasonInfo {
        reason: Reason::TensorFusion(TensorFusionReason::PreScheduleDone),
        id: "",
        wire: "",
        types: &[],
        objects: &[],
        group: Group::Scheduling,
        source: Source::TensorFusion,
        reporting_controllers: &[],
        actions: &[],
        note_formats: &[],
        meaning: "",
        reference: "",
        retired: false,
        grammar: None,
    };

    /// For a family (`OutOf<resource>`), the fixed text before and after the placeholder.
    pub fn family_affixes(&self) -> Option<(&'static str, &'static str)> {
        let open = self.wire.find('<')?;
        let close = self.wire[open..].find('>')? + open;
        Some((&self.wire[..open], &self.wire[close + 1..]))
    }

    /// Whether `event_type` is one of the types this reason is recorded with.
    pub fn expects_type(&self, event_type: &EventType) -> bool {
        self.types.contains(event_type)
    }

    /// Whether `controller` is one of the known reporting controllers (wildcards honoured).
    pub fn reported_by(&self, controller: &str) -> bool {
        self.reporting_controllers.iter().any(|pattern| {
            if let Some(suffix) = pattern.strip_prefix('*') {
                controller.ends_with(suffix)
            } else if let Some(prefix) = pattern.strip_suffix('*') {
                controller.starts_with(prefix)
            } else {
                *pattern == controller
            }
        })
    }
}
