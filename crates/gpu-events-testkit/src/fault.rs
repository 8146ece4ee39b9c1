//! Injected faults: answer matching requests with an error status, drop their connection, or delay them.

use std::time::Duration;

/// What an injected [`Fault`] does to a request it fires on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultAction {
    /// Answer with this HTTP code and a `metav1.Status` body (reason and message default from the code).
    Status {
        /// HTTP status code (404, 409, 410, 429, 500, 503, ...).
        code: u16,
        /// `Status.reason`; the usual one for the code when `None` (`TooManyRequests` for 429, ...).
        reason: Option<String>,
        /// `Status.message`; a generic one for the code when `None`.
        message: Option<String>,
        /// Sent as the `Retry-After` header and `details.retryAfterSeconds`.
        retry_after: Option<u64>,
    },
    /// Close the connection without answering: the client sees a transport error.
    DropConnection,
    /// Handle the request (it takes effect), then close the connection without answering: the
    /// client sees a transport error for a write that happened, as when an answer is lost.
    LoseResponse,
    /// Wait, then handle the request normally.
    Delay(Duration),
    /// Answer `200 OK` with an empty body: a watch that closes at once, or an unreadable answer to anything else.
    EmptyResponse,
}

/// A rule that makes the server misbehave on matching requests.
///
/// A fault matches on method, path prefix and whether the request is a watch, and fires on some of the matching
/// requests: after letting the first [`after`](Fault::after) through, on every [`every`](Fault::every)-th one,
/// at most [`times`](Fault::times) times (once by default). Faults are checked in the order they were injected;
/// the first one that fires decides the request. Every request, faulted or not, is in the request log.
///
/// ```
/// use gpu_events_testkit::Fault;
/// // The next two POSTs of events get 429 with Retry-After: 1.
/// let f = Fault::status(429).retry_after(1).method("POST").path_prefix("/apis/events.k8s.io/").times(2);
/// // Drop the connection of the first watch request.
/// let g = Fault::drop_connection().watch(true);
/// // Every third request fails with 503, forever.
/// let h = Fault::status(503).every(3).forever();
/// # let _ = (f, g, h);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub(crate) method: Option<String>,
    pub(crate) path_prefix: Option<String>,
    pub(crate) watch: Option<bool>,
    pub(crate) times: Option<usize>,
    pub(crate) after: usize,
    pub(crate) every: usize,
    pub(crate) action: FaultAction,
    pub(crate) seen: usize,
}

impl Fault {
    /// A fault with this action, matching every request, firing once.
    pub fn new(action: FaultAction) -> Self {
        Fault { method: None, path_prefix: None, watch: None, times: Some(1), after: 0, every: 1, action, seen: 0 }
    }

    /// Answer with an error `code` and a `Status` body (e.g. 404, 409, 410, 429, 500, 503).
    pub fn status(code: u16) -> Self {
        Self::new(FaultAction::Status { code, reason: None, message: None, retry_after: None })
    }

    /// Answer `429 TooManyRequests` with `Retry-After: seconds`.
    pub fn too_many_requests(retry_after_seconds: u64) -> Self {
        Self::status(429).retry_after(retry_after_seconds)
    }

    /// Close the connection without an answer.
    pub fn drop_connection() -> Self {
        Self::new(FaultAction::DropConnection)
    }

    /// Handle the request (it takes effect), then close the connection without the answer.
    pub fn lose_response() -> Self {
        Self::new(FaultAction::LoseResponse)
    }

    /// Delay the request, then handle it normally.
    pub fn delay(delay: Duration) -> Self {
        Self::new(FaultAction::Delay(delay))
    }

    /// Answer `200 OK` with an empty body (a watch that closes at once).
    pub fn empty_response() -> Self {
        Self::new(FaultAction::EmptyResponse)
    }

    /// Match only this HTTP method (`"POST"`, `"PATCH"`, ...; case-insensitive).
    #[must_use]
    pub fn method(mut self, method: &str) -> Self {
        self.method = Some(method.to_ascii_uppercase());
        self
    }

    /// Match only paths starting with `prefix` (e.g. `/apis/events.k8s.io/v1/namespaces/ml/events`).
    #[must_use]
    pub fn path_prefix(mut self, prefix: &str) -> Self {
        self.path_prefix = Some(prefix.to_string());
        self
    }

    /// Match only watch requests (`true`) or only non-watch requests (`false`).
    #[must_use]
    pub fn watch(mut self, watch: bool) -> Self {
        self.watch = Some(watch);
        self
    }

    /// Fire at most `n` times (default 1).
    #[must_use]
    pub fn times(mut self, n: usize) -> Self {
        self.times = Some(n);
        self
    }

    /// Fire on every match, without limit.
    #[must_use]
    pub fn forever(mut self) -> Self {
        self.times = None;
        self
    }

    /// Let the first `n` matching requests through.
    #[must_use]
    pub fn after(mut self, n: usize) -> Self {
        self.after = n;
        self
    }

    /// Fire only on every `k`-th matching request (after the skipped ones): the k-th, 2k-th, ...
    #[must_use]
    pub fn every(mut self, k: usize) -> Self {
        self.every = k.max(1);
        self
    }

    /// Set `Status.reason` of a status fault (e.g. `"AlreadyExists"` for a 409).
    #[must_use]
    pub fn reason(mut self, reason: &str) -> Self {
        if let FaultAction::Status { reason: r, .. } = &mut self.action {
            *r = Some(reason.to_string());
        }
        self
    }

    /// Set `Status.message` of a status fault.
    #[must_use]
    pub fn message(mut self, message: &str) -> Self {
        if let FaultAction::Status { message: m, .. } = &mut self.action {
            *m = Some(message.to_string());
        }
        self
    }

    /// Send `Retry-After: seconds` with a status fault.
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> Self {
        if let FaultAction::Status { retry_after, .. } = &mut self.action {
            *retry_after = Some(seconds);
        }
        self
    }

    /// The action of this fault.
    pub fn action(&self) -> &FaultAction {
        &self.action
    }

    /// How many more times this fault fires (`None`: without limit).
    pub fn remaining(&self) -> Option<usize> {
        self.times
    }

    fn matches(&self, method: &str, path: &str, watch: bool) -> bool {
        self.method.as_deref().is_none_or(|m| m == method)
            && self.path_prefix.as_deref().is_none_or(|p| path.starts_with(p))
            && self.watch.is_none_or(|w| w == watch)
    }

    /// Counts a matching request and says whether the fault fires on it.
    pub(crate) fn check(&mut self, method: &str, path: &str, watch: bool) -> bool {
        if !self.matches(method, path, watch) || self.times == Some(0) {
            return false;
        }
        self.seen += 1;
        if self.seen <= self.after || !(self.seen - self.after).is_multiple_of(self.every) {
            return false;
        }
        if let Some(t) = &mut self.times {
            *t -= 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting() {
        let mut f = Fault::status(503).every(2).after(1).times(2);
        let fired: Vec<bool> = (0..8).map(|_| f.check("GET", "/api", false)).collect();
        assert_eq!(fired, [false, false, true, false, true, false, false, false]);
        let mut g = Fault::drop_connection().method("post").path_prefix("/apis/");
        assert!(!g.check("GET", "/apis/x", false));
        assert!(!g.check("POST", "/api/x", false));
        assert!(g.check("POST", "/apis/x", false));
        assert!(!g.check("POST", "/apis/x", false));
    }
}
