//! Decoding event text into [`EventRecord`]s, detected without flags:
//!
//! * JSON or YAML: one Event, an `EventList` or `List`, a top-level array, or a stream of them
//!   (concatenated JSON values, watch envelopes `{type, object}`, multi-document YAML), from
//!   `core/v1` or `events.k8s.io/v1`; and JSON Lines of records (`gpu-events explain -o json`).
//!   A Pod object (`kubectl get pod -o yaml`, or its `status:` alone) gives one record flagged
//!   `fromStatus` when its status says something is wrong (an admission or eviction reason, a
//!   container waiting or killed for memory).
//! * Text: the Events section of `kubectl describe`, `kubectl get events` tables, klog
//!   `"Event occurred"` lines, e2e event dumps. Relative ages are resolved against
//!   [`Decoder::reference_time`] (default: now) and flagged `approximateTime`.
//!
//! Speed: a plain Event is read straight into the fields the record keeps, in place from the
//! read buffer (no `serde_json::Value`, no k8s-openapi copy); anything else takes the general
//! path through the k8s-openapi types, with the same result. [`Decoder::parallel`] and
//! [`Decoder::parallel_map`] decode JSON on worker threads, in input order. Figures and how to
//! reproduce them: `BENCHMARKS.md`.
//!
//! [`Decoder`] is an iterator of `Result<EventRecord, DecodeError>`. A bad item (wrong field type,
//! not an Event) yields an [`DecodeError::Item`] and decoding goes on; malformed JSON or YAML
//! yields one error with line and column and ends the iteration. Nothing panics.
//!
//! ```
//! use gpu_events_core::decode::Decoder;
//!
//! let json = r#"{"apiVersion":"v1","kind":"Event","reason":"FailedScheduling","type":"Warning",
//!   "involvedObject":{"kind":"Pod","namespace":"ml","name":"llama-0"},
//!   "source":{"component":"default-scheduler"},
//!   "message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu."}"#;
//! let records: Vec<_> = Decoder::from_str(json).collect::<Result<_, _>>()?;
//! assert_eq!(records[0].reason, "FailedScheduling");
//! assert_eq!(records[0].regarding.name.as_deref(), Some("llama-0"));
//! # Ok::<(), gpu_events_core::decode::DecodeError>(())
//! ```

mod detect;
mod error;
mod json;
mod parallel;
mod pod;
mod text;
mod value;
mod wire;
mod yaml;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};

use chrono::{DateTime, Utc};

pub use detect::Format;
pub use error::{DecodeError, ItemLocation};
pub use parallel::{Parallel, ParallelMap};
pub use pod::pod_status_record;

use crate::EventRecord;

/// The read buffer of [`Decoder::from_reader`]: an Event that lies whole in the buffer is parsed
/// in place, one cut by its end is copied first, so the buffer is many Events long.
pub const READ_BUFFER: usize = 256 * 1024;

/// Where the next top-level documents come from.
enum Documents<R: BufRead> {
    Json(json::JsonDocuments<R>),
    Yaml(yaml::YamlDocuments),
    /// A text input, decoded at the first pull (when the reference time is known).
    Text(String),
    /// An input that is not YAML objects (a syntax error, or prose that reads as a YAML string):
    /// at the first pull, the text readers get it, and the YAML error stands only if they find
    /// no event in it either (a paste of prose around event rows is not malformed YAML).
    YamlOrText(yaml::YamlDocuments, String),
    Done,
}

/// An iterator of records (or errors) over one input. See the [module docs](self).
pub struct Decoder<R: BufRead> {
    documents: Documents<R>,
    format: Format,
    /// Items of the current document not converted yet.
    pending: VecDeque<value::PendingItem>,
    /// Records decoded ahead (text formats).
    ready: VecDeque<Result<EventRecord, DecodeError>>,
    document_index: usize,
    now: Option<DateTime<Utc>>,
}

impl<'a> Decoder<&'a [u8]> {
    /// Decode a string.
    #[allow(clippy::should_implement_trait)] // Not `FromStr`: it returns an iterator, not one value.
    pub fn from_str(input: &'a str) -> Self {
        Decoder::from_slice(input.as_bytes())
    }

    /// Decode bytes.
    pub fn from_slice(input: &'a [u8]) -> Self {
        Decoder::new(input)
    }
}

impl<R: Read> Decoder<BufReader<R>> {
    /// Decode from a reader (buffered internally, [`READ_BUFFER`] bytes). JSON is read value by
    /// value; YAML and text are read whole, because their documents are parsed together.
    pub fn from_reader(reader: R) -> Self {
        Decoder::new(BufReader::with_capacity(READ_BUFFER, reader))
    }
}

impl<R: BufRead> Decoder<R> {
    fn new(mut reader: R) -> Self {
        let (format, documents) = match detect::detect(&mut reader) {
            Ok((Format::Json, start)) => {
                (Format::Json, Documents::Json(json::JsonDocuments::new(reader, start.line, start.column)))
            }
            Ok((Format::Empty, _)) => (Format::Empty, Documents::Done),
            Ok((_, start)) => match read_text(reader) {
                Ok(text) if text::looks_like_text(&text) => (Format::Text, Documents::Text(text)),
                Ok(text) => {
                    // The skipped blank lines and spaces, back in front, so YAML positions count them.
                    let text = if start.line > 1 || start.column > 1 {
                        format!("{}{}{text}", "\n".repeat(start.line - 1), " ".repeat(start.column - 1))
                    } else {
                        text
                    };
                    let documents = yaml::YamlDocuments::parse(&text);
                    if documents.holds_objects() {
                        (Format::Yaml, Documents::Yaml(documents))
                    } else {
                        (Format::Yaml, Documents::YamlOrText(documents, text))
                    }
                }
                Err(err) => (Format::Yaml, Documents::failed(err)),
            },
            Err(err) => (Format::Empty, Documents::failed(err)),
        };
        Decoder { documents, format, pending: VecDeque::new(), ready: VecDeque::new(), document_index: 0, now: None }
    }
}

/// The rest of the input as UTF-8 text.
fn read_text(mut reader: impl Read) -> Result<String, DecodeError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(err) => Err(DecodeError::NotUtf8(err.utf8_error())),
    }
}

impl<R: BufRead> Documents<R> {
    /// A source that yields one fatal error, then ends.
    fn failed(err: DecodeError) -> Self {
        Documents::Yaml(yaml::YamlDocuments::failed(err))
    }
}

impl<R: BufRead> Decoder<R> {
    /// The detected input format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The time relative ages (`4m43s`, `LAST SEEN`) of text formats are counted back from;
    /// default: the current time when decoding starts.
    pub fn reference_time(mut self, now: DateTime<Utc>) -> Self {
        self.now = Some(now);
        self
    }

    /// The next top-level document or List item, or records decoded ahead.
    fn next_piece(&mut self) -> Option<Result<json::JsonPiece, DecodeError>> {
        let next = match &mut self.documents {
            Documents::Json(docs) => docs.next(),
            Documents::Yaml(docs) => docs.next().map(|doc| {
                self.document_index += 1;
                doc.map(|value| json::JsonPiece::Document(value, self.document_index))
            }),
            Documents::Text(text) => {
                let text = std::mem::take(text);
                self.ready.extend(text::decode(&text, self.now.unwrap_or_else(Utc::now)));
                None
            }
            Documents::YamlOrText(..) => {
                let Documents::YamlOrText(yaml, text) = std::mem::replace(&mut self.documents, Documents::Done) else {
                    unreachable!("matched above")
                };
                let read = text::decode(&text, self.now.unwrap_or_else(Utc::now));
                if read.iter().any(Result::is_ok) {
                    self.format = Format::Text;
                    self.ready.extend(read);
                } else {
                    self.documents = Documents::Yaml(yaml);
                }
                return self.next_piece();
            }
            Documents::Done => None,
        };
        if matches!(next, None | Some(Err(_))) {
            self.documents = Documents::Done;
        }
        next
    }
}

impl<R: BufRead> Iterator for Decoder<R> {
    type Item = Result<EventRecord, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(ready) = self.ready.pop_front() {
                return Some(ready);
            }
            if let Some(item) = self.pending.pop_front() {
                match item.into_record() {
                    Ok(Some(record)) => return Some(Ok(record)),
                    Ok(None) => continue,
                    Err(err) => return Some(Err(err)),
                }
            }
            match self.next_piece() {
                Some(Ok(json::JsonPiece::Document(document, index))) => {
                    value::expand(document, index, &mut self.pending)
                }
                Some(Ok(json::JsonPiece::Item(item))) => self.pending.push_back(value::PendingItem::raw(item)),
                Some(Ok(json::JsonPiece::Record(record))) => return Some(Ok(record)),
                Some(Ok(json::JsonPiece::Object(raw))) => match value::document(raw, &mut self.pending) {
                    Ok(Some(record)) => return Some(Ok(record)),
                    Ok(None) => {}
                    // Malformed JSON ends the input, as it does between documents.
                    Err(err) => {
                        self.documents = Documents::Done;
                        return Some(Err(err));
                    }
                },
                Some(Err(err)) => return Some(Err(err)),
                None if self.ready.is_empty() => return None,
                None => {}
            }
        }
    }
}
