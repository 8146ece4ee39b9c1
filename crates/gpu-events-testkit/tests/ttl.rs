//! Event expiry by TTL (`--event-ttl`), over real HTTP with kube-rs, on the server's own clock.

mod common;

use common::event;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use gpu_events_testkit::{ApiServer, ResourceType, ServerConfig};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::json;

const HOUR: Duration = Duration::from_secs(3600);
const MINUTE: Duration = Duration::from_secs(60);
const WAIT: Duration = Duration::from_secs(5);

fn series(count: i32) -> Patch<serde_json::Value> {
    Patch::Merge(json!({"series": {"count": count, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}}))
}

#[tokio::test]
async fn events_expire_a_ttl_after_their_last_write_and_watches_see_deleted() {
    let server = ApiServer::start_with(ServerConfig::default().event_ttl(HOUR)).await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    events.create(&pp, &event("quiet.1")).await.unwrap();
    events.create(&pp, &event("repeating.1")).await.unwrap();
    let rv = server.resource_version().to_string();
    let mut stream = events.watch(&WatchParams::default().timeout(30), &rv).await.unwrap().boxed();

    // Half way through its TTL, one Event is updated: its lease starts again.
    assert_eq!(server.advance_clock(30 * MINUTE), 0);
    events.patch("repeating.1", &PatchParams::default(), &series(2)).await.unwrap();
    let modified = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    assert!(matches!(modified, WatchEvent::Modified(_)), "{modified:?}");

    // An hour after creation, the one never updated is gone; the other lives on.
    assert_eq!(server.advance_clock(30 * MINUTE), 1);
    let deleted = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    let WatchEvent::Deleted(gone) = deleted else { panic!("expected DELETED, got {deleted:?}") };
    assert_eq!(gone.metadata.name.as_deref(), Some("quiet.1"));
    assert_eq!(gone.metadata.resource_version, Some(server.resource_version().to_string()));
    assert!(events.get_opt("quiet.1").await.unwrap().is_none());
    assert!(events.get_opt("repeating.1").await.unwrap().is_some());

    // An hour after its update, it goes too.
    assert_eq!(server.advance_clock(30 * MINUTE - Duration::from_secs(1)), 0);
    assert_eq!(server.advance_clock(Duration::from_secs(1)), 1);
    let deleted = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    assert!(matches!(&deleted, WatchEvent::Deleted(e) if e.metadata.name.as_deref() == Some("repeating.1")));
    assert!(server.events().is_empty());
}

#[tokio::test]
async fn only_events_expire_and_seeded_events_expire_too() {
    let server = ApiServer::start_with(ServerConfig::default().event_ttl(HOUR)).await;
    server
        .insert(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "llama-0", "namespace": "ml"}}))
        .unwrap();
    server
        .insert(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "llama-0.1", "namespace": "ml"},
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
            "reason": "FailedScheduling", "type": "Warning", "count": 1, "message": "0/3 nodes are available"}))
        .unwrap();
    assert_eq!(server.advance_clock(2 * HOUR), 1);
    assert!(server.core_events().is_empty());
    let pods: Api<Pod> = Api::namespaced(server.client(), "ml");
    assert!(pods.get_opt("llama-0").await.unwrap().is_some(), "a Pod has no TTL");
    assert!(server.get(&ResourceType::PODS, Some("ml"), "llama-0").is_some());
}

#[tokio::test]
async fn without_a_ttl_events_stay() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    assert_eq!(server.advance_clock(1000 * HOUR), 0);
    assert_eq!(server.events().len(), 1);
}

#[tokio::test]
async fn the_server_expires_events_on_its_own_clock_too() {
    // The sweeper runs without advance_clock: a short TTL, and a bounded wait for DELETED.
    let server = ApiServer::start_with(ServerConfig::default().event_ttl(Duration::from_millis(200))).await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    events.create(&PostParams::default(), &event("e.1")).await.unwrap();
    let rv = server.resource_version().to_string();
    let mut stream = events.watch(&WatchParams::default().timeout(30), &rv).await.unwrap().boxed();
    let deleted = tokio::time::timeout(WAIT, stream.try_next()).await.unwrap().unwrap().unwrap();
    assert!(matches!(deleted, WatchEvent::Deleted(_)), "{deleted:?}");
}
