//! Injected faults as kube-rs sees them, and on the wire.

mod common;

use common::event;
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use gpu_events_testkit::{ApiServer, Fault, ResourceType};
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{ListParams, Patch, PatchParams, PostParams, WatchParams};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn status_of(err: kube::Error) -> (u16, String) {
    match err {
        kube::Error::Api(s) => (s.code, s.reason),
        other => panic!("expected an API error, got {other:?}"),
    }
}

/// Sends one HTTP/1.1 request on a fresh connection and returns all bytes until the server closes it.
async fn raw(server: &ApiServer, request: &str) -> Vec<u8> {
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut out)).await.unwrap().unwrap_or_default();
    out
}

#[tokio::test]
async fn injected_statuses_reach_the_client() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    let prefix = "/apis/events.k8s.io/v1/namespaces/ml/events";
    server.inject(Fault::too_many_requests(7).method("POST").path_prefix(prefix));
    server.inject(Fault::status(503).method("POST"));
    server.inject(Fault::status(404).method("GET"));
    server.inject(Fault::status(409).reason("AlreadyExists").message("events \"e.1\" already exists").method("POST"));
    server.inject(Fault::status(500).method("PATCH"));
    server.inject(Fault::status(410).method("GET"));

    let pp = PostParams::default();
    match events.create(&pp, &event("e.1")).await.unwrap_err() {
        kube::Error::Api(s) => {
            assert_eq!((s.code, s.reason.as_str()), (429, "TooManyRequests"));
            assert_eq!(s.details.unwrap().retry_after_seconds, 7);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(status_of(events.create(&pp, &event("e.1")).await.unwrap_err()), (503, "ServiceUnavailable".into()));
    assert_eq!(status_of(events.get("e.1").await.unwrap_err()), (404, "NotFound".into()));
    assert_eq!(status_of(events.create(&pp, &event("e.1")).await.unwrap_err()), (409, "AlreadyExists".into()));
    assert_eq!(status_of(events.list(&ListParams::default()).await.unwrap_err()), (410, "Expired".into()));
    // Each fault fired once: now the requests go through.
    events.create(&pp, &event("e.1")).await.unwrap();
    let patch = Patch::Merge(json!({"series": {"count": 2, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}}));
    assert_eq!(status_of(events.patch("e.1", &PatchParams::default(), &patch).await.unwrap_err()).0, 500);
    events.patch("e.1", &PatchParams::default(), &patch).await.unwrap();
    assert!(server.faults().is_empty());

    let log = server.requests();
    let faulted: Vec<u16> = log.iter().filter(|r| r.faulted).map(|r| r.status.unwrap()).collect();
    assert_eq!(faulted, [429, 503, 404, 409, 410, 500]);
    assert_eq!(server.events().len(), 1);
}

#[tokio::test]
async fn kube_default_retry_sees_through_transient_429_and_503() {
    let server = ApiServer::start().await;
    // The client users build from a Config retries 429/503/504 (kube-client's default policy).
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    server.inject(Fault::status(429).method("POST").times(2));
    server.inject(Fault::status(503).method("POST"));
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    let posts: Vec<(Option<u16>, bool)> = server.writes().iter().map(|r| (r.status, r.faulted)).collect();
    assert_eq!(posts, [(Some(429), true), (Some(429), true), (Some(503), true), (Some(201), false)]);
    // A 500 is not retried.
    server.inject(Fault::status(500).method("POST"));
    assert_eq!(status_of(events.create(&PostParams::default(), &event("e.2")).await.unwrap_err()).0, 500);
}

#[tokio::test]
async fn dropped_connections_are_transport_errors() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    server.inject(Fault::drop_connection().method("POST"));
    let err = events.create(&PostParams::default(), &event("e.1")).await.unwrap_err();
    assert!(!matches!(err, kube::Error::Api(_)), "a transport error, not a Status: {err:?}");
    let log = server.requests();
    assert_eq!((log[0].status, log[0].faulted), (None, true));
    // The next request gets a new connection and succeeds.
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();

    // On the wire: the connection closes without a byte of response.
    server.inject(Fault::drop_connection());
    let bytes = raw(&server, "GET /api/v1/namespaces/ml/pods HTTP/1.1\r\nHost: t\r\n\r\n").await;
    assert!(bytes.is_empty(), "{}", String::from_utf8_lossy(&bytes));
}

#[tokio::test]
async fn a_dropped_watch_is_cut_mid_stream() {
    let server = ApiServer::start().await;
    server.insert(serde_json::to_value(event("e.1")).unwrap()).unwrap();
    let addr = server.addr();
    let reader = tokio::spawn(async move {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = "GET /apis/events.k8s.io/v1/namespaces/ml/events?watch=true HTTP/1.1\r\nHost: t\r\n\r\n";
        stream.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out).await;
        out
    });
    assert!(server.wait_for_watches(1, Duration::from_secs(5)).await);
    server.drop_watches();
    let bytes = tokio::time::timeout(Duration::from_secs(5), reader).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert!(text.contains("transfer-encoding: chunked"), "{text}");
    assert!(text.contains("\"type\":\"ADDED\""), "{text}");
    assert!(!text.ends_with("0\r\n\r\n"), "no final chunk: the stream is cut, not ended: {text}");
}

#[tokio::test]
async fn watches_that_close_at_once_and_delays() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    server.inject(Fault::empty_response().watch(true));
    let mut stream = events.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    assert!(stream.try_next().await.unwrap().is_none());

    server.inject(Fault::delay(Duration::from_millis(150)).method("GET"));
    let started = Instant::now();
    events.list(&ListParams::default()).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert!(!server.requests().last().unwrap().faulted, "a delay alone does not change the answer");
}

#[tokio::test]
async fn fail_every_and_skipping() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    server.fail_every(3, 500);
    let mut outcomes = Vec::new();
    for _ in 0..6 {
        outcomes.push(events.list(&ListParams::default()).await.is_ok());
    }
    assert_eq!(outcomes, [true, true, false, true, true, false]);
    server.clear_faults();

    server.inject(Fault::status(503).after(2).times(1));
    let mut results = Vec::new();
    for _ in 0..4 {
        results.push(events.list(&ListParams::default()).await.is_ok());
    }
    assert_eq!(results, [true, true, false, true]);
}

#[tokio::test]
async fn rbac_denials_are_403() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    server.deny("patch", &ResourceType::EVENTS_V1);
    let patch = Patch::Merge(json!({"series": {"count": 2, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}}));
    match events.patch("e.1", &PatchParams::default(), &patch).await.unwrap_err() {
        kube::Error::Api(s) => {
            assert_eq!((s.code, s.reason.as_str()), (403, "Forbidden"));
            assert!(
                s.message.contains("cannot patch resource \"events\" in API group \"events.k8s.io\""),
                "{}",
                s.message
            );
        }
        other => panic!("unexpected {other:?}"),
    }
    server.allow("patch", &ResourceType::EVENTS_V1);
    events.patch("e.1", &PatchParams::default(), &patch).await.unwrap();
}
