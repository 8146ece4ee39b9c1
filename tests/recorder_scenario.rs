//! The recorder scenario of `examples/recorder_scenario.rs`, run against the testkit API server
//! (which enforces kube-apiserver's Event rules): what it must achieve.

use std::collections::BTreeSet;

use gpu_events::core::EventRecord;
use gpu_events::core::details::Details;
use gpu_events_testkit::ApiServer;
use serde_json::Value;

#[allow(dead_code)] // `main` needs a kubeconfig; the test calls `run` with the server's client.
#[path = "../examples/recorder_scenario.rs"]
mod scenario;

fn count(event: &Value) -> i64 {
    event.pointer("/series/count").and_then(Value::as_i64).unwrap_or(1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scenario_is_cheap_and_nothing_is_rejected() {
    let server = ApiServer::start().await;
    let stats = scenario::run(server.client_without_retry()).await.unwrap();
    assert_eq!((stats.rejected, stats.failed, stats.dropped()), (0, 0, 0));

    let writes: Vec<_> = server.writes().into_iter().filter(|w| w.path.contains("/events")).collect();
    assert!(writes.iter().all(|w| w.succeeded()), "a request was refused: {writes:#?}");
    let events = server.events();

    let waiting_2_4: Vec<_> = events.iter().filter(|e| e["note"] == "Waiting for gang members: 2/4 ready").collect();
    assert_eq!(waiting_2_4.len(), 1);
    assert_eq!(count(waiting_2_4[0]), 1000);
    let name = waiting_2_4[0]["metadata"]["name"].as_str().unwrap();
    let its_writes = writes
        .iter()
        .filter(|w| {
            w.path.ends_with(&format!("/{name}")) || w.body.as_ref().is_some_and(|b| b["metadata"]["name"] == name)
        })
        .count();
    assert!(its_writes <= 3, "{its_writes} writes for 1000 repeats");
    assert!(events.iter().any(|e| e["note"] == "Waiting for gang members: 3/4 ready" && count(e) == 1));

    let pool_events: Vec<_> = events.iter().filter(|e| e["regarding"]["name"] == "pool-a").collect();
    assert!(pool_events.iter().all(|e| e["metadata"]["namespace"] == "default"));
    assert!(
        pool_events
            .iter()
            .any(|e| e["reason"] == "ManagedNodeCreated"
                && e["note"] == "Created node: i-0abc1234def567890, IP: 10.0.0.9")
    );

    let quota = events.iter().find(|e| e["reason"] == "GPUQuotaOrCapacityNotEnough").unwrap();
    let note = quota["note"].as_str().unwrap();
    assert!(note.len() <= 1024, "{}", note.len());
    let full = format!("TensorFusion schedule failed, no enough resource or quotas: {}", scenario::long_error());
    assert!(full.starts_with(note.strip_suffix(" ...").unwrap()), "the note keeps its prefix");

    let evicted: BTreeSet<_> =
        events.iter().filter(|e| e["reason"] == "DefragPodEvicted").map(|e| e["note"].as_str().unwrap()).collect();
    assert!(evicted.len() >= 25, "{}", evicted.len());

    // And the parser reads each back to typed details.
    for event in &events {
        let record =
            EventRecord::from(serde_json::from_value::<k8s_openapi::api::events::v1::Event>(event.clone()).unwrap());
        assert!(matches!(record.details, Some(Details::TensorFusion(_))), "{record:?}");
    }
}
