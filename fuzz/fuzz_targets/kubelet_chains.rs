//! Kubelet message chains (sandbox/runtime/CDI, container errors, admission, eviction) on any text.
#![no_main]

use gpu_events_core::Reason;
use gpu_events_core::details::Note;
use libfuzzer_sys::fuzz_target;

const REASONS: [&str; 5] = ["FailedCreatePodSandBox", "Failed", "UnexpectedAdmissionError", "Evicted", "BackOff"];

fuzz_target!(|data: &[u8]| {
    let [selector, rest @ ..] = data else { return };
    let reason = REASONS[usize::from(*selector) % REASONS.len()];
    let Some(grammar) = Reason::from_wire_reported_by(reason, Some("kubelet")).and_then(|r| r.info().grammar) else {
        return;
    };
    let note = String::from_utf8_lossy(rest);
    let _ = grammar.parse(&Note::new(&note)).kind();
});
