//! A local Kubernetes API server double for tests: started on `127.0.0.1`, spoken to over real HTTP by kube-rs
//! (or anything else), enforcing what kube-apiserver enforces for Events.
//!
//! What it serves:
//! - **Events** through both APIs, `core/v1` (`/api/v1/namespaces/{ns}/events`) and `events.k8s.io/v1`
//!   (`/apis/events.k8s.io/v1/namespaces/{ns}/events`), sharing one storage and converted between the two as
//!   kube-apiserver does. Creates and updates are validated by the rules of `pkg/apis/core/validation/events.go`:
//!   strict for events.k8s.io/v1 (reason, action and reportingInstance required and at most 128 **bytes**, note at
//!   most 1024 bytes, reportingController a qualified name, type `Normal`/`Warning`, eventTime required with six
//!   fractional digits, names DNS subdomains, series count ≥ 2 with lastObservedTime, deprecated fields unset, and
//!   on update every field but `series` and metadata immutable); legacy for core/v1.
//! - **Any other resource** (Pods, Nodes, Namespaces, ReplicaSets, Deployments, Jobs, Leases and custom resources
//!   registered with [`ApiServer::register`]) without type-specific validation, seeded with [`ApiServer::insert`].
//! - The verbs get, list (field and label selectors, `limit`/`continue` over a consistent snapshot,
//!   `resourceVersion`/`resourceVersionMatch`), watch (from a `resourceVersion`, bookmarks, `sendInitialEvents`,
//!   `timeoutSeconds`, 410 Gone beyond the compaction window), create (`generateName`, `dryRun`), update with
//!   optimistic concurrency, patch (merge, strategic merge, JSON patch, apply), delete and deletecollection; and
//!   `/version`, `/api`, `/apis` discovery.
//! - Errors as `metav1.Status` bodies (kind, apiVersion, status, message, reason, code, details with causes),
//!   which kube-rs turns into [`kube::Error::Api`](https://docs.rs/kube/5/kube/enum.Error.html).
//! - List and watch options validated as kube-apiserver's `ValidateListOptions` (422 `ListOptions.meta.k8s.io`):
//!   `resourceVersionMatch` only with a `resourceVersion` and not with `continue`, `Exact` not with `0`, no
//!   `sendInitialEvents` on a list; on a watch `sendInitialEvents` only with `NotOlderThan`, `resourceVersionMatch`
//!   only with `sendInitialEvents`. Continue tokens are kube-apiserver's (base64url JSON), a compacted one is 410 with
//!   a token to go on at the latest resourceVersion.
//! - The Table form of Events (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, `includeObject`), with
//!   kube-apiserver's columns and cells, so `kubectl get events` prints what it prints against a real cluster.
//!
//! Validation causes carry kube-apiserver's field paths, which are those of the internal (core-shaped) Event
//! for both APIs: a too-long note is `message`, regarding is `involvedObject`, and reportingController is
//! `reportingController` (`reportingComponent` on core/v1 requests). An eventTime that is not RFC 3339 with
//! exactly six fractional digits does not decode: 400 BadRequest, not 422. A resourceVersion on create is a 500
//! (`resourceVersion should not be set on objects to be created`), as from etcd3 storage.
//!
//! For tests: a request log with parsed bodies ([`ApiServer::requests`]), stored objects
//! ([`ApiServer::objects`], [`ApiServer::get`]), injected faults ([`Fault`]: error statuses with `Retry-After`,
//! dropped connections, lost answers, delays, watches that end at once), RBAC denials ([`ApiServer::deny`]), compaction
//! ([`ApiServer::compact`]), Event expiry after a TTL counted from each write, as `--event-ttl`
//! ([`ServerConfig::event_ttl`], [`ApiServer::advance_clock`]) and control of open watches ([`ApiServer::close_watches`],
//! [`ApiServer::drop_watches`], [`ApiServer::bookmark`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use gpu_events_testkit::{ApiServer, Fault, ResourceType};
//! use serde_json::json;
//!
//! let server = ApiServer::start().await;
//! // Point kube at it (the `kube` feature adds `server.client()` for this).
//! let config = kube::Config::new(server.url().parse()?);
//! let client = kube::Client::try_from(config)?;
//! # let _ = client;
//!
//! // Seed a Pod with a status, as the live `explain` reads it.
//! server.insert(json!({"apiVersion": "v1", "kind": "Pod",
//!     "metadata": {"name": "llama-0", "namespace": "ml"},
//!     "status": {"phase": "Pending"}}))?;
//!
//! // Make the next event POST fail with 503.
//! server.inject(Fault::status(503).method("POST").path_prefix("/apis/events.k8s.io/"));
//!
//! // ... run the code under test with `client` ...
//!
//! // Then assert on what was sent and stored.
//! let writes = server.requests().into_iter().filter(|r| r.is_write()).count();
//! let events = server.objects(&ResourceType::EVENTS_V1);
//! # let _ = (writes, events);
//! # Ok(()) }
//! ```
//!
//! # Checked against a real kube-apiserver
//!
//! `tests/differential.rs` sends the same raw requests to the double (namespaces enforced) and to a real
//! kube-apiserver v1.37.2 (the `real-apiserver` feature) and compares status codes, Status reasons, messages (digits
//! masked), details and causes, list pages, `continue`, `remainingItemCount`, watch events and the Table form:
//! Event validation through both APIs, missing namespaces, `resourceVersion`/`resourceVersionMatch`/
//! `sendInitialEvents` rules, watches from a resourceVersion and live, 410 after a real etcd compaction, bookmarks.
//! They agree on every request of that suite but where listed here.
//!
//! ## Known differences
//!
//! Each is a place where the double is simpler than kube-apiserver, and why no test here depends on it:
//!
//! - **Namespaces are not enforced by default.** With [`ServerConfig::enforce_namespaces`] they are, with the real
//!   404 (`namespaces "x" not found`) and the 403 for a terminating one. Off by default so that tests need not create
//!   namespaces first; tests of the missing-namespace path turn it on.
//! - **Label selector syntax errors** have the double's own message (code 400 and reason `BadRequest` are the same).
//!   Clients build selectors; none of the code under test parses kube-apiserver's message.
//! - **A continue token that decodes to bad JSON** gets serde's description of the error, not Go's (the token format,
//!   the other decode errors and their messages are kube-apiserver's). Clients send back the tokens they were given.
//! - **The compaction boundary**: a compaction at revision R keeps revision R in etcd, so a real watch from R-1
//!   still works; the double's [`ApiServer::compact`] forgets the change at R too, so a watch from R-1 is 410. Tests
//!   compact and then watch from resourceVersions strictly older; both answer 410.
//! - **Bookmarks**: kube-apiserver sends no periodic BOOKMARK on Event watches (Events have no watch cache, and
//!   etcd3's watcher does not request progress notifications for clients), only the initial-events-end one of a
//!   `sendInitialEvents` watch, as the double does. [`ServerConfig::bookmark_interval`] and [`ApiServer::bookmark`]
//!   send others on purpose, to test that clients take them; a client must not need them. A cluster that turns the
//!   watch cache on for Events (`--watch-cache-sizes=events#N,events.events.k8s.io#N`) gets the watch cache's
//!   bookmarks: one 2 s before each watch's `timeoutSeconds`, else one a minute (measured with
//!   `RealServerConfig::apiserver_arg` in gpu-events-export's `tests/real_apiserver.rs`, where the exporter's
//!   checkpoint advances with them).
//! - **`retryAfterSeconds`** of a too-large `sendInitialEvents` watch is 1 on the double, 1 to 3 s (jittered) on the
//!   real server.
//! - **The Table form is served for Events only**, and not on watches; other resources are answered in JSON (a
//!   kubectl request also accepts JSON and prints it client-side).
//! - **No server-side apply bookkeeping**: no `managedFields`, apply is a merge (no conflicts);
//!   `fieldValidation=Strict` drops unknown fields silently; no OpenAPI (plain `kubectl create` needs
//!   `--validate=false`); Namespaces and Pods are stored without defaults (no `spec.finalizers`, no
//!   `kubernetes.io/metadata.name` label) or validation. The code under test reads Events, Pod status and owners,
//!   none of which depends on these.
//!
//! The crate keeps objects as `serde_json::Value`, so it selects no `k8s-openapi` version; the optional `kube`
//! feature adds `ApiServer::client` and friends for crates that already depend on `kube` 5.
//!
//! The `real-apiserver` feature adds `RealApiServer`: a real kube-apiserver (v1.37.2) on an embedded etcd,
//! built from `harness/` with Go once and cached under `target/` (a temporary directory when the crate is a
//! dependency from crates.io), for the same tests against the real thing.
//! `cargo run -p gpu-events-testkit --example kube-apiserver -- --kubeconfig kubeconfig.yaml` starts one for anyone.

mod body;
mod config;
#[cfg(feature = "kube")]
mod counting;
mod event;
mod fault;
#[cfg(feature = "real-apiserver")]
mod harness;
mod log;
mod patch;
#[cfg(feature = "real-apiserver")]
mod real;
mod resource;
mod selector;
mod server;
mod status;
mod store;
mod table;
mod validation;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use config::{ExpiredWatch, ServerConfig};
#[cfg(feature = "kube")]
pub use counting::{RequestCounter, SentRequest};
pub use fault::{Fault, FaultAction};
#[cfg(feature = "real-apiserver")]
pub use harness::{HARNESS_ENV, harness_binary};
pub use log::RecordedRequest;
#[cfg(feature = "real-apiserver")]
pub use real::{RealApiServer, RealError, RealServerConfig};
pub use resource::ResourceType;

use event::EventApi;
use server::Shared;
use store::{meta_str, render, set_meta};

/// Errors of the test server's own API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Binding `127.0.0.1:0` failed.
    #[error("cannot listen on 127.0.0.1: {0}")]
    Bind(#[from] std::io::Error),
    /// An object given to [`ApiServer::insert`] lacks what storing it needs, or is malformed.
    #[error("invalid object: {0}")]
    InvalidObject(String),
    /// Building a kube client failed.
    #[cfg(feature = "kube")]
    #[error("cannot build a kube client: {0}")]
    Kube(#[from] kube::Error),
}

/// A running API server double on `127.0.0.1`. It stops when dropped (or on [`shutdown`](ApiServer::shutdown)).
///
/// Must be started inside a tokio runtime (e.g. `#[tokio::test]`).
pub struct ApiServer {
    shared: Arc<Shared>,
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl std::fmt::Debug for ApiServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiServer").field("addr", &self.addr).finish_non_exhaustive()
    }
}

impl Drop for ApiServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ApiServer {
    /// Starts a server with the default [`ServerConfig`].
    ///
    /// # Panics
    /// When no port on 127.0.0.1 can be bound (see [`try_start_with`](ApiServer::try_start_with)).
    pub async fn start() -> ApiServer {
        Self::start_with(ServerConfig::default()).await
    }

    /// Starts a server with `config`.
    ///
    /// # Panics
    /// When no port on 127.0.0.1 can be bound.
    pub async fn start_with(config: ServerConfig) -> ApiServer {
        Self::try_start_with(config).await.expect("the test API server binds 127.0.0.1:0")
    }

    /// Starts a server with `config`, reporting a failure to bind.
    pub async fn try_start_with(config: ServerConfig) -> Result<ApiServer, Error> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let (bookmark_interval, event_ttl) = (config.bookmark_interval, config.event_ttl);
        let shared = Arc::new(Shared::new(store::State::new(config, addr)));
        let task = tokio::spawn(server::serve(listener, shared.clone(), bookmark_interval, event_ttl));
        Ok(ApiServer { shared, addr, task })
    }

    /// Stops serving: open connections and watches are cut.
    pub async fn shutdown(mut self) {
        self.task.abort();
        let _ = (&mut self.task).await;
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The socket address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A kubeconfig (YAML) whose current context points at this server, with `namespace` as default namespace.
    pub fn kubeconfig_yaml(&self, namespace: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: testkit\n  cluster:\n    server: {url}\ncontexts:\n- name: testkit\n  context:\n    cluster: testkit\n    user: testkit\n    namespace: {namespace}\ncurrent-context: testkit\nusers:\n- name: testkit\n  user: {{}}\npreferences: {{}}\n",
            url = self.url()
        )
    }

    /// Writes [`kubeconfig_yaml`](ApiServer::kubeconfig_yaml) to `path` (for a CLI run with `KUBECONFIG=path`).
    pub fn write_kubeconfig(&self, path: impl AsRef<Path>, namespace: &str) -> std::io::Result<()> {
        std::fs::write(path, self.kubeconfig_yaml(namespace))
    }

    // ---- faults and access control ----

    /// Adds a fault; faults fire in the order they were added (see [`Fault`]).
    pub fn inject(&self, fault: Fault) {
        self.shared.lock().faults.push(fault);
    }

    /// Makes every `k`-th request (from now on) fail with `code`.
    pub fn fail_every(&self, k: usize, code: u16) {
        self.inject(Fault::status(code).every(k).forever());
    }

    /// The faults that can still fire.
    pub fn faults(&self) -> Vec<Fault> {
        self.shared.lock().faults.clone()
    }

    /// Removes every fault.
    pub fn clear_faults(&self) {
        self.shared.lock().faults.clear();
    }

    /// Denies `verb` (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`) on a
    /// resource: such requests get `403 Forbidden` as from RBAC.
    pub fn deny(&self, verb: &str, resource: &ResourceType) {
        self.shared.lock().denied.insert((verb.to_string(), resource.group.to_string(), resource.plural.to_string()));
    }

    /// Allows again what [`deny`](ApiServer::deny) denied.
    pub fn allow(&self, verb: &str, resource: &ResourceType) {
        self.shared.lock().denied.remove(&(verb.to_string(), resource.group.to_string(), resource.plural.to_string()));
    }

    // ---- the request log ----

    /// Every request received so far (since the last [`clear_requests`](ApiServer::clear_requests)), in arrival
    /// order, with the status answered.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// The requests that asked to change state (POST, PUT, PATCH, DELETE), faulted or not.
    pub fn writes(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.iter().filter(|r| r.is_write()).cloned().collect()
    }

    /// Returns and forgets the request log.
    pub fn take_requests(&self) -> Vec<RecordedRequest> {
        std::mem::take(&mut self.shared.lock().requests)
    }

    /// Forgets the request log.
    pub fn clear_requests(&self) {
        self.shared.lock().requests.clear();
    }

    // ---- objects ----

    /// Adds a resource type (e.g. a custom resource), replacing one with the same group, version and plural.
    pub fn register(&self, resource: ResourceType) {
        self.shared.lock().register(resource);
    }

    /// Stores an object as is, without validation, creating or replacing it and notifying watches: seeds Pods
    /// with a status, Nodes, owners, or Events that a client could not create.
    ///
    /// `apiVersion`, `kind` and `metadata.name` are required; a namespaced object without `metadata.namespace`
    /// goes to `default`. `uid` and `creationTimestamp` are kept when given, and set otherwise;
    /// `resourceVersion` is always assigned. An unknown kind is registered with a guessed plural (`GPUPool` →
    /// `gpupools`), namespaced when the object has a namespace. Events may be given in either API's form.
    /// Returns the stored object as its API serves it.
    pub fn insert(&self, object: Value) -> Result<Value, Error> {
        let api_version = object
            .get("apiVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::InvalidObject("apiVersion is required".into()))?;
        let kind = object
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::InvalidObject("kind is required".into()))?;
        let mut st = self.shared.lock();
        let rt = match st.find_kind(api_version, kind) {
            Some(rt) => rt,
            None => {
                let (group, version) = resource::split_api_version(api_version);
                let namespaced = !meta_str(&object, "namespace").is_empty();
                let rt = ResourceType::new(group, version, resource::guess_plural(kind), kind, namespaced);
                st.register(rt.clone());
                rt
            }
        };
        let mut stored = if rt.is_event() {
            Value::Object(event::decode(&object, EventApi::of(&rt.group)).map_err(|e| Error::InvalidObject(e.message))?)
        } else {
            let mut o = object.clone();
            let meta = event::canonical_metadata(o.get("metadata").unwrap_or(&Value::Null))
                .map_err(|e| Error::InvalidObject(e.message))?;
            o["metadata"] = Value::Object(meta);
            o
        };
        let name = meta_str(&stored, "name").to_string();
        if name.is_empty() {
            return Err(Error::InvalidObject("metadata.name is required".into()));
        }
        let namespace = if rt.namespaced {
            let ns = meta_str(&stored, "namespace");
            if ns.is_empty() { "default".to_string() } else { ns.to_string() }
        } else {
            String::new()
        };
        if rt.namespaced {
            set_meta(&mut stored, "namespace", json!(namespace));
        }
        st.fill_system_fields(&mut stored);
        let stored = st.put((rt.storage(), namespace, name), stored);
        Ok(render(&rt, &stored, true))
    }

    /// The stored object, as `resource`'s API serves it (`namespace` is ignored for cluster-scoped types).
    pub fn get(&self, resource: &ResourceType, namespace: Option<&str>, name: &str) -> Option<Value> {
        let ns = if resource.namespaced { namespace.unwrap_or("default") } else { "" };
        let st = self.shared.lock();
        st.objects.get(&(resource.storage(), ns.to_string(), name.to_string())).map(|o| render(resource, o, true))
    }

    /// Every stored object of `resource`, as its API serves it, ordered by namespace and name. Both Event types
    /// return all Events, each in its own form.
    pub fn objects(&self, resource: &ResourceType) -> Vec<Value> {
        let storage = resource.storage();
        let st = self.shared.lock();
        st.objects.iter().filter(|(k, _)| k.0 == storage).map(|(_, o)| render(resource, o, true)).collect()
    }

    /// Every Event in events.k8s.io/v1 form.
    pub fn events(&self) -> Vec<Value> {
        self.objects(&ResourceType::EVENTS_V1)
    }

    /// Every Event in core/v1 form.
    pub fn core_events(&self) -> Vec<Value> {
        self.objects(&ResourceType::CORE_EVENTS)
    }

    /// Deletes an object (watches see DELETED), returning its last state; e.g. to expire an Event as its TTL would.
    pub fn remove(&self, resource: &ResourceType, namespace: Option<&str>, name: &str) -> Option<Value> {
        let ns = if resource.namespaced { namespace.unwrap_or("default") } else { "" };
        let mut st = self.shared.lock();
        st.delete(&(resource.storage(), ns.to_string(), name.to_string())).map(|o| render(resource, &o, true))
    }

    /// Moves the server's clock forward by `by` for Event expiry ([`ServerConfig::event_ttl`]); the Events whose
    /// TTL has then run out are deleted at once (watches see DELETED). Returns how many. Other timing is unchanged.
    pub fn advance_clock(&self, by: Duration) -> usize {
        self.shared.lock().advance_clock(by)
    }

    /// The current (latest) resourceVersion.
    pub fn resource_version(&self) -> u64 {
        self.shared.lock().rv
    }

    /// Compacts the history: any watch, `Exact` list or `continue` from a resourceVersion older than the current
    /// one now gets 410 Gone (`Expired`).
    pub fn compact(&self) {
        self.shared.lock().compact();
    }

    /// The oldest resourceVersion a watch can still start from.
    pub fn compacted_resource_version(&self) -> u64 {
        self.shared.lock().compacted_rv
    }

    // ---- watches ----

    /// Sends a BOOKMARK with the current resourceVersion to every open watch that allows bookmarks.
    pub fn bookmark(&self) {
        self.shared.lock().bookmark_all();
    }

    /// Ends every open watch cleanly (the response completes, as when `timeoutSeconds` runs out).
    pub fn close_watches(&self) {
        self.shared.lock().end_watches(false);
    }

    /// Cuts every open watch's connection mid-stream: clients see a transport error.
    pub fn drop_watches(&self) {
        self.shared.lock().end_watches(true);
    }

    /// How many watches are open (a watch whose client has gone may be counted until its next event).
    pub fn open_watches(&self) -> usize {
        self.shared.lock().open_watches()
    }

    /// Waits until at least `n` watches are open, polling every 5 ms; false after `timeout`.
    pub async fn wait_for_watches(&self, n: usize, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if self.open_watches() >= n {
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

#[cfg(feature = "kube")]
impl ApiServer {
    /// A `kube::Config` for this server (kube's defaults, including its retry of 429/503/504).
    pub fn kube_config(&self) -> kube::Config {
        kube::Config::new(self.url().parse().expect("the server URL is a valid URI"))
    }

    /// A kube client as users build it from a `Config`: it retries 429, 503 and 504 (honouring `Retry-After`).
    ///
    /// # Panics
    /// If kube cannot build a client (it can for a plain-HTTP loopback URL).
    pub fn client(&self) -> kube::Client {
        kube::Client::try_from(self.kube_config()).expect("kube builds a client for a loopback URL")
    }

    /// A kube client that does not retry, so every injected error reaches the caller.
    ///
    /// # Panics
    /// If kube cannot build a client.
    pub fn client_without_retry(&self) -> kube::Client {
        let mut config = self.kube_config();
        config.default_retry = false;
        kube::Client::try_from(config).expect("kube builds a client for a loopback URL")
    }
}
