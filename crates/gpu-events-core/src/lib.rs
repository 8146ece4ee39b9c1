//! Typed Kubernetes events for GPU platforms: the reason catalogue, the normalized
//! [`EventRecord`], decoders for the inputs people have (Event JSON and YAML, Lists, watch
//! streams, and pastes: `kubectl describe`, `kubectl get events` tables, klog lines, status
//! blocks, mixed), and a diagnosis of stuck GPU Pods.
//!
//! No I/O beyond reading what it is given, no kube client, no async runtime. A library crate: it
//! selects no `k8s-openapi` version feature; the binary or test that links it does
//! (`k8s-openapi = { version = "0.29", features = ["latest"] }`), as with kube. A bare `cargo build` or
//! `cargo doc` of this crate, or of a library on it, needs `K8S_OPENAPI_ENABLED_VERSION=1.37` in the
//! environment (any version k8s-openapi 0.29 supports, 1.33 to 1.37), or it stops in k8s-openapi's build script.
//!
//! # Map
//!
//! | module | what it holds |
//! |---|---|
//! | [`reason`] | the catalogue: one row per reason ([`Reason`], [`ReasonInfo`]: wire string, type, source, regarding kinds, grammar) |
//! | [`details`] | the grammars: a reason's note as typed fields ([`details::Details`], one family per source) |
//! | [`record`] | [`EventRecord`], the one normalized shape of a `core/v1` or `events.k8s.io/v1` Event, and its [`Flag`]s |
//! | [`decode`] | [`decode::Decoder`]: any input to records, with errors that name the line, document or item |
//! | [`diagnose`] | [`diagnose::diagnose`]: why each object is stuck, with evidence and next steps |
//! | [`accelerators`] | the accelerator resource names (`nvidia.com/gpu`, HAMi, Ascend, vCUDA, ...) as one table |
//!
//! # A tour
//!
//! ```
//! use gpu_events_core::decode::Decoder;
//! use gpu_events_core::details::{Details, SchedulingDetails};
//! use gpu_events_core::diagnose::diagnose;
//!
//! // A pasted `kubectl describe pod` section.
//! let paste = "\
//! Name:         llama-0
//! Namespace:    ml
//! Events:
//!   Type     Reason            Age   From               Message
//!   ----     ------            ----  ----               -------
//!   Warning  FailedScheduling  2m    default-scheduler  0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.
//! ";
//! let records: Vec<_> = Decoder::from_str(paste).collect::<Result<_, _>>()?;
//! let record = &records[0];
//! assert_eq!(record.reason, "FailedScheduling");
//! assert_eq!(record.regarding.name.as_deref(), Some("llama-0"));
//! // The note, typed: the FitError's histogram.
//! let Some(Details::Scheduling(SchedulingDetails::FitError(fit))) = &record.details else { panic!() };
//! assert_eq!(fit.total_nodes, Some(4));
//! // And what an engineer would conclude.
//! let [diagnosis] = diagnose(&records).try_into().unwrap();
//! assert_eq!(diagnosis.cause.id(), "insufficient-gpu");
//! # Ok::<(), gpu_events_core::decode::DecodeError>(())
//! ```

pub mod accelerators;
pub mod decode;
pub mod details;
pub mod diagnose;

mod event_type;
pub mod reason;
pub mod record;
mod time;

pub use event_type::{EventType, OtherEventType};
pub use reason::{Group, Reason, ReasonInfo, ReasonName, Source};
pub use record::{EventRecord, EventRecordBuilder, Flag, ObjectReference};
