//! Reading an object's records as a person does: latest first, the phase from the newest
//! record that implies one, the cause from the newest record that points at one in that phase,
//! and whether the object has got past its last problem.

use super::{Cause, Confidence, Phase, signal};
use crate::{EventRecord, EventType};

/// Records this close in time are read in lifecycle order, not clock order: the scheduler's and
/// the kubelet's clocks differ by a second or so (a `Scheduled` 16s ago after an admission
/// failure 17s ago), and pasted ages are rounded.
const CLOCK_SKEW: chrono::TimeDelta = chrono::TimeDelta::seconds(2);

/// What one record contributes to its object's diagnosis; small, so a summary of a large dump
/// keeps one per record without keeping the records.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reading {
    time: Option<chrono::DateTime<chrono::Utc>>,
    /// The record's position in its object's records.
    pub(super) index: usize,
    pub(super) signal: signal::Signal,
    warning: bool,
    /// The note was read by its reason's grammar (typed details), not known by its reason alone.
    typed: bool,
    /// A Karpenter nomination: a hash of the NodeClaim it names (new claims, one after another,
    /// that never take the Pod are churn).
    pub(super) claim: Option<u64>,
    /// How many times the nomination was made (the record's count), for a nomination.
    nominations: u32,
    /// A hash of the reason's wire string.
    reason: u64,
    /// The record has no note (a `get pods` STATUS, a status block's `Reason:` alone).
    bare: bool,
    /// The note is the readers' own words for a status (`container X status: R`).
    synthetic: bool,
}

fn hash_of(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The NodeClaim a `Nominated` note names (`Pod should schedule on: nodeclaim/gpu-x`), hashed.
fn nominated_claim(record: &EventRecord) -> Option<u64> {
    if record.reason != "Nominated" {
        return None;
    }
    let (_, rest) = record.note.split_once("nodeclaim/")?;
    let name = rest.split([',', ' ']).next().filter(|n| !n.is_empty())?;
    Some(hash_of(name))
}

impl Reading {
    /// The reading of the `index`th record of an object.
    pub(super) fn of(record: &EventRecord, index: usize) -> Reading {
        // A pasted row without a Type column: a reason the catalogue only knows as a Warning
        // is one.
        let always_warning = || {
            record.reason.reason().is_some_and(|r| {
                let types = r.info().types;
                !types.is_empty() && types.iter().all(|t| *t == EventType::Warning)
            })
        };
        Reading {
            time: record.last_timestamp,
            index,
            signal: signal::read(record),
            warning: record.type_ == Some(EventType::Warning) || (record.type_.is_none() && always_warning()),
            // A note cut by the paste was typed from part of itself, and a message quoted without
            // its reason (`inferredReason`) comes without the rest of the Pod's events: no High
            // on either.
            typed: record.details.as_ref().is_some_and(|d| !matches!(d, crate::details::Details::Unrecognized))
                && !record.has_flag(crate::Flag::CutInPaste)
                && !record.has_flag(crate::Flag::InferredReason),
            claim: nominated_claim(record),
            nominations: if record.reason == "Nominated" { record.count } else { 0 },
            reason: hash_of(record.reason.as_str()),
            bare: record.note.trim().is_empty(),
            // The readers' own `container NAME status: REASON` (a `get pods` STATUS).
            synthetic: record.has_flag(crate::Flag::FromStatus)
                && record.note.strip_suffix(record.reason.as_str()).is_some_and(|n| n.ends_with(" status: ")),
        }
    }
}

/// Where a phase is in a Pod's lifecycle, for the phases that follow one another.
fn lifecycle(phase: Phase) -> Option<u8> {
    match phase {
        Phase::Pending => Some(0),
        Phase::ContainerCreating => Some(1),
        Phase::Running => Some(2),
        _ => None,
    }
}

/// The current phase: the newest record's, unless a record within [`CLOCK_SKEW`] of it is
/// further in the lifecycle (a kubelet event implies the Pod was scheduled).
fn current_phase(readings: &[Reading]) -> Phase {
    let mut phased = readings.iter().filter_map(|r| r.signal.phase.map(|p| (r.time, p)));
    let Some((newest_time, newest)) = phased.next() else {
        return Phase::Unknown;
    };
    let close = |time: Option<chrono::DateTime<chrono::Utc>>| match (time, newest_time) {
        (Some(a), Some(b)) => (b - a).abs() <= CLOCK_SKEW,
        _ => false,
    };
    // Only a Pending or ContainerCreating reading is corrected: any later one is newer news.
    let Some(rank) = lifecycle(newest).filter(|rank| *rank < 2) else {
        return newest;
    };
    phased
        .take_while(|(time, _)| close(*time))
        .find(|(_, p)| lifecycle(*p).is_none_or(|later| later > rank))
        .map_or(newest, |(_, p)| p)
}

/// Nominations of one NodeClaim, counted, from which it is taken as never becoming ready: a GPU
/// node launches and initializes in minutes, and Karpenter nominates about once a minute while
/// it waits (its events are de-duplicated per pass).
const RENOMINATIONS: u32 = 10;

/// Whether `cause` accounts for the evidence of `other`, so that `other` does not contradict it.
pub(super) fn explains(cause: Cause, other: Cause) -> bool {
    let provisioning = matches!(cause, Cause::NodeExpansionPending | Cause::NodeExpansionFailed);
    provisioning && matches!(other, Cause::InsufficientGpu | Cause::InsufficientResources)
}

/// The other known causes `readings` (sorted by [`conclude`]) support, surest then newest
/// first, each at most Medium: not `cause`, not one `cause` explains, and not the container
/// setup errors that follow an admission failure (phase `Failed`).
pub(super) fn alternatives(readings: &[Reading], phase: Phase, cause: Cause) -> Vec<(Cause, Confidence)> {
    let mut found: Vec<(Cause, Confidence)> = Vec::new();
    let supported = readings.iter().flat_map(|r| {
        let also = r.signal.also.zip(r.signal.cause).map(|(also, (_, confidence))| (also, confidence));
        r.signal.cause.into_iter().chain(also).map(move |cause| (r, cause))
    });
    for (r, (other, confidence)) in supported {
        let fallout = phase == Phase::Failed && r.signal.phase == Some(Phase::ContainerCreating);
        if other == cause || other == Cause::Unknown || explains(cause, other) || fallout {
            continue;
        }
        let confidence = confidence.min(Confidence::Medium);
        match found.iter_mut().find(|(c, _)| *c == other) {
            Some(entry) => entry.1 = entry.1.max(confidence),
            None => found.push((other, confidence)),
        }
    }
    // Stable: equal confidence keeps the newest first.
    found.sort_by_key(|(_, confidence)| std::cmp::Reverse(*confidence));
    found
}

/// Phase, cause and confidence of one object from its readings (sorted latest first here);
/// `None` when nothing is wrong.
pub(super) fn conclude(readings: &mut [Reading], on_node: bool) -> Option<(Phase, Cause, Confidence)> {
    if !readings.iter().any(|r| r.warning || r.signal.cause.is_some()) {
        return None;
    }
    // A bare record of a reason another record of the object has with its note (the STATUS of
    // `kubectl get pods` beside the describe's `Message:`) says nothing the other does not: its
    // cause is the other's, read from the note, and it is no evidence of its own.
    let noted: std::collections::HashSet<u64> =
        readings.iter().filter(|r| !r.bare && !r.synthetic).map(|r| r.reason).collect();
    // Nor does a bare record of another reason outweigh a record whose note names a cause (a
    // `NotTriggerScaleUp` row pasted without its message after the FitError it answers): its
    // phase stays, its cause from the reason alone goes.
    let named_cause = readings.iter().any(|r| !r.bare && r.signal.cause.is_some_and(|(c, _)| c != Cause::Unknown));
    // A status in the readers' own words defers only to a record of its reason with the
    // runtime's (the container's message beside its `get pods` STATUS).
    for reading in readings.iter_mut().filter(|r| {
        (r.bare && (noted.contains(&r.reason) || named_cause)) || (r.synthetic && noted.contains(&r.reason))
    }) {
        reading.signal.cause = None;
    }
    // Latest first. Equal times (ages in a pasted table are coarse) keep the input's order,
    // reversed: kubectl lists events oldest first.
    readings.sort_by_key(|r| std::cmp::Reverse((r.time, r.index)));
    let phase = current_phase(readings);
    let causes = || readings.iter().filter_map(|r| r.signal.cause.map(|c| (c, r.signal.phase)));
    // The newest known cause in the current phase, a record's own error before a later summary
    // of it (the kubelet's `Unable to attach or mount volumes ... timed out`); else the newest
    // known cause; else unknown.
    let known = |(c, _): &((Cause, Confidence), Option<Phase>)| c.0 != Cause::Unknown;
    let specific = readings
        .iter()
        .filter(|r| !r.signal.summary && r.signal.phase == Some(phase))
        .filter_map(|r| r.signal.cause.filter(|(c, _)| *c != Cause::Unknown).map(|c| (c, r.signal.phase)))
        .next();
    let (cause, newest_confidence) = specific
        .or_else(|| causes().filter(known).find(|(_, p)| *p == Some(phase)))
        .or_else(|| causes().find(known))
        .map(|(c, _)| c)
        .or_else(|| causes().next().map(|(c, _)| c))
        .unwrap_or((Cause::Unknown, Confidence::Low));
    // On a Node, a faulty GPU (an Xid, `fallen off the bus`) outranks a later OOM kill: the
    // fault ends every GPU workload there, the kill one container (a node's events are not
    // one Pod's lifecycle, so the newest is not the root).
    let (cause, newest_confidence) = match causes().find(|((c, _), _)| *c == Cause::DeviceFault) {
        Some((fault, _)) if on_node && matches!(cause, Cause::ContainerOom | Cause::HostOom) => fault,
        _ => (cause, newest_confidence),
    };
    // A scale-up that failed for the Pod explains the shortage it was asked to fix, whichever
    // was recorded last: the failure is the root (a node group in backoff, a stockout).
    let (cause, newest_confidence) = match readings
        .iter()
        .filter(|r| !r.signal.summary && r.signal.phase == Some(phase))
        .find_map(|r| r.signal.cause.filter(|(c, _)| *c == Cause::NodeExpansionFailed))
    {
        Some(failed) if explains(failed.0, cause) => failed,
        _ => (cause, newest_confidence),
    };
    // The surest record of the cause decides (a bare `Error: ImagePullBackOff` after the pull
    // error that says `401 Unauthorized`).
    let mut confidence =
        causes().filter(|((c, _), _)| *c == cause).map(|((_, conf), _)| conf).max().unwrap_or(newest_confidence);
    // An admission failure ends the Pod (phase Failed): later mount or sandbox errors are its
    // fallout, not the cause (the kubelet still tries to set up a Pod it rejected).
    if let Some(&((root, root_confidence), _)) =
        causes().find(|((c, _), p)| *p == Some(Phase::Failed) && *c != Cause::Unknown).as_ref()
        && phase == Phase::ContainerCreating
    {
        return Some((Phase::Failed, root, root_confidence.min(Confidence::Medium)));
    }
    // Nominations of new NodeClaims, one after another, that never take the Pod: the nodes
    // never become ready (churn), not "should schedule when the node is ready".
    let mut claims: Vec<u64> = readings.iter().filter_map(|r| r.claim).collect();
    claims.sort_unstable();
    claims.dedup();
    // One claim nominated again and again (Karpenter nominates at each provisioning pass while
    // the claim is in flight) never became a node the Pod could use either.
    let renominated = readings.iter().map(|r| r.nominations).max().unwrap_or(0) >= RENOMINATIONS;
    if (claims.len() >= 2 || renominated)
        && phase == Phase::Pending
        && matches!(cause, Cause::NodeExpansionPending | Cause::InsufficientGpu | Cause::InsufficientResources)
    {
        return Some((Phase::Pending, Cause::NodeNeverReady, Confidence::Medium));
    }
    // High means the typed details say so: a cause known from reasons alone is at most Medium.
    let typed = readings.iter().any(|r| r.typed && r.signal.cause.is_some_and(|(c, _)| c == cause));
    if !typed {
        confidence = confidence.min(Confidence::Medium);
    }
    // Not knowing the cause is never a sure reading of it.
    if cause == Cause::Unknown {
        confidence = Confidence::Low;
    }
    // Evidence for another known cause contradicts this one, one step less sure; unless this
    // cause explains it (nodes being added explain the shortage that asked for them).
    if causes().any(|((c, _), _)| c != cause && c != Cause::Unknown && !explains(cause, c)) {
        confidence = match confidence {
            Confidence::High => Confidence::Medium,
            _ => Confidence::Low,
        };
    }
    // An object that got past the phase of its problem (Scheduled after FailedScheduling,
    // Started after BackOff) is not stuck. Problems outside the Pending → ContainerCreating →
    // Running line (a crash loop, an admission failure) come before Running.
    let problem_rank = readings
        .iter()
        .filter(|r| r.signal.cause.is_some_and(|(c, _)| c == cause))
        .filter_map(|r| r.signal.phase)
        .map(|p| lifecycle(p).unwrap_or(1))
        .max();
    let resolved = match (lifecycle(phase), problem_rank) {
        (Some(now), Some(problem)) => now > problem,
        _ => false,
    };
    if resolved {
        return None;
    }
    Some((phase, cause, confidence))
}
