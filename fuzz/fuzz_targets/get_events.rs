//! The `kubectl get events` table decoder, reached directly: every input is read as the rows under
//! each header kubectl prints (default, `-A`, `-o wide`, `-A -o wide`, the pre-1.14 layout), so
//! the header-offset cutting and the shape fallback both get the runs.
#![no_main]

use chrono::{DateTime, Utc};
use gpu_events_core::decode::{Decoder, Format};
use libfuzzer_sys::fuzz_target;

/// kubectl's headers (printers.go `eventColumnDefinitions`), padded as its tabwriter pads them.
const HEADERS: [&str; 5] = [
    "LAST SEEN   TYPE      REASON             OBJECT                 MESSAGE\n",
    "NAMESPACE     LAST SEEN   TYPE      REASON             OBJECT                 MESSAGE\n",
    "LAST SEEN   TYPE     REASON    OBJECT    SUBOBJECT   SOURCE            MESSAGE        FIRST SEEN   COUNT   NAME\n",
    "NAMESPACE   LAST SEEN   TYPE     REASON    OBJECT    SUBOBJECT   SOURCE            MESSAGE        FIRST SEEN   COUNT   NAME\n",
    "LAST SEEN   FIRST SEEN   COUNT     NAME      KIND      SUBOBJECT   TYPE      REASON    SOURCE    MESSAGE\n",
];

fuzz_target!(|data: &[u8]| {
    let rows = String::from_utf8_lossy(data);
    for header in HEADERS {
        let input = format!("{header}{rows}");
        let mut decoder = Decoder::from_str(&input).reference_time(now());
        assert_eq!(decoder.format(), Format::Text, "{header:?}");
        for item in decoder.by_ref().take(10_000) {
            match item {
                Ok(record) => assert!(record.count >= 1),
                Err(err) => assert!(!err.is_fatal(), "fatal error on text input: {err}"),
            }
        }
    }
});

/// A fixed clock, so a crash reproduces.
fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_795_000_000, 0).unwrap_or_default()
}
