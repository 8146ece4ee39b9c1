//! JSON input: one or more concatenated top-level values, read one at a time.

use std::io::Read;

use serde::Deserialize;
use serde_json::Value;

use super::DecodeError;

/// Top-level JSON values of a stream (`kubectl get events -w -o json` prints them back to back).
pub(super) struct JsonDocuments<R: Read> {
    stream: serde_json::Deserializer<serde_json::de::IoRead<R>>,
}

impl<R: Read> JsonDocuments<R> {
    pub(super) fn new(reader: R) -> Self {
        JsonDocuments {
            stream: serde_json::Deserializer::from_reader(reader),
        }
    }

    pub(super) fn next(&mut self) -> Option<Result<Value, DecodeError>> {
        // `end()` succeeds only at the end of input (trailing white space allowed).
        if self.stream.end().is_ok() {
            return None;
        }
        Some(Value::deserialize(&mut self.stream).map_err(|err| {
            if err.is_io() {
                DecodeError::Io(err.into())
            } else {
                DecodeError::Json {
                    line: err.line(),
                    // serde_json says column 0 at the start of a line (end of input after a newline).
                    column: err.column().max(1),
                    message: strip_position(&err),
                }
            }
        }))
    }
}

/// serde_json appends " at line L column C"; the error type prints the position itself.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}
