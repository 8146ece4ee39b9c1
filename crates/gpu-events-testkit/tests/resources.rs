//! Seeded objects (Pods with status, custom resources), discovery, kubeconfig and namespace lifecycle.

use gpu_events_testkit::{ApiServer, ResourceType, ServerConfig};
use k8s_openapi::api::core::v1::{Namespace, Pod};
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{
    ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams, PostParams,
};
use serde_json::json;

fn pod(name: &str, phase: &str, node: &str) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": name, "namespace": "ml", "labels": {"app": "llama"}},
           "spec": {"nodeName": node, "containers": [{"name": "main", "image": "vllm:latest"}]},
           "status": {"phase": phase, "containerStatuses": [{"name": "main", "ready": false, "restartCount": 5,
               "image": "vllm:latest", "imageID": "",
               "state": {"waiting": {"reason": "CrashLoopBackOff"}},
               "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}})
}

#[tokio::test]
async fn seeded_pods_are_read_with_their_status() {
    let server = ApiServer::start().await;
    let stored = server.insert(pod("llama-0", "Running", "gpu-node-1")).unwrap();
    assert!(stored["metadata"]["uid"].is_string());
    server.insert(pod("llama-1", "Pending", "")).unwrap();
    let pods: Api<Pod> = Api::namespaced(server.client(), "ml");

    let p = pods.get("llama-0").await.unwrap();
    let cs = &p.status.as_ref().unwrap().container_statuses.as_ref().unwrap()[0];
    assert_eq!(cs.restart_count, 5);
    assert_eq!(cs.last_state.as_ref().unwrap().terminated.as_ref().unwrap().reason.as_deref(), Some("OOMKilled"));
    let status = pods.get_status("llama-1").await.unwrap();
    assert_eq!(status.status.unwrap().phase.as_deref(), Some("Pending"));

    let pending = pods.list(&ListParams::default().fields("status.phase=Pending")).await.unwrap();
    assert_eq!(pending.items.len(), 1);
    let on_node =
        pods.list(&ListParams::default().fields("spec.nodeName=gpu-node-1").labels("app in (llama)")).await.unwrap();
    assert_eq!(on_node.items[0].metadata.name.as_deref(), Some("llama-0"));
    let err = pods.list(&ListParams::default().fields("status.reason=x")).await.unwrap_err();
    assert!(matches!(err, kube::Error::Api(s) if s.code == 400));

    // Status changes go through the status subresource only.
    let patch = Patch::Merge(json!({"status": {"phase": "Failed"}, "spec": {"nodeName": "other"}}));
    let patched = pods.patch_status("llama-1", &PatchParams::default(), &patch).await.unwrap();
    assert_eq!(patched.status.unwrap().phase.as_deref(), Some("Failed"));
    assert_eq!(patched.spec.unwrap().node_name.as_deref(), Some(""));

    let missing = pods.get("llama-9").await.unwrap_err();
    assert!(matches!(missing, kube::Error::Api(s) if s.code == 404 && s.message == "pods \"llama-9\" not found"));
    // Pods answer a delete with the object.
    assert!(pods.delete("llama-0", &DeleteParams::default()).await.unwrap().is_left());
    assert!(server.get(&ResourceType::PODS, Some("ml"), "llama-0").is_none());
}

#[tokio::test]
async fn custom_resources_and_discovery() {
    let server = ApiServer::start().await;
    // Inserting an unknown kind registers it: GPUPool is cluster-scoped (no namespace).
    server
        .insert(json!({"apiVersion": "tensor-fusion.ai/v1", "kind": "GPUPool", "metadata": {"name": "pool-a"},
                       "spec": {"capacityConfig": {}}}))
        .unwrap();
    server.register(ResourceType::new("tensor-fusion.ai", "v1", "tensorfusionworkloads", "TensorFusionWorkload", true));
    let gvk = GroupVersionKind::gvk("tensor-fusion.ai", "v1", "GPUPool");
    let ar = ApiResource::from_gvk_with_plural(&gvk, "gpupools");
    let pools: Api<DynamicObject> = Api::all_with(server.client(), &ar);
    let pool = pools.get("pool-a").await.unwrap();
    assert_eq!(pool.data["spec"], json!({"capacityConfig": {}}));

    let client = server.client();
    let info = client.apiserver_version().await.unwrap();
    assert_eq!(info.major, "1");
    let discovery = kube::discovery::Discovery::new(client.clone()).run().await.unwrap();
    let groups: Vec<String> = discovery.groups().map(|g| g.name().to_string()).collect();
    for g in ["", "events.k8s.io", "tensor-fusion.ai", "apps"] {
        assert!(groups.iter().any(|n| n == g), "{g} in {groups:?}");
    }
    let (ar, caps) = discovery.resolve_gvk(&GroupVersionKind::gvk("events.k8s.io", "v1", "Event")).unwrap();
    assert_eq!(ar.plural, "events");
    assert_eq!(caps.scope, kube::discovery::Scope::Namespaced);
    let (wl, _) =
        discovery.resolve_gvk(&GroupVersionKind::gvk("tensor-fusion.ai", "v1", "TensorFusionWorkload")).unwrap();
    assert_eq!(wl.plural, "tensorfusionworkloads");
}

#[tokio::test]
async fn a_kubeconfig_points_clients_at_the_server() {
    let server = ApiServer::start().await;
    server.insert(pod("llama-0", "Running", "gpu-node-1")).unwrap();
    let dir = std::env::temp_dir().join(format!("gpu-events-testkit-{}", server.addr().port()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kubeconfig");
    server.write_kubeconfig(&path, "ml").unwrap();
    let kubeconfig = kube::config::Kubeconfig::read_from(&path).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await.unwrap();
    assert_eq!(config.default_namespace, "ml");
    let client = kube::Client::try_from(config).unwrap();
    let pods: Api<Pod> = Api::default_namespaced(client);
    assert_eq!(pods.list(&ListParams::default()).await.unwrap().items.len(), 1);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn namespace_lifecycle_when_enforced() {
    let server = ApiServer::start_with(ServerConfig::default().enforce_namespaces(true)).await;
    let client = server.client_without_retry();
    let event: Event = serde_json::from_value(json!({
        "metadata": {"name": "e.1"}, "eventTime": "2026-11-30T05:40:03.002000Z",
        "reason": "R", "type": "Normal", "action": "A", "reportingController": "x.io/c", "reportingInstance": "i",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": "p"}
    }))
    .unwrap();
    let ml: Api<Event> = Api::namespaced(client.clone(), "ml");
    match ml.create(&PostParams::default(), &event).await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!((s.code, s.message.as_str()), (404, "namespaces \"ml\" not found")),
        other => panic!("unexpected {other:?}"),
    }
    let namespaces: Api<Namespace> = Api::all(client.clone());
    namespaces
        .create(&PostParams::default(), &serde_json::from_value(json!({"metadata": {"name": "ml"}})).unwrap())
        .await
        .unwrap();
    ml.create(&PostParams::default(), &event).await.unwrap();

    server
        .insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ml"},
                         "status": {"phase": "Terminating"}}))
        .unwrap();
    let mut second = event.clone();
    second.metadata.name = Some("e.2".into());
    match ml.create(&PostParams::default(), &second).await.unwrap_err() {
        kube::Error::Api(s) => {
            assert_eq!((s.code, s.reason.as_str()), (403, "Forbidden"));
            assert_eq!(s.details.unwrap().causes[0].reason, "NamespaceTerminating");
        }
        other => panic!("unexpected {other:?}"),
    }
    // The default namespace always exists (cluster-scoped objects' events go there).
    let default: Api<Event> = Api::namespaced(client, "default");
    let mut third = event.clone();
    third.regarding.as_mut().unwrap().namespace = Some("default".into());
    default.create(&PostParams::default(), &third).await.unwrap();
}

#[tokio::test]
async fn unknown_paths_and_methods() {
    let server = ApiServer::start().await;
    let gvk = GroupVersionKind::gvk("example.com", "v1", "Widget");
    let ar = ApiResource::from_gvk(&gvk);
    let widgets: Api<DynamicObject> = Api::all_with(server.client(), &ar);
    match widgets.list(&ListParams::default()).await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (404, "NotFound")),
        other => panic!("unexpected {other:?}"),
    }
    server.shutdown().await;
}
