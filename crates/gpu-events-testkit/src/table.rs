//! The server-side Table form of Events (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), as kube-apiserver
//! prints it with `pkg/printers/internalversion` (`printEvent`, every column, `Wide`), which is what `kubectl get
//! events` shows.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::resource::ResourceType;
use crate::status::ApiError;

/// What a Table row carries of its object (`includeObject`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IncludeObject {
    /// `PartialObjectMetadata` with the object's metadata (the default).
    Metadata,
    /// The whole object.
    Object,
    /// Nothing (`"object": null`).
    None,
}

impl IncludeObject {
    pub fn parse(value: Option<&str>) -> Result<Self, ApiError> {
        match value.unwrap_or("") {
            "" | "Metadata" => Ok(IncludeObject::Metadata),
            "Object" => Ok(IncludeObject::Object),
            "None" => Ok(IncludeObject::None),
            other => Err(ApiError::bad_request(format!(
                "Unable to convert to Table as requested: includeObject: Invalid value: {other:?}: must be 'Metadata', 'Object', 'None', or empty"
            ))),
        }
    }
}

/// Whether an `Accept` header asks for a Table before anything else the double serves (JSON): its media types in
/// order, the first that is a `meta.k8s.io` Table (v1 or v1beta1) or plain JSON wins.
pub(crate) fn wants_table(accept: &str) -> bool {
    for part in accept.split(',') {
        let params: Vec<&str> = part.split(';').map(str::trim).collect();
        let has = |p: &str| params.contains(&p);
        if has("as=Table") && has("g=meta.k8s.io") && (has("v=v1") || has("v=v1beta1")) {
            return true;
        }
        if params.iter().any(|p| p.starts_with("as=")) {
            continue;
        }
        if matches!(params[0], "application/json" | "*/*" | "application/*") {
            return false;
        }
    }
    false
}

/// The Event columns, with kube-apiserver's descriptions (the Event type's API documentation).
fn event_columns() -> Value {
    let column = |name: &str, priority: u8, format: &str, description: &str| json!({"name": name, "type": "string", "format": format, "description": description, "priority": priority});
    json!([
        column("Last Seen", 0, "", "The time at which the most recent occurrence of this event was recorded."),
        column("Type", 0, "", "Type of this event (Normal, Warning), new types could be added in the future"),
        column(
            "Reason",
            0,
            "",
            "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."
        ),
        column("Object", 0, "", "The object that this event is about."),
        column(
            "Subobject",
            1,
            "",
            "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object."
        ),
        column("Source", 1, "", "The component reporting this event. Should be a short machine understandable string."),
        column("Message", 0, "", "A human-readable description of the status of this operation."),
        column(
            "First Seen",
            1,
            "",
            "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)"
        ),
        column("Count", 1, "", "The number of times this event has occurred."),
        column(
            "Name",
            1,
            "name",
            "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
        ),
    ])
}

/// `duration.HumanDuration`: `45s`, `2m3s`, `47h`, `3d3h`, `2y10d`.
fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 { format!("{minutes}m") } else { format!("{minutes}m{s}s") };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 { format!("{hours}h") } else { format!("{hours}h{m}m") };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 { format!("{}d", hours / 24) } else { format!("{}d{h}h", hours / 24) };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        return if days == 0 { format!("{}y", hours / 24 / 365) } else { format!("{}y{days}d", hours / 24 / 365) };
    }
    format!("{}y", hours / 24 / 365)
}

/// `translateTimestampSince`: the age of a timestamp, `<unknown>` when there is none.
fn age(timestamp: Option<&Value>, now: DateTime<Utc>) -> Option<String> {
    let t = timestamp.and_then(Value::as_str).filter(|s| !s.is_empty())?;
    let t = DateTime::parse_from_rfc3339(t).ok()?;
    Some(human_duration(now.signed_duration_since(t).num_seconds()))
}

/// `printEvent`'s cells (wide) for an Event in core/v1 form.
fn event_cells(core: &Value, now: DateTime<Utc>) -> Value {
    let s = |pointer: &str| core.pointer(pointer).and_then(Value::as_str).unwrap_or("");
    let first = age(core.get("firstTimestamp"), now)
        .or_else(|| age(core.get("eventTime"), now))
        .unwrap_or_else(|| "<unknown>".into());
    let mut last = age(core.get("lastTimestamp"), now).unwrap_or_else(|| first.clone());
    let mut count = core.get("count").and_then(Value::as_i64).unwrap_or(0);
    if let Some(series) = core.get("series").filter(|v| v.is_object()) {
        last = age(series.get("lastObservedTime"), now).unwrap_or_else(|| "<unknown>".into());
        count = series.get("count").and_then(Value::as_i64).unwrap_or(0);
    } else if count == 0 {
        count = 1;
    }
    let kind = s("/involvedObject/kind").to_lowercase();
    let target = match s("/involvedObject/name") {
        "" => kind,
        name => format!("{kind}/{name}"),
    };
    let first_non_empty = |a: &str, b: &str| if a.is_empty() { b.to_string() } else { a.to_string() };
    let component = first_non_empty(s("/source/component"), s("/reportingComponent"));
    let instance = first_non_empty(s("/source/host"), s("/reportingInstance"));
    let source = if instance.is_empty() { component } else { format!("{component}, {instance}") };
    json!([
        last,
        s("/type"),
        s("/reason"),
        target,
        s("/involvedObject/fieldPath"),
        source,
        s("/message").trim(),
        first,
        count,
        s("/metadata/name")
    ])
}

/// A Table of Events: `rows` pairs each Event's core/v1 form (for the cells) with its form in the requested API
/// (for the row's object); `metadata` is the list's (resourceVersion, continue, remainingItemCount).
pub(crate) fn event_table(rows: &[(Value, Value)], metadata: Value, include: IncludeObject) -> Value {
    let now = Utc::now();
    let rows: Vec<Value> = rows
        .iter()
        .map(|(core, served)| {
            let object = match include {
                IncludeObject::Metadata => json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                                  "metadata": served.get("metadata").cloned().unwrap_or(json!({}))}),
                IncludeObject::Object => served.clone(),
                IncludeObject::None => Value::Null,
            };
            json!({"cells": event_cells(core, now), "object": object})
        })
        .collect();
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": metadata,
           "columnDefinitions": event_columns(), "rows": rows})
}

/// Whether the Table form is served for `rt` (Events only; other resources are answered in JSON).
pub(crate) fn has_table(rt: &ResourceType) -> bool {
    rt.is_event()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations_are_kubectls() {
        let cases = [
            (-5, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (183, "3m3s"),
            (600, "10m"),
            (179 * 60, "179m"),
            (3 * 3600 + 60, "3h1m"),
            (8 * 3600, "8h"),
            (47 * 3600 + 59, "47h"),
            (75 * 3600, "3d3h"),
            (8 * 86400, "8d"),
            (2 * 365 * 86400 + 10 * 86400, "2y10d"),
            (9 * 365 * 86400, "9y"),
        ];
        for (seconds, expected) in cases {
            assert_eq!(human_duration(seconds), expected, "{seconds}");
        }
    }

    #[test]
    fn the_first_acceptable_media_type_decides() {
        assert!(wants_table("application/json;as=Table;v=v1;g=meta.k8s.io"));
        assert!(wants_table(
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
        ));
        assert!(!wants_table("application/json"));
        assert!(!wants_table("application/json, application/json;as=Table;v=v1;g=meta.k8s.io"));
        assert!(!wants_table("application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json"));
        assert!(!wants_table(""));
    }

    #[test]
    fn cells_follow_print_event() {
        let now = DateTime::parse_from_rfc3339("2026-12-03T10:00:00Z").unwrap().with_timezone(&Utc);
        let legacy = json!({"metadata": {"name": "c.1"}, "type": "Warning", "reason": "FailedScheduling",
            "involvedObject": {"kind": "Pod", "name": "llama-0", "fieldPath": "spec.containers{main}"},
            "source": {"component": "default-scheduler", "host": "node-1"}, "message": " 0/4 nodes ",
            "firstTimestamp": "2026-12-01T10:00:00Z", "lastTimestamp": "2026-12-03T09:59:00Z", "count": 3});
        assert_eq!(
            event_cells(&legacy, now),
            json!([
                "60s",
                "Warning",
                "FailedScheduling",
                "pod/llama-0",
                "spec.containers{main}",
                "default-scheduler, node-1",
                "0/4 nodes",
                "2d",
                3,
                "c.1"
            ])
        );
        let new = json!({"metadata": {"name": "e.1"}, "type": "Normal", "reason": "R",
            "involvedObject": {"kind": "Node"}, "reportingComponent": "x.io/c", "eventTime": "2026-12-03T09:59:30.000000Z",
            "series": {"count": 4, "lastObservedTime": "2026-12-03T09:59:50.000000Z"}});
        assert_eq!(event_cells(&new, now), json!(["10s", "Normal", "R", "node", "", "x.io/c", "", "30s", 4, "e.1"]));
        let bare = json!({"metadata": {"name": "b"}});
        assert_eq!(event_cells(&bare, now)[0], "<unknown>");
        assert_eq!(event_cells(&bare, now)[8], 1, "a singleton counts 1");
    }
}
