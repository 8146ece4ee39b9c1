//! Server settings.

use std::time::Duration;

/// How a watch from a resourceVersion older than the history is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpiredWatch {
    /// `200 OK` and one `{"type":"ERROR","object":<Status 410 Expired>}` line, then the stream ends: what
    /// kube-apiserver does (its watch cache answers this way once the request is accepted).
    #[default]
    ErrorEvent,
    /// An HTTP `410 Gone` answer with a `Status` body (reason `Expired`).
    HttpGone,
}

/// Settings of an [`ApiServer`](crate::ApiServer), built with chained setters.
///
/// ```
/// use gpu_events_testkit::{ExpiredWatch, ServerConfig};
/// use std::time::Duration;
/// let config = ServerConfig::default()
///     .history_limit(100)
///     .bookmark_interval(Duration::from_millis(50))
///     .expired_watch(ExpiredWatch::HttpGone);
/// # let _ = config;
/// ```
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub(crate) history_limit: Option<usize>,
    pub(crate) bookmark_interval: Option<Duration>,
    pub(crate) expired_watch: ExpiredWatch,
    pub(crate) enforce_namespaces: bool,
    pub(crate) record_requests: bool,
    pub(crate) default_watch_timeout: Option<Duration>,
    pub(crate) event_ttl: Option<Duration>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            history_limit: None,
            bookmark_interval: None,
            expired_watch: ExpiredWatch::default(),
            enforce_namespaces: false,
            record_requests: true,
            default_watch_timeout: None,
            event_ttl: None,
        }
    }
}

impl ServerConfig {
    /// Keep only the last `changes` changes for watch resumption and consistent pagination (the compaction
    /// window); older resourceVersions get 410 Gone. Unlimited by default; see also
    /// [`ApiServer::compact`](crate::ApiServer::compact).
    #[must_use]
    pub fn history_limit(mut self, changes: usize) -> Self {
        self.history_limit = Some(changes);
        self
    }

    /// Send a BOOKMARK to every watch that allows bookmarks at this interval (kube-apiserver: about a minute).
    /// None by default; [`ApiServer::bookmark`](crate::ApiServer::bookmark) sends one on demand.
    #[must_use]
    pub fn bookmark_interval(mut self, interval: Duration) -> Self {
        self.bookmark_interval = Some(interval);
        self
    }

    /// How a watch from an expired resourceVersion is refused (default: an ERROR event, as kube-apiserver).
    #[must_use]
    pub fn expired_watch(mut self, mode: ExpiredWatch) -> Self {
        self.expired_watch = mode;
        self
    }

    /// Refuse to create objects in a namespace that is not stored (404) or whose `status.phase` is
    /// `Terminating` (403 with cause `NamespaceTerminating`), as the NamespaceLifecycle admission plugin does.
    /// `default`, `kube-system`, `kube-public` and `kube-node-lease` always exist. Off by default.
    #[must_use]
    pub fn enforce_namespaces(mut self, enforce: bool) -> Self {
        self.enforce_namespaces = enforce;
        self
    }

    /// Keep the request log (on by default; turn off for long soak runs).
    #[must_use]
    pub fn record_requests(mut self, record: bool) -> Self {
        self.record_requests = record;
        self
    }

    /// End watches that give no `timeoutSeconds` after this long (never by default).
    #[must_use]
    pub fn default_watch_timeout(mut self, timeout: Duration) -> Self {
        self.default_watch_timeout = Some(timeout);
        self
    }

    /// Expire Events this long after their last write (create, update or patch), as kube-apiserver's
    /// `--event-ttl` (1 h by default) does: the Event is removed and watches see `DELETED`. Never by default.
    ///
    /// kube-apiserver attaches the TTL as an etcd lease on every write, not only at create: the event registry's
    /// `TTLFunc` returns the TTL for updates too (`pkg/registry/core/event/storage/storage.go`), and the generic
    /// store's update path (`calculateTTL(obj, res.TTL, true)` in `registry/generic/registry/store.go`) puts the
    /// object with a new lease. So an Event that keeps repeating lives on, and the TTL counts from its last
    /// change. (etcd3's lease manager reuses a lease for a few percent of the TTL, so a real server may keep an
    /// Event slightly longer; the double expires it on time.) [`ApiServer::advance_clock`](crate::ApiServer::advance_clock)
    /// moves this clock forward in tests.
    #[must_use]
    pub fn event_ttl(mut self, ttl: Duration) -> Self {
        self.event_ttl = Some(ttl);
        self
    }
}
