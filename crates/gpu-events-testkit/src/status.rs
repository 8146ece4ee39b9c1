//! `metav1.Status` error answers, built as kube-apiserver's `k8s.io/apimachinery/pkg/api/errors` builds them.

use serde_json::{Value, json};

use crate::resource::ResourceType;
use crate::validation::{FieldError, aggregate};

/// An error answer: HTTP code plus a `Status` body.
#[derive(Clone, Debug)]
pub(crate) struct ApiError {
    pub code: u16,
    pub reason: String,
    pub message: String,
    pub details: Option<Value>,
    pub retry_after: Option<u64>,
    /// `metadata.continue` of the Status: the token to go on with after a 410 on a compacted `continue`.
    pub continue_token: Option<Box<str>>,
}

impl ApiError {
    pub fn new(code: u16, reason: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            code,
            reason: reason.into(),
            message: message.into(),
            details: None,
            retry_after: None,
            continue_token: None,
        }
    }

    fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    fn object_details(rt: &ResourceType, name: &str) -> Value {
        json!({"name": name, "group": rt.group, "kind": rt.plural})
    }

    pub fn not_found(rt: &ResourceType, name: &str) -> Self {
        ApiError::new(404, "NotFound", format!("{} {name:?} not found", rt.qualified()))
            .with_details(Self::object_details(rt, name))
    }

    pub fn namespace_not_found(namespace: &str) -> Self {
        ApiError::new(404, "NotFound", format!("namespaces {namespace:?} not found"))
            .with_details(json!({"name": namespace, "kind": "namespaces"}))
    }

    pub fn page_not_found() -> Self {
        ApiError::new(404, "NotFound", "the server could not find the requested resource")
            .with_details(json!({"causes": [{"reason": "UnexpectedServerResponse", "message": "404 page not found"}]}))
    }

    pub fn already_exists(rt: &ResourceType, name: &str) -> Self {
        ApiError::new(409, "AlreadyExists", format!("{} {name:?} already exists", rt.qualified()))
            .with_details(Self::object_details(rt, name))
    }

    pub fn conflict(rt: &ResourceType, name: &str, why: &str) -> Self {
        ApiError::new(409, "Conflict", format!("Operation cannot be fulfilled on {} {name:?}: {why}", rt.qualified()))
            .with_details(Self::object_details(rt, name))
    }

    pub fn stale(rt: &ResourceType, name: &str) -> Self {
        Self::conflict(
            rt,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 422 Invalid. For Events of both APIs the kind is core's `Event` without a group, as kube-apiserver's
    /// events.k8s.io storage validates the internal (core) Event: `Event "x" is invalid`, details without a group.
    pub fn invalid(rt: &ResourceType, name: &str, errors: &[FieldError]) -> Self {
        if rt.is_event() {
            return Self::invalid_kind("Event", "", "Event", name, errors);
        }
        Self::invalid_kind(&rt.qualified_kind(), &rt.group, &rt.kind, name, errors)
    }

    pub fn invalid_kind(qualified_kind: &str, group: &str, kind: &str, name: &str, errors: &[FieldError]) -> Self {
        let causes: Vec<Value> = errors.iter().map(FieldError::cause).collect();
        ApiError::new(422, "Invalid", format!("{qualified_kind} {name:?} is invalid: {}", aggregate(errors)))
            .with_details(json!({"name": name, "group": group, "kind": kind, "causes": causes}))
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(400, "BadRequest", message)
    }

    pub fn method_not_allowed() -> Self {
        ApiError::new(405, "MethodNotAllowed", "the server does not allow this method on the requested resource")
    }

    pub fn unsupported_media_type(content_type: &str) -> Self {
        ApiError::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {content_type:?})"
            ),
        )
    }

    pub fn expired(message: impl Into<String>) -> Self {
        ApiError::new(410, "Expired", message)
    }

    /// A 500 from an error that is no API status (etcd3 storage's plain errors): no reason, the error as the message.
    pub fn internal(message: &str) -> Self {
        ApiError::new(500, "", message)
    }

    pub fn forbidden(rt: &ResourceType, verb: &str, namespace: Option<&str>, name: &str) -> Self {
        let scope = match namespace {
            Some(ns) => format!(" in the namespace {ns:?}"),
            None => " at the cluster scope".to_string(),
        };
        let target = if name.is_empty() { rt.qualified() } else { format!("{} {name:?}", rt.qualified()) };
        let message = format!(
            "{target} is forbidden: User \"system:serviceaccount:testkit:default\" cannot {verb} resource {:?} in API group {:?}{scope}",
            rt.plural, rt.group
        );
        ApiError::new(403, "Forbidden", message).with_details(Self::object_details(rt, name))
    }

    pub fn namespace_terminating(rt: &ResourceType, namespace: &str, name: &str) -> Self {
        let why = format!("unable to create new content in namespace {namespace} because it is being terminated");
        let target = format!("{} {name:?}", rt.qualified());
        ApiError::new(403, "Forbidden", format!("{target} is forbidden: {why}")).with_details(json!({
            "name": name, "group": rt.group, "kind": rt.plural,
            "causes": [{"reason": "NamespaceTerminating", "message": why, "field": "metadata.namespace"}]
        }))
    }

    /// A generic answer for a code, used by injected faults.
    pub fn for_code(code: u16) -> Self {
        let (reason, message) = match code {
            400 => ("BadRequest", "the server rejected our request for an unknown reason"),
            401 => ("Unauthorized", "Unauthorized"),
            403 => ("Forbidden", "forbidden: injected fault"),
            404 => ("NotFound", "the server could not find the requested resource"),
            405 => ("MethodNotAllowed", "the server does not allow this method on the requested resource"),
            409 => ("Conflict", "the server reported a conflict"),
            410 => ("Expired", "too old resource version"),
            422 => ("Invalid", "the server rejected our request due to an error in our request"),
            429 => ("TooManyRequests", "Too many requests, please try again later."),
            500 => ("InternalError", "Internal error occurred: injected fault"),
            503 => ("ServiceUnavailable", "the server is currently unable to handle the request"),
            504 => (
                "Timeout",
                "the server was unable to return a response in the time allotted, but may still be processing the request",
            ),
            _ => ("", "injected fault"),
        };
        ApiError::new(code, reason, message)
    }

    /// The `metav1.Status` body.
    pub fn status(&self) -> Value {
        // Empty strings are left out, as Go's `omitempty` leaves them.
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "code": self.code,
        });
        if !self.reason.is_empty() {
            status["reason"] = json!(self.reason);
        }
        if let Some(token) = &self.continue_token {
            status["metadata"] = json!({"continue": token});
        }
        let mut details = self.details.clone();
        if let Some(secs) = self.retry_after {
            let d = details.get_or_insert_with(|| json!({}));
            d["retryAfterSeconds"] = json!(secs);
        }
        if let Some(mut d) = details {
            if let Some(m) = d.as_object_mut() {
                m.retain(|_, v| v.as_str() != Some(""));
            }
            status["details"] = d;
        }
        status
    }
}
