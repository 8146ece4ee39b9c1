//! The watch loop of one stream (one Event API, one namespace or all): list, then watch from the
//! list's resourceVersion, resume after disconnects, re-list after 410 Gone and after watches
//! that close at once (Events are not served from the watch cache: kubernetes #104171), back
//! off on errors, and never stop until told to. No object cache: each Event becomes a record
//! and is handed on.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use gpu_events_core::EventRecord;
use k8s_openapi::api::core::v1::Event as CoreEvent;
use k8s_openapi::api::events::v1::Event as EventsV1;
use kube::Api;
use kube::api::{ListParams, WatchEvent, WatchParams};
use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, watch};

/// Which Event API a stream reads. Both show the same stored Events (same UIDs); reading both
/// counts nothing twice, because deduplication is by UID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum EventApi {
    /// `events.k8s.io/v1` (regarding, note, series).
    #[serde(rename = "events.k8s.io/v1")]
    EventsV1,
    /// `core/v1` (involvedObject, message, count).
    #[serde(rename = "v1")]
    CoreV1,
}

impl EventApi {
    /// Both APIs, in [`EventApi::index`] order.
    pub const ALL: [EventApi; crate::stats::APIS] = [EventApi::EventsV1, EventApi::CoreV1];

    /// The API's slot in a [`PerApi`](crate::stats::PerApi) counter (its place in [`EventApi::ALL`]).
    pub fn index(self) -> usize {
        match self {
            EventApi::EventsV1 => 0,
            EventApi::CoreV1 => 1,
        }
    }

    /// The apiVersion (`events.k8s.io/v1` or `v1`), the `api` label of metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            EventApi::EventsV1 => "events.k8s.io/v1",
            EventApi::CoreV1 => "v1",
        }
    }
}

/// One stream: an API and a namespace (`None`: all namespaces).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stream {
    /// The API.
    pub api: EventApi,
    /// The namespace, or all.
    pub namespace: Option<String>,
}

impl Stream {
    /// The checkpoint key: `events.k8s.io/v1 ml`, `v1 *`.
    pub fn key(&self) -> String {
        format!("{} {}", self.api.as_str(), self.namespace.as_deref().unwrap_or("*"))
    }
}

/// What a stream reports.
#[derive(Debug)]
#[non_exhaustive]
pub enum Observed {
    /// An Event was added or changed (or listed).
    Applied {
        /// The stream.
        api: EventApi,
        /// The record.
        record: Box<EventRecord>,
    },
    /// An Event was deleted (its TTL ran out).
    Deleted {
        /// The record as last seen.
        record: Box<EventRecord>,
    },
    /// The stream's position, after items up to it were reported.
    Position {
        /// The stream's checkpoint key.
        stream: String,
        /// Its resourceVersion.
        resource_version: String,
    },
    /// A list finished (at start, or after a 410 or a watch that closed at once).
    Relisted {
        /// The stream.
        api: EventApi,
        /// Whether events may have been missed: the history the watch needed was gone (410 or
        /// a dead watch) rather than this being the first list.
        gap_suspected: bool,
    },
    /// The checkpoint's resourceVersion is newer than the server's (a restored volume, a state
    /// file from another cluster): a watch from it would wait silently for a revision the server
    /// has not reached and skip everything until then. The stream re-lists instead (the marks
    /// keep what was exported from coming again) and reports the re-list as a suspected gap.
    CheckpointAhead {
        /// The stream.
        api: EventApi,
        /// The checkpoint's resourceVersion.
        resource_version: String,
        /// The server's answer.
        why: String,
    },
    /// A list or watch failed (RBAC, the API connection, a server error); it is retried.
    Failed {
        /// The stream.
        api: EventApi,
        /// What went wrong.
        why: String,
    },
    /// A watch ended and was started again (disconnect, timeout, error).
    Restarted {
        /// The stream.
        api: EventApi,
        /// Why.
        why: String,
    },
}

/// Timing of the loop.
#[derive(Clone, Copy, Debug)]
pub struct WatchTiming {
    /// `timeoutSeconds` of each watch request (the server ends it then; it is re-opened).
    pub watch_timeout: Duration,
    /// A watch that ends sooner than this without any event counts as closed at once.
    pub dead_watch: Duration,
    /// First backoff after an error; doubles up to [`max_backoff`](WatchTiming::max_backoff).
    pub min_backoff: Duration,
    /// Longest backoff.
    pub max_backoff: Duration,
    /// Page size of lists.
    pub page_size: u32,
}

impl Default for WatchTiming {
    fn default() -> Self {
        WatchTiming {
            watch_timeout: Duration::from_secs(290),
            dead_watch: Duration::from_millis(500),
            min_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(30),
            page_size: 500,
        }
    }
}

/// Runs one stream until `stop` turns true, sending what it sees to `out`. Resumes from
/// `resume` (a checkpoint's resourceVersion) when given, else lists first.
pub async fn run(
    client: kube::Client,
    stream: Stream,
    resume: Option<String>,
    timing: WatchTiming,
    out: mpsc::Sender<Observed>,
    stop: watch::Receiver<bool>,
) {
    match stream.api {
        EventApi::EventsV1 => {
            let api: Api<EventsV1> = api_for(client, &stream);
            Loop { api, stream, timing, out, stop: Arc::new(stop) }.run(resume).await;
        }
        EventApi::CoreV1 => {
            let api: Api<CoreEvent> = api_for(client, &stream);
            Loop { api, stream, timing, out, stop: Arc::new(stop) }.run(resume).await;
        }
    }
}

/// Resolves once `stop` is true (or its sender is gone). The guard `wait_for` returns is
/// dropped here, so callers' futures stay `Send`.
pub(crate) async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

fn api_for<K>(client: kube::Client, stream: &Stream) -> Api<K>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
{
    match &stream.namespace {
        Some(namespace) => Api::namespaced(client, namespace),
        None => Api::all(client),
    }
}

struct Loop<K> {
    api: Api<K>,
    stream: Stream,
    timing: WatchTiming,
    out: mpsc::Sender<Observed>,
    stop: Arc<watch::Receiver<bool>>,
}

/// How a watch ended.
enum Ended {
    /// Re-list: 410 Gone, or the watch closed at once too often.
    Relist(String),
    /// Watch again from the same position (after a backoff when `error`).
    Resume { why: String, error: bool },
    /// Told to stop.
    Stop,
}

impl<K> Loop<K>
where
    K: kube::Resource + Clone + DeserializeOwned + std::fmt::Debug + Send + 'static,
    EventRecord: From<K>,
{
    fn stopped(&self) -> bool {
        *self.stop.borrow()
    }

    async fn send(&self, observed: Observed) -> bool {
        self.out.send(observed).await.is_ok()
    }

    async fn sleep(&self, backoff: Duration) {
        let jittered = backoff.mul_f64(0.8 + fastrand::f64() * 0.4);
        let mut stop = (*self.stop).clone();
        tokio::select! {
            () = tokio::time::sleep(jittered) => {}
            () = stopped(&mut stop) => {}
        }
    }

    async fn run(self, resume: Option<String>) {
        let mut position = resume;
        let mut relist_why: Option<String> = None;
        if let Some(rv) = position.clone() {
            match self.ahead_of_server(&rv).await {
                Some(Some(why)) => {
                    tracing::warn!(stream = %self.stream.key(), resource_version = %rv, %why,
                        "the checkpoint's resourceVersion is newer than the API server's; re-listing");
                    let api = self.stream.api;
                    if !self.send(Observed::CheckpointAhead { api, resource_version: rv, why: why.clone() }).await {
                        return;
                    }
                    position = None;
                    relist_why = Some(why);
                }
                Some(None) => {}
                None => return,
            }
        }
        let mut backoff = self.timing.min_backoff;
        let mut dead_watches = 0u32;
        while !self.stopped() {
            if position.is_none() {
                match self.list().await {
                    Ok(Some(rv)) => {
                        let gap_suspected = relist_why.take().is_some();
                        if !self.send(Observed::Relisted { api: self.stream.api, gap_suspected }).await {
                            return;
                        }
                        position = Some(rv);
                        backoff = self.timing.min_backoff;
                    }
                    Ok(None) => return,
                    Err(why) => {
                        tracing::warn!(stream = %self.stream.key(), %why, "listing events failed; retrying");
                        if !self.send(Observed::Failed { api: self.stream.api, why }).await {
                            return;
                        }
                        self.sleep(backoff).await;
                        backoff = (backoff * 2).min(self.timing.max_backoff);
                        continue;
                    }
                }
            }
            let rv = position.clone().unwrap_or_default();
            let started = Instant::now();
            let (ended, latest, saw_any) = self.watch_once(&rv).await;
            if let Some(latest) = latest {
                position = Some(latest);
            }
            let quick = !saw_any && started.elapsed() < self.timing.dead_watch;
            let ended = match ended {
                Ended::Resume { why, error: false } if quick => {
                    dead_watches += 1;
                    // A watch that closes at once, again and again, is a stale resourceVersion the
                    // API server does not answer with 410 (kubernetes #104171): treat it as 410.
                    if dead_watches >= 2 {
                        Ended::Relist(format!("watch closed at once {dead_watches} times ({why})"))
                    } else {
                        Ended::Resume { why, error: true }
                    }
                }
                other => other,
            };
            if saw_any {
                dead_watches = 0;
            }
            match ended {
                Ended::Stop => return,
                Ended::Relist(why) => {
                    tracing::info!(stream = %self.stream.key(), %why, "re-listing events");
                    position = None;
                    dead_watches = 0;
                    relist_why = Some(why);
                }
                Ended::Resume { why, error } => {
                    if error {
                        tracing::warn!(stream = %self.stream.key(), %why, "the watch failed; retrying");
                        let failed = Observed::Failed { api: self.stream.api, why: why.clone() };
                        if !self.send(failed).await {
                            return;
                        }
                    }
                    if !self.send(Observed::Restarted { api: self.stream.api, why }).await {
                        return;
                    }
                    if error {
                        self.sleep(backoff).await;
                        backoff = (backoff * 2).min(self.timing.max_backoff);
                    } else {
                        backoff = self.timing.min_backoff;
                    }
                }
            }
        }
    }

    /// Whether a checkpoint's resourceVersion is ahead of the server: `Some(Some(why))` when the
    /// server says so, `Some(None)` when not (or when it cannot tell: the watch then deals with
    /// errors as usual), `None` when stopped. A one-item list "not older than" `rv` is the
    /// server's own check: it answers 504 with cause `ResourceVersionTooLarge` for a
    /// resourceVersion it has not reached (a watch would be accepted and stay silent instead).
    async fn ahead_of_server(&self, rv: &str) -> Option<Option<String>> {
        let params = ListParams::default().limit(1).at(rv).matching(kube::api::VersionMatch::NotOlderThan);
        let mut stop = (*self.stop).clone();
        let answer = tokio::select! {
            answer = self.api.list(&params) => answer,
            () = stopped(&mut stop) => return None,
        };
        match answer {
            Err(kube::Error::Api(status)) if too_large(&status) => {
                Some(Some(format!("{} {}", status.code, status.message)))
            }
            Err(err) => {
                tracing::debug!(stream = %self.stream.key(), %err, "checking the checkpoint's resourceVersion failed");
                Some(None)
            }
            Ok(_) => Some(None),
        }
    }

    /// Lists every page, reporting each item; the list's resourceVersion, `None` when stopped.
    async fn list(&self) -> Result<Option<String>, String> {
        let mut token: Option<String> = None;
        loop {
            let mut params = ListParams::default().limit(self.timing.page_size);
            if let Some(token) = &token {
                params = params.continue_token(token);
            }
            let mut stop = (*self.stop).clone();
            let page = tokio::select! {
                page = self.api.list(&params) => page.map_err(|e| e.to_string())?,
                () = stopped(&mut stop) => return Ok(None),
            };
            for item in page.items {
                let record = Box::new(EventRecord::from(item));
                if !self.send(Observed::Applied { api: self.stream.api, record }).await {
                    return Ok(None);
                }
            }
            token = page.metadata.continue_.filter(|t| !t.is_empty());
            if token.is_none() {
                let rv = page.metadata.resource_version.unwrap_or_default();
                if !self.send(Observed::Position { stream: self.stream.key(), resource_version: rv.clone() }).await {
                    return Ok(None);
                }
                return Ok(Some(rv));
            }
        }
    }

    /// One watch request from `rv`: how it ended, the latest resourceVersion, whether anything
    /// (an event or a bookmark) arrived.
    async fn watch_once(&self, rv: &str) -> (Ended, Option<String>, bool) {
        let seconds = u32::try_from(self.timing.watch_timeout.as_secs()).unwrap_or(290).max(1);
        let params = WatchParams::default().timeout(seconds);
        let mut latest = None;
        let mut saw_any = false;
        let mut stop = (*self.stop).clone();
        let opened = tokio::select! {
            opened = self.api.watch(&params, rv) => opened,
            () = stopped(&mut stop) => return (Ended::Stop, None, false),
        };
        let events = match opened {
            Ok(events) => events,
            Err(kube::Error::Api(status)) if status.code == 410 => {
                return (Ended::Relist(format!("410 {}", status.message)), None, false);
            }
            Err(err) => return (Ended::Resume { why: err.to_string(), error: true }, None, false),
        };
        futures::pin_mut!(events);
        loop {
            let next = tokio::select! {
                next = events.next() => next,
                () = stopped(&mut stop) => return (Ended::Stop, latest, saw_any),
            };
            let Some(next) = next else {
                return (Ended::Resume { why: "watch ended".into(), error: false }, latest, saw_any);
            };
            let observed = match next {
                Ok(WatchEvent::Added(object) | WatchEvent::Modified(object)) => {
                    latest = object.meta().resource_version.clone();
                    Observed::Applied { api: self.stream.api, record: Box::new(EventRecord::from(object)) }
                }
                Ok(WatchEvent::Deleted(object)) => {
                    latest = object.meta().resource_version.clone();
                    Observed::Deleted { record: Box::new(EventRecord::from(object)) }
                }
                Ok(WatchEvent::Bookmark(bookmark)) => {
                    latest = Some(bookmark.metadata.resource_version.clone());
                    Observed::Position {
                        stream: self.stream.key(),
                        resource_version: bookmark.metadata.resource_version,
                    }
                }
                Ok(WatchEvent::Error(status)) if status.code == 410 => {
                    return (Ended::Relist(format!("410 {}", status.message)), latest, saw_any);
                }
                Ok(WatchEvent::Error(status)) => {
                    let why = format!("{} {}: {}", status.code, status.reason, status.message);
                    return (Ended::Resume { why, error: true }, latest, saw_any);
                }
                Err(err) => return (Ended::Resume { why: err.to_string(), error: true }, latest, saw_any),
            };
            saw_any = true;
            let position = match &observed {
                Observed::Applied { .. } | Observed::Deleted { .. } => latest.clone(),
                _ => None,
            };
            if !self.send(observed).await {
                return (Ended::Stop, latest, saw_any);
            }
            if let Some(resource_version) = position {
                let position = Observed::Position { stream: self.stream.key(), resource_version };
                if !self.send(position).await {
                    return (Ended::Stop, latest, saw_any);
                }
            }
        }
    }
}

/// `storage.NewTooLargeResourceVersionError`'s answer: 504 with cause `ResourceVersionTooLarge`
/// (older servers: only the message, which `NewTimeoutError` starts with `Timeout: `).
fn too_large(status: &kube::core::Status) -> bool {
    status.code == 504
        && (status.details.as_ref().is_some_and(|d| d.causes.iter().any(|c| c.reason == "ResourceVersionTooLarge"))
            || status.message.contains("Too large resource version"))
}

#[cfg(test)]
mod too_large_tests {
    use super::too_large;

    fn status(message: &str, cause: Option<&str>) -> kube::core::Status {
        let causes: Vec<serde_json::Value> =
            cause.map(|reason| serde_json::json!({"reason": reason, "message": "", "field": ""})).into_iter().collect();
        serde_json::from_value(serde_json::json!({
            "status": "Failure", "message": message, "reason": "Timeout", "code": 504,
            "details": {"name": "", "group": "", "kind": "", "uid": "", "retryAfterSeconds": 0, "causes": causes},
        }))
        .expect("a Status")
    }

    #[test]
    fn a_too_large_resource_version_is_known_by_its_cause_or_by_the_real_servers_message() {
        // kube-apiserver v1.37's message starts with "Timeout: " (seen on the real server).
        assert!(too_large(&status("Timeout: Too large resource version: 9, current: 7", None)));
        assert!(too_large(&status("Too large resource version: 9, current: 7", None)));
        assert!(too_large(&status("anything", Some("ResourceVersionTooLarge"))));
        assert!(!too_large(&status("Timeout: request did not complete within the allotted timeout", None)));
    }
}
