//! Field and label selectors, with the field labels each resource supports in kube-apiserver.

use serde_json::Value;

use crate::resource::ResourceType;
use crate::status::ApiError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldOp {
    Eq,
    NotEq,
}

/// A parsed `fieldSelector`, its labels already translated to the stored field names.
#[derive(Clone, Debug, Default)]
pub(crate) struct FieldSelector {
    terms: Vec<(String, FieldOp, String)>,
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits on `sep` where it is not escaped by a backslash.
fn split_unescaped(s: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == sep {
            parts.push(&s[start..i]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Field labels of core/v1 Events (`pkg/apis/core/v1/conversion.go`).
const CORE_EVENT_FIELDS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
    "metadata.namespace",
    "metadata.name",
];

/// Field labels of events.k8s.io/v1 Events and the stored names they map to.
const V1_EVENT_FIELDS: &[(&str, &str)] = &[
    ("regarding.kind", "involvedObject.kind"),
    ("regarding.namespace", "involvedObject.namespace"),
    ("regarding.name", "involvedObject.name"),
    ("regarding.uid", "involvedObject.uid"),
    ("regarding.apiVersion", "involvedObject.apiVersion"),
    ("regarding.resourceVersion", "involvedObject.resourceVersion"),
    ("regarding.fieldPath", "involvedObject.fieldPath"),
    ("reason", "reason"),
    ("reportingController", "reportingComponent"),
    ("type", "type"),
    ("metadata.namespace", "metadata.namespace"),
    ("metadata.name", "metadata.name"),
];

const POD_FIELDS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
];

/// Translates a field label of `rt` into the stored field it reads, or refuses it as kube-apiserver does.
fn translate(rt: &ResourceType, label: &str) -> Result<String, ApiError> {
    let supported = if rt.is_event() && rt.group == "events.k8s.io" {
        V1_EVENT_FIELDS.iter().find(|(l, _)| *l == label).map(|(_, stored)| (*stored).to_string())
    } else if rt.is_event() {
        CORE_EVENT_FIELDS.contains(&label).then(|| label.to_string())
    } else if rt.group.is_empty() && rt.plural == "pods" {
        POD_FIELDS.contains(&label).then(|| label.to_string())
    } else if rt.group.is_empty() && rt.plural == "nodes" {
        ["metadata.name", "spec.unschedulable"].contains(&label).then(|| label.to_string())
    } else if rt.group.is_empty() && rt.plural == "namespaces" {
        ["metadata.name", "status.phase"].contains(&label).then(|| label.to_string())
    } else {
        let ok = label == "metadata.name" || (rt.namespaced && label == "metadata.namespace");
        ok.then(|| label.to_string())
    };
    supported.ok_or_else(|| ApiError::bad_request(format!("field label not supported: {label}")))
}

impl FieldSelector {
    /// Parses `fieldSelector` for resource `rt`.
    pub fn parse(rt: &ResourceType, selector: &str) -> Result<Self, ApiError> {
        let mut terms = Vec::new();
        for term in split_unescaped(selector, ',') {
            if term.is_empty() {
                continue;
            }
            let (lhs, op, rhs) = if let Some((l, r)) = term.split_once("!=") {
                (l, FieldOp::NotEq, r)
            } else if let Some((l, r)) = term.split_once("==") {
                (l, FieldOp::Eq, r)
            } else if let Some((l, r)) = term.split_once('=') {
                (l, FieldOp::Eq, r)
            } else {
                return Err(ApiError::bad_request(format!(
                    "invalid selector: '{selector}'; can't understand '{term}'"
                )));
            };
            terms.push((translate(rt, lhs.trim())?, op, unescape(rhs.trim())));
        }
        Ok(FieldSelector { terms })
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether a stored object matches.
    pub fn matches(&self, rt: &ResourceType, stored: &Value) -> bool {
        self.terms.iter().all(|(field, op, want)| {
            let got = field_value(rt, stored, field);
            match op {
                FieldOp::Eq => got == *want,
                FieldOp::NotEq => got != *want,
            }
        })
    }
}

fn path_str(v: &Value, path: &str) -> Option<String> {
    let mut cur = v;
    for part in path.split('.') {
        cur = cur.get(part)?;
    }
    match cur {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The value of a (stored) field label: missing fields read as their zero value.
fn field_value(rt: &ResourceType, stored: &Value, field: &str) -> String {
    if rt.is_event() && field == "source" {
        return path_str(stored, "source.component")
            .filter(|s| !s.is_empty())
            .or_else(|| path_str(stored, "reportingComponent"))
            .unwrap_or_default();
    }
    match path_str(stored, field) {
        Some(v) => v,
        None if field == "spec.hostNetwork" || field == "spec.unschedulable" => "false".to_string(),
        None => String::new(),
    }
}

#[derive(Clone, Debug)]
enum LabelReq {
    Exists(String),
    NotExists(String),
    Eq(String, String),
    NotEq(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Gt(String, i64),
    Lt(String, i64),
}

/// A parsed `labelSelector`.
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelSelector {
    reqs: Vec<LabelReq>,
}

fn split_top_level_commas(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn parse_set(s: &str) -> Option<Vec<String>> {
    let inner = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    Some(inner.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect())
}

impl LabelSelector {
    /// Parses `labelSelector` (equality-based and set-based requirements).
    pub fn parse(selector: &str) -> Result<Self, ApiError> {
        let bad = |why: &str| ApiError::bad_request(format!("unable to parse requirement: {why}: {selector:?}"));
        let mut reqs = Vec::new();
        for term in split_top_level_commas(selector) {
            let term = term.trim();
            if term.is_empty() {
                continue;
            }
            let req = if let Some(key) = term.strip_prefix('!') {
                LabelReq::NotExists(key.trim().to_string())
            } else if let Some((k, v)) = term.split_once("!=") {
                LabelReq::NotEq(k.trim().to_string(), v.trim().to_string())
            } else if let Some((k, v)) = term.split_once("==") {
                LabelReq::Eq(k.trim().to_string(), v.trim().to_string())
            } else if let Some((k, v)) = term.split_once('=') {
                LabelReq::Eq(k.trim().to_string(), v.trim().to_string())
            } else if let Some((k, v)) = term.split_once(" notin ") {
                LabelReq::NotIn(k.trim().to_string(), parse_set(v).ok_or_else(|| bad("bad set"))?)
            } else if let Some((k, v)) = term.split_once(" in ") {
                LabelReq::In(k.trim().to_string(), parse_set(v).ok_or_else(|| bad("bad set"))?)
            } else if let Some((k, v)) = term.split_once('>') {
                LabelReq::Gt(k.trim().to_string(), v.trim().parse().map_err(|_| bad("not an integer"))?)
            } else if let Some((k, v)) = term.split_once('<') {
                LabelReq::Lt(k.trim().to_string(), v.trim().parse().map_err(|_| bad("not an integer"))?)
            } else if term.contains(char::is_whitespace) || term.contains(['(', ')']) {
                return Err(bad("found unexpected token"));
            } else {
                LabelReq::Exists(term.to_string())
            };
            reqs.push(req);
        }
        Ok(LabelSelector { reqs })
    }

    pub fn is_empty(&self) -> bool {
        self.reqs.is_empty()
    }

    /// Whether an object's `metadata.labels` match.
    pub fn matches(&self, object: &Value) -> bool {
        let labels = object.get("metadata").and_then(|m| m.get("labels"));
        let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
        self.reqs.iter().all(|req| match req {
            LabelReq::Exists(k) => get(k).is_some(),
            LabelReq::NotExists(k) => get(k).is_none(),
            LabelReq::Eq(k, v) => get(k) == Some(v.as_str()),
            LabelReq::NotEq(k, v) => get(k) != Some(v.as_str()),
            LabelReq::In(k, vs) => get(k).is_some_and(|g| vs.iter().any(|v| v == g)),
            LabelReq::NotIn(k, vs) => get(k).is_none_or(|g| vs.iter().all(|v| v != g)),
            LabelReq::Gt(k, n) => get(k).and_then(|g| g.parse::<i64>().ok()).is_some_and(|g| g > *n),
            LabelReq::Lt(k, n) => get(k).and_then(|g| g.parse::<i64>().ok()).is_some_and(|g| g < *n),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn event_field_selectors() {
        let stored = json!({"metadata": {"name": "e", "namespace": "ml"},
            "involvedObject": {"kind": "Pod", "name": "llama-0", "namespace": "ml"}, "reason": "Failed",
            "reportingComponent": "kubelet"});
        let v1 = ResourceType::EVENTS_V1;
        let core = ResourceType::CORE_EVENTS;
        assert!(FieldSelector::parse(&v1, "regarding.name=llama-0,regarding.kind=Pod").unwrap().matches(&v1, &stored));
        assert!(FieldSelector::parse(&core, "involvedObject.name==llama-0").unwrap().matches(&core, &stored));
        assert!(!FieldSelector::parse(&core, "involvedObject.name!=llama-0").unwrap().matches(&core, &stored));
        assert!(FieldSelector::parse(&core, "source=kubelet,type=").unwrap().matches(&core, &stored));
        assert_eq!(FieldSelector::parse(&v1, "involvedObject.name=x").unwrap_err().code, 400);
        assert_eq!(FieldSelector::parse(&core, "note=x").unwrap_err().code, 400);
        assert_eq!(FieldSelector::parse(&core, "reason").unwrap_err().code, 400);
    }

    #[test]
    fn label_selectors() {
        let obj = json!({"metadata": {"labels": {"app": "llama", "tier": "gpu", "n": "3"}}});
        for (sel, want) in [
            ("app=llama", true),
            ("app==llama,tier", true),
            ("app!=llama", false),
            ("!missing", true),
            ("tier in (gpu, cpu)", true),
            ("tier notin (gpu)", false),
            ("n>2", true),
            ("n<2", false),
            ("", true),
        ] {
            assert_eq!(LabelSelector::parse(sel).unwrap().matches(&obj), want, "{sel}");
        }
    }
}
