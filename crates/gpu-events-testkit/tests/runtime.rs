//! kube-runtime against the double: the watcher re-watches after cut connections and re-lists after 410 Gone;
//! kube 5.0's own Recorder shows the request pattern and rejection that recorder-semantics.md §1.5–1.6 measured.

use std::time::Duration;

use futures::StreamExt;
use gpu_events_testkit::{ApiServer, Fault, RequestCounter};
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{PostParams, WatchParams};
use kube::runtime::events::{Event as RecorderEvent, EventType, Recorder, Reporter};
use kube::runtime::watcher;
use serde_json::json;
use tokio::sync::mpsc;

fn event(name: &str) -> serde_json::Value {
    json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": name, "namespace": "ml"},
        "eventTime": "2026-11-30T05:40:03.002000Z",
        "reason": "GangWaitingForMembers", "type": "Normal", "action": "Waiting",
        "reportingController": "tensor-fusion.ai/gang", "reportingInstance": "gang-0",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
        "note": "Waiting for gang members: 2/4 ready"
    })
}

fn label(e: &watcher::Event<Event>) -> String {
    let name = |o: &Event| o.metadata.name.clone().unwrap_or_default();
    match e {
        watcher::Event::Init => "Init".into(),
        watcher::Event::InitApply(o) => format!("InitApply {}", name(o)),
        watcher::Event::InitDone => "InitDone".into(),
        watcher::Event::Apply(o) => format!("Apply {}", name(o)),
        watcher::Event::Delete(o) => format!("Delete {}", name(o)),
    }
}

async fn next_labels(rx: &mut mpsc::UnboundedReceiver<String>, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap());
    }
    out
}

#[tokio::test]
async fn the_watcher_rewatches_after_drops_and_relists_after_410() {
    let server = ApiServer::start().await;
    for i in 0..3 {
        server.insert(event(&format!("e.{i}"))).unwrap();
    }
    let api: Api<Event> = Api::namespaced(server.client(), "ml");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        let mut stream = watcher(api, watcher::Config::default().page_size(2)).boxed();
        loop {
            match stream.next().await {
                Some(Ok(e)) => {
                    let _ = tx.send(label(&e));
                }
                Some(Err(e)) => {
                    let _ = tx.send(format!("Err {e}"));
                }
                None => break,
            }
        }
    });
    assert_eq!(next_labels(&mut rx, 5).await, ["Init", "InitApply e.0", "InitApply e.1", "InitApply e.2", "InitDone"]);
    // Two pages were listed, then a watch from the list's resourceVersion.
    assert!(server.wait_for_watches(1, Duration::from_secs(5)).await);
    let lists: Vec<_> = server.requests().into_iter().filter(|r| !r.is_watch()).collect();
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[1].query_param("limit"), Some("2"));
    assert!(lists[1].query_param("continue").is_some());

    server.insert(event("e.3")).unwrap();
    assert_eq!(next_labels(&mut rx, 1).await, ["Apply e.3"]);

    // A cut connection: the watcher re-watches from its last resourceVersion, nothing is replayed or lost.
    server.drop_watches();
    server.insert(event("e.4")).unwrap();
    assert_eq!(next_labels(&mut rx, 1).await, ["Apply e.4"]);

    // The next watch request is held back while the history is compacted past it: 410 Gone, then a re-list.
    server.inject(Fault::delay(Duration::from_millis(150)).watch(true));
    server.close_watches();
    tokio::time::sleep(Duration::from_millis(20)).await;
    server.insert(event("e.5")).unwrap();
    server.compact();
    let got = next_labels(&mut rx, 9).await;
    assert!(
        got[0].starts_with("Err") && got[0].contains("The resourceVersion for the provided watch is too old."),
        "{got:?}"
    );
    assert_eq!(
        got[1..],
        [
            "Init",
            "InitApply e.0",
            "InitApply e.1",
            "InitApply e.2",
            "InitApply e.3",
            "InitApply e.4",
            "InitApply e.5",
            "InitDone"
        ]
    );
    task.abort();
}

#[tokio::test]
async fn kube_recorder_patterns_are_reproduced() {
    let server = ApiServer::start().await;
    let reporter = Reporter { controller: "tensor-fusion.ai/recorder-scenario".into(), instance: Some("op-0".into()) };
    let recorder = Recorder::new(server.client_without_retry(), reporter);
    let pod: ObjectReference = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod", "namespace": "ml", "name": "llama-train-worker-0", "uid": "u-1"}))
    .unwrap();
    for note in ["first note", "second note", "third note"] {
        let ev = RecorderEvent {
            type_: EventType::Normal,
            reason: "GangWaitingForMembers".into(),
            note: Some(note.into()),
            action: "Waiting".into(),
            secondary: None,
        };
        recorder.publish(&ev, &pod).await.unwrap();
    }
    // One POST, then one merge PATCH per repeat; the note stays the first one.
    let writes: Vec<(String, Option<String>)> =
        server.writes().into_iter().map(|r| (r.method, r.content_type)).collect();
    assert_eq!(writes[0].0, "POST");
    let patch = ("PATCH".to_string(), Some("application/merge-patch+json".to_string()));
    assert_eq!(writes[1..], [patch.clone(), patch]);
    let stored = server.events();
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0]["series"]["count"].as_i64(), stored[0]["note"].as_str()), (Some(3), Some("first note")));

    // A 5000-byte note is sent as is and rejected.
    let long = RecorderEvent {
        type_: EventType::Warning,
        reason: "GPUQuotaOrCapacityNotEnough".into(),
        note: Some("é".repeat(2500)),
        action: "Scheduling".into(),
        secondary: None,
    };
    match recorder.publish(&long, &pod).await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!((s.code, s.details.unwrap().causes[0].field.as_str()), (422, "message")),
        other => panic!("unexpected {other:?}"),
    }
    let api: Api<Event> = Api::namespaced(server.client(), "ml");
    assert_eq!(api.list(&Default::default()).await.unwrap().items.len(), 1);
}

/// The request counter logs what the client sent exactly as the double received it: method, path, query and the
/// status answered, a refused create and a watch included; `clear` forgets.
#[tokio::test]
async fn the_request_counter_sees_what_the_server_received() {
    let server = ApiServer::start().await;
    let counter = RequestCounter::new();
    let events: Api<Event> = Api::namespaced(counter.wrap(server.client_without_retry()), "ml");
    let created: Event = serde_json::from_value(event("llama-0.1")).unwrap();
    events.create(&PostParams::default(), &created).await.unwrap();
    let again = events.create(&PostParams::default(), &created).await.unwrap_err();
    assert!(matches!(again, kube::Error::Api(ref s) if s.code == 409), "{again:?}");
    assert!(events.get_opt("absent").await.unwrap().is_none());
    let mut watch = events.watch(&WatchParams::default().timeout(1), "0").await.unwrap().boxed();
    while watch.next().await.is_some() {}

    let sent = counter.requests();
    let received = server.requests();
    let seen = |method: &str, path: &str, status: Option<u16>| (method.to_owned(), path.to_owned(), status);
    assert_eq!(
        sent.iter().map(|r| seen(&r.method, &r.path, r.status)).collect::<Vec<_>>(),
        received.iter().map(|r| seen(&r.method, &r.path, r.status)).collect::<Vec<_>>()
    );
    assert_eq!(sent.iter().map(|r| r.status).collect::<Vec<_>>(), [Some(201), Some(409), Some(404), Some(200)]);
    assert_eq!(sent.iter().filter(|r| r.rejected()).count(), 2);
    assert_eq!(sent.iter().filter(|r| r.is_write()).count(), 2);
    assert!(sent[3].is_watch() && sent[3].query_param("allowWatchBookmarks") == Some("true"), "{:?}", sent[3]);
    assert_eq!(sent[3].query, received[3].query);
    counter.clear();
    assert!(counter.requests().is_empty());
}
