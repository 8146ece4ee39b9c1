//! Interop with kube-rs: kube's `Reporter` builds a recorder, kube's `Event` publishes with kube's argument order,
//! typed publishes take a related object, and users' own CRD types of a TensorFusion kind are accepted by kind
//! and API group.

mod common;

use std::borrow::Cow;

use common::pod;
use gpu_events_core::details::tensorfusion::{GangMembersWaiting, NodeCreated};
use gpu_events_recorder::{
    FakeRecorder, GpuPool, InvalidEvent, PublishError, Published, Recorder, Reporting, SameKind, WithRelated,
};
use gpu_events_testkit::ApiServer;
use k8s_openapi::api::core::v1::{Node, ObjectReference};
use kube::Resource;
use kube::api::ObjectMeta;
use kube::runtime::events::{Event as KubeEvent, EventType as KubeEventType, Recorder as KubeRecorder, Reporter};

fn node(name: &str) -> Node {
    Node { metadata: ObjectMeta { name: Some(name.into()), ..ObjectMeta::default() }, ..Node::default() }
}

fn kube_event(note: &str, secondary: Option<ObjectReference>) -> KubeEvent {
    KubeEvent {
        type_: KubeEventType::Warning,
        reason: "QuotaCheckFailed".into(),
        note: Some(note.into()),
        action: "CheckQuota".into(),
        secondary,
    }
}

#[tokio::test]
async fn a_kube_reporter_builds_the_recorder_and_the_builder_instance_wins() {
    let controller = "tensor-fusion.ai/interop";
    let reporter = Reporter { controller: controller.into(), instance: Some("op-0".into()) };
    let fake = FakeRecorder::new(reporter.clone()).unwrap();
    assert_eq!((fake.recorder().reporting_controller(), fake.recorder().reporting_instance()), (controller, "op-0"));
    let overridden = FakeRecorder::with(&reporter, |b| b.instance("op-1")).unwrap();
    assert_eq!(overridden.recorder().reporting_instance(), "op-1");
    // No instance in the Reporter: the recorder's own default, as for a bare name.
    let bare = FakeRecorder::new(Reporter { controller: controller.into(), instance: None }).unwrap();
    let by_name = FakeRecorder::new(controller).unwrap();
    assert_eq!(bare.recorder().reporting_instance(), by_name.recorder().reporting_instance());
    // A Reporter whose controller is not a qualified name is refused at build, as a bad name is.
    assert!(FakeRecorder::new(Reporter { controller: "not a name".into(), instance: None }).is_err());
    // And back, for kube's own recorder.
    let back: Reporter = Reporting::from(&reporter).into();
    assert_eq!(back, reporter);

    let server = ApiServer::start().await;
    let recorder = Recorder::builder(server.client_without_retry(), reporter).build().unwrap();
    recorder
        .publish_and_wait(GangMembersWaiting::new(2, 4), &pod("ml", "a"), std::time::Duration::from_secs(5))
        .await
        .unwrap();
    let stored = server.events();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["reportingController"], controller);
    assert_eq!(stored[0]["reportingInstance"], "op-0");
}

/// kube's `Recorder::publish(&event, &reference)` and ours with the same arguments, in the same order, write the
/// same event fields to the API double.
#[tokio::test]
async fn a_kube_event_publishes_as_kube_publishes_it() {
    let reporter = Reporter { controller: "tensor-fusion.ai/interop".into(), instance: Some("op-0".into()) };
    let reference = pod("ml", "llama-0").object_ref(&());
    let event = kube_event("quota service unreachable", Some(node("gpu-1").object_ref(&())));

    let theirs = ApiServer::start().await;
    KubeRecorder::new(theirs.client_without_retry(), reporter.clone()).publish(&event, &reference).await.unwrap();
    let ours = ApiServer::start().await;
    let recorder = Recorder::builder(ours.client_without_retry(), reporter).build().unwrap();
    assert_eq!(recorder.publish_ref(&event, &reference).unwrap(), Published::Queued);
    recorder.flush().await;

    let fields = |server: &ApiServer| {
        let [stored] = server.events().try_into().unwrap();
        ["type", "reason", "action", "note", "reportingController", "reportingInstance"]
            .map(|f| stored[f].clone())
            .into_iter()
            .chain(["kind", "namespace", "name", "uid"].map(|f| stored["regarding"][f].clone()))
            .chain(["kind", "name"].map(|f| stored["related"][f].clone()))
            .collect::<Vec<_>>()
    };
    let (kube_fields, our_fields) = (fields(&theirs), fields(&ours));
    assert_eq!(our_fields, kube_fields);
    assert_eq!(our_fields[1], "QuotaCheckFailed");
    assert_eq!(our_fields[11], "gpu-1", "secondary is written as related");

    // By value too; and a catalogued reason keeps its kinds (ManagedNodeCreated is about GPUPools).
    let fake = FakeRecorder::new("tensor-fusion.ai/interop").unwrap();
    fake.recorder().publish_ref(kube_event("by value", None), &reference).unwrap();
    let mut wrong = kube_event("Created node: i-0abc, IP: 10.0.0.9", None);
    wrong.reason = "ManagedNodeCreated".into();
    let err = fake.recorder().publish_ref(&wrong, &reference).unwrap_err();
    assert!(matches!(err, PublishError::Invalid(InvalidEvent::WrongKind { .. })), "{err:?}");
    // kube's type maps to ours.
    let mut normal = kube_event("fine", None);
    normal.type_ = KubeEventType::Normal;
    fake.recorder().publish_ref(normal, &reference).unwrap();
    fake.recorder().flush().await;
    let mut types: Vec<_> = fake.events().into_iter().map(|e| e.type_.unwrap()).collect();
    types.sort();
    assert_eq!(types, ["Normal", "Warning"]);
}

#[tokio::test]
async fn a_typed_publish_takes_a_related_object_which_is_part_of_the_key() {
    let fake = FakeRecorder::new("tensor-fusion.ai/interop").unwrap();
    let recorder = fake.recorder();
    let worker = pod("ml", "llama-0");
    for _ in 0..3 {
        recorder.publish_related(GangMembersWaiting::new(2, 4), &worker, &node("gpu-1")).unwrap();
    }
    recorder.publish_related(GangMembersWaiting::new(2, 4), &worker, &node("gpu-2")).unwrap();
    recorder.publish(GangMembersWaiting::new(2, 4), &worker).unwrap();
    let with = WithRelated::new(GangMembersWaiting::new(2, 4), node("gpu-2").object_ref(&()));
    let waited = recorder.publish_and_wait(with, &worker, std::time::Duration::from_secs(5)).await.unwrap();
    assert_eq!(waited, Published::Counted { count: 2 }, "the same key as the gpu-2 publish");
    recorder.flush().await;
    let mut by_related: Vec<(Option<String>, i32)> =
        fake.events().into_iter().map(|e| (e.related.and_then(|r| r.name), e.series.map_or(1, |s| s.count))).collect();
    by_related.sort();
    assert_eq!(by_related, [(None, 1), (Some("gpu-1".into()), 3), (Some("gpu-2".into()), 2)]);
    // The related object's kind and namespace are written as given: a cluster-scoped Node has none.
    let [related] = fake
        .events()
        .into_iter()
        .filter_map(|e| e.related)
        .filter(|r| r.name.as_deref() == Some("gpu-1"))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert_eq!((related.kind.as_deref(), related.namespace), (Some("Node"), None));
}

/// A user's own type, as kopium and `#[derive(CustomResource)]` write it, with the given kind and group.
macro_rules! user_type {
    ($Name:ident, $kind:literal, $group:literal) => {
        #[derive(Clone, Debug, Default)]
        struct $Name {
            metadata: ObjectMeta,
        }
        impl Resource for $Name {
            type DynamicType = ();
            type Scope = kube::core::ClusterResourceScope;
            fn kind(_: &()) -> Cow<'_, str> {
                $kind.into()
            }
            fn group(_: &()) -> Cow<'_, str> {
                $group.into()
            }
            fn version(_: &()) -> Cow<'_, str> {
                "v1".into()
            }
            fn plural(_: &()) -> Cow<'_, str> {
                "things".into()
            }
            fn meta(&self) -> &ObjectMeta {
                &self.metadata
            }
            fn meta_mut(&mut self) -> &mut ObjectMeta {
                &mut self.metadata
            }
        }
        impl $Name {
            fn named(name: &str) -> Self {
                $Name { metadata: ObjectMeta { name: Some(name.into()), ..ObjectMeta::default() } }
            }
        }
    };
}

user_type!(GPUPool, "GPUPool", "tensor-fusion.ai");
user_type!(ForeignPool, "GPUPool", "example.com");
user_type!(MisdeclaredNode, "GPUNode", "tensor-fusion.ai");

impl SameKind<GpuPool> for GPUPool {}
impl SameKind<GpuPool> for ForeignPool {}
impl SameKind<GpuPool> for MisdeclaredNode {}

#[tokio::test]
async fn users_own_types_of_a_kind_publish_by_kind_and_group() {
    let fake = FakeRecorder::new("tensor-fusion.ai/interop").unwrap();
    let recorder = fake.recorder();
    recorder.publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &GPUPool::named("pool-a")).unwrap();
    // The handle and the user's type are the same object: one series.
    let again = recorder.publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &GpuPool::new("pool-a", None));
    assert_eq!(again.unwrap(), Published::Counted { count: 2 });
    recorder.flush().await;
    let [event] = fake.events().try_into().unwrap();
    let regarding = event.regarding.unwrap();
    assert_eq!(regarding.kind.as_deref(), Some("GPUPool"));
    assert_eq!(regarding.api_version.as_deref(), Some("tensor-fusion.ai/v1"));
    assert_eq!(event.metadata.namespace.as_deref(), Some("default"), "cluster-scoped: the cluster namespace");

    let err = recorder.publish(NodeCreated::new("i-0abc", "10.0.0.9"), &ForeignPool::named("p")).unwrap_err();
    let PublishError::Invalid(InvalidEvent::WrongGroup { reason, kind, expected, group }) = err else {
        panic!("{err:?}")
    };
    assert_eq!((reason.as_str(), kind.as_str()), ("ManagedNodeCreated", "GPUPool"));
    assert_eq!((expected.as_str(), group.as_str()), ("tensor-fusion.ai", "example.com"));
    let err = recorder.publish(NodeCreated::new("i-0abc", "10.0.0.9"), &MisdeclaredNode::named("n")).unwrap_err();
    assert!(
        matches!(&err, PublishError::Invalid(InvalidEvent::WrongKind { kind, .. }) if kind == "GPUNode"),
        "{err:?}"
    );
    let waited = recorder.publish_and_wait(
        NodeCreated::new("i-0abc", "10.0.0.9"),
        &ForeignPool::named("p"),
        std::time::Duration::from_secs(1),
    );
    assert!(matches!(waited.await, Err(PublishError::Invalid(InvalidEvent::WrongGroup { .. }))));
    assert_eq!(fake.events().len(), 1, "nothing else was written");
}
