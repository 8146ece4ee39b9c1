//! Cutting a pasted input into regions before anything reads it, so that each part goes to its
//! own reader and a part no reader takes is reported by line range.
//!
//! Pastes in issues mix forms: an Events table, then the Pod's manifest; prose, then a JSON
//! Event; a `describe`, a `kubectl get pods` table and a klog excerpt. One reader over the
//! whole text either chokes on the part it does not know (a YAML parser on prose) or drops it.
//! The segmenter looks only at line shapes, never at meaning, and knows three region kinds:
//!
//! * [`Shape::Json`]: lines from one that starts with `{` (or `[` then `{`/`]`) to the line
//!   where its brackets balance (strings and escapes respected), when that text is valid JSON;
//!   consecutive ones (JSON Lines) are one region.
//! * [`Shape::Yaml`]: a Kubernetes object's YAML: from a column-0 `apiVersion:`, `kind:`,
//!   `items:`, `metadata:`, `status:`, `involvedObject:`, `object:` or `---` line (also as a
//!   `- ` list item) through the lines YAML can continue with: indented lines, `- ` items,
//!   lower-camel `key:` lines at column 0 (Kubernetes field names; `kubectl describe` writes
//!   `Capitalized Keys:`), `---`, and blank lines followed by one of those. At least two lines.
//!   Also a container's state cut out of a Pod's YAML at its own depth (`reason:` with
//!   `exitCode:` or `message:`, indented, no parents).
//! * [`Shape::Text`]: everything else, for the text readers (describe sections, event tables,
//!   klog lines, status blocks, UI lists, single messages; see [`super::text`]), which account
//!   for each of its lines.
//!
//! Markdown quoting and table borders are taken off first ([`unquote`]): `> ` at the start of
//! a line (a quoted reply) and the `|`/`│` borders of markdown tables and k9s panes, whose inner
//! borders become column gaps. A region's text keeps its line numbers: the decoders see it
//! preceded by as many empty lines as the input had before it.

use std::borrow::Cow;

/// What a region looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One or more JSON values, one after another.
    Json,
    /// A YAML document (or several, with `---`) that starts like a Kubernetes object.
    Yaml,
    /// Anything else.
    Text,
}

/// A run of input lines of one [`Shape`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) shape: Shape,
    /// 1-based, inclusive.
    pub(crate) first_line: usize,
    /// 1-based, inclusive.
    pub(crate) last_line: usize,
    /// The region's lines, unquoted, each ending in `\n`.
    pub(crate) text: String,
}

impl Region {
    /// The region's text preceded by `first_line - 1` empty lines, so that a decoder's line
    /// numbers are the input's.
    pub(crate) fn positioned(&self) -> String {
        let mut text = "\n".repeat(self.first_line - 1);
        text.push_str(&self.text);
        text
    }
}

/// The line without a markdown quote marker or table borders.
pub(crate) fn unquote(line: &str) -> Cow<'_, str> {
    let mut line = Cow::Borrowed(line);
    // `> ` quoting, possibly nested (`> > `).
    while let Some(rest) = line.strip_prefix('>') {
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        line = Cow::Owned(rest.to_owned());
    }
    let trimmed = line.trim();
    for border in ['|', '│'] {
        if let Some(inner) = trimmed.strip_prefix(border).and_then(|t| t.strip_suffix(border)) {
            // Inner borders are column gaps; a `kubectl` table's columns are 2+ spaces apart.
            let gap = format!(" {border} ");
            return Cow::Owned(inner.trim().replace(&gap, "   "));
        }
        // A pane cut at its right edge keeps only its left border.
        if border == '│'
            && let Some(inner) = trimmed.strip_prefix(border)
        {
            return Cow::Owned(inner.trim_start().to_owned());
        }
    }
    line
}

/// Cut `input` into regions, in order; every line is in exactly one. An input that is one text
/// region as it stands (nothing quoted) is moved into it, not copied: inputs are read whole,
/// and can be large.
pub(crate) fn segment(input: String) -> Vec<Region> {
    let lines: Vec<Cow<'_, str>> = input.lines().map(unquote).collect();
    let spans = spans_of(&lines);
    if let [(Shape::Text, from, to)] = spans.as_slice()
        && lines.iter().all(|line| matches!(line, Cow::Borrowed(_)))
    {
        let (first_line, last_line) = (from + 1, to + 1);
        drop(lines);
        return vec![Region { shape: Shape::Text, first_line, last_line, text: input }];
    }
    spans
        .into_iter()
        .map(|(shape, from, to)| {
            let mut text = String::new();
            for line in &lines[from..=to] {
                text.push_str(line);
                text.push('\n');
            }
            Region { shape, first_line: from + 1, last_line: to + 1, text }
        })
        .collect()
}

/// How many regions `input` has, without copying it.
pub(crate) fn count(input: &str) -> usize {
    let lines: Vec<Cow<'_, str>> = input.lines().map(unquote).collect();
    spans_of(&lines).len()
}

/// Whether `input` opens as YAML does: its first line with text is `---`, a `- ` item, or a
/// `key:` with a lower-case field name (`apiVersion:`, `a: [`), not prose that ends in a
/// colon (`Steps to reproduce:`). A parse error in such an input is a YAML error to report;
/// in any other, the text readers say which lines they could not read.
pub(crate) fn starts_like_yaml(input: &str) -> bool {
    let Some(first) = input.lines().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')) else {
        return false;
    };
    let first = first.trim_start();
    first.trim_end() == "---" || first.starts_with("- ") || continues_yaml(first)
}

/// The regions as (shape, first, last) 0-based line indices; neighbours of one shape merged.
fn spans_of(lines: &[Cow<'_, str>]) -> Vec<(Shape, usize, usize)> {
    let mut spans: Vec<(Shape, usize, usize)> = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let (shape, end) = if let Some(end) = json_end(lines, at) {
            (Shape::Json, end)
        } else if let Some(end) = yaml_end(lines, at) {
            (Shape::Yaml, end)
        } else {
            (Shape::Text, at)
        };
        match spans.last_mut() {
            Some(last) if last.0 == shape => last.2 = end,
            _ => spans.push((shape, at, end)),
        }
        at = end + 1;
    }
    spans
}

/// The last line (0-based) of a JSON value that starts at line `at`, if one does.
fn json_end(lines: &[Cow<'_, str>], at: usize) -> Option<usize> {
    let first = lines[at].trim_start();
    let opens = first.starts_with('{')
        || first
            .strip_prefix('[')
            .is_some_and(|rest| rest.trim_start().is_empty() || rest.trim_start().starts_with(['{', ']']));
    if !opens {
        return None;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut text = String::new();
    for (index, line) in lines.iter().enumerate().skip(at) {
        for c in line.chars() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                '{' | '[' if !in_string => depth += 1,
                '}' | ']' if !in_string => depth = depth.checked_sub(1)?,
                _ => {}
            }
        }
        text.push_str(line);
        text.push('\n');
        if depth == 0 && !in_string {
            return serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok().then_some(index);
        }
        // A JSON value inside a paste is a few hundred lines; a runaway bracket is prose.
        if index - at > 100_000 {
            return None;
        }
    }
    None
}

/// The column-0 keys a Kubernetes object's YAML starts with: an object's, an Event's fields.
const YAML_STARTS: &[&str] = &[
    "apiVersion:",
    "kind:",
    "items:",
    "metadata:",
    "status:",
    "object:",
    "involvedObject:",
    "regarding:",
    "reason:",
    "message:",
    "note:",
    "type:",
    "count:",
    "source:",
    "firstTimestamp:",
    "lastTimestamp:",
    "eventTime:",
    "reportingController:",
];

/// The keys of a container's state (`state.terminated`, `lastState.waiting`), one of which
/// beside `reason:` makes an indented run of `key: value` lines a state cut out of a Pod's
/// YAML ([`fragment_end`]).
const STATE_KEYS: &[&str] = &["exitCode:", "message:", "startedAt:", "finishedAt:", "containerID:", "signal:"];

/// The parents a container state is pasted under, without the rest of the Pod.
const STATE_PARENTS: &[&str] = &["state:", "lastState:", "terminated:", "waiting:"];

/// The last line (0-based) of a container state pasted out of a Pod's YAML at its own depth
/// (`          reason: StartError` under prose, its parents left out), if one starts at `at`:
/// indented `key: value` lines of lower-camel keys at one indentation, with deeper lines
/// (nested keys, a folded `>-` message) between them, holding `reason:` and one of
/// [`STATE_KEYS`], or opening with one of [`STATE_PARENTS`].
fn fragment_end(lines: &[Cow<'_, str>], at: usize) -> Option<usize> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let base = indent(&lines[at]);
    let first = lines[at].trim_start();
    if base == 0 || !continues_yaml(first) {
        return None;
    }
    let (mut end, mut reason, mut state) = (at, false, STATE_PARENTS.iter().any(|p| first.trim_end() == *p));
    for (index, line) in lines.iter().enumerate().skip(at) {
        let depth = indent(line);
        let text = line.trim_start();
        if line.trim().is_empty() || depth < base || (depth == base && !continues_yaml(text)) {
            break;
        }
        if depth == base || state {
            reason |= text.starts_with("reason:");
            state |= STATE_KEYS.iter().any(|key| text.starts_with(key));
        }
        end = index;
    }
    (end > at && reason && state).then_some(end)
}

/// The last line (0-based) of a YAML region that starts at line `at`, if one does.
fn yaml_end(lines: &[Cow<'_, str>], at: usize) -> Option<usize> {
    let first = lines[at].as_ref();
    let item = first.strip_prefix("- ").unwrap_or(first);
    let starts = first.trim_end() == "---" || YAML_STARTS.iter().any(|key| item.starts_with(key));
    if !starts {
        return fragment_end(lines, at);
    }
    let mut end = at;
    let mut index = at + 1;
    while index < lines.len() {
        let line = lines[index].as_ref();
        if line.trim().is_empty() {
            index += 1;
            continue;
        }
        if !continues_yaml(line) {
            break;
        }
        end = index;
        index += 1;
    }
    (end > at).then_some(end)
}

/// Whether a non-blank line can be part of a YAML object begun above it.
fn continues_yaml(line: &str) -> bool {
    // A poster's elision (`.....`) between fields: the YAML reader blanks it.
    let elision = line.len() > 3 && line.trim_end().bytes().all(|b| b == b'.');
    if elision
        || line.starts_with([' ', '\t'])
        || line.starts_with("- ")
        || line.trim_end() == "-"
        || line.trim_end() == "---"
    {
        return true;
    }
    // `key:` with a lower-camel Kubernetes field name (`apiVersion`, `metadata`, `status`).
    let Some((key, rest)) = line.split_once(':') else { return false };
    (rest.is_empty() || rest.starts_with(' '))
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(input: &str) -> Vec<(Shape, usize, usize)> {
        segment(input.to_owned()).iter().map(|r| (r.shape, r.first_line, r.last_line)).collect()
    }

    #[test]
    fn a_table_then_a_manifest_then_prose_are_three_regions() {
        let input = "  Warning  FailedScheduling  4m  default-scheduler  0/2 nodes are available.\n\
                     \n\
                     my pod:\n\
                     apiVersion: v1\n\
                     kind: Pod\n\
                     metadata:\n  name: gpu-pod\n\
                     \n\
                     spec:\n  containers: []\n\
                     why is it pending?\n";
        assert_eq!(shapes(input), vec![(Shape::Text, 1, 3), (Shape::Yaml, 4, 10), (Shape::Text, 11, 11)]);
    }

    #[test]
    fn describe_keys_are_not_yaml() {
        // `Name:` is capitalised; `Status:` too: a describe, not a YAML object.
        let input = "Name:         gpu-pod\nNamespace:    ml\nStatus:       Pending\n";
        assert_eq!(shapes(input), vec![(Shape::Text, 1, 3)]);
        // A lone `kind: Pod` line in prose is not an object either.
        assert_eq!(shapes("it says\nkind: Pod\nand stops\n"), vec![(Shape::Text, 1, 3)]);
    }

    #[test]
    fn json_values_end_where_their_brackets_balance() {
        let input =
            "the event:\n{\"reason\": \"Failed\",\n \"message\": \"a } in a string\"}\n{\"reason\": \"x\"}\nthanks\n";
        assert_eq!(shapes(input), vec![(Shape::Text, 1, 1), (Shape::Json, 2, 4), (Shape::Text, 5, 5)]);
        // Brackets in prose that are not JSON stay text.
        assert_eq!(shapes("[Warning] FailedMount {x}\n"), vec![(Shape::Text, 1, 1)]);
        assert_eq!(shapes("{ not json\n"), vec![(Shape::Text, 1, 1)]);
    }

    #[test]
    fn a_yaml_list_dump_is_one_region() {
        let input = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Event\n  reason: Failed\n---\nkind: List\n";
        assert_eq!(shapes(input), vec![(Shape::Yaml, 1, 7)]);
    }

    #[test]
    fn a_container_state_cut_out_of_a_pod_is_yaml() {
        // Corpus 204's shape: prose, a terminated state at its depth with a folded message, prose.
        let input = "the container fails with:\n          exitCode: 128\n          reason: StartError\n          message: >-\n            failed to create containerd task: a\n            wrapped error\n\nTo Reproduce\n";
        assert_eq!(shapes(input), vec![(Shape::Text, 1, 1), (Shape::Yaml, 2, 6), (Shape::Text, 7, 8)]);
        // Under its parent, the keys one level deeper.
        let input = "  lastState:\n    terminated:\n      reason: StartError\n      exitCode: 128\n";
        assert_eq!(shapes(input), vec![(Shape::Yaml, 1, 4)]);
        // Indented `key: value` lines that are no container state stay text (a describe's
        // nested fields are capitalised; these are a sentence's).
        assert_eq!(shapes("  reason: unknown\n  we tried again\n"), vec![(Shape::Text, 1, 2)]);
        assert_eq!(shapes("    Reason:       StartError\n    Exit Code:    128\n"), vec![(Shape::Text, 1, 2)]);
    }

    #[test]
    fn quotes_and_borders_come_off() {
        assert_eq!(unquote(">   Normal   Nominated  2m  karpenter  x"), "  Normal   Nominated  2m  karpenter  x");
        assert_eq!(unquote("> > text"), "text");
        assert_eq!(
            unquote("| Warning | FailedMount | 3m | kubelet | a: b |"),
            "Warning   FailedMount   3m   kubelet   a: b"
        );
        assert_eq!(
            unquote("│ Warning  FailedMount  kubelet  not a directory │"),
            "Warning  FailedMount  kubelet  not a directory"
        );
        assert_eq!(
            unquote("│ Warning  FailedMount  kubelet  cut at the pane"),
            "Warning  FailedMount  kubelet  cut at the pane"
        );
        assert_eq!(unquote("a | b"), "a | b");
    }
}
