//! The recorder against a real kube-apiserver (the testkit's Go harness: v1.37.2 on etcd) and, with the same test
//! bodies, against the API double with namespaces enforced. Everything is read back through kube, so each body
//! asserts only what both servers answer. The recorder's requests are counted on its client (the testkit's
//! `RequestCounter`), the same way on both: the economy scenario (one event, repeats, another) and the 409 path (a
//! name taken by another event, or by the recorder's own) send the same requests to the real server as to the double.
//!
//! The real-server tests are `#[ignore]`d because the first run builds kube-apiserver with Go (minutes, then
//! cached): run them with `cargo test -p gpu-events-recorder --test real_apiserver -- --include-ignored`
//! (`.ci/run` does).

use std::time::Duration;

use gpu_events_core::details::tensorfusion::{GangMembersWaiting, GpuQuotaOrCapacityNotEnough, NodeCreated};
use gpu_events_core::record::NOTE_LIMIT;
use gpu_events_core::{EventRecord, Flag};
use gpu_events_recorder::{GpuPool, ManualClock, PublishError, Published, Recorder, RecorderBuilder, WriteError};
use gpu_events_testkit::{ApiServer, RealApiServer, RequestCounter, SentRequest, ServerConfig};
use k8s_openapi::api::core::v1::{Namespace, Pod};
use k8s_openapi::api::events::v1::Event;
use kube::api::{Api, ListParams, ObjectMeta, PostParams};
use serde_json::json;

const CONTROLLER: &str = "tensor-fusion.ai/recorder-test";
const WAIT: Duration = Duration::from_secs(30);

/// The server a test body runs on.
enum Target {
    Double(ApiServer),
    Real(&'static RealApiServer),
}

impl Target {
    async fn double() -> Target {
        Target::Double(ApiServer::start_with(ServerConfig::default().enforce_namespaces(true)).await)
    }

    async fn real() -> Target {
        Target::Real(RealApiServer::shared().await)
    }

    async fn client(&self) -> kube::Client {
        match self {
            Target::Double(server) => server.client_without_retry(),
            Target::Real(server) => server.client().await.expect("a client for the real server"),
        }
    }

    async fn builder(&self) -> RecorderBuilder {
        Recorder::builder(self.client().await, CONTROLLER).instance("recorder-test-0")
    }

    /// A builder whose client sends each request once (no retries inside kube's client) through `counter`.
    async fn counted_builder(&self, counter: &RequestCounter) -> RecorderBuilder {
        let client = match self {
            Target::Double(server) => server.client_without_retry(),
            Target::Real(server) => server.client_without_retry().await.expect("a client for the real server"),
        };
        Recorder::builder(counter.wrap(client), CONTROLLER).instance("recorder-test-0")
    }

    /// Creates `namespace` and a Pod `name` in it (the real server validates Pods: it needs a container with an
    /// image); returns the Pod as stored, with its server-given uid.
    async fn pod(&self, namespace: &str, name: &str) -> Pod {
        let client = self.client().await;
        let ns = Namespace {
            metadata: ObjectMeta { name: Some(namespace.into()), ..ObjectMeta::default() },
            ..Namespace::default()
        };
        Api::<Namespace>::all(client.clone()).create(&PostParams::default(), &ns).await.expect("namespace created");
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": {"containers": [{"name": "main", "image": "nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04"}]}
        }))
        .unwrap();
        Api::<Pod>::namespaced(client, namespace).create(&PostParams::default(), &pod).await.expect("pod created")
    }

    async fn events(&self, namespace: &str) -> Vec<Event> {
        Api::<Event>::namespaced(self.client().await, namespace).list(&ListParams::default()).await.unwrap().items
    }
}

/// 1000 publishes of one thing: one Event, with the series count, every field right, nothing refused.
async fn a_published_event_reads_back_right(target: Target) {
    let pod = target.pod("rec-read-back", "llama-train-worker-0").await;
    let recorder = target.builder().await.build().unwrap();
    for i in 0..1000 {
        recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
        if i % 100 == 0 {
            tokio::task::yield_now().await;
        }
    }
    recorder.flush().await;

    let events = target.events("rec-read-back").await;
    assert_eq!(events.len(), 1, "{events:#?}");
    let event = &events[0];
    assert_eq!(event.reason.as_deref(), Some("GangWaitingForMembers"));
    assert_eq!(event.type_.as_deref(), Some("Normal"));
    assert_eq!(event.action.as_deref(), Some("Waiting"));
    assert_eq!(event.note.as_deref(), Some("Waiting for gang members: 2/4 ready"));
    assert_eq!(event.reporting_controller.as_deref(), Some(CONTROLLER));
    assert_eq!(event.reporting_instance.as_deref(), Some("recorder-test-0"));
    let regarding = event.regarding.as_ref().unwrap();
    assert_eq!(regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(regarding.name.as_deref(), Some("llama-train-worker-0"));
    assert_eq!(regarding.namespace.as_deref(), Some("rec-read-back"));
    assert_eq!(regarding.uid, pod.metadata.uid, "the Pod's uid as the server gave it");
    assert_eq!(event.series.as_ref().map(|s| s.count), Some(1000));
    let stats = recorder.stats();
    assert_eq!((stats.published, stats.rejected, stats.failed, stats.dropped()), (1000, 0, 0, 0), "{stats:?}");
}

/// A note over the limit is cut to it, in bytes, and the server takes it.
async fn a_long_note_is_cut_and_taken(target: Target) {
    let pod = target.pod("rec-long-note", "vision-0").await;
    let recorder = target.builder().await.build().unwrap();
    let error = format!("quota exceeded in namespace cv for total.max.vram.request: {}", "ÿ語🦀".repeat(560));
    let published = recorder.publish_and_wait(GpuQuotaOrCapacityNotEnough::new(&error), &pod, WAIT).await;
    assert_eq!(published.unwrap(), Published::Written);
    let events = target.events("rec-long-note").await;
    assert_eq!(events.len(), 1);
    let note = events[0].note.as_deref().unwrap();
    assert!(note.len() <= NOTE_LIMIT && note.len() > NOTE_LIMIT - 8, "{}", note.len());
    assert!(note.ends_with(" ..."), "{note}");
    let record = EventRecord::from(events[0].clone());
    assert!(record.flags.contains(&Flag::Truncated), "{:?}", record.flags);
    assert_eq!(record.reason.as_str(), "GPUQuotaOrCapacityNotEnough");
}

/// A namespace that does not exist: the server's 404, and the recorder's error names the namespace.
async fn a_missing_namespace_is_the_servers_404(target: Target) {
    let recorder = target.builder().await.build().unwrap();
    let pod: Pod =
        serde_json::from_value(json!({"metadata": {"name": "ghost-0", "namespace": "rec-absent", "uid": "uid-ghost"}}))
            .unwrap();
    let published = recorder.publish_and_wait(GangMembersWaiting::new(1, 2), &pod, WAIT).await;
    let Err(PublishError::Write(WriteError::Rejected { code, reason, message, .. })) = &published else {
        panic!("{published:?}")
    };
    assert_eq!((*code, reason.as_str(), message.as_str()), (404, "NotFound", r#"namespaces "rec-absent" not found"#));
    let text = published.unwrap_err().to_string();
    assert!(text.contains(r#"namespaces "rec-absent" not found"#), "{text}");
    assert_eq!(recorder.stats().rejected, 1);
}

/// Events about a cluster-scoped object go to the configured namespace (`default` or `kube-system`, the only two
/// the server allows), with no namespace in `regarding`.
async fn cluster_scoped_objects_go_to_the_configured_namespace(target: Target) {
    let recorder = target.builder().await.cluster_namespace("kube-system").build().unwrap();
    let pool = GpuPool::new("pool-rec-cluster", Some("uid-pool-rec-cluster".into()));
    let published = recorder.publish_and_wait(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &pool, WAIT).await;
    assert_eq!(published.unwrap(), Published::Written);
    let events: Vec<Event> = target
        .events("kube-system")
        .await
        .into_iter()
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some("pool-rec-cluster"))
        .collect();
    assert_eq!(events.len(), 1);
    let regarding = events[0].regarding.as_ref().unwrap();
    assert_eq!(
        (regarding.kind.as_deref(), regarding.api_version.as_deref()),
        (Some("GPUPool"), Some("tensor-fusion.ai/v1"))
    );
    assert_eq!(regarding.namespace, None);
    assert_eq!(events[0].reason.as_deref(), Some("ManagedNodeCreated"));
}

/// The Event of a live series deleted under the recorder (by a user, or expired): the next write of the series
/// gets the server's 404 and creates the Event again, nothing refused, the repeats after it counted.
async fn a_deleted_series_event_is_created_again(target: Target) {
    let pod = target.pod("rec-deleted", "trainer-0").await;
    let recorder = target.builder().await.build().unwrap();
    recorder.publish(GangMembersWaiting::new(1, 4), &pod).unwrap();
    recorder.publish(GangMembersWaiting::new(1, 4), &pod).unwrap();
    recorder.flush().await;
    let events = target.events("rec-deleted").await;
    assert_eq!(events.len(), 1, "{events:#?}");
    let name = events[0].metadata.name.clone().unwrap();
    Api::<Event>::namespaced(target.client().await, "rec-deleted")
        .delete(&name, &Default::default())
        .await
        .expect("the Event deleted");
    assert!(target.events("rec-deleted").await.is_empty());
    for _ in 0..3 {
        recorder.publish(GangMembersWaiting::new(1, 4), &pod).unwrap();
    }
    recorder.flush().await;
    let events = target.events("rec-deleted").await;
    assert_eq!(events.len(), 1, "created again: {events:#?}");
    assert_eq!(events[0].note.as_deref(), Some("Waiting for gang members: 1/4 ready"));
    let stats = recorder.stats();
    assert_eq!((stats.rejected, stats.failed, stats.dropped()), (0, 0, 0), "{stats:?}");
}

/// The requests to Events a counted client sent: method, the name it named (the body's for a create, the path's
/// otherwise) and the answer's status.
fn event_requests(counter: &RequestCounter) -> Vec<SentRequest> {
    counter.requests().into_iter().filter(|r| r.path.contains("/events")).collect()
}

fn methods_and_statuses(requests: &[SentRequest]) -> Vec<(String, Option<u16>)> {
    requests.iter().map(|r| (r.method.clone(), r.status)).collect()
}

/// How many times each recorder scenario repeats its event.
const REPEATS: u64 = 50;

/// The recorder scenario of issue #15: one event, then the same event `REPEATS` times, then another. Returns the
/// requests the recorder sent (counted on the client, so alike on both servers), after asserting that the server
/// refused none of them and that the recorder's own counters agree.
async fn recorder_scenario(target: &Target, namespace: &str) -> Vec<(String, Option<u16>)> {
    let pod = target.pod(namespace, "llama-train-worker-0").await;
    let counter = RequestCounter::new();
    let recorder = target.counted_builder(&counter).await.build().unwrap();
    let first = recorder.publish_and_wait(GangMembersWaiting::new(2, 4), &pod, WAIT).await;
    assert_eq!(first.unwrap(), Published::Written);
    // No await between the repeats: on a current-thread runtime the workers cannot run until the flush, so the
    // repeats are one pending series write whatever the server's speed.
    for i in 0..REPEATS {
        let repeat = recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
        assert!(matches!(repeat, Published::Counted { count } if u64::from(count) == i + 2), "{repeat:?}");
    }
    recorder.flush().await;
    let other = recorder.publish_and_wait(GangMembersWaiting::new(3, 4), &pod, WAIT).await;
    assert_eq!(other.unwrap(), Published::Written);

    let sent = event_requests(&counter);
    assert_eq!(counter.requests().len(), sent.len(), "only requests to Events: {:?}", counter.requests());
    assert!(sent.iter().all(|r| r.status.is_some_and(|s| (200..300).contains(&s))), "none refused: {sent:?}");
    let stats = recorder.stats();
    let count = |method: &str| sent.iter().filter(|r| r.method == method).count() as u64;
    assert_eq!((stats.creates, stats.patches), (count("POST"), count("PATCH")), "{stats:?}");
    assert_eq!((stats.rejected, stats.failed, stats.retries, stats.dropped()), (0, 0, 0, 0), "{stats:?}");
    assert_eq!(stats.published, REPEATS + 2);

    let events = target.events(namespace).await;
    assert_eq!(events.len(), 2, "{events:#?}");
    let waiting = events.iter().find(|e| e.note.as_deref() == Some("Waiting for gang members: 2/4 ready")).unwrap();
    assert_eq!(waiting.series.as_ref().map(|s| s.count), Some(i32::try_from(REPEATS + 1).unwrap()));
    let other = events.iter().find(|e| e.note.as_deref() == Some("Waiting for gang members: 3/4 ready")).unwrap();
    assert_eq!(other.series, None);
    if let Target::Double(server) = target {
        // The counter sees what the double received.
        let received: Vec<_> =
            server.writes().into_iter().filter(|r| r.path.contains("/events")).map(|r| (r.method, r.status)).collect();
        assert_eq!(received, methods_and_statuses(&sent));
    }
    methods_and_statuses(&sent)
}

/// The recorder sends the same requests to the real server as to the double (a fresh one beside it, namespaces
/// enforced: the reference), and the real server refuses none.
async fn the_recorder_scenario_costs_the_same_requests_on_both(target: Target) {
    let on_target = recorder_scenario(&target, "rec-economy").await;
    let reference = recorder_scenario(&Target::double().await, "rec-economy").await;
    assert_eq!(on_target, reference, "the same creates and patches as on the double");
    eprintln!(
        "recorder scenario (1 event, {REPEATS} repeats, 1 other), {} target: {} requests {on_target:?}",
        if matches!(target, Target::Real(_)) { "real" } else { "double" },
        on_target.len()
    );
}

/// The recorder names events `<object>.<nanoseconds in hex>` from its clock, and hands out ever larger suffixes in
/// the process. Under this lock each test takes a later day of 2200 than any before it (no other test of this
/// binary uses a manual clock, the system clock is far behind), so the first name its recorder picks is known.
static NAME_TIME: tokio::sync::Mutex<i64> = tokio::sync::Mutex::const_new(0);

/// An events.k8s.io/v1 Event named `name` about `pod`, from `controller`/`instance` with `reason`, `action`, `note`.
fn stored_event(
    pod: &Pod,
    name: &str,
    fields: (&str, &str, &str, &str, &str),
    at: chrono::DateTime<chrono::Utc>,
) -> Event {
    let (controller, instance, reason, action, note) = fields;
    serde_json::from_value(json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": name, "namespace": pod.metadata.namespace},
        "eventTime": at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string(),
        "reason": reason, "type": "Normal", "action": action, "note": note,
        "reportingController": controller, "reportingInstance": instance,
        "regarding": {"apiVersion": "v1", "kind": "Pod", "namespace": pod.metadata.namespace,
            "name": pod.metadata.name, "uid": pod.metadata.uid},
    }))
    .unwrap()
}

/// The 409 path: the name the recorder picks is taken. By another event (the scheduler's): the recorder reads it,
/// sees it is not its own, and creates its event under a new name, leaving the other alone. By its own event (an
/// earlier attempt whose answer was lost): it reads it and takes it over, so a repeat patches that event. The same
/// requests on both servers, no 4xx but the two 409s.
async fn a_taken_name_is_renamed_or_taken_over(target: Target) {
    let namespace = "rec-conflict";
    let pod = target.pod(namespace, "llama-0").await;
    let api = Api::<Event>::namespaced(target.client().await, namespace);
    let mut days = NAME_TIME.lock().await;
    let mut sent = vec![];
    for (case, own) in [("another's", false), ("its own", true)] {
        *days += 1;
        let at =
            "2200-01-01T00:00:00Z".parse::<chrono::DateTime<chrono::Utc>>().unwrap() + chrono::Duration::days(*days);
        let taken = format!("llama-0.{:x}", at.timestamp_nanos_opt().unwrap());
        let fields = if own {
            (CONTROLLER, "recorder-test-0", "GangWaitingForMembers", "Waiting", "Waiting for gang members: 1/4 ready")
        } else {
            ("default-scheduler", "default-scheduler-x", "Scheduled", "Binding", "Successfully assigned to gpu-1")
        };
        api.create(&PostParams::default(), &stored_event(&pod, &taken, fields, at)).await.expect("the name taken");

        let counter = RequestCounter::new();
        let recorder = target.counted_builder(&counter).await.clock(ManualClock::new(at)).build().unwrap();
        let published = recorder.publish_and_wait(GangMembersWaiting::new(1, 4), &pod, WAIT).await;
        assert_eq!(published.unwrap(), Published::Written, "{case}");
        recorder.publish(GangMembersWaiting::new(1, 4), &pod).unwrap();
        recorder.flush().await;

        let requests = event_requests(&counter);
        let named: Vec<String> = requests
            .iter()
            .map(|r| match r.method.as_str() {
                "POST" => "(create)".to_owned(),
                _ => r.path.rsplit('/').next().unwrap().to_owned(),
            })
            .collect();
        let stored = target.events(namespace).await;
        let ours: Vec<&Event> =
            stored.iter().filter(|e| e.reporting_controller.as_deref() == Some(CONTROLLER)).collect();
        assert_eq!(ours.len(), 1, "{case}: one event of the recorder's: {stored:#?}");
        let ours_name = ours[0].metadata.name.clone().unwrap();
        assert_eq!(ours[0].series.as_ref().map(|s| s.count), Some(2), "{case}: the repeat counted on it");
        if own {
            assert_eq!(ours_name, taken, "{case}: taken over");
            assert_eq!(named[1..], [taken.clone(), taken.clone()], "{case}: read, then patched: {requests:?}");
        } else {
            assert_ne!(ours_name, taken, "{case}: renamed");
            assert!(ours_name.starts_with("llama-0."), "{ours_name}");
            assert_eq!(named[1..], [taken.clone(), "(create)".into(), ours_name.clone()], "{case}: {requests:?}");
            let other = stored.iter().find(|e| e.metadata.name.as_deref() == Some(taken.as_str())).unwrap();
            assert_eq!(other.reason.as_deref(), Some("Scheduled"), "the other event is untouched");
            assert_eq!(other.series, None);
        }
        let refused: Vec<_> = requests.iter().filter(|r| r.rejected()).map(|r| r.status).collect();
        assert_eq!(refused, [Some(409)], "{case}: no 4xx but the conflict: {requests:?}");
        let stats = recorder.stats();
        assert_eq!((stats.creates, stats.patches, stats.rejected, stats.failed), (1, 1, 0, 0), "{case}: {stats:?}");
        sent.push(methods_and_statuses(&requests));
        // The next case starts clean.
        for event in stored {
            api.delete(event.metadata.name.as_deref().unwrap(), &Default::default()).await.unwrap();
        }
    }
    assert_eq!(
        sent,
        [
            vec![
                ("POST".into(), Some(409)),
                ("GET".into(), Some(200)),
                ("POST".into(), Some(201)),
                ("PATCH".into(), Some(200))
            ],
            vec![("POST".into(), Some(409)), ("GET".into(), Some(200)), ("PATCH".into(), Some(200))],
        ],
        "the requests the double answers alike (tests/http.rs)"
    );
}

macro_rules! on_both {
    ($($body:ident),* $(,)?) => {
        mod double {
            $(#[tokio::test(flavor = "multi_thread")]
            async fn $body() {
                super::$body(super::Target::double().await).await;
            })*
        }
        mod real {
            $(#[tokio::test(flavor = "multi_thread")]
            #[ignore = "real kube-apiserver: builds the Go harness on first use; run with --include-ignored"]
            async fn $body() {
                super::$body(super::Target::real().await).await;
            })*
        }
    };
}

on_both!(
    a_published_event_reads_back_right,
    a_long_note_is_cut_and_taken,
    a_missing_namespace_is_the_servers_404,
    cluster_scoped_objects_go_to_the_configured_namespace,
    a_deleted_series_event_is_created_again,
    a_taken_name_is_renamed_or_taken_over,
);

/// On a current-thread runtime, so the recorder's workers run only when the test awaits (see `recorder_scenario`).
mod economy {
    #[tokio::test(flavor = "current_thread")]
    async fn on_the_double() {
        super::the_recorder_scenario_costs_the_same_requests_on_both(super::Target::double().await).await;
    }

    #[tokio::test(flavor = "current_thread")]
    #[ignore = "real kube-apiserver: builds the Go harness on first use; run with --include-ignored"]
    async fn on_the_real_server() {
        super::the_recorder_scenario_costs_the_same_requests_on_both(super::Target::real().await).await;
    }
}
