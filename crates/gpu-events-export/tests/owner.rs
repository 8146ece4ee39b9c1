//! Owner resolution against the testkit API server over HTTP: chains, the TensorFusion label,
//! caching (asserted on the request log), rate limiting, 403, 404, transient errors.

use std::time::Duration;

use gpu_events_core::EventRecord;
use gpu_events_core::decode::Decoder;
use gpu_events_export::Owner;
use gpu_events_export::owner::{OwnerConfig, OwnerCounters, OwnerError, OwnerKind, OwnerResolver};
use gpu_events_testkit::{ApiServer, Fault, ResourceType};
use serde_json::{Value, json};

fn uid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// A controller owner reference.
fn controller(api_version: &str, kind: &str, name: &str, owner_uid: &str) -> Value {
    json!({"apiVersion": api_version, "kind": kind, "name": name, "uid": owner_uid, "controller": true,
           "blockOwnerDeletion": true})
}

/// Seeds an object in `ml` with an optional controller owner and labels.
fn seed(server: &ApiServer, api_version: &str, kind: &str, name: &str, id: u32, owner: Option<Value>, labels: Value) {
    let mut meta = json!({"name": name, "namespace": "ml", "uid": uid(id), "labels": labels});
    if let Some(owner) = owner {
        meta["ownerReferences"] = json!([owner]);
    }
    server.insert(json!({"apiVersion": api_version, "kind": kind, "metadata": meta})).expect("the object is stored");
}

/// Deployment llama (1) -> ReplicaSet llama-7d4 (2) -> Pods llama-7d4-a (3), llama-7d4-b (4).
fn seed_deployment(server: &ApiServer) {
    seed(server, "apps/v1", "Deployment", "llama", 1, None, json!({}));
    let rs_owner = controller("apps/v1", "Deployment", "llama", &uid(1));
    seed(server, "apps/v1", "ReplicaSet", "llama-7d4", 2, Some(rs_owner), json!({}));
    for (name, id) in [("llama-7d4-a", 3), ("llama-7d4-b", 4)] {
        let pod_owner = controller("apps/v1", "ReplicaSet", "llama-7d4", &uid(2));
        seed(server, "v1", "Pod", name, id, Some(pod_owner), json!({"app": "llama"}));
    }
}

/// The record of a core/v1 Event about an object of `ml`.
fn event_about(api_version: &str, kind: &str, name: &str, object_uid: Option<&str>) -> EventRecord {
    let mut involved = json!({"apiVersion": api_version, "kind": kind, "namespace": "ml", "name": name});
    if let Some(u) = object_uid {
        involved["uid"] = json!(u);
    }
    let event = json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{name}.1"), "namespace": "ml"},
        "reason": "FailedScheduling", "type": "Warning", "involvedObject": involved,
        "message": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "source": {"component": "default-scheduler"},
    });
    let mut records: Vec<EventRecord> =
        Decoder::from_str(&event.to_string()).collect::<Result<_, _>>().expect("the event decodes");
    records.remove(0)
}

fn pod_event(name: &str, id: u32) -> EventRecord {
    event_about("v1", "Pod", name, Some(&uid(id)))
}

fn enabled() -> OwnerConfig {
    let mut config = OwnerConfig::default();
    config.enabled = true;
    config
}

fn resolver(server: &ApiServer, config: OwnerConfig) -> OwnerResolver {
    OwnerResolver::new(server.client_without_retry(), config).expect("the config is valid")
}

/// The paths of the GET requests made so far.
fn gets(server: &ApiServer) -> Vec<String> {
    server.requests().into_iter().filter(|r| r.method == "GET").map(|r| r.path).collect()
}

fn owner(kind: &str, name: &str) -> Option<Owner> {
    Some(Owner::new(kind, Some("ml".into()), name))
}

#[tokio::test]
async fn pod_replicaset_deployment_chain_is_fetched_once_per_object() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(
        gets(&server),
        [
            "/api/v1/namespaces/ml/pods/llama-7d4-a",
            "/apis/apps/v1/namespaces/ml/replicasets/llama-7d4",
            "/apis/apps/v1/namespaces/ml/deployments/llama",
        ]
    );
    // The same Pod again: all from the cache.
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(gets(&server).len(), 3);
    // A sibling Pod: only the Pod itself is fetched.
    assert_eq!(r.resolve(&pod_event("llama-7d4-b", 4)).await, owner("Deployment", "llama"));
    assert_eq!(gets(&server).len(), 4);
    assert_eq!(gets(&server)[3], "/api/v1/namespaces/ml/pods/llama-7d4-b");
    // An event about the ReplicaSet itself: cached too.
    assert_eq!(
        r.resolve(&event_about("apps/v1", "ReplicaSet", "llama-7d4", Some(&uid(2)))).await,
        owner("Deployment", "llama")
    );
    assert_eq!(gets(&server).len(), 4);

    let c = r.counters();
    assert_eq!((c.lookups, c.requests, c.cache_hits, c.errors, c.skipped_rate_limited), (4, 4, 3 + 2 + 2, 0, 0));
}

#[tokio::test]
async fn job_cronjob_statefulset_daemonset_chains() {
    let server = ApiServer::start().await;
    seed(&server, "batch/v1", "CronJob", "nightly", 10, None, json!({}));
    let job_owner = controller("batch/v1", "CronJob", "nightly", &uid(10));
    seed(&server, "batch/v1", "Job", "nightly-2901", 11, Some(job_owner), json!({}));
    let pod_owner = controller("batch/v1", "Job", "nightly-2901", &uid(11));
    seed(&server, "v1", "Pod", "nightly-2901-x", 12, Some(pod_owner), json!({}));
    seed(&server, "apps/v1", "StatefulSet", "vllm", 20, None, json!({}));
    seed(&server, "v1", "Pod", "vllm-0", 21, Some(controller("apps/v1", "StatefulSet", "vllm", &uid(20))), json!({}));
    seed(&server, "apps/v1", "DaemonSet", "dcgm", 30, None, json!({}));
    seed(&server, "v1", "Pod", "dcgm-q", 31, Some(controller("apps/v1", "DaemonSet", "dcgm", &uid(30))), json!({}));
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("nightly-2901-x", 12)).await, owner("CronJob", "nightly"));
    assert_eq!(gets(&server).len(), 3);
    assert_eq!(gets(&server)[2], "/apis/batch/v1/namespaces/ml/cronjobs/nightly");
    assert_eq!(r.resolve(&pod_event("vllm-0", 21)).await, owner("StatefulSet", "vllm"));
    assert_eq!(r.resolve(&pod_event("dcgm-q", 31)).await, owner("DaemonSet", "dcgm"));
    assert_eq!(gets(&server).len(), 7);
    assert_eq!(r.counters().errors, 0);
}

#[tokio::test]
async fn objects_without_a_controller_owner_are_their_own_owner() {
    let server = ApiServer::start().await;
    seed(&server, "v1", "Pod", "bare", 40, None, json!({}));
    // A non-controller reference (e.g. a garbage-collection parent) is not followed.
    let mut not_controller = controller("apps/v1", "Deployment", "other", &uid(41));
    not_controller["controller"] = json!(false);
    seed(&server, "v1", "Pod", "adopted", 42, Some(not_controller), json!({}));
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("bare", 40)).await, owner("Pod", "bare"));
    assert_eq!(r.resolve(&pod_event("adopted", 42)).await, owner("Pod", "adopted"));
    assert_eq!(gets(&server).len(), 2);
    // Kinds outside the fetchable table (Nodes, GPUPools, ...) are answered without a request.
    let node = event_about("v1", "Node", "gpu-node-1", None);
    let mut node = node;
    node.regarding.namespace = None;
    assert_eq!(r.resolve(&node).await, Some(Owner::new("Node", None, "gpu-node-1")));
    assert_eq!(gets(&server).len(), 2);
}

#[tokio::test]
async fn unknown_owner_kinds_are_the_top_owner_without_a_request() {
    let server = ApiServer::start().await;
    let lws = controller("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "llama-lws", &uid(50));
    seed(&server, "apps/v1", "StatefulSet", "llama-lws-0", 51, Some(lws), json!({}));
    let sts = controller("apps/v1", "StatefulSet", "llama-lws-0", &uid(51));
    seed(&server, "v1", "Pod", "llama-lws-0-1", 52, Some(sts), json!({}));
    let ray = controller("ray.io/v1", "RayCluster", "raycluster-a", &uid(53));
    seed(&server, "v1", "Pod", "raycluster-a-head", 54, Some(ray), json!({}));
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("llama-lws-0-1", 52)).await, owner("LeaderWorkerSet", "llama-lws"));
    assert_eq!(r.resolve(&pod_event("raycluster-a-head", 54)).await, owner("RayCluster", "raycluster-a"));
    assert_eq!(
        gets(&server),
        [
            "/api/v1/namespaces/ml/pods/llama-lws-0-1",
            "/apis/apps/v1/namespaces/ml/statefulsets/llama-lws-0",
            "/api/v1/namespaces/ml/pods/raycluster-a-head",
        ]
    );
}

#[tokio::test]
async fn extra_kinds_are_followed() {
    let server = ApiServer::start().await;
    seed(&server, "ray.io/v1", "RayJob", "train", 60, None, json!({}));
    seed(
        &server,
        "ray.io/v1",
        "RayCluster",
        "train-raycluster",
        61,
        Some(controller("ray.io/v1", "RayJob", "train", &uid(60))),
        json!({}),
    );
    seed(
        &server,
        "v1",
        "Pod",
        "train-head",
        62,
        Some(controller("ray.io/v1", "RayCluster", "train-raycluster", &uid(61))),
        json!({}),
    );
    let mut config = enabled();
    config.extra_kinds = vec![OwnerKind::new("ray.io", "v1", "RayCluster", "rayclusters", true)];
    let r = resolver(&server, config);
    // RayCluster is fetched; RayJob is not in the table, so it is the top without a request.
    assert_eq!(r.resolve(&pod_event("train-head", 62)).await, owner("RayJob", "train"));
    assert_eq!(gets(&server).len(), 2);
    assert_eq!(gets(&server)[1], "/apis/ray.io/v1/namespaces/ml/rayclusters/train-raycluster");
}

#[tokio::test]
async fn tensor_fusion_workload_by_label_and_by_reference() {
    let server = ApiServer::start().await;
    seed(&server, "tensor-fusion.ai/v1", "TensorFusionWorkload", "qwen", 70, None, json!({}));
    // A worker Pod with only the label.
    seed(&server, "v1", "Pod", "qwen-worker-1", 71, None, json!({"tensor-fusion.ai/workload": "qwen"}));
    // A worker Pod owned by reference.
    let tfw = controller("tensor-fusion.ai/v1", "TensorFusionWorkload", "qwen", &uid(70));
    seed(&server, "v1", "Pod", "qwen-worker-2", 72, Some(tfw), json!({"tensor-fusion.ai/workload": "qwen"}));
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("qwen-worker-1", 71)).await, owner("TensorFusionWorkload", "qwen"));
    assert_eq!(
        gets(&server),
        [
            "/api/v1/namespaces/ml/pods/qwen-worker-1",
            "/apis/tensor-fusion.ai/v1/namespaces/ml/tensorfusionworkloads/qwen"
        ]
    );
    assert_eq!(r.resolve(&pod_event("qwen-worker-2", 72)).await, owner("TensorFusionWorkload", "qwen"));
    // The workload is keyed with its uid this time, so it is fetched once more.
    assert_eq!(gets(&server).len(), 4);

    // The label alone is enough even when the workload cannot be read (here: not served at all).
    let server = ApiServer::start().await;
    seed(&server, "v1", "Pod", "w", 73, None, json!({"tensor-fusion.ai/workload": "gone"}));
    let r = resolver(&server, enabled());
    assert_eq!(r.resolve(&pod_event("w", 73)).await, owner("TensorFusionWorkload", "gone"));
    assert_eq!(r.counters().not_found, 1);
}

#[tokio::test]
async fn forbidden_ends_the_chain_and_is_cached() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    server.deny("get", &ResourceType::REPLICA_SETS);
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("ReplicaSet", "llama-7d4"));
    let statuses: Vec<Option<u16>> = server.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [Some(200), Some(403)]);
    // Cached as "no owner": no new request, the same answer.
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("ReplicaSet", "llama-7d4"));
    assert_eq!(server.requests().len(), 2);
    let c = r.counters();
    assert_eq!((c.forbidden, c.not_found, c.errors, c.requests), (1, 0, 1, 2));

    // Forbidden on the Pods themselves: the Pod is the highest object seen.
    let server = ApiServer::start().await;
    seed_deployment(&server);
    server.deny("get", &ResourceType::PODS);
    let r = resolver(&server, enabled());
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Pod", "llama-7d4-a"));
    assert_eq!(r.counters().forbidden, 1);
}

#[tokio::test]
async fn not_found_is_cached_as_no_owner() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    server.remove(&ResourceType::DEPLOYMENTS, Some("ml"), "llama");
    let r = resolver(&server, enabled());

    // The Deployment is gone (404): the chain ends at the reference the ReplicaSet still holds.
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(r.counters().not_found, 1);
    // A deleted Pod: its own owner, cached.
    assert_eq!(r.resolve(&pod_event("gone-pod", 99)).await, owner("Pod", "gone-pod"));
    assert_eq!(r.resolve(&pod_event("gone-pod", 99)).await, owner("Pod", "gone-pod"));
    let c = r.counters();
    assert_eq!((c.not_found, c.requests, c.errors), (2, 4, 2));
}

#[tokio::test]
async fn a_recreated_object_with_another_uid_is_treated_as_gone() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    let r = resolver(&server, enabled());
    // The event is about an earlier Pod of that name (another uid).
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 999)).await, owner("Pod", "llama-7d4-a"));
    assert_eq!(gets(&server).len(), 1);
    // The current Pod was remembered under its own uid: only its owners are fetched now.
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(gets(&server).len(), 3);
}

#[tokio::test]
async fn rate_limit_skips_lookups_without_waiting() {
    let server = ApiServer::start().await;
    for i in 0..4 {
        seed(&server, "v1", "Pod", &format!("p{i}"), 100 + i, None, json!({}));
    }
    let mut config = enabled();
    config.qps = 10.0;
    config.burst = 2;
    let r = resolver(&server, config);

    let started = std::time::Instant::now();
    assert_eq!(r.resolve(&pod_event("p0", 100)).await, owner("Pod", "p0"));
    assert_eq!(r.resolve(&pod_event("p1", 101)).await, owner("Pod", "p1"));
    assert_eq!(r.resolve(&pod_event("p2", 102)).await, None, "no token left");
    assert!(started.elapsed() < Duration::from_millis(90), "skipping does not wait for a token");
    assert_eq!(gets(&server).len(), 2);
    // Cached answers need no token.
    assert_eq!(r.resolve(&pod_event("p0", 100)).await, owner("Pod", "p0"));
    let c = r.counters();
    assert_eq!((c.lookups, c.requests, c.skipped_rate_limited, c.cache_hits), (4, 2, 1, 1));
    // A token comes back after 1/qps.
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(r.resolve(&pod_event("p2", 102)).await, owner("Pod", "p2"));
    assert_eq!(r.resolve(&pod_event("p3", 103)).await, None);
    assert_eq!(r.counters().skipped_rate_limited, 2);
}

#[tokio::test]
async fn transient_errors_answer_none_and_are_not_cached() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    server.inject(Fault::status(500).path_prefix("/apis/apps/v1/namespaces/ml/replicasets/"));
    let r = resolver(&server, enabled());

    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, None);
    assert_eq!(r.counters().errors, 1);
    // Next time: the Pod from the cache, the ReplicaSet asked again.
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(gets(&server).len(), 4);

    // A dropped connection and a slow answer (beyond the request timeout) are errors too.
    let server = ApiServer::start().await;
    seed_deployment(&server);
    server.inject(Fault::drop_connection());
    server.inject(Fault::delay(Duration::from_millis(500)));
    let mut config = enabled();
    config.request_timeout = Duration::from_millis(100);
    let r = resolver(&server, config);
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, None);
    let started = std::time::Instant::now();
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, None);
    assert!(started.elapsed() < Duration::from_millis(400));
    assert_eq!(r.counters().errors, 2);
}

#[tokio::test]
async fn ttl_expires_answers_and_the_cache_is_bounded() {
    let server = ApiServer::start().await;
    for i in 0..5 {
        seed(&server, "v1", "Pod", &format!("p{i}"), 200 + i, None, json!({}));
    }
    let mut config = enabled();
    config.ttl = Duration::from_millis(150);
    config.cache_size = 2;
    let r = resolver(&server, config);
    for i in 0..5 {
        assert_eq!(r.resolve(&pod_event(&format!("p{i}"), 200 + i)).await, owner("Pod", &format!("p{i}")));
    }
    assert_eq!(r.cache_len(), 2);
    assert_eq!(gets(&server).len(), 5);
    // p4 is cached, p0 was evicted.
    r.resolve(&pod_event("p4", 204)).await;
    assert_eq!(gets(&server).len(), 5);
    r.resolve(&pod_event("p0", 200)).await;
    assert_eq!(gets(&server).len(), 6);
    // After the TTL, p0 is fetched again.
    tokio::time::sleep(Duration::from_millis(200)).await;
    r.resolve(&pod_event("p0", 200)).await;
    assert_eq!(gets(&server).len(), 7);
}

#[tokio::test]
async fn concurrent_lookups_fetch_each_object_once() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    let r = std::sync::Arc::new(resolver(&server, enabled()));
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let r = r.clone();
            let (name, id) = if i % 2 == 0 { ("llama-7d4-a", 3) } else { ("llama-7d4-b", 4) };
            tokio::spawn(async move { r.resolve(&pod_event(name, id)).await })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), owner("Deployment", "llama"));
    }
    // Two Pods, one ReplicaSet, one Deployment.
    assert_eq!(gets(&server).len(), 4);
}

#[tokio::test]
async fn disabled_resolver_and_records_without_an_object_make_no_request() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    let r = resolver(&server, OwnerConfig::default());
    assert!(!r.enabled());
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, None);
    let r = resolver(&server, enabled());
    let mut nameless = pod_event("x", 1);
    nameless.regarding.name = None;
    assert_eq!(r.resolve(&nameless).await, None);
    assert!(server.requests().is_empty());
    assert_eq!(r.counters(), OwnerCounters::default());
}

#[tokio::test]
async fn invalid_settings_are_rejected_with_what_to_fix() {
    let server = ApiServer::start().await;
    type Change = fn(&mut OwnerConfig);
    let cases: Vec<(Change, &str)> = vec![
        (|c| c.qps = 0.0, "qps"),
        (|c| c.qps = f64::NAN, "qps"),
        (|c| c.burst = 0, "burst"),
        (|c| c.cache_size = 0, "cacheSize"),
        (|c| c.ttl = Duration::ZERO, "ttl"),
        (|c| c.request_timeout = Duration::ZERO, "requestTimeout"),
        (|c| c.extra_kinds = vec![OwnerKind::new("ray.io", "v1", "RayJob", "", true)], "extraKinds"),
    ];
    for (change, field) in cases {
        let mut config = enabled();
        change(&mut config);
        let err = OwnerResolver::new(server.client(), config).expect_err(field);
        let OwnerError::InvalidConfig { field: f, .. } = &err else { panic!("unexpected {err:?}") };
        assert_eq!(*f, field);
        assert!(err.to_string().starts_with(&format!("owner resolution: {field} = ")), "{err}");
    }
}

#[tokio::test]
async fn extreme_settings_do_not_panic() {
    let server = ApiServer::start().await;
    seed_deployment(&server);
    let mut config = enabled();
    config.ttl = Duration::MAX;
    config.request_timeout = Duration::MAX;
    config.qps = f64::MAX;
    config.burst = u32::MAX;
    config.cache_size = usize::MAX;
    let r = resolver(&server, config);
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(r.resolve(&pod_event("llama-7d4-a", 3)).await, owner("Deployment", "llama"));
    assert_eq!(gets(&server).len(), 3);
}
