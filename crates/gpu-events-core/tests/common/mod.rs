//! Helpers shared by this crate's integration tests: one loader for the case files of
//! `tests/fixtures/cases/`, one way to cut a case into its event text, to find a message in it,
//! to run a catalogue row's grammar and to decode. Each test binary uses some of them.
#![allow(dead_code, unused_macros, unused_imports)]

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::ReasonName;
use gpu_events_core::decode::Decoder;
use gpu_events_core::details::{Details, Note};

/// A case file of `tests/fixtures/cases/`, by file name, as a `&'static str` (usable in consts).
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases/", $name))
    };
}
pub(crate) use fixture;

/// The instant relative ages (`5m`, `x3 over 10m`) are counted back from.
pub fn now() -> DateTime<Utc> {
    "2026-11-30T06:00:00Z".parse().unwrap()
}

/// A case's event text: after its header comments, before its `# expected:` block.
pub fn case(text: &str) -> &str {
    let start = text.find("\n\n").map_or(0, |i| i + 2);
    &text[start..text.find("# expected:").unwrap_or(text.len())]
}

/// A case without its `# expected:` block (the header comments kept).
pub fn raw(text: &str) -> &str {
    text.split("\n# expected:").next().unwrap_or(text)
}

/// Every message of the case's text (its `# expected:` block left out) that starts with `start`:
/// from its first occurrence in a line to the end of that line. Panics when there is none.
pub fn messages<'a>(text: &'a str, start: &str) -> Vec<&'a str> {
    let found: Vec<&str> =
        raw(text).lines().filter_map(|line| line.find(start).map(|at| line[at..].trim_end())).collect();
    assert!(!found.is_empty(), "no message starting with {start:?}");
    found
}

/// The first message starting with `start`.
pub fn message<'a>(text: &'a str, start: &str) -> &'a str {
    messages(text, start)[0]
}

/// The one message starting with `start` (panics when it occurs more than once).
pub fn single_message<'a>(text: &'a str, start: &str) -> &'a str {
    let found = messages(text, start);
    assert_eq!(found.len(), 1, "{start:?} occurs more than once");
    found[0]
}

/// Parse `note` with the grammar the catalogue gives `reason` reported by `controller`.
pub fn parse(reason: &str, controller: Option<&str>, note: &str) -> Details {
    let info =
        ReasonName::resolve(reason, controller).info().unwrap_or_else(|| panic!("{reason} is not in the catalogue"));
    let grammar = info.grammar.unwrap_or_else(|| panic!("{} has no grammar", info.id));
    let details = grammar.parse(&Note::new(note).with_reporting_controller(controller));
    assert!(
        matches!(details, Details::Unrecognized) || grammar.kinds.contains(&details.kind()),
        "{}: the grammar gave a kind it does not declare: {}",
        info.id,
        details.kind()
    );
    details
}

/// Decode `text` (ages counted back from [`now`]); every item must decode.
pub fn records(text: &str) -> Vec<EventRecord> {
    Decoder::from_str(text).reference_time(now()).map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}
