//! Helpers shared by the integration tests.

use k8s_openapi::api::events::v1::Event;
use serde_json::json;

/// A valid events.k8s.io/v1 Event in namespace `ml` about Pod `llama-0`.
pub fn event(name: &str) -> Event {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "ml"},
        "eventTime": "2026-11-30T05:40:03.002000Z",
        "reason": "GangWaitingForMembers", "type": "Normal", "action": "Waiting",
        "reportingController": "tensor-fusion.ai/gang", "reportingInstance": "gang-0",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
        "note": "Waiting for gang members: 2/4 ready"
    }))
    .expect("a valid Event")
}
