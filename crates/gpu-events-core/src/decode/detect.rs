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

/// Where the first non-blank byte is: its 1-based line and column (the BOM not counted), so
/// positions in errors count the blank lines and spaces [`detect`] skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Start {
    pub(super) line: usize,
    pub(super) column: usize,
}

/// Skip a UTF-8 byte-order mark and leading white space, and tell the format from the next byte.
/// Consumes only what it skips.
pub(super) fn detect(reader: &mut impl BufRead) -> Result<(Format, Start), DecodeError> {
    let mut first_chunk = true;
    let mut start = Start { line: 1, column: 1 };
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((Format::Empty, start));
        }
        let mut skip = 0;
        if first_chunk && buf.starts_with(b"\xEF\xBB\xBF") {
            skip = 3;
        }
        first_chunk = false;
        while skip < buf.len() && buf[skip].is_ascii_whitespace() {
            if buf[skip] == b'\n' {
                start.line += 1;
                start.column = 1;
            } else {
                start.column += 1;
            }
            skip += 1;
        }
        if skip < buf.len() {
            let format = match buf[skip] {
                b'{' | b'[' => Format::Json,
                _ => Format::Yaml,
            };
            reader.consume(skip);
            return Ok((format, start));
        }
        reader.consume(skip);
    }
}
