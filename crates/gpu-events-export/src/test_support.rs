//! Helpers for the unit tests of this crate: records from Event JSON, deltas, and the real case
//! texts of `tests/fixtures/cases` (a copy of `../shared/cases`).

use chrono::{DateTime, Utc};
use gpu_events_core::decode::Decoder;

use crate::{Delta, ExportRecord};

/// A delta of `occurrences` new occurrences out of `total`, last seen at `last_seen`.
pub(crate) fn delta(occurrences: u64, total: u64, last_seen: Option<DateTime<Utc>>) -> Delta {
    Delta { occurrences, total, first_seen: last_seen, last_seen, previous_export: None }
}

/// The one record of an Event JSON document, as first seen (one occurrence).
pub(crate) fn record(json: &str) -> ExportRecord {
    let mut records = Decoder::from_str(json).collect::<Result<Vec<_>, _>>().expect("the test JSON decodes");
    assert_eq!(records.len(), 1, "one record expected from {json}");
    let record = records.remove(0);
    let last = record.last_timestamp;
    ExportRecord::new(record, delta(1, 1, last))
}

/// A core/v1 Event JSON document.
pub(crate) fn event_json(
    reason: &str,
    type_: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
    message: &str,
) -> String {
    let mut object = serde_json::json!({"kind": kind, "name": name});
    if let Some(ns) = namespace {
        object["namespace"] = ns.into();
    }
    serde_json::json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{name}.1"), "namespace": namespace.unwrap_or("default")},
        "reason": reason, "type": type_, "involvedObject": object, "message": message,
        "source": {"component": "default-scheduler"},
    })
    .to_string()
}

/// Every case file: (file name, text).
pub(crate) fn cases() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases");
    let mut cases: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("tests/fixtures/cases exists")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .map(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            (name, std::fs::read_to_string(&path).expect("a case file reads"))
        })
        .collect();
    cases.sort();
    cases
}

/// The records a case's text decodes to (items that do not decode are skipped).
pub(crate) fn case_records(text: &str) -> Vec<ExportRecord> {
    Decoder::from_str(text)
        .filter_map(Result::ok)
        .map(|record| {
            let last = record.last_timestamp;
            ExportRecord::new(record, delta(1, 1, last))
        })
        .collect()
}
