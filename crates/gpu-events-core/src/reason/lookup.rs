//! Wire string (and reporting controller) to catalogue entry.

use std::str::FromStr;
use std::sync::LazyLock;

use super::Reason;
use crate::EventType;

/// Exact wire strings to their entries (more than one when reporters share a string), in order of
/// precedence; family patterns kept aside with their fixed prefix and suffix.
struct Index {
    /// foldhash: the lookup runs once per event, and the keys are our own (no flooding).
    exact: foldhash::HashMap<&'static str, Vec<Reason>>,
    families: Vec<(&'static str, &'static str, Reason)>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut exact: foldhash::HashMap<&'static str, Vec<Reason>> = foldhash::HashMap::default();
    let mut families = Vec::new();
    for &reason in Reason::all() {
        let info = reason.info();
        match info.family_affixes() {
            Some((prefix, suffix)) => families.push((prefix, suffix, reason)),
            None => exact.entry(info.wire).or_default().push(reason),
        }
    }
    Index { exact, families }
});

/// Candidates for a wire string, in order of precedence: exact entries, else the first family
/// whose fixed parts surround a non-empty remainder.
fn candidates(wire: &str) -> (&'static [Reason], bool) {
    if let Some(found) = INDEX.exact.get(wire) {
        return (found.as_slice(), false);
    }
    for (prefix, suffix, reason) in &INDEX.families {
        if wire.len() > prefix.len() + suffix.len() && wire.starts_with(prefix) && wire.ends_with(suffix) {
            return (std::slice::from_ref(reason), true);
        }
    }
    (&[], false)
}

/// What the event says besides its reason, used to choose between entries sharing a wire string.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Hints<'a> {
    pub(super) reporting_controller: Option<&'a str>,
    pub(super) regarding_kind: Option<&'a str>,
    pub(super) event_type: Option<&'a EventType>,
}

/// The entry for `wire` given the hints, and whether it matched a family.
///
/// Among entries sharing the string, in order: one naming the reporting controller exactly, one
/// matching it by wildcard, one listing the regarding kind (and then the type), else the primary.
pub(super) fn resolve(wire: &str, hints: Hints<'_>) -> Option<(Reason, bool)> {
    let (found, family) = candidates(wire);
    let first = *found.first()?;
    if found.len() == 1 {
        return Some((first, family));
    }
    if let Some(controller) = hints.reporting_controller.filter(|c| !c.is_empty()) {
        let exact = found.iter().find(|r| r.info().reporting_controllers.contains(&controller));
        if let Some(&chosen) = exact.or_else(|| found.iter().find(|r| r.info().reported_by(controller))) {
            return Some((chosen, family));
        }
    }
    let kind_matches = |r: &&Reason| hints.regarding_kind.is_none_or(|kind| r.info().objects.contains(&kind));
    let type_matches = |r: &&Reason| hints.event_type.is_none_or(|t| r.info().expects_type(t));
    let chosen = found
        .iter()
        .find(|r| kind_matches(r) && type_matches(r))
        .or_else(|| found.iter().find(kind_matches))
        .unwrap_or(&first);
    Some((*chosen, family))
}

impl Reason {
    /// Look up the primary entry for a wire string (exact, or a family such as `OutOf<resource>`).
    ///
    /// Returns `None` when the catalogue does not know the string. When several sources share
    /// it, the first in [`Source::ALL`](super::Source::ALL) order wins; use
    /// [`Reason::from_wire_reported_by`] to let the reporting controller decide.
    pub fn from_wire(wire: &str) -> Option<Reason> {
        resolve(wire, Hints::default()).map(|(reason, _)| reason)
    }

    /// Look up the entry for a wire string as recorded by `reporting_controller`
    /// (`reportingController`, or `source.component` on core/v1). Falls back to the primary entry
    /// when no entry lists that controller.
    pub fn from_wire_reported_by(wire: &str, reporting_controller: Option<&str>) -> Option<Reason> {
        resolve(wire, Hints { reporting_controller, ..Hints::default() }).map(|(reason, _)| reason)
    }

    /// Every entry whose wire string is exactly `wire` (shared strings give several).
    pub fn all_with_wire(wire: &str) -> &'static [Reason] {
        INDEX.exact.get(wire).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The error of `"...".parse::<Reason>()` for a string the catalogue does not know.
///
/// Use [`ReasonName`](super::ReasonName) to keep such strings instead of failing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown event reason {0:?}: not in the gpu-events catalogue (see `gpu-events reasons`); use ReasonName to keep unknown reasons"
)]
pub struct UnknownReasonError(pub String);

impl FromStr for Reason {
    type Err = UnknownReasonError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reason::from_wire(s).ok_or_else(|| UnknownReasonError(s.to_owned()))
    }
}
