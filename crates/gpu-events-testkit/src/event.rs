//! Events: conversion between the two APIs and the stored form, and kube-apiserver's validation
//! (`pkg/apis/core/validation/events.go`).
//!
//! Both APIs store one internal Event. It is kept here as a sparse JSON object with the core/v1 field names
//! (`involvedObject`, `message`, `reportingComponent`, ...) and only the fields that are not Go zero values, with
//! times in their canonical wire form. Each API renders it with its own names and defaults.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};

use crate::status::ApiError;
use crate::validation::{FieldError, NameRule, dns1123_subdomain, object_meta, qualified_name};

/// Which Event API a request came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EventApi {
    /// `core/v1`: legacy validation only.
    Core,
    /// `events.k8s.io/v1`: strict validation.
    EventsV1,
}

impl EventApi {
    pub fn of(group: &str) -> Self {
        if group == "events.k8s.io" { EventApi::EventsV1 } else { EventApi::Core }
    }

    fn api_version(self) -> &'static str {
        match self {
            EventApi::Core => "v1",
            EventApi::EventsV1 => "events.k8s.io/v1",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldType {
    Str,
    Int,
    Time,
    MicroTime,
    ObjectRef,
    OptObjectRef,
    Source,
    Series,
}

/// (stored/core name, events.k8s.io/v1 name, type)
const FIELDS: &[(&str, &str, FieldType)] = &[
    ("involvedObject", "regarding", FieldType::ObjectRef),
    ("reason", "reason", FieldType::Str),
    ("message", "note", FieldType::Str),
    ("source", "deprecatedSource", FieldType::Source),
    ("firstTimestamp", "deprecatedFirstTimestamp", FieldType::Time),
    ("lastTimestamp", "deprecatedLastTimestamp", FieldType::Time),
    ("count", "deprecatedCount", FieldType::Int),
    ("type", "type", FieldType::Str),
    ("eventTime", "eventTime", FieldType::MicroTime),
    ("series", "series", FieldType::Series),
    ("action", "action", FieldType::Str),
    ("related", "related", FieldType::OptObjectRef),
    ("reportingComponent", "reportingController", FieldType::Str),
    ("reportingInstance", "reportingInstance", FieldType::Str),
];

const OBJECT_REF_FIELDS: &[&str] = &["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"];

const RFC3339_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";
const GO_ZERO_TIME: &str = "0001-01-01T00:00:00Z";
const GO_ZERO_MICRO_TIME: &str = "0001-01-01T00:00:00.000000Z";

fn decode_error(msg: String) -> ApiError {
    ApiError::bad_request(format!("Event in version \"v1\" cannot be handled as a Event: {msg}"))
}

fn type_error(value: &Value, field: &str, go_type: &str) -> ApiError {
    let got = match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    decode_error(format!("json: cannot unmarshal {got} into Go struct field {field} of type {go_type}"))
}

/// Parses `metav1.Time` (RFC 3339, any fraction) into its wire form (UTC, seconds).
pub(crate) fn canonical_time(s: &str) -> Result<String, String> {
    let t = DateTime::parse_from_rfc3339(s)
        .map_err(|e| format!("parsing time {s:?} as \"2006-01-02T15:04:05Z07:00\": {e}"))?;
    Ok(t.with_timezone(&Utc).to_rfc3339_opts(SecondsFormat::Secs, true))
}

/// Parses `metav1.MicroTime`: Go's layout `2006-01-02T15:04:05.000000Z07:00` demands exactly six fractional digits.
pub(crate) fn canonical_micro_time(s: &str) -> Result<String, String> {
    let err = |why: &str| format!("parsing time {s:?} as {RFC3339_MICRO:?}: {why}");
    let b = s.as_bytes();
    let frac_ok = b.len() > 26 && b[19] == b'.' && b[20..26].iter().all(u8::is_ascii_digit) && !b[26].is_ascii_digit();
    if !frac_ok {
        // Go's time.Parse names what is left of the value where the layout's `.000000` is.
        let rest = s.get(19..).unwrap_or("");
        return Err(err(&format!("cannot parse {rest:?} as \".000000\"")));
    }
    let t = DateTime::parse_from_rfc3339(s).map_err(|e| err(&e.to_string()))?;
    Ok(t.with_timezone(&Utc).to_rfc3339_opts(SecondsFormat::Micros, true))
}

fn decode_string(value: &Value, field: &str) -> Result<Option<Value>, ApiError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) if s.is_empty() => Ok(None),
        Value::String(_) => Ok(Some(value.clone())),
        other => Err(type_error(other, field, "string")),
    }
}

fn decode_object_ref(value: &Value, field: &str) -> Result<Map<String, Value>, ApiError> {
    let obj = value.as_object().ok_or_else(|| type_error(value, field, "v1.ObjectReference"))?;
    let mut out = Map::new();
    for key in OBJECT_REF_FIELDS {
        if let Some(v) = obj.get(*key)
            && let Some(v) = decode_string(v, &format!("{field}.{key}"))?
        {
            out.insert((*key).to_string(), v);
        }
    }
    Ok(out)
}

fn decode_field(value: &Value, ty: FieldType, field: &str) -> Result<Option<Value>, ApiError> {
    if value.is_null() {
        return Ok(None);
    }
    match ty {
        FieldType::Str => decode_string(value, field),
        FieldType::Int => match value.as_i64() {
            Some(0) => Ok(None),
            Some(n) if i32::try_from(n).is_ok() => Ok(Some(json!(n))),
            _ => Err(type_error(value, field, "int32")),
        },
        FieldType::Time | FieldType::MicroTime => {
            let s = value.as_str().ok_or_else(|| type_error(value, field, "time.Time"))?;
            let canonical = if ty == FieldType::Time { canonical_time(s) } else { canonical_micro_time(s) };
            let canonical = canonical.map_err(decode_error)?;
            if canonical == GO_ZERO_TIME || canonical == GO_ZERO_MICRO_TIME {
                return Ok(None);
            }
            Ok(Some(Value::String(canonical)))
        }
        FieldType::ObjectRef => {
            let r = decode_object_ref(value, field)?;
            Ok(if r.is_empty() { None } else { Some(Value::Object(r)) })
        }
        // A pointer: `{}` is set, though empty.
        FieldType::OptObjectRef => Ok(Some(Value::Object(decode_object_ref(value, field)?))),
        FieldType::Source => {
            let obj = value.as_object().ok_or_else(|| type_error(value, field, "v1.EventSource"))?;
            let mut out = Map::new();
            for key in ["component", "host"] {
                if let Some(v) = obj.get(key)
                    && let Some(v) = decode_string(v, &format!("{field}.{key}"))?
                {
                    out.insert(key.to_string(), v);
                }
            }
            Ok(if out.is_empty() { None } else { Some(Value::Object(out)) })
        }
        FieldType::Series => {
            let obj = value.as_object().ok_or_else(|| type_error(value, field, "v1.EventSeries"))?;
            let mut out = Map::new();
            if let Some(c) = obj.get("count")
                && let Some(c) = decode_field(c, FieldType::Int, &format!("{field}.count"))?
            {
                out.insert("count".into(), c);
            }
            if let Some(t) = obj.get("lastObservedTime")
                && let Some(t) = decode_field(t, FieldType::MicroTime, &format!("{field}.lastObservedTime"))?
            {
                out.insert("lastObservedTime".into(), t);
            }
            Ok(Some(Value::Object(out)))
        }
    }
}

/// Canonical metadata: system times in wire form, nulls dropped.
pub(crate) fn canonical_metadata(meta: &Value) -> Result<Map<String, Value>, ApiError> {
    let meta = match meta {
        Value::Null => return Ok(Map::new()),
        Value::Object(m) => m,
        other => return Err(type_error(other, "Event.metadata", "v1.ObjectMeta")),
    };
    let mut out = Map::new();
    for (k, v) in meta {
        if v.is_null() {
            continue;
        }
        if (k == "creationTimestamp" || k == "deletionTimestamp")
            && let Some(s) = v.as_str()
        {
            out.insert(k.clone(), Value::String(canonical_time(s).map_err(decode_error)?));
            continue;
        }
        out.insert(k.clone(), v.clone());
    }
    Ok(out)
}

/// Decodes a request body of the given API into the stored (sparse, core-named) form.
/// Unknown fields are dropped, as the API server's decoder does.
pub(crate) fn decode(body: &Value, api: EventApi) -> Result<Map<String, Value>, ApiError> {
    let obj =
        body.as_object().ok_or_else(|| decode_error("json: cannot unmarshal into Go value of type Event".into()))?;
    let mut out = Map::new();
    out.insert("metadata".into(), Value::Object(canonical_metadata(obj.get("metadata").unwrap_or(&Value::Null))?));
    for (core, v1, ty) in FIELDS {
        let name = if api == EventApi::Core { core } else { v1 };
        if let Some(value) = obj.get(*name)
            && let Some(v) = decode_field(value, *ty, &format!("Event.{name}"))?
        {
            out.insert((*core).to_string(), v);
        }
    }
    Ok(out)
}

/// Renders the stored form as the given API returns it (Go's JSON tags decide which zero values appear).
pub(crate) fn render(stored: &Map<String, Value>, api: EventApi, with_type_meta: bool) -> Value {
    let mut out = Map::new();
    if with_type_meta {
        out.insert("apiVersion".into(), json!(api.api_version()));
        out.insert("kind".into(), json!("Event"));
    }
    out.insert("metadata".into(), stored.get("metadata").cloned().unwrap_or_else(|| json!({})));
    for (core, v1, _) in FIELDS {
        let name = if api == EventApi::Core { core } else { v1 };
        if let Some(v) = stored.get(*core) {
            out.insert((*name).to_string(), v.clone());
        }
    }
    // Fields without omitempty, or structs (which omitempty does not drop).
    let defaults: &[(&str, Value)] = match api {
        EventApi::Core => &[
            ("involvedObject", json!({})),
            ("source", json!({})),
            ("firstTimestamp", Value::Null),
            ("lastTimestamp", Value::Null),
            ("eventTime", Value::Null),
            ("reportingComponent", json!("")),
            ("reportingInstance", json!("")),
        ],
        EventApi::EventsV1 => &[
            ("eventTime", Value::Null),
            ("regarding", json!({})),
            ("deprecatedSource", json!({})),
            ("deprecatedFirstTimestamp", Value::Null),
            ("deprecatedLastTimestamp", Value::Null),
        ],
    };
    for (name, default) in defaults {
        out.entry(name.to_string()).or_insert_with(|| default.clone());
    }
    Value::Object(out)
}

fn s<'a>(ev: &'a Map<String, Value>, key: &str) -> &'a str {
    ev.get(key).and_then(Value::as_str).unwrap_or("")
}

fn namespace(ev: &Map<String, Value>) -> &str {
    ev.get("metadata").and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("")
}

fn involved_namespace(ev: &Map<String, Value>) -> &str {
    ev.get("involvedObject").and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("")
}

const REPORTING_INSTANCE_LIMIT: usize = 128;
const ACTION_LIMIT: usize = 128;
const REASON_LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

/// `legacyValidateEvent`: every request of both APIs. Lengths are Go `len()`, i.e. bytes.
fn legacy(ev: &Map<String, Value>, api: EventApi) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let controller_field = if api == EventApi::Core { "reportingComponent" } else { "reportingController" };
    let ns = namespace(ev);
    let involved_ns = involved_namespace(ev);
    if !ev.contains_key("eventTime") {
        let mismatch = if involved_ns.is_empty() { !ns.is_empty() && ns != "default" } else { ns != involved_ns };
        if mismatch {
            errs.push(FieldError::invalid("involvedObject.namespace", involved_ns, "does not match event.namespace"));
        }
    } else {
        if involved_ns.is_empty() && ns != "default" && ns != "kube-system" {
            errs.push(FieldError::invalid("involvedObject.namespace", involved_ns, "does not match event.namespace"));
        }
        let controller = s(ev, "reportingComponent");
        if controller.is_empty() {
            errs.push(FieldError::required(controller_field, ""));
        }
        for m in qualified_name(controller) {
            errs.push(FieldError::invalid(controller_field, controller, m));
        }
        let limited = [
            ("reportingInstance", "reportingInstance", REPORTING_INSTANCE_LIMIT),
            ("action", "action", ACTION_LIMIT),
            ("reason", "reason", REASON_LIMIT),
        ];
        for (key, field, limit) in limited {
            let v = s(ev, key);
            if v.is_empty() {
                errs.push(FieldError::required(field, ""));
            }
            if v.len() > limit {
                errs.push(FieldError::invalid(field, "", format!("can have at most {limit} characters")));
            }
        }
        if s(ev, "message").len() > NOTE_LIMIT {
            errs.push(FieldError::invalid("message", "", format!("can have at most {NOTE_LIMIT} characters")));
        }
    }
    for m in dns1123_subdomain(ns) {
        errs.push(FieldError::invalid("namespace", ns, m));
    }
    errs
}

/// `validateV1EventSeries`.
fn series(ev: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(series) = ev.get("series") {
        if series.get("count").and_then(Value::as_i64).unwrap_or(0) < 2 {
            errs.push(FieldError::invalid("series.count", "", "should be at least 2"));
        }
        if series.get("lastObservedTime").is_none() {
            errs.push(FieldError::required("series.lastObservedTime", ""));
        }
    }
    errs
}

/// `ValidateEventCreate`.
pub(crate) fn validate_create(ev: &Map<String, Value>, api: EventApi) -> Vec<FieldError> {
    let mut errs = legacy(ev, api);
    if api == EventApi::Core {
        return errs;
    }
    let empty = Map::new();
    let meta = ev.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
    errs.extend(object_meta(meta, true, NameRule::DnsSubdomain));
    errs.extend(series(ev));
    if !ev.contains_key("eventTime") {
        errs.push(FieldError::required("eventTime", ""));
    }
    let ty = s(ev, "type");
    if ty != "Normal" && ty != "Warning" {
        errs.push(FieldError::invalid("type", "", format!("has invalid value: {ty}")));
    }
    for field in ["firstTimestamp", "lastTimestamp", "count", "source"] {
        if ev.contains_key(field) {
            errs.push(FieldError::invalid(field, "", "needs to be unset"));
        }
    }
    errs
}

/// An ObjectReference as Go prints the internal struct in a field error: every field, by its Go name, in order.
fn go_object_reference(value: &Value) -> String {
    let mut fields = Vec::new();
    for (go, json) in [
        ("Kind", "kind"),
        ("Namespace", "namespace"),
        ("Name", "name"),
        ("UID", "uid"),
        ("APIVersion", "apiVersion"),
        ("ResourceVersion", "resourceVersion"),
        ("FieldPath", "fieldPath"),
    ] {
        let v = value.get(json).cloned().unwrap_or_else(|| json!(""));
        fields.push(format!("{go:?}:{}", serde_json::to_string(&v).unwrap_or_default()));
    }
    format!("{{{}}}", fields.join(","))
}

/// `ValidateEventUpdate`: legacy checks of the new object; for events.k8s.io/v1 also metadata, series and the
/// immutable fields (everything but `series` and metadata).
pub(crate) fn validate_update(new: &Map<String, Value>, old: &Map<String, Value>, api: EventApi) -> Vec<FieldError> {
    let mut errs = legacy(new, api);
    if api == EventApi::Core {
        return errs;
    }
    if new.get("series") != old.get("series") {
        errs.extend(series(new));
    }
    // eventTime is kept in wire form (microseconds), so equality is the microsecond comparison of k8s #111928.
    let immutable = [
        "involvedObject",
        "reason",
        "message",
        "source",
        "firstTimestamp",
        "lastTimestamp",
        "count",
        "type",
        "eventTime",
        "action",
        "related",
        "reportingComponent",
        "reportingInstance",
    ];
    for field in immutable {
        if new.get(field) != old.get(field) {
            let shown = if field == "reportingComponent" { "reportingController" } else { field };
            let value = new.get(field).cloned().unwrap_or(Value::Null);
            if matches!(field, "involvedObject" | "related") && value.is_object() {
                errs.push(FieldError::invalid_shown(shown, go_object_reference(&value), "field is immutable"));
            } else {
                errs.push(FieldError::invalid(shown, value, "field is immutable"));
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v1_event() -> Value {
        json!({
            "apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "w.1", "namespace": "ml"},
            "eventTime": "2026-11-30T05:40:03.002000Z",
            "reason": "GangWaitingForMembers", "type": "Normal", "action": "Waiting",
            "reportingController": "tensor-fusion.ai/gang", "reportingInstance": "gang-0",
            "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
            "note": "Waiting for gang members: 2/4 ready",
            "unknownField": 1
        })
    }

    #[test]
    fn round_trip_between_apis() {
        let stored = decode(&v1_event(), EventApi::EventsV1).unwrap();
        assert!(!stored.contains_key("unknownField"));
        assert_eq!(stored["message"], "Waiting for gang members: 2/4 ready");
        assert_eq!(stored["reportingComponent"], "tensor-fusion.ai/gang");
        assert!(validate_create(&stored, EventApi::EventsV1).is_empty());
        let core = render(&stored, EventApi::Core, true);
        assert_eq!(core["involvedObject"]["name"], "llama-0");
        assert_eq!(core["firstTimestamp"], Value::Null);
        assert_eq!(core["source"], json!({}));
        let back = decode(&core, EventApi::Core).unwrap();
        assert_eq!(back, stored);
        let v1 = render(&stored, EventApi::EventsV1, true);
        assert_eq!(v1["note"], "Waiting for gang members: 2/4 ready");
        assert_eq!(v1["deprecatedSource"], json!({}));
    }

    #[test]
    fn micro_time_is_strict() {
        assert_eq!(canonical_micro_time("2026-11-30T05:40:03.002000Z").unwrap(), "2026-11-30T05:40:03.002000Z");
        assert_eq!(canonical_micro_time("2026-11-30T07:40:03.002000+02:00").unwrap(), "2026-11-30T05:40:03.002000Z");
        assert!(canonical_micro_time("2026-11-30T05:40:03Z").is_err());
        assert!(canonical_micro_time("2026-11-30T05:40:03.002Z").is_err());
        assert!(canonical_micro_time("2026-11-30T05:40:03.002000123Z").is_err());
        assert_eq!(canonical_time("2026-11-30T05:40:03.5Z").unwrap(), "2026-11-30T05:40:03Z");
    }

    #[test]
    fn byte_limits() {
        let mut e = v1_event();
        e["note"] = json!("é".repeat(513)); // 513 chars, 1026 bytes
        e["reason"] = json!("R".repeat(129));
        let stored = decode(&e, EventApi::EventsV1).unwrap();
        let errs = validate_create(&stored, EventApi::EventsV1);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["reason", "message"]);
        // core/v1 without eventTime: only the namespace rule.
        let core = json!({"metadata": {"name": "x", "namespace": "ml"}, "involvedObject": {"namespace": "other"},
                          "message": "x".repeat(5000)});
        let stored = decode(&core, EventApi::Core).unwrap();
        let errs = validate_create(&stored, EventApi::Core);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "involvedObject.namespace");
    }

    #[test]
    fn immutable_fields() {
        let old = decode(&v1_event(), EventApi::EventsV1).unwrap();
        let mut new = old.clone();
        new.insert("series".into(), json!({"count": 2, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}));
        assert!(validate_update(&new, &old, EventApi::EventsV1).is_empty());
        new.insert("message".into(), json!("other"));
        let errs = validate_update(&new, &old, EventApi::EventsV1);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "message");
        assert!(validate_update(&new, &old, EventApi::Core).is_empty());
    }
}
