//! The recorder's errors: building it, publishing with it, and what the API server answered.

use std::time::Duration;

/// Why a [`RecorderBuilder`](crate::RecorderBuilder) could not build a recorder.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// `reportingController` is not a Kubernetes qualified name; the API server would reject every event.
    #[error(
        "reportingController {value:?} is not a qualified name ({problem}); use a name like \"tensor-fusion.ai/my-controller\""
    )]
    ReportingController {
        /// The value given.
        value: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `reportingInstance` is empty or longer than 128 bytes.
    #[error("reportingInstance {value:?} is invalid: {source}")]
    ReportingInstance {
        /// The value given.
        value: String,
        /// What is wrong with it.
        source: InvalidEvent,
    },
    /// The namespace for cluster-scoped objects' events is neither `default` nor `kube-system`.
    #[error(
        "namespace for cluster-scoped objects' events {0:?}: the API server accepts only \"default\" or \"kube-system\""
    )]
    ClusterNamespace(String),
    /// A setting is out of range (zero workers, zero capacity, a heartbeat at or past the event TTL, ...).
    #[error("invalid setting {setting}: {problem}")]
    Setting {
        /// The builder method.
        setting: &'static str,
        /// Why the value cannot work.
        problem: String,
    },
    /// `build` was called outside a tokio runtime; the workers and the sweeper need one.
    #[error("RecorderBuilder::build must be called inside a tokio runtime (the recorder spawns its workers)")]
    NoRuntime,
}

/// An event the API server would reject, found before sending it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidEvent {
    /// A required field is empty.
    #[error("{field} is required")]
    Missing {
        /// `reason`, `action`, `reportingInstance`, `regarding.kind`, `regarding.name`.
        field: &'static str,
    },
    /// A field is longer than its limit in bytes.
    #[error("{field} is {bytes} bytes, more than the API server's limit of {limit}")]
    TooLong {
        /// `reason`, `action` or `reportingInstance`.
        field: &'static str,
        /// Its length in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The regarding object's namespace is not a DNS-1123 label.
    #[error("namespace {0:?} is not a valid namespace name (lowercase alphanumerics and '-', at most 63)")]
    Namespace(String),
    /// The rendered note does not read back to the same details (a name holding the format's
    /// own separators, such as `i-1, IP: 10.0.0.1` as an instance id): a reader would be misled.
    #[error("the note {note:?} would not read back to the details it was made from")]
    Ambiguous {
        /// The rendered note.
        note: String,
    },
    /// The event type is neither `Normal` nor `Warning`.
    #[error("type {0:?} is not Normal or Warning")]
    Type(String),
    /// The reason belongs to other kinds of objects than the one it was published on.
    #[error("reason {reason} is about {expected:?} objects, not {kind:?}")]
    WrongKind {
        /// The reason's wire string.
        reason: String,
        /// The kinds the catalogue lists for it.
        expected: Vec<&'static str>,
        /// The kind of the object it was published on.
        kind: String,
    },
    /// The object's Rust type was declared [`SameKind`](crate::SameKind) as the reason's type, and has its kind
    /// but another API group (an `example.com` `GPUPool` is not TensorFusion's).
    #[error("reason {reason} is about {kind} objects of API group {expected:?}, not {group:?}")]
    WrongGroup {
        /// The reason's wire string.
        reason: String,
        /// The kind, the same for both.
        kind: String,
        /// The group of the reason's objects (`tensor-fusion.ai`; `""` for core).
        expected: String,
        /// The group of the object's type.
        group: String,
    },
    /// The reason is retired, or its note carries data and needs its typed details.
    #[error("reason {0} cannot be published without data: publish its typed details instead")]
    NeedsDetails(&'static str),
}

/// Why a publish did not record an event.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PublishError {
    /// The event would be rejected by the API server; nothing was sent.
    #[error("invalid event: {0}")]
    Invalid(#[from] InvalidEvent),
    /// The recorder was shut down.
    #[error("the recorder is shut down")]
    Shutdown,
    /// The write did not finish within the given time (it may still finish later).
    #[error("the event was not written within {0:?}")]
    Timeout(Duration),
    /// The write was dropped: the queue was full or the spam filter refused it.
    #[error("the event was dropped ({0})")]
    Dropped(crate::Dropped),
    /// The API server refused the write (validation, RBAC) or retries ran out.
    #[error("the API server did not take the event: {0}")]
    Write(#[from] WriteError),
}

/// What went wrong writing an event, after the recorder's own retries.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A 4xx answer other than 404/409/429: validation (422), RBAC (403), a bad request. Not retried.
    #[error("{method} {name} refused with {code} {reason}: {message}")]
    Rejected {
        /// `create` or `patch`.
        method: &'static str,
        /// The event's name.
        name: String,
        /// The HTTP status code.
        code: u16,
        /// The `Status.reason` (`Invalid`, `Forbidden`, ...).
        reason: String,
        /// The `Status.message`.
        message: String,
    },
    /// 429, 5xx or transport errors on every attempt.
    #[error("{method} {name} failed after {attempts} attempts: {last}")]
    RetriesExhausted {
        /// `create` or `patch`.
        method: &'static str,
        /// The event's name.
        name: String,
        /// How many attempts were made.
        attempts: u32,
        /// The last error.
        last: String,
    },
}
