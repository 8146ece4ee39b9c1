//! A typed Kubernetes event recorder for GPU controllers, on kube-rs.
//!
//! The typed details of a reason decide everything else: reason, type, action and note come
//! from [`gpu_events_core`]'s catalogue and grammars, so what is written is what the core parser
//! reads back, to the same details.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use gpu_events_core::details::tensorfusion::{GangMembersWaiting, NodeCreated};
//! use gpu_events_recorder::{GpuPool, Recorder};
//! use k8s_openapi::api::core::v1::Pod;
//! use kube::Api;
//!
//! let client = kube::Client::try_default().await?;
//! let recorder = Recorder::builder(client.clone(), "tensor-fusion.ai/my-controller").build()?;
//!
//! let pod = Api::<Pod>::namespaced(client, "ml").get("llama-train-worker-0").await?;
//! // GangWaitingForMembers, Normal, action "Waiting", note "Waiting for gang members: 2/4 ready".
//! recorder.publish(GangMembersWaiting::new(2, 4), &pod)?;
//! // ManagedNodeCreated on a cluster-scoped GPUPool: written to namespace `default`.
//! recorder.publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &GpuPool::new("pool-a", None))?;
//! // recorder.publish(NodeCreated::new(..), &pod) does not compile: the reason is about GPUPools.
//! recorder.shutdown().await; // writes pending series counts
//! # Ok(()) }
//! ```
//!
//! What it guarantees, where kube's `Recorder` (kube 5.0) and client-go leave it to chance:
//!
//! * **Valid by construction** (events.k8s.io/v1, kubernetes `pkg/apis/core/validation/events.go`):
//!   reason, action and reportingInstance within 128 bytes, the note within 1024 bytes (cut on a
//!   UTF-8 boundary, ending ` ...`), reportingController a qualified name (checked by
//!   [`RecorderBuilder::build`]), event names DNS subdomains, cluster-scoped objects' events in a
//!   configurable namespace (`default`).
//! * **Series without a flood**: one create, one PATCH of `series` alone when the series starts,
//!   then counting in memory, a heartbeat write before the event TTL and a final write when the
//!   series goes quiet or on [`Recorder::flush`]: 1000 repeats cost at most 3 writes.
//! * **Fresh**: the note is part of the key, so a changed note is a new event.
//! * **Robust**: a 404 on a series write re-creates the event; a 409 on create is told apart
//!   from a lost answer; 429, 5xx and transport errors get bounded retries with jitter;
//!   validation and RBAC errors surface at once ([`Stats::rejected`], `tracing`, or the error of
//!   [`Recorder::publish_and_wait`]). Concurrent first publishes of one key create one event.
//! * **Never blocks a reconcile**: publishing is a short in-memory step plus a bounded queue;
//!   drops are counted. Memory is bounded by [`RecorderBuilder::max_keys`].
//!
//! A reason published on an object of the wrong kind does not compile (here a GPUPool reason
//! on a Pod); with a reference, whose kind is known only at run time, it is
//! [`InvalidEvent::WrongKind`]:
//!
//! ```compile_fail,E0277
//! # fn wrong(recorder: &gpu_events_recorder::Recorder, pod: &k8s_openapi::api::core::v1::Pod) {
//! use gpu_events_core::details::tensorfusion::NodeCreated;
//! recorder.publish(NodeCreated::new("i-0abc", "10.0.0.9"), pod);
//! # }
//! ```
//!
//! Reasons whose note carries no data are the unit structs of [`fixed`]; reasons outside the
//! catalogue go through [`RawEvent`], validated the same way.
//!
//! # In your tests
//!
//! [`FakeRecorder`] is the same recorder over an in-memory API (same validation, keys and series) and
//! [`ManualClock`] moves time by hand. A controller's unit test, with `tokio = { version = "1", features =
//! ["macros", "rt"] }` among its dev-dependencies (this runs as a doctest):
//!
//! ```
//! use gpu_events_core::details::tensorfusion::GangMembersWaiting;
//! use gpu_events_recorder::FakeRecorder;
//! use k8s_openapi::api::core::v1::Pod;
//! use kube::api::ObjectMeta;
//!
//! # /*
//! #[tokio::test]
//! # */
//! async fn waiting_gang_is_one_event_however_often_it_is_reconciled() {
//!     let fake = FakeRecorder::new("tensor-fusion.ai/my-controller").unwrap();
//!     let meta = ObjectMeta { name: Some("llama-0".into()), namespace: Some("ml".into()), ..Default::default() };
//!     let pod = Pod { metadata: meta, ..Default::default() };
//!     for _ in 0..1000 {
//!         fake.recorder().publish(GangMembersWaiting::new(2, 4), &pod).unwrap(); // your reconcile, in real life
//!     }
//!     fake.recorder().flush().await;
//!     let [event] = fake.events().try_into().unwrap();
//!     assert_eq!(event.reason.as_deref(), Some("GangWaitingForMembers"));
//!     assert_eq!(event.series.map(|s| s.count), Some(1000));
//!     assert!(fake.writes().len() <= 3, "1000 repeats, at most 3 writes");
//! }
//! # #[tokio::main(flavor = "current_thread")] async fn main() { waiting_gang_is_one_event_however_often_it_is_reconciled().await }
//! ```
//!
//! To test over HTTP against an API server that validates Events as kube-apiserver does (and can fail on
//! request), the `gpu-events-testkit` crate is a local API server double: `gpu-events-testkit = { version =
//! "0.1", features = ["kube"] }` in dev-dependencies, then:
//!
//! ```
//! use gpu_events_core::details::tensorfusion::GangMembersWaiting;
//! use gpu_events_recorder::Recorder;
//! use gpu_events_testkit::ApiServer;
//! use k8s_openapi::api::core::v1::Pod;
//! use kube::api::ObjectMeta;
//!
//! # /*
//! #[tokio::test]
//! # */
//! async fn the_api_server_takes_the_event() {
//!     let server = ApiServer::start().await;
//!     let recorder = Recorder::builder(server.client(), "tensor-fusion.ai/my-controller").build().unwrap();
//!     let meta = ObjectMeta { name: Some("llama-0".into()), namespace: Some("ml".into()), ..Default::default() };
//!     let pod = Pod { metadata: meta, ..Default::default() };
//!     recorder.publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
//!     recorder.shutdown().await;
//!     let [event] = server.events().try_into().unwrap();
//!     assert_eq!(event["note"], "Waiting for gang members: 2/4 ready");
//! }
//! # #[tokio::main(flavor = "current_thread")] async fn main() { the_api_server_takes_the_event().await }
//! ```
//!
//! # From kube's recorder
//!
//! A controller that has a `kube::runtime::events::Reporter` builds the recorder from it
//! (`Recorder::builder(client, reporter)`, see [`Reporting`]); kube's own `Event` is an [`IntoEvent`], and the
//! arguments come in kube's order, so `kube_recorder.publish(&event, &reference).await` becomes
//! `recorder.publish_ref(&event, &reference)` (checked, counted in memory, never blocking). Typed publishes
//! take a `related` object ([`Recorder::publish_related`], [`WithRelated`]); your own CRD types of a
//! TensorFusion kind (kopium's `GPUPool`) are accepted once declared [`SameKind`] as the handle.
//! (Feature `kube-runtime`, on by default, brings these kube conversions.)
//!
//! # Kubernetes version
//!
//! A library crate: it enables no Kubernetes version feature of k8s-openapi; the binary or test that links it
//! picks one (`k8s-openapi = { version = "0.29", features = ["latest"] }`), as with kube. A bare `cargo build`
//! or `cargo doc` of a library on this crate needs `K8S_OPENAPI_ENABLED_VERSION=1.37` in the environment (any
//! version k8s-openapi 0.29 supports, 1.33 to 1.37).
//!
//! # Map
//!
//! | item | what it is for |
//! |---|---|
//! | [`Recorder`], [`RecorderBuilder`], [`Reporting`] | publishing: [`Recorder::publish`] (typed object), [`Recorder::publish_related`] (and a related object), [`Recorder::publish_ref`] (a reference), [`Recorder::flush`], [`Recorder::shutdown`] |
//! | [`IntoEvent`], [`Publishable`], [`SameKind`], [`WithRelated`], [`EventSpec`] | what can be published, on what: the core crate's typed details, [`fixed`] reasons, [`RawEvent`], kube's `Event` |
//! | [`GpuPool`], [`GpuNode`], [`TensorFusionWorkload`], [`TensorFusionConnection`] | handles for TensorFusion's objects, when their CRD types are not at hand |
//! | [`SpamFilter`], [`RetryPolicy`], [`Clock`] | the knobs of [`RecorderBuilder`] |
//! | [`Stats`], [`Dropped`], [`Published`] | what happened to each publish, counted |
//! | [`PublishError`], [`InvalidEvent`], [`BuildError`], [`WriteError`] | errors, each naming the field or the write |
//! | [`validate`] | the API server's Event rules, as functions |
//! | [`FakeRecorder`], [`ManualClock`], [`FakeWrite`] | tests |

mod backend;
mod cache;
mod clock;
mod error;
mod event;
mod fake;
mod handle;
mod name;
mod object_key;
mod recorder;
mod reporting;
mod spam;
mod stats;
pub mod validate;
mod worker;

pub use backend::FakeWrite;
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::{BuildError, InvalidEvent, PublishError, WriteError};
pub use event::{EventSpec, IntoEvent, Publishable, RawEvent, SameKind, WithRelated, fixed};
pub use fake::FakeRecorder;
/// The Event `type`: core's one type, re-exported (the recorder writes `Normal` and `Warning`
/// only and refuses the others with [`InvalidEvent::Type`]).
pub use gpu_events_core::EventType;
pub use handle::{GpuNode, GpuPool, TENSOR_FUSION_GROUP, TensorFusionConnection, TensorFusionWorkload};
pub use recorder::{Dropped, Published, Recorder, RecorderBuilder};
pub use reporting::Reporting;
pub use spam::SpamFilter;
pub use stats::Stats;
pub use worker::RetryPolicy;
