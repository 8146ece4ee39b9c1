//! Event lists copied from a web console (Rancher, Lens, KAI's and other dashboards) that put
//! each event's reason on a line of its own and its message on the next:
//!
//! ```text
//! PodGrouperWarning
//! Pod "train-pod" not found
//! Unschedulable
//! Unable to schedule pod
//! ```
//!
//! A line is taken for a reason only when it is one word shaped as reasons are (CamelCase,
//! letters and digits) and either has two capitals (`PodGrouperWarning`, `FailedScheduling`) or
//! is a catalogue reason whose grammar reads the next line; a one-capital word over prose
//! (`Summary`, `Failed` over a sentence) is not.

use crate::details::Details;
use crate::record::RawEvent;
use crate::{EventRecord, ObjectReference};

/// Whether `word` is shaped as an event reason: an ASCII capital, then letters and digits, some
/// lower-case; how many capitals it has.
fn reason_shape(word: &str) -> Option<usize> {
    let shaped = word.len() >= 5
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.bytes().all(|b| b.is_ascii_alphanumeric())
        && word.bytes().any(|b| b.is_ascii_lowercase());
    shaped.then(|| word.bytes().filter(u8::is_ascii_uppercase).count())
}

/// The record a reason line and the message line after it are, about `regarding`.
pub(super) fn pair(reason_line: &str, message_line: &str, regarding: &ObjectReference) -> Option<EventRecord> {
    let reason = reason_line.trim();
    let message = message_line.trim();
    let capitals = reason_shape(reason)?;
    // The message is a sentence, not another reason, a field or a heading.
    if message.split_whitespace().count() < 2
        || message.ends_with(':')
        || reason_shape(message).is_some()
        || message_line.starts_with(char::is_whitespace)
    {
        return None;
    }
    let record = RawEvent {
        reason: Some(reason),
        note: Some(message),
        regarding: regarding.clone(),
        namespace: regarding.namespace.as_deref(),
        ..RawEvent::default()
    }
    .into_record();
    let read = matches!(&record.details, Some(d) if !matches!(d, Details::Unrecognized));
    (capitals >= 2 || (record.known && read)).then_some(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_line_and_its_message_line_are_one_event() {
        let none = ObjectReference::default();
        let grouper = pair("PodGrouperWarning", "Pod \"train-pod\" not found", &none).unwrap();
        assert_eq!(
            (grouper.reason.as_str(), grouper.note.as_str()),
            ("PodGrouperWarning", "Pod \"train-pod\" not found")
        );
        let fit = pair("FailedScheduling", "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.", &none).unwrap();
        assert!(fit.known);
        // One capital: only when its grammar reads the message.
        let scheduled = pair("Scheduled", "Successfully assigned ml/train-0 to gpu-1", &none).unwrap();
        assert_eq!(scheduled.reason, "Scheduled");
        assert!(pair("Summary", "The pod never starts on the GPU node", &none).is_none());
        assert!(pair("Failed", "we tried everything we could think of", &none).is_none());
        // Not a sentence after it: a heading over a field, another reason, an indented block.
        assert!(pair("PodGroupPending", "Status:", &none).is_none());
        assert!(pair("FailedScheduling", "FailedMount", &none).is_none());
        assert!(pair("ContainerStatuses", "  name: main", &none).is_none());
    }
}
