//! Typed Kubernetes events for GPU platforms: the reason catalogue, the normalized
//! [`EventRecord`], and decoders for the inputs people have (JSON, YAML, Lists, streams).
//!
//! No I/O beyond reading what it is given, no kube client, no async runtime.

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
