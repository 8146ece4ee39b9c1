//! A decoded document (JSON value) into Event items: Lists, arrays and watch envelopes are
//! unwrapped; each Event is read with the k8s-openapi type of its API.

use std::collections::VecDeque;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::api::{Api, api_of_version};
use super::error::json_error_at;
use super::pod::PodStatus;
use super::raw::{MAX_ITEM_BYTES, RawDocument, RawItem};
use super::{DecodeError, ItemLocation};
use crate::EventRecord;
use crate::record::Flag;

/// One item waiting to be converted, with what its container said about it.
pub(super) struct PendingItem {
    value: Value,
    location: ItemLocation,
    /// The API implied by the enclosing `EventList`, if any.
    list_api: Option<Api>,
    /// Set when the container itself is malformed; reported in the item's place.
    invalid: Option<String>,
    /// A streamed List element not parsed yet: its text and where it starts (line, column).
    raw: Option<(Vec<u8>, usize, usize)>,
}

impl PendingItem {
    /// An element cut out of a streamed List: parsed now, so a syntax error in it is this
    /// item's error and the next items still come.
    pub(super) fn raw(item: RawItem) -> Self {
        let location = ItemLocation { document: item.document, item: Some(item.index), line: None, name: None };
        let list_api = item.list_api;
        if item.oversized {
            return PendingItem {
                invalid: Some(format!("item larger than {MAX_ITEM_BYTES} bytes skipped (line {})", item.line)),
                ..PendingItem::new(Value::Null, location, list_api)
            };
        }
        PendingItem {
            raw: Some((item.bytes, item.line, item.column)),
            ..PendingItem::new(Value::Null, location, list_api)
        }
    }

    pub(super) fn new(value: Value, location: ItemLocation, list_api: Option<Api>) -> Self {
        PendingItem { value, location, list_api, invalid: None, raw: None }
    }
}

/// A top-level object read as text: its record when it is a plain Event (the fast path), else
/// its items queued in `out`. A syntax error is fatal (returned); an oversized object is an item
/// error and decoding goes on.
pub(super) fn document(raw: RawDocument, out: &mut VecDeque<PendingItem>) -> Result<Option<EventRecord>, DecodeError> {
    let location = ItemLocation { document: raw.document, item: None, line: None, name: None };
    if raw.oversized {
        out.push_back(PendingItem {
            invalid: Some(format!("document larger than {MAX_ITEM_BYTES} bytes skipped (line {})", raw.line)),
            ..PendingItem::new(Value::Null, location, None)
        });
        return Ok(None);
    }
    if let Some(record) = super::wire::record(&raw.bytes, None) {
        return Ok(Some(record));
    }
    let value = serde_json::from_slice(&raw.bytes).map_err(|err| json_error_at(&err, raw.line, raw.column))?;
    expand(value, raw.document, out);
    Ok(None)
}

/// Split a top-level document into items: a List's `items`, an array's elements, a watch
/// envelope's `object`, or the document itself.
pub(super) fn expand(document: Value, index: usize, out: &mut VecDeque<PendingItem>) {
    let location = |item| ItemLocation { document: index, item, line: None, name: None };
    match document {
        Value::Array(elements) => {
            for (i, value) in elements.into_iter().enumerate() {
                out.push_back(PendingItem::new(value, location(Some(i)), None));
            }
        }
        Value::Object(mut map) if is_list(&map) => {
            let list_api = map.get("apiVersion").and_then(Value::as_str).and_then(api_of_version);
            match map.remove("items") {
                Some(Value::Array(items)) => {
                    for (i, value) in items.into_iter().enumerate() {
                        out.push_back(PendingItem::new(value, location(Some(i)), list_api));
                    }
                }
                // `"items": null` is how Go writes an empty list.
                Some(Value::Null) | None => {}
                Some(other) => out.push_back(PendingItem {
                    invalid: Some(format!("`items` is {}, expected an array", type_name(&other))),
                    ..PendingItem::new(Value::Null, location(None), None)
                }),
            }
        }
        value => out.push_back(PendingItem::new(value, location(None), None)),
    }
}

fn is_list(map: &Map<String, Value>) -> bool {
    match map.get("kind").and_then(Value::as_str) {
        Some(kind) => kind.ends_with("List"),
        None => map.get("items").is_some_and(Value::is_array),
    }
}

/// `{"type": "ADDED", "object": {...}}` as written by a watch.
fn is_watch_envelope(map: &Map<String, Value>) -> bool {
    !map.contains_key("kind")
        && map.get("object").is_some_and(Value::is_object)
        && map.get("type").is_some_and(Value::is_string)
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl PendingItem {
    /// The record, `None` for items that carry no event (a watch `BOOKMARK`), or the item's error.
    pub(super) fn into_record(self) -> Result<Option<EventRecord>, DecodeError> {
        let PendingItem { mut value, mut location, list_api, invalid, raw } = self;
        let fail = |location: ItemLocation, message: String| Err(DecodeError::Item { location, message });
        if let Some(message) = invalid {
            return fail(location, message);
        }
        if let Some((bytes, line, column)) = raw {
            if let Some(record) = super::wire::record(&bytes, list_api) {
                return Ok(Some(record));
            }
            value = match serde_json::from_slice(&bytes) {
                Ok(value) => value,
                Err(err) => return fail(location, json_error_at(&err, line, column).to_string()),
            };
        }
        let mut map = match value {
            Value::Object(map) => map,
            other => {
                return fail(location, format!("expected an Event object, found {}", type_name(&other)));
            }
        };
        let mut deleted = false;
        if is_watch_envelope(&map) {
            let kind = map.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
            let object = map.remove("object").unwrap_or_default();
            match kind.as_str() {
                "BOOKMARK" => return Ok(None),

                "ERROR" => {
                    let message = object.get("message").and_then(Value::as_str).unwrap_or("no message");
                    return fail(location, format!("watch ERROR: {message}"));
                }
                _ => {
                    deleted = kind == "DELETED";

                    // `is_watch_envelope` checked that `object` is an object.
                    if let Value::Object(inner) = object {
                        map = inner;
                    }
                }
            }
        }
        location.name = map.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).map(str::to_owned);
        projected_object(&mut map);
        // A Pod's `.status` pasted without its key (`kubectl get pod -o json | jq .status`): a
        // phase beside fields only a Pod status has.
        const POD_STATUS_FIELDS: &[&str] = &["startTime", "conditions", "containerStatuses", "hostIP", "qosClass"];
        if !map.contains_key("kind")
            && map.get("phase").is_some_and(Value::is_string)
            && POD_STATUS_FIELDS.iter().any(|key| map.contains_key(*key))
        {
            map = Map::from_iter([("status".to_owned(), Value::Object(map))]);
        }
        // A Pod, or its `status:` pasted alone: what its status says.
        let kind = map.get("kind").and_then(Value::as_str);
        let bare_status = kind.is_none() && !EVENT_FIELDS.iter().any(|key| map.contains_key(*key));
        if (kind == Some("Pod") || bare_status) && map.get("status").is_some_and(Value::is_object) {
            return Ok(PodStatus::of_object(&map).and_then(|pod| pod.record()));
        }
        // A container's state cut out of a Pod (`lastState: {terminated: ...}`).
        if kind.is_none()
            && let Some(pod) = PodStatus::of_state_fragment(&map)
        {
            return Ok(pod.record());
        }
        if let Some(kind) = map.get("kind").and_then(Value::as_str)
            && kind != "Event"
        {
            return Err(DecodeError::NotAnEvent { location, kind: kind.to_owned() });
        }
        // JSON Lines of records (`gpu-events explain -o json`) read back as they were written.
        if !map.contains_key("kind") && map.contains_key("known") && map.contains_key("regarding") {
            return read::<EventRecord>(Value::Object(map))
                .map(|mut record| {
                    // The reason string alone does not say which of several entries it was.
                    record.resolve_reason();
                    Some(record)
                })
                .map_err(|message| DecodeError::Item { location, message });
        }
        if !map.contains_key("kind") {
            let object = ["involvedObject", "regarding"].iter().any(|key| map.contains_key(*key));
            let text = |key: &str| map.get(key).and_then(Value::as_str);
            // A condition (`{type, status: True|False|Unknown, reason, message}`) of a Node, a
            // Deployment, a CRD: the object's state, not an event about it.
            let condition = matches!(text("status"), Some("True" | "False" | "Unknown")) && text("type").is_some();
            let what = if condition && !object {
                Some(format!("a status condition (type {})", text("type").unwrap_or_default()))
            } else if !object && !map.contains_key("reason") {
                // A log record (`{"level": ..., "msg"/"message": ...}`), a values file, front
                // matter: an Event has a reason or the object it is about.
                Some("a JSON or YAML value with no reason and no involvedObject/regarding".to_owned())
            } else {
                None
            };
            if let Some(what) = what {
                // A platform's error document or a condition that relays a scheduler's or the
                // kubelet's message (Azure ML's `{"code": "Unschedulable", "message": "0/3 nodes
                // are available: ..."}`, a PodScheduled condition): that message is the status.
                if let Some(record) = relayed_message(&Value::Object(map), 0) {
                    return Ok(Some(record));
                }
                return Err(DecodeError::NotAnEventValue { location, what });
            }
        }
        let api_version = map.get("apiVersion").and_then(Value::as_str).map(str::to_owned);
        let api = match api_version.as_deref() {
            Some(version) => match api_of_version(version) {
                Some(api) => api,
                None => {
                    return fail(
                        location,
                        format!(
                            "apiVersion {version:?} is not an Event API (expected v1, events.k8s.io/v1 or events.k8s.io/v1beta1)"
                        ),
                    );
                }
            },
            None => list_api.unwrap_or_else(|| guess_api(&map)),
        };
        // k8s-openapi checks `apiVersion` against v1; events.k8s.io/v1beta1 has the same fields.
        if api == Api::Events {
            map.remove("apiVersion");
        }
        let value = Value::Object(map);
        let result = match api {
            Api::Core => read::<core::Event>(value).map(EventRecord::from),
            Api::Events => read::<events::Event>(value).map(EventRecord::from),
        };
        result
            .map(|mut record| {
                // Keep the version as received (events.k8s.io/v1beta1 is read with the v1 type).
                if let Some(version) = api_version.filter(|v| v.starts_with("events.k8s.io/")) {
                    record.event_api_version = Some(version);
                }
                if deleted {
                    record.flags.push(Flag::Deleted);
                    record.flags.sort_unstable();
                }
                Some(record)
            })
            .map_err(|message| DecodeError::Item { location, message })
    }
}

/// A projection of Events (`jq '{reason, message, object: "pod/\\(.involvedObject.name)"}'`,
/// `kubectl get events -o custom-columns` turned into JSON) names its object as `kind/name` in
/// an `object`, `involvedObject` or `regarding` string: that becomes the `involvedObject`, with
/// a top-level `namespace` if the projection has one. Objects are left as they are.
fn projected_object(map: &mut Map<String, Value>) {
    let has_reference = ["involvedObject", "regarding"].iter().any(|k| map.get(*k).is_some_and(Value::is_object));
    if has_reference || map.contains_key("kind") {
        return;
    }
    let Some((key, kind, name)) = ["object", "involvedObject", "regarding"].iter().find_map(|key| {
        let (kind, name) = map.get(*key)?.as_str()?.split_once('/')?;
        (!kind.is_empty() && !name.is_empty() && !name.contains([' ', '/']))
            .then(|| (*key, kind.to_owned(), name.to_owned()))
    }) else {
        return;
    };
    map.remove(key);
    let mut reference = Map::new();
    reference.insert("kind".to_owned(), Value::String(crate::record::kinds::spelled(&kind.to_ascii_lowercase())));
    reference.insert("name".to_owned(), Value::String(name));
    if let Some(namespace) = map.get("namespace").and_then(Value::as_str) {
        reference.insert("namespace".to_owned(), Value::String(namespace.to_owned()));
    }
    map.insert("involvedObject".to_owned(), Value::Object(reference));
}

/// Fields of which an Event without `kind` must have at least one.
const EVENT_FIELDS: [&str; 6] = ["reason", "message", "note", "involvedObject", "regarding", "eventTime"];

/// Without `apiVersion`, the field names tell the API apart.
fn guess_api(map: &Map<String, Value>) -> Api {
    const EVENTS_ONLY: [&str; 5] = ["regarding", "note", "reportingController", "deprecatedCount", "deprecatedSource"];
    if EVENTS_ONLY.iter().any(|key| map.contains_key(*key)) { Api::Events } else { Api::Core }
}

/// Deserialize with the path of the offending field in the message.
fn read<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        if path == "." { err.inner().to_string() } else { format!("{path}: {}", err.inner()) }
    })
}

/// The first `message` (or `msg`) string in `value`, at most four levels down, that a reason's
/// grammar reads as a bare message (`decode/text/bare.rs`): a record about an unnamed Pod,
/// flagged `fromStatus` (the document relays a status; it is no event).
fn relayed_message(value: &Value, depth: usize) -> Option<EventRecord> {
    const DEPTH: usize = 4;
    match value {
        Value::Object(map) => {
            let own = ["message", "msg"].iter().filter_map(|key| map.get(*key)?.as_str()).find_map(|message| {
                let regarding = crate::ObjectReference { kind: Some("Pod".to_owned()), ..Default::default() };
                let mut record = super::bare::record(message, &regarding)?;
                if let Err(at) = record.flags.binary_search(&crate::Flag::FromStatus) {
                    record.flags.insert(at, crate::Flag::FromStatus);
                }
                Some(record)
            });
            own.or_else(|| (depth < DEPTH).then(|| map.values().find_map(|v| relayed_message(v, depth + 1))).flatten())
        }
        Value::Array(items) if depth < DEPTH => items.iter().find_map(|v| relayed_message(v, depth + 1)),
        _ => None,
    }
}
