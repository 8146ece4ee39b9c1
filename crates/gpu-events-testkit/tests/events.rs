//! Events over real HTTP with kube-rs: create, get, list, patch, update, delete, and kube-apiserver's validation.

use gpu_events_testkit::{ApiServer, ResourceType};
use k8s_openapi::api::core::v1::Event as CoreEvent;
use k8s_openapi::api::events::v1::Event;
use kube::Api;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

fn event_json(name: &str, pod: &str) -> Value {
    json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": name, "namespace": "ml"},
        "eventTime": "2026-11-30T05:40:03.002000Z",
        "reason": "GangWaitingForMembers", "type": "Normal", "action": "Waiting",
        "reportingController": "tensor-fusion.ai/gang", "reportingInstance": "gang-0",
        "regarding": {"apiVersion": "v1", "kind": "Pod", "namespace": "ml", "name": pod, "uid": format!("uid-{pod}")},
        "note": "Waiting for gang members: 2/4 ready"
    })
}

fn event(name: &str, pod: &str) -> Event {
    serde_json::from_value(event_json(name, pod)).expect("a valid Event")
}

fn with(mut v: Value, pointer: &str, value: Value) -> Event {
    *v.pointer_mut(pointer).expect("field exists") = value;
    serde_json::from_value(v).expect("a valid Event")
}

fn api_error(err: kube::Error) -> kube::core::Status {
    match err {
        kube::Error::Api(s) => *s,
        other => panic!("expected an API error, got {other:?}"),
    }
}

fn cause_fields(status: &kube::core::Status) -> Vec<String> {
    status.details.as_ref().map(|d| d.causes.iter().map(|c| c.field.clone()).collect()).unwrap_or_default()
}

#[tokio::test]
async fn create_get_and_list_with_field_selectors() {
    let server = ApiServer::start().await;
    let client = server.client();
    let events: Api<Event> = Api::namespaced(client.clone(), "ml");
    let pp = PostParams::default();

    let created = events.create(&pp, &event("llama-0.1", "llama-0")).await.unwrap();
    let meta = &created.metadata;
    assert_eq!(meta.namespace.as_deref(), Some("ml"));
    assert!(meta.uid.as_deref().is_some_and(|u| u.len() == 36));
    assert!(meta.creation_timestamp.is_some());
    assert!(meta.resource_version.as_deref().is_some_and(|rv| rv.parse::<u64>().is_ok()));
    events.create(&pp, &event("llama-0.2", "llama-0")).await.unwrap();
    let mut warning = event_json("llama-1.1", "llama-1");
    warning["type"] = json!("Warning");
    warning["reason"] = json!("FailedScheduling");
    events.create(&pp, &serde_json::from_value(warning).unwrap()).await.unwrap();

    let got = events.get("llama-0.1").await.unwrap();
    assert_eq!(got.note.as_deref(), Some("Waiting for gang members: 2/4 ready"));
    assert_eq!(got.regarding.as_ref().and_then(|r| r.name.as_deref()), Some("llama-0"));

    let by_pod = events.list(&ListParams::default().fields("regarding.name=llama-0,regarding.kind=Pod")).await.unwrap();
    let names: Vec<_> = by_pod.items.iter().map(|e| e.metadata.name.clone().unwrap()).collect();
    assert_eq!(names, ["llama-0.1", "llama-0.2"]);
    let warnings = events.list(&ListParams::default().fields("type=Warning")).await.unwrap();
    assert_eq!(warnings.items.len(), 1);
    assert_eq!(warnings.items[0].reason.as_deref(), Some("FailedScheduling"));
    let by_uid = events.list(&ListParams::default().fields("regarding.uid=uid-llama-1")).await.unwrap();
    assert_eq!(by_uid.items.len(), 1);

    // The same Events through core/v1, converted: note -> message, regarding -> involvedObject.
    let core: Api<CoreEvent> = Api::namespaced(client.clone(), "ml");
    let core_list = core
        .list(
            &ListParams::default()
                .fields("involvedObject.name=llama-0,involvedObject.namespace=ml,reason=GangWaitingForMembers"),
        )
        .await
        .unwrap();
    assert_eq!(core_list.items.len(), 2);
    let first = &core_list.items[0];
    assert_eq!(first.message.as_deref(), Some("Waiting for gang members: 2/4 ready"));
    assert_eq!(first.reporting_component.as_deref(), Some("tensor-fusion.ai/gang"));
    assert_eq!(first.involved_object.uid.as_deref(), Some("uid-llama-0"));
    assert!(first.first_timestamp.is_none());
    let by_source = core.list(&ListParams::default().fields("source=tensor-fusion.ai/gang")).await.unwrap();
    assert_eq!(by_source.items.len(), 3);

    // All namespaces, and another namespace.
    let all: Api<Event> = Api::all(client.clone());
    assert_eq!(all.list(&ListParams::default()).await.unwrap().items.len(), 3);
    let other: Api<Event> = Api::namespaced(client.clone(), "other");
    assert!(other.list(&ListParams::default()).await.unwrap().items.is_empty());

    // Unsupported field labels are refused like kube-apiserver refuses them.
    let err = api_error(events.list(&ListParams::default().fields("involvedObject.name=x")).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(err.message.contains("field label not supported: involvedObject.name"));

    // Stored objects are visible to the test in both forms.
    assert_eq!(server.events().len(), 3);
    let stored = server.get(&ResourceType::CORE_EVENTS, Some("ml"), "llama-0.1").unwrap();
    assert_eq!(stored["message"], "Waiting for gang members: 2/4 ready");
    assert_eq!(stored["eventTime"], "2026-11-30T05:40:03.002000Z");
}

#[tokio::test]
async fn validation_follows_the_api_server() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    let base = event_json("e.1", "llama-0");

    // Limits are in bytes: 1024 ASCII bytes pass, 1025 fail, 513 two-byte characters (1026 bytes) fail.
    events.create(&pp, &with(base.clone(), "/note", json!("n".repeat(1024)))).await.unwrap();
    for note in ["n".repeat(1025), "é".repeat(513)] {
        let err = api_error(events.create(&pp, &with(base.clone(), "/note", json!(note))).await.unwrap_err());
        assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"));
        // kube-apiserver names the internal field: `message` (the note of events.k8s.io/v1).
        assert_eq!(cause_fields(&err), ["message"]);
        let cause = &err.details.as_ref().unwrap().causes[0];
        assert_eq!(cause.reason, "FieldValueInvalid");
        assert_eq!(cause.message, "Invalid value: \"\": can have at most 1024 characters");
        // core's kind, without a group, for both APIs: kube-apiserver validates the internal (core) Event.
        assert!(err.message.starts_with("Event \"e.1\" is invalid: message: Invalid value"), "{}", err.message);
        assert_eq!(err.details.as_ref().map(|d| d.group.as_str()), Some(""));
    }

    let err = api_error(events.create(&pp, &with(base.clone(), "/reason", json!("R".repeat(129)))).await.unwrap_err());
    assert_eq!(err.code, 422);
    assert_eq!(cause_fields(&err), ["reason"]);
    let err = api_error(events.create(&pp, &with(base.clone(), "/action", json!("A".repeat(129)))).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["action"]);
    let err = api_error(
        events.create(&pp, &with(base.clone(), "/reportingInstance", json!("i".repeat(129)))).await.unwrap_err(),
    );
    assert_eq!(cause_fields(&err), ["reportingInstance"]);

    let err = api_error(events.create(&pp, &with(base.clone(), "/type", json!("Info"))).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["type"]);
    assert!(err.message.contains("has invalid value: Info"));

    let mut missing = base.clone();
    missing.as_object_mut().unwrap().remove("reportingController");
    let err = api_error(events.create(&pp, &serde_json::from_value(missing).unwrap()).await.unwrap_err());
    // Required, then the qualified-name checks of "" (empty name part, and the regex).
    assert_eq!(cause_fields(&err), ["reportingController", "reportingController", "reportingController"]);
    assert_eq!(err.details.as_ref().unwrap().causes[0].reason, "FieldValueRequired");

    let err = api_error(
        events.create(&pp, &with(base.clone(), "/reportingController", json!("my controller"))).await.unwrap_err(),
    );
    assert_eq!(cause_fields(&err), ["reportingController"]);

    let mut empty = base.clone();
    for f in ["reason", "action", "reportingInstance"] {
        empty.as_object_mut().unwrap().remove(f);
    }
    let err = api_error(events.create(&pp, &serde_json::from_value(empty).unwrap()).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["reportingInstance", "action", "reason"]);

    // Names must be DNS subdomains on events.k8s.io/v1 (kube 5.0 builds `system:controller:Foo.<hex>`).
    let err = api_error(
        events
            .create(&pp, &with(base.clone(), "/metadata/name", json!("system:controller:Foo.18ecbb")))
            .await
            .unwrap_err(),
    );
    assert_eq!(cause_fields(&err), ["metadata.name"]);
    assert!(err.message.contains("a lowercase RFC 1123 subdomain"));
    let long = format!("{}.18ecbb6678335234", "a".repeat(240));
    let err = api_error(events.create(&pp, &with(base.clone(), "/metadata/name", json!(long))).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["metadata.name"]);

    // Series needs count >= 2 and lastObservedTime.
    let err = api_error(
        events.create(&pp, &with(base.clone(), "/eventTime", json!("2026-11-30T05:40:03.002000Z"))).await.unwrap_err(),
    );
    assert_eq!(err.reason, "AlreadyExists");
    let mut series = base.clone();
    series["metadata"]["name"] = json!("e.2");
    series["series"] = json!({"count": 1, "lastObservedTime": "2026-11-30T05:41:03.000000Z"});
    let err = api_error(events.create(&pp, &serde_json::from_value(series).unwrap()).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["series.count"]);

    // Deprecated core fields must be unset.
    let mut deprecated = base.clone();
    deprecated["metadata"]["name"] = json!("e.3");
    deprecated["deprecatedCount"] = json!(3);
    deprecated["deprecatedSource"] = json!({"component": "x"});
    let err = api_error(events.create(&pp, &serde_json::from_value(deprecated).unwrap()).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["count", "source"]);

    // A cluster-scoped regarding object: only `default` (or kube-system) may hold the event.
    let mut cluster = base.clone();
    cluster["metadata"]["name"] = json!("pool-a.1");
    cluster["regarding"] = json!({"apiVersion": "tensor-fusion.ai/v1", "kind": "GPUPool", "name": "pool-a"});
    let err = api_error(events.create(&pp, &serde_json::from_value(cluster.clone()).unwrap()).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["involvedObject.namespace"]);
    cluster["metadata"]["namespace"] = json!("default");
    let default_events: Api<Event> = Api::namespaced(server.client(), "default");
    default_events.create(&pp, &serde_json::from_value(cluster).unwrap()).await.unwrap();

    // Every rejected request is in the log with its status; nothing rejected was stored.
    let rejected = server.requests().iter().filter(|r| r.status == Some(422)).count();
    assert_eq!(rejected, 14);
    assert_eq!(server.events().len(), 2);
}

#[tokio::test]
async fn raw_bodies_decode_like_the_api_server() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    // An eventTime without six fractional digits does not decode as MicroTime: 400, not 422.
    let bad_time = kube::api::DynamicObject::new("t.1", &kube::discovery::ApiResource::erase::<Event>(&()))
        .within("ml")
        .data(json!({"eventTime": "2026-11-30T05:40:03Z", "reason": "R", "type": "Normal", "action": "A",
                     "reportingController": "c", "reportingInstance": "i"}));
    let dynamic: Api<kube::api::DynamicObject> =
        Api::namespaced_with(server.client(), "ml", &kube::discovery::ApiResource::erase::<Event>(&()));
    let err = api_error(dynamic.create(&pp, &bad_time).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(err.message.contains("2006-01-02T15:04:05.000000Z07:00"));

    // A resourceVersion on create is refused (client-go clears it before re-creating after a 404).
    let mut with_rv = event("e.1", "llama-0");
    with_rv.metadata.resource_version = Some("42".into());
    let err = api_error(events.create(&pp, &with_rv).await.unwrap_err());
    // A plain storage error: no reason, the error as the message.
    assert_eq!((err.code, err.reason.as_str()), (500, ""));
    assert_eq!(err.message, "resourceVersion should not be set on objects to be created");

    // A namespace in the body must match the URL's.
    let other: Api<Event> = Api::namespaced(server.client(), "other");
    let err = api_error(other.create(&pp, &event("e.1", "llama-0")).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(server.events().is_empty());
}

#[tokio::test]
async fn core_v1_has_the_looser_legacy_rules() {
    let server = ApiServer::start().await;
    let core: Api<CoreEvent> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    // Without eventTime only the namespace rule applies: no limits, no type check, any path-safe name.
    let old_style: CoreEvent = serde_json::from_value(json!({
        "metadata": {"name": "system:controller:Foo.1", "namespace": "ml"},
        "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
        "reason": "R".repeat(300), "message": "m".repeat(5000), "type": "Info", "count": 3,
        "firstTimestamp": "2026-11-30T05:40:03.123Z", "lastTimestamp": "2026-11-30T05:41:03Z",
        "source": {"component": "kubelet", "host": "node-1"}
    }))
    .unwrap();
    let created = core.create(&pp, &old_style).await.unwrap();
    // metav1.Time is served with second precision.
    let stored = server.get(&ResourceType::CORE_EVENTS, Some("ml"), "system:controller:Foo.1").unwrap();
    assert_eq!(stored["firstTimestamp"], "2026-11-30T05:40:03Z");
    assert_eq!(created.count, Some(3));

    let mismatch: CoreEvent = serde_json::from_value(json!({
        "metadata": {"name": "x.1", "namespace": "ml"},
        "involvedObject": {"kind": "Pod", "namespace": "other", "name": "llama-0"}
    }))
    .unwrap();
    let err = api_error(core.create(&pp, &mismatch).await.unwrap_err());
    assert_eq!(err.code, 422);
    assert_eq!(cause_fields(&err), ["involvedObject.namespace"]);
    assert!(err.message.starts_with("Event \"x.1\" is invalid"));

    // With eventTime set the legacy checks name the core field `reportingComponent`.
    let new_style: CoreEvent = serde_json::from_value(json!({
        "metadata": {"name": "y.1", "namespace": "ml"}, "eventTime": "2026-11-30T05:40:03.002000Z",
        "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
        "reason": "R", "action": "A", "reportingInstance": "i"
    }))
    .unwrap();
    let err = api_error(core.create(&pp, &new_style).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["reportingComponent", "reportingComponent", "reportingComponent"]);

    // core/v1 updates may change message and count (client-go tools/record PATCHes them).
    let patch = json!({"count": 4, "message": "newer", "lastTimestamp": "2026-11-30T05:42:00Z"});
    let patched =
        core.patch("system:controller:Foo.1", &PatchParams::default(), &Patch::Strategic(patch)).await.unwrap();
    assert_eq!((patched.count, patched.message.as_deref()), (Some(4), Some("newer")));
}

#[tokio::test]
async fn already_exists_conflict_and_not_found() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let pp = PostParams::default();
    let created = events.create(&pp, &event("e.1", "llama-0")).await.unwrap();
    let err = api_error(events.create(&pp, &event("e.1", "llama-0")).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (409, "AlreadyExists"));
    assert_eq!(err.message, "events.events.k8s.io \"e.1\" already exists");
    let details = err.details.unwrap();
    assert_eq!(
        (details.name.as_str(), details.group.as_str(), details.kind.as_str()),
        ("e.1", "events.k8s.io", "events")
    );

    // PUT with a stale resourceVersion: 409 Conflict.
    let mut next = created.clone();
    next.series =
        serde_json::from_value(json!({"count": 2, "lastObservedTime": "2026-11-30T05:41:00.000000Z"})).unwrap();
    let updated = events.replace("e.1", &pp, &next).await.unwrap();
    assert_ne!(updated.metadata.resource_version, created.metadata.resource_version);
    let err = api_error(events.replace("e.1", &pp, &next).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (409, "Conflict"));
    assert!(err.message.contains("the object has been modified"));
    // A PUT without resourceVersion is unconditional.
    next.metadata.resource_version = None;
    next.series.as_mut().unwrap().count = 3;
    events.replace("e.1", &pp, &next).await.unwrap();

    // Delete, then everything is 404 NotFound.
    let deleted = events.delete("e.1", &DeleteParams::default()).await.unwrap();
    assert!(deleted.is_right(), "events answer a Success Status");
    for err in [
        events.get("e.1").await.unwrap_err(),
        events.delete("e.1", &DeleteParams::default()).await.unwrap_err(),
        events.patch("e.1", &PatchParams::default(), &Patch::Merge(json!({"series": null}))).await.unwrap_err(),
    ] {
        let err = api_error(err);
        assert_eq!((err.code, err.reason.as_str()), (404, "NotFound"));
        assert_eq!(err.message, "events.events.k8s.io \"e.1\" not found");
    }
}

#[tokio::test]
async fn series_patches_pass_and_immutable_fields_do_not() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let created = events.create(&PostParams::default(), &event("e.1", "llama-0")).await.unwrap();
    let pp = PatchParams::default();

    // client-go's series PATCH: a strategic merge patch with only `series`.
    let series = json!({"series": {"count": 2, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}});
    let patched = events.patch("e.1", &pp, &Patch::Strategic(series)).await.unwrap();
    assert_eq!(patched.series.as_ref().map(|s| s.count), Some(2));
    // kube 5.0's Recorder: a merge patch of the whole object.
    let mut whole = serde_json::to_value(&patched).unwrap();
    whole["series"]["count"] = json!(3);
    let patched = events.patch("e.1", &pp, &Patch::Merge(whole)).await.unwrap();
    assert_eq!(patched.series.as_ref().map(|s| s.count), Some(3));
    // A JSON patch works too.
    let ops: json_patch::Patch =
        serde_json::from_value(json!([{"op": "replace", "path": "/series/count", "value": 4}])).unwrap();
    let patched = events.patch("e.1", &pp, &Patch::<()>::Json(ops)).await.unwrap();
    assert_eq!(patched.series.as_ref().map(|s| s.count), Some(4));
    // A patch that changes nothing writes nothing.
    let rv = patched.metadata.resource_version.clone();
    let same = events.patch("e.1", &pp, &Patch::Merge(json!({"series": {"count": 4}}))).await.unwrap();
    assert_eq!(same.metadata.resource_version, rv);

    // Everything but series and metadata is immutable on events.k8s.io/v1.
    for (patch, field) in [
        (json!({"note": "a newer note"}), "message"),
        (json!({"reason": "Other"}), "reason"),
        (json!({"type": "Warning"}), "type"),
        (json!({"action": "Other"}), "action"),
        (json!({"regarding": {"name": "llama-1"}}), "involvedObject"),
        (json!({"related": {"kind": "Node", "name": "n"}}), "related"),
        (json!({"reportingController": "x.io/other"}), "reportingController"),
        (json!({"reportingInstance": "other"}), "reportingInstance"),
        (json!({"eventTime": "2026-11-30T05:40:04.000000Z"}), "eventTime"),
    ] {
        let err = api_error(events.patch("e.1", &pp, &Patch::Merge(patch.clone())).await.unwrap_err());
        assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"), "{patch}");
        assert_eq!(cause_fields(&err), [field], "{patch}");
        assert!(err.details.unwrap().causes[0].message.ends_with("field is immutable"));
    }
    let err = api_error(events.patch("e.1", &pp, &Patch::Merge(json!({"series": {"count": 1}}))).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["series.count"]);
    // A stale resourceVersion in a patch is a conflict.
    let stale = json!({"metadata": {"resourceVersion": created.metadata.resource_version}, "series": {"count": 9}});
    let err = api_error(events.patch("e.1", &pp, &Patch::Merge(stale)).await.unwrap_err());
    assert_eq!((err.code, err.reason.as_str()), (409, "Conflict"));

    let stored = &server.events()[0];
    assert_eq!(stored["series"]["count"], 4);
    assert_eq!(stored["note"], "Waiting for gang members: 2/4 ready");
}

#[tokio::test]
async fn generate_name_and_dry_run() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    let mut e = event("", "llama-0");
    e.metadata.name = None;
    // A generateName prefix may end with '-' but not with '.' (it must be a DNS subdomain once completed).
    e.metadata.generate_name = Some("llama-0.".into());
    let err = api_error(events.create(&PostParams::default(), &e).await.unwrap_err());
    assert_eq!(cause_fields(&err), ["metadata.generateName"]);
    e.metadata.generate_name = Some("llama-0-".into());
    let created = events.create(&PostParams::default(), &e).await.unwrap();
    let name = created.metadata.name.unwrap();
    assert!(name.starts_with("llama-0-") && name.len() == "llama-0-".len() + 5, "{name}");

    let dry = PostParams { dry_run: true, ..Default::default() };
    events.create(&dry, &event("dry.1", "llama-0")).await.unwrap();
    assert_eq!(server.events().len(), 1);
}

#[tokio::test]
async fn the_request_log_records_bodies_and_statuses() {
    let server = ApiServer::start().await;
    let events: Api<Event> = Api::namespaced(server.client(), "ml");
    events.create(&PostParams::default(), &event("e.1", "llama-0")).await.unwrap();
    let series = json!({"series": {"count": 2, "lastObservedTime": "2026-11-30T05:41:03.000000Z"}});
    events.patch("e.1", &PatchParams::default(), &Patch::Strategic(series.clone())).await.unwrap();
    events.list(&ListParams::default().fields("regarding.name=llama-0")).await.unwrap();

    let log = server.requests();
    assert_eq!(log.len(), 3);
    let post = &log[0];
    assert_eq!((post.method.as_str(), post.path.as_str()), ("POST", "/apis/events.k8s.io/v1/namespaces/ml/events"));
    assert_eq!(post.content_type.as_deref(), Some("application/json"));
    assert_eq!(post.body.as_ref().unwrap()["note"], "Waiting for gang members: 2/4 ready");
    assert_eq!(post.status, Some(201));
    let patch = &log[1];
    assert_eq!(patch.path, "/apis/events.k8s.io/v1/namespaces/ml/events/e.1");
    assert_eq!(patch.content_type.as_deref(), Some("application/strategic-merge-patch+json"));
    assert_eq!(patch.body.as_ref(), Some(&series));
    assert!(patch.raw_body.len() < 100, "a series-only patch is small");
    assert_eq!(log[2].query_param("fieldSelector"), Some("regarding.name=llama-0"));
    assert_eq!(server.writes().len(), 2);
    assert!(log.iter().all(|r| r.succeeded() && !r.faulted));
    server.clear_requests();
    assert!(server.requests().is_empty());
}
