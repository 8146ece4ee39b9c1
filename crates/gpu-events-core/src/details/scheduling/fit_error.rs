//! The scheduler FitError: `0/N nodes are available: <histogram>.` in all its historical forms,
//! and Volcano's `0/N nodes are unavailable: <histogram>.`.
//!
//! Sources: kubernetes/kubernetes `pkg/scheduler/framework/types.go` `(*FitError).Error()`
//! (v1.14–v1.36; `core/generic_scheduler.go` before), `framework/preemption/preemption.go`,
//! `schedule_one.go` `truncateMessage`; volcano-sh/volcano `pkg/scheduler/api/unschedule_info.go`
//! `(*FitErrors).Error()` (ed72c7c8 and older). Grammar (`kubernetes-gpu-reasons.md` §2.2):
//!
//! ```text
//! MSG        := ["In hyperNode " NAME ": "] HEADER [": " BODY] ["." " " POSTFILTER] ENDING
//! HEADER     := "0/" N " nodes are available" | "0/" N " nodes are unavailable"
//!             | "all nodes are unavailable"
//!             | "No nodes are available that match all of the [following ]predicates:"  (≤1.9)
//! BODY       := PREFILTER_SENTENCE | ENTRY {", " ENTRY}       ENTRY := COUNT " " REASON
//! POSTFILTER := PF_MSG {", " PF_MSG}, the DefaultPreemption one being "preemption: " + its own
//!               "0/N nodes are available: " histogram or a sentence
//! ENDING     := "." | ".." (1.24–~1.29) | " ..." (truncated at 1024 bytes) | nothing
//! ```
//!
//! Entries are split on `, ` only when a count follows (`, <digits> `), because reasons contain
//! commas (`had taint {k: v}, that the pod didn't tolerate`). Counts are per reason: one node
//! adds one count to every reason it failed with, so they can sum to more than N.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::node_reason::NodeReason;
use crate::details::text::{find, find_all, rfind, rfind_all};

/// A scheduler FitError: why no node could take the Pod, as a histogram of per-node reasons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FitError {
    /// Which header the message has (kube-scheduler `available`, Volcano `unavailable`, ...).
    pub wording: FitErrorWording,
    /// Volcano: the HyperNode of the `In hyperNode <name>: ` prefix.
    pub hyper_node: Option<String>,
    /// N of `0/N`: the nodes considered (count). Absent for Volcano's `all nodes are
    /// unavailable` and the ≤1.9 predicates wording.
    pub total_nodes: Option<u32>,
    /// The histogram, in message order (Go `sort.Strings` order). Empty when a PreFilter plugin
    /// rejected the Pod ([`FitError::pre_filter`]) or the message has no body.
    pub reasons: Vec<ReasonCount>,
    /// The PreFilter plugin's sentence when it rejected the Pod before any node was filtered
    /// (≥~1.27: no counts), e.g. `pod has unbound immediate PersistentVolumeClaims`.
    pub pre_filter: Option<String>,
    /// PostFilter plugin messages other than preemption, in order (e.g. DynamicResources
    /// `no new claims to deallocate`).
    pub post_filter: Vec<String>,
    /// The DefaultPreemption outcome (`preemption: ...`, ≥1.24).
    pub preemption: Option<Preemption>,
    /// How the message ends.
    pub ending: Ending,
}

/// The header of a FitError.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum FitErrorWording {
    /// kube-scheduler `0/N nodes are available` (≥1.10).
    Available,
    /// Volcano `0/N nodes are unavailable`.
    Unavailable,
    /// Volcano's older default `all nodes are unavailable` (no N).
    AllUnavailable,
    /// kube-scheduler ≤1.9 `No nodes are available that match all of the (following)
    /// predicates:` with `Reason (count)` entries.
    Predicates,
    /// kube-scheduler v1.4-v1.5 `pod (NAME) failed to fit in any node` with a `fit failure on
    /// node (NODE): REASON, ...` line per node; the histogram counts the nodes per reason.
    PerNode,
    /// The GKE console's summary of the Pod's `PodScheduled` condition: `Cannot schedule pods:
    /// Insufficient nvidia.com/gpu.` (reasons without counts: each entry counts 1, at least one
    /// node; `totalNodes` is absent).
    Console,
}

/// One histogram entry: how many nodes reported a reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasonCount {
    /// Number of nodes that reported the reason (count).
    pub count: u32,
    /// The reason, typed; its `text` is the reason as written.
    pub reason: NodeReason,
}

impl ReasonCount {
    /// An entry.
    pub fn new(count: u32, reason: NodeReason) -> Self {
        ReasonCount { count, reason }
    }
}

/// The DefaultPreemption PostFilter message (`preemption: ...`).
///
/// JSON: `{"type": "nodes", "totalNodes": 3, "reasons": [...]}` or
/// `{"type": "message", "message": "not eligible due to preemptionPolicy=Never."}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum Preemption {
    /// No node can be made to fit by preemption: `0/N nodes are available: <histogram>`.
    Nodes {
        /// N: the nodes the preemption evaluator looked at (count).
        total_nodes: u32,
        /// Why preemption does not help, per node: `Preemption is not helpful for scheduling`,
        /// `No preemption victims found for incoming pod`, or the node's own filter reason.
        reasons: Vec<ReasonCount>,
    },
    /// A sentence instead of a histogram, e.g. `not eligible due to preemptionPolicy=Never.`,
    /// `not eligible due to a terminating pod on the nominated node.`,
    /// `no candidate node for preemption`.
    Message {
        /// The sentence as written (without the message's final period).
        message: String,
    },
}

/// How a FitError message ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Ending {
    /// `.`
    Period,
    /// `..` (kube-scheduler 1.24 to ~1.29 with a preemption histogram).
    DoublePeriod,
    /// ` ...`: cut at the 1024-byte note limit; the last entry may be incomplete.
    Truncated,
    /// No final period (GKE's optimize-utilization scheduler, some extender setups).
    None,
}

/// PostFilter messages recognised without a following `preemption: ` section.
const KNOWN_POST_FILTER: &[&str] = &["no new claims to deallocate", "PodGroup ", "can not find pod group"];

impl FitError {
    /// Parse a FitError message in any of its forms; `None` if the note is not one.
    pub fn parse(note: &str) -> Option<FitError> {
        let (text, ending) = split_ending(note.trim());
        let truncated = ending == Ending::Truncated;
        // A cut note keeps the separator before the cut (`{team: gpu}.`, `..., `): not part of
        // the last entry.
        let text = if truncated { text.trim_end_matches([' ', ',', '.']) } else { text };
        let (hyper_node, text) = match text.strip_prefix("In hyperNode ") {
            Some(rest) => {
                let (name, rest) = rest.split_once(": ")?;
                (Some(name.to_owned()), rest)
            }
            None => (None, text),
        };
        if let Some(per_node) = parse_per_node(text, ending) {
            return Some(per_node);
        }
        if let Some(body) = text.strip_prefix("Cannot schedule pods: ") {
            return parse_console(body, ending);
        }
        let (wording, total_nodes, rest) = parse_header(text)?;
        if wording == FitErrorWording::Predicates {
            return Some(FitError {
                wording,
                hyper_node,
                total_nodes,
                reasons: parse_predicate_entries(rest, truncated)?,
                pre_filter: None,
                post_filter: Vec::new(),
                preemption: None,
                ending,
            });
        }
        let any_plugin = wording == FitErrorWording::Available;
        let rest = if truncated && any_plugin { strip_cut_preemption_label(rest) } else { rest };
        let (body, mut post_filter, mut preemption) = split_post_filter(rest, any_plugin);
        // The body is complete when a preemption section follows it, even a cut one.
        let body_truncated = truncated && preemption.is_none();
        // A preemption section cut inside its own `0/N nodes are available` header says nothing.
        if truncated && preemption.is_some_and(is_cut_nodes_header) {
            preemption = None;
        }
        // A PostFilter plugin that runs after DefaultPreemption adds `, <message>` after the
        // preemption's own final period.
        if let Some(text) = preemption
            && let Some(at) = find(text, "., ")
        {
            preemption = Some(&text[..=at]);
            post_filter.extend(text[at + 3..].split(", "));
        }
        let (reasons, pre_filter) = parse_body(body, body_truncated)?;
        let preemption = match preemption {
            Some(text) => Some(Preemption::parse(text, truncated)?),
            None => None,
        };
        Some(FitError {
            wording,
            hyper_node,
            total_nodes,
            reasons,
            pre_filter,
            post_filter: post_filter.into_iter().map(str::to_owned).collect(),
            preemption,
            ending,
        })
    }

    /// The count of the first entry whose reason is `Insufficient <resource>`.
    pub fn insufficient(&self, resource: &str) -> Option<u32> {
        self.reasons
            .iter()
            .find(|entry| entry.reason.insufficient_resource() == Some(resource))
            .map(|entry| entry.count)
    }
}

impl Preemption {
    /// Parse the text after `preemption: ` (the message's ending already removed).
    fn parse(text: &str, truncated: bool) -> Option<Preemption> {
        let text = text.trim();
        let trimmed = text.strip_suffix('.').unwrap_or(text);
        if let Some((FitErrorWording::Available, Some(total_nodes), body)) = parse_header(trimmed)
            && (body.is_empty() || starts_with_count(body))
        {
            return Some(Preemption::Nodes { total_nodes, reasons: parse_entries(body, truncated)? });
        }
        Some(Preemption::Message { message: text.to_owned() })
    }
}

/// Remove the final `.`, `..` or ` ...` and say which it was.
pub(super) fn split_ending(text: &str) -> (&str, Ending) {
    if let Some(rest) = text.strip_suffix(" ...") {
        (rest, Ending::Truncated)
    } else if let Some(rest) = text.strip_suffix("..") {
        (rest, Ending::DoublePeriod)
    } else if let Some(rest) = text.strip_suffix('.') {
        (rest, Ending::Period)
    } else {
        (text, Ending::None)
    }
}

/// kube-scheduler v1.4-v1.5's FitError (plugin/pkg/scheduler/generic_scheduler.go:
/// `"pod (%s) failed to fit in any node\n"`, then `"fit failure on node (%s): %s\n"` per node,
/// its reasons joined by `, `), its lines perhaps joined by spaces in a paste.
fn parse_per_node(text: &str, ending: Ending) -> Option<FitError> {
    const NODE: &str = "fit failure on node (";
    let rest = text.strip_prefix("pod (")?;
    let (_, rest) = rest.split_once(") failed to fit in any node")?;
    let mut reasons: Vec<ReasonCount> = Vec::new();
    let mut nodes = 0u32;
    for entry in rest.split(NODE).skip(1) {
        let (_, node_reasons) = entry.split_once("): ")?;
        nodes += 1;
        for reason in node_reasons.trim().split(", ").map(str::trim).filter(|r| !r.is_empty()) {
            match reasons.iter_mut().find(|r| r.reason.text() == reason) {
                Some(seen) => seen.count += 1,
                None => reasons.push(ReasonCount::new(1, NodeReason::parse(reason))),
            }
        }
    }
    // Without a node line the message says nothing the header does not (and may be cut).
    (rest.trim().is_empty() || nodes > 0).then_some(FitError {
        wording: FitErrorWording::PerNode,
        hyper_node: None,
        total_nodes: (nodes > 0).then_some(nodes),
        reasons,
        pre_filter: None,
        post_filter: Vec::new(),
        preemption: None,
        ending,
    })
}

/// The GKE console's `Cannot schedule pods: REASON[, REASON]` body. A resource the console cut
/// at its first dot (`Insufficient nvidia` of `nvidia.com/gpu`: the page splits the message
/// there) names no resource: it is kept as text, short of nothing.
fn parse_console(body: &str, ending: Ending) -> Option<FitError> {
    let whole = |resource: &str| {
        resource.contains('/')
            || matches!(resource, "cpu" | "memory" | "pods" | "ephemeral-storage")
            || resource.starts_with("hugepages-")
    };
    let reasons: Vec<ReasonCount> = body
        .split([',', ';'])
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| match NodeReason::parse(entry) {
            NodeReason::Insufficient { resource, .. } if !whole(&resource) => {
                ReasonCount::new(1, NodeReason::Other { text: entry.to_owned() })
            }
            reason => ReasonCount::new(1, reason),
        })
        .collect();
    (!reasons.is_empty()).then_some(FitError {
        wording: FitErrorWording::Console,
        hyper_node: None,
        total_nodes: None,
        reasons,
        pre_filter: None,
        post_filter: Vec::new(),
        preemption: None,
        ending,
    })
}

/// The header and what follows its colon.
fn parse_header(text: &str) -> Option<(FitErrorWording, Option<u32>, &str)> {
    if let Some(rest) = text.strip_prefix("0/") {
        let (total, rest) = count_prefix_any(rest)?;
        let (wording, rest) = if let Some(rest) = rest.strip_prefix(" nodes are available") {
            (FitErrorWording::Available, rest)
        } else if let Some(rest) = rest.strip_prefix(" nodes are unavailable") {
            (FitErrorWording::Unavailable, rest)
        } else {
            return None;
        };
        return Some((wording, Some(total), after_colon(rest)?));
    }
    if let Some(rest) = text.strip_prefix("all nodes are unavailable") {
        return Some((FitErrorWording::AllUnavailable, None, after_colon(rest)?));
    }
    let rest = text
        .strip_prefix("No nodes are available that match all of the following predicates:")
        .or_else(|| text.strip_prefix("No nodes are available that match all of the predicates:"))?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    Some((FitErrorWording::Predicates, None, rest.trim_start()))
}

/// In a cut note, a trailing `preemption: ` label cut before its end (`{c: d}. preemp`,
/// `no new claims to deallocate, pre`, `preemption:`) is removed with the separator before it:
/// it is not a PostFilter message.
fn strip_cut_preemption_label(text: &str) -> &str {
    let (before, tail) = match text.rfind(' ') {
        Some(space) => match text[..space].strip_suffix(['.', ',']) {
            Some(before) => (before, &text[space + 1..]),
            None => return text,
        },
        None => ("", text),
    };
    if !tail.is_empty() && "preemption:".starts_with(tail) { before } else { text }
}

/// Whether a preemption text is its `0/N nodes are available` header cut before its end
/// (`0/50 nodes are avai`, `0/5`, `0`).
fn is_cut_nodes_header(text: &str) -> bool {
    const REST: &str = " nodes are available";
    match text.strip_prefix("0/") {
        Some(rest) => {
            let rest = &rest[digits_len(rest)..];
            rest.len() < REST.len() && REST.starts_with(rest)
        }
        None => "0/".starts_with(text),
    }
}

/// After a header: nothing, `:` or `: <text>`.
fn after_colon(rest: &str) -> Option<&str> {
    if rest.is_empty() {
        Some(rest)
    } else {
        let rest = rest.strip_prefix(':')?;
        if rest.is_empty() { Some(rest) } else { rest.strip_prefix(' ') }
    }
}

/// Split `BODY[. PF, PF, preemption: X]` into body, PostFilter messages and the preemption text.
///
/// Without a `preemption: ` section, the PostFilter part starts at the first `. ` followed by a
/// known PostFilter message or, for kube-scheduler (`any_plugin`), by a lower-case message
/// after which no histogram entry follows (checklist §16.2).
fn split_post_filter(text: &str, any_plugin: bool) -> (&str, Vec<&str>, Option<&str>) {
    const PREEMPTION: &str = "preemption: ";
    if let Some(rest) = text.strip_prefix(PREEMPTION) {
        return ("", Vec::new(), Some(rest));
    }
    for at in find_all(text, PREEMPTION) {
        let before = &text[..at];
        let after = &text[at + PREEMPTION.len()..];
        if let Some(body) = before.strip_suffix(". ") {
            return (body, Vec::new(), Some(after));
        }
        if let Some(messages) = before.strip_suffix(", ") {
            return match rfind(messages, ". ") {
                Some(dot) => (&messages[..dot], messages[dot + 2..].split(", ").collect(), Some(after)),
                None => ("", messages.split(", ").collect(), Some(after)),
            };
        }
    }
    // Where the last histogram entry starts (`, <digits> `), found once: a candidate is followed
    // by an entry exactly when that start is past it, so no candidate rescans the rest.
    let mut last_entry: Option<Option<usize>> = None;
    for at in find_all(text, ". ") {
        let after = &text[at + 2..];
        let known = KNOWN_POST_FILTER.iter().any(|known| after.starts_with(known));
        let plugin_text = any_plugin
            && after.starts_with(|c: char| c.is_ascii_lowercase())
            && (*last_entry.get_or_insert_with(|| last_entry_separator(text))).is_none_or(|entry| entry < at + 2);
        if known || plugin_text {
            return (&text[..at], after.split(", ").collect(), None);
        }
    }
    (text, Vec::new(), None)
}

/// The position of the last `, ` that starts a histogram entry (`, <digits> ` or `, <digits>`
/// at the end): the last place [`split_entries`] splits `text`.
fn last_entry_separator(text: &str) -> Option<usize> {
    rfind_all(text, ", ").find(|&at| starts_with_count(&text[at + 2..]))
}

/// Whether `text` starts like a histogram entry: digits, then a space or the end (the count
/// may still overflow: [`parse_entries`] rejects it then).
fn starts_with_count(text: &str) -> bool {
    let digits = digits_len(text);
    digits > 0 && matches!(text.as_bytes().get(digits), None | Some(b' '))
}

/// A body is a histogram when it starts with a count (digits and a space, even one too large
/// for a count, which makes the message unrecognised), otherwise a PreFilter sentence.
fn parse_body(body: &str, truncated: bool) -> Option<(Vec<ReasonCount>, Option<String>)> {
    if body.is_empty() {
        Some((Vec::new(), None))
    } else if starts_with_count(body) {
        Some((parse_entries(body, truncated)?, None))
    } else {
        Some((Vec::new(), Some(body.to_owned())))
    }
}

/// Parse `N reason, M reason, ...`. When `truncated`, a last entry cut before its reason is
/// dropped.
pub(super) fn parse_entries(text: &str, truncated: bool) -> Option<Vec<ReasonCount>> {
    let mut entries = Vec::new();
    for piece in split_entries(text) {
        match count_prefix(piece) {
            Some((count, reason)) => entries.push(ReasonCount::new(count, NodeReason::parse(reason))),
            None if truncated && count_prefix_any(piece).is_some_and(|(_, r)| r.is_empty()) => {}
            None if piece.is_empty() && text.is_empty() => {}
            None => return None,
        }
    }
    Some(entries)
}

/// The ≤1.9 entries: `Reason (count), Reason (count)`.
fn parse_predicate_entries(text: &str, truncated: bool) -> Option<Vec<ReasonCount>> {
    let mut entries = Vec::new();
    if text.is_empty() {
        return Some(entries);
    }
    let mut pieces = text.split("), ").peekable();
    while let Some(piece) = pieces.next() {
        let last = pieces.peek().is_none();
        let piece = if last { piece.strip_suffix(')').unwrap_or(piece) } else { piece };
        let parsed = piece.rsplit_once(" (").and_then(|(reason, count)| Some((reason, count.parse::<u32>().ok()?)));
        match parsed {
            Some((reason, count)) => entries.push(ReasonCount::new(count, NodeReason::parse(reason))),
            None if last && truncated => {}
            None => return None,
        }
    }
    Some(entries)
}

/// Split a histogram on `, ` where a count follows (`, <digits> ` or `, <digits>` at the end).
pub(super) fn split_entries(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        let mut from = 0;
        while let Some(found) = find(&current[from..], ", ") {
            let at = from + found;
            let after = &current[at + 2..];
            if starts_with_count(after) {
                rest = Some(after);
                return Some(&current[..at]);
            }
            from = at + 2;
        }
        rest = None;
        Some(current)
    })
}

/// `<digits> <rest>` → (count, rest).
pub(super) fn count_prefix(text: &str) -> Option<(u32, &str)> {
    let (count, rest) = count_prefix_any(text)?;
    Some((count, rest.strip_prefix(' ')?))
}

/// The number of leading ASCII digits.
fn digits_len(text: &str) -> usize {
    text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len())
}

/// Leading ASCII digits as a count, and what follows them.
pub(super) fn count_prefix_any(text: &str) -> Option<(u32, &str)> {
    let end = digits_len(text);
    if end == 0 {
        return None;
    }
    // ASCII digits end on a char boundary.
    let (digits, rest) = text.split_at(end);
    Some((digits.parse().ok()?, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(note: &str) -> FitError {
        FitError::parse(note).unwrap_or_else(|| panic!("no FitError: {note}"))
    }

    fn entries(fit: &FitError) -> Vec<(u32, &str)> {
        fit.reasons.iter().map(|e| (e.count, e.reason.text())).collect()
    }

    fn preemption_entries(fit: &FitError) -> (u32, Vec<(u32, &str)>) {
        match &fit.preemption {
            Some(Preemption::Nodes { total_nodes, reasons }) => {
                (*total_nodes, reasons.iter().map(|e| (e.count, e.reason.text())).collect())
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pre_1_24_without_preemption() {
        let fit = parse("0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.");
        assert_eq!(fit.wording, FitErrorWording::Available);
        assert_eq!(fit.total_nodes, Some(2));
        assert_eq!(entries(&fit), [(1, "Insufficient nvidia.com/gpu"), (1, "node(s) were unschedulable")]);
        assert_eq!(fit.insufficient("nvidia.com/gpu"), Some(1));
        assert!(matches!(fit.reasons[1].reason, NodeReason::Unschedulable { .. }));
        assert_eq!(fit.preemption, None);
        assert_eq!(fit.ending, Ending::Period);
    }

    #[test]
    fn counts_sum_past_the_total_and_sort_bytewise() {
        let fit = parse(
            "0/8 nodes are available: 1 Insufficient cpu, 3 Insufficient memory, 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod.",
        );
        assert_eq!(fit.total_nodes, Some(8));
        assert_eq!(fit.reasons.iter().map(|e| e.count).sum::<u32>(), 12);
        assert_eq!(fit.insufficient("memory"), Some(3));
        assert_eq!(preemption_entries(&fit), (8, vec![(8, "No preemption victims found for incoming pod")]));
        assert_eq!(fit.ending, Ending::Period);

        let fit = parse("0/12 nodes are available: 10 Insufficient memory, 2 Insufficient cpu.");
        assert_eq!(entries(&fit), [(10, "Insufficient memory"), (2, "Insufficient cpu")]);
    }

    #[test]
    fn double_period_and_no_period() {
        let fit = parse(
            "0/36 nodes are available: 3 node(s) were unschedulable, 33 Insufficient nvidia.com/gpu. preemption: 0/36 nodes are available: 1 Insufficient nvidia.com/gpu, 3 Preemption is not helpful for scheduling, 32 No preemption victims found for incoming pod..",
        );
        assert_eq!(fit.ending, Ending::DoublePeriod);
        assert_eq!(
            preemption_entries(&fit),
            (
                36,
                vec![
                    (1, "Insufficient nvidia.com/gpu"),
                    (3, "Preemption is not helpful for scheduling"),
                    (32, "No preemption victims found for incoming pod"),
                ]
            )
        );

        let fit = parse("0/2 nodes are available: 2 Insufficient aliyun.com/gpu-mem");
        assert_eq!(fit.ending, Ending::None);
        assert_eq!(entries(&fit), [(2, "Insufficient aliyun.com/gpu-mem")]);
    }

    #[test]
    fn taint_with_comma_is_one_entry() {
        let fit = parse(
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taint {protect: no_schedule}, that the pod didn't tolerate, 1 node(s) didn't match Pod's node affinity/selector.",
        );
        assert_eq!(
            entries(&fit),
            [
                (1, "Insufficient nvidia.com/gpu"),
                (1, "node(s) had taint {protect: no_schedule}, that the pod didn't tolerate"),
                (1, "node(s) didn't match Pod's node affinity/selector"),
            ]
        );
        assert_eq!(
            fit.reasons[1].reason,
            NodeReason::UntoleratedTaint {
                text: "node(s) had taint {protect: no_schedule}, that the pod didn't tolerate".into(),
                key: Some("protect".into()),
                value: Some("no_schedule".into()),
            }
        );
    }

    #[test]
    fn untolerated_taint_with_empty_value_and_1_35_wording() {
        let fit = parse(
            "0/2 nodes are available: 2 node(s) had untolerated taint {dedicated: gpuGroup}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        );
        assert!(matches!(
            &fit.reasons[0].reason,
            NodeReason::UntoleratedTaint { key: Some(k), value: Some(v), .. } if k == "dedicated" && v == "gpuGroup"
        ));

        let fit = parse(
            "0/2 nodes are available: 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        );
        assert!(matches!(&fit.reasons[0].reason, NodeReason::UntoleratedTaint { key: None, value: None, .. }));
        assert_eq!(fit.post_filter, ["no new claims to deallocate"]);
        assert_eq!(preemption_entries(&fit), (2, vec![(2, "Preemption is not helpful for scheduling")]));
    }

    #[test]
    fn post_filter_messages_after_preemption() {
        let fit = parse(
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod., PodGroup ml/pg gets rejected due to Pod p is unschedulable even after PostFilter.",
        );
        assert_eq!(preemption_entries(&fit), (3, vec![(3, "No preemption victims found for incoming pod")]));
        assert_eq!(
            fit.post_filter,
            ["PodGroup ml/pg gets rejected due to Pod p is unschedulable even after PostFilter"]
        );

        let fit = parse(
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. PodGroup ml/pg gets rejected due to Pod p is unschedulable even after PostFilter.",
        );
        assert_eq!(fit.reasons.len(), 1);
        assert_eq!(fit.post_filter.len(), 1);
        assert_eq!(fit.preemption, None);

        // Any lower-case plugin message, when no histogram entry follows it.
        let fit = parse(
            "0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient nvidia.com/gpu. some plugin could not help.",
        );
        assert_eq!(fit.reasons.len(), 2);
        assert_eq!(fit.reasons[1].reason.text(), "Insufficient nvidia.com/gpu");
        assert_eq!(fit.post_filter, ["some plugin could not help"]);
        // A period inside a reason that more entries follow is not a PostFilter boundary.
        let fit = parse("0/3 nodes are available: 1 vendor says no. retry later, 2 Insufficient cpu.");
        assert_eq!(fit.reasons.len(), 2);
        assert!(fit.post_filter.is_empty());
        // Volcano has no PostFilter part.
        let fit = parse("0/3 nodes are unavailable: 3 vendor says no. retry later.");
        assert_eq!(fit.reasons[0].reason.text(), "vendor says no. retry later");
    }

    #[test]
    fn prefilter_result_and_plugins() {
        let fit = parse(
            "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node is filtered out by the prefilter result. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
        );
        assert!(matches!(fit.reasons[0].reason, NodeReason::Ports { .. }));
        assert!(matches!(fit.reasons[1].reason, NodeReason::PrefilterResult { .. }));

        let fit = parse(
            "0/5 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity], 3 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
        );
        assert!(matches!(
            &fit.reasons[0].reason,
            NodeReason::Plugins { plugins, .. } if plugins == &["NodeAffinity"]
        ));
    }

    #[test]
    fn prefilter_sentence_and_old_per_node_copy() {
        let fit = parse("0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
        assert_eq!(fit.pre_filter.as_deref(), Some("pod has unbound immediate PersistentVolumeClaims"));
        assert!(fit.reasons.is_empty());

        let fit = parse(
            "0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
        );
        assert_eq!(fit.pre_filter.as_deref(), Some("pod has unbound immediate PersistentVolumeClaims"));
        assert!(fit.preemption.is_some());

        let fit = parse("0/4 nodes are available: 4 pod has unbound immediate PersistentVolumeClaims.");
        assert_eq!(fit.pre_filter, None);
        assert_eq!(entries(&fit), [(4, "pod has unbound immediate PersistentVolumeClaims")]);
        assert!(matches!(fit.reasons[0].reason, NodeReason::Volume { .. }));
    }

    #[test]
    fn preemption_sentences() {
        let fit = parse(
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: not eligible due to preemptionPolicy=Never..",
        );
        assert_eq!(
            fit.preemption,
            Some(Preemption::Message { message: "not eligible due to preemptionPolicy=Never".into() })
        );
        let fit = parse(
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: not eligible due to a terminating pod on the nominated node.",
        );
        assert!(matches!(
            &fit.preemption,
            Some(Preemption::Message { message }) if message == "not eligible due to a terminating pod on the nominated node"
        ));
    }

    #[test]
    fn truncated_message() {
        let fit = parse(
            "0/40 nodes are available: 1 node(s) had untolerated taint {a: b}, 2 node(s) had untolerated taint {c: d}, 3 ...",
        );
        assert_eq!(fit.ending, Ending::Truncated);
        assert_eq!(fit.reasons.len(), 2);

        let fit =
            parse("0/40 nodes are available: 1 node(s) had untolerated taint {a: b}, 2 node(s) had untolerated ta ...");
        assert_eq!(fit.reasons.len(), 2);
        assert_eq!(fit.reasons[1].reason.text(), "node(s) had untolerated ta");

        let fit = parse(
            "0/40 nodes are available: 40 Insufficient nvidia.com/gpu. preemption: 0/40 nodes are available: 1 No preemption victims found for incoming pod, 3 ...",
        );
        assert_eq!(preemption_entries(&fit).1.len(), 1);
    }

    #[test]
    fn truncated_drops_the_separator_before_the_cut() {
        for note in [
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}. ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}.  ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}, ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu},  ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}, 4 ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}. preemp ...",
            "0/50 nodes are available: 3 node(s) had untolerated taint {team: gpu}. preemption: ...",
        ] {
            let fit = parse(note);
            assert_eq!(fit.ending, Ending::Truncated, "{note}");
            assert_eq!(entries(&fit), [(3, "node(s) had untolerated taint {team: gpu}")], "{note}");
            assert_eq!(
                fit.reasons[0].reason,
                NodeReason::UntoleratedTaint {
                    text: "node(s) had untolerated taint {team: gpu}".into(),
                    key: Some("team".into()),
                    value: Some("gpu".into()),
                },
                "{note}"
            );
            assert!(fit.post_filter.is_empty(), "{note}");
            assert_eq!(fit.preemption, None, "{note}");
        }
        // The same in the last PostFilter message and the preemption histogram.
        let fit = parse("0/50 nodes are available: 50 Insufficient cpu. no new claims to deallocate, ...");
        assert_eq!(fit.post_filter, ["no new claims to deallocate"]);
        let fit = parse(
            "0/50 nodes are available: 50 Insufficient cpu. preemption: 0/50 nodes are available: 50 Preemption is not helpful for scheduling., ...",
        );
        assert_eq!(preemption_entries(&fit), (50, vec![(50, "Preemption is not helpful for scheduling")]));
        assert!(fit.post_filter.is_empty());
        // Not truncated: the text is kept.
        let fit = parse("0/50 nodes are available: 3 vendor says no,");
        assert_eq!(entries(&fit), [(3, "vendor says no,")]);
    }

    #[test]
    fn truncated_preemption_header_is_absent() {
        for cut in ["p", "preemp", "preemption", "preemption:", "preemption: 0", "preemption: 0/", "preemption: 0/5"] {
            for note in [
                format!("0/50 nodes are available: 50 Insufficient nvidia.com/gpu. {cut} ..."),
                format!("0/50 nodes are available: 50 Insufficient nvidia.com/gpu. {cut}  ..."),
            ] {
                let fit = parse(&note);
                assert_eq!(entries(&fit), [(50, "Insufficient nvidia.com/gpu")], "{note}");
                assert!(fit.post_filter.is_empty(), "{note}");
                assert_eq!(fit.preemption, None, "{note}");
            }
        }
        for cut in ["0/50 nodes are avai", "0/50 nodes", "0/50 ", "0/50 nodes are available"] {
            let note = format!(
                "0/50 nodes are available: 50 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: {cut} ..."
            );
            let fit = parse(&note);
            assert_eq!(entries(&fit), [(50, "Insufficient nvidia.com/gpu")], "{note}");
            assert_eq!(fit.post_filter, ["no new claims to deallocate"], "{note}");
            let complete = cut == "0/50 nodes are available";
            let expected = complete.then_some(Preemption::Nodes { total_nodes: 50, reasons: Vec::new() });
            assert_eq!(fit.preemption, expected, "{note}");
        }
        let fit = parse("0/50 nodes are available: 50 Insufficient cpu. no new claims to deallocate, preem ...");
        assert_eq!(fit.post_filter, ["no new claims to deallocate"]);
        assert_eq!(fit.preemption, None);
        // Cut in the preemption histogram's first count: a histogram with no entries.
        let fit = parse("0/50 nodes are available: 50 Insufficient cpu. preemption: 0/50 nodes are available: 1 ...");
        assert_eq!(fit.preemption, Some(Preemption::Nodes { total_nodes: 50, reasons: Vec::new() }));
        // A body cut right after the header.
        let fit = parse("0/50 nodes are available: preem ...");
        assert_eq!((fit.reasons.len(), fit.pre_filter, fit.preemption), (0, None, None));
        let fit = parse("0/50 nodes are available: 12 ...");
        assert_eq!((fit.reasons.len(), fit.pre_filter, fit.preemption), (0, None, None));
        // A cut preemption sentence is kept as written.
        let fit = parse("0/50 nodes are available: 50 Insufficient cpu. preemption: not eligible due ...");
        assert_eq!(fit.preemption, Some(Preemption::Message { message: "not eligible due".into() }));
        // Not truncated: a lower-case PostFilter message stays one.
        let fit = parse("0/50 nodes are available: 50 Insufficient cpu. preemp.");
        assert_eq!(fit.post_filter, ["preemp"]);
    }

    #[test]
    fn overflowing_first_count_is_not_a_prefilter_sentence() {
        assert_eq!(FitError::parse("0/5 nodes are available: 99999999999 Insufficient cpu."), None);
        // Digits not followed by a space still start a sentence.
        let fit = parse("0/5 nodes are available: 3rd-party plugin said no.");
        assert_eq!(fit.pre_filter.as_deref(), Some("3rd-party plugin said no"));
        let fit = parse("0/5 nodes are available: 4294967295 Insufficient cpu.");
        assert_eq!(entries(&fit), [(u32::MAX, "Insufficient cpu")]);
    }

    /// `. <lower-case>` candidates do not rescan the rest of the note: a 1 MB note of them
    /// parses at once.
    #[test]
    fn many_post_filter_candidates_parse_in_one_pass() {
        let n = 1 << 18;
        let note = format!("0/5 nodes are available: 1 a{}, 1 z.", ". b".repeat(n));
        assert!(note.len() > 750_000);
        let fit = parse(&note);
        assert_eq!(fit.reasons.len(), 2);
        assert_eq!(fit.reasons[0].count, 1);
        assert_eq!(fit.reasons[0].reason.text(), format!("a{}", ". b".repeat(n)));
        assert_eq!(fit.reasons[1].reason.text(), "z");
        assert!(fit.post_filter.is_empty());

        // Without the entry at the end, the first candidate starts the PostFilter part.
        let note = format!("0/5 nodes are available: 1 a{}.", ". b".repeat(n));
        let fit = parse(&note);
        assert_eq!(entries(&fit), [(1, "a")]);
        assert_eq!(fit.post_filter, [&". b".repeat(n)[2..]]);

        // Many separators that do not start an entry.
        let note = format!("0/5 nodes are available: 1 a{}. b, 2 c.", ", 7x. y".repeat(n));
        let fit = parse(&note);
        assert_eq!(fit.reasons.len(), 2);
        assert_eq!(fit.reasons[1].reason.text(), "c");
    }

    #[test]
    fn extender_tokens_are_other() {
        let fit = parse(
            "0/4 nodes are available: 1 NodeUnfitPod, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node unregistered. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod..",
        );
        assert_eq!(
            serde_json::to_value(&fit.reasons[0].reason).unwrap(),
            serde_json::json!({"type": "other", "text": "NodeUnfitPod"})
        );
        assert_eq!(fit.reasons[2].count, 2);
        assert_eq!(fit.reasons[2].reason.text(), "node unregistered");
        assert_eq!(fit.ending, Ending::DoublePeriod);
    }

    #[test]
    fn volcano_wordings() {
        let fit = parse(
            "0/7 nodes are unavailable: 2 Insufficient nvidia.com/gpu, 5 node(s) didn't match Pod's node affinity/selector.",
        );
        assert_eq!(fit.wording, FitErrorWording::Unavailable);
        assert_eq!(fit.total_nodes, Some(7));
        assert_eq!(fit.reasons.len(), 2);

        let fit = parse("In hyperNode s0: 0/2 nodes are unavailable: 2 Insufficient nvidia.com/gpu.");
        assert_eq!(fit.hyper_node.as_deref(), Some("s0"));
        assert_eq!(fit.insufficient("nvidia.com/gpu"), Some(2));

        let fit = parse("all nodes are unavailable: 1 node(s) pod number exceeded, 2 node(s) resource fit failed.");
        assert_eq!(fit.wording, FitErrorWording::AllUnavailable);
        assert_eq!(fit.total_nodes, None);
        assert!(matches!(fit.reasons[0].reason, NodeReason::TooManyPods { .. }));

        let fit = parse("all nodes are unavailable");
        assert!(fit.reasons.is_empty());
        assert_eq!(fit.ending, Ending::None);
    }

    #[test]
    fn pre_1_10_predicates() {
        let fit = parse(
            "No nodes are available that match all of the following predicates:: Insufficient cpu (4), NoVolumeZoneConflict (2).",
        );
        assert_eq!(fit.wording, FitErrorWording::Predicates);
        assert_eq!(entries(&fit), [(4, "Insufficient cpu"), (2, "NoVolumeZoneConflict")]);
        let fit = parse(
            "No nodes are available that match all of the predicates: Insufficient nvidia.com/gpu (2), PodToleratesNodeTaints (1).",
        );
        assert!(matches!(fit.reasons[1].reason, NodeReason::UntoleratedTaint { .. }));
        // v1.4-v1.5: a line per node, its lines joined by a paste (kubernetes/kubernetes#37232).
        let fit = FitError::parse("pod (jenkins-0) failed to fit in any node fit failure on node (a): Insufficient cpu fit failure on node (b): Insufficient cpu, PodToleratesNodeTaints\nfit failure on node (c): Insufficient nvidia.com/gpu").unwrap();
        assert_eq!(fit.wording, FitErrorWording::PerNode);
        assert_eq!(fit.total_nodes, Some(3));
        let counts: Vec<(u32, &str)> = fit.reasons.iter().map(|r| (r.count, r.reason.text())).collect();
        assert_eq!(
            counts,
            [(2, "Insufficient cpu"), (1, "PodToleratesNodeTaints"), (1, "Insufficient nvidia.com/gpu")]
        );
        assert!(FitError::parse("pod (x) failed to fit in any node").is_some_and(|f| f.reasons.is_empty()));
        assert!(FitError::parse("pod (x) failed to fit in any node because reasons").is_none());
        // The GKE console (corpus 187, 197): no counts; a resource cut at its dot names none.
        let fit = FitError::parse("Cannot schedule pods: Insufficient nvidia.com/gpu.").unwrap();
        assert_eq!((fit.wording, fit.total_nodes), (FitErrorWording::Console, None));
        assert_eq!(fit.insufficient("nvidia.com/gpu"), Some(1));
        let cut = FitError::parse("Cannot schedule pods: Insufficient nvidia").unwrap();
        assert!(matches!(cut.reasons[0].reason, NodeReason::Other { .. }), "{cut:?}");
    }

    #[test]
    fn near_misses_are_not_fit_errors() {
        for note in [
            "",
            "0/",
            "0/x nodes are available: 1 Insufficient cpu.",
            "1/2 nodes are available: 1 Insufficient cpu.",
            "0/2 nodes are ready: 1 Insufficient cpu.",
            "0/2 nodes are available; 1 Insufficient cpu.",
            "0/99999999999 nodes are available: 1 Insufficient cpu.",
            "0/2 nodes are available: 1 Insufficient cpu, 99999999999 Insufficient memory.",
            // An overflowing first count is not a PreFilter sentence.
            "0/5 nodes are available: 99999999999 Insufficient cpu.",
            "0/5 nodes are available: 99999999999 Insufficient cpu ...",
            "0/5 nodes are available: 5 Insufficient cpu. preemption: 0/5 nodes are available: 99999999999 Preemption is not helpful for scheduling.",
            "no nodes available to schedule pods",
            "Successfully assigned default/p to node-a",
        ] {
            assert_eq!(FitError::parse(note), None, "{note}");
        }
    }

    #[test]
    fn splits_only_before_counts() {
        let pieces: Vec<&str> = split_entries("1 a, b, 2 c, 3").collect();
        assert_eq!(pieces, ["1 a, b", "2 c", "3"]);
        let pieces: Vec<&str> = split_entries("1 a, 2b").collect();
        assert_eq!(pieces, ["1 a, 2b"]);
        // The last separator agrees with the split.
        assert_eq!(last_entry_separator("1 a, b, 2 c, 3"), Some(11));
        assert_eq!(last_entry_separator("1 a, b, 2 c, 3x"), Some(6));
        assert_eq!(last_entry_separator("1 a, 2b"), None);
    }
}
