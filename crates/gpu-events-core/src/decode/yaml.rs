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

impl YamlDocuments {
    pub(super) fn parse(text: &str) -> Self {
        let mut documents = VecDeque::new();
        for document in serde_yaml_ng::Deserializer::from_str(text) {
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

    pub(super) fn failed(err: DecodeError) -> Self {
        YamlDocuments { documents: VecDeque::from([Err(err)]) }
    }

    pub(super) fn next(&mut self) -> Option<Result<Value, DecodeError>> {
        self.documents.pop_front()
    }
}

/// serde_yaml_ng appends " at line L column C"; the error type prints the position itself.
fn strip_position(text: &str) -> String {
    match text.find(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text.to_owned(),
    }
}
