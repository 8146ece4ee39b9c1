//! [`DecodeError`]: what went wrong, where, and whether decoding went on.

use std::fmt;

/// Where a bad item was: the document (1-based, in input order) and, inside a List or array,
/// the item index (0-based, as in `items[3]`); for the text formats, the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemLocation {
    /// 1-based index of the top-level document (JSON value or YAML document).
    pub document: usize,
    /// 0-based index inside the document's `items` (or top-level array), if any.
    pub item: Option<usize>,
    /// 1-based line of the input, for the text formats.
    pub line: Option<usize>,
    /// `metadata.name` of the item, when it could be read (an Event's name, or the name of the
    /// object found in its place).
    pub name: Option<String>,
}

impl fmt::Display for ItemLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}")?;
        } else {
            write!(f, "document {}", self.document)?;
        }
        if let Some(item) = self.item {
            write!(f, ", items[{item}]")?;
        }
        if let Some(name) = &self.name {
            write!(f, " (name {name:?})")?;
        }
        Ok(())
    }
}

/// An error while decoding events.
///
/// [`DecodeError::Item`] is per item: the decoder reports it and goes on with the next item.
/// The others are fatal: the decoder reports them once and stops.
/// `#[non_exhaustive]`: variants may be added.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is not valid JSON (or a JSON stream was cut short).
    #[error("malformed JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// The input is not valid YAML.
    #[error("malformed YAML{}: {message}", location_suffix(*line, *column))]
    Yaml {
        /// 1-based line, when the parser knows it.
        line: Option<usize>,
        /// 1-based column, when the parser knows it.
        column: Option<usize>,
        /// What the YAML parser reported.
        message: String,
    },
    /// The input is not UTF-8 text (YAML input must be).
    #[error("input is not UTF-8 text: {0}")]
    NotUtf8(#[from] std::str::Utf8Error),
    /// Reading the input failed.
    #[error("reading input: {0}")]
    Io(#[from] std::io::Error),
    /// One item is not a readable Event; the others are still decoded.
    #[error("{location}: {message}")]
    Item {
        /// Where the item is.
        location: ItemLocation,
        /// What is wrong, with the field path when a field has the wrong type
        /// (e.g. `count: invalid type: string "x", expected i32`).
        message: String,
    },
    /// One item is an object of another kind (a Pod manifest, a Node, a Queue): not an Event,
    /// and not a Pod whose status says something is wrong. The others are still decoded.
    #[error("{location}: kind {kind:?} is not an Event (expected Event, EventList, List, or a Pod with its status)")]
    NotAnEvent {
        /// Where the item is; `name` is the object's `metadata.name`.
        location: ItemLocation,
        /// The object's `kind`.
        kind: String,
    },
    /// One item is a JSON or YAML value that is no Event and no object (a status condition, a
    /// log record, a values file): not events; the others are still decoded.
    #[error("{location}: {what}, not an Event")]
    NotAnEventValue {
        /// Where the item is.
        location: ItemLocation,
        /// What it looks like (`a status condition (type Ready)`).
        what: String,
    },
    /// Lines of a pasted text that look like events (a reason the catalogue knows in a row, or
    /// beside `Warning`/`Normal`) but that no reader could read: events were lost there.
    #[error("{}: {what}: not read", LineRange(*first_line, *last_line))]
    Unread {
        /// 1-based first line.
        first_line: usize,
        /// 1-based last line (inclusive).
        last_line: usize,
        /// What the lines look like.
        what: String,
    },
    /// Lines of a pasted text that are not events (prose, a `kubectl get pods` table, a
    /// manifest): yielded only when [`Decoder::report_skipped`](super::Decoder::report_skipped)
    /// asks for them, so that every input line is accounted for.
    #[error("{}: {what}, not events", LineRange(*first_line, *last_line))]
    NotEvents {
        /// 1-based first line.
        first_line: usize,
        /// 1-based last line (inclusive).
        last_line: usize,
        /// What the lines are.
        what: String,
    },
}

/// `line 3` or `lines 3-9`.
struct LineRange(usize, usize);

impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineRange(first, last) if first == last => write!(f, "line {first}"),
            LineRange(first, last) => write!(f, "lines {first}-{last}"),
        }
    }
}

fn location_suffix(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!(" at line {line}, column {column}"),
        (Some(line), None) => format!(" at line {line}"),
        _ => String::new(),
    }
}

impl DecodeError {
    /// Whether decoding stopped at this error (malformed JSON or YAML, input not UTF-8, a read
    /// error); after the others it goes on.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            DecodeError::Json { .. } | DecodeError::Yaml { .. } | DecodeError::NotUtf8(_) | DecodeError::Io(_)
        )
    }

    /// Whether events may have been lost here: every error but [`DecodeError::NotEvents`] (text
    /// that is not events, reported for the record) and [`DecodeError::NotAnEvent`] (an object
    /// of another kind).
    pub fn is_loss(&self) -> bool {
        !matches!(
            self,
            DecodeError::NotEvents { .. } | DecodeError::NotAnEvent { .. } | DecodeError::NotAnEventValue { .. }
        )
    }
}

/// A serde_json error in text that starts at the beginning of `line`, as [`DecodeError::Json`].
pub(super) fn json_error(err: &serde_json::Error, line: usize) -> DecodeError {
    json_error_at(err, line, 1)
}

/// A serde_json error in text that starts at `line`, `column`: positions on the text's first
/// line are shifted by the column it starts at.
pub(super) fn json_error_at(err: &serde_json::Error, line: usize, column: usize) -> DecodeError {
    let shifted = if err.line() <= 1 { column + err.column().saturating_sub(1) } else { err.column() };
    DecodeError::Json {
        line: line + err.line().saturating_sub(1),
        column: shifted.max(1),
        message: strip_position(err),
    }
}

/// serde_json appends " at line L column C"; the error type prints the position itself.
pub(super) fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}
