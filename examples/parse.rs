//! Read a `kubectl get events -o json|yaml` dump and print what the catalogue knows of each event.
//!
//! ```sh
//! kubectl get events -A -o json > events.json
//! cargo run --example parse -- events.json
//! ```

use std::error::Error;
use std::fs::File;
use std::io::Write;

use gpu_events::core::decode::Decoder;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).ok_or("usage: parse FILE (a kubectl get events -o json|yaml dump)")?;
    // writeln! instead of println!: a closed pipe (`| head`) ends the program with an error, not a panic.
    let mut out = std::io::stdout().lock();
    for item in Decoder::from_reader(File::open(&path)?) {
        match item {
            Ok(record) => match record.reason.info() {
                Some(info) => {
                    writeln!(out, "{:<28} {:<22} {:<24} {}", record.reason, info.group, info.source, info.meaning)?
                }
                None => writeln!(out, "{:<28} (not in the catalogue) {}", record.reason, record.note)?,
            },
            // Per-item errors do not stop the decoder; a fatal error ends the iteration.
            Err(err) => eprintln!("{path}: {err}"),
        }
    }
    Ok(())
}
