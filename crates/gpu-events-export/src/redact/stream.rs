//! Redaction of a byte stream (`gpu-events redact`, `gpu-events explain --redact`): the input is
//! cut into chunks of whole lines (what one read brings, so a piped watch is redacted as it
//! comes), each chunk redacted as a text, every other byte written back unchanged. A chunk that
//! opens a PEM block waits for its `END` line (up to [`PEM_WAIT`] bytes), since that rule spans
//! lines; bytes that are not UTF-8 pass through untouched, the text around them redacted (a
//! secret with such a byte inside goes whole, the byte with it).

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};

use memchr::{memmem, memrchr};

use super::{Counts, Redactor};

/// How far a chunk grows to reach the `END` of a PEM block it opened.
pub const PEM_WAIT: usize = 1024 * 1024;

/// Read buffer of the stream functions.
const READ_BUFFER: usize = 256 * 1024;

/// Cuts a reader into chunks of whole lines.
struct Chunker<R> {
    input: R,
    pending: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Chunker<R> {
    fn new(input: R) -> Self {
        Chunker { input, pending: Vec::new(), done: false }
    }

    /// The next chunk of whole lines (the rest of the input at its end), `None` at the end.
    fn next_chunk(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            if self.done {
                return Ok((!self.pending.is_empty()).then(|| std::mem::take(&mut self.pending)));
            }
            let read = match self.input.fill_buf() {
                Ok(buf) => {
                    self.pending.extend_from_slice(buf);
                    buf.len()
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            self.input.consume(read);
            if read == 0 {
                self.done = true;
                continue;
            }
            if let Some(cut) = cut(&self.pending) {
                let rest = self.pending.split_off(cut);
                return Ok(Some(std::mem::replace(&mut self.pending, rest)));
            }
        }
    }
}

/// Where to end a chunk: after its last line break, unless a PEM block is still open before it
/// (and the chunk is under [`PEM_WAIT`]); `None` to read more first.
fn cut(pending: &[u8]) -> Option<usize> {
    let cut = memrchr(b'\n', pending)? + 1;
    let head = &pending[..cut];
    if let Some(begin) = memmem::rfind(head, b"-----BEGIN")
        && memmem::find(&head[begin..], b"-----END").is_none()
        && pending.len() < PEM_WAIT
    {
        return None;
    }
    Some(cut)
}

/// The character that stands for a byte that is not UTF-8 (0x80 to 0xFF) while a text is
/// redacted: U+100080 to U+1000FF, private use.
fn stand_in(byte: u8) -> char {
    char::from_u32(0x10_0000 + u32::from(byte)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The byte a [`stand_in`] character stands for.
fn stood_for(c: char) -> Option<u8> {
    u8::try_from(u32::from(c).checked_sub(0x10_0000)?).ok().filter(|byte| *byte >= 0x80)
}

impl Redactor {
    /// Redact bytes: the UTF-8 text in them as [`Redactor::redact_text`], any other byte as is.
    pub fn redact_bytes<'t>(&self, bytes: &'t [u8], counts: &mut Counts) -> Cow<'t, [u8]> {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return match self.redact_text(text, counts) {
                Cow::Borrowed(_) => Cow::Borrowed(bytes),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            };
        }
        // Each byte that is not UTF-8 stands in the text as a private-use character (U+100000
        // plus the byte), so a secret with a stray byte in it is one value to the rules (a
        // `token=abc\xfeDEF` loses all of `abc\xfeDEF`); those left are written back as the
        // bytes they stand for. A text that already holds such characters is redacted piece by
        // piece instead, around the bytes.
        if memmem::find(bytes, &[0xF4, 0x80, 0x82]).is_none() && memmem::find(bytes, &[0xF4, 0x80, 0x83]).is_none() {
            let mut text = String::with_capacity(bytes.len() + 8);
            for piece in bytes.utf8_chunks() {
                text.push_str(piece.valid());
                text.extend(piece.invalid().iter().map(|&b| stand_in(b)));
            }
            let redacted = self.redact_text(&text, counts);
            let Cow::Owned(redacted) = redacted else { return Cow::Borrowed(bytes) };
            let mut out = Vec::with_capacity(redacted.len());
            for c in redacted.chars() {
                match stood_for(c) {
                    Some(b) => out.push(b),
                    None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                }
            }
            return Cow::Owned(out);
        }
        let mut out = Vec::with_capacity(bytes.len());
        let mut changed = false;
        for piece in bytes.utf8_chunks() {
            let text = self.redact_text(piece.valid(), counts);
            changed |= matches!(text, Cow::Owned(_));
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(piece.invalid());
        }
        if changed { Cow::Owned(out) } else { Cow::Borrowed(bytes) }
    }

    /// Copy `input` to `output` with secrets replaced, chunk by chunk (see the module docs);
    /// `output` is flushed after each chunk, so a piped stream is redacted as it comes. Returns
    /// the replacements made.
    ///
    /// # Errors
    ///
    /// Reading or writing failed.
    pub fn redact_stream(&self, input: impl Read, mut output: impl Write) -> io::Result<Counts> {
        let mut counts = Counts::default();
        let mut chunks = Chunker::new(BufReader::with_capacity(READ_BUFFER, input));
        while let Some(chunk) = chunks.next_chunk()? {
            output.write_all(&self.redact_bytes(&chunk, &mut counts))?;
            output.flush()?;
        }
        Ok(counts)
    }
}

/// A reader of another reader's bytes with secrets replaced, for a decoder to read from
/// (`gpu-events explain --redact`). [`RedactingReader::spawn`] redacts on a thread of its own,
/// ahead of the reader, so decoding and redaction overlap.
pub struct RedactingReader {
    source: Source,
    chunk: Vec<u8>,
    at: usize,
    counts: Arc<Mutex<Counts>>,
}

enum Source {
    Inline(Arc<Redactor>, Chunker<Box<dyn BufRead + Send>>),
    Thread(Receiver<io::Result<Vec<u8>>>),
    Done,
}

/// Redacted chunks a thread may hold ahead of the reader.
const AHEAD: usize = 4;

impl RedactingReader {
    /// Redact `input` as it is read, on the reading thread.
    pub fn new(redactor: Arc<Redactor>, input: impl Read + Send + 'static) -> Self {
        let input: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(READ_BUFFER, input));
        RedactingReader {
            source: Source::Inline(redactor, Chunker::new(input)),
            chunk: Vec::new(),
            at: 0,
            counts: Arc::default(),
        }
    }

    /// Redact `input` on a thread of its own, a few chunks ahead of the reader.
    pub fn spawn(redactor: Arc<Redactor>, input: impl Read + Send + 'static) -> Self {
        let (sender, receiver) = sync_channel(AHEAD);
        let counts: Arc<Mutex<Counts>> = Arc::default();
        let shared = Arc::clone(&counts);
        std::thread::spawn(move || {
            let mut chunks = Chunker::new(BufReader::with_capacity(READ_BUFFER, input));
            loop {
                let next = match chunks.next_chunk() {
                    Ok(Some(chunk)) => {
                        let mut made = Counts::default();
                        let redacted = redacted(&redactor, chunk, &mut made);
                        if let Ok(mut counts) = shared.lock() {
                            counts.add(&made);
                        }
                        Ok(redacted)
                    }
                    Ok(None) => return,
                    Err(err) => Err(err),
                };
                let failed = next.is_err();
                // The reader is gone when sending fails: stop.
                if sender.send(next).is_err() || failed {
                    return;
                }
            }
        });
        RedactingReader { source: Source::Thread(receiver), chunk: Vec::new(), at: 0, counts }
    }

    /// The replacements made so far, shared with the redacting thread (read it once the reader is
    /// drained).
    pub fn counts(&self) -> Arc<Mutex<Counts>> {
        Arc::clone(&self.counts)
    }

    fn refill(&mut self) -> io::Result<()> {
        let next = match &mut self.source {
            Source::Inline(redactor, chunks) => match chunks.next_chunk()? {
                Some(chunk) => {
                    let mut made = Counts::default();
                    let redacted = redacted(redactor, chunk, &mut made);
                    if let Ok(mut counts) = self.counts.lock() {
                        counts.add(&made);
                    }
                    Some(redacted)
                }
                None => None,
            },
            Source::Thread(receiver) => match receiver.recv() {
                Ok(chunk) => Some(chunk?),
                Err(_) => None,
            },
            Source::Done => None,
        };
        match next {
            Some(chunk) => self.chunk = chunk,
            None => {
                self.source = Source::Done;
                self.chunk.clear();
            }
        }
        self.at = 0;
        Ok(())
    }
}

/// A chunk redacted: itself (no copy) when nothing in it changed.
fn redacted(redactor: &Redactor, chunk: Vec<u8>, counts: &mut Counts) -> Vec<u8> {
    match redactor.redact_bytes(&chunk, counts) {
        Cow::Borrowed(_) => chunk,
        Cow::Owned(redacted) => redacted,
    }
}

impl Read for RedactingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if matches!(self.source, Source::Done) {
                return Ok(0);
            }
            self.refill()?;
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RedactionConfig;

    /// A reader that hands out a few bytes at a time (a slow pipe).
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    const TEXT: &str = "a 10.0.0.1\nkey: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Qk\nMIIEowIBAAKCAQEAx4Qk\n-----END RSA PRIVATE KEY-----\nGPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead token=abc\r\nlast line without a break eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.";

    #[test]
    fn bytes_that_are_not_utf8_stay_unless_inside_a_secret() {
        let redactor = Redactor::new(&RedactionConfig::default()).unwrap();
        let mut counts = Counts::default();
        let input = b"token=abc\x7f\xfeDEF123 password=S3cr3t!\xc3( GPU-8a3f2c1d \xff\xfe at 10.0.0.1\x80\n\x00binary AKIAZ7QK3MNB4XRT2PLW\n";
        let out = redactor.redact_bytes(input, &mut counts);
        assert_eq!(
            out.as_ref(),
            b"token=<secret> password=<password>( GPU-8a3f2c1d \xff\xfe at <ipv4>\x80\n\x00binary <aws-access-key-id>\n"
        );
        assert_eq!(
            redactor.summary(&counts),
            "redacted 4: aws-access-key-id 1, key-value-password 1, key-value-secret 1, ipv4 1"
        );
        // Nothing to redact: the bytes back, not a copy.
        let clean = b"GPU-8a3f2c1d \xff\xfe nvidia.com/gpu\n";
        assert!(matches!(redactor.redact_bytes(clean, &mut counts), Cow::Borrowed(_)));
        // A text that holds the stand-in characters itself: redacted around the bytes.
        let odd =
            "token=abc\u{1000fe}x \u{100080}".as_bytes().iter().copied().chain(*b"\xff 10.0.0.1").collect::<Vec<u8>>();
        let out = redactor.redact_bytes(&odd, &mut counts);
        assert_eq!(out.as_ref(), "token=<secret> \u{100080}".bytes().chain(*b"\xff <ipv4>").collect::<Vec<u8>>());
    }

    #[test]
    fn a_stream_in_small_pieces_is_redacted_as_the_whole_text() {
        let redactor = Arc::new(Redactor::new(&RedactionConfig::default()).unwrap());
        let whole = redactor.redact_str(TEXT).text.into_owned();
        assert_eq!(
            whole,
            "a <ipv4>\nkey: <pem-private-key>\nGPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead token=<secret>\r\nlast line without a break <jwt>"
        );
        for piece in [1, 3, 7, 64, 100_000] {
            let mut out = Vec::new();
            let counts = redactor.redact_stream(Trickle(TEXT.as_bytes(), piece), &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "pieces of {piece}");
            assert_eq!(redactor.summary(&counts), "redacted 4: pem-private-key 1, jwt 1, key-value-secret 1, ipv4 1");
            for reader in [
                RedactingReader::new(Arc::clone(&redactor), Trickle(TEXT.as_bytes(), piece)),
                RedactingReader::spawn(Arc::clone(&redactor), Trickle(TEXT.as_bytes(), piece)),
            ] {
                let counts = reader.counts();
                let mut read = String::new();
                let mut reader = reader;
                reader.read_to_string(&mut read).unwrap();
                assert_eq!(read, whole, "reader, pieces of {piece}");
                assert_eq!(counts.lock().unwrap().total(), 4);
            }
        }
    }

    #[test]
    fn an_unclosed_pem_block_waits_no_longer_than_pem_wait() {
        let redactor = Redactor::new(&RedactionConfig::default()).unwrap();
        let mut text = String::from("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n");
        while text.len() < PEM_WAIT + 10_000 {
            text.push_str("plain line of an event, nothing to hide here\n");
        }
        let mut out = Vec::new();
        redactor.redact_stream(text.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("<pem-private-key>\nplain line"), "{}", &out[..80]);
        assert_eq!(out.len(), text.len() - text.find("\nplain").unwrap() + "<pem-private-key>".len());
    }
}
