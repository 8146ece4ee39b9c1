//! The recorder over real HTTP against the testkit API server, which validates Events as
//! kube-apiserver does: request counts, bodies and stored objects.

use std::time::Duration;

use gpu_events_core::details::tensorfusion::{
    DefragPodEvicted, GangMembersWaiting, GpuQuotaOrCapacityNotEnough, NodeCreated,
};
use gpu_events_core::record::NOTE_LIMIT;
use gpu_events_core::{EventRecord, Flag};
use gpu_events_recorder::{
    BuildError, Dropped, EventType, GpuPool, InvalidEvent, ManualClock, PublishError, Published, RawEvent, Recorder,
    RecorderBuilder, SpamFilter, WriteError,
};
use gpu_events_testkit::{ApiServer, Fault, RecordedRequest, ResourceType};
use k8s_openapi::api::core::v1::ObjectReference;

mod common;
use common::{count_of, fast_retries, pod};

const CONTROLLER: &str = "tensor-fusion.ai/recorder-test";

/// A builder against `server`, with a client that does not retry by itself (so every retry seen
/// is the recorder's) and short backoffs.
fn builder(server: &ApiServer) -> RecorderBuilder {
    fast_retries(server, CONTROLLER, "recorder-test-0")
}

fn event_writes(server: &ApiServer) -> Vec<RecordedRequest> {
    server.writes().into_iter().filter(|r| r.path.contains("/events")).collect()
}

fn records(server: &ApiServer) -> Vec<EventRecord> {
    server
        .events()
        .into_iter()
        .map(|v| EventRecord::from(serde_json::from_value::<k8s_openapi::api::events::v1::Event>(v).unwrap()))
        .collect()
}

#[tokio::test]
async fn a_thousand_repeats_cost_at_most_three_writes_and_a_new_note_is_a_new_event() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let pod = pod("ml", "llama-train-worker-0");
    for i in 0..1000 {
        let published = recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
        if i == 0 {
            assert_eq!(published, Published::Queued);
        } else {
            assert_eq!(published, Published::Counted { count: i + 1 });
        }
        if i % 100 == 0 {
            tokio::task::yield_now().await;
        }
    }
    recorder.publish(GangMembersWaiting::new(3, 4), &pod).unwrap();
    recorder.flush().await;

    let writes = event_writes(&server);
    assert!(writes.iter().all(RecordedRequest::succeeded), "{writes:#?}");
    let first_note: Vec<_> = writes
        .iter()
        .filter(|w| w.method == "POST" && w.body.as_ref().unwrap()["note"] == "Waiting for gang members: 2/4 ready")
        .collect();
    assert_eq!(first_note.len(), 1);
    let name = first_note[0].body.as_ref().unwrap()["metadata"]["name"].as_str().unwrap().to_owned();
    let for_first: Vec<_> = writes
        .iter()
        .filter(|w| w.path.ends_with(&format!("/{name}")) || w.body.as_ref().unwrap()["metadata"]["name"] == name)
        .collect();
    assert!(for_first.len() <= 3, "{} writes for 1000 repeats", for_first.len());
    // Series PATCHes carry only `series`, as merge patches.
    for patch in for_first.iter().filter(|w| w.method == "PATCH") {
        assert_eq!(patch.content_type.as_deref(), Some("application/merge-patch+json"));
        let body = patch.body.as_ref().unwrap().as_object().unwrap();
        assert_eq!(body.keys().collect::<Vec<_>>(), ["series"], "{body:?}");
        assert!(patch.raw_body.len() < 100, "{} bytes", patch.raw_body.len());
    }

    let stored = server.get(&ResourceType::EVENTS_V1, Some("ml"), &name).unwrap();
    assert_eq!(count_of(&stored), 1000);
    assert_eq!(stored["reason"], "GangWaitingForMembers");
    assert_eq!(stored["action"], "Waiting");
    assert_eq!(stored["type"], "Normal");
    assert_eq!(stored["reportingController"], CONTROLLER);
    assert_eq!(stored["reportingInstance"], "recorder-test-0");
    assert_eq!(stored["regarding"]["uid"], "uid-llama-train-worker-0");
    let events = server.events();
    assert_eq!(events.len(), 2, "2/4 and 3/4 are two events");
    assert!(events.iter().any(|e| e["note"] == "Waiting for gang members: 3/4 ready" && count_of(e) == 1));

    let stats = recorder.stats();
    assert_eq!((stats.published, stats.counted, stats.rejected, stats.dropped()), (1001, 999, 0, 0));
    assert_eq!(stats.writes(), writes.len() as u64);
}

#[tokio::test]
async fn a_long_note_is_cut_to_the_limit_and_the_server_takes_it() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let error = format!("quota exceeded in namespace cv for total.max.vram.request: {}", "ÿ語🦀".repeat(560));
    assert!(error.len() > 5000);
    let published = recorder.publish_and_wait(
        GpuQuotaOrCapacityNotEnough::new(&error),
        &pod("cv", "vision-0"),
        Duration::from_secs(5),
    );
    assert_eq!(published.await.unwrap(), Published::Written);

    let stored = &server.events()[0];
    let note = stored["note"].as_str().unwrap();
    assert!(note.len() <= NOTE_LIMIT && note.len() > NOTE_LIMIT - 8, "{}", note.len());
    assert!(
        note.starts_with("TensorFusion schedule failed, no enough resource or quotas: quota exceeded in namespace cv")
    );
    assert!(note.ends_with(" ..."));
    let record = &records(&server)[0];
    assert!(record.flags.contains(&Flag::Truncated), "{:?}", record.flags);
    assert_eq!(record.reason.as_str(), "GPUQuotaOrCapacityNotEnough");
}

#[tokio::test]
async fn cluster_scoped_objects_go_to_the_configured_namespace() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let pool = GpuPool::new("pool-a", Some("uid-pool-a".into()));
    recorder.publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &pool).unwrap();
    recorder.flush().await;
    let events = server.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["metadata"]["namespace"], "default");
    assert_eq!(events[0]["regarding"]["kind"], "GPUPool");
    assert_eq!(events[0]["regarding"]["apiVersion"], "tensor-fusion.ai/v1");
    assert!(events[0]["regarding"].get("namespace").is_none());
    assert_eq!(events[0]["reason"], "ManagedNodeCreated");

    let elsewhere = builder(&server).cluster_namespace("kube-system").build().unwrap();
    elsewhere.publish(NodeCreated::new("i-0fff", "10.0.0.10"), &pool).unwrap();
    elsewhere.flush().await;
    assert!(server.events().iter().any(|e| e["metadata"]["namespace"] == "kube-system"));
    assert!(matches!(builder(&server).cluster_namespace("Kube_System").build(), Err(BuildError::ClusterNamespace(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_first_publishes_of_one_key_create_one_event() {
    let server = ApiServer::start().await;
    server.inject(Fault::delay(Duration::from_millis(50)).method("POST"));
    let recorder = builder(&server).build().unwrap();
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let recorder = recorder.clone();
            tokio::spawn(async move { recorder.publish(GangMembersWaiting::new(1, 4), &pod("ml", "llama-0")).unwrap() })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    recorder.flush().await;
    let writes = event_writes(&server);
    let posts = writes.iter().filter(|w| w.method == "POST").count();
    assert_eq!(posts, 1, "{writes:#?}");
    let events = server.events();
    assert_eq!(events.len(), 1);
    assert_eq!(count_of(&events[0]), 16);
}

#[tokio::test]
async fn a_series_whose_event_expired_is_created_again_with_its_count() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let pod = pod("ml", "llama-0");
    for _ in 0..2 {
        recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
        recorder.flush().await;
    }
    let name = server.events()[0]["metadata"]["name"].as_str().unwrap().to_owned();
    assert_eq!(count_of(&server.events()[0]), 2);
    // The API server's TTL removes the event.
    server.remove(&ResourceType::EVENTS_V1, Some("ml"), &name).unwrap();
    server.clear_requests();
    for _ in 0..3 {
        recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
    }
    recorder.flush().await;
    let writes = event_writes(&server);
    let methods: Vec<(&str, Option<u16>)> = writes.iter().map(|w| (w.method.as_str(), w.status)).collect();
    assert_eq!(methods, [("PATCH", Some(404)), ("POST", Some(201))]);
    let events = server.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["metadata"]["name"], name.as_str());
    assert_eq!(count_of(&events[0]), 5);
    assert_eq!(recorder.stats().recreates, 1);
}

#[tokio::test]
async fn a_lost_create_answer_does_not_make_a_duplicate() {
    let server = ApiServer::start().await;
    server.inject(Fault::lose_response().method("POST"));
    let recorder = builder(&server).build().unwrap();
    let result = recorder
        .publish_and_wait(GangMembersWaiting::new(2, 4), &pod("ml", "llama-0"), Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(result, Published::Written);
    let methods: Vec<_> = event_writes(&server).iter().map(|w| (w.method.clone(), w.status)).collect();
    assert_eq!(methods, [("POST".to_owned(), None), ("POST".to_owned(), Some(409))]);
    assert_eq!(server.events().len(), 1, "no duplicate");
    assert!(server.requests().iter().any(|r| r.method == "GET" && r.path.contains("/events/llama-0.")));
}

#[tokio::test]
async fn a_name_taken_by_another_event_gets_a_new_name() {
    let server = ApiServer::start().await;
    // Names are `<object>.<nanoseconds in hex>` from the recorder's clock; no other test of this
    // binary uses a later time, so the first name is known in advance.
    let at: chrono::DateTime<chrono::Utc> = "2200-01-01T00:00:00Z".parse().unwrap();
    let taken = format!("llama-0.{:x}", at.timestamp_nanos_opt().unwrap());
    let mut other = serde_json::json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": taken, "namespace": "ml"},
        "eventTime": "2200-01-01T00:00:00.000000Z", "reason": "Scheduled", "type": "Normal", "action": "Binding",
        "reportingController": "default-scheduler", "reportingInstance": "default-scheduler-x",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-0"}, "note": "Successfully assigned ml/llama-0 to gpu-1"
    });
    server.insert(other.take()).unwrap();
    let recorder = builder(&server).clock(ManualClock::new(at)).build().unwrap();
    recorder
        .publish_and_wait(GangMembersWaiting::new(2, 4), &pod("ml", "llama-0"), Duration::from_secs(5))
        .await
        .unwrap();
    let posts: Vec<_> = event_writes(&server).into_iter().filter(|w| w.method == "POST").collect();
    let statuses: Vec<_> = posts.iter().map(|p| p.status).collect();
    assert_eq!(statuses, [Some(409), Some(201)]);
    let names: Vec<_> = posts.iter().map(|p| p.body.as_ref().unwrap()["metadata"]["name"].clone()).collect();
    assert_eq!(names[0], taken.as_str());
    assert_ne!(names[0], names[1]);
    assert_eq!(server.events().len(), 2, "the other event is untouched");
    // Repeats go to the renamed event.
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "llama-0")).unwrap();
    recorder.flush().await;
    let ours = server.events().into_iter().find(|e| e["metadata"]["name"] == names[1]).unwrap();
    assert_eq!(count_of(&ours), 2);
}

#[tokio::test]
async fn a_spurious_conflict_on_a_free_name_retries_the_same_name() {
    let server = ApiServer::start().await;
    server.inject(Fault::status(409).reason("AlreadyExists").method("POST"));
    let recorder = builder(&server).build().unwrap();
    recorder
        .publish_and_wait(GangMembersWaiting::new(2, 4), &pod("ml", "llama-0"), Duration::from_secs(5))
        .await
        .unwrap();
    let posts: Vec<_> = event_writes(&server).into_iter().filter(|w| w.method == "POST").collect();
    assert_eq!(posts.len(), 2);
    assert_eq!(
        posts[0].body.as_ref().unwrap()["metadata"]["name"],
        posts[1].body.as_ref().unwrap()["metadata"]["name"]
    );
    assert_eq!(server.events().len(), 1);
}

#[tokio::test]
async fn throttling_server_errors_and_dropped_connections_are_retried_a_bounded_number_of_times() {
    let server = ApiServer::start().await;
    server.inject(Fault::too_many_requests(1).method("POST").times(1));
    server.inject(Fault::status(503).method("POST").times(1));
    server.inject(Fault::drop_connection().method("POST").times(1));
    let recorder = builder(&server).build().unwrap();
    let written = recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "a"), Duration::from_secs(5));
    assert_eq!(written.await.unwrap(), Published::Written);
    assert_eq!(event_writes(&server).len(), 4);
    assert_eq!(recorder.stats().retries, 3);
    assert_eq!(server.events().len(), 1);

    // A server that keeps failing: the recorder gives up after max_attempts.
    server.clear_requests();
    server.inject(Fault::status(500).method("POST").forever());
    let failed =
        recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "b"), Duration::from_secs(5)).await;
    assert!(matches!(failed, Err(PublishError::Write(WriteError::RetriesExhausted { attempts: 4, .. }))), "{failed:?}");
    assert_eq!(event_writes(&server).len(), 4);
    assert_eq!(recorder.stats().failed, 1);
}

#[tokio::test]
async fn validation_and_rbac_errors_surface_at_once() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    server.deny("create", &ResourceType::EVENTS_V1);
    let denied =
        recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "a"), Duration::from_secs(5)).await;
    let Err(PublishError::Write(WriteError::Rejected { code: 403, .. })) = denied else { panic!("{denied:?}") };
    assert_eq!(event_writes(&server).len(), 1, "not retried");
    server.allow("create", &ResourceType::EVENTS_V1);

    server.inject(Fault::status(422).method("POST"));
    let invalid =
        recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "a"), Duration::from_secs(5)).await;
    assert!(matches!(invalid, Err(PublishError::Write(WriteError::Rejected { code: 422, .. }))), "{invalid:?}");
    assert_eq!(recorder.stats().rejected, 2);
    // The key was forgotten with its failed create: the next publish creates it.
    let again = recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "a"), Duration::from_secs(5));
    assert_eq!(again.await.unwrap(), Published::Written);

    // What the recorder can check, it checks before sending anything.
    server.clear_requests();
    let a = ObjectReference {
        kind: Some("Pod".into()),
        name: Some("a".into()),
        namespace: Some("ml".into()),
        ..Default::default()
    };
    let long_reason = RawEvent::new(EventType::Warning, "R".repeat(129), "Check", "x");
    let err = recorder.publish_ref(long_reason, &a).unwrap_err();
    assert!(matches!(err, PublishError::Invalid(InvalidEvent::TooLong { field: "reason", bytes: 129, .. })), "{err}");
    let node = ObjectReference { kind: Some("Node".into()), name: Some("gpu-1".into()), ..Default::default() };
    let err = recorder.publish_ref(GangMembersWaiting::new(1, 2), &node).unwrap_err();
    assert!(matches!(err, PublishError::Invalid(InvalidEvent::WrongKind { kind, .. }) if kind == "Node"));
    let nameless = ObjectReference { kind: Some("Pod".into()), ..Default::default() };
    assert!(recorder.publish_ref(GangMembersWaiting::new(1, 2), &nameless).is_err());
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn the_reporting_controller_must_be_a_qualified_name() {
    let server = ApiServer::start().await;
    for bad in ["my controller", "Tensor-Fusion.ai/x", "a/b/c", ""] {
        let built = Recorder::builder(server.client(), bad).build();
        assert!(matches!(built, Err(BuildError::ReportingController { .. })), "{bad}");
    }
    let long = Recorder::builder(server.client(), CONTROLLER).instance("i".repeat(129)).build();
    assert!(matches!(long, Err(BuildError::ReportingInstance { .. })));
    assert!(matches!(builder(&server).workers(0).build(), Err(BuildError::Setting { setting: "workers", .. })));
    let late = builder(&server).heartbeat(Duration::from_secs(3600)).build();
    assert!(matches!(late, Err(BuildError::Setting { setting: "heartbeat", .. })));
}

#[tokio::test]
async fn resource_version_and_field_path_are_not_part_of_the_key() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    for (rv, path) in [("41", "spec.containers{a}"), ("42", "spec.containers{b}"), ("43", "")] {
        let reference = ObjectReference {
            api_version: Some("v1".into()),
            kind: Some("Pod".into()),
            namespace: Some("ml".into()),
            name: Some("llama-0".into()),
            uid: Some("uid-1".into()),
            resource_version: Some(rv.into()),
            field_path: Some(path.into()),
        };
        recorder.publish_ref(GangMembersWaiting::new(2, 4), &reference).unwrap();
    }
    recorder.flush().await;
    let events = server.events();
    assert_eq!(events.len(), 1);
    assert_eq!(count_of(&events[0]), 3);
    assert_eq!(events[0]["regarding"]["fieldPath"], "spec.containers{a}");
    assert!(events[0]["regarding"].get("resourceVersion").is_none());
}

#[tokio::test]
async fn heartbeats_keep_a_long_series_alive_and_a_quiet_series_gets_its_final_write() {
    let server = ApiServer::start().await;
    let clock = ManualClock::new("2026-12-01T10:00:00Z".parse().unwrap());
    let recorder = builder(&server).clock(clock.clone()).sweep_interval(Duration::from_secs(3600)).build().unwrap();
    let pod = pod("ml", "llama-0");
    let publish = || recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
    publish();
    recorder.flush().await;
    publish(); // series start: one PATCH
    recorder.flush().await;
    server.clear_requests();

    // A repeat a minute for 29 minutes: counted in memory, no write, the series never quiet.
    for _ in 0..29 {
        clock.advance(Duration::from_secs(60));
        publish();
        recorder.sweep();
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(event_writes(&server).is_empty(), "{:?}", event_writes(&server));

    // 30 minutes after the last write: the heartbeat.
    clock.advance(Duration::from_secs(60));
    publish();
    recorder.sweep();
    wait_for_writes(&server, 1).await;
    let name = server.events()[0]["metadata"]["name"].as_str().unwrap().to_owned();
    assert_eq!(count_of(&server.events()[0]), 32);
    let heartbeat = &event_writes(&server)[0];
    assert_eq!(heartbeat.body.as_ref().unwrap()["series"]["lastObservedTime"], "2026-12-01T10:30:00.000000Z");

    // Three more repeats, then quiet for 6 minutes: the final write, and the key leaves memory.
    for _ in 0..3 {
        clock.advance(Duration::from_secs(10));
        publish();
    }
    clock.advance(Duration::from_secs(5 * 60));
    recorder.sweep();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(event_writes(&server).len(), 1, "not quiet yet");
    clock.advance(Duration::from_secs(60));
    recorder.sweep();
    wait_for_writes(&server, 2).await;
    assert_eq!(count_of(&server.get(&ResourceType::EVENTS_V1, Some("ml"), &name).unwrap()), 35);
    assert_eq!(recorder.stats().live_keys, 0);

    // A repeat after the series finished is a new event.
    publish();
    recorder.flush().await;
    assert_eq!(server.events().len(), 2);
}

async fn wait_for_writes(server: &ApiServer, n: usize) {
    for _ in 0..200 {
        if event_writes(server).iter().filter(|w| w.status.is_some()).count() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("expected {n} writes, saw {:?}", event_writes(server));
}

#[tokio::test]
async fn the_spam_filter_meters_new_events_per_object_and_counts_drops() {
    let server = ApiServer::start().await;
    let clock = ManualClock::new("2026-12-01T10:00:00Z".parse().unwrap());
    let recorder = builder(&server).clock(clock.clone()).spam_filter(SpamFilter::client_go()).build().unwrap();
    let pool = GpuPool::new("pool-a", None);
    let mut dropped = 0;
    for i in 0..30 {
        let published =
            recorder.publish(DefragPodEvicted::new("ml", &format!("llama-{i}"), "gpu-node-3"), &pool).unwrap();
        dropped += usize::from(published == Published::Dropped(Dropped::SpamFilter));
    }
    // Repeats of a live series are never metered.
    for _ in 0..10 {
        assert!(matches!(
            recorder.publish(DefragPodEvicted::new("ml", "llama-0", "gpu-node-3"), &pool).unwrap(),
            Published::Counted { .. }
        ));
    }
    // Five minutes later, one more token.
    clock.advance(Duration::from_secs(300));
    assert_eq!(
        recorder.publish(DefragPodEvicted::new("ml", "llama-30", "gpu-node-3"), &pool).unwrap(),
        Published::Queued
    );
    recorder.flush().await;
    assert_eq!(dropped, 5);
    assert_eq!(recorder.stats().dropped_spam, 5);
    assert_eq!(server.events().len(), 26);
}

#[tokio::test]
async fn a_full_queue_drops_new_events_and_counts_them_and_never_blocks() {
    let server = ApiServer::start().await;
    server.inject(Fault::delay(Duration::from_millis(200)).method("POST").forever());
    let recorder = builder(&server).queue_capacity(2).workers(1).build().unwrap();
    let started = std::time::Instant::now();
    let outcomes: Vec<_> = (0..10)
        .map(|i| recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", &format!("p-{i}"))).unwrap())
        .collect();
    assert!(started.elapsed() < Duration::from_millis(100), "publish blocked for {:?}", started.elapsed());
    let dropped = outcomes.iter().filter(|o| **o == Published::Dropped(Dropped::QueueFull)).count();
    assert!(dropped >= 7, "{outcomes:?}");
    recorder.flush().await;
    assert_eq!(recorder.stats().dropped_queue_full, dropped as u64);
    assert_eq!(server.events().len(), 10 - dropped);
}

#[tokio::test]
async fn memory_is_bounded_and_an_evicted_series_keeps_its_count() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).max_keys(8).build().unwrap();
    let first = pod("ml", "first");
    for _ in 0..3 {
        recorder.publish(GangMembersWaiting::new(1, 2), &first).unwrap();
        recorder.flush().await;
    }
    recorder.publish(GangMembersWaiting::new(1, 2), &first).unwrap();
    for i in 0..50 {
        recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", &format!("p-{i}"))).unwrap();
    }
    recorder.flush().await;
    let stats = recorder.stats();
    assert_eq!(stats.live_keys, 8);
    assert_eq!(stats.evicted, 43);
    let events = server.events();
    assert_eq!(events.len(), 51);
    let first_event = events.iter().find(|e| e["regarding"]["name"] == "first").unwrap();
    assert_eq!(count_of(first_event), 4, "the unwritten count was written as the key left");
}

#[tokio::test]
async fn shutdown_flushes_and_refuses_later_publishes() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    for _ in 0..5 {
        recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")).unwrap();
    }
    recorder.shutdown().await;
    assert_eq!(count_of(&server.events()[0]), 5);
    assert!(matches!(recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")), Err(PublishError::Shutdown)));
}

#[tokio::test]
async fn flush_returns_when_the_server_keeps_failing() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let pod = pod("ml", "a");
    recorder.publish(GangMembersWaiting::new(1, 2), &pod).unwrap();
    recorder.flush().await;
    server.inject(Fault::status(500).method("PATCH").forever());
    recorder.publish(GangMembersWaiting::new(1, 2), &pod).unwrap();
    recorder.publish(GangMembersWaiting::new(1, 2), &pod).unwrap();
    tokio::time::timeout(Duration::from_secs(10), recorder.flush()).await.expect("flush ends");
    let stats = recorder.stats();
    assert!(stats.failed >= 1, "{stats:?}");
    let patches = event_writes(&server).iter().filter(|w| w.method == "PATCH").count();
    assert!(patches <= 8, "bounded: {patches} PATCHes");
    // Once the server recovers, the count is still there to write.
    server.clear_faults();
    recorder.flush().await;
    assert_eq!(count_of(&server.events()[0]), 3);
}
