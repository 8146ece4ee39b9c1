//! Owner resolution: the workload an event's object belongs to (Pod -> ReplicaSet -> Deployment,
//! Pod -> Job -> CronJob, StatefulSet, DaemonSet, TensorFusionWorkload, ...), read from
//! *controller* `ownerReferences` with metadata-only GETs, remembered in a bounded cache with a
//! TTL, and fetched under a client-side rate limit.
//!
//! ```no_run
//! # async fn demo(client: kube::Client, record: gpu_events_core::EventRecord) -> Result<(), Box<dyn std::error::Error>> {
//! use gpu_events_export::owner::{OwnerConfig, OwnerResolver};
//!
//! let resolver = OwnerResolver::new(client, OwnerConfig::default())?;
//! if let Some(owner) = resolver.resolve(&record).await {
//!     println!("{}", owner.key()); // Deployment/ml/llama
//! }
//! # Ok(()) }
//! ```
//!
//! # What `resolve` answers
//! - The **top controller owner** of the event's `regarding` object: each object's controller
//!   reference (`ownerReferences[*].controller == true`) is followed until an object has none.
//! - An object **without a controller owner is its own owner**: a bare Pod gives `Pod/ns/name`, a
//!   Node gives `Node/name`. So is an object that is gone (404) or that RBAC hides (403): the
//!   answer is the highest object that could be seen.
//! - A Pod without a controller reference but with the label `tensor-fusion.ai/workload: NAME` is
//!   owned by the `TensorFusionWorkload` `NAME` (`tensor-fusion.ai/v1`) of its namespace.
//! - An owner whose kind is not in the table of fetchable kinds (Kueue, LeaderWorkerSet,
//!   RayCluster, ... unless added with [`OwnerConfig::extra_kinds`]) is returned as the top owner
//!   **without being fetched**; it is assumed to live in its child's namespace.
//! - `None` when resolution is disabled, when the record has no `regarding` kind and name, when a
//!   lookup it needs is skipped by the rate limiter, or when a request fails with anything but
//!   404/403 (5xx, a transport error, a timeout). Those are never cached, so a later record asks
//!   again.
//!
//! # Requests
//! Every object's direct controller owner is cached (positive and negative answers), keyed by
//! (kind, namespace, name, uid), for [`OwnerConfig::ttl`], in an LRU of
//! [`OwnerConfig::cache_size`] entries. Fetches are made one at a time, so an object is fetched at
//! most once per TTL however many records name it: resolving one object costs at most its chain
//! length in requests, and a sibling (another Pod of the same ReplicaSet) one request. An object
//! whose current uid differs from the one asked for (deleted and recreated under the same name) is
//! treated as gone. Chains are cut after [`MAX_DEPTH`] objects and at cycles.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use gpu_events_core::EventRecord;
use gpu_events_core::record::ObjectReference;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use lru::LruCache;
use tokio::time::Instant;

use crate::record::Owner;

/// The longest owner chain followed (objects, the regarding object included); deeper chains and
/// cycles end at the last object reached.
pub const MAX_DEPTH: usize = 8;

/// The label TensorFusion puts on the Pods of a workload: `tensor-fusion.ai/workload: NAME`.
pub const TENSOR_FUSION_WORKLOAD_LABEL: &str = "tensor-fusion.ai/workload";

/// A kind whose objects the resolver can fetch (to read their own controller owner).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OwnerKind {
    /// API group, empty for the core group (`""`, `apps`, `batch`, `ray.io`).
    pub group: String,
    /// Version used when the reference names none (an `apiVersion` in the reference wins).
    pub version: String,
    /// Kind (`RayCluster`).
    pub kind: String,
    /// Plural resource name used in URLs (`rayclusters`).
    pub plural: String,
    /// Whether objects live in a namespace.
    pub namespaced: bool,
}

impl OwnerKind {
    /// A fetchable kind: group (empty for core), version, kind, plural and scope.
    pub fn new(
        group: impl Into<String>,
        version: impl Into<String>,
        kind: impl Into<String>,
        plural: impl Into<String>,
        namespaced: bool,
    ) -> Self {
        OwnerKind { group: group.into(), version: version.into(), kind: kind.into(), plural: plural.into(), namespaced }
    }

    /// The built-in fetchable kinds: Pod, ReplicaSet, Deployment, StatefulSet, DaemonSet, Job,
    /// CronJob and `tensor-fusion.ai/v1` TensorFusionWorkload. Each needs RBAC `get` on its
    /// resource (`pods`, `replicasets.apps`, ...); without it the chain ends at that object.
    pub fn builtin() -> Vec<OwnerKind> {
        [
            ("", "Pod", "pods"),
            ("apps", "ReplicaSet", "replicasets"),
            ("apps", "Deployment", "deployments"),
            ("apps", "StatefulSet", "statefulsets"),
            ("apps", "DaemonSet", "daemonsets"),
            ("batch", "Job", "jobs"),
            ("batch", "CronJob", "cronjobs"),
            ("tensor-fusion.ai", "TensorFusionWorkload", "tensorfusionworkloads"),
        ]
        .into_iter()
        .map(|(group, kind, plural)| OwnerKind::new(group, "v1", kind, plural, true))
        .collect()
    }
}

/// Owner resolution settings. Build it from [`Default`] and set the fields you need (the struct
/// is `#[non_exhaustive]`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct OwnerConfig {
    /// Whether owners are resolved at all (default `false`: no request is made and
    /// [`OwnerResolver::resolve`] answers `None`).
    pub enabled: bool,
    /// Sustained metadata requests per second (default [`OwnerConfig::DEFAULT_QPS`]; finite, > 0).
    pub qps: f64,
    /// Requests allowed in a burst above `qps` (default [`OwnerConfig::DEFAULT_BURST`]; ≥ 1).
    pub burst: u32,
    /// Objects remembered, the least recently used dropped first (default
    /// [`OwnerConfig::DEFAULT_CACHE_SIZE`]; ≥ 1).
    pub cache_size: usize,
    /// How long an answer is remembered, positive or negative (default
    /// [`OwnerConfig::DEFAULT_TTL`]; > 0).
    pub ttl: Duration,
    /// How long one metadata request may take before it counts as an error (default
    /// [`OwnerConfig::DEFAULT_REQUEST_TIMEOUT`]; > 0).
    pub request_timeout: Duration,
    /// Kinds to fetch besides [`OwnerKind::builtin`] (e.g. `ray.io/v1` RayCluster to reach its
    /// RayJob); a kind given here replaces a built-in one with the same group and kind.
    pub extra_kinds: Vec<OwnerKind>,
}

impl OwnerConfig {
    /// The default of [`qps`](OwnerConfig::qps): metadata GETs per second, the only place this
    /// number is written (the config file's docs and `gpu-events export --help` show it).
    pub const DEFAULT_QPS: f64 = 5.0;
    /// The default of [`burst`](OwnerConfig::burst).
    pub const DEFAULT_BURST: u32 = 10;
    /// The default of [`cache_size`](OwnerConfig::cache_size).
    pub const DEFAULT_CACHE_SIZE: usize = 10_000;
    /// The default of [`ttl`](OwnerConfig::ttl).
    pub const DEFAULT_TTL: Duration = Duration::from_secs(600);
    /// The default of [`request_timeout`](OwnerConfig::request_timeout).
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
}

impl Default for OwnerConfig {
    fn default() -> Self {
        OwnerConfig {
            enabled: false,
            qps: Self::DEFAULT_QPS,
            burst: Self::DEFAULT_BURST,
            cache_size: Self::DEFAULT_CACHE_SIZE,
            ttl: Self::DEFAULT_TTL,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
            extra_kinds: Vec::new(),
        }
    }
}

/// Why an [`OwnerConfig`] cannot be used; names the setting and what to give instead.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OwnerError {
    /// A setting is out of range.
    #[error("owner resolution: {field} = {value}: {fix}")]
    InvalidConfig {
        /// The [`OwnerConfig`] field (`qps`, `burst`, `cacheSize`, `ttl`, `requestTimeout`, `extraKinds`).
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        fix: &'static str,
    },
}

/// A snapshot of the resolver's counters (all monotonic since [`OwnerResolver::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OwnerCounters {
    /// Calls of [`OwnerResolver::resolve`] that looked for an owner (enabled, with a regarding
    /// kind and name).
    pub lookups: u64,
    /// Of `lookups`: those that answered an owner.
    pub resolved: u64,
    /// Objects of a chain answered from the cache (one lookup may count several).
    pub cache_hits: u64,
    /// Metadata GET requests sent.
    pub requests: u64,
    /// Lookups that answered `None` because the rate limiter had no token.
    pub skipped_rate_limited: u64,
    /// Requests that failed, for any reason (404 and 403 included, timeouts too).
    pub errors: u64,
    /// Of `errors`: 404 Not Found (the object is gone, or its resource type is not served).
    pub not_found: u64,
    /// Of `errors`: 403 Forbidden (RBAC does not allow `get` on the resource).
    pub forbidden: u64,
}

#[derive(Debug, Default)]
struct Counters {
    lookups: AtomicU64,
    resolved: AtomicU64,
    cache_hits: AtomicU64,
    requests: AtomicU64,
    skipped_rate_limited: AtomicU64,
    errors: AtomicU64,
    not_found: AtomicU64,
    forbidden: AtomicU64,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// (kind, namespace, name, uid)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ObjKey {
    kind: String,
    namespace: Option<String>,
    name: String,
    uid: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ObjRef {
    api_version: Option<String>,
    key: ObjKey,
}

impl ObjRef {
    fn from_regarding(r: &ObjectReference) -> Option<ObjRef> {
        let nonempty = |s: &Option<String>| s.as_deref().filter(|s| !s.is_empty()).map(str::to_string);
        Some(ObjRef {
            api_version: nonempty(&r.api_version),
            key: ObjKey {
                kind: nonempty(&r.kind)?,
                namespace: nonempty(&r.namespace),
                name: nonempty(&r.name)?,
                uid: nonempty(&r.uid),
            },
        })
    }

    fn group(&self) -> Option<&str> {
        self.api_version.as_deref().map(|av| av.split_once('/').map_or("", |(g, _)| g))
    }

    fn version(&self) -> Option<&str> {
        self.api_version.as_deref().map(|av| av.split_once('/').map_or(av, |(_, v)| v))
    }

    fn into_owner(self) -> Owner {
        Owner::new(self.key.kind, self.key.namespace, self.key.name)
    }
}

struct Entry {
    parent: Option<ObjRef>,
    expires: Instant,
}

/// A token bucket: `burst` tokens, refilled at `qps` per second; never waits.
#[derive(Debug)]
struct TokenBucket {
    qps: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    fn new(qps: f64, burst: u32, now: Instant) -> Self {
        TokenBucket { qps, burst: f64::from(burst), tokens: f64::from(burst), last: now }
    }

    fn try_acquire(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.qps).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What one fetch learnt.
enum Fetched {
    /// The object's controller owner (`None`: no owner, gone, or hidden by RBAC). Cached.
    Parent(Option<ObjRef>),
    /// No token: the lookup is skipped.
    RateLimited,
    /// A failure worth retrying later (not cached).
    Failed,
}

/// Resolves the top controller owner of events' objects; cheap to share (`Arc`) between tasks.
///
/// See the [module documentation](self) for what it answers and what it costs.
pub struct OwnerResolver {
    client: kube::Client,
    config: OwnerConfig,
    kinds: Vec<OwnerKind>,
    cache: Mutex<LruCache<ObjKey, Entry>>,
    bucket: Mutex<TokenBucket>,
    /// Held while fetching, so an object is fetched once however many lookups want it.
    fetching: tokio::sync::Mutex<()>,
    /// Resources on which a 403 was already logged.
    warned: Mutex<HashSet<String>>,
    counters: Counters,
}

impl std::fmt::Debug for OwnerResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnerResolver").field("config", &self.config).finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl OwnerResolver {
    /// A resolver using `client` (its RBAC needs `get` on every kind it fetches; see
    /// [`OwnerKind::builtin`]).
    ///
    /// # Errors
    /// [`OwnerError::InvalidConfig`] when `qps` is not a finite number > 0, `burst` or
    /// `cache_size` is 0, `ttl` or `request_timeout` is zero, or an extra kind has an empty kind,
    /// version or plural.
    pub fn new(client: kube::Client, config: OwnerConfig) -> Result<OwnerResolver, OwnerError> {
        let invalid = |field, value: String, fix| Err(OwnerError::InvalidConfig { field, value, fix });
        if !(config.qps.is_finite() && config.qps > 0.0) {
            return invalid("qps", config.qps.to_string(), "give a number of requests per second above 0, e.g. 5");
        }
        if config.burst == 0 {
            return invalid("burst", "0".into(), "give at least 1 (requests allowed at once)");
        }
        if config.cache_size == 0 {
            return invalid("cacheSize", "0".into(), "give at least 1 (objects remembered), e.g. 10000");
        }
        if config.ttl.is_zero() {
            return invalid("ttl", "0s".into(), "give a duration above zero, e.g. 10m");
        }
        if config.request_timeout.is_zero() {
            return invalid("requestTimeout", "0s".into(), "give a duration above zero, e.g. 5s");
        }
        let mut kinds = OwnerKind::builtin();
        for extra in &config.extra_kinds {
            if extra.kind.is_empty() || extra.version.is_empty() || extra.plural.is_empty() {
                return invalid(
                    "extraKinds",
                    format!("{extra:?}"),
                    "give each kind a kind, a version and a plural (group empty for the core group)",
                );
            }
            kinds.retain(|k| !(k.group == extra.group && k.kind == extra.kind));
            kinds.push(extra.clone());
        }
        Ok(OwnerResolver {
            client,
            kinds,
            // Unbounded storage, bounded by hand: `LruCache::new` would allocate all of
            // `cache_size` up front.
            cache: Mutex::new(LruCache::unbounded()),
            bucket: Mutex::new(TokenBucket::new(config.qps, config.burst, Instant::now())),
            fetching: tokio::sync::Mutex::new(()),
            warned: Mutex::new(HashSet::new()),
            counters: Counters::default(),
            config,
        })
    }

    /// Whether resolution is on ([`OwnerConfig::enabled`]).
    pub fn enabled(&self) -> bool {
        self.config.enabled
    }

    /// The top controller owner of `record.regarding`, or `None` (disabled, no regarding object,
    /// skipped by the rate limiter, or a transient API error); see the [module
    /// documentation](self). Never panics, never waits for a token, and waits at most
    /// [`OwnerConfig::request_timeout`] per request it makes.
    pub async fn resolve(&self, record: &EventRecord) -> Option<Owner> {
        if !self.config.enabled {
            return None;
        }
        let mut current = ObjRef::from_regarding(&record.regarding)?;
        bump(&self.counters.lookups);
        let mut seen: Vec<ObjKey> = Vec::new();
        let mut fetch_guard = None;
        while seen.len() < MAX_DEPTH && !seen.contains(&current.key) {
            seen.push(current.key.clone());
            let Some(kind) = self.kind_of(&current) else { break };
            let parent = match self.cached(&current.key) {
                Some(parent) => parent,
                None => {
                    if fetch_guard.is_none() {
                        fetch_guard = Some(self.fetching.lock().await);
                    }
                    // Another lookup may have fetched it while this one waited.
                    match self.cached(&current.key) {
                        Some(parent) => parent,
                        None => match self.fetch(&current, &kind).await {
                            Fetched::Parent(parent) => parent,
                            Fetched::RateLimited => {
                                bump(&self.counters.skipped_rate_limited);
                                return None;
                            }
                            Fetched::Failed => return None,
                        },
                    }
                }
            };
            match parent {
                Some(parent) => current = parent,
                None => break,
            }
        }
        bump(&self.counters.resolved);
        Some(current.into_owner())
    }

    /// The counters so far.
    pub fn counters(&self) -> OwnerCounters {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        OwnerCounters {
            lookups: get(&c.lookups),
            resolved: get(&c.resolved),
            cache_hits: get(&c.cache_hits),
            requests: get(&c.requests),
            skipped_rate_limited: get(&c.skipped_rate_limited),
            errors: get(&c.errors),
            not_found: get(&c.not_found),
            forbidden: get(&c.forbidden),
        }
    }

    /// Objects in the cache now (expired entries included until they are looked up or evicted);
    /// at most [`OwnerConfig::cache_size`].
    pub fn cache_len(&self) -> usize {
        lock(&self.cache).len()
    }

    fn kind_of(&self, obj: &ObjRef) -> Option<OwnerKind> {
        let group = obj.group();
        self.kinds.iter().find(|k| k.kind == obj.key.kind && group.is_none_or(|g| g == k.group)).cloned()
    }

    /// The cached parent, if the object is cached and fresh (counts a hit).
    fn cached(&self, key: &ObjKey) -> Option<Option<ObjRef>> {
        let mut cache = lock(&self.cache);
        let fresh = cache.get(key).map(|e| (e.expires > Instant::now(), e.parent.clone()));
        match fresh {
            Some((true, parent)) => {
                bump(&self.counters.cache_hits);
                Some(parent)
            }
            Some((false, _)) => {
                cache.pop(key);
                None
            }
            None => None,
        }
    }

    fn remember(&self, key: ObjKey, parent: Option<ObjRef>) {
        let now = Instant::now();
        // A huge TTL means "until evicted"; ~30 years stands in for it without overflowing.
        let expires = now.checked_add(self.config.ttl).unwrap_or_else(|| now + Duration::from_secs(1 << 30));
        let mut cache = lock(&self.cache);
        cache.put(key, Entry { parent, expires });
        while cache.len() > self.config.cache_size {
            cache.pop_lru();
        }
    }

    async fn fetch(&self, obj: &ObjRef, kind: &OwnerKind) -> Fetched {
        let namespace = obj.key.namespace.as_deref();
        if kind.namespaced && namespace.is_none() {
            // A namespaced kind named without a namespace cannot be fetched: it is the top.
            return Fetched::Parent(None);
        }
        if !lock(&self.bucket).try_acquire(Instant::now()) {
            return Fetched::RateLimited;
        }
        let version = obj.version().filter(|v| !v.is_empty()).unwrap_or(&kind.version);
        let gvk = GroupVersionKind::gvk(&kind.group, version, &kind.kind);
        let resource = ApiResource::from_gvk_with_plural(&gvk, &kind.plural);
        let api: Api<DynamicObject> = match namespace.filter(|_| kind.namespaced) {
            Some(ns) => Api::namespaced_with(self.client.clone(), ns, &resource),
            None => Api::all_with(self.client.clone(), &resource),
        };
        bump(&self.counters.requests);
        let answer = tokio::time::timeout(self.config.request_timeout, api.get_metadata(&obj.key.name)).await;
        let meta = match answer {
            Ok(Ok(meta)) => meta.metadata,
            Ok(Err(kube::Error::Api(status))) if status.code == 404 || status.code == 403 => {
                bump(&self.counters.errors);
                if status.code == 404 {
                    bump(&self.counters.not_found);
                } else {
                    bump(&self.counters.forbidden);
                    self.warn_forbidden(kind);
                }
                self.remember(obj.key.clone(), None);
                return Fetched::Parent(None);
            }
            Ok(Err(err)) => {
                bump(&self.counters.errors);
                tracing::debug!(%err, kind = %obj.key.kind, name = %obj.key.name, "owner lookup failed");
                return Fetched::Failed;
            }
            Err(_) => {
                bump(&self.counters.errors);
                tracing::debug!(kind = %obj.key.kind, name = %obj.key.name, "owner lookup timed out");
                return Fetched::Failed;
            }
        };
        let parent = self.parent_of(obj, kind, &meta);
        let uid = meta.uid.filter(|u| !u.is_empty());
        match (&obj.key.uid, &uid) {
            (Some(wanted), Some(found)) if wanted != found => {
                // Recreated under the same name: the object asked about is gone. Remember both.
                self.remember(ObjKey { uid: uid.clone(), ..obj.key.clone() }, parent);
                self.remember(obj.key.clone(), None);
                Fetched::Parent(None)
            }
            _ => {
                self.remember(obj.key.clone(), parent.clone());
                Fetched::Parent(parent)
            }
        }
    }

    /// The controller owner in `meta`, or TensorFusion's workload label on a Pod.
    fn parent_of(&self, child: &ObjRef, kind: &OwnerKind, meta: &kube::api::ObjectMeta) -> Option<ObjRef> {
        let controller = meta
            .owner_references
            .iter()
            .flatten()
            .find(|r| r.controller == Some(true) && !r.kind.is_empty() && !r.name.is_empty());
        if let Some(r) = controller {
            let mut parent = ObjRef {
                api_version: Some(r.api_version.clone()).filter(|a| !a.is_empty()),
                key: ObjKey {
                    kind: r.kind.clone(),
                    namespace: child.key.namespace.clone(),
                    name: r.name.clone(),
                    uid: Some(r.uid.clone()).filter(|u| !u.is_empty()),
                },
            };
            // Owner references point in the child's namespace or at a cluster-scoped object.
            if self.kind_of(&parent).is_some_and(|k| !k.namespaced) {
                parent.key.namespace = None;
            }
            return Some(parent);
        }
        let workload = meta.labels.as_ref().and_then(|l| l.get(TENSOR_FUSION_WORKLOAD_LABEL));
        match workload {
            Some(name) if kind.group.is_empty() && kind.kind == "Pod" && !name.is_empty() => Some(ObjRef {
                api_version: Some("tensor-fusion.ai/v1".into()),
                key: ObjKey {
                    kind: "TensorFusionWorkload".into(),
                    namespace: child.key.namespace.clone(),
                    name: name.clone(),
                    uid: None,
                },
            }),
            _ => None,
        }
    }

    fn warn_forbidden(&self, kind: &OwnerKind) {
        let resource =
            if kind.group.is_empty() { kind.plural.clone() } else { format!("{}.{}", kind.plural, kind.group) };
        if lock(&self.warned).insert(resource.clone()) {
            tracing::warn!(
                %resource,
                "owner resolution: RBAC forbids `get` on {resource}; owner chains stop there. \
                 Grant get on {resource} to the exporter's service account, or turn owner resolution off"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_bucket_refills_at_qps_up_to_burst() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(2.0, 3, t0);
        assert!(b.try_acquire(t0));
        assert!(b.try_acquire(t0));
        assert!(b.try_acquire(t0));
        assert!(!b.try_acquire(t0), "burst of 3 spent");
        assert!(!b.try_acquire(t0 + Duration::from_millis(400)), "0.8 token after 400 ms at 2 qps");
        assert!(b.try_acquire(t0 + Duration::from_millis(500)), "1 token after 500 ms");
        assert!(!b.try_acquire(t0 + Duration::from_millis(500)));
        // A long pause refills to the burst, not beyond.
        let later = t0 + Duration::from_secs(60);
        assert_eq!((0..10).filter(|_| b.try_acquire(later)).count(), 3);
    }

    #[test]
    fn regarding_without_kind_or_name_is_not_looked_up() {
        let mut r = ObjectReference::default();
        r.kind = Some("Pod".into());
        assert!(ObjRef::from_regarding(&r).is_none());
        r.name = Some(String::new());
        assert!(ObjRef::from_regarding(&r).is_none());
        r.name = Some("p".into());
        r.api_version = Some("v1".into());
        let o = ObjRef::from_regarding(&r).unwrap();
        assert_eq!((o.group(), o.version()), (Some(""), Some("v1")));
        r.api_version = Some("tensor-fusion.ai/v1".into());
        let o = ObjRef::from_regarding(&r).unwrap();
        assert_eq!((o.group(), o.version()), (Some("tensor-fusion.ai"), Some("v1")));
    }
}
