//! Decoding event text into [`EventRecord`]s: one Event, an `EventList` or `List`, a top-level
//! array, or a stream of them (concatenated JSON values, watch envelopes `{type, object}`,
//! multi-document YAML), from either `core/v1` or `events.k8s.io/v1`, detected without flags.
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
mod value;
mod yaml;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};

pub use detect::Format;
pub use error::{DecodeError, ItemLocation};

use crate::EventRecord;

/// Where the next top-level documents come from.
enum Documents<R: Read> {
    Json(json::JsonDocuments<R>),
    Yaml(yaml::YamlDocuments),
    Done,
}

/// An iterator of records (or errors) over one input. See the [module docs](self).
pub struct Decoder<R: Read> {
    documents: Documents<R>,
    format: Format,
    /// Items of the current document not converted yet.
    pending: VecDeque<value::PendingItem>,
    document_index: usize,
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
    /// Decode from a reader (buffered internally). JSON is read value by value; YAML is read
    /// whole, because its documents are parsed together.
    pub fn from_reader(reader: R) -> Self {
        Decoder::new(BufReader::new(reader))
    }
}

impl<R: BufRead> Decoder<R> {
    fn new(mut reader: R) -> Self {
        let (format, documents) = match detect::detect(&mut reader) {
            Ok(Format::Json) => (
                Format::Json,
                Documents::Json(json::JsonDocuments::new(reader)),
            ),
            Ok(Format::Yaml) => match yaml::YamlDocuments::read(reader) {
                Ok(docs) => (Format::Yaml, Documents::Yaml(docs)),
                Err(err) => (Format::Yaml, Documents::failed(err)),
            },
            Ok(Format::Empty) => (Format::Empty, Documents::Done),
            Err(err) => (Format::Empty, Documents::failed(err)),
        };
        Decoder {
            documents,
            format,
            pending: VecDeque::new(),
            document_index: 0,
        }
    }
}

impl<R: Read> Documents<R> {
    /// A source that yields one fatal error, then ends.
    fn failed(err: DecodeError) -> Self {
        Documents::Yaml(yaml::YamlDocuments::failed(err))
    }

    fn next(&mut self) -> Option<Result<serde_json::Value, DecodeError>> {
        let next = match self {
            Documents::Json(docs) => docs.next(),
            Documents::Yaml(docs) => docs.next(),
            Documents::Done => None,
        };
        if matches!(next, None | Some(Err(_))) {
            *self = Documents::Done;
        }
        next
    }
}

impl<R: Read> Decoder<R> {
    /// The detected input format.
    pub fn format(&self) -> Format {
        self.format
    }
}

impl<R: Read> Iterator for Decoder<R> {
    type Item = Result<EventRecord, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                match item.into_record() {
                    Ok(Some(record)) => return Some(Ok(record)),
                    Ok(None) => continue,
                    Err(err) => return Some(Err(err)),
                }
            }
            let document = match self.documents.next()? {
                Ok(document) => document,
                Err(err) => return Some(Err(err)),
            };
            self.document_index += 1;
            value::expand(document, self.document_index, &mut self.pending);
        }
    }
}
