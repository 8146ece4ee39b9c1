//! The text people paste: the Events section of `kubectl describe` (several objects in one paste,
//! each tied to its `Name:`/`Namespace:` header or to the `kubectl describe KIND NAME` typed above
//! it), `kubectl get events` tables (with or without the header, `-A` or `-o wide`, the namespace
//! and object of a typed `-n`/`--field-selector`), klog `"Event occurred"` lines, structured
//! kubelet and kube-scheduler log lines that echo an event, e2e event dumps and the e2e
//! framework's Pod failures, event routers' `[Nx ]Reason: message (event-name)` lines and
//! `Reason: message` summaries, console event lists with the reason on a line of its own
//! ([`ui`]), Pod status blocks and container states, waiting containers' messages, and messages
//! quoted in prose without their reason ([`bare`]).
//!
//! Relative ages are resolved against a reference time and the records are flagged
//! `approximateTime`. A line inside an Events table that is not a row continues the previous
//! row's message (terminals wrap long messages); nothing is dropped.

mod age;
pub(crate) mod bare;
mod columns;
mod described;
pub(crate) mod evidence;
mod klog;
mod pods;
mod row;
mod ui;

use chrono::{DateTime, Utc};

use self::age::Age;
pub(crate) use self::described::{ALLOCATABLE_BELOW_CAPACITY, NO_ACCELERATOR_LISTED};
use self::described::{Described, status_record};
use self::row::{Header, Row};
use super::{DecodeError, ItemLocation};
use crate::EventRecord;
use crate::record::{Flag, ObjectReference, RawEvent};

/// Whether the input is one of the text formats rather than YAML: it has an event table header,
/// an event row, or an event log line among its first lines.
pub(crate) fn looks_like_text(input: &str) -> bool {
    // A `kubectl describe` header (`Name:` then `Namespace:` at the start of lines) is not YAML
    // (its `Start Time:` values hold colons).
    let mut starts = input.lines().take(40).map(|l| l.split_once(':').map(|(k, _)| k).unwrap_or(""));
    if starts.any(|k| k == "Name") && input.lines().take(40).any(|l| l.starts_with("Namespace:")) {
        return true;
    }
    input.lines().filter(|l| !l.trim().is_empty()).take(200).any(|line| {
        // Quoted (`> `) or bordered rows are rows too.
        let line = &*crate::decode::segment::unquote(line);
        klog::is_log_line(line)
            || klog::has_klog_header(line)
            || Header::parse(line).is_some()
            || line.trim_start().starts_with("Events:")
            || Row::parse(line, None).is_some_and(|row| row.type_.is_some() || row.object.is_some())
    })
}

/// A row with the context it was found in, before it becomes a record.
struct Pending<'a> {
    row: Row<'a>,
    message: String,
    object: Described,
    /// The width, in characters, of the last line the row took.
    last_width: usize,
    /// The column the paste was cut at, if it was (see [`cut_width`]).
    cut: Option<usize>,
    /// The row was posted inside markdown inline code: a backtick opened before its reason (on
    /// its line, or before the table, `` `Events: ``) and is not yet closed.
    quoted: bool,
}

/// The column a paste was cut at (`cut -c1-140`, a pane's edge): the widest lines, when at
/// least [`CUT_MIN_WIDTH`] characters, include rows of two or more different messages. Rows
/// that end there and are not continued are cut (identical rows are as wide as each other
/// without being cut, so they do not count).
fn cut_width(input: &str) -> Option<usize> {
    let widest = input.lines().map(|l| l.chars().count()).max()?;
    if widest < CUT_MIN_WIDTH {
        return None;
    }
    let mut messages: Vec<&str> = input
        .lines()
        .filter(|l| l.chars().count() == widest)
        .filter_map(|l| Row::parse(l, None).map(|row| row.message))
        .collect();
    messages.sort_unstable();
    messages.dedup();
    (messages.len() >= 2).then_some(widest)
}

/// Narrower pastes are too common to tell a cut from rows that happen to end together.
const CUT_MIN_WIDTH: usize = 80;

/// What a text line was to the readers (every line is one of these; see [`account`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// Part of a record (a row, its wrapped lines, a klog line, a describe field).
    Read,
    /// Nothing to read: blank, a separator, a code fence, a paste's comment.
    Neutral,
    /// Read and known not to be events.
    NotEvents(&'static str),
    /// No reader took it.
    Unused,
}

/// Decode a text input into records, in input order, with a [`DecodeError::Unread`] for each
/// run of lines that look like events and were not read and a [`DecodeError::NotEvents`] for
/// each run of other lines no reader took.
pub(crate) fn decode(input: &str, now: DateTime<Utc>) -> Vec<Result<EventRecord, DecodeError>> {
    // YAML block scalars in text (`message: >-` and the lines under it), each read as one line.
    let lines: Vec<&str> = input.lines().collect();
    let lines = dedent_describes(lines);
    let folds = block_scalars(&lines);
    let mut out = Vec::new();
    let mut described = Described::default();
    let mut header: Option<Header> = None;
    let mut pending: Option<Pending<'_>> = None;
    let mut in_events = false;
    // Inside a `kubectl get pods` table (`Some(true)`: with NAMESPACE), and the Pods it lists.
    let mut pods_table: Option<bool> = None;
    let mut listed: Vec<pods::ListedPod> = Vec::new();
    let mut saw_accelerators = false;
    let mut uses = Vec::new();
    let mut previous = "";
    // A markdown inline-code span opened on an earlier line and not yet closed.
    let mut span_open = false;
    let cut = cut_width(input);
    let mut index = 0;
    // The folds are in line order: the next one is the only one the loop can reach.
    let mut folds = folds.iter().peekable();
    while index < lines.len() {
        // A fold a console pair read over (two lines at once) is passed.
        while folds.next_if(|(first, ..)| *first < index).is_some() {}
        let (line, span) = match folds.next_if(|(first, ..)| *first == index) {
            Some((_, span, joined)) => (joined.as_str(), *span),
            None => (lines[index], 1),
        };
        let number = index + 1;
        let line = inline_code_content(line);
        // A console list's reason line, read with the message line after it.
        if pending.is_none()
            && header.is_none()
            && let Some(record) = lines.get(index + 1).and_then(|next| ui::pair(line, next, &described.reference()))
        {
            out.push(Ok(record));
            uses.extend([Use::Read, Use::Read]);
            previous = lines[index + 1];
            index += 2;
            continue;
        }
        let use_ = read_line(
            line,
            previous,
            number,
            now,
            &mut State {
                out: &mut out,
                described: &mut described,
                header: &mut header,
                pending: &mut pending,
                in_events: &mut in_events,
                pods_table: &mut pods_table,
                listed: &mut listed,
                saw_accelerators: &mut saw_accelerators,
                cut,
                span_open,
            },
        );
        uses.extend(std::iter::repeat_n(use_, span));
        // A span opens at a line's start (`` `Events: ``) and closes at the next unpaired one.
        let odd = line.matches('`').count() % 2 == 1 && !line.trim_start().starts_with("```");
        span_open = if span_open { !odd } else { odd && line.trim_start().starts_with('`') };
        previous = line;
        index += span;
    }
    flush(&mut pending, now, &mut out);
    saw_accelerators |= described.lists_accelerators();
    out.extend(status_record(&described, now).map(Ok));
    if saw_accelerators {
        out.retain(|r| r.as_ref().map_or(true, |r| r.reason != described::NO_ACCELERATOR_LISTED));
    }
    name_from_notes(&mut out);
    name_echoes(&mut out);
    // Unnamed events beside a `get pods` table are about the one Pod it lists, or else the one
    // it lists stuck (not ready, not done) among Pods that run.
    let stuck: Vec<pods::ListedPod> = listed.iter().filter(|p| p.stuck()).cloned().collect();
    if let Some(pod) = only_pod(&listed).or_else(|| only_pod(&stuck)) {
        name_unnamed_pods(&mut out, &pod.name, pod.namespace.as_deref());
    }
    kind_for_the_section(&mut out);
    account(input, &uses, &mut out);
    out
}

/// A line posted whole as markdown inline code (`` `gpu-test2  pod  0/2  CrashLoopBackOff ...` ``)
/// is read without its two backticks; a line with other backticks is left as it is.
fn inline_code_content(line: &str) -> &str {
    let trimmed = line.trim();
    match trimmed.strip_prefix('`').and_then(|rest| rest.strip_suffix('`')) {
        Some(inner) if !inner.contains('`') && !inner.trim().is_empty() => inner,
        _ => line,
    }
}

/// A `kubectl describe` pasted indented as a whole (a markdown code block under a list item, a
/// quote's indentation): from an indented `Name:` field to the first line indented less, each
/// line loses that indentation, so the describe reads as printed.
fn dedent_describes(mut lines: Vec<&str>) -> Vec<&str> {
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let indent = line.len() - line.trim_start_matches(' ').len();
        let name_field = indent > 0
            && line[indent..]
                .strip_prefix("Name:")
                .is_some_and(|value| value.starts_with("  ") || value.starts_with('\t'));
        // A `Name:` nested in a describe's block (an admission check's) is no describe's start:
        // the line above it is prose or nothing, not a field of the same or a parent block
        // (`  Admission Checks:`).
        let under_a_field = || {
            lines[..index].iter().rev().find(|l| !l.trim().is_empty()).is_some_and(|above| {
                let above_indent = above.len() - above.trim_start_matches(' ').len();
                above_indent >= indent || (above.trim_end().ends_with(':') && above.split_whitespace().count() <= 3)
            })
        };
        let opens = name_field && !under_a_field();
        if !opens {
            index += 1;
            continue;
        }
        let prefix = &line[..indent];
        while index < lines.len() {
            let line = lines[index];
            if line.trim().is_empty() {
                index += 1;
                continue;
            }
            let Some(rest) = line.strip_prefix(prefix) else { break };
            lines[index] = rest;
            index += 1;
        }
    }
    lines
}

/// YAML block scalars pasted as text (a Pod's `message: >-` with its folded lines under it,
/// no parents to make it YAML): (first line index, lines spanned, the key and its lines joined
/// by spaces, at the key's indentation). A fold ends at a blank line or a line no deeper than
/// its key.
fn block_scalars(lines: &[&str]) -> Vec<(usize, usize, String)> {
    const INDICATORS: &[&str] = &[">-", ">", ">+", "|-", "|", "|+"];
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut folds = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let opens = line.trim_end().rsplit_once(": ").is_some_and(|(key, indicator)| {
            INDICATORS.contains(&indicator)
                && key.trim_start().starts_with(|c: char| c.is_ascii_lowercase())
                && key.trim_start().chars().all(|c| c.is_ascii_alphanumeric())
        });
        if !opens {
            index += 1;
            continue;
        }
        let depth = indent(line);
        let body: Vec<&str> = lines[index + 1..]
            .iter()
            .take_while(|next| !next.trim().is_empty() && indent(next) > depth)
            .map(|next| next.trim())
            .collect();
        if body.is_empty() {
            index += 1;
            continue;
        }
        let key = line.trim_end().rsplit_once(": ").map_or(line, |(key, _)| key);
        folds.push((index, body.len() + 1, format!("{key}: {}", body.join(" "))));
        index += body.len() + 1;
    }
    folds
}

/// The one Pod `pods` lists (perhaps in several rows).
fn only_pod(pods: &[pods::ListedPod]) -> Option<&pods::ListedPod> {
    match pods {
        [pod, rest @ ..] if rest.iter().all(|p| p.name == pod.name) => Some(pod),
        _ => None,
    }
}

/// The readers' state between lines.
struct State<'s, 'a> {
    out: &'s mut Vec<Result<EventRecord, DecodeError>>,
    described: &'s mut Described,
    header: &'s mut Option<Header>,
    pending: &'s mut Option<Pending<'a>>,
    in_events: &'s mut bool,
    pods_table: &'s mut Option<bool>,
    listed: &'s mut Vec<pods::ListedPod>,
    /// Some Node section of the input lists an accelerator.
    saw_accelerators: &'s mut bool,
    cut: Option<usize>,
    /// A markdown inline-code span opened on an earlier line is not yet closed.
    span_open: bool,
}

/// The narrowest terminal a wrapped row comes from (80 columns, less a margin for trailing
/// spaces a copy loses).
const WRAP_WIDTH: usize = 72;

/// Whether `line`, at column 0, is the hard wrap of `previous`: `previous` is as long as a
/// terminal is wide, `line` no longer than it (a terminal wraps at one width), and `line` does
/// not end as prose introducing what follows does (`:`, `：`, `?`).
fn wraps(previous: &str, line: &str) -> bool {
    let width = previous.chars().count();
    width >= WRAP_WIDTH && line.chars().count() <= width && !line.trim_end().ends_with([':', '：', '?'])
}

/// Whether `text` is a TYPE cut short (`Warn`, `Norm`): a row the paste cut in its first cell.
fn is_cut_type(text: &str) -> bool {
    !text.is_empty() && ["Warning", "Normal"].iter().any(|t| t.starts_with(text))
}

/// Whether a terminal's hard wrap (`next` at column 0) cut a token of `message` in two, so that
/// the halves join without a space: the message ends inside a URL (its last word has `://` and
/// no closing punctuation), or inside a quoted name (an odd number of `"`, closed by `next`'s
/// first word).
fn cuts_a_token(message: &str, next: &str) -> bool {
    let last = message.rsplit(' ').next().unwrap_or_default();
    let first = next.split(' ').next().unwrap_or_default();
    let in_url = last.contains("://") && !last.ends_with([')', ']', '}', ',', '.', ';', '"', '\'', '>']);
    let in_quote = message.matches('"').count() % 2 == 1 && !last.ends_with('"') && first.contains('"');
    !first.is_empty() && (in_url || in_quote)
}

/// Read one line (after `previous`); say what it was.
fn read_line<'a>(line: &'a str, previous: &str, number: usize, now: DateTime<Utc>, st: &mut State<'_, 'a>) -> Use {
    if line.trim().is_empty() {
        flush(st.pending, now, st.out);
        *st.pods_table = None;
        return Use::Neutral;
    }
    // `kubectl describe pod NAME -n NS` typed above its output names what follows.
    if let Some(object) = described::from_command(line) {
        flush(st.pending, now, st.out);
        *st.saw_accelerators |= st.described.lists_accelerators();
        st.out.extend(status_record(st.described, now).map(Ok));
        *st.described = object;
        return Use::Read;
    }
    let trimmed = line.trim_start();
    // A paste's own comment (`# ... (omitted) ...`), a code fence, a separator.
    // A markdown heading that quotes a message (an issue's title) is prose to read.
    let heading_quote = trimmed.starts_with("# ") && trimmed.contains('`');
    if (trimmed.starts_with("# ") && !heading_quote) || trimmed.starts_with("```") || trimmed.starts_with("----") {
        return Use::Neutral;
    }
    // A poster's elision (`...`, `…`) stands for lines left out: it ends a row, and is no note.
    if matches!(trimmed.trim_end(), "..." | "…" | "[...]" | "(...)") {
        flush(st.pending, now, st.out);
        return Use::Neutral;
    }
    if let Some(namespaced) = pods::header(line) {
        flush(st.pending, now, st.out);
        *st.pods_table = Some(namespaced);
        return Use::NotEvents(PODS_TABLE);
    }
    if let Some(mut pod) = pods::row(line, st.pods_table.unwrap_or(false)) {
        flush(st.pending, now, st.out);
        // `kubectl get pods -n NS` typed above a table without a NAMESPACE column.
        if pod.namespace.is_none() && st.described.name.is_none() {
            pod.namespace.clone_from(&st.described.namespace);
        }
        st.out.extend(pod.status_record(now).map(Ok));
        st.listed.push(pod);
        return Use::NotEvents(PODS_TABLE);
    }
    if klog::is_log_line(line) {
        flush(st.pending, now, st.out);
        let logged = klog::parse_klog(line, now)
            .or_else(|| klog::parse_old_klog(line, now))
            .or_else(|| klog::parse_rejected(line, now))
            .or_else(|| klog::parse_zap_event(line))
            .or_else(|| klog::parse_e2e(line));
        st.out.push(match logged {
            Some(event) => Ok(logged_record(&event)),
            None => Err(DecodeError::Item {
                location: ItemLocation { document: 1, item: None, name: None, line: Some(number) },
                message: "an event log line whose fields could not be read".to_owned(),
            }),
        });
        return Use::Read;
    }
    if let Some((namespace, name, err, time)) = klog::parse_unable_to_schedule(line, now) {
        flush(st.pending, now, st.out);
        let mut record = logged_pod_event("FailedScheduling", err, namespace, name);
        mark_logged(&mut record, time);
        st.out.push(Ok(record));
        return Use::Read;
    }
    if let Some(logged) = klog::parse_structured(line, now).or_else(|| klog::parse_logfmt(line)) {
        flush(st.pending, now, st.out);
        return match structured_record(&logged, now) {
            Some(record) => {
                st.out.push(Ok(record));
                Use::Read
            }
            None => match evidence::record(line, now) {
                Some(record) => {
                    st.out.push(Ok(record));
                    Use::Read
                }
                None => Use::NotEvents(LOG_LINE),
            },
        };
    }
    if let Some(found) = Header::parse(line) {
        flush(st.pending, now, st.out);
        *st.header = Some(found);
        *st.in_events = true;
        return Use::Read;
    }
    if trimmed.starts_with("Events:") {
        flush(st.pending, now, st.out);
        *st.in_events = true;
        *st.header = None;
        return Use::Read;
    }
    if let Some(row) = Row::parse(line, st.header.as_ref()) {
        flush(st.pending, now, st.out);
        let quoted = st.span_open || opens_span_before(line, row.reason);
        *st.in_events = true;
        *st.pending = Some(Pending {
            message: row.message.to_owned(),
            row,
            object: st.described.clone(),
            last_width: line.chars().count(),
            cut: st.cut,
            quoted,
        });
        return Use::Read;
    }
    match st.pending {
        // A wrapped message continues on the next line: indented, or at column 0 after a line
        // as long as a terminal's width (a short row followed by prose was not wrapped).
        Some(p)
            if *st.in_events
                // A row of a describe whose message starts on the next line takes that line
                // whatever its indentation.
                && (line.starts_with(char::is_whitespace)
                    || wraps(previous, line)
                    || (p.message.is_empty() && p.row.object.is_none() && p.row.from.is_some()))
                && !(line.starts_with(|c: char| !c.is_whitespace()) && line.contains(":  "))
                // A row cut after its first cell (`2m36s`, `Warn`) is no part of the message above.
                && age::parse_age(line.trim()).is_none()
                && !is_cut_type(line.trim())
                && reason_colon_message(line).is_none()
                // A row after a label (`- podGroup event：Normal ...`) is a row of its own.
                && row_after_prose(line).is_none() =>
        {
            // A terminal's wrap (at column 0) that cut a token joins its halves as they were.
            let glued = !line.starts_with(char::is_whitespace) && cuts_a_token(&p.message, line);
            if !p.message.is_empty() && !glued {
                p.message.push(' ');
            }
            p.message.push_str(line.trim());
            p.last_width = line.chars().count();
            Use::Read
        }
        _ => {
            flush(st.pending, now, st.out);
            // Prose before a row (`it fails with  Warning  FailedScheduling  77s ...`).
            if let Some((row, quoted)) = row_after_prose(line) {
                *st.in_events = true;
                let from = row.from.and_then(|f| split_source(f).0);
                // A row quoted in backticks ends at the closing one, and is whole.
                let closed = quoted && row.message.contains('`');
                let message = match quoted {
                    true => row.message.rsplit_once('`').map_or(row.message, |(inside, _)| inside),
                    false => row.message,
                };
                *st.pending = Some(Pending {
                    // The sentence may go on after the message.
                    message: bare::without_trailing_prose(row.reason, from, message).to_owned(),
                    row,
                    object: st.described.clone(),
                    last_width: line.chars().count(),
                    cut: st.cut,
                    quoted: st.span_open || line.trim_start().starts_with('`'),
                });
                if closed {
                    flush(st.pending, now, st.out);
                }
                return Use::Read;
            }
            // `FailedPrepareDynamicResources: Failed to prepare ...`, perhaps wrapped by hand.
            if let Some(row) = reason_colon_message(line) {
                *st.in_events = true;
                let quoted = st.span_open || opens_span_before(line, row.reason);
                *st.pending = Some(Pending {
                    message: row.message.to_owned(),
                    row,
                    object: st.described.clone(),
                    last_width: line.chars().count(),
                    cut: st.cut,
                    quoted,
                });
                return Use::Read;
            }
            if let Some(record) = pods::e2e_pod_failure(line, now) {
                st.out.push(Ok(record));
                return Use::Read;
            }
            if let Some(record) = pods::logs_waiting_to_start(line, now) {
                st.out.push(Ok(record));
                return Use::Read;
            }
            if let Some(record) = pods::waiting_message(line, now) {
                st.out.push(Ok(record));
                return Use::Read;
            }
            if let Some(record) = pods::runtime_error_message(line, now) {
                st.out.push(Ok(record));
                return Use::Read;
            }
            if let Some(record) = bare_message(line, st.described) {
                st.out.push(Ok(record));
                return Use::Read;
            }
            if !line.starts_with(char::is_whitespace) {
                *st.in_events = false;
                *st.header = None;
            }
            if line.starts_with("Name:") {
                *st.saw_accelerators |= st.described.lists_accelerators();
                st.out.extend(status_record(st.described, now).map(Ok));
            }
            if st.described.learn(line) {
                return Use::Read;
            }
            // A GPU component's own log line that is evidence of a cause.
            match evidence::record(line, now) {
                Some(record) => {
                    st.out.push(Ok(record));
                    Use::Read
                }
                None => Use::Unused,
            }
        }
    }
}

/// Log messages that come with an event whose note is the line's `err`: kube-scheduler's
/// failure handler logs `"Error scheduling pod; retrying" err=E pod=P` (an internal error) or
/// `"Unable to schedule pod; no fit; waiting" pod=P err=E` (a FitError) and records
/// `FailedScheduling` (Warning) on the Pod with E as its note (pkg/scheduler/factory.go
/// v1.19-v1.24, schedule_one.go v1.25-v1.35).
const LOGGED_EVENTS: &[(&str, &str, Option<&str>)] = &[
    ("Error scheduling pod; retrying", "FailedScheduling", Some("Warning")),
    ("Unable to schedule pod; no fit; waiting", "FailedScheduling", Some("Warning")),
];

const PODS_TABLE: &str = "a `kubectl get pods` table (its STATUS column read as the Pods' status)";
const LOG_LINE: &str = "log lines that echo no event";

/// The pod worker's log message for a failed sync (pkg/kubelet/pod_workers.go, v1.20-v1.36): its
/// `err` is a `SyncResult` error, `failed to %q for %q with %v: %q` (action, target, error
/// reason, message; pkg/kubelet/container/sync_result.go). Not an event itself: the kubelet
/// records the step's own event (or status) beside it.
const SYNC_FAILED: &str = "Error syncing pod, skipping";

/// The record a failed sync step stands for: a sandbox that could not be created is its
/// `FailedCreatePodSandBox` (`Failed to create pod sandbox: %v`, the CRI error the message ends
/// with), a back-off is the container's `CrashLoopBackOff` state, a container that could not be
/// created or started its waiting state with the message; any other step is only logged.
fn sync_failure_record(logged: &klog::Structured<'_>, pod: &str, now: DateTime<Utc>) -> Option<EventRecord> {
    let err = logged.field("err")?;
    let rest = err.strip_prefix("failed to ")?;
    let (_action, rest) = crate::details::node::split_quoted(rest)?;
    let (_target, rest) = crate::details::node::split_quoted(rest.strip_prefix(" for ")?)?;
    let (reason, message) = rest.strip_prefix(" with ")?.split_once(": ")?;
    let message = crate::details::node::unquote_or_raw(message);
    let (namespace, name) = pod.split_once('/').unwrap_or(("", pod));
    let mut record = match reason {
        "CrashLoopBackOff" => pods::waiting_message(&message, logged.time.unwrap_or(now))?,
        "CreatePodSandboxError" => {
            // `Failed to create sandbox for pod "P": <CRI error>`: the event gives the CRI error.
            let cri = message.split_once("\": ").map_or(message.as_str(), |(_, cri)| cri);
            logged_pod_event("FailedCreatePodSandBox", &format!("Failed to create pod sandbox: {cri}"), namespace, name)
        }
        "RunContainerError" | "CreateContainerError" | "CreateContainerConfigError" => crate::decode::pod::PodStatus {
            kind: Some("Pod".to_owned()),
            namespace: Some(namespace.to_owned()).filter(|n| !n.is_empty()),
            name: Some(name.to_owned()),
            waiting: Some(crate::decode::pod::ContainerState {
                reason: reason.to_owned(),
                message: Some(message.clone()),
                ..Default::default()
            }),
            time: logged.time,
            ..Default::default()
        }
        .record()?,
        _ => return None,
    };
    mark_logged(&mut record, logged.time);
    Some(record)
}

/// A Pod's event whose reason the log message names (flag `inferredReason`).
fn logged_pod_event(reason: &str, note: &str, namespace: &str, name: &str) -> EventRecord {
    let namespace = Some(namespace).filter(|n| !n.is_empty());
    RawEvent {
        reason: Some(reason),
        type_: Some("Warning"),
        note: Some(note),
        namespace,
        regarding: ObjectReference {
            kind: Some("Pod".to_owned()),
            namespace: namespace.map(str::to_owned),
            name: Some(name.to_owned()),
            ..ObjectReference::default()
        },
        inferred_reason: true,
        ..RawEvent::default()
    }
    .into_record()
}

/// The CRI calls whose failure the kubelet logs with the runtime's error and records as the
/// Pod's event, with the event's reason and the words its note puts before that error: the
/// kubelet's `klog.ErrorS(err, "RunPodSandbox from runtime service failed")` and its
/// neighbours (pkg/kubelet/cri/remote/remote_runtime.go, kuberuntime_sandbox.go,
/// kuberuntime_manager.go, v1.20-v1.35; the events `FailedCreatePodSandBox` "Failed to create
/// pod sandbox: %v" and `Failed` "Error: %v"), and containerd's own `RunPodSandbox for
/// &PodSandboxMetadata{Name:P,...,Namespace:NS,...} failed, error` (its CRI server's
/// sandbox_run.go, logrus `error=` field).
const RUNTIME_FAILURES: &[(&str, &str, &str)] = &[
    ("RunPodSandbox from runtime service failed", "FailedCreatePodSandBox", "Failed to create pod sandbox: "),
    ("CreatePodSandbox for pod failed", "FailedCreatePodSandBox", "Failed to create pod sandbox: "),
    ("Failed to create sandbox for pod", "FailedCreatePodSandBox", "Failed to create pod sandbox: "),
    ("RunPodSandbox for &PodSandboxMetadata{", "FailedCreatePodSandBox", "Failed to create pod sandbox: "),
    ("CreateContainer in sandbox from runtime service failed", "Failed", "Error: "),
    ("StartContainer from runtime service failed", "Failed", "Error: "),
];

/// The Pod event a logged CRI failure stands for (see [`RUNTIME_FAILURES`]), about the Pod the
/// line names (`pod="NS/P"`, or containerd's sandbox metadata), else the paste's unnamed Pod.
fn runtime_failure_record(logged: &klog::Structured<'_>) -> Option<EventRecord> {
    let (message, reason, lead) = RUNTIME_FAILURES.iter().find(|(m, ..)| logged.message.starts_with(m))?;
    let err = logged.field("err").or_else(|| logged.field("error"))?;
    let from_metadata = |key: &str| {
        let (_, after) = logged.message.split_once(&format!("{key}:"))?;
        after.split([',', '}']).next().filter(|v| !v.is_empty()).map(str::to_owned)
    };
    let (namespace, name) = match logged.field("pod") {
        Some(pod) => match pod.split_once('/') {
            Some((namespace, name)) => (Some(namespace.to_owned()), Some(name.to_owned())),
            None => (None, Some(pod.to_owned())),
        },
        None if message.ends_with('{') => (from_metadata("Namespace"), from_metadata("Name")),
        None => (None, None),
    };
    let note = format!("{lead}{err}");
    let mut record = RawEvent {
        reason: Some(reason),
        type_: Some("Warning"),
        note: Some(&note),
        namespace: namespace.as_deref().filter(|n| !n.is_empty()),
        regarding: ObjectReference {
            kind: Some("Pod".to_owned()),
            namespace: namespace.clone().filter(|n| !n.is_empty()),
            name: name.filter(|n| !n.is_empty()),
            ..ObjectReference::default()
        },
        inferred_reason: true,
        ..RawEvent::default()
    }
    .into_record();
    mark_logged(&mut record, logged.time);
    if !logged.approximate {
        record.flags.retain(|f| *f != Flag::ApproximateTime);
    }
    Some(record)
}

/// Flag a record read from a log line `fromLog`, timed by its klog header when it has one
/// (`approximateTime`: klog headers have no year).
fn mark_logged(record: &mut EventRecord, time: Option<DateTime<Utc>>) {
    let mut flag = |flag: Flag| {
        if let Err(at) = record.flags.binary_search(&flag) {
            record.flags.insert(at, flag);
        }
    };
    flag(Flag::FromLog);
    if time.is_some() {
        flag(Flag::ApproximateTime);
        record.first_timestamp = time;
        record.last_timestamp = time;
    }
}

/// The event a structured klog line stands for: kubelet logs an error it also records as an
/// event on the Pod (`klog.ErrorS(err, "Failed to prepare dynamic resources", "pod",
/// klog.KObj(pod))` beside `Eventf(pod, Warning, FailedPrepareDynamicResources, "Failed to prepare
/// dynamic resources: %v", err)`, kubelet/cm/dra/manager.go v1.34), so `message: err` on a line
/// that names a `pod="namespace/name"` is that event's note when a reason's grammar reads it
/// (flag `inferredReason`). Any other log line is no event.
fn structured_record(logged: &klog::Structured<'_>, now: DateTime<Utc>) -> Option<EventRecord> {
    if let Some(record) = runtime_failure_record(logged) {
        return Some(record);
    }
    let pod = logged.field("pod")?;
    if logged.message == SYNC_FAILED {
        return sync_failure_record(logged, pod, now);
    }
    // A log message whose `err` is, word for word, the note of the event recorded beside it.
    let echoed = LOGGED_EVENTS.iter().find(|(message, ..)| logged.message == *message);
    let (namespace, name) = match pod.split_once('/') {
        Some((namespace, name)) => (Some(namespace.to_owned()).filter(|n| !n.is_empty()), name),
        None => (None, pod),
    };
    let regarding = ObjectReference {
        kind: Some("Pod".to_owned()),
        api_version: Some("v1".to_owned()),
        namespace,
        name: Some(name.to_owned()).filter(|n| !n.is_empty()),
        ..ObjectReference::default()
    };
    let mut record = match (echoed, logged.field("err")) {
        (Some((_, reason, type_)), Some(err)) => RawEvent {
            reason: Some(reason),
            type_: *type_,
            note: Some(err),
            namespace: regarding.namespace.as_deref(),
            regarding: regarding.clone(),
            inferred_reason: true,
            ..RawEvent::default()
        }
        .into_record(),
        _ => {
            let note = match logged.field("err") {
                Some(err) => format!("{}: {err}", logged.message),
                None => logged.message.clone(),
            };
            bare::record(&note, &regarding)?
        }
    };
    mark_logged(&mut record, logged.time);
    Some(record)
}

/// Report the lines no reader took, by runs of consecutive lines: a run that looks like events
/// as [`DecodeError::Unread`] (events were lost), any other as [`DecodeError::NotEvents`].
fn account(input: &str, uses: &[Use], out: &mut Vec<Result<EventRecord, DecodeError>>) {
    let lines: Vec<&str> = input.lines().collect();
    let mut index = 0;
    while index < uses.len() {
        let use_ = uses[index];
        if matches!(use_, Use::Read | Use::Neutral) {
            index += 1;
            continue;
        }
        let mut end = index;
        // A run goes on over blank lines while the same use follows.
        let mut next = index + 1;
        while next < uses.len() {
            match uses[next] {
                u if u == use_ => {
                    end = next;
                    next += 1;
                }
                Use::Neutral if lines[next].trim().is_empty() => next += 1,
                _ => break,
            }
        }
        let (first_line, last_line) = (index + 1, end + 1);
        out.push(Err(match use_ {
            Use::NotEvents(what) => DecodeError::NotEvents { first_line, last_line, what: what.to_owned() },
            _ => match lines[index..=end].iter().find_map(|line| looks_like_an_event(line)) {
                Some(what) => DecodeError::Unread { first_line, last_line, what },
                None => DecodeError::NotEvents { first_line, last_line, what: "text".to_owned() },
            },
        }));
        index = end + 1;
    }
}

/// What makes an unread line look like an event: a reason the catalogue knows, as a row would
/// hold it (beside `Warning`/`Normal`, or followed by a column gap, or alone on its line).
fn looks_like_an_event(line: &str) -> Option<String> {
    // An event row is a few hundred bytes; a megabyte line is not one.
    let line = &line[..line.floor_char_boundary(4096)];
    let words: Vec<&str> = line.split_whitespace().collect();
    let typed = words.iter().any(|w| matches!(*w, "Warning" | "Normal"));
    words.iter().enumerate().find_map(|(i, word)| {
        let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if word.len() < 5 || !word.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        crate::ReasonName::parse(word).reason()?;
        let gap = line.find(word).is_some_and(|at| {
            let after = &line[at + word.len()..];
            after.starts_with("  ") || after.starts_with('\t')
        });
        // A line that opens with a reason: only a CamelCase one (`FailedMount ...`); `Failed to
        // create watcher` is a sentence.
        let camel = word.chars().skip(1).any(|c| c.is_ascii_uppercase());
        // A one-word reason in a column (`Pending`, `Failed`) is as often a phase or a status
        // cell of another table (`get pvc`, `get taskruns`): only beside a type.
        (typed || gap && camel || words.len() == 1 || i == 0 && words.len() > 2 && camel)
            .then(|| format!("an event with reason {word} that no reader could read"))
    })
}

/// A row that starts after prose on the same line: the first `Warning`/`Normal` word after a
/// space from which the rest of the line reads as a row of a reason the catalogue knows.
fn row_after_prose(line: &str) -> Option<(Row<'_>, bool)> {
    ["Warning ", "Normal "]
        .iter()
        .flat_map(|type_| line.match_indices(type_))
        // After a space, a backtick or a label's colon (`vcJob event：Warning ...`).
        .filter(|(at, _)| *at > 0 && line[..*at].ends_with([' ', '`', ':', '：']))
        .filter_map(|(at, _)| Some((Row::parse(&line[at..], None)?, line[..at].ends_with('`'))))
        .find(|(row, _)| row.type_.is_some() && crate::ReasonName::parse(row.reason).reason().is_some())
}

/// An event written `Reason: message` (a poster's summary of a describe row): a reason the
/// catalogue knows, in CamelCase of two or more words (`FailedMount`, not `Failed`, which opens
/// prose as often), then one space and the message.
fn reason_colon_message(line: &str) -> Option<Row<'_>> {
    let line = line.trim_start();
    // Event routers and log stores (eventrouter, Loki) write `43x Reason: message (event-name)`.
    let (count, line) = match line.split_once("x ") {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (n.parse().ok(), rest),
        _ => (None, line),
    };
    let (reason, message) = line.split_once(": ")?;
    let message = message.trim_end();
    let (message, event_name) = match message.strip_suffix(')').and_then(|m| m.rsplit_once(" (")) {
        Some((message, name)) if object_of_event_name(name).is_some() => (message, Some(name)),
        _ => (message, None),
    };
    // A one-word reason (`Nominated`) only in an event router's form, with its count or name.
    let camel = reason.chars().skip(1).any(|c| c.is_ascii_uppercase()) || count.is_some() || event_name.is_some();
    let word = reason.len() >= 6
        && reason.starts_with(|c: char| c.is_ascii_uppercase())
        && reason.chars().all(|c| c.is_ascii_alphanumeric());
    if !(camel && word)
        || message.is_empty()
        || message.starts_with(' ')
        || crate::ReasonName::parse(reason).reason().is_none()
    {
        return None;
    }
    Some(Row { reason, message, count, event_name, ..Row::default() })
}

/// The object an Event's name names: the recorder names Events `<object name>.<hex nanoseconds>`
/// (client-go `tools/record/event.go`, `fmt.Sprintf("%v.%x", ref.Name, t.UnixNano())`); `None`
/// for a name without such a suffix.
fn object_of_event_name(name: &str) -> Option<&str> {
    let (object, suffix) = name.rsplit_once('.')?;
    (suffix.len() >= 12 && suffix.bytes().all(|b| b.is_ascii_hexdigit()) && !object.is_empty() && !object.contains(' '))
        .then_some(object)
}

/// A message pasted without its reason (see [`bare`]): a status `Message:` with no `Reason:`,
/// or a line of prose that quotes one. Other `describe` fields are not messages.
fn bare_message(line: &str, described: &Described) -> Option<EventRecord> {
    let text = match line.split_once(':') {
        Some(("Message", value)) if !described.has_status_reason() => value,
        // Other fields of a describe (`Key:` padded to its value column, at any indent); prose
        // (`Error: 0/3 nodes ...`) has one space after its colon.
        Some((key, value))
            if key.trim_start().starts_with(|c: char| c.is_ascii_uppercase())
                && key.split_whitespace().count() <= 5
                && (value.is_empty() || value.starts_with("  ") || value.starts_with('\t')) =>
        {
            return None;
        }
        _ => line,
    };
    let message = bare::find_in_prose(text)?;
    let mut record = bare::record(message, &described.reference())?;
    let at = text.find(message).unwrap_or(0);
    stamp_from_prefix(&mut record, &text[..at]);
    // `Unschedulable: <message>` is the Pod's PodScheduled condition as `-o yaml` or a console
    // shows it: what the Pod's status says, not an event.
    // So is a message the sentence calls a condition's (`condition message: ...`, a PodGroup's).
    let before = text[..at].trim_end_matches([' ', '`', '"']);
    let condition = before.to_ascii_lowercase().contains("condition");
    if condition || (record.reason == "FailedScheduling" && before.ends_with("Unschedulable:")) {
        record.flags.push(Flag::FromStatus);
        record.flags.sort_unstable();
        record.flags.dedup();
    }
    Some(record)
}

/// What a log or a progress list writes before a message (`2023-02-08T18:27:02Z [Warning] `,
/// JupyterHub's spawn progress, event exporters): the RFC 3339 time it opens with is when the
/// event was seen, and a `[Type]` is its type.
fn stamp_from_prefix(record: &mut EventRecord, prefix: &str) {
    let mut words = prefix.split_whitespace();
    if let Some(time) = words.next().and_then(|w| DateTime::parse_from_rfc3339(w).ok()) {
        let time = time.to_utc();
        record.first_timestamp = Some(time);
        record.last_timestamp = Some(time);
    }
    for word in prefix.split_whitespace() {
        match word {
            "[Normal]" => record.type_ = Some(crate::EventType::Normal),
            "[Warning]" => record.type_ = Some(crate::EventType::Warning),
            _ => {}
        }
    }
}

/// Events that name no object, pasted beside the one Pod a paste lists (a `kubectl get pods`
/// table of one Pod, the Pod's manifest), are that Pod's: the paste is about it.
pub(crate) fn name_unnamed_pods(out: &mut [Result<EventRecord, DecodeError>], pod: &str, namespace: Option<&str>) {
    for record in out.iter_mut().filter_map(|r| r.as_mut().ok()) {
        let regarding = &mut record.regarding;
        if regarding.name.is_none() && regarding.kind.as_deref().is_none_or(|k| k == "Pod") {
            regarding.kind = Some("Pod".to_owned());
            regarding.name = Some(pod.to_owned());
            regarding.namespace = regarding.namespace.take().or_else(|| namespace.map(str::to_owned));
        }
    }
}

/// Rows of one unnamed section are about one object: when the reasons that concern one kind
/// agree on it (`FailedScheduling` is about a Pod), the rows whose reason does not say (a
/// vendor's `FilteringFailed`) are about that kind too, flagged `inferredKind`.
fn kind_for_the_section(out: &mut [Result<EventRecord, DecodeError>]) {
    let key = |r: &EventRecord| (r.regarding.name.clone(), r.regarding.namespace.clone());
    let records: Vec<&EventRecord> = out.iter().filter_map(|r| r.as_ref().ok()).collect();
    let mut kinds: std::collections::BTreeMap<_, std::collections::BTreeSet<String>> = Default::default();
    for record in &records {
        if let Some(kind) = &record.regarding.kind {
            kinds.entry(key(record)).or_default().insert(kind.clone());
        }
    }
    for record in out.iter_mut().filter_map(|r| r.as_mut().ok()) {
        if record.regarding.kind.is_none()
            && let Some(found) = kinds.get(&key(record))
            && found.len() == 1
        {
            record.regarding.kind = found.first().cloned();
            record.flags.push(crate::Flag::InferredKind);
            record.flags.sort_unstable();
        }
    }
}

/// The Pod a note names as its own: the scheduler's `Successfully assigned NS/POD to NODE`
/// (`Scheduled`), the kubelet's `Back-off restarting failed container C in pod POD_NS(UID)`
/// (`BackOff`, ≥1.26) and its DRA manager's `... referenced by pod POD: ...`
/// (`FailedPrepareDynamicResources`) are about the Pod they name.
fn own_pod(record: &EventRecord) -> Option<(String, Option<String>)> {
    use crate::details::{Details, NodeDetails, SchedulingDetails};
    match &record.details {
        Some(Details::Scheduling(SchedulingDetails::Scheduled(s))) => Some((s.pod.clone(), s.namespace.clone())),
        Some(Details::Node(NodeDetails::RestartBackOff(b))) => {
            b.pod.as_ref().map(|p| (p.name.clone(), Some(p.namespace.clone())))
        }
        Some(Details::Node(NodeDetails::DynamicResourcesFailed(f))) => {
            f.referencing_pod().map(|pod| (pod.to_owned(), None))
        }
        // dockershim's network errors name the sandbox's Pod: `... network for pod "P": NetworkPlugin
        // cni failed to set up pod "P_NS" network: ...`.
        Some(Details::Node(NodeDetails::RuntimeFailure(_))) => {
            let quoted = |marker: &str| record.note.split_once(marker)?.1.split_once('"').map(|(name, _)| name);
            match quoted("set up pod \"").and_then(|p| p.rsplit_once('_')) {
                Some((pod, namespace)) if !pod.is_empty() => Some((pod.to_owned(), Some(namespace.to_owned()))),
                _ => quoted("network for pod \"").filter(|p| !p.is_empty()).map(|p| (p.to_owned(), None)),
            }
        }
        // The kubelet's old mount timeout names its Pod as `format.Pod` does: `name_namespace(uid)`.
        Some(Details::Node(NodeDetails::VolumesNotMounted(v))) => {
            let (name, namespace) = v.pod.as_deref()?.split_once('(')?.0.rsplit_once('_')?;
            (!name.is_empty()).then(|| (name.to_owned(), Some(namespace.to_owned())))
        }
        // kube-scheduler v1.4-v1.5's FitError names its Pod: `pod (x) failed to fit in any node`.
        Some(Details::Scheduling(SchedulingDetails::FitError(_))) => {
            let (pod, _) = record.note.strip_prefix("pod (")?.split_once(") failed to fit in any node")?;
            (!pod.is_empty()).then(|| (pod.to_owned(), None))
        }
        // KAI's pod-grouper records its errors on the Pod it groups: `Pod "x" not found`.
        _ if record.reason == "PodGrouperWarning" => {
            let (pod, _) = record.note.strip_prefix("Pod \"")?.split_once('"')?;
            (!pod.is_empty()).then(|| (pod.to_owned(), None))
        }
        _ => None,
    }
}

/// Event rows pasted without their describe header name no object; notes that name their own
/// Pod ([`own_pod`]) name the Pod they all belong to, when they agree on one. Rows that name
/// their Pod but no namespace (`kubectl get events` without a NAMESPACE column, a typed command
/// the readers do not know) take the namespace such a note gives.
fn name_from_notes(out: &mut [Result<EventRecord, DecodeError>]) {
    let records = || out.iter().filter_map(|r| r.as_ref().ok());
    let mut named: Vec<(String, Option<String>)> = records().filter_map(own_pod).collect();
    // One Pod per name, with the namespace some note gives (old `Scheduled` notes have none).
    named.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    named.dedup_by(|later, first| later.0 == first.0);
    if records().any(|r| r.regarding.name.is_some()) {
        for record in out.iter_mut().filter_map(|r| r.as_mut().ok()) {
            let regarding = &mut record.regarding;
            if regarding.namespace.is_none()
                && regarding.kind.as_deref().is_none_or(|k| k == "Pod")
                && let Some((_, namespace)) =
                    named.iter().find(|(pod, ns)| ns.is_some() && regarding.name.as_deref() == Some(pod.as_str()))
            {
                regarding.namespace.clone_from(namespace);
            }
        }
        return;
    }
    // Two Pods named: the rows could be either's.
    let [(pod, namespace)] = named.as_slice() else { return };
    for record in out.iter_mut().filter_map(|r| r.as_mut().ok()) {
        record.regarding.kind = Some("Pod".to_owned());
        record.regarding.name = Some(pod.clone());
        record.regarding.namespace.clone_from(namespace);
    }
}

/// One failure logged twice, once with its Pod (containerd's line names the sandbox's Pod, the
/// kubelet's beside it does not): an unnamed log record whose reason and note a named record
/// has is about that record's object.
fn name_echoes(out: &mut [Result<EventRecord, DecodeError>]) {
    let named: Vec<(crate::ReasonName, String, ObjectReference)> = out
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .filter(|r| r.regarding.name.is_some())
        .map(|r| (r.reason.clone(), r.note.clone(), r.regarding.clone()))
        .collect();
    if named.is_empty() {
        return;
    }
    for record in out.iter_mut().filter_map(|r| r.as_mut().ok()) {
        if record.regarding.name.is_none()
            && record.has_flag(Flag::FromLog)
            && let Some((.., regarding)) =
                named.iter().find(|(reason, note, _)| *reason == record.reason && *note == record.note)
        {
            record.regarding = regarding.clone();
        }
    }
}

fn flush(pending: &mut Option<Pending<'_>>, now: DateTime<Utc>, out: &mut Vec<Result<EventRecord, DecodeError>>) {
    if let Some(p) = pending.take() {
        // A row with neither FROM nor message nor object was cut by the paste after its age.
        let cut =
            p.cut == Some(p.last_width) || (p.message.is_empty() && p.row.from.is_none() && p.row.object.is_none());
        let mut record = row_record(p, now);
        if cut || cut_inside(&record) {
            record.flags.push(crate::Flag::CutInPaste);
            record.flags.sort_unstable();
        }
        out.push(Ok(record));
    }
}

/// A note that shows where the paste cut it, whatever the other rows' widths: a quote left open
/// (Go's `%q` closes every one it opens), or a word cut short of the fixed start of its reason's
/// note format (`Pulling imag` of `Pulling image %q`; a whole word short of it, `Created
/// container` of `Created container %s`, is an older kubelet's full note).
fn cut_inside(record: &EventRecord) -> bool {
    let note = record.note.as_str();
    let open_quote = note.bytes().filter(|b| *b == b'"').count() % 2 == 1;
    let word_end = note.ends_with(|c: char| c.is_alphanumeric());
    let short_of_format = word_end
        && record.reason.info().is_some_and(|info| {
            info.note_formats.iter().any(|format| {
                let start = &format[..format.find('%').unwrap_or(format.len())];
                start.starts_with(note) && start[note.len()..].starts_with(|c: char| c.is_alphanumeric())
            })
        });
    open_quote || short_of_format
}

fn ago(now: DateTime<Utc>, delta: Option<chrono::TimeDelta>) -> Option<DateTime<Utc>> {
    delta.and_then(|d| now.checked_sub_signed(d))
}

/// `component`, `component, host` or `{component host}`.
fn split_source(from: &str) -> (Option<&str>, Option<&str>) {
    let from = from.trim().trim_start_matches('{').trim_end_matches('}');
    let (component, host) = match from.split_once(", ").or_else(|| from.split_once(' ')) {
        Some((component, host)) => (component.trim(), Some(host.trim())),
        None => (from, None),
    };
    (Some(component).filter(|c| !c.is_empty()), host.filter(|h| !h.is_empty()))
}

/// Whether the catalogue knows `reason` only about objects of `kind`, and the row does not say
/// another kind.
fn reason_is_only_about(reason: &str, kind: &str, given: Option<&str>) -> bool {
    given.is_none_or(|given| given.eq_ignore_ascii_case(kind))
        && crate::ReasonName::parse(reason).reason().is_some_and(|r| r.info().objects == [kind])
}

/// Whether the catalogue allows `reason` about an object of `kind` (an uncatalogued reason, or
/// one the catalogue lists no kinds for, may be about anything).
fn reason_may_regard(reason: &str, kind: &str) -> bool {
    crate::ReasonName::parse(reason).reason().is_none_or(|r| {
        let objects = r.info().objects;
        objects.is_empty() || objects.iter().any(|o| o.eq_ignore_ascii_case(kind))
    })
}

/// Whether `line` opens a markdown inline-code span before `reason` (`` `  Warning  X ``,
/// ``2.  `Normal  X``).
pub(super) fn opens_span_before(line: &str, reason: &str) -> bool {
    line.split_once(reason).is_some_and(|(before, _)| before.matches('`').count() % 2 == 1)
}

/// A note without the markdown backtick that closes the span a row was posted in (`` `  Warning
/// X  10s  kubelet  message` ``, a span opened before the table, `` `Events: ``, or after a list
/// marker, an e2e log line in inline code): one left unpaired at the note's end closes a span
/// opened before its first cell (no component writes one unpaired).
pub(super) fn without_closing_backtick(note: &str) -> &str {
    match note.strip_suffix('`') {
        Some(inner) if note.matches('`').count() % 2 == 1 => inner.trim_end(),
        _ => note,
    }
}

fn row_record(p: Pending<'_>, now: DateTime<Utc>) -> EventRecord {
    let Pending { row, message, object, quoted, .. } = p;
    let (component, host) = row.from.map_or((None, None), split_source);
    let mut regarding = ObjectReference::default();
    match row.object.and_then(|o| o.split_once('/')) {
        Some((kind, name)) => {
            regarding.kind = Some(crate::record::kinds::spelled(kind));
            regarding.name = Some(name.to_owned());
            // A table without a NAMESPACE column lists the namespace its command named
            // (`kubectl get events -n NS`), or the section's object's.
            let section = object.name.is_none() || object.name.as_deref() == Some(name);
            regarding.namespace =
                row.namespace.map(str::to_owned).or_else(|| object.namespace.clone().filter(|_| section));
        }
        // kubectl before 1.14: KIND and NAME are the object's.
        None if row.kind.is_some() => {
            regarding.kind = row.kind.map(str::to_owned);
            // NAME is the object's, or (the oldest kubectls) the Event's `<object>.<hex>`.
            regarding.name = row.event_name.map(|n| object_of_event_name(n).unwrap_or(n).to_owned());
            regarding.namespace = row.namespace.map(str::to_owned);
        }
        // A section named only by a command typed above, of a kind the reason is never about
        // (`describe node X | egrep ...`, then prose and a Pod's FailedScheduling row), is not
        // this row's object.
        None if object.typed_only
            && object.kind.as_deref().is_some_and(|kind| !reason_may_regard(row.reason, kind)) =>
        {
            regarding.namespace = row.namespace.map(str::to_owned);
        }
        None => {
            regarding.kind = object.kind.clone();
            regarding.name = object.name.clone();
            regarding.namespace = object.namespace.clone().or_else(|| row.namespace.map(str::to_owned));
            // An unnamed row with its Event's name (`-o wide`'s NAME, an event router's
            // `(name)`) is about the object that name starts with.
            if regarding.name.is_none() {
                regarding.name = row.event_name.and_then(object_of_event_name).map(str::to_owned);
            }
        }
    }
    // The kubelet records a Node's own events from that node: `kubelet, HOST` names it.
    if regarding.name.is_none()
        && component == Some("kubelet")
        && let Some(host) = host
        && reason_is_only_about(row.reason, "Node", regarding.kind.as_deref())
    {
        regarding.kind = Some("Node".to_owned());
        regarding.name = Some(host.to_owned());
    }
    // Cluster-scoped objects have no namespace, whatever the row's NAMESPACE (the Event's own,
    // `default` for Node events) or the section said.
    let event_namespace = regarding.namespace.clone();
    if regarding.kind.as_deref().is_some_and(crate::record::kinds::is_cluster_scoped) {
        regarding.namespace = None;
    }
    // kubectl ≥1.35 describe prefixes container events with `spec.containers{NAME}: `.
    let mut note = message.as_str();
    if let Some((path, rest)) = note.split_once("}: ")
        && path.starts_with("spec.")
        && path.contains('{')
        && !path.contains(' ')
    {
        regarding.field_path = Some(format!("{path}}}"));
        note = rest;
    }
    if quoted {
        note = without_closing_backtick(note);
    }
    if let Some(sub) = row.subobject.filter(|s| *s != "<none>") {
        regarding.field_path = Some(sub.to_owned());
    }
    let Age { last, first, count } = row.age.unwrap_or(Age { last: None, first: None, count: None });
    let first = first.or_else(|| row.first_seen.and_then(|a| a.last)).or(last);
    let namespace = event_namespace;
    RawEvent {
        reason: Some(row.reason),
        type_: row.type_,
        note: Some(note),
        regarding,
        reporting_controller: component,
        reporting_instance: host,
        count: count.or(row.count),
        first: [ago(now, first), None, None],
        last: [ago(now, last), None, None],
        name: row.event_name.filter(|_| row.kind.is_none()),
        namespace: namespace.as_deref(),
        approximate_time: last.is_some() || first.is_some(),
        infer_type: row.without_type_column,
        ..RawEvent::default()
    }
    .into_record()
}

fn logged_record(event: &klog::LoggedEvent) -> EventRecord {
    let regarding = ObjectReference {
        kind: event.kind.clone(),
        api_version: event.api_version.clone(),
        namespace: event.namespace.clone(),
        name: event.name.clone(),
        field_path: event.field_path.clone(),
        ..ObjectReference::default()
    };
    RawEvent {
        reason: Some(&event.reason),
        type_: event.type_.as_deref(),
        note: Some(&event.message),
        regarding,
        reporting_controller: event.component.as_deref(),
        reporting_instance: event.host.as_deref(),
        first: [event.time, None, None],
        last: [event.time, None, None],
        namespace: event.namespace.as_deref(),
        // klog headers have no year (`I0504 12:11:07`): the time is flagged approximate.
        approximate_time: event.year_inferred,
        ..RawEvent::default()
    }
    .into_record()
}
