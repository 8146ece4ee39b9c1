//! kubectl's output forms for what `explain` prints: one `List` document for `-o json|yaml` (as
//! `kubectl get -o json` prints several objects), and `kind/name` lines for `-o name`.

use std::io::{self, Write};

use gpu_events_core::EventRecord;
use gpu_events_core::diagnose::Diagnosis;
use serde::Serialize;

/// `kubectl get -o json`'s envelope around several items (`apiVersion: v1`, `kind: List`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct List<'a, T> {
    api_version: &'static str,
    kind: &'static str,
    metadata: ListMeta,
    items: &'a [T],
}

/// kubectl writes an empty `resourceVersion` in the List it assembles on the client.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListMeta {
    resource_version: &'static str,
}

fn list<T>(items: &[T]) -> List<'_, T> {
    List { api_version: "v1", kind: "List", metadata: ListMeta { resource_version: "" }, items }
}

/// One JSON `List` document of `items`, indented as kubectl prints it.
pub fn write_json_list<T: Serialize>(out: &mut impl Write, items: &[T]) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &list(items))?;
    writeln!(out)
}

/// One YAML `List` document of `items`.
pub fn write_yaml_list<T: Serialize>(out: &mut impl Write, items: &[T]) -> io::Result<()> {
    write_yaml(out, &list(items))
}

/// One YAML document.
pub fn write_yaml(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let text = serde_yaml_ng::to_string(value).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())
}

/// `-o name` of an event: `event/NAME` (core/v1) or `event.events.k8s.io/NAME`, as kubectl names
/// them; `None` when the input did not give the Event's name (a pasted table, a klog line).
pub fn event_name(record: &EventRecord) -> Option<String> {
    let name = record.event_name.as_deref()?;
    let resource = match record.event_api_version.as_deref() {
        Some(version) if version.starts_with("events.k8s.io/") => "event.events.k8s.io",
        _ => "event",
    };
    Some(format!("{resource}/{name}"))
}

/// `-o name` of a diagnosed object: `pod/NAME`, or `kind.group/NAME` for kinds of an API group;
/// `None` when the input never named the object.
pub fn object_name(diagnosis: &Diagnosis) -> Option<String> {
    let name = diagnosis.object.name.as_deref()?;
    let kind = diagnosis.kind()?.to_lowercase();
    // The group is in the apiVersion the evidence's regarding references give (`group/version`).
    let group = diagnosis
        .evidence
        .iter()
        .find_map(|r| r.regarding.api_version.as_deref())
        .and_then(|v| v.split_once('/'))
        .map(|(group, _)| group);
    Some(match group {
        Some(group) => format!("{kind}.{group}/{name}"),
        None => format!("{kind}/{name}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_what_kubectl_prints() {
        let mut out = Vec::new();
        write_json_list(&mut out, &[1, 2]).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [1, 2]})
        );
        let mut out = Vec::new();
        write_yaml_list(&mut out, &["a"]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: ''\nitems:\n- a\n"
        );
    }

    #[test]
    fn event_names_follow_their_api() {
        let mut record = EventRecord::builder("Scheduled").build();
        assert_eq!(event_name(&record), None);
        record.event_name = Some("train-0.17a".into());
        assert_eq!(event_name(&record).as_deref(), Some("event/train-0.17a"));
        record.event_api_version = Some("events.k8s.io/v1".into());
        assert_eq!(event_name(&record).as_deref(), Some("event.events.k8s.io/train-0.17a"));
    }
}
