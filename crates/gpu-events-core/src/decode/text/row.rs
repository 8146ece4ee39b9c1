//! One event row of a `kubectl describe` Events table or a `kubectl get events` table, read by the
//! header when there is one and by the shape of its cells otherwise.

use super::age::{Age, parse_age};
use super::columns::cells;

/// The columns kubectl prints for events (describe: TYPE REASON AGE FROM MESSAGE; get events:
/// [NAMESPACE] LAST SEEN TYPE REASON OBJECT [SUBOBJECT SOURCE] MESSAGE [FIRST SEEN COUNT NAME]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Column {
    Namespace,
    LastSeen,
    FirstSeen,
    Type,
    Reason,
    Age,
    From,
    Object,
    Subobject,
    Source,
    Message,
    Count,
    Name,
    /// kubectl before 1.14: the object's Kind, NAME then being the object's name.
    Kind,
    /// A `-o custom-columns` column the reader does not use (`CREATED:.metadata.creationTimestamp`).
    Other,
}

impl Column {
    fn from_header(text: &str) -> Option<Column> {
        Some(match text.to_ascii_uppercase().as_str() {
            "NAMESPACE" => Column::Namespace,
            "LAST SEEN" | "LASTSEEN" => Column::LastSeen,
            "FIRST SEEN" | "FIRSTSEEN" => Column::FirstSeen,
            // kubectl before ~1.14: FirstSeen LastSeen Count From SubObjectPath Type Reason Message.
            "SUBOBJECTPATH" => Column::Subobject,
            "TYPE" => Column::Type,
            "REASON" => Column::Reason,
            "AGE" => Column::Age,
            "FROM" => Column::From,
            "OBJECT" => Column::Object,
            "SUBOBJECT" => Column::Subobject,
            "SOURCE" => Column::Source,
            // `-o custom-columns=...,MSG:.message` names columns as the user likes.
            "MESSAGE" | "MSG" | "NOTE" => Column::Message,
            "COUNT" => Column::Count,
            "NAME" => Column::Name,
            "KIND" => Column::Kind,
            _ => return None,
        })
    }
}

/// A header line: its columns and where each starts, in characters (kubectl's tabwriter aligns
/// columns by counting runes, so a row with multi-byte text has its cells at the same character
/// offsets as the header, not the same byte offsets).
#[derive(Clone, Debug)]
pub(crate) struct Header {
    columns: Vec<(usize, Column)>,
}

/// The character offset of byte offset `at` in `line`.
fn char_offset(line: &str, at: usize) -> usize {
    line.get(..at).map_or(at, |head| head.chars().count())
}

/// The byte offset of character offset `at` in `line` (its length past the end).
fn byte_offset(line: &str, at: usize) -> usize {
    line.char_indices().nth(at).map_or(line.len(), |(byte, _)| byte)
}

impl Header {
    /// A header is a line whose cells are all event column names, REASON and MESSAGE among them.
    pub(crate) fn parse(line: &str) -> Option<Header> {
        // A custom-columns header may have columns of its own: upper-case words, kept as `Other`.
        let custom =
            |text: &str| text.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c == ' ').then_some(Column::Other);
        let columns: Vec<(usize, Column)> = cells(line)
            .into_iter()
            .map(|(at, text)| Column::from_header(text).or_else(|| custom(text)).map(|c| (char_offset(line, at), c)))
            .collect::<Option<_>>()?;
        let has = |c| columns.iter().any(|(_, col)| *col == c);
        (has(Column::Reason) && has(Column::Message)).then_some(Header { columns })
    }
}

/// What one row says, as borrowed text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Row<'a> {
    pub(crate) namespace: Option<&'a str>,
    pub(crate) type_: Option<&'a str>,
    pub(crate) reason: &'a str,
    pub(crate) age: Option<Age>,
    pub(crate) first_seen: Option<Age>,
    pub(crate) count: Option<i32>,
    /// `kind/name` of `kubectl get events`.
    pub(crate) object: Option<&'a str>,
    pub(crate) subobject: Option<&'a str>,
    /// FROM (describe) or SOURCE (get events -o wide): `component`, `component, host` or `{component host}`.
    pub(crate) from: Option<&'a str>,
    pub(crate) event_name: Option<&'a str>,
    /// KIND of the pre-1.14 layout, whose NAME is the object's.
    pub(crate) kind: Option<&'a str>,
    pub(crate) message: &'a str,
    /// The row has no TYPE column at all (a header without one, or none and no type cell), as
    /// opposed to an empty TYPE cell.
    pub(crate) without_type_column: bool,
}

fn is_type(text: &str) -> bool {
    matches!(text, "Normal" | "Warning")
}

/// A reason is one token: letters, digits and the `.`/`/`/`-`/`_` of `OutOfnvidia.com/gpu`.
fn is_reason(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
}

/// A component name as FROM shows it: `kubelet`, `default-scheduler`, `karpenter`,
/// `hami-scheduler`, `cluster-autoscaler`, `volcano`, `nvidia-device-plugin`.
fn is_component(text: &str) -> bool {
    matches!(text, "kubelet" | "karpenter" | "volcano" | "kueue" | "kai-scheduler")
        || ["-scheduler", "-controller", "-autoscaler", "-manager", "-plugin", "-operator"]
            .iter()
            .any(|suffix| text.len() > suffix.len() && text.ends_with(suffix))
            && text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `kind/name` as in `pod/llama-0` or `daemonset/nvidia-dcgm-exporter`; also with the Kind
/// capitalised (`Service/x`, `InferenceService/x`), as custom columns and event exporters print it.
fn is_object(text: &str) -> bool {
    text.split_once('/').is_some_and(|(kind, name)| {
        kind.starts_with(|c: char| c.is_ascii_alphabetic())
            && kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
            && !name.is_empty()
            && !name.contains(char::is_whitespace)
    })
}

/// Column starts for `line`, as byte offsets: the header's (character) offsets, except that a
/// start falling inside a word moves past that word and the spaces after it. Offsets are clamped
/// to the line and to char boundaries.
fn pushed_starts(line: &str, header_starts: impl Iterator<Item = usize>) -> Vec<usize> {
    let bytes = line.as_bytes();
    let mut starts: Vec<usize> = Vec::new();
    for start in header_starts {
        let mut at = byte_offset(line, start).max(starts.last().copied().unwrap_or(0));
        let inside_word = at > 0 && at < bytes.len() && bytes[at - 1] != b' ' && bytes[at] != b' ';
        if inside_word && !starts.is_empty() {
            while at < bytes.len() && bytes[at] != b' ' {
                at += 1;
            }
            while at < bytes.len() && bytes[at] == b' ' {
                at += 1;
            }
        }
        while !line.is_char_boundary(at) {
            at += 1;
        }
        starts.push(at);
    }
    starts
}

/// Whether a column of the header starts inside a word of `line`: the row was not lined up
/// with this header (a watch event printed alone), so its offsets say nothing.
fn starts_inside_a_word(line: &str, columns: &[(usize, Column)]) -> bool {
    let bytes = line.as_bytes();
    columns.iter().skip(1).any(|(start, _)| {
        // Header offsets count characters; `byte_offset` maps them without collecting the line.
        let at = byte_offset(line, *start);
        at > 0 && at < bytes.len() && bytes[at - 1] != b' ' && bytes[at] != b' '
    })
}

impl<'a> Row<'a> {
    /// Read a row with the header's columns; falls back to the cell shapes when the cells do not
    /// line up with the header (empty cells, pasted misalignment).
    pub(crate) fn parse(line: &'a str, header: Option<&Header>) -> Option<Row<'a>> {
        let mut cells = cells(line);
        // A paste may keep only one space between TYPE and REASON (`Warning FailedScheduling`).
        if let Some(&(start, first)) = cells.first()
            && let Some((type_, reason)) = first.split_once(' ')
            && is_type(type_)
            && is_reason(reason)
        {
            cells[0] = (start, type_);
            cells.insert(1, (start + type_.len() + 1, reason));
        }

        if let Some(header) = header
            && let Some(mut row) = Self::by_header(line, &cells, header)
        {
            row.without_type_column = !header.columns.iter().any(|(_, c)| *c == Column::Type);
            return Some(row);
        }
        let mut row = Self::by_shape(line, &cells).or_else(|| Self::single_spaced(line))?;
        row.without_type_column = row.type_.is_none();
        Some(row)
    }

    /// A row pasted with single spaces, as posters retype or reflow one
    /// (`Warning Unhealthy 2m6s (x41235 over 5d15h) kubelet Startup probe failed: ...`): TYPE, a
    /// reason the catalogue knows (so that prose starting with "Warning" is not a row), an
    /// optional age with its series, an optional component, then the message.
    fn single_spaced(line: &'a str) -> Option<Row<'a>> {
        let (type_, rest) = line.trim().split_once(' ')?;
        let (reason, mut rest) = rest.split_once(' ')?;
        if !is_type(type_) || !is_reason(reason) || crate::ReasonName::parse(reason).reason().is_none() {
            return None;
        }
        let mut row = Row { type_: Some(type_), reason, ..Row::default() };
        let word = |text: &'a str| text.split_once(' ').map_or(text, |(word, _)| word);
        let mut age_end = word(rest).len();
        if let Some(series) = rest[age_end..].strip_prefix(" (x")
            && let Some(close) = series.find(')')
        {
            age_end += " (x".len() + close + 1;
        }
        if let Some(age) = parse_age(&rest[..age_end]) {
            row.age = Some(age);
            rest = rest[age_end..].trim_start();
        }
        let from = word(rest);
        if is_component(from) && rest.len() > from.len() {
            row.from = Some(from);
            rest = rest[from.len()..].trim_start();
        }
        row.message = rest.trim_end();
        (!row.message.is_empty()).then_some(row)
    }

    fn by_header(line: &'a str, cells: &[(usize, &'a str)], header: &Header) -> Option<Row<'a>> {
        let columns = &header.columns;
        let message_last = columns.last().is_some_and(|(_, c)| *c == Column::Message);
        let mut row = Row::default();
        // kubectl's own output has every cell at its column's start (the last column's cell
        // exactly there), and an empty cell (no TYPE, no FROM) is only padding: such a row is
        // cut at the offsets, since counting cells off against the columns would let the
        // message's own double spaces shift them.
        let last_start = columns.last().map_or(0, |(start, _)| *start);
        let cell_starts: Vec<usize> = cells.iter().map(|(at, _)| char_offset(line, *at)).collect();
        let aligned =
            cell_starts.iter().take_while(|at| **at < last_start).all(|at| columns.iter().any(|(s, _)| s == at))
                && cell_starts.iter().find(|at| **at >= last_start).is_none_or(|at| *at == last_start);
        if message_last && cells.len() >= columns.len() && !aligned {
            // Every column but the message is one cell; the message is the rest of the line.

            for ((_, column), (_, text)) in columns.iter().zip(cells) {
                row.set(*column, text)?;
            }
            let (start, _) = cells[columns.len() - 1];
            row.message = line.get(start..)?.trim_end();
        } else {
            // `-o wide` (the message in the middle) or empty cells (old layouts' SubObjectPath):
            // cut at the header's offsets, which kubectl's tabwriter keeps exact.

            // A line that ends before the last column starts is a row whose last cells are empty
            // (an empty message, its padding lost in a terminal copy) only if its cells sit at
            // the column starts and it has the cells every row has; else it is a wrapped message.
            let short = last_start > line.chars().count();
            if short && !aligned {
                return None;
            }
            // A row that kubectl lined up on its own (`get events -w -o wide`: each watch event
            // is printed alone, wider than the header): its cells, from both ends.
            if !aligned
                && !short
                && starts_inside_a_word(line, columns)
                && let Some(row) = Self::by_cells_from_both_ends(line, cells, columns)
            {
                return Some(row);
            }
            // A cell wider than its header (a hand-edited paste) pushes the next cell right.
            let starts = pushed_starts(line, columns.iter().map(|(start, _)| *start));
            for (i, (_, column)) in columns.iter().enumerate() {
                let (start, end) = (starts[i], starts.get(i + 1).copied().unwrap_or(line.len()));
                let text = line.get(start..end.max(start).min(line.len()))?.trim();
                if !text.is_empty() {
                    row.set(*column, text)?;
                }
            }
            let has = |c| columns.iter().any(|(_, column)| *column == c);
            let no_age = (has(Column::Age) || has(Column::LastSeen)) && row.age.is_none();
            if short && (no_age || (has(Column::Object) && row.object.is_none())) {
                return None;
            }
        }
        (is_reason(row.reason) && row.type_.is_none_or(is_type)).then_some(row)
    }

    /// The columns before MESSAGE one cell each from the left (an empty SUBOBJECT leaves no
    /// cell: a cell that is no field path is the next column's), those after it one cell each
    /// from the right, and the message the text between (its own double spaces kept). `None`
    /// when the cells do not read as a row.
    fn by_cells_from_both_ends(
        line: &'a str,
        cells: &[(usize, &'a str)],
        columns: &[(usize, Column)],
    ) -> Option<Row<'a>> {
        let message = columns.iter().position(|(_, c)| *c == Column::Message)?;
        let (before, after) = (&columns[..message], &columns[message + 1..]);
        let split = cells.len().checked_sub(after.len())?;
        let (left, right) = cells.split_at(split);
        let mut row = Row::default();
        for ((_, column), (_, text)) in after.iter().zip(right) {
            row.set(*column, text)?;
        }
        let mut next = 0;
        for (_, column) in before {
            let &(_, text) = left.get(next)?;
            if *column == Column::Subobject && !(text.contains('{') || text.starts_with("spec.")) {
                continue;
            }
            row.set(*column, text)?;
            next += 1;
        }
        let (start, _) = *left.get(next)?;
        let (last, text) = *left.last()?;
        row.message = line.get(start..last + text.len())?.trim_end();
        let read = is_reason(row.reason)
            && row.type_.is_none_or(is_type)
            && row.object.is_none_or(is_object)
            && !row.message.is_empty();
        read.then_some(row)
    }

    fn set(&mut self, column: Column, text: &'a str) -> Option<()> {
        match column {
            Column::Namespace => self.namespace = Some(text),
            Column::LastSeen | Column::Age => self.age = Some(parse_age(text)?),
            Column::FirstSeen => self.first_seen = parse_age(text),
            Column::Type => self.type_ = Some(text),
            Column::Reason => self.reason = text,
            Column::From | Column::Source => self.from = Some(text),
            Column::Object => self.object = Some(text),
            Column::Subobject => self.subobject = Some(text),
            Column::Message => self.message = text,
            Column::Count => self.count = text.parse().ok(),
            Column::Name => self.event_name = Some(text),
            Column::Kind => self.kind = Some(text),
            Column::Other => {}
        }
        Some(())
    }

    /// kubectl before 1.14 without its header: `LASTSEEN FIRSTSEEN COUNT NAME KIND [SUBOBJECT]
    /// TYPE REASON SOURCE MESSAGE`, NAME the object's (or, in the oldest, the Event's
    /// `<object>.<hex>`) and KIND the object's.
    fn old_layout(line: &'a str, cells: &[(usize, &'a str)]) -> Option<Row<'a>> {
        let text = |i: usize| cells.get(i).map(|(_, t)| *t);
        let age = text(0).and_then(parse_age)?;
        let first_seen = text(1).and_then(parse_age)?;
        let count = text(2)?.parse::<i32>().ok()?;
        let event_name = text(3).filter(|n| !n.contains('/'))?;
        let kind = text(4).filter(|k| {
            k.starts_with(|c: char| c.is_ascii_uppercase()) && k.chars().all(|c| c.is_ascii_alphanumeric())
        })?;
        let mut i = 5;
        let subobject = text(i).filter(|t| t.starts_with("spec.") || t.starts_with("status."));
        i += usize::from(subobject.is_some());
        let type_ = text(i).filter(|t| is_type(t))?;
        let reason = text(i + 1).filter(|t| is_reason(t))?;
        let from = text(i + 2);
        let message = cells.get(i + 3).and_then(|(start, _)| line.get(*start..)).unwrap_or_default().trim_end();
        Some(Row {
            age: Some(age),
            first_seen: Some(first_seen),
            count: Some(count),
            event_name: Some(event_name),
            kind: Some(kind),
            subobject,
            type_: Some(type_),
            reason,
            from,
            message,
            ..Row::default()
        })
    }

    /// `kubectl describe` before 1.5 without its header: `FirstSeen LastSeen Count From
    /// [SubobjectPath] Type Reason Message`, FROM as `{component host}`; the reason may be
    /// followed by its message after one space (the tabwriter's padding lost in a paste).
    fn describe_v1_3(line: &'a str, cells: &[(usize, &'a str)]) -> Option<Row<'a>> {
        let text = |i: usize| cells.get(i).map(|(_, t)| *t);
        let first_seen = text(0).and_then(parse_age)?;
        let age = text(1).and_then(parse_age)?;
        let count = text(2)?.parse::<i32>().ok()?;
        let from = text(3).filter(|f| f.starts_with('{') && f.ends_with('}'))?;
        let mut i = 4;
        let subobject = text(i).filter(|t| t.starts_with("spec.") || t.starts_with("status."));
        i += usize::from(subobject.is_some());
        let type_ = text(i).filter(|t| is_type(t))?;
        let (start, cell) = *cells.get(i + 1)?;
        let (reason, message) = match cell.split_once(' ') {
            Some((reason, _)) if cells.len() == i + 2 => (reason, line.get(start + reason.len() + 1..)?.trim()),
            _ => (cell, cells.get(i + 2).and_then(|(at, _)| line.get(*at..)).unwrap_or_default().trim_end()),
        };
        is_reason(reason).then_some(())?;
        Some(Row {
            age: Some(age),
            first_seen: Some(first_seen),
            count: Some(count),
            from: Some(from),
            subobject,
            type_: Some(type_),
            reason,
            message,
            ..Row::default()
        })
    }

    /// Without a header: `[NAMESPACE] [LAST SEEN] [TYPE] REASON (OBJECT | [AGE] FROM) MESSAGE`.
    fn by_shape(line: &'a str, cells: &[(usize, &'a str)]) -> Option<Row<'a>> {
        let text = |i: usize| cells.get(i).map(|(_, t)| *t);
        let mut row = Row::default();
        if let Some(old) = Row::old_layout(line, cells).or_else(|| Row::describe_v1_3(line, cells)) {
            return Some(old);
        }
        let mut i = 0;
        // `kubectl get events -A`: NAMESPACE LAST SEEN TYPE ...
        if text(1).and_then(parse_age).is_some()
            && text(2).is_some_and(is_type)
            && text(0).and_then(parse_age).is_none()
        {
            row.namespace = text(0);
            i = 1;
        }
        if let Some(age) = text(i).and_then(parse_age)
            && text(i + 1).is_some_and(|t| is_type(t) || is_reason(t))
        {
            row.age = Some(age);
            i += 1;
        }
        if let Some(t) = text(i).filter(|t| is_type(t)) {
            row.type_ = Some(t);
            i += 1;
        }
        // Without a header, a reason is as Kubernetes writes them, UpperCamelCase, or one the
        // catalogue knows: the first column of `get all`, `top nodes` or `get pvc` (a namespace,
        // a name) is none.
        row.reason = text(i).filter(|t| {
            is_reason(t)
                && (t.starts_with(|c: char| c.is_ascii_uppercase()) || crate::ReasonName::parse(t).reason().is_some())
        })?;
        i += 1;
        if text(i).is_some_and(is_object) {
            row.object = text(i);
            i += 1;
        } else {
            if row.age.is_none()
                && let Some(age) = text(i).and_then(parse_age)
            {
                row.age = Some(age);
                i += 1;
            }
            // FROM is a cell only when a message follows it, or when it is the row's last cell
            // and reads as a component (the message wrapped onto the next line whole).
            if cells.len() > i + 1 || (cells.len() == i + 1 && text(i).is_some_and(is_component)) {
                row.from = text(i);
                i += 1;
            }
        }
        // A row needs a type or an object or an age: a bare `Word  text` line is not an event.
        if row.type_.is_none() && row.object.is_none() && row.age.is_none() {
            return None;
        }
        // A row of every cell but an empty message (`Starting  node/x` with nothing after it):
        // its type, age and object say it is one.
        // A row cut after its age (`Warning  FailedScheduling  34m (x2 over 34m)`, the paste's
        // last line) is whole as far as it goes; the reader flags it cut.
        let Some(&(start, _)) = cells.get(i) else {
            return (row.type_.is_some() && (row.age.is_some() || row.from.is_some())).then_some(row);
        };
        row.message = line.get(start..)?.trim_end();
        Some(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_rows_with_and_without_header() {
        let header = Header::parse("  Type     Reason     Age                   From               Message").unwrap();
        let line = "  Warning  Failed     86s (x26 over 6m37s)  kubelet            Error: failed to create containerd container: CDI device injection failed";
        let row = Row::parse(line, Some(&header)).unwrap();
        assert_eq!((row.type_, row.reason, row.from), (Some("Warning"), "Failed", Some("kubelet")));
        assert_eq!(row.age.unwrap().count, Some(26));
        assert!(row.message.starts_with("Error: failed"));
        assert_eq!(Row::parse(line, None).unwrap(), row);

        // No age column (KAI case 045).
        let row = Row::parse(
            "Warning  Unschedulable  kai-scheduler  No nodes with enough resources were found: 2 node(s).",
            None,
        )
        .unwrap();
        assert_eq!((row.reason, row.from, row.age), ("Unschedulable", Some("kai-scheduler"), None));
        assert!(row.message.starts_with("No nodes"));
    }

    #[test]
    fn get_events_rows() {
        let header =
            Header::parse("NAMESPACE     LAST SEEN   TYPE      REASON     OBJECT                   MESSAGE").unwrap();
        let line =
            "kube-system   8s          Warning   Occur      pod/ascend-dp-910-dlpmv   device fault, nodeName:node-a";
        let row = Row::parse(line, Some(&header)).unwrap();
        assert_eq!(
            (row.namespace, row.object, row.reason),
            (Some("kube-system"), Some("pod/ascend-dp-910-dlpmv"), "Occur")
        );
        assert_eq!(Row::parse(line, None).unwrap(), row);
        // Partial row: REASON OBJECT MESSAGE only (case 025).
        let row = Row::parse(
            "FailedScheduling    pod/model-2    0/1 nodes are available: 1 Insufficient nvidia.com/gpu.",
            None,
        )
        .unwrap();
        assert_eq!((row.type_, row.reason, row.object), (None, "FailedScheduling", Some("pod/model-2")));
        // google/dranet#221: a headerless row whose message is empty is a row, not a wrap.
        let row = Row::parse("8m15s       Normal    Starting                        node/dra-worker2", None).unwrap();
        assert_eq!((row.reason, row.object, row.message), ("Starting", Some("node/dra-worker2"), ""));
        // Knative's objects with their Kind capitalised (coreweave/kubernetes-cloud#125).
        let row = Row::parse("2m38s                  Normal    Created                  Service/sd4-predictor      Created Route \"sd4\"", None).unwrap();
        assert_eq!((row.reason, row.object, row.from), ("Created", Some("Service/sd4-predictor"), None));
        // A describe row whose message went whole onto the next line (defilantech/LLMKube#78).
        let row = Row::parse("Warning  FailedScheduling  default-scheduler", None).unwrap();
        assert_eq!((row.reason, row.from, row.message), ("FailedScheduling", Some("default-scheduler"), ""));
        // The NAME column may be the object's own name (openshift/origin#7824).
        let row = Row::parse("18m       18m       1         postgresql-1-t199e   Pod       spec.containers{postgresql}   Normal    Started      {kubelet node238.localnet.net}   Started container with docker id a8acbe218e6b", None).unwrap();
        assert_eq!(
            (row.event_name, row.kind, row.from),
            (Some("postgresql-1-t199e"), Some("Pod"), Some("{kubelet node238.localnet.net}"))
        );
        assert_eq!(row.message, "Started container with docker id a8acbe218e6b");
        // kubectl describe v1.3 without its header (kubernetes/kubernetes#31768).
        let row = Row::parse("  4m        2m      2   {kubelet gke-pool-2a5b702b-hfyh}           Warning     FailedMount Unable to mount volumes for pod \"x\": timeout", None).unwrap();
        assert_eq!(
            (row.reason, row.count, row.from),
            ("FailedMount", Some(2), Some("{kubelet gke-pool-2a5b702b-hfyh}"))
        );
        assert_eq!(row.message, "Unable to mount volumes for pod \"x\": timeout");
        let row = Row::parse("  4m        2m      2   {kubelet gke-pool-2a5b702b-hfyh}           Warning     FailedSync  Error syncing pod, skipping: timeout", None).unwrap();
        assert_eq!((row.reason, row.message), ("FailedSync", "Error syncing pod, skipping: timeout"));
        // The first column of other tables is no reason (kubernetes/kubectl#167, `get all -A`).
        assert_eq!(
            Row::parse("default       service/kubernetes   ClusterIP   10.96.0.1   <none>   443/TCP   5d", None),
            None
        );
        assert_eq!(Row::parse("k8s-master     74m          3%     2666Mi          65%", None), None);
        // Cut after its age: a row with no FROM and no message.
        let row = Row::parse("  Warning  FailedScheduling  34m (x2 over 34m)", None).unwrap();
        assert_eq!((row.reason, row.from, row.message), ("FailedScheduling", None, ""));
        // kubectl before 1.14, no header (ministryofjustice/cloud-platform#590).
        let row = Row::parse("59m         6d           124       allocation-manager-6597bc46dc.1576a87b365ab1e4         ReplicaSet                                         Warning   FailedCreate            replicaset-controller                                  (combined from similar events): Error creating: pods \"x\" is forbidden", None).unwrap();
        assert_eq!(
            (row.kind, row.count, row.reason, row.from),
            (Some("ReplicaSet"), Some(124), "FailedCreate", Some("replicaset-controller"))
        );
        assert!(row.message.starts_with("(combined from similar events): Error creating"));
        let row = Row::parse("59m         59m          1         allocation-manager-6597bc46dc-wtqkj.1578834752099143   Pod          spec.containers{allocation-manager}   Normal    Killing                 kubelet, ip-172-20-85-100.eu-west-1.compute.internal   Killing container", None).unwrap();
        assert_eq!(
            (row.subobject, row.from),
            (Some("spec.containers{allocation-manager}"), Some("kubelet, ip-172-20-85-100.eu-west-1.compute.internal"))
        );
        // A slash after a space or before nothing is no object.
        assert!(!is_object("TCP /health") && !is_object("Service/") && !is_object("/x"));
    }

    #[test]
    fn wide_header_cuts_at_offsets() {
        let header = "LAST SEEN   TYPE     REASON    OBJECT    SUBOBJECT   SOURCE            MESSAGE        FIRST SEEN   COUNT   NAME";
        let line = "33s         Normal   Pulled    pod/a     spec.x      kubelet, node-a   Image pulled   5m           3       a.17f0";
        let row = Row::parse(line, Header::parse(header).as_ref()).unwrap();
        assert_eq!(row.message, "Image pulled");
        assert_eq!((row.count, row.event_name, row.from), (Some(3), Some("a.17f0"), Some("kubelet, node-a")));
    }

    #[test]
    fn watch_rows_wider_than_the_wide_header_read_by_their_cells() {
        // `kubectl get events -w -o wide` against a real server: each event lined up alone.
        let header = Header::parse("LAST SEEN   TYPE      REASON             OBJECT        SUBOBJECT   SOURCE              MESSAGE                                                   FIRST SEEN   COUNT   NAME").unwrap();
        let line = "0s          Normal    GangWaitingForMembers   pod/train-0               GangScheduler, GangScheduler-0   Waiting for gang members: 1/4 ready                       2m           4       train-0.2";
        let row = Row::parse(line, Some(&header)).unwrap();
        assert_eq!(
            (row.reason, row.object, row.from),
            ("GangWaitingForMembers", Some("pod/train-0"), Some("GangScheduler, GangScheduler-0"))
        );
        assert_eq!(
            (row.message, row.count, row.event_name),
            ("Waiting for gang members: 1/4 ready", Some(4), Some("train-0.2"))
        );
        let line = "14m         Normal    FailedCreatePodSandBoxWithAVeryLongReason   pod/a-very-long-pod-name-for-the-watch-0123456789   spec.containers{main}   kubelet, node-b     two  spaces   and three    four                           30d          123456   long.1";
        let row = Row::parse(line, Some(&header)).unwrap();
        assert_eq!(
            (row.object, row.subobject),
            (Some("pod/a-very-long-pod-name-for-the-watch-0123456789"), Some("spec.containers{main}"))
        );
        assert_eq!((row.from, row.message), (Some("kubelet, node-b"), "two  spaces   and three    four"));
        assert_eq!((row.count, row.event_name), (Some(123456), Some("long.1")));
    }

    #[test]
    fn a_cell_wider_than_its_column_pushes_the_next_one() {
        let header = "NAMESPACE   LAST SEEN   TYPE      REASON              OBJECT                         MESSAGE";
        let line = "kube-system 1m          Warning   FailedCreatePodSandBox   pod/nvidia-device-plugin-x   Failed to create pod sandbox: x";
        let row = Row::parse(line, Header::parse(header).as_ref()).unwrap();
        assert_eq!((row.namespace, row.reason), (Some("kube-system"), "FailedCreatePodSandBox"));
        assert_eq!((row.object, row.message), (Some("pod/nvidia-device-plugin-x"), "Failed to create pod sandbox: x"));
        assert_eq!(pushed_starts("é", [0, 1].into_iter()), [0, 2]);
    }

    #[test]
    fn non_rows_are_rejected() {
        for line in [
            "Name:         gpu-pod",
            "Events:  <none>",
            "  ----     ------",
            "just text",
            "",
            "Labels:  app=x",
            // Single-spaced prose: "Warning" then a word that is no reason the catalogue knows.
            "Warning this pod is stuck since yesterday",
            "Warning FailedScheduling",
        ] {
            assert!(Row::parse(line, None).is_none(), "{line:?}");
        }
    }

    #[test]
    fn single_spaced_rows() {
        let row = Row::parse(
            "Warning Unhealthy 2m6s (x41235 over 5d15h) kubelet Startup probe failed: No devices were found",
            None,
        )
        .unwrap();
        assert_eq!((row.type_, row.reason, row.from), (Some("Warning"), "Unhealthy", Some("kubelet")));
        assert_eq!(row.age.and_then(|a| a.count), Some(41235));
        assert_eq!(row.message, "Startup probe failed: No devices were found");
        // No age, no component.
        let row =
            Row::parse("Warning UnexpectedAdmissionError Allocate failed due to x, which is unexpected", None).unwrap();
        assert_eq!((row.from, row.age), (None, None));
        assert_eq!(row.message, "Allocate failed due to x, which is unexpected");
    }
}
