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

mod api;
mod detect;
mod error;
mod json;
mod parallel;
mod pod;
mod raw;
mod segment;
mod settle;
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
pub(crate) use pod::START_FAILURES;
pub use pod::pod_status_record;
pub(crate) use text::{ALLOCATABLE_BELOW_CAPACITY, NO_ACCELERATOR_LISTED};
pub(crate) use text::{bare, evidence};

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
    /// A paste of several forms ([`segment`]): each region decoded by its reader at the first pull.
    Mixed(Vec<segment::Region>),
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
    /// Yield [`DecodeError::NotEvents`] for the text that is not events.
    report_skipped: bool,
    /// The whole input was text that is not events: say so even without `report_skipped`, so
    /// that a wrong file does not read as an empty one.
    only_skipped: bool,
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
            Ok((_, start)) => match read_text(reader).map(|text| {
                // The skipped blank lines and spaces, back in front, so that line numbers, YAML
                // positions and a first row's columns count them.
                if start.line > 1 || start.column > 1 {
                    format!("{}{}{text}", "\n".repeat(start.line - 1), " ".repeat(start.column - 1))
                } else {
                    text
                }
            }) {
                Ok(text) if text::looks_like_text(&text) => (Format::Text, segmented(text)),
                Ok(text) => {
                    let documents = yaml::YamlDocuments::parse(&text);
                    // A line of prose with a colon is a YAML mapping too (`the pod is stuck
                    // with: 0/4 nodes ...`): YAML only when the text opens as YAML does.
                    if documents.holds_objects() && segment::starts_like_yaml(&text) {
                        (Format::Yaml, Documents::Yaml(documents))
                    } else if !documents.holds_errors()
                        || segment::count(&text) > 1
                        || !segment::starts_like_yaml(&text)
                    {
                        // Scalars (prose, a quoted row, a bare message), YAML among other text,
                        // or text the YAML parser chokes on that does not start like a
                        // Kubernetes object (`Steps to reproduce:` then a `- ` list): each part
                        // to its reader, which reports what it could not read by line range.
                        (Format::Text, segmented(text))
                    } else {
                        (Format::Yaml, Documents::YamlOrText(documents, text))
                    }
                }
                Err(err) => (Format::Yaml, Documents::failed(err)),
            },
            Err(err) => (Format::Empty, Documents::failed(err)),
        };
        Decoder::with(format, documents)
    }

    fn with(format: Format, documents: Documents<R>) -> Self {
        Decoder {
            documents,
            format,
            pending: VecDeque::new(),
            ready: VecDeque::new(),
            document_index: 0,
            now: None,
            report_skipped: false,
            only_skipped: false,
        }
    }
}

/// A text input cut into regions: one text region is read as text, several as a mix.
fn segmented<R: BufRead>(text: String) -> Documents<R> {
    let mut regions = segment::segment(text);
    match regions.as_slice() {
        [only] if only.shape == segment::Shape::Text => Documents::Text(regions.remove(0).text),
        _ => Documents::Mixed(regions),
    }
}

/// Decode the regions of a mixed paste, in order. Objects of other kinds in it are reported as
/// not events, and a Pod manifest among them names the events that name no object.
fn decode_mixed(regions: &[segment::Region], now: DateTime<Utc>) -> Vec<Result<EventRecord, DecodeError>> {
    let mut out = Vec::new();
    let mut manifests = Vec::new();
    for region in regions {
        let text = region.positioned();
        let decoded: Vec<_> = match region.shape {
            segment::Shape::Text => text::decode(&text, now),
            segment::Shape::Json => Decoder::from_str(&text).reference_time(now).collect(),
            segment::Shape::Yaml => {
                let documents = yaml::YamlDocuments::parse(&text);
                if documents.holds_objects() {
                    Decoder::<&[u8]>::with(Format::Yaml, Documents::Yaml(documents)).reference_time(now).collect()
                } else {
                    // Not YAML after all (`status: ok, thanks`): the text readers account for it.
                    text::decode(&text, now)
                }
            }
        };
        let (first_line, last_line) = (region.first_line, region.last_line);
        for item in decoded {
            match item {
                Err(DecodeError::NotAnEvent { location, kind }) => {
                    let name = location.name.as_deref().unwrap_or("unnamed");
                    let what = format!(
                        "a {kind} object ({name}) in {} form",
                        match region.shape {
                            segment::Shape::Json => "JSON",
                            _ => "YAML",
                        }
                    );
                    if kind == "Pod" {
                        manifests.extend(location.name.clone());
                    }
                    out.push(Err(DecodeError::NotEvents { first_line, last_line, what }));
                }
                other => out.push(other),
            }
        }
    }
    manifests.sort_unstable();
    manifests.dedup();
    if let [pod] = manifests.as_slice() {
        text::name_unnamed_pods(&mut out, pod, None);
    }
    out
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

    /// Also yield [`DecodeError::NotEvents`] for each region of a pasted text that is not events
    /// (prose, a `kubectl get pods` table, a manifest), so that every line of the input is in a
    /// record or in a reported region. Default: off (they are not errors; lines that look like
    /// events and were not read are always reported, as [`DecodeError::Unread`], and an input
    /// that is all text and no events is reported whatever this says).
    pub fn report_skipped(mut self, report: bool) -> Self {
        self.report_skipped = report;
        self
    }

    /// Queue what a text reader read from the whole input.
    fn read_whole(&mut self, read: Vec<Result<EventRecord, DecodeError>>) {
        self.only_skipped = read.iter().all(|r| matches!(r, Err(DecodeError::NotEvents { .. })));
        self.ready.extend(read);
    }

    /// Text that may be YAML: read as text when that gives a record, as YAML otherwise.
    fn yaml_or_text(&mut self, yaml: yaml::YamlDocuments, text: String) {
        let read = match segmented::<R>(text) {
            Documents::Mixed(regions) => decode_mixed(&regions, self.now.unwrap_or_else(Utc::now)),
            Documents::Text(text) => text::decode(&text, self.now.unwrap_or_else(Utc::now)),
            _ => Vec::new(),
        };
        if read.iter().any(Result::is_ok) {
            self.format = Format::Text;
            self.read_whole(read);
        } else {
            self.documents = Documents::Yaml(yaml);
        }
    }

    /// The next top-level document or List item, or records decoded ahead.
    fn next_piece(&mut self) -> Option<Result<json::JsonPiece, DecodeError>> {
        if let Documents::YamlOrText(..) = self.documents
            && let Documents::YamlOrText(yaml, text) = std::mem::replace(&mut self.documents, Documents::Done)
        {
            self.yaml_or_text(yaml, text);
            return self.next_piece();
        }
        let next = match &mut self.documents {
            Documents::Json(docs) => docs.next(),
            Documents::Yaml(docs) => docs.next().map(|doc| {
                self.document_index += 1;
                doc.map(|value| json::JsonPiece::Document(value, self.document_index))
            }),
            Documents::Text(text) => {
                let text = std::mem::take(text);
                let read = text::decode(&text, self.now.unwrap_or_else(Utc::now));
                self.read_whole(read);
                None
            }
            Documents::Mixed(regions) => {
                let regions = std::mem::take(regions);
                let read = decode_mixed(&regions, self.now.unwrap_or_else(Utc::now));
                self.read_whole(read);
                None
            }
            // Settled above.
            Documents::YamlOrText(..) => None,
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
                if matches!(ready, Err(DecodeError::NotEvents { .. })) && !self.report_skipped && !self.only_skipped {
                    continue;
                }
                return Some(ready);
            }
            if let Some(item) = self.pending.pop_front() {
                match settle::item(item) {
                    Some(settled) => return Some(settled),
                    None => continue,
                }
            }
            match self.next_piece() {
                Some(Ok(piece)) => match settle::piece(piece, &mut self.pending) {
                    settle::Settled::Record(record) => return Some(Ok(record)),
                    settle::Settled::Queued => {}
                    settle::Settled::Fatal(err) => {
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
