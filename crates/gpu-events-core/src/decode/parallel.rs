//! [`Decoder::parallel`]: JSON decoded on worker threads, records still in input order.
//!
//! One thread reads and cuts the input into items (the structural scanner: cheap, memchr over
//! strings); workers turn batches of items into records (serde_json, the note grammars: the
//! expensive part); the iterator puts the batches back in order. Channels are bounded, so memory
//! stays a few batches per thread whatever the input size, and a slow consumer slows the reader.
//! Errors come where the sequential decoder gives them; after a fatal one nothing follows.

use std::collections::{BTreeMap, VecDeque};
use std::io::BufRead;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use super::json::{JsonDocuments, JsonPiece};
use super::raw::{RawDocument, RawItem};
use super::settle::{self, Settled};
use super::{DecodeError, Decoder, Documents};
use crate::EventRecord;

/// Items per batch, and bytes of item text per batch: large enough that the hand-over cost
/// vanishes, small enough that the first records come at once.
const BATCH_ITEMS: usize = 512;
const BATCH_BYTES: usize = 1024 * 1024;

/// One piece of input for a worker (a [`JsonPiece`], kept small).
enum Work {
    Item(RawItem),
    Object(RawDocument),
    Document(serde_json::Value, usize),
    /// Not handed out with `in_place` off; boxed so the others stay small.
    Record(Box<EventRecord>),
    /// The reader's fatal error: the input ends here.
    Fatal(DecodeError),
}

impl From<JsonPiece> for Work {
    fn from(piece: JsonPiece) -> Self {
        match piece {
            JsonPiece::Item(item) => Work::Item(item),
            JsonPiece::Object(object) => Work::Object(object),
            JsonPiece::Document(document, index) => Work::Document(document, index),
            JsonPiece::Record(record) => Work::Record(Box::new(record)),
        }
    }
}

/// What a decoder yields, before the caller's mapping.
type Item = Result<EventRecord, DecodeError>;

/// A batch's results (mapped), in order, and whether decoding ends with it.
struct Done<T> {
    seq: u64,
    results: Vec<T>,
    /// A fatal error ends the input: nothing after this batch is yielded.
    fatal: bool,
    /// The reader's last batch.
    last: bool,
}

/// The iterator of [`Decoder::parallel`]: what the decoder yields.
pub type Parallel<R> = ParallelMap<R, Item, fn(Item) -> Item>;

/// The iterator of [`Decoder::parallel_map`]: what the decoder yields, mapped on the workers.
pub struct ParallelMap<R: BufRead, T, F> {
    inner: Inner<R, T, F>,
}

enum Inner<R: BufRead, T, F> {
    /// Text, YAML, one thread, or a decoder already pulled from: mapped on the calling thread.
    Sequential(Decoder<R>, F),
    Threads(Threads<T>),
}

struct Threads<T> {
    results: Receiver<Done<T>>,
    next_seq: u64,
    waiting: BTreeMap<u64, Done<T>>,
    current: VecDeque<T>,
    finished: bool,
    map: Arc<dyn Fn(Item) -> T + Send + Sync>,
}

impl<R: BufRead + Send + 'static> Decoder<R> {
    /// Decode JSON on `threads` worker threads (plus one reading), yielding exactly what this
    /// decoder yields, in the same order. Worth it for large inputs (a 200 000-event
    /// `kubectl get events -o json` dump); text and YAML inputs, `threads <= 1`, and a decoder
    /// already pulled from decode on the calling thread.
    pub fn parallel(self, threads: usize) -> Parallel<R> {
        self.parallel_map(threads, std::convert::identity)
    }

    /// [`Decoder::parallel`], with each result passed through `map` on the worker that decoded
    /// it: e.g. reduce a record to what the caller keeps (`diagnose::SummaryEntry::of`), so
    /// the record is dropped on the thread that built it. Results come in input order.
    pub fn parallel_map<T, F>(self, threads: usize, map: F) -> ParallelMap<R, T, F>
    where
        T: Send + 'static,
        F: Fn(Item) -> T + Send + Sync + 'static,
    {
        let untouched = self.pending.is_empty() && self.ready.is_empty() && self.document_index == 0;
        match self.documents {
            Documents::Json(docs) if threads > 1 && untouched && !docs.started() => {
                ParallelMap { inner: Inner::Threads(Threads::start(docs, threads, Arc::new(map))) }
            }
            documents => ParallelMap { inner: Inner::Sequential(Decoder { documents, ..self }, map) },
        }
    }
}

impl<T: Send + 'static> Threads<T> {
    fn start<R: BufRead + Send + 'static>(
        mut docs: JsonDocuments<R>,
        threads: usize,
        map: Arc<dyn Fn(Item) -> T + Send + Sync>,
    ) -> Self {
        // The reader hands items over as text; parsing them is the workers' job.
        docs.in_place = false;
        let (work_tx, work_rx) = sync_channel::<(u64, Vec<Work>, bool)>(threads * 2);
        let (done_tx, done_rx) = sync_channel::<Done<T>>(threads * 2);
        std::thread::spawn(move || read(docs, work_tx));
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..threads {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let map = Arc::clone(&map);
            std::thread::spawn(move || work(&work_rx, &done_tx, &*map));
        }
        Threads {
            results: done_rx,
            next_seq: 0,
            waiting: BTreeMap::new(),
            current: VecDeque::new(),
            finished: false,
            map,
        }
    }
}

/// The reader thread: batches of pieces until the input ends or fails.
fn read<R: BufRead>(mut docs: JsonDocuments<R>, work: SyncSender<(u64, Vec<Work>, bool)>) {
    let mut seq = 0;
    let mut batch = Vec::new();
    let mut bytes = 0;
    loop {
        let (piece, end) = match docs.next() {
            Some(Ok(piece)) => (Some(Work::from(piece)), false),
            Some(Err(err)) => (Some(Work::Fatal(err)), true),
            None => (None, true),
        };
        if let Some(piece) = piece {
            bytes += match &piece {
                Work::Item(item) => item.bytes.len(),
                Work::Object(object) => object.bytes.len(),
                _ => 0,
            };
            batch.push(piece);
        }
        if end || batch.len() >= BATCH_ITEMS || bytes >= BATCH_BYTES {
            // The consumer is gone when sending fails: stop reading.
            if work.send((seq, std::mem::take(&mut batch), end)).is_err() || end {
                return;
            }
            seq += 1;
            bytes = 0;
        }
    }
}

/// A worker thread: batches of pieces into records, until the reader or the consumer is gone.
fn work<T>(work: &Mutex<Receiver<(u64, Vec<Work>, bool)>>, done: &SyncSender<Done<T>>, map: &dyn Fn(Item) -> T) {
    loop {
        // A poisoned lock means another worker panicked; this one stops too, and the
        // consumer reports the missing batch.
        let next = match work.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok((seq, batch, last)) = next else { return };
        let (results, fatal) = convert(batch);
        let results = results.into_iter().map(map).collect();
        if done.send(Done { seq, results, fatal, last }).is_err() {
            return;
        }
    }
}

/// What the sequential decoder yields for these pieces: the same settling (`settle`).
fn convert(batch: Vec<Work>) -> (Vec<Result<EventRecord, DecodeError>>, bool) {
    let mut results = Vec::with_capacity(batch.len());
    let mut pending = VecDeque::new();
    for work in batch {
        let piece = match work {
            Work::Fatal(err) => {
                results.push(Err(err));
                return (results, true);
            }
            Work::Record(record) => JsonPiece::Record(*record),
            Work::Item(item) => JsonPiece::Item(item),
            Work::Object(raw) => JsonPiece::Object(raw),
            Work::Document(document, index) => JsonPiece::Document(document, index),
        };
        match settle::piece(piece, &mut pending) {
            Settled::Record(record) => results.push(Ok(record)),
            Settled::Queued => {}
            Settled::Fatal(err) => {
                results.push(Err(err));
                return (results, true);
            }
        }
        results.extend(pending.drain(..).filter_map(settle::item));
    }
    (results, false)
}

impl<T> Iterator for Threads<T> {
    type Item = T;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(result) = self.current.pop_front() {
                return Some(result);
            }
            if self.finished {
                return None;
            }
            if let Some(done) = self.waiting.remove(&self.next_seq) {
                self.next_seq += 1;
                self.finished = done.fatal || done.last;
                self.current.extend(done.results);
                continue;
            }
            match self.results.recv() {
                Ok(done) => {
                    self.waiting.insert(done.seq, done);
                }
                Err(_) => {
                    // Every worker is gone before the last batch came: a thread died.
                    self.finished = true;
                    let err =
                        DecodeError::Io(std::io::Error::other("a decoding thread stopped before the end of the input"));
                    return Some((self.map)(Err(err)));
                }
            }
        }
    }
}

impl<R: BufRead, T, F: Fn(Item) -> T> Iterator for ParallelMap<R, T, F> {
    type Item = T;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Inner::Sequential(decoder, map) => decoder.next().map(&*map),
            Inner::Threads(threads) => threads.next(),
        }
    }
}
