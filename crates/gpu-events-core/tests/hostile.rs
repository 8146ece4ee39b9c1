//! Hostile input: huge lines, deep nesting, huge notes, invalid UTF-8, streams cut short. Each
//! gives a clear error (saying what and where) or a record, never a panic; the streamed JSON
//! path stays within a fixed memory bound whatever the input size.
//!
//! Memory is the process's peak resident set (`VmHWM`, reset through `/proc/self/clear_refs`),
//! which counts every allocation that was touched: a decoder holding a 100 MB input shows it.
//! (A counting global allocator would need `unsafe`, which the workspace forbids.) Large inputs
//! are generated lazily by [`Generated`], never committed or held whole.

use std::io::Read;
use std::sync::{Mutex, MutexGuard};

use gpu_events_core::EventRecord;
use gpu_events_core::decode::{DecodeError, Decoder};

const MIB: usize = 1024 * 1024;

/// Tests in this binary run one at a time, so a peak belongs to the test that measured it.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A `kB` line of `/proc/self/status`, in bytes.
fn status_bytes(key: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (these tests need Linux)");
    let line = status.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in /proc/self/status"));
    line[key.len()..].trim().trim_end_matches(" kB").trim().parse::<usize>().expect("a number of kB") * 1024
}

/// How far the resident set rose above its level at the call, while running `f`.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    // `5` resets the peak (VmHWM) to the current resident set (Linux >= 4.0).
    std::fs::write("/proc/self/clear_refs", "5").expect("resetting the peak resident set");
    let base = status_bytes("VmRSS:");
    let out = f();
    (out, status_bytes("VmHWM:").saturating_sub(base))
}

/// A reader that produces `head`, then `fill` repeated up to `len` bytes, then `tail`, without
/// holding the middle.
struct Generated {
    parts: Vec<(Vec<u8>, usize)>,
    part: usize,
    offset: usize,
}

impl Generated {
    fn new(head: &[u8], fill: &[u8], len: usize, tail: &[u8]) -> Self {
        Generated {
            parts: vec![(head.to_vec(), head.len()), (fill.to_vec(), len), (tail.to_vec(), tail.len())],
            part: 0,
            offset: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some((pattern, len)) = self.parts.get(self.part) {
            if self.offset >= *len || pattern.is_empty() {
                self.part += 1;
                self.offset = 0;
                continue;
            }
            let n = buf.len().min(len - self.offset);
            for (i, byte) in buf[..n].iter_mut().enumerate() {
                *byte = pattern[(self.offset + i) % pattern.len()];
            }
            self.offset += n;
            return Ok(n);
        }
        Ok(0)
    }
}

const GOOD_EVENT: &str = r#"{"apiVersion":"v1","kind":"Event","metadata":{"name":"ok.1","namespace":"ml"},"involvedObject":{"kind":"Pod","namespace":"ml","name":"llama-0"},"reason":"FailedScheduling","type":"Warning","message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","source":{"component":"default-scheduler"}}"#;

fn collect(decoder: impl Iterator<Item = Result<EventRecord, DecodeError>>) -> Vec<Result<EventRecord, DecodeError>> {
    decoder.collect()
}

fn error_text(item: &Result<EventRecord, DecodeError>) -> String {
    match item {
        Ok(record) => panic!("expected an error, got a record of {}", record.reason),
        Err(err) => err.to_string(),
    }
}

// ----- a 100 MB line ----------------------------------------------------------------------------

#[test]
fn a_100_mb_string_in_a_list_item_is_skipped_in_bounded_memory_and_the_next_item_reads() {
    let _serial = serial();
    let head = br#"{"apiVersion":"v1","kind":"EventList","items":[{"apiVersion":"v1","kind":"Event","involvedObject":{"kind":"Pod","name":"a"},"reason":"X","message":""#;
    let tail = format!("\"}},{GOOD_EVENT}]}}");
    let input = Generated::new(head, b"a", 100 * MIB, tail.as_bytes());
    let (items, peak) = peak_during(|| collect(Decoder::from_reader(input)));
    assert_eq!(items.len(), 2);
    assert_eq!(error_text(&items[0]), "document 1, items[0]: item larger than 33554432 bytes skipped (line 1)");
    assert!(!items[0].as_ref().unwrap_err().is_fatal());
    assert_eq!(items[1].as_ref().unwrap().reason, "FailedScheduling");
    // One item buffer (at most MAX_ITEM_BYTES, 32 MiB) and the reader's; not the 100 MB.
    assert!(peak < 64 * MIB, "peak {} MiB", peak / MIB);
}

#[test]
fn a_100_mb_string_in_a_top_level_event_is_an_error_in_bounded_memory() {
    let _serial = serial();
    let head = br#"{"apiVersion":"v1","kind":"Event","reason":"X","message":""#;
    let tail = format!("\"}}\n{GOOD_EVENT}\n");
    let input = Generated::new(head, b"a", 100 * MIB, tail.as_bytes());
    let (items, peak) = peak_during(|| collect(Decoder::from_reader(input)));
    // The oversized document is one error, and the document after it still reads.
    assert_eq!(items.len(), 2);
    assert_eq!(error_text(&items[0]), "document 1: document larger than 33554432 bytes skipped (line 1)");
    assert_eq!(items[1].as_ref().unwrap().regarding.name.as_deref(), Some("llama-0"));
    assert!(peak < 64 * MIB, "peak {} MiB", peak / MIB);
}

#[test]
fn a_100_mb_line_of_json_garbage_is_an_error_in_bounded_memory() {
    let _serial = serial();
    // Starts like JSON, then never closes: a scalar as long as the input.
    let input = Generated::new(b"[", b"nul", 100 * MIB, b"");
    let (items, peak) = peak_during(|| collect(Decoder::from_reader(input)));
    assert!(!items.is_empty() && items.iter().all(Result::is_err), "{} items", items.len());
    let text = error_text(&items[0]);
    assert!(text.contains("larger than 33554432 bytes"), "{text}");
    assert!(peak < 64 * MIB, "peak {} MiB", peak / MIB);
    let input = Generated::new(b"{\"items\": [{", b"\"a\":1,", 100 * MIB, b"");
    let (items, peak) = peak_during(|| collect(Decoder::from_reader(input)));
    let last = error_text(items.last().unwrap());
    assert!(last.contains("EOF") && last.contains("line 1"), "{last}");
    assert!(peak < 64 * MIB, "peak {} MiB", peak / MIB);
}

#[test]
fn a_100_mb_line_of_text_garbage_is_a_clear_error() {
    let _serial = serial();
    // Not JSON: read whole (YAML and text are parsed together), and rejected with a position.
    let input = Generated::new(b"", b"x: y: z ", 100 * MIB, b"");
    let (items, peak) = peak_during(|| collect(Decoder::from_reader(input)));
    let [item] = <[_; 1]>::try_from(items).unwrap();
    assert_eq!(error_text(&item), "malformed YAML at line 1, column 5: mapping values are not allowed in this context");
    // Read whole, so linear in the input (the text and the parser's copy), not streamed.
    assert!(peak < 300 * MIB, "peak {} MiB", peak / MIB);
    let input = Generated::new(b"", b"\xff\xfe garbage ", 100 * MIB, b"");
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_reader(input))).unwrap();
    assert_eq!(error_text(&item), "input is not UTF-8 text: invalid utf-8 sequence of 1 bytes from index 0");
}

// ----- deep nesting -----------------------------------------------------------------------------

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let _serial = serial();
    let depth = 100_000;
    // Unclosed: the stream ends inside the nesting.
    let open = "[".repeat(depth);
    let items = collect(Decoder::from_str(&open));
    assert!(error_text(items.last().unwrap()).contains("EOF"), "{items:?}");
    // Closed: every item is parsed by serde_json, whose recursion limit answers.
    let closed = format!("{open}{}", "]".repeat(depth));
    let items = collect(Decoder::from_str(&closed));
    let text = error_text(&items[0]);
    assert!(text.starts_with("document 1, items[0]: malformed JSON") && text.contains("recursion limit"), "{text}");

    // Nested objects inside a field the record does not carry (annotations): skipped by the
    // fast path without recursion (serde_json's `IgnoredAny` keeps its own stack), so the
    // Event reads, alone and in a List, and the List goes on.
    let nested = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    let bad = GOOD_EVENT.replacen(r#""metadata":{"#, &format!(r#""metadata":{{"annotations":{nested},"#), 1);
    let list = format!(r#"{{"apiVersion":"v1","kind":"EventList","items":[{bad},{GOOD_EVENT}]}}"#);
    let items = collect(Decoder::from_str(&list));
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|item| item.as_ref().is_ok_and(|r| r.reason == "FailedScheduling")), "{items:?}");
    let items = collect(Decoder::from_str(&bad));
    assert_eq!(items[0].as_ref().unwrap().regarding.name.as_deref(), Some("llama-0"));
    // Inside a watch envelope it is read as a whole value: a positioned error.
    let watch = format!("{{\"type\":\"ADDED\",\"object\":{bad}}}\n");
    let items = collect(Decoder::from_str(&watch));
    assert!(error_text(&items[0]).contains("recursion limit"), "{items:?}");
}

#[test]
fn deeply_nested_yaml_is_an_error_not_a_stack_overflow() {
    let _serial = serial();
    for (yaml, line) in [
        (format!("reason: X\nnote: {}", "[".repeat(100_000)), 2),
        (format!("{}1", "- ".repeat(100_000)), 1),
        (format!("reason: X\nnote: {}1{}", "{a: ".repeat(100_000), "}".repeat(100_000)), 2),
    ] {
        let items = collect(Decoder::from_str(&yaml));
        let [item] = <[_; 1]>::try_from(items).unwrap();
        let text = error_text(&item);
        assert!(
            text.starts_with(&format!("malformed YAML at line {line}")) && text.contains("recursion limit"),
            "{text}"
        );
    }
    // Refused before libyaml scans it (quadratic in the flow depth: this took minutes), with the
    // position of the 129th level; the documents before it still read.
    let yaml = format!("reason: X\nnote: a\n---\nreason: Y\nnote: {}", "[".repeat(100_000));
    let items = collect(Decoder::from_str(&yaml));
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().unwrap().reason, "X");
    assert_eq!(
        error_text(&items[1]),
        "malformed YAML at line 5, column 135: recursion limit exceeded (flow collections nested deeper than 128)"
    );
    // Brackets inside quoted scalars and comments are text.
    let yaml = format!("reason: X # {0}\nnote: \"{0}\"\nmessage: '{0}'\n", "[".repeat(1_000));
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_str(&yaml))).unwrap();
    assert_eq!(item.unwrap().note.len(), 1_000);
}

// ----- a 10 MB note -----------------------------------------------------------------------------

#[test]
fn a_10_mb_note_is_kept_whole_in_every_format() {
    let _serial = serial();
    let note = "GPU 메모리 ".repeat(10 * MIB / 14);
    let event = GOOD_EVENT.replace("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.", &note);
    let list = format!(r#"{{"apiVersion":"v1","kind":"EventList","items":[{event}]}}"#);
    let yaml = format!(
        "apiVersion: v1\nkind: Event\nreason: FailedScheduling\ninvolvedObject: {{kind: Pod, name: a}}\nmessage: \"{note}\"\n"
    );
    let table = format!(
        "LAST SEEN   TYPE      REASON             OBJECT    MESSAGE\n5m          Warning   FailedScheduling   pod/a     {note}\n"
    );
    // A table's message is its cell: kubectl trims it (the trailing space goes).
    for (input, kept) in [(&event, &*note), (&list, &note), (&yaml, &note), (&table, note.trim_end())] {
        let [record] = <[_; 1]>::try_from(collect(Decoder::from_str(input))).unwrap();
        let record = record.unwrap();
        assert_eq!(record.note.len(), kept.len());
        assert!(record.note == kept);
        // Not the recorder's 1024-byte cut: nothing to flag.
        assert!(record.flags.iter().all(|f| !matches!(f, gpu_events_core::Flag::Truncated)), "{:?}", record.flags);
    }
}

// ----- invalid UTF-8 ----------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_reported_where_it_is() {
    let _serial = serial();
    let bad = GOOD_EVENT.replace("Insufficient", "Insuf\u{1}ficient").replace('\u{1}', "\u{FFFD}");
    let bytes = bad.replace('\u{FFFD}', "\u{1}").into_bytes();
    let with_ff: Vec<u8> = bytes.iter().map(|b| if *b == 1 { 0xFF } else { *b }).collect();
    // A lone Event: a fatal JSON error with its position.
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_slice(&with_ff))).unwrap();
    let text = error_text(&item);
    assert!(text.starts_with("malformed JSON at line 1, column") && text.contains("invalid unicode"), "{text}");
    // In a List: that item fails, the next reads.
    let mut list = br#"{"kind":"EventList","apiVersion":"v1","items":["#.to_vec();
    list.extend_from_slice(&with_ff);
    list.push(b',');
    list.extend_from_slice(GOOD_EVENT.as_bytes());
    list.extend_from_slice(b"]}");
    let items = collect(Decoder::from_slice(&list));
    assert_eq!(items.len(), 2);
    let text = error_text(&items[0]);
    assert!(
        text.starts_with("document 1, items[0]: malformed JSON at line 1") && text.contains("invalid unicode"),
        "{text}"
    );
    assert!(items[1].is_ok());
    // YAML and text tables are read whole as UTF-8: one error, with the byte offset.
    let yaml = b"apiVersion: v1\nkind: Event\nreason: X\nmessage: caf\xE9\n";
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_slice(yaml))).unwrap();
    assert_eq!(error_text(&item), "input is not UTF-8 text: invalid utf-8 sequence of 1 bytes from index 49");
    let table = b"LAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n5m          Warning   Failed   pod/a    caf\xE9\n";
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_slice(table))).unwrap();
    assert!(error_text(&item).starts_with("input is not UTF-8 text: invalid utf-8 sequence"), "{item:?}");
}

// ----- a stream cut short -----------------------------------------------------------------------

#[test]
fn a_stream_cut_in_the_middle_says_where() {
    let _serial = serial();
    // A List cut inside its second item: the first item still reads.
    let list = format!("{{\"apiVersion\":\"v1\",\"kind\":\"EventList\",\"items\":[\n{GOOD_EVENT},\n{GOOD_EVENT}]}}");
    let cut = &list[..list.len() - 60];
    let items = collect(Decoder::from_str(cut));
    assert!(items[0].is_ok());
    let [.., last] = &items[..] else { unreachable!() };
    assert_eq!(
        error_text(last),
        format!(
            "malformed JSON at line 3, column {}: EOF while parsing a value",
            cut.lines().last().unwrap().len() + 1
        )
    );
    // Cut between items: the array never ends.
    let items = collect(Decoder::from_str(&list[..list.find(",\n").unwrap() + 2]));
    assert!(items[0].is_ok());
    assert_eq!(error_text(&items[1]), "malformed JSON at line 3, column 1: EOF while parsing a value");
    // A watch stream cut inside an envelope.
    let watch =
        format!("{{\"type\":\"ADDED\",\"object\":{GOOD_EVENT}}}\n{{\"type\":\"MODIFIED\",\"object\":{GOOD_EVENT}}}\n");
    let items = collect(Decoder::from_str(&watch[..watch.len() - 40]));
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    let text = error_text(&items[1]);
    assert!(text.starts_with("malformed JSON at line 2, column") && text.contains("EOF"), "{text}");
    // YAML cut inside a quoted scalar.
    let yaml = "apiVersion: v1\nkind: Event\nreason: X\ninvolvedObject: {kind: Pod, name: a}\nmessage: \"0/2 nodes are";
    let [item] = <[_; 1]>::try_from(collect(Decoder::from_str(yaml))).unwrap();
    let text = error_text(&item);
    assert_eq!(text, "malformed YAML at line 5, column 24: found unexpected end of stream");
    // A second YAML document cut inside its flow mapping: the first still reads.
    let yaml = "reason: X\nmessage: a\n---\nreason: Y\ninvolvedObject: {kind: Pod, name: ";
    let items = collect(Decoder::from_str(yaml));
    assert!(items[0].is_ok(), "{items:?}");
    assert_eq!(
        error_text(items.last().unwrap()),
        "malformed YAML at line 6, column 1: did not find expected node content"
    );
}
