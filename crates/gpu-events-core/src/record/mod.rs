//! [`EventRecord`]: the normalized, stable record of one Kubernetes Event, from either API.
//!
//! The JSON shape (camelCase, like Kubernetes) is the record contract of `gpu-events`; `gpu-events
//! schema` prints its JSON Schema. Adding fields is compatible; renaming one is a breaking change.

mod build;
mod convert;
pub mod kinds;
mod note;

pub use build::EventRecordBuilder;

pub use note::{NOTE_LIMIT, TRUNCATION_MARKER, truncate_note};

pub(crate) use convert::{RawEvent, note_form_row};

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::Details;
use crate::{EventType, Group, ReasonName, Source};

/// One Kubernetes Event, normalized from `core/v1` or `events.k8s.io/v1`.
///
/// Build it with `From` on a k8s-openapi `api::core::v1::Event` or `api::events::v1::Event`
/// (by value or reference), with [`crate::decode`] from JSON/YAML text, or by hand with
/// [`EventRecord::builder`] (`#[non_exhaustive]` keeps struct literals out, so that new fields stay
/// compatible).
///
/// Field rules (both APIs):
/// * `count` is `series.count`, else `count` (`deprecatedCount`), else 1.
/// * `lastTimestamp` is the newest of `series.lastObservedTime`, `lastTimestamp`
///   (`deprecatedLastTimestamp`) and `eventTime`; `firstTimestamp` the oldest of
///   `firstTimestamp` (`deprecatedFirstTimestamp`), `eventTime` and `metadata.creationTimestamp`.
/// * `reportingController` / `reportingInstance` fall back to `source.component` / `source.host`
///   (`deprecatedSource` on events.k8s.io) when empty.
/// * The client-go aggregation prefix `(combined from similar events): ` is removed from `note`
///   and recorded as [`Flag::CombinedFromSimilarEvents`].
/// * Empty strings are `None`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EventRecord {
    /// Cluster name, when the reader knows it (set by the exporter or the CLI, never by the Event).
    #[serde(default)]
    pub cluster: Option<String>,
    /// `reason`, exactly as recorded (unknown reasons included).
    pub reason: ReasonName,
    /// `type`, when present.
    #[serde(rename = "type", default)]
    pub type_: Option<EventType>,
    /// Whether the catalogue knows the reason.
    pub known: bool,
    /// The catalogue group of the reason, when known.
    #[serde(default)]
    pub group: Option<Group>,
    /// The catalogue source of the reason, when known.
    #[serde(default)]
    pub source: Option<Source>,
    /// The object the event is about (`regarding`, core/v1 `involvedObject`).
    #[serde(default)]
    pub regarding: ObjectReference,
    /// The secondary object (`related`), when any.
    #[serde(default)]
    pub related: Option<ObjectReference>,
    /// `action` (events.k8s.io/v1 and core/v1 events written through it).
    #[serde(default)]
    pub action: Option<String>,
    /// `reportingController` (core/v1 `reportingComponent`, else `source.component`).
    #[serde(default)]
    pub reporting_controller: Option<String>,
    /// `reportingInstance` (else core/v1 `source.host`).
    #[serde(default)]
    pub reporting_instance: Option<String>,
    /// `note` (core/v1 `message`), without the aggregation prefix; empty when absent.
    #[serde(default)]
    pub note: String,
    /// Number of occurrences, at least 1.
    #[schemars(range(min = 1))]
    pub count: u32,
    /// When the event was first observed (UTC; RFC 3339 with six fractional digits).
    #[serde(default, with = "crate::time::micros")]
    #[schemars(with = "Option<DateTime<Utc>>")]
    pub first_timestamp: Option<DateTime<Utc>>,
    /// When the event was last observed (UTC; RFC 3339 with six fractional digits).
    #[serde(default, with = "crate::time::micros")]
    #[schemars(with = "Option<DateTime<Utc>>")]
    pub last_timestamp: Option<DateTime<Utc>>,

    /// `metadata.name` of the Event object.
    #[serde(default)]
    pub event_name: Option<String>,
    /// `metadata.namespace` of the Event object (`default` for cluster-scoped objects).
    #[serde(default)]
    pub event_namespace: Option<String>,
    /// `metadata.uid` of the Event object.
    #[serde(default)]
    pub event_uid: Option<String>,
    /// The API the event was read from: `v1` (core) or `events.k8s.io/v1`.
    #[serde(default)]
    pub event_api_version: Option<String>,
    /// Typed fields of the note, when the reason's catalogue row has a grammar; `null` for unknown
    /// reasons and reasons whose note carries no data. `{"kind": "unrecognized"}` when the note
    /// does not match the grammar.
    #[serde(default)]
    pub details: Option<Details>,
    /// Observations about the record (sorted, no duplicates).
    #[serde(default)]
    pub flags: Vec<Flag>,
}

/// A reference to a Kubernetes object, as in `regarding` / `involvedObject` / `related`.
///
/// The same meaning as k8s-openapi's `core::v1::ObjectReference` (which the recorder writes),
/// without `resourceVersion` (it changes while the object stays the same, so a record does not
/// keep it) and with camelCase JSON; `From` converts both ways (a `resourceVersion` is dropped).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ObjectReference {
    /// Kind, e.g. `Pod`, `GPUPool`.
    #[serde(default)]
    pub kind: Option<String>,
    /// API version, e.g. `v1`, `tensor-fusion.ai/v1`.
    #[serde(default)]
    pub api_version: Option<String>,
    /// Namespace; `None` for cluster-scoped objects.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Name.
    #[serde(default)]
    pub name: Option<String>,
    /// UID.
    #[serde(default)]
    pub uid: Option<String>,
    /// Field path inside the object, e.g. `spec.containers{cuda}`.
    #[serde(default)]
    pub field_path: Option<String>,
}

/// An observation about a record. Serialized in camelCase.
///
/// `#[non_exhaustive]`: flags will be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Flag {
    /// The note began with client-go's `(combined from similar events): ` aggregation prefix
    /// (core/v1 EventCorrelator: more than 10 similar events in 10 minutes); it was removed.
    CombinedFromSimilarEvents,
    /// The observed `type` is not one the catalogue lists for this reason.
    TypeMismatch,
    /// `firstTimestamp`/`lastTimestamp` come from relative ages (`4m43s (x93 over 24m)` in
    /// `kubectl describe`, `LAST SEEN` in `kubectl get events`) resolved against a reference time,
    /// so they are as precise as the age (seconds to days).
    ApproximateTime,
    /// Not an Event: the `Reason`/`Message` of a Pod status block in a pasted `kubectl describe`
    /// (kubelet admission failures and evictions mirror their event there).
    FromStatus,
    /// Not an Event: a structured kubelet log line (`journalctl -u kubelet`) that names a Pod
    /// and logs the error kubelet records as that Pod's event at the same time (`msg: err` is
    /// the event's note, which a reason's grammar read; flag `inferredReason` too).
    FromLog,
    /// The event came from a watch `DELETED` notification: the Event object expired or was
    /// removed; it is not a new occurrence.
    Deleted,
    /// The note does not match its reason's grammar (`details` is `{"kind": "unrecognized"}`).
    UnrecognizedNote,
    /// The input did not name the regarding object's kind (a pasted Events section, a bare
    /// message): `regarding.kind` is the one kind the catalogue lists for the reason.
    InferredKind,
    /// The input gave no type (a row pasted without its TYPE column): `type` is the one type the
    /// catalogue lists for the reason.
    InferredType,
    /// The input gave no reason, only a message (a status `Message:` line, a message quoted in
    /// prose): the reason is the one whose grammar recognizes the message.
    InferredReason,
    /// The note was cut by its recorder at the 1024-byte limit: it ends with kube-scheduler's and
    /// Kueue's ` ...` marker and is 1024 bytes long (give or take the few bytes a multi-byte
    /// character cut in half gains when it is re-encoded as U+FFFD).
    Truncated,
    /// The pasted row ends at the column where the paste was cut (`cut -c1-140`, a pane's
    /// edge): rows of different messages all end there, so this note is missing its end (and a
    /// grammar may have read a cut word, `Insuf`, as a whole one).
    CutInPaste,
}

impl EventRecord {
    /// The typed details as `T`: a grammar's struct ([`FitError`](crate::details::scheduling::FitError),
    /// [`GangMembersWaiting`](crate::details::tensorfusion::GangMembersWaiting), ...) or a family enum
    /// ([`SchedulingDetails`](crate::details::SchedulingDetails), ...); `None` when the record has no details,
    /// other ones, or [`Details::Unrecognized`].
    ///
    /// ```
    /// use gpu_events_core::EventRecord;
    /// use gpu_events_core::details::scheduling::FitError;
    /// use gpu_events_core::details::tensorfusion::GangMembersWaiting;
    ///
    /// let record = EventRecord::builder("FailedScheduling")
    ///     .note("0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
    ///     .build();
    /// let fit = record.details_as::<FitError>().expect("the FitError grammar read the note");
    /// assert_eq!(fit.total_nodes, Some(4));
    /// assert!(record.details_as::<GangMembersWaiting>().is_none());
    /// ```
    pub fn details_as<T: crate::details::DetailsType + ?Sized>(&self) -> Option<&T> {
        self.details.as_ref().and_then(T::from_details)
    }

    /// Whether the record carries `flag`.
    pub fn has_flag(&self, flag: Flag) -> bool {
        self.flags.contains(&flag)
    }

    /// The JSON Schema of the record contract (what `gpu-events schema` prints).
    pub fn json_schema() -> schemars::Schema {
        schemars::schema_for!(EventRecord)
    }

    /// Resolve [`EventRecord::reason`]'s catalogue row again from what the record says (its
    /// reportingController, regarding kind, type and note form), as the decoders did when they
    /// built it.
    ///
    /// A record deserialized with plain serde has only the reason's wire string, which resolves
    /// to the string's primary row: `FailedScheduling` written by Karpenter reads back as
    /// kube-scheduler's until this is called. The decoders (for `gpu-events explain -o json`
    /// output read back) and [`crate::diagnose::Diagnosis`]'s `Deserialize` call it.
    pub fn resolve_reason(&mut self) {
        self.reason = crate::ReasonName::resolve_with(
            self.reason.as_str(),
            self.reporting_controller.as_deref(),
            self.regarding.kind.as_deref(),
            self.type_.as_ref(),
        );
        if let Some(row) = note_form_row(&self.reason, self.details.as_ref(), self.reporting_controller.as_deref()) {
            self.reason = crate::ReasonName::from(row);
        }
    }
}
