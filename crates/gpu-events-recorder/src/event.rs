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
/// accepts them only on an object of type [`Publishable::Regarding`] or of a type declared
/// [`SameKind`] as it, so a GPUPool reason cannot be published on a Pod.
pub trait Publishable: IntoEvent {
    /// The Rust type of the object the reason is about (`Pod`, [`GpuPool`](crate::GpuPool), ...).
    type Regarding: kube::Resource<DynamicType = ()>;
}

/// `Self` is an object type of the same kind and API group as `R`, so [`Recorder::publish`](crate::Recorder::publish)
/// takes it where a reason is about `R` objects.
///
/// Every type is its own kind. Your own type of a kind this crate has a handle for (a kopium-generated `GPUPool`
/// from TensorFusion's CRDs, with its spec and status) takes one line:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use gpu_events_core::details::tensorfusion::NodeCreated;
/// use gpu_events_recorder::{FakeRecorder, GpuPool, SameKind};
/// # mod generated {
/// #     use std::borrow::Cow;
/// #     use kube::api::ObjectMeta;
/// #     // What `#[derive(CustomResource)]` writes for kopium's output, trimmed.
/// #     #[derive(Clone, Debug, Default)]
/// #     pub struct GPUPool { pub metadata: ObjectMeta, pub spec: GPUPoolSpec }
/// #     #[derive(Clone, Debug, Default)]
/// #     pub struct GPUPoolSpec { pub default_using_local_gpu: Option<bool> }
/// #     impl GPUPool {
/// #         pub fn new(name: &str, spec: GPUPoolSpec) -> Self {
/// #             GPUPool { metadata: ObjectMeta { name: Some(name.into()), ..Default::default() }, spec }
/// #         }
/// #     }
/// #     impl kube::Resource for GPUPool {
/// #         type DynamicType = ();
/// #         type Scope = kube::core::ClusterResourceScope;
/// #         fn kind(_: &()) -> Cow<'_, str> { "GPUPool".into() }
/// #         fn group(_: &()) -> Cow<'_, str> { "tensor-fusion.ai".into() }
/// #         fn version(_: &()) -> Cow<'_, str> { "v1".into() }
/// #         fn plural(_: &()) -> Cow<'_, str> { "gpupools".into() }
/// #         fn meta(&self) -> &ObjectMeta { &self.metadata }
/// #         fn meta_mut(&mut self) -> &mut ObjectMeta { &mut self.metadata }
/// #     }
/// # }
/// // kopium's output: #[derive(CustomResource)] #[kube(group = "tensor-fusion.ai", version = "v1", kind = "GPUPool")]
/// use generated::GPUPool;
///
/// impl SameKind<GpuPool> for GPUPool {}
///
/// let fake = FakeRecorder::new("tensor-fusion.ai/pool-controller").unwrap();
/// let pool = GPUPool::new("pool-a", Default::default());
/// fake.recorder().publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &pool).unwrap();
/// # fake.recorder().flush().await;
/// # assert_eq!(fake.events()[0].regarding.as_ref().and_then(|r| r.name.as_deref()), Some("pool-a"));
/// # }
/// ```
///
/// The declaration is checked when an event is published: a type whose kind is not one the reason is about is
/// [`InvalidEvent::WrongKind`], one of another API group [`InvalidEvent::WrongGroup`]. An object whose kind is
/// known only at run time (a `DynamicObject`, an `ObjectReference`) goes through
/// [`Recorder::publish_ref`](crate::Recorder::publish_ref), checked there.
#[diagnostic::on_unimplemented(
    message = "this reason is not recorded on `{Self}` objects: it is about `{R}` objects",
    label = "not an object of the reason's kind",
    note = "publish it on a `{R}` (or on your own type of that kind and API group, such as a kopium-generated CRD type, once your crate declares `impl SameKind<{R}> for YourType {{}}`; a type of another crate cannot be declared so)",
    note = "an object whose kind is known only at run time goes through `Recorder::publish_ref`, which checks the kind as it publishes"
)]
pub trait SameKind<R: kube::Resource<DynamicType = ()>>: kube::Resource<DynamicType = ()> {}

impl<R: kube::Resource<DynamicType = ()>> SameKind<R> for R {}

/// An event with a `related` (secondary) object: built by [`WithRelated::new`] (or
/// [`Recorder::publish_related`](crate::Recorder::publish_related)), publishable wherever the event is.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use gpu_events_core::details::tensorfusion::GangMembersWaiting;
/// use gpu_events_recorder::{FakeRecorder, WithRelated};
/// use k8s_openapi::api::core::v1::{Node, Pod};
/// use kube::api::ObjectMeta;
/// use kube::Resource;
///
/// let fake = FakeRecorder::new("tensor-fusion.ai/my-controller").unwrap();
/// let meta = |name: &str, namespace: Option<&str>| ObjectMeta { name: Some(name.into()), namespace: namespace.map(Into::into), ..Default::default() };
/// let pod = Pod { metadata: meta("llama-0", Some("ml")), ..Default::default() };
/// let node = Node { metadata: meta("gpu-1", None), ..Default::default() };
/// fake.recorder().publish_related(GangMembersWaiting::new(2, 4), &pod, &node).unwrap();
/// // The same, as a value: for publish_and_wait, or to hand around.
/// let event = WithRelated::new(GangMembersWaiting::new(3, 4), node.object_ref(&()));
/// fake.recorder().publish(event, &pod).unwrap();
/// fake.recorder().flush().await;
/// let events = fake.events();
/// assert_eq!(events.len(), 2);
/// assert!(events.iter().all(|e| e.related.as_ref().and_then(|r| r.name.as_deref()) == Some("gpu-1")));
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct WithRelated<E> {
    event: E,
    related: ObjectReference,
}

impl<E> WithRelated<E> {
    /// `event` with `related` as its secondary object (replacing one the event had).
    pub fn new(event: E, related: ObjectReference) -> Self {
        WithRelated { event, related }
    }
}

impl<E: IntoEvent> IntoEvent for WithRelated<E> {
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        Ok(self.event.into_event()?.with_related(self.related))
    }
}

impl<E: Publishable> Publishable for WithRelated<E> {
    type Regarding = E::Regarding;
}

/// kube's own event (`kube::runtime::events::Event`), so that `recorder.publish_ref(&event, &reference)` reads as
/// kube's `Recorder::publish(&event, &reference)`: checked as a [`RawEvent`] (a catalogued reason keeps its
/// kinds), `secondary` written as `related`.
#[cfg(feature = "kube-runtime")]
impl IntoEvent for kube::runtime::events::Event {
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        let raw = RawEvent::new(kube_type(self.type_), self.reason, self.action, self.note.unwrap_or_default());
        match self.secondary {
            Some(related) => raw.related(related),
            None => raw,
        }
        .into_event()
    }
}

/// As the owned event (its fields copied).
#[cfg(feature = "kube-runtime")]
impl IntoEvent for &kube::runtime::events::Event {
    fn into_event(self) -> Result<EventSpec, InvalidEvent> {
        let raw =
            RawEvent::new(kube_type(self.type_), &self.reason, &self.action, self.note.clone().unwrap_or_default());
        match &self.secondary {
            Some(related) => raw.related(related.clone()),
            None => raw,
        }
        .into_event()
    }
}

#[cfg(feature = "kube-runtime")]
fn kube_type(event_type: kube::runtime::events::EventType) -> EventType {
    match event_type {
        kube::runtime::events::EventType::Normal => EventType::Normal,
        kube::runtime::events::EventType::Warning => EventType::Warning,
    }
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
