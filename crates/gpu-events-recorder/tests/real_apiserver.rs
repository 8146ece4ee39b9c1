//! The recorder against a real kube-apiserver (the testkit's Go harness: v1.37.2 on etcd) and, with the same test
//! bodies, against the API double with namespaces enforced. Everything is read back through kube, so each body
//! asserts only what both servers answer.
//!
//! The real-server tests are `#[ignore]`d because the first run builds kube-apiserver with Go (minutes, then
//! cached): run them with `cargo test -p gpu-events-recorder --test real_apiserver -- --include-ignored`
//! (`.ci/run` does).

use std::time::Duration;

use gpu_events_core::details::tensorfusion::{GangMembersWaiting, GpuQuotaOrCapacityNotEnough, NodeCreated};
use gpu_events_core::record::NOTE_LIMIT;
use gpu_events_core::{EventRecord, Flag};
use gpu_events_recorder::{GpuPool, PublishError, Published, Recorder, RecorderBuilder, WriteError};
use gpu_events_testkit::{ApiServer, RealApiServer, ServerConfig};
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
);
