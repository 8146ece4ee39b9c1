//! Every catalogued grammar on any note: the first two bytes pick the reason, the rest is the note
//! (and, after a NUL, the action).
#![no_main]

use gpu_events_core::Reason;
use gpu_events_core::details::Note;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let grammars: Vec<_> = Reason::all().iter().filter_map(|r| r.info().grammar).collect();
    if grammars.is_empty() {
        return;
    }
    let grammar = grammars[usize::from(u16::from_le_bytes([*a, *b])) % grammars.len()];
    let text = String::from_utf8_lossy(rest);
    let (note, action) = match text.split_once('\0') {
        Some((note, action)) => (note, Some(action)),
        None => (&*text, None),
    };
    let details = grammar.parse(&Note::new(note).with_action(action));
    let _ = details.kind();
});
