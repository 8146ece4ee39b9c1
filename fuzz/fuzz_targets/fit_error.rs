//! The kube-scheduler FailedScheduling grammar (FitError in all its forms) on any text.
#![no_main]

use gpu_events_core::Reason;
use gpu_events_core::details::Note;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(grammar) = Reason::from_wire_reported_by("FailedScheduling", Some("default-scheduler")).and_then(|r| r.info().grammar)
    else {
        return;
    };
    let note = String::from_utf8_lossy(data);
    let _ = grammar.parse(&Note::new(&note)).kind();
});
