//! Helpers shared by the recorder's integration tests.
#![allow(dead_code)]

use std::time::Duration;

use gpu_events_recorder::{Recorder, RecorderBuilder, RetryPolicy};
use gpu_events_testkit::ApiServer;
use k8s_openapi::api::core::v1::Pod;
use kube::api::ObjectMeta;
use serde_json::Value;

/// A Pod with a name, a namespace and the uid `uid-{name}`.
pub fn pod(namespace: &str, name: &str) -> Pod {
    let metadata = ObjectMeta {
        name: Some(name.into()),
        namespace: Some(namespace.into()),
        uid: Some(format!("uid-{name}")),
        ..ObjectMeta::default()
    };
    Pod { metadata, ..Pod::default() }
}

/// A recorder builder against `server` (kube's client without its own retries) with fast,
/// bounded retries of the recorder's: 4 attempts, 5 to 20 ms apart.
pub fn fast_retries(server: &ApiServer, controller: &str, instance: &str) -> RecorderBuilder {
    Recorder::builder(server.client_without_retry(), controller).instance(instance).retry(RetryPolicy {
        max_attempts: 4,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
    })
}

/// The occurrences a stored Event stands for: `series.count`, else 1.
pub fn count_of(event: &Value) -> i64 {
    event.pointer("/series/count").and_then(Value::as_i64).unwrap_or(1)
}
