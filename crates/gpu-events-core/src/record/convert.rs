//! `core/v1` and `events.k8s.io/v1` Events (and the text formats of `crate::decode`) into
//! [`EventRecord`]: all go through [`RawEvent`], so the normalization rules live in one place.

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events;

use super::{EventRecord, Flag, ObjectReference};
use crate::details::{Details, Note};
use crate::time::{from_micro_time, from_time};
use crate::{EventType, Reason, ReasonName};

/// client-go `EventCorrelator` aggregation prefix (tools/record/events_cache.go).
const COMBINED_PREFIX: &str = "(combined from similar events): ";
use super::note::{NOTE_LIMIT, TRUNCATION_MARKER};

/// The fields every input shares, before normalization.
#[derive(Default)]
pub(crate) struct RawEvent<'a> {
    pub(crate) reason: Option<&'a str>,
    pub(crate) type_: Option<&'a str>,
    pub(crate) note: Option<&'a str>,
    pub(crate) regarding: ObjectReference,
    pub(crate) related: Option<ObjectReference>,
    pub(crate) action: Option<&'a str>,
    pub(crate) reporting_controller: Option<&'a str>,
    pub(crate) reporting_instance: Option<&'a str>,
    pub(crate) series_count: Option<i32>,
    pub(crate) count: Option<i32>,
    /// Candidates for the first observation; the oldest wins.
    pub(crate) first: [Option<DateTime<Utc>>; 3],
    /// Candidates for the last observation; the newest wins.
    pub(crate) last: [Option<DateTime<Utc>>; 3],
    pub(crate) name: Option<&'a str>,
    pub(crate) namespace: Option<&'a str>,
    pub(crate) uid: Option<&'a str>,
    /// `v1` or `events.k8s.io/v1`; `None` for text formats, which do not say.
    pub(crate) api_version: Option<&'static str>,
    /// Times come from relative ages (`4m43s`) resolved against a reference time.
    pub(crate) approximate_time: bool,
    /// Read from a Pod status block, not an Event.
    pub(crate) from_status: bool,
    /// The reason was recognized from the note alone (the input gave none).
    pub(crate) inferred_reason: bool,
    /// The input has no type for the event at all (a row without a TYPE column): a reason the
    /// catalogue knows with one type takes it (flag `inferredType`).
    pub(crate) infer_type: bool,
    /// The reason is a status word (a Pod phase such as `Pending`), not an event reason: it is
    /// not looked up in the catalogue (Kueue records a `Pending` of its own, about Workloads).
    pub(crate) status_word: bool,
}

/// Rows sharing a wire string (the gang reasons of TensorFusion's scheduler plugin and gang
/// manager) that the reporter did not tell apart are told apart by the note's form: a
/// `Waiting for gang members: 2/4 ready` note is the gang manager's, whoever reports it.
pub(crate) fn note_form_row(reason: &ReasonName, details: Option<&Details>, reporter: Option<&str>) -> Option<Reason> {
    let resolved = reason.reason()?;
    if reporter.is_some_and(|r| resolved.info().reported_by(r)) {
        return None;
    }
    let Some(Details::TensorFusion(details)) = details else { return None };
    let row = Reason::TensorFusion(details.emission()?.reason);
    (row != resolved && row.as_str() == reason.as_str()).then_some(row)
}

/// Kubeflow's controllers copy the events of the objects they own onto their own object
/// (notebook-controller's `Reissued from %s/%s: %s`, the lower-cased kind, the name, the
/// message: components/notebook-controller/controllers/notebook_controller.go): the object
/// it came from, and its own message.
fn reissued_from(note: &str) -> Option<(ObjectReference, &str)> {
    let rest = note.strip_prefix("Reissued from ")?;
    let (object, message) = rest.split_once(": ")?;
    let (kind, name) = object.split_once('/')?;
    if kind.is_empty() || name.is_empty() || object.contains(' ') {
        return None;
    }
    let kind = crate::record::kinds::kind_info(kind).map_or_else(|| kind.to_owned(), |info| info.kind.to_owned());
    Some((ObjectReference { kind: Some(kind), name: Some(name.to_owned()), ..ObjectReference::default() }, message))
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.is_empty())
}

impl ObjectReference {
    /// A reference from its fields as received, in the order kind, apiVersion, namespace, name,
    /// uid, fieldPath; empty strings are `None` (the rule for every input).
    pub(crate) fn from_fields(fields: [Option<&str>; 6]) -> Self {
        let [kind, api_version, namespace, name, uid, field_path] =
            fields.map(|f| f.filter(|f| !f.is_empty()).map(str::to_owned));
        ObjectReference { kind, api_version, namespace, name, uid, field_path }
    }
}

impl RawEvent<'_> {
    pub(crate) fn into_record(self) -> EventRecord {
        let (note, combined) = match self.note {
            Some(note) => match note.strip_prefix(COMBINED_PREFIX) {
                Some(rest) => (rest.to_owned(), true),
                None => (note.to_owned(), false),
            },
            None => (String::new(), false),
        };
        let mut type_ = self.type_.map(EventType::parse);
        let mut reason = if self.status_word {
            ReasonName::uncatalogued(self.reason.unwrap_or(""))
        } else {
            ReasonName::resolve_with(
                self.reason.unwrap_or(""),
                self.reporting_controller,
                self.regarding.kind.as_deref(),
                type_.as_ref(),
            )
        };
        let info = reason.info();

        // An event re-issued on another object keeps its own message after the prefix.
        let reissued = reissued_from(&note);
        let message = reissued.as_ref().map_or(note.as_str(), |(_, message)| message);
        // An empty note carries nothing to parse (and nothing is lost).
        let details = info.and_then(|i| i.grammar).filter(|_| !message.is_empty()).map(|grammar| {
            grammar.parse(
                &Note::new(message).with_action(self.action).with_reporting_controller(self.reporting_controller),
            )
        });

        if let Some(row) = note_form_row(&reason, details.as_ref(), self.reporting_controller) {
            reason = ReasonName::from(row);
        }
        let info = reason.info();

        let mut flags = Vec::new();
        if matches!(details, Some(Details::Unrecognized)) {
            flags.push(Flag::UnrecognizedNote);
        }
        // A cut inside a multi-byte character becomes U+FFFD when the note is re-encoded, so
        // the length can differ from the limit by a few bytes.
        if note.ends_with(TRUNCATION_MARKER) && (NOTE_LIMIT - 3..=NOTE_LIMIT + 6).contains(&note.len()) {
            flags.push(Flag::Truncated);
        }
        if combined {
            flags.push(Flag::CombinedFromSimilarEvents);
        }
        if self.approximate_time {
            flags.push(Flag::ApproximateTime);
        }
        if self.from_status {
            flags.push(Flag::FromStatus);
        }
        if self.inferred_reason {
            flags.push(Flag::InferredReason);
        }
        // A reason that concerns one kind of object names it where the input did not; not on
        // an event re-issued from that object onto another.
        let mut regarding = self.regarding;
        if regarding.kind.is_none()
            && reissued.is_none()
            && let Some([kind]) = info.map(|i| i.objects)
        {
            regarding.kind = Some((*kind).to_owned());
            flags.push(Flag::InferredKind);
        } else if regarding.kind.is_none()
            && reissued.is_none()
            && let Some(kind) = self.reporting_controller.and_then(crate::record::kinds::of_controller)
        {
            regarding.kind = Some(kind.to_owned());
            flags.push(Flag::InferredKind);
            // `Error creating: pods "NAME-" is forbidden`: the Pods' generateName is the
            // controller's object's name and a dash.
            if regarding.name.is_none()
                && let Some((_, rest)) = note.split_once("pods \"")
                && let Some((generate, _)) = rest.split_once("-\" is forbidden")
                && !generate.is_empty()
                && !generate.contains([' ', '"'])
            {
                regarding.name = Some(generate.to_owned());
            }
        }

        // A row without its TYPE column, of a reason the catalogue knows with one type only.
        if type_.is_none()
            && self.infer_type
            && let Some([only]) = info.map(|i| i.types)
        {
            type_ = Some(only.clone());
            flags.push(Flag::InferredType);
        }
        if let (Some(info), Some(observed)) = (info, &type_)
            && !info.expects_type(observed)
        {
            flags.push(Flag::TypeMismatch);
        }
        flags.sort_unstable();

        let count =
            self.series_count.filter(|c| *c > 0).or(self.count.filter(|c| *c > 0)).map_or(1, |c| c.unsigned_abs());

        EventRecord {
            cluster: None,
            known: info.is_some(),
            group: info.map(|i| i.group),
            source: info.map(|i| i.source),
            reason,
            type_,
            regarding,
            related: self.related.or_else(|| reissued.map(|(object, _)| object)),
            action: self.action.map(str::to_owned),
            reporting_controller: self.reporting_controller.map(str::to_owned),
            reporting_instance: self.reporting_instance.map(str::to_owned),
            note,
            count,
            first_timestamp: self.first.into_iter().flatten().min(),
            last_timestamp: self.last.into_iter().flatten().max(),
            event_name: self.name.map(str::to_owned),
            event_namespace: self.namespace.map(str::to_owned),
            event_uid: self.uid.map(str::to_owned),
            event_api_version: self.api_version.map(str::to_owned),
            details,
            flags,
        }
    }
}

impl From<&core::Event> for EventRecord {
    fn from(event: &core::Event) -> Self {
        let source = event.source.as_ref();
        let event_time = event.event_time.as_ref().and_then(from_micro_time);
        RawEvent {
            reason: non_empty(&event.reason),
            type_: non_empty(&event.type_),
            note: event.message.as_deref(),
            regarding: ObjectReference::from(&event.involved_object),
            related: event.related.as_ref().map(ObjectReference::from),
            action: non_empty(&event.action),
            reporting_controller: non_empty(&event.reporting_component)
                .or_else(|| source.and_then(|s| non_empty(&s.component))),
            reporting_instance: non_empty(&event.reporting_instance)
                .or_else(|| source.and_then(|s| non_empty(&s.host))),
            series_count: event.series.as_ref().and_then(|s| s.count),
            count: event.count,
            first: [
                event.first_timestamp.as_ref().and_then(from_time),
                event_time,
                event.metadata.creation_timestamp.as_ref().and_then(from_time),
            ],
            last: [
                event.series.as_ref().and_then(|s| s.last_observed_time.as_ref()).and_then(from_micro_time),
                event.last_timestamp.as_ref().and_then(from_time),
                event_time,
            ],
            name: non_empty(&event.metadata.name),
            namespace: non_empty(&event.metadata.namespace),
            uid: non_empty(&event.metadata.uid),
            api_version: Some("v1"),
            approximate_time: false,
            from_status: false,
            inferred_reason: false,
            status_word: false,
            infer_type: false,
        }
        .into_record()
    }
}

impl From<&events::Event> for EventRecord {
    fn from(event: &events::Event) -> Self {
        let source = event.deprecated_source.as_ref();
        let event_time = event.event_time.as_ref().and_then(from_micro_time);
        RawEvent {
            reason: non_empty(&event.reason),
            type_: non_empty(&event.type_),
            note: event.note.as_deref(),
            regarding: event.regarding.as_ref().map(ObjectReference::from).unwrap_or_default(),
            related: event.related.as_ref().map(ObjectReference::from),
            action: non_empty(&event.action),
            reporting_controller: non_empty(&event.reporting_controller)
                .or_else(|| source.and_then(|s| non_empty(&s.component))),
            reporting_instance: non_empty(&event.reporting_instance)
                .or_else(|| source.and_then(|s| non_empty(&s.host))),
            series_count: event.series.as_ref().map(|s| s.count),
            count: event.deprecated_count,
            first: [
                event.deprecated_first_timestamp.as_ref().and_then(from_time),
                event_time,
                event.metadata.creation_timestamp.as_ref().and_then(from_time),
            ],
            last: [
                event.series.as_ref().and_then(|s| from_micro_time(&s.last_observed_time)),
                event.deprecated_last_timestamp.as_ref().and_then(from_time),
                event_time,
            ],
            name: non_empty(&event.metadata.name),
            namespace: non_empty(&event.metadata.namespace),
            uid: non_empty(&event.metadata.uid),
            api_version: Some("events.k8s.io/v1"),
            approximate_time: false,
            from_status: false,
            inferred_reason: false,
            status_word: false,
            infer_type: false,
        }
        .into_record()
    }
}

impl From<core::Event> for EventRecord {
    fn from(event: core::Event) -> Self {
        EventRecord::from(&event)
    }
}

impl From<events::Event> for EventRecord {
    fn from(event: events::Event) -> Self {
        EventRecord::from(&event)
    }
}
