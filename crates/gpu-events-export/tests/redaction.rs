//! Redaction reaches the names that carry the same data as notes (Nodes named by their IP).

use gpu_events_core::decode::Decoder;
use gpu_events_export::{Delta, ExportRecord, RedactionConfig, Redactor};
use serde_json::json;

#[test]
fn nodes_named_by_their_address_are_redacted_everywhere() {
    let event = json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "10.0.3.7.18ed3835cba801c4", "namespace": "default", "uid": "u-1"},
        "involvedObject": {"kind": "Node", "name": "10.0.3.7", "uid": "10.0.3.7"},
        "reason": "NodeNotReady", "type": "Normal", "message": "Node 10.0.3.7 status is now: NodeNotReady",
        "source": {"component": "kubelet", "host": "10.0.3.7"}
    });
    let record = Decoder::from_str(&event.to_string()).next().unwrap().unwrap();
    let mut export = ExportRecord::new(record, Delta::new(1, 1, None, None, None));
    Redactor::new(&RedactionConfig::default()).unwrap().redact(&mut export);
    let text = serde_json::to_string(&export).unwrap();
    assert!(!text.contains("10.0.3.7"), "{text}");
    assert_eq!(export.record.regarding.name.as_deref(), Some("<ipv4>"));
    assert_eq!(export.record.reporting_instance.as_deref(), Some("<ipv4>"));
    assert_eq!(export.redactions, ["ipv4"]);
    // Namespaces and ordinary names are kept.
    assert_eq!(export.record.event_namespace.as_deref(), Some("default"));
}
