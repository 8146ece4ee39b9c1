//! Where writes go: the API server through a kube client, or memory for [`FakeRecorder`](crate::FakeRecorder).
//! Both answer in the same terms ([`CallError`]), so the worker's logic is the same for both.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use k8s_openapi::api::events::v1::{Event, EventSeries};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use kube::Api;
use kube::api::{Patch, PatchParams, PostParams};

use crate::cache::{Key, Snapshot};

/// Who records: `reportingController` and `reportingInstance`.
#[derive(Clone, Debug)]
pub(crate) struct Reporter {
    pub(crate) controller: String,
    pub(crate) instance: String,
}

/// A write's outcome in the terms the worker acts on.
#[derive(Debug)]
pub(crate) enum CallError {
    /// 404, with the server's message (`namespaces "x" not found` is not the same fault as a gone event).
    NotFound(String),
    AlreadyExists,
    /// 429, 5xx, a transport error: worth another try (after the server's `Retry-After`, when
    /// it gave one).
    Retryable(String, Option<std::time::Duration>),
    /// Anything else the server refused.
    Rejected {
        code: u16,
        reason: String,
        message: String,
    },
}

impl From<kube::Error> for CallError {
    fn from(err: kube::Error) -> Self {
        match err {
            kube::Error::Api(status) => match status.code {
                404 => CallError::NotFound(status.message.clone()),
                409 if status.reason == "AlreadyExists" => CallError::AlreadyExists,
                429 | 500..=599 => {
                    let after = status
                        .details
                        .as_ref()
                        .map(|d| d.retry_after_seconds)
                        .filter(|s| *s > 0)
                        .map(|s| std::time::Duration::from_secs(u64::from(s)));
                    CallError::Retryable(format!("{} {}: {}", status.code, status.reason, status.message), after)
                }
                code => CallError::Rejected { code, reason: status.reason.clone(), message: status.message.clone() },
            },
            // The request may not have reached the server, or its answer was lost.
            other @ (kube::Error::HyperError(_)
            | kube::Error::Service(_)
            | kube::Error::ReadEvents(_)
            | kube::Error::SerdeError(_)) => CallError::Retryable(other.to_string(), None),
            other => CallError::Rejected { code: 0, reason: "ClientError".into(), message: other.to_string() },
        }
    }
}

/// k8s-openapi's `MicroTime` (jiff) from our chrono time.
pub(crate) fn micro_time(time: DateTime<Utc>) -> MicroTime {
    let nanos = i128::from(time.timestamp()) * 1_000_000_000 + i128::from(time.timestamp_subsec_nanos());
    MicroTime(jiff::Timestamp::from_nanosecond(nanos).unwrap_or(jiff::Timestamp::UNIX_EPOCH))
}

/// The `series` of a snapshot with two or more occurrences.
pub(crate) fn series(snapshot: &Snapshot) -> Option<EventSeries> {
    (snapshot.count >= 2).then(|| EventSeries {
        count: i32::try_from(snapshot.count).unwrap_or(i32::MAX),
        last_observed_time: micro_time(snapshot.last_observed),
    })
}

/// The whole event, for a create: events.k8s.io/v1, no deprecated fields.
pub(crate) fn event_body(key: &Key, snapshot: &Snapshot, reporter: &Reporter) -> Event {
    Event {
        metadata: ObjectMeta {
            name: Some(snapshot.name.clone()),
            namespace: Some(snapshot.namespace.clone()),
            ..ObjectMeta::default()
        },
        event_time: Some(micro_time(snapshot.first)),
        reason: Some(key.reason.to_string()),
        type_: Some(key.event_type.as_str().to_owned()),
        action: Some(key.action.to_string()),
        note: Some(key.note.clone()).filter(|n| !n.is_empty()),
        regarding: Some(key.regarding.reference(snapshot.field_path.as_deref())),
        related: key.related.as_ref().map(|r| r.reference(None)),
        reporting_controller: Some(reporter.controller.clone()),
        reporting_instance: Some(reporter.instance.clone()),
        series: series(snapshot),
        ..Event::default()
    }
}

/// The writes a recorder makes.
#[derive(Clone)]
pub(crate) enum Backend {
    Kube(kube::Client),
    Memory(Arc<MemoryApi>),
}

impl Backend {
    pub(crate) async fn create(&self, event: &Event) -> Result<(), CallError> {
        let namespace = event.metadata.namespace.as_deref().unwrap_or("default");
        match self {
            Backend::Kube(client) => {
                let api: Api<Event> = Api::namespaced(client.clone(), namespace);
                api.create(&PostParams::default(), event).await.map(drop).map_err(CallError::from)
            }
            Backend::Memory(memory) => memory.create(event),
        }
    }

    /// A merge patch of `series` only (about 80 bytes, against ~500 for the whole object).
    pub(crate) async fn patch_series(
        &self,
        namespace: &str,
        name: &str,
        series: &EventSeries,
    ) -> Result<(), CallError> {
        match self {
            Backend::Kube(client) => {
                let api: Api<Event> = Api::namespaced(client.clone(), namespace);
                let body = serde_json::json!({ "series": series });
                api.patch(name, &PatchParams::default(), &Patch::Merge(&body)).await.map(drop).map_err(CallError::from)
            }
            Backend::Memory(memory) => memory.patch_series(namespace, name, series),
        }
    }

    pub(crate) async fn get(&self, namespace: &str, name: &str) -> Result<Option<Event>, CallError> {
        match self {
            Backend::Kube(client) => {
                let api: Api<Event> = Api::namespaced(client.clone(), namespace);
                api.get_opt(name).await.map_err(CallError::from)
            }
            Backend::Memory(memory) => Ok(memory.get(namespace, name)),
        }
    }
}

/// One write as the fake API received it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FakeWrite {
    /// A create (POST) of this event.
    Create(Box<Event>),
    /// A series update (PATCH) of the event `namespace/name`.
    Series {
        /// The event's namespace.
        namespace: String,
        /// The event's name.
        name: String,
        /// The new series.
        series: EventSeries,
    },
}

/// The in-memory API of the fake recorder: stored events and the log of writes.
#[derive(Debug, Default)]
pub(crate) struct MemoryApi {
    events: Mutex<BTreeMap<(String, String), Event>>,
    writes: Mutex<Vec<FakeWrite>>,
}

impl MemoryApi {
    fn key(namespace: &str, name: &str) -> (String, String) {
        (namespace.to_owned(), name.to_owned())
    }

    fn create(&self, event: &Event) -> Result<(), CallError> {
        self.writes.lock().unwrap_or_else(PoisonError::into_inner).push(FakeWrite::Create(Box::new(event.clone())));
        let namespace = event.metadata.namespace.clone().unwrap_or_default();
        // The API server's namespace rule for events about cluster-scoped objects (events.go).
        let regarding_namespace = event.regarding.as_ref().and_then(|r| r.namespace.as_deref()).unwrap_or("");
        if regarding_namespace.is_empty() && !matches!(namespace.as_str(), "default" | "kube-system") {
            return Err(CallError::Rejected {
                code: 422,
                reason: "Invalid".into(),
                message: format!(
                    "involvedObject.namespace: Invalid value: \"\": does not match event.namespace {namespace:?}"
                ),
            });
        }
        let name = event.metadata.name.clone().unwrap_or_default();
        let mut events = self.events.lock().unwrap_or_else(PoisonError::into_inner);
        if events.contains_key(&(namespace.clone(), name.clone())) {
            return Err(CallError::AlreadyExists);
        }
        events.insert((namespace, name), event.clone());
        Ok(())
    }

    fn patch_series(&self, namespace: &str, name: &str, series: &EventSeries) -> Result<(), CallError> {
        self.writes.lock().unwrap_or_else(PoisonError::into_inner).push(FakeWrite::Series {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            series: series.clone(),
        });
        let mut events = self.events.lock().unwrap_or_else(PoisonError::into_inner);
        let event = events
            .get_mut(&Self::key(namespace, name))
            .ok_or_else(|| CallError::NotFound(format!("events.events.k8s.io {name:?} not found")))?;
        event.series = Some(series.clone());
        Ok(())
    }

    fn get(&self, namespace: &str, name: &str) -> Option<Event> {
        self.events.lock().unwrap_or_else(PoisonError::into_inner).get(&Self::key(namespace, name)).cloned()
    }

    pub(crate) fn events(&self) -> Vec<Event> {
        self.events.lock().unwrap_or_else(PoisonError::into_inner).values().cloned().collect()
    }

    pub(crate) fn writes(&self) -> Vec<FakeWrite> {
        self.writes.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub(crate) fn expire(&self, namespace: &str, name: &str) -> bool {
        self.events.lock().unwrap_or_else(PoisonError::into_inner).remove(&Self::key(namespace, name)).is_some()
    }
}
