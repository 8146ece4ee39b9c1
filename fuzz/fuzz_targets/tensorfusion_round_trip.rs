//! Every TensorFusion grammar: whatever parses must render back to exactly the same note.
#![no_main]

use gpu_events_core::details::{Details, Note};
use gpu_events_core::{Reason, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, rest @ ..] = data else { return };
    let rows: Vec<_> = Reason::all()
        .iter()
        .map(|r| r.info())
        .filter(|i| i.source == Source::TensorFusion && i.grammar.is_some())
        .collect();
    if rows.is_empty() {
        return;
    }
    let info = rows[usize::from(*a) % rows.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (note, action) = match text.split_once('\0') {
        Some((note, action)) => (note, Some(action)),
        None => (text, info.actions.first().copied()),
    };
    let Some(grammar) = info.grammar else { return };
    let details = grammar.parse(&Note::new(note).with_action(action));
    if let Details::TensorFusion(_) = details {
        assert_eq!(details.render().as_deref(), Some(note), "{}: render(parse(note)) != note", info.id);
    }
});
