//! The fast path: one Event's JSON read straight into borrowed fields, then into an
//! [`EventRecord`], without a `serde_json::Value` or the k8s-openapi types in between.
//!
//! Why: the k8s-openapi Event owns every string of the object (labels, annotations, managed
//! fields, resource versions) and the general path also builds a `Value` first; the record needs
//! a dozen fields. Here the strings the record does not keep are borrowed from the input and
//! the fields it does not carry are skipped (`IgnoredAny`), so a typed record costs about what
//! reading the JSON into the k8s-openapi Event costs (see `BENCHMARKS.md`).
//!
//! The fast path is an optimization, never a second set of rules: it takes only plain Events
//! whose API it can name (as the general path would); anything else (watch envelopes, Pods,
//! records read back, Lists, duplicate keys, a wrongly typed field it reads) returns `None` and
//! the general path decides, with its error messages and field paths. Times are read with the
//! k8s-openapi `Time`/`MicroTime` types, so they parse exactly as the general path parses them.
//! Fields the record does not carry (labels, annotations, `managedFields`, ...) are skipped
//! without being type-checked, and without recursion: an Event whose annotations nest 100 000
//! levels deep reads, where a whole-value parse stops at serde_json's recursion limit.

use std::borrow::Cow;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use serde::{Deserialize, Deserializer};

use super::api::{Api, api_of_version};
use crate::EventRecord;
use crate::record::{ObjectReference, RawEvent};
use crate::time::{from_micro_time, from_time};

/// An optional string, borrowed from the input when it has no escapes.
type Str<'a> = Option<Text<'a>>;

/// A string borrowed from the input when it has no escapes. (serde's own `Cow<str>` always
/// copies unless it is a direct `#[serde(borrow)]` field, which an `Option` is not.)
struct Text<'a>(Cow<'a, str>);

impl Text<'_> {
    fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// The string of an optional field.
fn str_of<'s>(s: &'s Str<'_>) -> Option<&'s str> {
    s.as_ref().map(Text::as_str)
}

/// The union of the `core/v1` and `events.k8s.io/v1` Event fields the record reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireEvent<'a> {
    #[serde(borrow, default, deserialize_with = "event_api_version")]
    api_version: Str<'a>,
    #[serde(borrow, default, deserialize_with = "event_kind")]
    kind: Str<'a>,
    #[serde(borrow, default)]
    metadata: Option<WireMeta<'a>>,
    #[serde(borrow, default)]
    reason: Str<'a>,
    #[serde(borrow, default, rename = "type")]
    type_: Str<'a>,
    #[serde(borrow, default)]
    action: Str<'a>,
    #[serde(borrow, default)]
    related: Option<WireReference<'a>>,
    #[serde(borrow, default)]
    reporting_instance: Str<'a>,
    #[serde(default)]
    event_time: Option<MicroTime>,
    #[serde(default)]
    series: Option<WireSeries>,

    // core/v1 only.
    #[serde(borrow, default)]
    involved_object: Option<WireReference<'a>>,
    #[serde(borrow, default)]
    message: Str<'a>,
    #[serde(borrow, default)]
    source: Option<WireSource<'a>>,
    #[serde(default)]
    first_timestamp: Option<Time>,
    #[serde(default)]
    last_timestamp: Option<Time>,
    #[serde(default)]
    count: Option<i32>,
    #[serde(borrow, default)]
    reporting_component: Str<'a>,

    // events.k8s.io/v1 only.
    #[serde(borrow, default)]
    regarding: Option<WireReference<'a>>,
    #[serde(borrow, default)]
    note: Str<'a>,
    #[serde(borrow, default)]
    reporting_controller: Str<'a>,
    #[serde(borrow, default)]
    deprecated_source: Option<WireSource<'a>>,
    #[serde(default)]
    deprecated_first_timestamp: Option<Time>,
    #[serde(default)]
    deprecated_last_timestamp: Option<Time>,
    #[serde(default)]
    deprecated_count: Option<i32>,

    // Keys of what is not a plain Event (a record read back, a watch envelope, a List, a Pod):
    // refused at once, so a List is not read to its end only to be handed on.
    #[serde(rename = "known", default, deserialize_with = "refuse")]
    _known: (),
    #[serde(rename = "object", default, deserialize_with = "refuse")]
    _object: (),
    #[serde(rename = "items", default, deserialize_with = "refuse")]
    _items: (),
    #[serde(rename = "status", default, deserialize_with = "refuse")]
    _status: (),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireMeta<'a> {
    #[serde(borrow, default)]
    name: Str<'a>,
    #[serde(borrow, default)]
    namespace: Str<'a>,
    #[serde(borrow, default)]
    uid: Str<'a>,
    #[serde(default)]
    creation_timestamp: Option<Time>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireReference<'a> {
    #[serde(borrow, default)]
    kind: Str<'a>,
    #[serde(borrow, default)]
    api_version: Str<'a>,
    #[serde(borrow, default)]
    namespace: Str<'a>,
    #[serde(borrow, default)]
    name: Str<'a>,
    #[serde(borrow, default)]
    uid: Str<'a>,
    #[serde(borrow, default)]
    field_path: Str<'a>,
}

#[derive(Deserialize)]
struct WireSource<'a> {
    #[serde(borrow, default)]
    component: Str<'a>,
    #[serde(borrow, default)]
    host: Str<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireSeries {
    #[serde(default)]
    count: Option<i32>,
    #[serde(default)]
    last_observed_time: Option<MicroTime>,
}

/// A key the fast path leaves to the general path.
fn refuse<'de, D: Deserializer<'de>>(_: D) -> Result<(), D::Error> {
    Err(serde::de::Error::custom("not a plain Event"))
}

/// `kind`, refused at once unless it is `Event`.
fn event_kind<'de: 'a, 'a, D: Deserializer<'de>>(deserializer: D) -> Result<Str<'a>, D::Error> {
    let kind: Str<'a> = Option::deserialize(deserializer)?;
    match str_of(&kind) {
        None | Some("Event") => Ok(kind),
        Some(_) => Err(serde::de::Error::custom("not an Event")),
    }
}

/// `apiVersion`, refused at once unless it names an Event API.
fn event_api_version<'de: 'a, 'a, D: Deserializer<'de>>(deserializer: D) -> Result<Str<'a>, D::Error> {
    let version: Str<'a> = Option::deserialize(deserializer)?;
    match str_of(&version) {
        Some(v) if api_of_version(v).is_none() => Err(serde::de::Error::custom("not an Event API")),
        _ => Ok(version),
    }
}

/// The record of a plain Event, or `None` when the general path must decide (see the module
/// docs). `list_api` is the API of the enclosing `EventList`, if any.
pub(super) fn record(bytes: &[u8], list_api: Option<Api>) -> Option<EventRecord> {
    // A struct also deserializes from a JSON array; only objects are Events.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let event: WireEvent = serde_json::from_slice(bytes).ok()?;
    event.into_record(list_api)
}

/// The record of the plain Event object that starts `bytes` (at its `{`) and the length of its
/// text, or `None` (not a plain Event, or not complete in `bytes`). What follows the object is
/// not read.
pub(super) fn record_prefix(bytes: &[u8], list_api: Option<Api>) -> Option<(EventRecord, usize)> {
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<WireEvent>();
    let event = stream.next()?.ok()?;
    let end = stream.byte_offset();
    Some((event.into_record(list_api)?, end))
}

/// The string of an optional field, `None` when empty (as the general path reads them).
fn text<'s>(s: &'s Str<'_>) -> Option<&'s str> {
    str_of(s).filter(|s| !s.is_empty())
}

impl WireReference<'_> {
    fn reference(&self) -> ObjectReference {
        ObjectReference::from_fields(
            [&self.kind, &self.api_version, &self.namespace, &self.name, &self.uid, &self.field_path].map(str_of),
        )
    }
}

impl WireEvent<'_> {
    fn into_record(self, list_api: Option<Api>) -> Option<EventRecord> {
        let kind = str_of(&self.kind);
        let event_field = self.reason.is_some()
            || self.message.is_some()
            || self.note.is_some()
            || self.involved_object.is_some()
            || self.regarding.is_some()
            || self.event_time.is_some();
        if kind.is_none() && !event_field {
            return None;
        }
        let api = match str_of(&self.api_version) {
            Some(version) => api_of_version(version)?,
            // Without either, the general path guesses the API from which keys are present
            // (null values included), which these fields cannot see.
            None => list_api?,
        };
        let meta = self.metadata.as_ref();
        let event_time = self.event_time.as_ref().and_then(from_micro_time);
        let created = meta.and_then(|m| m.creation_timestamp.as_ref()).and_then(from_time);
        let series_last = self.series.as_ref().and_then(|s| s.last_observed_time.as_ref()).and_then(from_micro_time);
        let series_count = self.series.as_ref().and_then(|s| s.count);
        let mut raw = RawEvent {
            reason: text(&self.reason),
            type_: text(&self.type_),
            action: text(&self.action),
            related: self.related.as_ref().map(WireReference::reference),
            reporting_instance: text(&self.reporting_instance),
            series_count,
            name: meta.and_then(|m| text(&m.name)),
            namespace: meta.and_then(|m| text(&m.namespace)),
            uid: meta.and_then(|m| text(&m.uid)),
            ..RawEvent::default()
        };
        match api {
            Api::Core => {
                let source = self.source.as_ref();
                raw.note = str_of(&self.message);
                raw.regarding = self.involved_object.as_ref().map(WireReference::reference).unwrap_or_default();
                raw.reporting_controller =
                    text(&self.reporting_component).or_else(|| source.and_then(|s| text(&s.component)));
                raw.reporting_instance = raw.reporting_instance.or_else(|| source.and_then(|s| text(&s.host)));
                raw.count = self.count;
                raw.first = [self.first_timestamp.as_ref().and_then(from_time), event_time, created];
                raw.last = [series_last, self.last_timestamp.as_ref().and_then(from_time), event_time];
                raw.api_version = Some("v1");
            }
            Api::Events => {
                // events.k8s.io/v1 requires `series.lastObservedTime`; let the general path say so.
                if self.series.as_ref().is_some_and(|s| s.last_observed_time.is_none()) {
                    return None;
                }
                let source = self.deprecated_source.as_ref();
                raw.note = str_of(&self.note);
                raw.regarding = self.regarding.as_ref().map(WireReference::reference).unwrap_or_default();
                raw.reporting_controller =
                    text(&self.reporting_controller).or_else(|| source.and_then(|s| text(&s.component)));
                raw.reporting_instance = raw.reporting_instance.or_else(|| source.and_then(|s| text(&s.host)));
                raw.count = self.deprecated_count;
                raw.first = [self.deprecated_first_timestamp.as_ref().and_then(from_time), event_time, created];
                raw.last = [series_last, self.deprecated_last_timestamp.as_ref().and_then(from_time), event_time];
                raw.api_version = Some("events.k8s.io/v1");
            }
        }
        let mut record = raw.into_record();
        // Keep the version as received (events.k8s.io/v1beta1 reads with the v1 fields).
        if let Some(version) =
            str_of(&self.api_version).filter(|v| v.starts_with("events.k8s.io/") && *v != "events.k8s.io/v1")
        {
            record.event_api_version = Some(version.to_owned());
        }
        Some(record)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::decode::value::PendingItem;
    use crate::decode::{Decoder, ItemLocation};

    /// The general path's record for the same text.
    fn general(bytes: &[u8], list_api: Option<Api>) -> Option<EventRecord> {
        let value: Value = serde_json::from_slice(bytes).ok()?;
        let location = ItemLocation { document: 1, item: None, line: None, name: None };
        PendingItem::new(value, location, list_api).into_record().ok().flatten()
    }

    fn assert_same(event: &Value, list_api: Option<Api>, expect_fast: bool) {
        let bytes = serde_json::to_vec(event).unwrap();
        let fast = record(&bytes, list_api);
        assert_eq!(fast.is_some(), expect_fast, "fast path taken? {event}");
        if let Some(fast) = fast {
            assert_eq!(Some(fast), general(&bytes, list_api), "{event}");
        }
    }

    /// Notes, reasons and reporters from every real case text, as both APIs' JSON.
    fn case_events() -> Vec<(Value, Value)> {
        let mut out = Vec::new();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases");
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            for record in Decoder::from_str(&text).flatten() {
                let regarding = json!({"kind": record.regarding.kind, "name": record.regarding.name,
                    "namespace": record.regarding.namespace, "uid": "5f0c2a10-aaaa", "fieldPath": "spec.containers{cuda}"});
                out.push((
                    json!({"apiVersion": "v1", "kind": "Event",
                        "metadata": {"name": "x.1", "namespace": "ml", "uid": "u-1", "creationTimestamp": "2026-11-30T05:40:05Z",
                            "labels": {"a": "b"}, "managedFields": [{"manager": "kubelet"}]},
                        "involvedObject": regarding, "reason": record.reason.as_str(), "message": record.note,
                        "type": record.type_, "source": {"component": record.reporting_controller, "host": "node-a"},
                        "count": record.count, "firstTimestamp": "2026-11-30T05:40:05Z", "lastTimestamp": "2026-11-30T06:03:48Z",
                        "eventTime": null, "reportingComponent": "", "reportingInstance": ""}),
                    json!({"apiVersion": "events.k8s.io/v1", "kind": "Event",
                        "metadata": {"name": "x.1", "namespace": "ml", "uid": "u-1", "resourceVersion": "9"},
                        "regarding": regarding, "reason": record.reason.as_str(), "note": record.note, "type": record.type_,
                        "reportingController": record.reporting_controller, "reportingInstance": "node-a",
                        "action": "Scheduling", "eventTime": "2026-11-30T05:40:05.114520Z",
                        "series": {"count": record.count + 1, "lastObservedTime": "2026-11-30T06:03:48.000000Z"},
                        "related": {"kind": "Node", "name": "node-a"}}),
                ));
            }
        }
        assert!(out.len() > 50, "case texts give events: {}", out.len());
        out
    }

    #[test]
    fn the_fast_path_reads_every_case_event_as_the_general_path_does() {
        for (core, events) in case_events() {
            assert_same(&core, None, true);
            assert_same(&events, None, true);
            // Inside an EventList without apiVersion on the items.
            for (mut event, api) in [(core, Api::Core), (events, Api::Events)] {
                event.as_object_mut().unwrap().remove("apiVersion");
                assert_same(&event, Some(api), true);
                // Without either, the general path guesses from the keys.
                assert_same(&event, None, false);
            }
        }
    }

    #[test]
    fn variants_read_the_same_or_are_left_to_the_general_path() {
        let base = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "reason": "FailedScheduling",
            "note": "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.", "type": "Warning",
            "regarding": {"kind": "Pod", "name": "p"}, "eventTime": "2026-11-30T05:40:05.114520Z",
            "reportingController": "default-scheduler"});
        let with = |key: &str, value: Value| {
            let mut event = base.clone();
            event[key] = value;
            event
        };
        // Read by the fast path, the same as by the general one.
        assert_same(&base, None, true);
        assert_same(&with("apiVersion", json!("events.k8s.io/v1beta1")), None, true);
        assert_same(&with("note", json!("(combined from similar events): say \"hi\"\n\u{e9}")), None, true);
        assert_same(&with("reason", json!("SomethingNew")), None, true);
        assert_same(&with("type", json!("")), None, true);
        assert_same(&with("reportingController", Value::Null), None, true);
        assert_same(&with("deprecatedSource", json!({"component": "kubelet", "host": "n"})), None, true);
        assert_same(&with("deprecatedCount", json!(7)), None, true);
        assert_same(&with("regarding", Value::Null), None, true);
        assert_same(&with("metadata", json!({"name": "e\u{1}", "uid": ""})), None, true);
        // Left to the general path (its errors, or what it does with other objects).
        assert_same(&with("kind", json!("Pod")), None, false);
        assert_same(&with("apiVersion", json!("apps/v1")), None, false);
        assert_same(&with("series", json!({"count": 2})), None, false);
        assert_same(&with("deprecatedCount", json!("7")), None, false);
        assert_same(&with("eventTime", json!("yesterday")), None, false);
        assert_same(&with("known", json!(true)), None, false);
        assert_same(&json!({"type": "ADDED", "object": base}), None, false);
        assert_same(&json!({"kind": "EventList", "apiVersion": "v1", "items": [base]}), None, false);
        assert_same(&json!([base]), None, false);
        let duplicate = br#"{"apiVersion":"v1","reason":"A","reason":"B","involvedObject":{}}"#;
        assert!(record(duplicate, None).is_none(), "duplicate keys: last wins in the general path");
    }

    #[test]
    fn a_prefix_is_read_without_what_follows() {
        let text = br#"{"apiVersion":"v1","kind":"Event","reason":"Pulled","involvedObject":{"kind":"Pod"}} {"not": "#;
        let (record, end) = record_prefix(text, None).unwrap();
        assert_eq!(record.reason.as_str(), "Pulled");
        assert_eq!(&text[end..end + 2], b" {");
        assert!(record_prefix(&text[..40], None).is_none(), "an object cut by the buffer is not read");
    }
}
