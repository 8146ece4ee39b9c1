//! YAML input: one or more documents separated by `---`.
//!
//! serde_yaml_ng parses all documents of a string together, so the input is read whole.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

use super::DecodeError;

/// The documents of a YAML input, converted to JSON values, or the error that stopped them.
pub(super) struct YamlDocuments {
    documents: VecDeque<Result<Value, DecodeError>>,
}

/// serde_yaml_ng's recursion limit: a document nested deeper fails to deserialize.
const MAX_FLOW_DEPTH: usize = 128;

impl YamlDocuments {
    pub(super) fn parse(text: &str) -> Self {
        // libyaml scans a document whole before serde sees it, in time quadratic in the depth of
        // its flow collections (100 000 `[` take minutes): refuse such a document up front, with
        // the error the recursion limit would give, and keep the documents before it.
        if let Some((at, line, column)) = too_deep(text) {
            let start = text[..at].rfind("\n---").map_or(0, |i| i + 1);
            let mut documents = YamlDocuments::parse(&text[..start]).documents;
            if !documents.back().is_some_and(Result::is_err) {
                documents.push_back(Err(DecodeError::Yaml {
                    line: Some(line),
                    column: Some(column),
                    message: format!("recursion limit exceeded (flow collections nested deeper than {MAX_FLOW_DEPTH})"),
                }));
            }
            return YamlDocuments { documents };
        }
        let text = without_elisions(text);
        let mut documents = VecDeque::new();
        for document in serde_yaml_ng::Deserializer::from_str(&text) {
            match Value::deserialize(document) {
                // An empty document (a trailing `---`) holds nothing.
                Ok(Value::Null) => {}
                Ok(value) => documents.push_back(Ok(value)),
                Err(err) => {
                    let location = err.location();
                    documents.push_back(Err(DecodeError::Yaml {
                        line: location.as_ref().map(|l| l.line()),
                        column: location.as_ref().map(|l| l.column()),
                        message: strip_position(&err.to_string()),
                    }));
                    break;
                }
            }
        }
        YamlDocuments { documents }
    }

    /// Whether the input read as YAML holds objects: no syntax error, no document that is a
    /// bare scalar (prose reads as one long YAML string), and no mapping whose keys are all
    /// capitalised (a `kubectl describe` block, `Status:`/`Message:`, reads as YAML too; API
    /// objects' keys are camelCase).
    pub(super) fn holds_objects(&self) -> bool {
        self.documents.iter().all(|d| match d {
            Ok(Value::Object(map)) => map.keys().any(|k| k.starts_with(|c: char| !c.is_ascii_uppercase())),
            Ok(Value::Array(_)) => true,
            _ => false,
        })
    }

    /// Whether a document did not parse (a syntax error, not a document of another shape).
    pub(super) fn holds_errors(&self) -> bool {
        self.documents.iter().any(Result::is_err)
    }

    pub(super) fn failed(err: DecodeError) -> Self {
        YamlDocuments { documents: VecDeque::from([Err(err)]) }
    }

    pub(super) fn next(&mut self) -> Option<Result<Value, DecodeError>> {
        self.documents.pop_front()
    }
}

/// Where flow collections (`[`, `{`) first nest deeper than [`MAX_FLOW_DEPTH`]: byte offset,
/// 1-based line and column. Quoted scalars and comments are skipped; an unbalanced bracket in a
/// plain scalar counts, which only matters past 128 of them.
fn too_deep(text: &str) -> Option<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    // Most inputs have no flow collection at all.
    memchr::memchr2(b'[', b'{', bytes)?;
    let (mut depth, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        match (quote, byte) {
            (_, b'\n') => {
                line += 1;
                line_start = i + 1;
            }
            (Some(b'"'), b'\\') => i += 1,
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'')
                if i == 0 || matches!(bytes[i - 1], b' ' | b'[' | b'{' | b',' | b':' | b'\t' | b'\n') =>
            {
                quote = Some(byte);
            }
            (None, b'#') if i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                continue;
            }
            (None, b'[' | b'{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some((i, line, text[line_start..i].chars().count() + 1));
                }
            }
            (None, b']' | b'}') => depth = depth.saturating_sub(1),
            (None, _) => {}
        }
        i += 1;
    }
    None
}

/// serde_yaml_ng appends " at line L column C"; the error type prints the position itself.
fn strip_position(text: &str) -> String {
    match text.find(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text.to_owned(),
    }
}

/// Whether a line is a poster's elision inside a manifest (`  .....`, `    …`): lines left out,
/// not YAML. A `...` at column 0 is YAML's document end marker and stays.
fn is_elision(line: &str) -> bool {
    let trimmed = line.trim();
    let dots = trimmed.len() >= 3 && trimmed.bytes().all(|b| b == b'.');
    (dots && line != "..." && line.trim_end() != "...") || trimmed == "…" || trimmed == "[...]"
}

/// The text with each elision line blanked (so positions in errors stay the input's).
fn without_elisions(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.lines().any(is_elision) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if is_elision(body) {
            out.push_str(&line[body.len()..]);
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out)
}
