//! Where redaction's time goes on a large text: `cargo run --release -p gpu-events-export
//! --example redact_cost -- FILE` prints the time of the whole engine on FILE.

use std::time::Instant;

use gpu_events_export::redact::Counts;
use gpu_events_export::{RedactionConfig, Redactor};

fn main() {
    let path = std::env::args().nth(1).expect("usage: redact_cost FILE");
    let text = std::fs::read_to_string(&path).expect("FILE is UTF-8 text");
    let redactor = Redactor::new(&RedactionConfig::default()).expect("the rules compile");
    for _ in 0..2 {
        let start = Instant::now();
        let mut counts = Counts::default();
        // Chunks as the stream functions cut them.
        let mut total = 0;
        for chunk in text.as_bytes().chunks(256 * 1024) {
            total += redactor.redact_bytes(chunk, &mut counts).len();
        }
        println!("{} bytes in {:?}: {}", total, start.elapsed(), redactor.summary(&counts));
    }
}
