//! Watch and paginated list over real HTTP with kube-rs: resourceVersion, 410 Gone, bookmarks, selectors.

mod common;

use common::event;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use gpu_events_testkit::{ApiServer, ExpiredWatch, ResourceType, ServerConfig};
use k8s_openapi::api::core::v1::{Event as CoreEvent, Pod};
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::json;

fn series(count: i32) -> Patch<serde_json::Value> {
    Patch::Merge(json!({"series": {"count": count, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}}))
}

/// (type, name, resourceVersion) of a watch event.
fn describe(e: &WatchEvent<Event>) -> (String, String, u64) {
    let (ty, obj) = match e {
        WatchEvent::Added(o) => ("ADDED", o),
        WatchEvent::Modified(o) => ("MODIFIED", o),
        WatchEvent::Deleted(o) => ("DELETED", o),
        other => panic!("unexpected {other:?}"),
    };
    let rv = obj.metadata.resource_version.as_deref().unwrap().parse().unwrap();
    (ty.to_string(), obj.metadata.name.clone().unwrap(), rv)
}

const WAIT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn watch_delivers_changes_in_order_from_a_resource_version() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    events.create(&pp, &event("e.1")).await.unwrap();
    let list = events.list(&ListParams::default()).await.unwrap();
    let rv = list.metadata.resource_version.unwrap();

    // Changes made after the list but before the watch starts are replayed from the history.
    events.create(&pp, &event("e.2")).await.unwrap();
    let mut stream = events.watch(&WatchParams::default().timeout(10), &rv).await.unwrap().boxed();
    events.patch("e.2", &PatchParams::default(), &series(2)).await.unwrap();
    events.delete("e.1", &DeleteParams::default()).await.unwrap();
    server.remove(&ResourceType::EVENTS_V1, Some("ml"), "e.2");

    let mut seen = Vec::new();
    for _ in 0..4 {
        let e = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
        seen.push(describe(&e));
    }
    let kinds: Vec<(&str, &str)> = seen.iter().map(|(t, n, _)| (t.as_str(), n.as_str())).collect();
    assert_eq!(kinds, [("ADDED", "e.2"), ("MODIFIED", "e.2"), ("DELETED", "e.1"), ("DELETED", "e.2")]);
    assert!(seen.windows(2).all(|w| w[0].2 < w[1].2), "resourceVersions increase: {seen:?}");
    assert_eq!(seen[3].2, server.resource_version());

    // A watch without resourceVersion ("0" in kube's API) starts with the current state as ADDED.
    events.create(&pp, &event("e.3")).await.unwrap();
    let mut fresh = events.watch(&WatchParams::default().timeout(10), "0").await.unwrap().boxed();
    let first = tokio::time::timeout(WAIT, fresh.try_next()).await.unwrap().unwrap().unwrap();
    assert_eq!(describe(&first).0, "ADDED");
    assert_eq!(describe(&first).1, "e.3");
}

#[tokio::test]
async fn both_apis_watch_the_same_events() {
    let server = ApiServer::start().await;
    let client = server.client();
    let v1: Api<Event> = Api::namespaced(client.clone(), "ml");
    let core: Api<CoreEvent> = Api::all(client.clone());
    let rv = server.resource_version().to_string();
    let mut stream =
        core.watch(&WatchParams::default().fields("involvedObject.name=llama-0"), &rv).await.unwrap().boxed();
    v1.create(&PostParams::default(), &event("e.1")).await.unwrap();
    match tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap() {
        WatchEvent::Added(e) => {
            assert_eq!(e.message.as_deref(), Some("Waiting for gang members: 2/4 ready"));
            assert_eq!(e.reporting_component.as_deref(), Some("tensor-fusion.ai/gang"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn expired_resource_versions_get_410_gone() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    let old = server.resource_version();
    events.create(&PostParams::default(), &event("e.2")).await.unwrap();
    server.compact();
    assert_eq!(server.compacted_resource_version(), server.resource_version());

    // As kube-apiserver: 200 and an ERROR event carrying a 410 Expired Status, then the stream ends.
    let mut stream = events.watch(&WatchParams::default(), &old.to_string()).await.unwrap().boxed();
    match stream.try_next().await.unwrap().unwrap() {
        WatchEvent::Error(status) => {
            assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
            assert_eq!(status.message, "The resourceVersion for the provided watch is too old.");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(stream.try_next().await.unwrap().is_none());

    // The current resourceVersion still works.
    let now = server.resource_version().to_string();
    let mut ok = events.watch(&WatchParams::default().timeout(10), &now).await.unwrap().boxed();
    events.create(&PostParams::default(), &event("e.3")).await.unwrap();
    let e = tokio::time::timeout(WAIT, ok.try_next()).await.unwrap().unwrap().unwrap();
    assert_eq!(describe(&e).1, "e.3");

    // An Exact list at an expired resourceVersion is 410 too.
    let lp = ListParams::default().at(&old.to_string()).matching(kube::api::VersionMatch::Exact);
    match events.list(&lp).await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        other => panic!("unexpected {other:?}"),
    }

    // Or as an HTTP 410, when configured so.
    let strict =
        ApiServer::start_with(ServerConfig::default().history_limit(1).expired_watch(ExpiredWatch::HttpGone)).await;
    let events: Api<Event> = Api::namespaced(strict.client(), "ml");
    let start = strict.resource_version().to_string();
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    events.create(&PostParams::default(), &event("e.2")).await.unwrap();
    match events.watch(&WatchParams::default(), &start).await {
        Err(kube::Error::Api(s)) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        Err(other) => panic!("unexpected {other:?}"),
        Ok(_) => panic!("expected 410"),
    }
}

#[tokio::test]
async fn bookmarks_and_initial_events() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();

    let rv = server.resource_version().to_string();
    let mut stream = events.watch(&WatchParams::default().timeout(10), &rv).await.unwrap().boxed();
    assert!(server.wait_for_watches(1, WAIT).await);
    server.bookmark();
    match tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap() {
        WatchEvent::Bookmark(b) => assert_eq!(b.metadata.resource_version, rv),
        other => panic!("unexpected {other:?}"),
    }

    // sendInitialEvents: the current state, then a bookmark marking its end.
    let wp = WatchParams::streaming_lists().timeout(10);
    let mut streaming = events.watch(&wp, "").await.unwrap().boxed();
    let first = tokio::time::timeout(WAIT, streaming.try_next()).await.unwrap().unwrap().unwrap();
    assert_eq!(describe(&first).1, "e.1");
    match tokio::time::timeout(WAIT, streaming.try_next()).await.unwrap().unwrap().unwrap() {
        WatchEvent::Bookmark(b) => assert_eq!(b.metadata.annotations["k8s.io/initial-events-end"], "true"),
        other => panic!("unexpected {other:?}"),
    }

    // Periodic bookmarks when configured.
    let ticking = ApiServer::start_with(ServerConfig::default().bookmark_interval(Duration::from_millis(20))).await;
    let events: Api<Event> = Api::namespaced(ticking.client(), "ml");
    let mut stream = events.watch(&WatchParams::default().timeout(10), "0").await.unwrap().boxed();
    let e = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    assert!(matches!(e, WatchEvent::Bookmark(_)));
}

#[tokio::test]
async fn watch_timeouts_close_and_drop() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    // timeoutSeconds ends the stream cleanly.
    let mut stream = events.watch(&WatchParams::default().timeout(0), "0").await.unwrap().boxed();
    assert!(tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().is_none());

    let mut closed = events.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    server.close_watches();
    assert!(tokio::time::timeout(WAIT, closed.try_next()).await.unwrap().unwrap().is_none());

    let mut dropped = events.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    assert_eq!(server.open_watches(), 1);
    server.drop_watches();
    // kube reads a chunked body cut short as the end of the watch (its watcher then re-watches);
    // tests/faults.rs checks on the wire that the connection is cut without the final chunk.
    let next = tokio::time::timeout(WAIT, dropped.next()).await.unwrap();
    assert!(!matches!(next, Some(Ok(_))), "{next:?}");
    assert_eq!(server.open_watches(), 0);
}

#[tokio::test]
async fn selector_watches_see_objects_enter_and_leave() {
    let server = ApiServer::start().await;
    let pods: Api<Pod> = Api::namespaced(server.client(), "ml");
    let pod = |phase: &str| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "llama-0", "namespace": "ml",
        "labels": {"app": "llama"}}, "status": {"phase": phase}})
    };
    server.insert(pod("Running")).unwrap();
    let rv = server.resource_version().to_string();
    let wp = WatchParams::default().fields("status.phase=Pending").labels("app=llama").timeout(10);
    let mut stream = pods.watch(&wp, &rv).await.unwrap().boxed();
    server.insert(pod("Pending")).unwrap();
    server.insert(pod("Pending")).unwrap();
    server.insert(pod("Failed")).unwrap();
    let mut kinds = Vec::new();
    for _ in 0..3 {
        let e = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
        kinds.push(match e {
            WatchEvent::Added(p) => ("ADDED", p.status.unwrap().phase.unwrap()),
            WatchEvent::Modified(p) => ("MODIFIED", p.status.unwrap().phase.unwrap()),
            WatchEvent::Deleted(p) => ("DELETED", p.status.unwrap().phase.unwrap()),
            other => panic!("unexpected {other:?}"),
        });
    }
    // Entering the selection is ADDED; leaving it is DELETED with the last matching state.
    let want = [("ADDED", "Pending"), ("MODIFIED", "Pending"), ("DELETED", "Pending")];
    assert_eq!(kinds.iter().map(|(k, p)| (*k, p.as_str())).collect::<Vec<_>>(), want);
}

#[tokio::test]
async fn paginated_lists_are_consistent_snapshots() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    for i in 0..7 {
        events.create(&pp, &event(&format!("e.{i}"))).await.unwrap();
    }
    let page1 = events.list(&ListParams::default().limit(3)).await.unwrap();
    assert_eq!(page1.items.len(), 3);
    assert_eq!(page1.metadata.remaining_item_count, Some(4));
    let rv = page1.metadata.resource_version.clone().unwrap();
    let token = page1.metadata.continue_.clone().unwrap();

    // Changes after the first page do not show in the next pages.
    events.create(&pp, &event("e.9")).await.unwrap();
    events.delete("e.4", &DeleteParams::default()).await.unwrap();
    events.patch("e.5", &PatchParams::default(), &series(2)).await.unwrap();
    let page2 = events.list(&ListParams::default().limit(3).continue_token(&token)).await.unwrap();
    let names: Vec<_> = page2.items.iter().map(|e| e.metadata.name.clone().unwrap()).collect();
    assert_eq!(names, ["e.3", "e.4", "e.5"]);
    assert!(page2.items[2].series.is_none());
    assert_eq!(page2.metadata.resource_version.as_deref(), Some(rv.as_str()));
    let page3 = events
        .list(&ListParams::default().limit(3).continue_token(page2.metadata.continue_.as_deref().unwrap()))
        .await
        .unwrap();
    let names: Vec<_> = page3.items.iter().map(|e| e.metadata.name.clone().unwrap()).collect();
    assert_eq!(names, ["e.6"]);
    assert!(page3.metadata.continue_.is_none());

    // Once compacted, the token has expired.
    server.compact();
    match events.list(&ListParams::default().limit(3).continue_token(&token)).await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        other => panic!("unexpected {other:?}"),
    }
    // kube's paged list sees everything.
    let all = events.list(&ListParams::default().limit(2)).await.unwrap();
    assert_eq!(all.items.len(), 2);
    assert_eq!(server.events().len(), 7);
}

#[tokio::test]
async fn a_watch_from_a_future_resource_version_is_accepted_and_skips_everything_up_to_it() {
    // kube-apiserver serves Event watches from etcd (no watch cache), which waits for a future revision without
    // an error: what changes up to it is never sent.
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    let future = server.resource_version() + 3;
    let mut stream = events.watch(&WatchParams::default().timeout(10), &future.to_string()).await.unwrap().boxed();
    for i in 1..=5 {
        events.create(&pp, &event(&format!("e.{i}"))).await.unwrap();
    }
    server.bookmark();
    let first = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    let (kind, _, rv) = describe(&first);
    assert_eq!((kind.as_str(), rv), ("ADDED", future + 1), "the first change after the requested resourceVersion");
    let second = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    assert_eq!(describe(&second).2, future + 2);
}

#[tokio::test]
async fn lists_and_initial_event_watches_from_a_future_resource_version_are_too_large() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client_without_retry(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    let future = (server.resource_version() + 100).to_string();

    let params = ListParams::default().limit(1).at(&future).matching(kube::api::VersionMatch::NotOlderThan);
    let Err(kube::Error::Api(status)) = events.list(&params).await else { panic!("a list from the future succeeded") };
    assert_eq!((status.code, status.reason.as_str()), (504, "Timeout"), "{status:?}");
    assert!(status.message.starts_with("Timeout: Too large resource version"), "{status:?}");
    let listed = events.list(&ListParams::default().limit(1).at(&server.resource_version().to_string())).await;
    assert!(listed.is_ok(), "the current resourceVersion is fine: {listed:?}");

    let mut params = WatchParams::default().timeout(10);
    params.send_initial_events = true;
    let mut stream = events.watch(&params, &future).await.unwrap().boxed();
    let first = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    let WatchEvent::Error(status) = first else { panic!("expected an ERROR event, got {first:?}") };
    assert_eq!(status.code, 504, "{status:?}");
}
