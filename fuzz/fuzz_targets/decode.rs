//! Any bytes through the input decoder: errors are fine, panics and unbounded work are not.
#![no_main]

use gpu_events_core::decode::Decoder;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for item in Decoder::from_slice(data).take(10_000) {
        let _ = item.map(|record| record.note.len());
    }
});
