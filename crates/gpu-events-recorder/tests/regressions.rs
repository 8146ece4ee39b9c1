//! Faults found by a review of the recorder, each with the value it must give now.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use gpu_events_core::details::tensorfusion::{DefragPodEvicted, GangMembersWaiting, NodeCreated};
use gpu_events_recorder::{
    BuildError, EventType, FakeRecorder, GpuPool, InvalidEvent, ManualClock, PublishError, Published, RawEvent,
    RecorderBuilder, SpamFilter, WriteError,
};
use gpu_events_testkit::{ApiServer, Fault, ResourceType};
use k8s_openapi::api::core::v1::ObjectReference;

mod common;
use common::{count_of, fast_retries, pod};

fn builder(server: &ApiServer) -> RecorderBuilder {
    fast_retries(server, "tensor-fusion.ai/review", "review-0")
}

fn total_for(server: &ApiServer, pod: &str) -> i64 {
    server.events().iter().filter(|e| e["regarding"]["name"] == pod).map(count_of).sum()
}

fn writes(server: &ApiServer) -> usize {
    server.writes().iter().filter(|w| w.path.contains("/events")).count()
}

#[tokio::test]
async fn an_evicted_series_with_a_write_in_flight_keeps_its_count() {
    // The create is in flight when the key is evicted.
    let server = ApiServer::start().await;
    server.inject(Fault::delay(Duration::from_millis(200)).method("POST").times(1));
    let recorder = builder(&server).max_keys(1).build().unwrap();
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "a")).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    for _ in 0..4 {
        recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "a")).unwrap();
    }
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "b")).unwrap();
    recorder.flush().await;
    assert_eq!(total_for(&server, "a"), 5);

    // The series-start PATCH is in flight when it is evicted.
    let server = ApiServer::start().await;
    let recorder = builder(&server).max_keys(1).build().unwrap();
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "a")).unwrap();
    recorder.flush().await;
    server.inject(Fault::delay(Duration::from_millis(200)).method("PATCH").times(1));
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "a")).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    for _ in 0..8 {
        recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "a")).unwrap();
    }
    recorder.publish(GangMembersWaiting::new(2, 4), &pod("ml", "b")).unwrap();
    recorder.flush().await;
    assert_eq!(total_for(&server, "a"), 10);
    assert_eq!(recorder.stats().lost_occurrences, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_eviction_pressure_every_accepted_occurrence_reaches_the_server() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).max_keys(20).queue_capacity(100_000).build().unwrap();
    let accepted = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..4)
        .map(|t| {
            let (recorder, accepted) = (recorder.clone(), accepted.clone());
            tokio::spawn(async move {
                for i in 0..2000 {
                    let p = pod("ml", &format!("p-{}", (i * 7 + t) % 30));
                    if let Ok(Published::Queued | Published::Counted { .. }) =
                        recorder.publish(GangMembersWaiting::new(1, 2), &p)
                    {
                        accepted.fetch_add(1, Ordering::Relaxed);
                    }
                    if i % 50 == 0 {
                        tokio::task::yield_now().await;
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    recorder.shutdown().await;
    let on_server: i64 = server.events().iter().map(count_of).sum();
    assert_eq!(on_server as u64, accepted.load(Ordering::Relaxed));
    assert_eq!(recorder.stats().lost_occurrences, 0);
}

#[tokio::test]
async fn without_patch_permission_repeats_do_not_cost_a_request_each() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    server.deny("patch", &ResourceType::EVENTS_V1);
    let p = pod("ml", "a");
    recorder.publish_and_wait(GangMembersWaiting::new(2, 4), &p, Duration::from_secs(2)).await.unwrap();
    // The series start is refused: the awaited publish says so.
    let refused = recorder.publish_and_wait(GangMembersWaiting::new(2, 4), &p, Duration::from_secs(2)).await;
    assert!(matches!(refused, Err(PublishError::Write(WriteError::Rejected { code: 403, .. }))), "{refused:?}");
    for _ in 0..1000 {
        recorder.publish(GangMembersWaiting::new(2, 4), &p).unwrap();
        tokio::task::yield_now().await;
    }
    recorder.flush().await;
    assert!(writes(&server) <= 4, "{} writes", writes(&server));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_writes_every_publish_it_accepted() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).build().unwrap();
    let accepted = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let (recorder, accepted) = (recorder.clone(), accepted.clone());
            tokio::spawn(async move {
                loop {
                    match recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")) {
                        Ok(_) => accepted.fetch_add(1, Ordering::Relaxed),
                        Err(PublishError::Shutdown) => return,
                        Err(other) => panic!("{other}"),
                    };
                    tokio::task::yield_now().await;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(30)).await;
    recorder.shutdown().await;
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(total_for(&server, "a") as u64, accepted.load(Ordering::Relaxed));
    assert_eq!(recorder.stats().published, accepted.load(Ordering::Relaxed));
}

#[tokio::test]
async fn a_full_queue_neither_drops_an_evicted_count_nor_evicts_for_a_dropped_event() {
    let server = ApiServer::start().await;
    let recorder = builder(&server).max_keys(3).queue_capacity(1).workers(1).build().unwrap();
    for _ in 0..10 {
        recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")).unwrap();
        recorder.flush().await;
    }
    server.inject(Fault::delay(Duration::from_millis(100)).method("POST").times(2));
    recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "b")).unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "c")).unwrap();
    let d = recorder.publish(GangMembersWaiting::new(1, 2), &pod("ml", "d")).unwrap();
    recorder.flush().await;
    assert_eq!(total_for(&server, "a"), 10);
    if d == Published::Dropped(gpu_events_recorder::Dropped::QueueFull) {
        assert_eq!(recorder.stats().dropped_queue_full, 1);
    }
    assert_eq!(recorder.stats().lost_occurrences, 0);
}

#[tokio::test]
async fn cluster_scoped_events_only_go_where_the_server_takes_them() {
    let server = ApiServer::start().await;
    for bad in ["tensor-fusion-sys", "Kube_System"] {
        assert!(matches!(builder(&server).cluster_namespace(bad).build(), Err(BuildError::ClusterNamespace(_))));
    }
    let fake = FakeRecorder::with("tensor-fusion.ai/review", |b| b.cluster_namespace("kube-system")).unwrap();
    fake.recorder().publish(NodeCreated::new("i-0abc", "10.0.0.9"), &GpuPool::new("pool-a", None)).unwrap();
    fake.recorder().flush().await;
    assert_eq!(fake.events()[0].metadata.namespace.as_deref(), Some("kube-system"));
}

#[tokio::test]
async fn a_lost_answer_without_get_permission_makes_no_duplicate() {
    let server = ApiServer::start().await;
    server.deny("get", &ResourceType::EVENTS_V1);
    server.inject(Fault::lose_response().method("POST"));
    let recorder = builder(&server).build().unwrap();
    recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod("ml", "a"), Duration::from_secs(5)).await.unwrap();
    assert_eq!(server.events().len(), 1);
}

#[test]
fn a_recorder_whose_runtime_is_gone_says_shut_down() {
    let recorder = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(async { FakeRecorder::new("tensor-fusion.ai/review").unwrap() });
    // The runtime (and the workers) are gone now.
    let outcome = recorder.recorder().publish(GangMembersWaiting::new(1, 2), &pod("ml", "a"));
    assert!(matches!(outcome, Err(PublishError::Shutdown)), "{outcome:?}");
}

#[tokio::test]
async fn out_of_range_settings_are_errors_not_panics() {
    let server = ApiServer::start().await;
    assert!(matches!(
        builder(&server).max_keys(usize::MAX).build(),
        Err(BuildError::Setting { setting: "max_keys", .. })
    ));
    let queue = builder(&server).queue_capacity(usize::MAX).build();
    assert!(matches!(queue, Err(BuildError::Setting { setting: "queue_capacity", .. })));
    let spam = builder(&server).spam_filter(SpamFilter { burst: 0, refill_every: Duration::from_secs(1) }).build();
    assert!(matches!(spam, Err(BuildError::Setting { setting: "spam_filter", .. })));
    // A large cap preallocates nothing.
    assert!(builder(&server).max_keys(10_000_000).spam_filter(SpamFilter::client_go()).build().is_ok());
}

#[tokio::test]
async fn references_are_checked_like_the_server_checks_them() {
    let fake = FakeRecorder::new("tensor-fusion.ai/review").unwrap();
    let recorder = fake.recorder();
    let reference = |namespace: Option<&str>| ObjectReference {
        kind: Some("Pod".into()),
        name: Some("a".into()),
        namespace: namespace.map(str::to_owned),
        ..Default::default()
    };
    let bad = recorder.publish_ref(GangMembersWaiting::new(1, 2), &reference(Some("ML_NS")));
    assert!(matches!(bad, Err(PublishError::Invalid(InvalidEvent::Namespace(_)))), "{bad:?}");
    let missing = recorder.publish_ref(GangMembersWaiting::new(1, 2), &reference(None));
    assert!(matches!(missing, Err(PublishError::Invalid(InvalidEvent::Missing { .. }))), "{missing:?}");
    let kindless = ObjectReference { name: Some("b".into()), ..Default::default() };
    let related = RawEvent::new(EventType::Normal, "Linked", "Link", "x").related(kindless);
    assert!(matches!(recorder.publish_ref(related, &reference(Some("ml"))), Err(PublishError::Invalid(_))));
    // A catalogued reason keeps its kinds when published raw.
    let raw = RawEvent::new(EventType::Normal, "ManagedNodeCreated", "Created", "Created node: i-1, IP: 10.0.0.1");
    let err = recorder.publish_ref(raw, &reference(Some("ml"))).unwrap_err();
    assert!(matches!(err, PublishError::Invalid(InvalidEvent::WrongKind { .. })), "{err}");
    // One EventType with core: a type the API server refuses on events.k8s.io/v1 is refused
    // before any write, with the type named.
    let info = RawEvent::new(EventType::parse("Info"), "Checked", "Check", "x");
    let err = recorder.publish_ref(info, &reference(Some("ml"))).unwrap_err();
    assert!(matches!(&err, PublishError::Invalid(InvalidEvent::Type(t)) if t == "Info"), "{err}");
    assert!(fake.events().is_empty());
}

#[tokio::test]
async fn a_clock_that_goes_back_never_puts_the_last_observation_first() {
    let clock = ManualClock::new("2026-12-01T10:00:00Z".parse().unwrap());
    let fake = FakeRecorder::with("tensor-fusion.ai/review", |b| b.clock(clock.clone())).unwrap();
    fake.recorder().publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")).unwrap();
    clock.set("2026-12-01T08:00:00Z".parse().unwrap());
    fake.recorder().publish(GangMembersWaiting::new(1, 2), &pod("ml", "a")).unwrap();
    fake.recorder().flush().await;
    let event = &fake.events()[0];
    let first = event.event_time.as_ref().unwrap().0;
    let last = event.series.as_ref().unwrap().last_observed_time.0;
    assert!(last >= first, "{last} < {first}");
}

#[tokio::test]
async fn details_that_would_read_back_differently_are_refused() {
    let fake = FakeRecorder::new("tensor-fusion.ai/review").unwrap();
    let pool = GpuPool::new("pool-a", None);
    let odd = fake.recorder().publish(NodeCreated::new("i-1, IP: 10.0.0.1", "10.0.0.9"), &pool);
    assert!(matches!(odd, Err(PublishError::Invalid(InvalidEvent::Ambiguous { .. }))), "{odd:?}");
    let odd = fake.recorder().publish(DefragPodEvicted::new("ml", "x on node y", "z"), &pool);
    assert!(matches!(odd, Err(PublishError::Invalid(InvalidEvent::Ambiguous { .. }))), "{odd:?}");
    assert!(fake.recorder().publish(DefragPodEvicted::new("ml", "llama-0", "gpu-node-3"), &pool).is_ok());
}
