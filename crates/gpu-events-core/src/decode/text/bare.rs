//! Event messages pasted without their reason: a Pod status `Message:` with no `Reason:`, an
//! issue title, a message quoted in a sentence ("it fails with 0/3 nodes are available: ...").
//!
//! A message is taken for an event only when it starts with words one reason's message always
//! starts with, and that reason's grammar then reads it (its details are not `unrecognized`):
//! the grammar stays the one declaration of the format; this table only says which messages
//! name their reason. The record is flagged `inferredReason`.

use crate::details::Details;
use crate::record::RawEvent;
use crate::{EventRecord, ObjectReference};

/// The words a message starts with, the reason that writes it, its type, and the source.
const STARTS: &[(&str, &str, &str)] = &[
    // kube-scheduler FitError (pkg/scheduler/framework/types.go), also HAMi's and Volcano's.
    ("0/", "FailedScheduling", "Warning"),
    // kubelet admission (pkg/kubelet/cm/devicemanager: "Allocate failed due to %s, which is
    // unexpected"; lifecycle predicate: "Pod Allocate failed due to ...").
    ("Pod Allocate failed due to", "UnexpectedAdmissionError", "Warning"),
    ("Allocate failed due to", "UnexpectedAdmissionError", "Warning"),
    // kubelet DRA manager (pkg/kubelet/cm/dra/manager.go).
    ("Failed to prepare dynamic resources:", "FailedPrepareDynamicResources", "Warning"),
    // kubelet image manager (pkg/kubelet/images/image_manager.go).
    ("Failed to pull image", "Failed", "Warning"),
    // kubelet eviction manager (pkg/kubelet/eviction/helpers.go).
    ("The node was low on resource:", "Evicted", "Warning"),
    // cluster-autoscaler (core/scaleup/orchestrator, event on the Pod).
    ("Node scale up in zones", "FailedScaleUp", "Warning"),
    ("pod didn't trigger scale-up", "NotTriggerScaleUp", "Normal"),
    ("Pod didn't trigger scale-up", "NotTriggerScaleUp", "Normal"),
    ("pod triggered scale-up:", "TriggeredScaleUp", "Normal"),
    // kubelet sandbox creation (pkg/kubelet/kuberuntime/kuberuntime_manager.go).
    ("Failed to create pod sandbox:", "FailedCreatePodSandBox", "Warning"),
    // Karpenter provisioner (pkg/controllers/provisioning/scheduling/events.go).
    ("Pod should schedule on:", "Nominated", "Normal"),
    // kube-scheduler binding (pkg/scheduler/schedule_one.go).
    ("Successfully assigned ", "Scheduled", "Normal"),
    // kubelet image and container lifecycle (pkg/kubelet/images, pkg/kubelet/kuberuntime),
    // the messages UI event lists show without their reason.
    ("Pulling image ", "Pulling", "Normal"),
    ("Successfully pulled image ", "Pulled", "Normal"),
    ("Created container ", "Created", "Normal"),
    ("Started container ", "Started", "Normal"),
    ("Back-off restarting failed container", "BackOff", "Warning"),
];

/// The record a bare message is, when it starts as one reason's messages do and that reason's
/// grammar reads it; `regarding` is the object the surrounding text names.
pub(super) fn record(message: &str, regarding: &ObjectReference) -> Option<EventRecord> {
    let message = message.trim();
    // A message quoted whole (`"0/3 nodes ..."`) loses its quotes; one that ends in a quoted
    // name (`Pulling image "alpine"`) keeps them.
    let message = ['"', '`', '\'']
        .iter()
        .find_map(|q| message.strip_prefix(*q).and_then(|m| m.strip_suffix(*q)))
        .unwrap_or(message)
        .trim();
    let (_, reason, type_) = STARTS.iter().find(|(start, ..)| message.starts_with(start))?;
    let record = RawEvent {
        reason: Some(reason),
        type_: Some(type_),
        note: Some(message),
        regarding: regarding.clone(),
        namespace: regarding.namespace.as_deref(),
        inferred_reason: true,
        ..RawEvent::default()
    }
    .into_record();
    // A message that only starts like one (prose after "0/") is not that reason's.
    let read = match &record.details {
        Some(Details::Unrecognized) => false,
        Some(_) => true,
        // A reason without a grammar: the start alone names it.
        None => record.known,
    };
    read.then_some(record)
}

/// Where in a line of prose a bare message starts: the first place one of [`STARTS`] begins a
/// word (after a space, a quote or a colon), for sentences that quote a message.
pub(super) fn find_in_prose(line: &str) -> Option<&str> {
    STARTS
        .iter()
        .filter_map(|(start, ..)| {
            line.match_indices(start)
                .find(|(at, _)| *at == 0 || line[..*at].ends_with([' ', '"', '`', '\'', ':', '(', '\t']))
        })
        .map(|(at, _)| at)
        .min()
        .map(|at| &line[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_its_reason_when_its_grammar_reads_it() {
        let none = ObjectReference::default();
        let fit = record("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", &none).unwrap();
        assert_eq!(fit.reason, "FailedScheduling");
        assert!(fit.has_flag(crate::Flag::InferredReason));
        assert_eq!(fit.regarding.kind.as_deref(), Some("Pod"), "the reason's one kind");
        let admission = record(
            "Allocate failed due to requested number of devices unavailable for gpu.intel.com/i915. Requested: 1, Available: 0, which is unexpected",
            &none,
        )
        .unwrap();
        assert_eq!(admission.reason, "UnexpectedAdmissionError");
        // Prose that starts like a fit error is not one.
        assert!(record("0/10 of us would do this", &none).is_none());
        assert!(record("nothing to see", &none).is_none());
    }

    #[test]
    fn messages_are_found_where_a_sentence_quotes_them() {
        assert_eq!(
            find_in_prose("pod stays pending with 0/1 nodes are available: 1 Insufficient nvidia.com/gpu."),
            Some("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
        );
        assert_eq!(find_in_prose("version 10/12 of the docs"), None);
    }
}
