//! Event messages pasted without their reason: a Pod status `Message:` with no `Reason:`, an
//! issue title, a message quoted in a sentence ("it fails with 0/3 nodes are available: ...").
//!
//! A message is taken for an event only when it starts with words one reason's message always
//! starts with, and that reason's grammar then reads it (its details are not `unrecognized`):
//! the grammar stays the one declaration of the format; this table only says which messages
//! name their reason. The record is flagged `inferredReason`.

use crate::details::Details;
use crate::record::RawEvent;
use crate::{EventRecord, ObjectReference, Reason};
use std::sync::OnceLock;

/// Starts the catalogue's note formats cannot give (the format opens with a verb, or a release
/// capitalises it), with the reason that writes them, its type, and the source.
const EXTRA_STARTS: &[Start] = &[
    // kube-scheduler FitError (pkg/scheduler/framework/types.go: "%d/%d nodes are available: %s"),
    // also HAMi's and Volcano's.
    ("0/", "FailedScheduling", Some("Warning")),
    // GKE's cluster-autoscaler writes the NotTriggerScaleUp note capitalised.
    ("Pod didn't trigger scale-up", "NotTriggerScaleUp", Some("Normal")),
    // The GKE console's summary of the PodScheduled condition (`PodUnschedulable` in its
    // workload errors): the FitError's reasons without counts; a status, not an event.
    (CONSOLE_START, "FailedScheduling", Some("Warning")),
    // The kubelet's container start failure (pkg/kubelet/kuberuntime/kuberuntime_container.go:
    // `FailedToStartContainer`, "Error: %v" of the runtime's error): `Error: ` alone is too
    // common a start, the runtime's own words after it are not.
    ("Error: failed to start container", "Failed", Some("Warning")),
    ("Error: failed to create containerd task", "Failed", Some("Warning")),
    ("Error: failed to create task for container", "Failed", Some("Warning")),
];

/// Marks a start that follows a count (`N/M`): the start is matched after one.
const COUNTED: &str = "N/M";

/// The start of a format that opens with a count, marked [`COUNTED`] (built once, in
/// [`starts`]'s table, which lives for the program).
fn leak_counted(start: &'static str) -> &'static str {
    Box::leak(format!("{COUNTED}{start}").into_boxed_str())
}

/// Whether `message` starts with `start`: literally, or, for a [`COUNTED`] start, after a
/// `digits/digits` count.
fn starts_with(message: &str, start: &str) -> bool {
    match start.strip_prefix(COUNTED) {
        Some(words) => count_len(message).is_some_and(|n| message[n..].starts_with(words)),
        None => message.starts_with(start),
    }
}

/// The length of a leading `digits/digits` count.
fn count_len(text: &str) -> Option<usize> {
    let a = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text[a..].strip_prefix('/')?;
    let b = rest.bytes().take_while(u8::is_ascii_digit).count();
    (a > 0 && b > 0).then_some(a + 1 + b)
}

/// The GKE console's summary of a Pod's `PodScheduled` condition: read as the FitError it sums
/// up, flagged `fromStatus` (the console shows the condition, not an event).
const CONSOLE_START: &str = "Cannot schedule pods: ";

/// A message start, the reason whose messages start so, and its type when it has only one.
type Start = (&'static str, &'static str, Option<&'static str>);

/// Shortest literal start of a note format taken as naming its reason: shorter ones (`Error: `)
/// open many reasons' messages and much prose.
const MIN_START: usize = 14;

/// The words each reason's messages start with: the literal text before the first verb of each
/// of its catalogue note formats (`Failed to prepare dynamic resources: %v`), when it is at
/// least [`MIN_START`] bytes, holds a space, and no other reason's format starts the same way;
/// then [`EXTRA_STARTS`]. Longest first, so that a longer start wins where one extends another.
fn starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let mut found: Vec<Start> = Vec::new();
        for info in Reason::all().iter().map(|reason| reason.info()) {
            // A reason recorded as both types leaves the type unsaid: nothing is invented.
            let type_ = match info.types {
                [only] => Some(only.as_str()),
                _ => None,
            };
            if info.family_affixes().is_some() {
                continue;
            }
            for format in info.note_formats {
                // `%v/%v tasks in gang unschedulable: %v` starts with a count: its words after it.
                let counted = ["%v/%v", "%d/%d"].iter().find_map(|c| format.strip_prefix(c));
                let literal = counted.unwrap_or(format);
                let start = &literal[..literal.find('%').unwrap_or(literal.len())];
                // A message quoted without its detail (`queue resource quota insufficient`)
                // starts as the format does up to its colon.
                let start = if counted.is_some() { start } else { start.strip_suffix(": ").unwrap_or(start) };
                if start.len() >= MIN_START && start.trim().contains(' ') {
                    found.push((if counted.is_some() { leak_counted(start) } else { start }, info.wire, type_));
                }
            }
        }
        // A start two reasons share names neither.
        let shared: Vec<&str> = found
            .iter()
            .filter(|(start, reason, _)| found.iter().any(|(s, r, _)| s == start && r != reason))
            .map(|(start, ..)| *start)
            .collect();
        found.retain(|(start, ..)| !shared.contains(start));
        found.extend_from_slice(EXTRA_STARTS);
        found.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        found.dedup();
        found
    })
}

/// How many trailing words of prose a message quoted in a sentence may carry ("... which is
/// unexpected some time", "... not being scheduled. I checked quota there").
const MAX_PROSE_WORDS: usize = 16;

/// The longest text [`without_trailing_prose`] shortens.
const MAX_TRIMMED: usize = 4096;

/// A message quoted in prose without its end marked, cut where the sentence goes on: when
/// `reason`'s grammar does not read the whole text but reads it without its last words, the
/// longest such prefix (at most [`MAX_PROSE_WORDS`] words off). The grammar is the one
/// declaration of where its message ends; a text it reads whole, or a reason without one, is
/// kept as it is.
pub(super) fn without_trailing_prose<'m>(reason: &str, controller: Option<&str>, message: &'m str) -> &'m str {
    let Some(grammar) = crate::ReasonName::resolve(reason, controller).info().and_then(|info| info.grammar) else {
        return message;
    };
    let reads = |text: &str| {
        let note = crate::details::Note::new(text).with_reporting_controller(controller);
        !matches!(grammar.parse(&note), Details::Unrecognized)
    };
    // Event notes are a few hundred bytes (events.k8s.io caps `note` at 1 kB): a longer text
    // is not shortened word by word, each step a parse.
    if message.len() > MAX_TRIMMED || reads(message) {
        return message;
    }
    let mut end = message.len();
    for _ in 0..MAX_PROSE_WORDS {
        let Some(space) = message[..end].trim_end().rfind(' ') else { break };
        end = space;
        let prefix = message[..end].trim_end();
        if reads(prefix) {
            return prefix;
        }
    }
    message
}

/// The record a bare message is, when it starts as one reason's messages do and that reason's
/// grammar reads it (in prose, perhaps without the words the sentence goes on with); `regarding`
/// is the object the surrounding text names.
pub(crate) fn record(message: &str, regarding: &ObjectReference) -> Option<EventRecord> {
    let message = message.trim();
    // A message quoted whole (`"0/3 nodes ..."`) loses its quotes; one that ends in a quoted
    // name (`Pulling image "alpine"`) keeps them.
    let message = ['"', '`', '\'']
        .iter()
        .find_map(|q| message.strip_prefix(*q).and_then(|m| m.strip_suffix(*q)))
        .unwrap_or(message)
        .trim();
    let (start, reason, type_) = starts().iter().find(|(start, ..)| starts_with(message, start))?;
    let message = without_trailing_prose(reason, None, message);
    let record = RawEvent {
        reason: Some(reason),
        reporting_controller: shared_wire_controller(reason, start),
        type_: *type_,
        note: Some(message),
        regarding: regarding.clone(),
        namespace: regarding.namespace.as_deref(),
        inferred_reason: true,
        from_status: *start == CONSOLE_START,
        ..RawEvent::default()
    }
    .into_record();
    // A message that only starts like one (prose after "0/") is not that reason's.
    let read = match &record.details {
        Some(Details::Unrecognized) => false,
        Some(_) => true,
        // A reason without a grammar: the start alone names it.
        None => record.known,
    };
    read.then_some(record)
}

/// For a wire string two sources record (`Unschedulable`: Volcano's and KAI's), the reporter of
/// the one whose note formats `start` comes from, so that its grammar reads the message (the
/// wording names the source); `None` for a wire string of one entry.
fn shared_wire_controller(wire: &str, start: &str) -> Option<&'static str> {
    let start = start.strip_prefix(COUNTED).unwrap_or(start);
    let mut entries = Reason::all().iter().map(|reason| reason.info()).filter(|info| info.wire == wire);
    let (first, second) = (entries.next()?, entries.next()?);
    [first, second]
        .into_iter()
        .chain(entries)
        .find(|info| info.note_formats.iter().any(|format| format.contains(start)))?
        .reporting_controllers
        .first()
        .copied()
}

/// Where in a line of prose a bare message starts: the first place one of [`starts`] begins a
/// word (after a space, a quote or a colon), for sentences that quote a message.
pub(super) fn find_in_prose(line: &str) -> Option<&str> {
    let at = starts()
        .iter()
        .filter_map(|(start, ..)| {
            let opens_word = |at: usize| {
                at == 0 || line[..at].ends_with([' ', '"', '`', '\'', ':', '(', '\t', '“', '「', '：', '（'])
            };
            match start.strip_prefix(COUNTED) {
                // The count before the words: back over `digits/digits`.
                Some(words) => line.match_indices(words).find_map(|(at, _)| {
                    let before = line[..at].trim_end_matches(|c: char| c.is_ascii_digit());
                    let before = before.strip_suffix('/')?.trim_end_matches(|c: char| c.is_ascii_digit());
                    let from = before.len();
                    (count_len(&line[from..]) == Some(at - from) && opens_word(from)).then_some(from)
                }),
                None => line.match_indices(start).map(|(at, _)| at).find(|at| opens_word(*at)),
            }
        })
        .min()?;
    let message = &line[at..];
    // A message quoted in a sentence ends at its closing quote, not at the end of the line; the
    // quote may open before words that lead the message (`` `Unschedulable: 0/1 nodes ...` ``).
    let before = &line[..at];
    // Full-width quotes (`“…”`, `「…」`) close with their pair.
    let opened = match before.chars().next_back() {
        Some(quote @ ('"' | '`')) => Some(quote),
        Some('“') => Some('”'),
        Some('「') => Some('」'),
        _ => before
            .rfind('`')
            .filter(|&open| {
                before[open + 1..].chars().all(|c| c != '"') && before[..open].matches('`').count().is_multiple_of(2)
            })
            .map(|_| '`'),
    };
    // Event messages hold double quotes (`Pulling image "x"`) but no backticks or full-width
    // quotes: those close at the first one, so that later quotes of the sentence stay prose.
    Some(match opened {
        Some('"') => message.rfind('"').map_or(message, |end| &message[..end]),
        Some(quote) => message.find(quote).map_or(message, |end| &message[..end]),
        None => message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_its_reason_when_its_grammar_reads_it() {
        let none = ObjectReference::default();
        let fit = record("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", &none).unwrap();
        assert_eq!(fit.reason, "FailedScheduling");
        assert!(fit.has_flag(crate::Flag::InferredReason));
        assert_eq!(fit.regarding.kind.as_deref(), Some("Pod"), "the reason's one kind");
        let admission = record(
            "Allocate failed due to requested number of devices unavailable for gpu.intel.com/i915. Requested: 1, Available: 0, which is unexpected",
            &none,
        )
        .unwrap();
        assert_eq!(admission.reason, "UnexpectedAdmissionError");
        // Prose that starts like a fit error is not one.
        assert!(record("0/10 of us would do this", &none).is_none());
        assert!(record("nothing to see", &none).is_none());
    }

    #[test]
    fn the_catalogue_note_formats_name_their_messages() {
        let none = ObjectReference::default();
        let read = |message: &str| {
            record(message, &none).map(|r| (r.reason.as_str().to_owned(), r.type_.map(|t| t.as_str().to_owned())))
        };
        // From kubelet's formats (`reason/kubelet.rs`), no grammar: the start alone names it.
        assert_eq!(
            read("Container runtime did not kill the pod within specified grace period."),
            Some(("ExceededGracePeriod".to_owned(), Some("Warning".to_owned())))
        );
        assert_eq!(
            read("Failed to prepare dynamic resources: prepare failed").map(|r| r.0).as_deref(),
            Some("FailedPrepareDynamicResources")
        );
        // BackOff is recorded as Normal (image pull) and Warning (container): no type invented.
        assert_eq!(
            read("Back-off restarting failed container main in pod p_ns(uid)"),
            Some(("BackOff".to_owned(), None))
        );
        // Starts shorter than MIN_START (`Error: %v`) name nothing; a runtime's start failure
        // after it does.
        assert_eq!(read("Error: something failed"), None);
        assert_eq!(
            read(
                "Error: failed to start container \"ctr\": Error response from daemon: OCI runtime create failed: unknown"
            ),
            Some(("Failed".to_owned(), Some("Warning".to_owned())))
        );
    }

    #[test]
    fn formats_that_open_with_a_count_or_end_in_a_detail_name_their_messages() {
        let none = ObjectReference::default();
        // corpus 217: Volcano's two PodGroup notes pasted bare, one line each.
        let gang = record("0/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable", &none).unwrap();
        assert_eq!((gang.reason.as_str(), gang.regarding.kind.as_deref()), ("Unschedulable", Some("PodGroup")));
        let quota = record("queue resource quota insufficient", &none).unwrap();
        assert_eq!(quota.reason, "Unschedulable");
        // A count alone is not the start; words after a count that is none are not either.
        assert!(record("tasks in gang unschedulable: pod group is not ready", &none).is_none());
        assert!(record("x/0 tasks in gang unschedulable: pod group is not ready", &none).is_none());
        assert_eq!(
            find_in_prose("the event says 3/4 tasks in gang unschedulable: pod group is not ready, 4 minAvailable"),
            Some("3/4 tasks in gang unschedulable: pod group is not ready, 4 minAvailable")
        );
        assert_eq!(find_in_prose("v1/2 tasks in gang unschedulable: x"), None);
    }

    #[test]
    fn a_sentence_that_goes_on_after_a_message_is_not_its_note() {
        let none = ObjectReference::default();
        let scale_up = record(
            "Node scale up in zones us-central1-c associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled. I checked quota there's enough GPU.",
            &none,
        )
        .unwrap();
        assert_eq!(
            scale_up.note,
            "Node scale up in zones us-central1-c associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled."
        );
        let admission =
            record("Allocate failed due to failed to find gpu id, which is unexpected some time", &none).unwrap();
        assert_eq!(admission.note, "Allocate failed due to failed to find gpu id, which is unexpected");
        // A message the grammar reads whole keeps its words.
        let fit = record("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.", &none).unwrap();
        assert_eq!(fit.note, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    }

    #[test]
    fn messages_are_found_where_a_sentence_quotes_them() {
        // A quoted message ends at its closing quote.
        assert_eq!(
            find_in_prose("it says `Allocate failed due to x, which is unexpected` and stops"),
            Some("Allocate failed due to x, which is unexpected")
        );
        assert_eq!(
            find_in_prose(
                "crashing with \"The node was low on resource: ephemeral-storage. Container \"llm\" was using 5Ki\""
            ),
            Some("The node was low on resource: ephemeral-storage. Container \"llm\" was using 5Ki")
        );
        assert_eq!(
            find_in_prose("pod stays pending with 0/1 nodes are available: 1 Insufficient nvidia.com/gpu."),
            Some("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
        );
        assert_eq!(find_in_prose("version 10/12 of the docs"), None);
        // Full-width quotes in Chinese prose (volcano-sh/volcano#4446).
        assert_eq!(
            find_in_prose("看到提示“0/2 nodes are available: 2 Insufficient nvidia.com/gpu.”，然后"),
            Some("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.")
        );
        assert_eq!(
            find_in_prose("I get the error:  `Unschedulable: 0/1 nodes are available: 1 Insufficient x.` Thanks"),
            Some("0/1 nodes are available: 1 Insufficient x.")
        );
        // Corpus 300: the sentence quotes more after the message's closing backtick.
        assert_eq!(
            find_in_prose(
                "an error `0/1 nodes are available: 1 Insufficient nvidia.com/gpu.`, so the `nvidia.com/gpu` plugin"
            ),
            Some("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
        );
    }
}
