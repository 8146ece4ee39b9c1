//! The log-line decoders (klog `"Event occurred"`, the old `Event(v1.ObjectReference{...})` form,
//! the e2e dump), reached directly: each line of the input is prefixed with each form's marker, so
//! the key=value, Go-unquoting and time code get the runs.
#![no_main]

use chrono::{DateTime, Utc};
use gpu_events_core::decode::{Decoder, Format};
use libfuzzer_sys::fuzz_target;

/// The start of each log form, up to where its fields begin.
const MARKERS: [&str; 3] = [
    "I1130 05:40:02.123456   12345 event.go:307] \"Event occurred\" ",
    "I1130 05:41:07.000000    2114 event.go:291] Event(v1.ObjectReference{",
    "INFO: At ",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for marker in MARKERS {
        let mut input = String::with_capacity(text.len() * 2);
        for line in text.lines().take(1_000) {
            // The e2e form also needs its ` - event for ` separator to be detected.
            let separator =
                if marker.starts_with("INFO") && !line.contains(" - event for ") { " - event for " } else { "" };
            input.push_str(marker);
            input.push_str(separator);
            input.push_str(line);
            input.push('\n');
        }
        if input.is_empty() {
            continue;
        }
        let mut decoder = Decoder::from_str(&input).reference_time(now());
        assert_eq!(decoder.format(), Format::Text, "{marker:?}");
        for item in decoder.by_ref().take(10_000) {
            match item {
                Ok(record) => assert!(record.count >= 1),
                Err(err) => assert!(!err.is_fatal(), "fatal error on text input: {err}"),
            }
        }
    }
});

/// A fixed clock, so a crash reproduces (and December lines land in the year before).
fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_795_000_000, 0).unwrap_or_default()
}
