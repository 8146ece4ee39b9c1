//! Counting what a kube client sends: a wrapper around any [`kube::Client`] (of the double, of a real
//! kube-apiserver, of a cluster) that logs each request's method, path, query and answered status, so a test can
//! count a component's requests the same way on every server.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use kube::client::Body;

use crate::log::parse_query;

/// One request a counted client sent, and how the server answered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentRequest {
    /// HTTP method (`"GET"`, `"POST"`, `"PATCH"`, ...).
    pub method: String,
    /// URL path, without the query.
    pub path: String,
    /// Decoded query parameters, in order.
    pub query: Vec<(String, String)>,
    /// The HTTP status of the answer; `None` while in flight, or when no answer came (a transport error).
    pub status: Option<u16>,
}

impl SentRequest {
    /// The first value of a query parameter.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        crate::log::query_param(&self.query, name)
    }

    /// Whether this is a watch (`?watch=true` or a `/watch/` path).
    pub fn is_watch(&self) -> bool {
        crate::log::is_watch(&self.path, &self.query)
    }

    /// Whether this request asks to change state (POST, PUT, PATCH, DELETE).
    pub fn is_write(&self) -> bool {
        crate::log::is_write(&self.method)
    }

    /// Whether the server answered with a 4xx status.
    pub fn rejected(&self) -> bool {
        self.status.is_some_and(|s| (400..500).contains(&s))
    }
}

/// A log of the requests sent through the clients it [wrapped](RequestCounter::wrap); clones share the log.
///
/// It sees what the wrapped client sends after that client's own retries (kube's default policy retries
/// 429/503/504 inside the client): wrap a client without retries (`Config::default_retry = false`, e.g.
/// [`ApiServer::client_without_retry`](crate::ApiServer::client_without_retry)) to count every request on the wire.
///
/// ```no_run
/// # async fn demo(server: gpu_events_testkit::ApiServer) {
/// use gpu_events_testkit::RequestCounter;
/// let counter = RequestCounter::new();
/// let client = counter.wrap(server.client_without_retry());
/// // ... run the code under test with `client` ...
/// let creates = counter.requests().iter().filter(|r| r.method == "POST").count();
/// # let _ = creates; }
/// ```
#[derive(Clone, Debug, Default)]
pub struct RequestCounter {
    log: Arc<Mutex<Vec<SentRequest>>>,
}

impl RequestCounter {
    /// An empty log.
    pub fn new() -> Self {
        RequestCounter::default()
    }

    /// A client that sends through `client` and logs each request here; it keeps `client`'s default namespace.
    pub fn wrap(&self, client: kube::Client) -> kube::Client {
        let namespace = client.default_namespace().to_owned();
        kube::Client::new(Counting { client, log: self.log.clone() }, namespace)
    }

    /// The requests so far, in the order they were sent.
    pub fn requests(&self) -> Vec<SentRequest> {
        self.lock().clone()
    }

    /// Forgets the requests so far.
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<SentRequest>> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The service under a counted client: logs, then sends through the wrapped client.
#[derive(Clone)]
struct Counting {
    client: kube::Client,
    log: Arc<Mutex<Vec<SentRequest>>>,
}

type Answer = Result<http::Response<Body>, kube::Error>;

impl tower_service::Service<http::Request<Body>> for Counting {
    type Response = http::Response<Body>;
    type Error = kube::Error;
    type Future = Pin<Box<dyn Future<Output = Answer> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), kube::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let uri = request.uri();
        let sent = SentRequest {
            method: request.method().as_str().to_owned(),
            path: uri.path().to_owned(),
            query: uri.query().map(parse_query).unwrap_or_default(),
            status: None,
        };
        let index = {
            let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            log.push(sent);
            log.len() - 1
        };
        let (client, log) = (self.client.clone(), self.log.clone());
        Box::pin(async move {
            let answer = client.send(request).await;
            if let Ok(response) = &answer {
                let mut log = log.lock().unwrap_or_else(PoisonError::into_inner);
                // A `clear` in the meantime leaves nothing to update.
                if let Some(entry) = log.get_mut(index) {
                    entry.status = Some(response.status().as_u16());
                }
            }
            answer
        })
    }
}
