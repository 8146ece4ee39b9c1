//! What one publish asks for: reason, type, action, note and related object, from typed details
//! ([`IntoEvent`]) or from the raw escape hatch ([`RawEvent`]).

use std::borrow::Cow;

use gpu_events_core::EventType;
use gpu_events_core::details::tensorfusion::{Emission, TensorFusionDetails};
use gpu_events_core::details::{Details, Note};
use gpu_events_core::reason::TensorFusionReason;
use gpu_events_core::record::{NOTE_LIMIT, truncate_note};
use k8s_openapi::api::core::v1::ObjectReference;

use crate::error::InvalidEvent;
use crate::validate::short_field;

/// `type` as the API server accepts it on events.k8s.io/v1: `Normal` or `Warning`
/// (events/validation.go `ValidateEventCreate`); any other is refused before a write.
fn checked(event_type: EventType) -> Result<EventType, InvalidEvent> {
    match event_type {
        EventType::Normal | EventType::Warning => Ok(event_type),
        other => Err(InvalidEvent::Type(other.as_str().to_owned())),
    }
}

/// One event as it will be written: everything but the regarding object and the reporter.
///
/// Built by [`IntoEvent::into_event`]; the note is already cut to the API server's 1024 bytes
/// (see [`gpu_events_core::record::truncate_note`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EventSpec {
    /// `reason` (UpperCamelCase, at most 128 bytes).
    pub reason: Cow<'static, str>,
    /// `type`: `Normal` or `Warning` (the others are refused when the spec is built).
    pub event_type: EventType,
    /// `action` (at most 128 bytes).
    pub action: Cow<'static, str>,
    /// `note`, at most 1024 bytes.
    pub note: String,
    /// `related`, the secondary object.
    pub related: Option<ObjectReference>,
    /// The regarding kinds the catalogue allows, checked against the object at publish time;
    /// `None` for a [`RawEvent`] whose reason is not in the catalogue (it may be about anything).
    pub kinds: Option<Cow<'static, [&'static str]>>,
}

impl EventSpec {
    fn from_emission(emission: Emission, note: &str) -> Result<Self, InvalidEvent> {
        let info = emission.reason.info();
        Ok(EventSpec {
            reason: Cow::Borrowed(info.wire),
            event_type: checked(emission.event_type)?,
            action: Cow::Borrowed(emission.action),
            note: truncate_note(note).into_owned(),
            related: None,
            kinds: Some(Cow::Borrowed(info.objects)),
        })
    }

    /// The same event with a `related` (secondary) object.
    pub fn with_related(mut self, related: ObjectReference) -> Self {
        self.related = Some(related);
        self
    }
}

/// Anything that says what event to write: TensorFusion details (the note is rendered exactly as
/// TensorFusion's Go code writes it), the fixed-note reasons, [`RawEvent`].
pub trait IntoEvent {
    /// The event, or why the API server would refuse it.
    ///
    /// # Errors
    /// [`InvalidEvent`] when a field breaks the API server's rules, or the details belong to a
    /// retired format that no current reason writes ([`InvalidEvent::NeedsDetails`]).
    fn into_event(self) -> Result<EventSpec, InvalidEvent>;
}

impl IntoEvent for EventSpec {
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        Ok(self)
    }
}

impl IntoEvent for TensorFusionDetails {
    /// Reason, type and action from [`TensorFusionDetails::emission`], note from
    /// [`TensorFusionDetails::render`].
    ///
    /// A note that would not parse back to these details (a free-text value holding the
    /// format's own separators) is [`InvalidEvent::Ambiguous`]; a note cut to the limit is not
    /// checked, since it cannot read back whole.
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        let emission = self.emission().ok_or(InvalidEvent::NeedsDetails(self.kind()))?;
        let note = self.render();
        if note.len() <= NOTE_LIMIT
            && let Some(grammar) = emission.reason.info().grammar
        {
            let parsed = grammar.parse(&Note::new(&note).with_action(Some(emission.action)));
            if parsed != Details::TensorFusion(self) {
                return Err(InvalidEvent::Ambiguous { note });
            }
        }
        EventSpec::from_emission(emission, &note)
    }
}

impl IntoEvent for TensorFusionReason {
    /// A reason whose note carries no data (`DefragBlockedBySourceNode`, ...), with its fixed note.
    /// Any other reason is [`InvalidEvent::NeedsDetails`].
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        let (emission, note) = self.fixed_note().ok_or(InvalidEvent::NeedsDetails(self.as_str()))?;
        EventSpec::from_emission(emission, note)
    }
}

/// An event outside the catalogue, checked like every other: reason and action required and at
/// most 128 bytes, the note cut to 1024 bytes.
///
/// ```
/// use gpu_events_recorder::{EventType, IntoEvent, RawEvent};
/// let event = RawEvent::new(EventType::Warning, "QuotaCheckFailed", "CheckQuota", "quota service unreachable");
/// assert_eq!(event.into_event().unwrap().reason, "QuotaCheckFailed");
/// assert!(RawEvent::new(EventType::Normal, "", "Do", "x").into_event().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RawEvent {
    event_type: EventType,
    reason: String,
    action: String,
    note: String,
    related: Option<ObjectReference>,
}

impl RawEvent {
    /// An event with these fields (validated by [`IntoEvent::into_event`]).
    pub fn new(
        event_type: EventType,
        reason: impl Into<String>,
        action: impl Into<String>,
        note: impl Into<String>,
    ) -> Self {
        RawEvent { event_type, reason: reason.into(), action: action.into(), note: note.into(), related: None }
    }

    /// With a `related` (secondary) object.
    pub fn related(mut self, related: ObjectReference) -> Self {
        self.related = Some(related);
        self
    }
}

impl IntoEvent for RawEvent {
    /// A reason the catalogue knows keeps its kinds: `ManagedNodeCreated` raw is still about
    /// GPUPools only.
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        short_field("reason", &self.reason)?;
        short_field("action", &self.action)?;
        let rows = gpu_events_core::Reason::all_with_wire(&self.reason);
        let kinds = (!rows.is_empty()).then(|| {
            let mut kinds: Vec<&'static str> = rows.iter().flat_map(|r| r.info().objects.iter().copied()).collect();
            kinds.sort_unstable();
            kinds.dedup();
            Cow::Owned(kinds)
        });
        Ok(EventSpec {
            reason: Cow::Owned(self.reason),
            event_type: checked(self.event_type)?,
            action: Cow::Owned(self.action),
            note: match truncate_note(&self.note) {
                Cow::Borrowed(_) => self.note,
                Cow::Owned(cut) => cut,
            },
            related: self.related,
            kinds,
        })
    }
}

/// Details whose regarding kind is known to the compiler: [`Recorder::publish`](crate::Recorder::publish)
/// accepts them only on an object of type [`Publishable::Regarding`], so a GPUPool reason cannot
/// be published on a Pod.
pub trait Publishable: IntoEvent {
    /// The Rust type of the object the reason is about (`Pod`, [`GpuPool`](crate::GpuPool), ...).
    type Regarding: kube::Resource<DynamicType = ()>;
}

/// The Rust type of each kind of object the core crate's TensorFusion list names.
macro_rules! regarding_type {
    (Pod) => {
        k8s_openapi::api::core::v1::Pod
    };
    (Job) => {
        k8s_openapi::api::batch::v1::Job
    };
    (GpuPool) => {
        crate::GpuPool
    };
    (GpuNode) => {
        crate::GpuNode
    };
    (TensorFusionWorkload) => {
        crate::TensorFusionWorkload
    };
    (TensorFusionConnection) => {
        crate::TensorFusionConnection
    };
}

/// Implements [`IntoEvent`] and [`Publishable`] for each TensorFusion details struct, with the object kind
/// the core crate's one list declares for it (the catalogue's `objects`, checked by a test).
macro_rules! tensorfusion_publishable {
    ($($Details:ident => $Regarding:ident;)+) => {
        $(
            impl IntoEvent for gpu_events_core::details::tensorfusion::$Details {
                fn into_event(self) -> Result<EventSpec, InvalidEvent> {
                    TensorFusionDetails::from(self).into_event()
                }
            }
            impl Publishable for gpu_events_core::details::tensorfusion::$Details {
                type Regarding = regarding_type!($Regarding);
            }
        )+
    };
}

gpu_events_core::for_each_tensorfusion_note!(tensorfusion_publishable);

/// The TensorFusion reasons whose note carries no data, as values that know their object's type.
pub mod fixed {
    use super::{EventSpec, IntoEvent, InvalidEvent, Publishable, TensorFusionReason};

    macro_rules! fixed_note_reasons {
        ($($(#[doc = $doc:literal])+ $Name:ident => $Regarding:ty;)+) => {
            $(
                $(#[doc = $doc])+
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                pub struct $Name;

                impl IntoEvent for $Name {
                    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
                        TensorFusionReason::$Name.into_event()
                    }
                }

                impl Publishable for $Name {
                    type Regarding = $Regarding;
                }
            )+
        };
    }

    fixed_note_reasons! {
        /// `GPUInterconnectTopologyFallback` on a Pod: `Topology data incomplete, fell back to NUMA or unknown for some nodes`.
        GPUInterconnectTopologyFallback => k8s_openapi::api::core::v1::Pod;
        /// `NodeExpansionCandidatesExhausted` on a Pod: every Karpenter expansion preference failed.
        NodeExpansionCandidatesExhausted => k8s_openapi::api::core::v1::Pod;
        /// `DefragBlockedBySourceNode` on a GPUPool: a defrag source node is still draining.
        DefragBlockedBySourceNode => crate::GpuPool;
        /// `DefragBlockedByEvictedPod` on a GPUPool: a defrag-evicted Pod is still pending reschedule.
        DefragBlockedByEvictedPod => crate::GpuPool;
    }
}
