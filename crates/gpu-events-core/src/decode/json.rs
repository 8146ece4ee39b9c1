//! JSON input, streamed: top-level values are read one at a time, and the elements of a List's
//! `items` (or of a top-level array) are cut out one by one, so a 200 000-event
//! `kubectl get events -o json` dump is never held whole in memory.
//!
//! Why a structural scanner of our own: serde_json streams only top-level values (its
//! `StreamDeserializer`); it cannot hand out the elements of an array nested in an object one at
//! a time (serde-rs/json#404). The scanner below only finds value boundaries (strings, escapes,
//! nesting); serde_json still parses every element, so syntax is checked by serde_json.

use std::io::{self, BufRead};

use serde_json::Value;

use super::DecodeError;
use super::api::{Api, api_of_version};
use super::error::json_error;
use super::raw::{MAX_ITEM_BYTES, RawDocument, RawItem};
use super::wire;

/// What the JSON reader hands out.
// The record is handed on at once; boxing it would cost an allocation per event.
#[allow(clippy::large_enum_variant)]
pub(super) enum JsonPiece {
    /// A top-level value that is not a List (an Event, a watch envelope, a record) and its
    /// 1-based document index.
    Document(Value, usize),
    /// One element of a List's `items` or of a top-level array, still as text.
    Item(RawItem),
    /// A top-level object that is not a List, still as text.
    Object(RawDocument),
    /// A plain Event read in place from the read buffer (the fast path).
    Record(crate::EventRecord),
}

/// Where the reader is in the stream.
enum State {
    /// Between top-level values.
    TopLevel,
    /// Inside an array of items; `in_object` when the array is a List's `items` (the rest of the
    /// List object follows the array).
    Items {
        index: usize,
        in_object: bool,
        /// The Event API of the List's `apiVersion`, read once for all its items.
        list_api: Option<Api>,
    },
    Done,
}

/// Top-level JSON values of a stream, with Lists and arrays split into their elements.
pub(super) struct JsonDocuments<R: BufRead> {
    scanner: Scanner<R>,
    state: State,
    document: usize,
    /// Read plain Events in place from the read buffer (else hand every item over as text).
    pub(super) in_place: bool,
}

impl<R: BufRead> JsonDocuments<R> {
    /// Documents from `reader`, whose next byte is at `line`, `column` of the input.
    pub(super) fn new(reader: R, line: usize, column: usize) -> Self {
        JsonDocuments {
            scanner: Scanner { reader, line, column, recording: None },
            state: State::TopLevel,
            document: 0,
            in_place: true,
        }
    }

    /// Whether anything has been read yet.
    pub(super) fn started(&self) -> bool {
        self.document > 0
    }

    /// The next document or item; `None` at the end; a fatal error ends the stream.
    pub(super) fn next(&mut self) -> Option<Result<JsonPiece, DecodeError>> {
        let result = self.step();
        if matches!(result, None | Some(Err(_))) {
            self.state = State::Done;
        }
        result
    }

    fn step(&mut self) -> Option<Result<JsonPiece, DecodeError>> {
        loop {
            match &mut self.state {
                State::Done => return None,
                State::TopLevel => {
                    let first = match self.scanner.skip_whitespace() {
                        Ok(None) => return None,
                        Ok(Some(byte)) => byte,
                        Err(err) => return Some(Err(err)),
                    };
                    self.document += 1;
                    match first {
                        b'[' => {
                            self.scanner.bump();
                            self.state = State::Items { index: 0, in_object: false, list_api: None };
                        }
                        b'{' if let Some(record) = self.in_place(None) => {
                            return Some(Ok(JsonPiece::Record(record)));
                        }
                        b'{' => match self.object_head() {
                            Ok(Head::List { list_api_version }) => {
                                let list_api = list_api_version.as_deref().and_then(api_of_version);
                                self.state = State::Items { index: 0, in_object: true, list_api };
                            }
                            Ok(Head::Document(raw)) => return Some(Ok(JsonPiece::Object(raw))),
                            Err(err) => return Some(Err(err)),
                        },
                        _ => {
                            // Not an object or array: let serde_json say what it is.
                            let mut bytes = Vec::new();
                            let line = self.scanner.line;
                            let document = self.document;
                            return Some(
                                self.scanner
                                    .copy_value(&mut bytes)
                                    .and_then(|()| parse_value(&bytes, line))
                                    .map(|value| JsonPiece::Document(value, document)),
                            );
                        }
                    }
                }
                State::Items { index, in_object, list_api } => {
                    let list_api = *list_api;
                    match self.scanner.skip_whitespace() {
                        Ok(Some(b']')) => {
                            self.scanner.bump();
                            let in_object = *in_object;
                            self.state = State::TopLevel;
                            if in_object && let Err(err) = self.object_tail() {
                                return Some(Err(err));
                            }
                            continue;
                        }
                        Ok(Some(b',')) if *index > 0 => {
                            self.scanner.bump();
                        }
                        Ok(Some(_)) if *index == 0 => {}
                        Ok(Some(_)) => {
                            return Some(Err(self.scanner.error("expected `,` or `]` between items")));
                        }
                        Ok(None) => {
                            return Some(Err(self.scanner.error("EOF inside an array of items")));
                        }
                        Err(err) => return Some(Err(err)),
                    }
                    if let Err(err) = self.scanner.skip_whitespace() {
                        return Some(Err(err));
                    }
                    if let Some(record) = self.in_place(list_api) {
                        if let State::Items { index, .. } = &mut self.state {
                            *index += 1;
                        }
                        return Some(Ok(JsonPiece::Record(record)));
                    }
                    // This arm is only reached in the Items state.
                    let index = match self.state {
                        State::Items { index, .. } => index,
                        _ => 0,
                    };
                    let (line, column) = (self.scanner.line, self.scanner.column);
                    let mut bytes = Vec::new();
                    let oversized = match self.scanner.copy_value(&mut bytes) {
                        Ok(()) => false,
                        Err(DecodeError::Item { .. }) => true,
                        Err(err) => return Some(Err(err)),
                    };
                    let item = RawItem { bytes, line, column, document: self.document, index, list_api, oversized };
                    if let State::Items { index, .. } = &mut self.state {
                        *index += 1;
                    }
                    return Some(Ok(JsonPiece::Item(item)));
                }
            }
        }
    }

    /// The plain Event that starts at the reader's position, when it lies whole in the read
    /// buffer: parsed there, without copying its text (see `super::wire`). Consumed only then.
    fn in_place(&mut self, list_api: Option<Api>) -> Option<crate::EventRecord> {
        if !self.in_place {
            return None;
        }
        let buf = self.scanner.reader.fill_buf().ok()?;
        let (record, end) = wire::record_prefix(buf, list_api)?;
        // Larger items take the general path, which skips them.
        if end > MAX_ITEM_BYTES {
            return None;
        }
        self.scanner.consume(end);
        Some(record)
    }

    /// Read an object's members up to `items` (a List) or to its end (any other document, kept
    /// as its text so the fast path can read it without a `Value`).
    fn object_head(&mut self) -> Result<Head, DecodeError> {
        let (line, column) = (self.scanner.line, self.scanner.column);
        self.scanner.recording = Some(Recording::default());
        let head = self.object_members();
        let recording = self.scanner.recording.take().unwrap_or_default();
        match head? {
            None => Ok(Head::List { list_api_version: recording.api_version }),
            Some(()) => Ok(Head::Document(RawDocument {
                bytes: recording.bytes,
                line,
                column,
                document: self.document,
                oversized: recording.oversized,
            })),
        }
    }

    /// The members of the object whose `{` is next: `Some` at its `}`, `None` at `"items": [`.
    fn object_members(&mut self) -> Result<Option<()>, DecodeError> {
        self.scanner.bump(); // `{`
        let mut first = true;
        loop {
            match self.scanner.skip_whitespace()? {
                Some(b'}') => {
                    self.scanner.bump();
                    return Ok(Some(()));
                }
                Some(b',') if !first => {
                    self.scanner.bump();
                    self.scanner.skip_whitespace()?;
                }
                Some(_) if first => {}
                Some(_) => return Err(self.scanner.error("expected `,` or `}` in object")),
                None => return Err(self.scanner.error("EOF while parsing an object")),
            }
            first = false;
            let mut key = Vec::new();
            self.scanner.copy_value(&mut key)?;
            match self.scanner.skip_whitespace()? {
                Some(b':') => self.scanner.bump(),
                _ => return Err(self.scanner.error("expected `:` after an object key")),
            }
            if key == b"\"items\"" && self.scanner.skip_whitespace()? == Some(b'[') {
                self.scanner.bump();
                return Ok(None);
            }
            self.scanner.skip_whitespace()?;
            if key == b"\"apiVersion\"" {
                let mut value = Vec::new();
                self.scanner.copy_value(&mut value)?;
                // Only a string names an API; anything else is for serde_json to reject.
                let api_version = serde_json::from_slice::<String>(&value).ok();
                if let Some(recording) = &mut self.scanner.recording {
                    recording.api_version = api_version;
                }
            } else {
                self.scanner.skip_value()?;
            }
        }
    }

    /// Skip the members of a List that follow `items` (`kind`, `metadata`) up to its `}`.
    fn object_tail(&mut self) -> Result<(), DecodeError> {
        loop {
            match self.scanner.skip_whitespace()? {
                Some(b'}') => {
                    self.scanner.bump();
                    return Ok(());
                }
                Some(b',') => {
                    self.scanner.bump();
                    self.scanner.skip_whitespace()?;
                    self.scanner.skip_value()?;
                    match self.scanner.skip_whitespace()? {
                        Some(b':') => self.scanner.bump(),
                        _ => return Err(self.scanner.error("expected `:` after an object key")),
                    }
                    self.scanner.skip_whitespace()?;
                    self.scanner.skip_value()?;
                }
                Some(_) => return Err(self.scanner.error("expected `,` or `}` after `items`")),
                None => return Err(self.scanner.error("EOF while parsing a List")),
            }
        }
    }
}

/// What the start of a top-level object turned out to be.
enum Head {
    List { list_api_version: Option<String> },
    Document(RawDocument),
}

/// The bytes consumed while reading a top-level object's head.
#[derive(Default)]
struct Recording {
    bytes: Vec<u8>,
    oversized: bool,
    /// The object's `apiVersion`, when it was a string.
    api_version: Option<String>,
}

/// Parse a whole top-level document, with positions counted from its first line.
fn parse_value(bytes: &[u8], line: usize) -> Result<Value, DecodeError> {
    serde_json::from_slice(bytes).map_err(|err| json_error(&err, line))
}

/// The bytes that change the scanner's state inside a container: quotes and brackets.
static STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table[b'[' as usize] = true;
    table[b']' as usize] = true;
    table
};

/// Finds value boundaries in a byte stream and counts lines and columns.
struct Scanner<R: BufRead> {
    reader: R,
    line: usize,
    column: usize,
    /// When set, every consumed byte is also appended here (up to [`MAX_ITEM_BYTES`]).
    recording: Option<Recording>,
}

impl<R: BufRead> Scanner<R> {
    fn error(&self, message: &str) -> DecodeError {
        DecodeError::Json { line: self.line, column: self.column, message: message.to_owned() }
    }

    fn fill(&mut self) -> Result<&[u8], DecodeError> {
        // Retry interrupted reads first; returning the buffer from inside the loop would keep
        // the reader borrowed across iterations.
        loop {
            match self.reader.fill_buf() {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(DecodeError::Io(err)),
                Ok(_) => break,
            }
        }
        self.reader.fill_buf().map_err(DecodeError::Io)
    }

    /// Consume `n` bytes of the current buffer, counting lines.
    fn consume(&mut self, n: usize) {
        if let Ok(buf) = self.reader.fill_buf() {
            let taken = &buf[..n.min(buf.len())];
            if let Some(recording) = &mut self.recording
                && !recording.oversized
            {
                if recording.bytes.len() + taken.len() > MAX_ITEM_BYTES {
                    recording.oversized = true;
                    recording.bytes = Vec::new();
                } else {
                    recording.bytes.extend_from_slice(taken);
                }
            }
            match memchr::memrchr(b'\n', taken) {
                Some(last) => {
                    self.line += memchr::memchr_iter(b'\n', taken).count();
                    self.column = taken.len() - last;
                }
                None => self.column += taken.len(),
            }
        }
        self.reader.consume(n);
    }

    fn bump(&mut self) {
        self.consume(1);
    }

    /// Skip white space; the next byte, not consumed; `None` at the end of input.
    fn skip_whitespace(&mut self) -> Result<Option<u8>, DecodeError> {
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let skip = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let next = buf.get(skip).copied();
            self.consume(skip);
            if next.is_some() {
                return Ok(next);
            }
        }
    }

    /// Copy one JSON value (object, array, string, number or literal) into `out`. Stops copying
    /// past [`MAX_ITEM_BYTES`] (the value is still consumed) and then returns an item error.
    fn copy_value(&mut self, out: &mut Vec<u8>) -> Result<(), DecodeError> {
        self.scan_value(Some(out))
    }

    /// Read past one JSON value without keeping it.
    fn skip_value(&mut self) -> Result<(), DecodeError> {
        self.scan_value(None)
    }

    fn scan_value(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<(), DecodeError> {
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        let mut scalar = true;
        let mut started = false;
        let mut oversized = false;
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                if started && scalar && !in_string {
                    break; // A number or literal at the very end.
                }
                return Err(self.error("EOF while parsing a value"));
            }
            let mut end = None;
            let mut i = 0;
            while i < buf.len() {
                let byte = buf[i];
                if !started {
                    started = true;
                    match byte {
                        b'{' | b'[' => {
                            scalar = false;
                            depth = 1;
                        }
                        b'"' => {
                            scalar = false;
                            in_string = true;
                        }
                        _ => {}
                    }
                    i += 1;
                    continue;
                }
                if in_string {
                    if escaped {
                        escaped = false;
                        i += 1;
                        continue;
                    }
                    // Jump to the next quote or backslash: strings are most of a JSON document.
                    match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                        None => {
                            i = buf.len();
                            continue;
                        }
                        Some(at) => i += at,
                    }
                    if buf[i] == b'\\' {
                        escaped = true;
                    } else {
                        in_string = false;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    i += 1;
                    continue;
                }
                if scalar {
                    if byte.is_ascii_whitespace() || matches!(byte, b',' | b']' | b'}' | b':') {
                        end = Some(i);
                        break;
                    }
                    i += 1;
                    continue;
                }
                if !STRUCTURAL[usize::from(byte)] {
                    // Between tokens of a container (indentation, keys' colons, numbers):
                    // skip to the next quote or bracket in one tight loop.
                    i += buf[i..].iter().position(|b| STRUCTURAL[usize::from(*b)]).unwrap_or(buf.len() - i);
                    continue;
                }
                match byte {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            let take = end.unwrap_or(buf.len());
            if !oversized && let Some(out) = out.as_deref_mut() {
                if out.len() + take > MAX_ITEM_BYTES {
                    oversized = true;
                    out.clear();
                    out.shrink_to_fit();
                } else {
                    out.extend_from_slice(&buf[..take]);
                }
            }
            self.consume(take);
            if end.is_some() {
                break;
            }
        }
        if oversized {
            return Err(DecodeError::Item {
                location: super::ItemLocation { document: 0, item: None, line: Some(self.line), name: None },
                message: format!("value larger than {MAX_ITEM_BYTES} bytes skipped"),
            });
        }
        Ok(())
    }
}
