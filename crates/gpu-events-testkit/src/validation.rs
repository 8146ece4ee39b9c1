//! Field errors and name checks, with kube-apiserver's messages (`k8s.io/apimachinery/pkg/util/validation`).

use serde_json::{Map, Value, json};

/// The type of a field error, as `field.ErrorType` in apimachinery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    Required,
    Invalid,
    Forbidden,
    TooLong,
    NotSupported,
}

impl ErrorKind {
    fn cause_reason(self) -> &'static str {
        match self {
            ErrorKind::Required => "FieldValueRequired",
            ErrorKind::Invalid => "FieldValueInvalid",
            ErrorKind::Forbidden => "FieldValueForbidden",
            ErrorKind::TooLong => "FieldValueTooLong",
            ErrorKind::NotSupported => "FieldValueNotSupported",
        }
    }

    fn text(self) -> &'static str {
        match self {
            ErrorKind::Required => "Required value",
            ErrorKind::Invalid => "Invalid value",
            ErrorKind::Forbidden => "Forbidden",
            ErrorKind::TooLong => "Too long",
            ErrorKind::NotSupported => "Unsupported value",
        }
    }
}

/// One validation failure of one field.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FieldError {
    pub kind: ErrorKind,
    pub field: String,
    /// The bad value as the message shows it (JSON, as Go's `field.Error` prints it).
    pub value: Option<String>,
    pub detail: String,
}

impl FieldError {
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { kind: ErrorKind::Required, field: field.into(), value: None, detail: detail.into() }
    }

    pub fn invalid(field: impl Into<String>, value: impl Into<Value>, detail: impl Into<String>) -> Self {
        let shown = serde_json::to_string(&value.into()).unwrap_or_default();
        Self::invalid_shown(field, shown, detail)
    }

    /// An invalid value shown as given (e.g. a Go struct printed with its fields in Go's order).
    pub fn invalid_shown(field: impl Into<String>, shown: String, detail: impl Into<String>) -> Self {
        FieldError { kind: ErrorKind::Invalid, field: field.into(), value: Some(shown), detail: detail.into() }
    }

    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { kind: ErrorKind::Forbidden, field: field.into(), value: None, detail: detail.into() }
    }

    /// `field.NotSupported`: `Unsupported value: "x": supported values: "a", "b"`.
    pub fn not_supported(field: impl Into<String>, value: &str, supported: &[&str]) -> Self {
        let quoted: Vec<String> = supported.iter().map(|v| format!("{v:?}")).collect();
        FieldError {
            kind: ErrorKind::NotSupported,
            field: field.into(),
            value: Some(format!("{value:?}")),
            detail: format!("supported values: {}", quoted.join(", ")),
        }
    }

    pub fn too_long(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { kind: ErrorKind::TooLong, field: field.into(), value: None, detail: detail.into() }
    }

    /// `ErrorBody()`: `Invalid value: "x": detail`.
    pub fn body(&self) -> String {
        let mut s = match (&self.kind, &self.value) {
            (ErrorKind::Invalid | ErrorKind::NotSupported, Some(v)) => format!("{}: {v}", self.kind.text()),
            _ => self.kind.text().to_string(),
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// `Error()`: `field: Invalid value: "x": detail`.
    pub fn message(&self) -> String {
        format!("{}: {}", self.field, self.body())
    }

    /// The `StatusCause` of this error.
    pub fn cause(&self) -> Value {
        json!({"reason": self.kind.cause_reason(), "message": self.body(), "field": self.field})
    }
}

/// Formats an error list as `ErrorList.ToAggregate().Error()`: one message alone, several in brackets.
pub(crate) fn aggregate(errors: &[FieldError]) -> String {
    let msgs: Vec<String> = errors.iter().map(FieldError::message).collect();
    if msgs.len() == 1 { msgs[0].clone() } else { format!("[{}]", msgs.join(", ")) }
}

const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

fn max_len(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn is_lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
}

/// `IsDNS1123Subdomain`: at most 253 bytes of lower-case labels separated by dots.
pub(crate) fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len(253));
    }
    if !s.split('.').all(matches_dns_label) {
        errs.push(DNS1123_SUBDOMAIN_MSG.to_string());
    }
    errs
}

/// `IsDNS1123Label`: at most 63 bytes.
pub(crate) fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63));
    }
    if !matches_dns_label(s) {
        errs.push(DNS1123_LABEL_MSG.to_string());
    }
    errs
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.')
}

/// `IsQualifiedName`: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters.
pub(crate) fn qualified_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len(63)));
    }
    if !matches_qualified_name_part(name) {
        errs.push(format!("name part {QUALIFIED_NAME_MSG}"));
    }
    errs
}

/// `IsValidLabelValue`.
pub(crate) fn label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63));
    }
    if !s.is_empty() && !matches_qualified_name_part(s) {
        errs.push(LABEL_VALUE_MSG.to_string());
    }
    errs
}

/// `path.IsValidPathSegmentName`: what every object name must satisfy to appear in a URL.
pub(crate) fn path_segment_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s == "." || s == ".." {
        errs.push(format!("may not be '{s}'"));
        return errs;
    }
    for bad in ["/", "%"] {
        if s.contains(bad) {
            errs.push(format!("may not contain '{bad}'"));
        }
    }
    errs
}

/// How object names are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// `NameIsDNSSubdomain` (events.k8s.io/v1 Events).
    DnsSubdomain,
    /// `ValidatePathSegmentName` (core/v1 Events and everything without a stricter rule here).
    PathSegment,
}

impl NameRule {
    fn check(self, name: &str, prefix: bool) -> Vec<String> {
        match self {
            NameRule::DnsSubdomain => {
                // maskTrailingDash: a generateName prefix may end with '-'.
                let masked;
                let name = if prefix && name.len() > 1 && name.ends_with('-') {
                    masked = format!("{}a", &name[..name.len() - 1]);
                    masked.as_str()
                } else {
                    name
                };
                dns1123_subdomain(name)
            }
            NameRule::PathSegment => {
                if prefix {
                    // ValidatePathSegmentName with prefix only rejects '/' and '%'.
                    path_segment_name(name).into_iter().filter(|m| m.starts_with("may not contain")).collect()
                } else {
                    path_segment_name(name)
                }
            }
        }
    }
}

fn str_of<'a>(meta: &'a Map<String, Value>, key: &str) -> &'a str {
    meta.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `ValidateObjectMeta` for a new object: name, generateName, namespace, labels, annotations.
pub(crate) fn object_meta(meta: &Map<String, Value>, namespaced: bool, rule: NameRule) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let generate_name = str_of(meta, "generateName");
    if !generate_name.is_empty() {
        for m in rule.check(generate_name, true) {
            errs.push(FieldError::invalid("metadata.generateName", generate_name, m));
        }
    }
    let name = str_of(meta, "name");
    if name.is_empty() {
        errs.push(FieldError::required("metadata.name", "name or generateName is required"));
    } else {
        for m in rule.check(name, false) {
            errs.push(FieldError::invalid("metadata.name", name, m));
        }
    }
    let namespace = str_of(meta, "namespace");
    if namespaced {
        if namespace.is_empty() {
            errs.push(FieldError::required("metadata.namespace", ""));
        } else {
            for m in dns1123_label(namespace) {
                errs.push(FieldError::invalid("metadata.namespace", namespace, m));
            }
        }
    } else if !namespace.is_empty() {
        errs.push(FieldError::forbidden("metadata.namespace", "not allowed on this type"));
    }
    if let Some(labels) = meta.get("labels").and_then(Value::as_object) {
        for (key, value) in labels {
            for m in qualified_name(key) {
                errs.push(FieldError::invalid("metadata.labels", key.as_str(), m));
            }
            let value = value.as_str().unwrap_or("");
            for m in label_value(value) {
                errs.push(FieldError::invalid(format!("metadata.labels[{key}]"), value, m));
            }
        }
    }
    if let Some(annotations) = meta.get("annotations").and_then(Value::as_object) {
        let mut total = 0;
        for (key, value) in annotations {
            for m in qualified_name(&key.to_ascii_lowercase()) {
                errs.push(FieldError::invalid("metadata.annotations", key.as_str(), m));
            }
            total += key.len() + value.as_str().map_or(0, str::len);
        }
        if total > 256 * 1024 {
            errs.push(FieldError::too_long("metadata.annotations", format!("must have at most {} bytes", 256 * 1024)));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_subdomain() {
        assert!(dns1123_subdomain("llama-train-0.18ecbb6678335234").is_empty());
        assert_eq!(dns1123_subdomain("system:controller:Foo.1").len(), 1);
        assert_eq!(dns1123_subdomain(&"a".repeat(254)).len(), 1);
        assert!(!dns1123_subdomain("a..b").is_empty());
        assert!(!dns1123_subdomain("-a").is_empty());
        assert!(!dns1123_subdomain("").is_empty());
    }

    #[test]
    fn qualified_names() {
        assert!(qualified_name("tensor-fusion.ai/recorder-scenario").is_empty());
        assert!(qualified_name("GangScheduler").is_empty());
        assert!(qualified_name("kubelet").is_empty());
        assert_eq!(qualified_name("").len(), 2);
        assert!(!qualified_name("a b").is_empty());
        assert!(!qualified_name("a/b/c").is_empty());
        assert!(!qualified_name("Example.com/x").is_empty());
        assert!(!qualified_name(&"a".repeat(64)).is_empty());
    }

    #[test]
    fn messages() {
        let e = FieldError::invalid("message", "", "can have at most 1024 characters");
        assert_eq!(e.message(), "message: Invalid value: \"\": can have at most 1024 characters");
        let r = FieldError::required("reason", "");
        assert_eq!(r.message(), "reason: Required value");
        assert_eq!(aggregate(std::slice::from_ref(&r)), "reason: Required value");
        assert_eq!(aggregate(&[r.clone(), r]), "[reason: Required value, reason: Required value]");
    }
}
