//! The `kubectl describe` Events section decoder, reached directly: every input is decoded under a
//! few real section shapes (with and without the object header, the table header and the dashes),
//! so libFuzzer's runs go into the row, age and wrapped-message code rather than format detection.
#![no_main]

use chrono::{DateTime, Utc};
use gpu_events_core::decode::{Decoder, Format};
use libfuzzer_sys::fuzz_target;

/// Section openings kubectl prints (describe.go `DescribeEvents`), and a paste without them.
const PREFIXES: [&str; 4] = [
    "Events:\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n",
    "Name:         llama-0\nNamespace:    ml\nStatus:       Pending\nEvents:\n  Type    Reason  Age  From  Message\n  ----    ------  ---  ----  -------\n",
    "Events:\n",
    "  Type    Reason  Age  From  Message\n",
];

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    for prefix in PREFIXES {
        let input = format!("{prefix}{body}");
        let mut decoder = Decoder::from_str(&input).reference_time(now());
        // The prefix makes it a text input whatever follows.
        assert_eq!(decoder.format(), Format::Text, "{prefix:?}");
        for item in decoder.by_ref().take(10_000) {
            match item {
                Ok(record) => assert!(record.count >= 1),
                // Text is read whole and is UTF-8 here: only per-line errors can come.
                Err(err) => assert!(!err.is_fatal(), "fatal error on text input: {err}"),
            }
        }
    }
});

/// A fixed clock, so a crash reproduces.
fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_795_000_000, 0).unwrap_or_default()
}
