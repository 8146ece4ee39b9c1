//! Format detection from the first bytes of the input.

use std::io::BufRead;

use super::DecodeError;

/// The format of an input, detected from its first non-blank byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Starts with `{` or `[` that opens a JSON object or array: one or more JSON values.
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

/// Whether a `{` or `[` followed by `rest` opens a JSON value of the kind an event input holds:
/// an object opens a key or closes (`"`, `}`), an array opens an object, an array, a string or
/// closes. Anything else (`[root@host dir]# kubectl ...`, `[2023-07-21 06:47:11] Warning ...`,
/// `{{ template }}`) is text that happens to start with a bracket, the segmenter's concern. The
/// same rule as the segmenter's `Shape::Json`. Undecided at the end of the buffer: JSON.
fn opens_json(open: u8, rest: &[u8]) -> bool {
    match rest.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(b'"') => true,
        Some(b'}') => open == b'{',
        Some(b'{' | b'[' | b']') => open == b'[',
        Some(_) => false,
    }
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
                open @ (b'{' | b'[') if opens_json(open, &buf[skip + 1..]) => Format::Json,
                _ => Format::Yaml,
            };
            reader.consume(skip);
            return Ok((format, start));
        }
        reader.consume(skip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(input: &str) -> Format {
        detect(&mut input.as_bytes()).unwrap().0
    }

    #[test]
    fn a_bracket_is_json_only_when_it_opens_an_object_or_an_array_of_them() {
        assert_eq!(format("\n{\"kind\": \"Event\"}"), Format::Json);
        assert_eq!(format("  [ {\"kind\": \"Event\"} ]"), Format::Json);
        assert_eq!(format("[]"), Format::Json);
        assert_eq!(format("{}"), Format::Json);
        assert_eq!(format("[\n  \"a\"\n]"), Format::Json);
        // A shell prompt, a log timestamp and a template start with brackets and are text.
        assert_eq!(format("\n[root@pc2 test]# kubectl get pods -o wide\n"), Format::Yaml);
        assert_eq!(format("[2023-07-21 06:47:11] Warning FailedScheduling\n"), Format::Yaml);
        assert_eq!(format("{{ .Values.gpu }}\n"), Format::Yaml);
        assert_eq!(format("{ not json\n"), Format::Yaml);
    }
}
