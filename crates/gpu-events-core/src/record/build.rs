//! Building records by hand (a test, a tool that has its own event source) and converting object
//! references to and from k8s-openapi's, so a record never needs to be assembled field by field.

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1 as core;

use super::convert::RawEvent;
use super::{EventRecord, ObjectReference};
use crate::EventType;

impl From<&core::ObjectReference> for ObjectReference {
    /// Empty strings become `None`, as for every input.
    fn from(r: &core::ObjectReference) -> Self {
        ObjectReference::from_fields(
            [&r.kind, &r.api_version, &r.namespace, &r.name, &r.uid, &r.field_path].map(|f| f.as_deref()),
        )
    }
}

impl From<core::ObjectReference> for ObjectReference {
    fn from(r: core::ObjectReference) -> Self {
        ObjectReference::from(&r)
    }
}

impl From<&ObjectReference> for core::ObjectReference {
    /// `resourceVersion` is not kept by a record; it stays `None`.
    fn from(r: &ObjectReference) -> Self {
        core::ObjectReference {
            kind: r.kind.clone(),
            api_version: r.api_version.clone(),
            namespace: r.namespace.clone(),
            name: r.name.clone(),
            uid: r.uid.clone(),
            field_path: r.field_path.clone(),
            resource_version: None,
        }
    }
}

impl From<ObjectReference> for core::ObjectReference {
    fn from(r: ObjectReference) -> Self {
        core::ObjectReference::from(&r)
    }
}

impl ObjectReference {
    /// A reference to `kind` `name` in `namespace` (`None` for cluster-scoped kinds); empty
    /// strings are `None`.
    pub fn new(kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectReference::from_fields([Some(kind), None, namespace, Some(name), None, None])
    }
}

/// Builds an [`EventRecord`] through the same normalization every decoder uses: the reason is
/// resolved against the catalogue, the note parsed by its grammar, flags set, `count` at least 1.
///
/// ```
/// use gpu_events_core::{EventRecord, EventType, ObjectReference};
///
/// let record = EventRecord::builder("FailedScheduling")
///     .type_(EventType::Warning)
///     .regarding(ObjectReference::new("Pod", Some("ml"), "llama-0"))
///     .note("0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
///     .count(3)
///     .build();
/// assert!(record.known);
/// assert_eq!(record.count, 3);
/// assert_eq!(record.regarding.name.as_deref(), Some("llama-0"));
/// assert!(record.details.is_some(), "the FitError grammar read the note");
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct EventRecordBuilder {
    cluster: Option<String>,
    reason: String,
    type_: Option<String>,
    note: Option<String>,
    regarding: ObjectReference,
    related: Option<ObjectReference>,
    action: Option<String>,
    reporting_controller: Option<String>,
    reporting_instance: Option<String>,
    count: Option<u32>,
    first_timestamp: Option<DateTime<Utc>>,
    last_timestamp: Option<DateTime<Utc>>,
    event_name: Option<String>,
    event_namespace: Option<String>,
    event_uid: Option<String>,
}

impl EventRecord {
    /// A builder for a record of `reason` (any string: unknown reasons are kept as they are).
    pub fn builder(reason: impl Into<String>) -> EventRecordBuilder {
        EventRecordBuilder { reason: reason.into(), ..EventRecordBuilder::default() }
    }
}

impl EventRecordBuilder {
    /// The cluster the record is from (set by the exporter and the CLI, never by an Event).
    pub fn cluster(mut self, cluster: impl Into<String>) -> Self {
        self.cluster = Some(cluster.into());
        self
    }
    /// `type`.
    pub fn type_(mut self, type_: EventType) -> Self {
        self.type_ = Some(type_.as_str().to_owned());
        self
    }
    /// `note` (core/v1 `message`).
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
    /// `regarding` (core/v1 `involvedObject`).
    pub fn regarding(mut self, regarding: impl Into<ObjectReference>) -> Self {
        self.regarding = regarding.into();
        self
    }
    /// `related`.
    pub fn related(mut self, related: impl Into<ObjectReference>) -> Self {
        self.related = Some(related.into());
        self
    }
    /// `action`.
    pub fn action(mut self, action: impl Into<String>) -> Self {
        self.action = Some(action.into());
        self
    }
    /// `reportingController`; it also decides between catalogue rows sharing a wire string.
    pub fn reporting_controller(mut self, controller: impl Into<String>) -> Self {
        self.reporting_controller = Some(controller.into());
        self
    }
    /// `reportingInstance`.
    pub fn reporting_instance(mut self, instance: impl Into<String>) -> Self {
        self.reporting_instance = Some(instance.into());
        self
    }
    /// Occurrences (`series.count` / `count`); 0 reads as 1, as for every input.
    pub fn count(mut self, count: u32) -> Self {
        self.count = Some(count);
        self
    }
    /// First and last observation (UTC).
    pub fn timestamps(mut self, first: DateTime<Utc>, last: DateTime<Utc>) -> Self {
        self.first_timestamp = Some(first);
        self.last_timestamp = Some(last);
        self
    }
    /// The Event object's `metadata.name`, `metadata.namespace` and `metadata.uid`.
    pub fn event(mut self, name: impl Into<String>, namespace: impl Into<String>, uid: impl Into<String>) -> Self {
        self.event_name = Some(name.into());
        self.event_namespace = Some(namespace.into());
        self.event_uid = Some(uid.into());
        self
    }

    /// The record, normalized as a decoded one would be.
    pub fn build(self) -> EventRecord {
        let count = self.count.map(|c| i32::try_from(c).unwrap_or(i32::MAX));
        let mut record = RawEvent {
            reason: Some(&self.reason),
            type_: self.type_.as_deref(),
            note: self.note.as_deref(),
            regarding: self.regarding,
            related: self.related,
            action: self.action.as_deref(),
            reporting_controller: self.reporting_controller.as_deref(),
            reporting_instance: self.reporting_instance.as_deref(),
            count,
            first: [self.first_timestamp, None, None],
            last: [self.last_timestamp, None, None],
            name: self.event_name.as_deref(),
            namespace: self.event_namespace.as_deref(),
            uid: self.event_uid.as_deref(),
            ..RawEvent::default()
        }
        .into_record();
        record.cluster = self.cluster;
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flag;

    #[test]
    fn object_references_convert_both_ways_with_the_empty_is_none_rule() {
        let theirs = core::ObjectReference {
            kind: Some("Pod".into()),
            namespace: Some("ml".into()),
            name: Some("llama-0".into()),
            uid: Some(String::new()),
            field_path: Some("spec.containers{main}".into()),
            resource_version: Some("42".into()),
            ..Default::default()
        };
        let ours = ObjectReference::from(&theirs);
        assert_eq!(ours.uid, None, "an empty uid is no uid");
        assert_eq!(ours.field_path.as_deref(), Some("spec.containers{main}"));
        let back = core::ObjectReference::from(&ours);
        assert_eq!(back.kind.as_deref(), Some("Pod"));
        assert_eq!(back.resource_version, None, "records keep no resourceVersion");
        assert_eq!(ObjectReference::from(back), ours);
    }

    #[test]
    fn a_built_record_is_normalized_like_a_decoded_one() {
        let record = EventRecord::builder("FailedScheduling")
            .type_(EventType::Normal)
            .note("(combined from similar events): 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.")
            .regarding(ObjectReference::new("Pod", Some("ml"), "x"))
            .count(0)
            .build();
        assert_eq!(record.count, 1);
        assert!(record.note.starts_with("0/2 nodes"));
        assert!(record.has_flag(Flag::CombinedFromSimilarEvents));
        assert!(record.has_flag(Flag::TypeMismatch), "FailedScheduling is a Warning");
        assert_eq!(record.cluster, None);
        let unknown = EventRecord::builder("SomethingNew").note("free text").cluster("gpu-lab").build();
        assert_eq!(unknown.cluster.as_deref(), Some("gpu-lab"));
        assert!(!unknown.known);
        assert_eq!(unknown.reason.as_str(), "SomethingNew");
        assert_eq!(unknown.details, None);
    }
}
