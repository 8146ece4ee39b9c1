//! JSON and YAML streams with their containers: each input is decoded as the `object` of watch
//! envelopes (JSON and YAML), as the items of a List (JSON and YAML) and as bare YAML documents,
//! so the envelope/List unwrapping and the YAML path get the runs (`decode` mostly meets JSON or
//! fails detection). A fatal error must end the stream, and errors must say where they are.
#![no_main]

use gpu_events_core::decode::{DecodeError, Decoder};
use libfuzzer_sys::fuzz_target;

fn indented(body: &str, indent: &str) -> String {
    body.lines().map(|line| format!("{indent}{line}\n")).collect()
}

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let inputs = [
        format!("{{\"type\":\"ADDED\",\"object\":{body}}}\n{{\"type\":\"DELETED\",\"object\":{body}}}\n"),
        format!("{{\"apiVersion\":\"v1\",\"kind\":\"EventList\",\"items\":[{body},{body}],\"metadata\":{{}}}}"),
        format!("type: MODIFIED\nobject:\n{}---\ntype: BOOKMARK\nobject: {{}}\n", indented(&body, "  ")),
        format!("apiVersion: events.k8s.io/v1\nkind: EventList\nitems:\n-\n{}", indented(&body, "  ")),
        format!("---\n{body}"),
    ];
    for input in &inputs {
        let mut decoder = Decoder::from_str(input);
        let mut count = 0;
        while let Some(item) = decoder.next() {
            count += 1;
            if count > 10_000 {
                break;
            }
            let Err(err) = item else { continue };
            match &err {
                DecodeError::Json { line, column, .. } => assert!(*line >= 1 && *column >= 1, "{err}"),
                DecodeError::Yaml { line: Some(line), .. } => assert!(*line >= 1, "{err}"),
                _ => {}
            }
            if err.is_fatal() {
                assert!(decoder.next().is_none(), "items after the fatal error {err}");
                break;
            }
        }
    }
});
