//! Format detection from the first bytes of the input.

use std::io::BufRead;

use super::DecodeError;

/// The format of an input, detected from its first non-blank byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Starts with `{` or `[`: one or more JSON values.
    Json,
    /// Anything else: one or more YAML documents.
    Yaml,
    /// Text people paste: `kubectl describe` Events sections, `kubectl get events` tables, klog
    /// `"Event occurred"` lines (told apart from YAML by their table headers and rows).
    Text,
    /// Nothing but white space (and a byte-order mark).
    Empty,
}

/// Skip a UTF-8 byte-order mark and leading white space, and tell the format from the next byte.
/// Consumes only what it skips.
pub(super) fn detect(reader: &mut impl BufRead) -> Result<Format, DecodeError> {
    let mut first_chunk = true;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(Format::Empty);
        }
        let mut skip = 0;
        if first_chunk && buf.starts_with(b"\xEF\xBB\xBF") {
            skip = 3;
        }
        first_chunk = false;
        while skip < buf.len() && buf[skip].is_ascii_whitespace() {
            skip += 1;
        }
        if skip < buf.len() {
            let format = match buf[skip] {
                b'{' | b'[' => Format::Json,
                _ => Format::Yaml,
            };
            reader.consume(skip);
            return Ok(format);
        }
        reader.consume(skip);
    }
}
