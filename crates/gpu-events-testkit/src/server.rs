//! HTTP serving: the accept loop, fault injection, routing and the verbs.

use std::collections::{BTreeMap, VecDeque};
use std::iter::Peekable;
use std::ops::Bound;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{ACCEPT, CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Map, Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use crate::body::{Filter, ResBody, WatchBody};
use crate::config::ExpiredWatch;
use crate::event::{self, EventApi};
use crate::fault::FaultAction;
use crate::log::{RecordedRequest, parse_query};
use crate::patch::{self, JsonPatchError, PatchType};
use crate::resource::ResourceType;
use crate::selector::{FieldSelector, LabelSelector};
use crate::status::ApiError;
use crate::store::{ObjKey, State, Watcher, meta_str, render, set_meta};
use crate::table::{self, IncludeObject};
use crate::validation::{FieldError, NameRule, object_meta};

/// State shared by the server task and the [`ApiServer`](crate::ApiServer) handle.
pub(crate) struct Shared {
    state: Mutex<State>,
}

impl Shared {
    pub fn new(state: State) -> Self {
        Shared { state: Mutex::new(state) }
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("connection dropped by an injected fault")]
struct DropConnection;

/// Accepts connections until the task is aborted; aborting it also ends every connection.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    bookmark_interval: Option<Duration>,
    event_ttl: Option<Duration>,
) {
    let mut connections = JoinSet::new();
    let every = |d: Duration| {
        let mut t = tokio::time::interval_at(tokio::time::Instant::now() + d, d);
        t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        t
    };
    let mut ticker = bookmark_interval.map(every);
    // Expiry runs a few times per TTL, and at least every second: Events go within a second of their time.
    let mut sweeper = event_ttl.map(|ttl| every((ttl / 20).clamp(Duration::from_millis(10), Duration::from_secs(1))));
    loop {
        let tick = async {
            match &mut ticker {
                Some(t) => {
                    t.tick().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        let sweep = async {
            match &mut sweeper {
                Some(t) => {
                    t.tick().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let shared = shared.clone();
                connections.spawn(async move {
                    let service = service_fn(move |req| handle(shared.clone(), req));
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                });
            }
            () = tick => shared.lock().bookmark_all(),
            () = sweep => {
                shared.lock().expire_due();
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// What the handlers need of a request.
struct Ctx {
    method: String,
    query: Vec<(String, String)>,
    content_type: String,
    accept: String,
    raw: Bytes,
}

impl Ctx {
    fn q(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn is_watch(&self) -> bool {
        matches!(self.q("watch"), Some("true" | "1"))
    }

    /// The Table form was asked for (and the resource has one).
    fn table(&self, rt: &ResourceType) -> Result<Option<IncludeObject>, ApiError> {
        if !table::has_table(rt) || !table::wants_table(&self.accept) {
            return Ok(None);
        }
        IncludeObject::parse(self.q("includeObject")).map(Some)
    }

    fn dry_run(&self) -> bool {
        self.q("dryRun") == Some("All")
    }

    fn json_body(&self) -> Result<Value, ApiError> {
        serde_json::from_slice(&self.raw)
            .map_err(|e| ApiError::bad_request(format!("error decoding request body: {e}")))
    }
}

fn respond(code: u16, body: ResBody) -> Response<ResBody> {
    let mut resp = Response::new(body);
    *resp.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    resp.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

fn json_response(code: u16, v: &Value) -> Response<ResBody> {
    respond(code, ResBody::json(v))
}

fn error_response(e: &ApiError) -> Response<ResBody> {
    let mut resp = json_response(e.code, &e.status());
    if let Some(secs) = e.retry_after {
        resp.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
    }
    resp
}

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<ResBody>, DropConnection> {
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let query = parse_query(req.uri().query().unwrap_or(""));
    let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let accept = req.headers().get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let raw = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let record = RecordedRequest {
        seq: 0,
        method: method.clone(),
        path: path.clone(),
        query: query.clone(),
        content_type: content_type.clone(),
        body: serde_json::from_slice(&raw).ok(),
        raw_body: raw.to_vec(),
        status: None,
        faulted: false,
    };
    let is_watch = record.is_watch();
    let (seq, fault) = {
        let mut st = shared.lock();
        let seq = st.log_request(record);
        (seq, st.fire_fault(&method, &path, is_watch))
    };
    let ctx = Ctx { method, query, content_type: content_type.unwrap_or_default(), accept, raw };
    let faulted = |code: Option<u16>| shared.lock().finish_request(seq, code, true);
    match fault {
        Some(FaultAction::Status { code, reason, message, retry_after }) => {
            let mut e = ApiError::for_code(code);
            if let Some(r) = reason {
                e.reason = r;
            }
            if let Some(m) = message {
                e.message = m;
            }
            e.retry_after = retry_after;
            faulted(Some(code));
            return Ok(error_response(&e));
        }
        Some(FaultAction::DropConnection) => {
            faulted(None);
            return Err(DropConnection);
        }
        Some(FaultAction::EmptyResponse) => {
            faulted(Some(200));
            return Ok(respond(200, ResBody::empty()));
        }
        Some(FaultAction::Delay(d)) => tokio::time::sleep(d).await,
        Some(FaultAction::LoseResponse) => {
            let mut st = shared.lock();
            let _ = dispatch(&mut st, &path, &ctx);
            st.finish_request(seq, None, true);
            return Err(DropConnection);
        }
        None => {}
    }
    let resp = {
        let mut st = shared.lock();
        let resp = match dispatch(&mut st, &path, &ctx) {
            Ok(r) => r,
            Err(e) => error_response(&e),
        };
        st.finish_request(seq, Some(resp.status().as_u16()), false);
        resp
    };
    Ok(resp)
}

/// A request on a resource path.
struct Target {
    rt: ResourceType,
    namespace: Option<String>,
    name: Option<String>,
    subresource: Option<String>,
    watch_path: bool,
}

fn dispatch(st: &mut State, path: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let get_only = |r: Result<Value, ApiError>| -> Result<Response<ResBody>, ApiError> {
        if ctx.method != "GET" {
            return Err(ApiError::method_not_allowed());
        }
        r.map(|v| json_response(200, &v))
    };
    match segs.as_slice() {
        ["version"] => get_only(Ok(version_info())),
        ["api"] => get_only(Ok(json!({"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": st.addr.to_string()}]}))),
        ["apis"] => get_only(Ok(api_group_list(st))),
        ["api", version] => get_only(resource_list(st, "", version)),
        ["apis", group] => get_only(api_group(st, group)),
        ["apis", group, version] => get_only(resource_list(st, group, version)),
        ["api", version, rest @ ..] => resource_request(st, "", version, rest, ctx),
        ["apis", group, version, rest @ ..] => resource_request(st, group, version, rest, ctx),
        _ => Err(ApiError::page_not_found()),
    }
}

fn version_info() -> Value {
    json!({"major": "1", "minor": "37", "gitVersion": "v1.37.0-gpu-events-testkit", "gitCommit": "0000000",
           "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.25.0",
           "compiler": "gc", "platform": "linux/amd64"})
}

fn group_versions(st: &State, group: &str) -> Vec<String> {
    let mut versions: Vec<String> =
        st.resources.iter().filter(|r| r.group == group).map(|r| r.version.to_string()).collect();
    versions.sort();
    versions.dedup();
    versions
}

fn api_group_json(st: &State, group: &str) -> Value {
    let versions: Vec<Value> = group_versions(st, group)
        .into_iter()
        .map(|v| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
        .collect();
    json!({"name": group, "versions": versions, "preferredVersion": versions.first().cloned().unwrap_or(Value::Null)})
}

fn api_group_list(st: &State) -> Value {
    let mut groups: Vec<&str> = st.resources.iter().map(|r| r.group.as_ref()).filter(|g| !g.is_empty()).collect();
    groups.sort();
    groups.dedup();
    let groups: Vec<Value> = groups.into_iter().map(|g| api_group_json(st, g)).collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

fn api_group(st: &State, group: &str) -> Result<Value, ApiError> {
    if group_versions(st, group).is_empty() {
        return Err(ApiError::page_not_found());
    }
    let mut g = api_group_json(st, group);
    g["kind"] = json!("APIGroup");
    g["apiVersion"] = json!("v1");
    Ok(g)
}

fn resource_list(st: &State, group: &str, version: &str) -> Result<Value, ApiError> {
    let verbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
    let mut resources = Vec::new();
    for r in st.resources.iter().filter(|r| r.group == group && r.version == version) {
        let mut entry = json!({"name": r.plural, "singularName": r.kind.to_ascii_lowercase(), "namespaced": r.namespaced,
                               "kind": r.kind, "verbs": verbs});
        if r.is_event() {
            entry["shortNames"] = json!(["ev"]);
        }
        resources.push(entry);
        resources.push(json!({"name": format!("{}/status", r.plural), "singularName": "", "namespaced": r.namespaced,
                              "kind": r.kind, "verbs": ["get", "patch", "update"]}));
    }
    if resources.is_empty() {
        return Err(ApiError::page_not_found());
    }
    let gv = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
    Ok(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}))
}

fn parse_target(st: &State, group: &str, version: &str, rest: &[&str]) -> Result<Target, ApiError> {
    let (watch_path, rest) = match rest {
        ["watch", r @ ..] => (true, r),
        r => (false, r),
    };
    let (namespace, rest) = match rest {
        ["namespaces", ns, r @ ..] if !r.is_empty() => (Some((*ns).to_string()), r),
        r => (None, r),
    };
    let (plural, name, subresource) = match rest {
        [p] => (*p, None, None),
        [p, n] => (*p, Some((*n).to_string()), None),
        [p, n, s] => (*p, Some((*n).to_string()), Some((*s).to_string())),
        _ => return Err(ApiError::page_not_found()),
    };
    let rt = st.find_resource(group, version, plural).ok_or_else(ApiError::page_not_found)?;
    if namespace.is_some() && !rt.namespaced {
        return Err(ApiError::page_not_found());
    }
    if subresource.as_deref().is_some_and(|s| s != "status") {
        return Err(ApiError::page_not_found());
    }
    Ok(Target { rt, namespace, name, subresource, watch_path })
}

fn resource_request(
    st: &mut State,
    group: &str,
    version: &str,
    rest: &[&str],
    ctx: &Ctx,
) -> Result<Response<ResBody>, ApiError> {
    let t = parse_target(st, group, version, rest)?;
    let named_needs_ns = t.rt.namespaced && t.namespace.is_none();
    let verb = match (ctx.method.as_str(), &t.name) {
        ("GET", Some(_)) if t.watch_path => "watch",
        ("GET", Some(_)) => "get",
        ("GET", None) if t.watch_path || ctx.is_watch() => "watch",
        ("GET", None) => "list",
        ("POST", None) => "create",
        ("PUT", Some(_)) => "update",
        ("PATCH", Some(_)) => "patch",
        ("DELETE", Some(_)) => "delete",
        ("DELETE", None) => "deletecollection",
        _ => return Err(ApiError::method_not_allowed()),
    };
    if t.name.is_some() && named_needs_ns {
        return Err(ApiError::page_not_found());
    }
    if named_needs_ns && matches!(verb, "create" | "deletecollection") {
        return Err(ApiError::method_not_allowed());
    }
    if t.subresource.is_some() && !matches!(verb, "get" | "update" | "patch") {
        return Err(ApiError::method_not_allowed());
    }
    if st.denied.contains(&(verb.to_string(), t.rt.group.to_string(), t.rt.plural.to_string())) {
        return Err(ApiError::forbidden(&t.rt, verb, t.namespace.as_deref(), t.name.as_deref().unwrap_or("")));
    }
    let ns = t.namespace.clone().unwrap_or_default();
    let name = t.name.clone().unwrap_or_default();
    match verb {
        "get" => get(st, &t.rt, &ns, &name, ctx),
        "list" => list(st, &t.rt, t.namespace.as_deref(), ctx),
        "watch" => {
            let mut ctx_fields = t.name.as_ref().map(|n| format!("metadata.name={n}"));
            if let Some(fs) = ctx.q("fieldSelector").filter(|s| !s.is_empty()) {
                ctx_fields = Some(match ctx_fields {
                    Some(f) => format!("{f},{fs}"),
                    None => fs.to_string(),
                });
            }
            watch(st, &t.rt, t.namespace.as_deref(), ctx_fields.as_deref().unwrap_or(""), ctx)
        }
        "create" => create(st, &t.rt, &ns, ctx),
        "update" => update(st, &t, &ns, &name, ctx),
        "patch" => patch(st, &t, &ns, &name, ctx),
        "delete" => delete(st, &t.rt, &ns, &name, ctx),
        _ => delete_collection(st, &t.rt, t.namespace.as_deref(), ctx),
    }
}

fn key(rt: &ResourceType, ns: &str, name: &str) -> ObjKey {
    (rt.storage(), if rt.namespaced { ns.to_string() } else { String::new() }, name.to_string())
}

fn get(st: &State, rt: &ResourceType, ns: &str, name: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let include = ctx.table(rt)?;
    let obj = st.objects.get(&key(rt, ns, name)).ok_or_else(|| ApiError::not_found(rt, name))?;
    let served = render(rt, obj, true);
    if let Some(include) = include {
        let metadata = json!({"resourceVersion": meta_str(&served, "resourceVersion")});
        let row = (render(&ResourceType::CORE_EVENTS, obj, true), served);
        return Ok(json_response(200, &table::event_table(&[row], metadata, include)));
    }
    Ok(json_response(200, &served))
}

/// Decodes a request body into the stored form of `rt`.
fn decode(rt: &ResourceType, body: &Value) -> Result<Value, ApiError> {
    if let Some(av) = body.get("apiVersion").and_then(Value::as_str).filter(|s| !s.is_empty())
        && av != rt.api_version()
    {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({av}) does not match the expected API version ({})",
            rt.api_version()
        )));
    }
    if let Some(kind) = body.get("kind").and_then(Value::as_str).filter(|s| !s.is_empty())
        && kind != rt.kind
    {
        // kube-apiserver's decoder looks the kind up in the request's group and version.
        return Err(ApiError::bad_request(format!(
            "{kind} in version {:?} cannot be handled as a {}: no kind {kind:?} is registered for version {:?} in scheme \"pkg/runtime/scheme.go:111\"",
            rt.version,
            rt.kind,
            rt.api_version()
        )));
    }
    if rt.is_event() {
        return Ok(Value::Object(event::decode(body, EventApi::of(&rt.group))?));
    }
    let mut obj = body.as_object().cloned().ok_or_else(|| ApiError::bad_request("the body must be a JSON object"))?;
    let meta = event::canonical_metadata(obj.get("metadata").unwrap_or(&Value::Null))?;
    obj.insert("metadata".into(), Value::Object(meta));
    obj.insert("apiVersion".into(), json!(rt.api_version()));
    obj.insert("kind".into(), json!(rt.kind));
    Ok(Value::Object(obj))
}

/// `EnsureObjectNamespaceMatchesRequestNamespace`.
fn reconcile_namespace(rt: &ResourceType, obj: &mut Value, ns: &str) -> Result<(), ApiError> {
    let expected = if rt.namespaced { ns } else { "" };
    let got = meta_str(obj, "namespace").to_string();
    if got == expected || got.is_empty() || expected.is_empty() {
        if expected.is_empty() {
            if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("namespace");
            }
        } else {
            set_meta(obj, "namespace", json!(expected));
        }
        return Ok(());
    }
    Err(ApiError::bad_request("the namespace of the provided object does not match the namespace sent on the request"))
}

fn check_namespace_lifecycle(st: &State, rt: &ResourceType, ns: &str, name: &str) -> Result<(), ApiError> {
    if !st.config.enforce_namespaces || !rt.namespaced {
        return Ok(());
    }
    let nskey = key(&ResourceType::NAMESPACES, "", ns);
    match st.objects.get(&nskey) {
        None => Err(ApiError::namespace_not_found(ns)),
        Some(obj) if obj.pointer("/status/phase").and_then(Value::as_str) == Some("Terminating") => {
            Err(ApiError::namespace_terminating(rt, ns, name))
        }
        Some(_) => Ok(()),
    }
}

fn invalid_if_any(rt: &ResourceType, obj: &Value, errs: &[FieldError]) -> Result<(), ApiError> {
    if errs.is_empty() { Ok(()) } else { Err(ApiError::invalid(rt, meta_str(obj, "name"), errs)) }
}

/// Strategy validation, then the common metadata validation (as `rest.BeforeCreate`).
fn validate_create(rt: &ResourceType, obj: &Value) -> Result<(), ApiError> {
    if rt.is_event() {
        let errs = event::validate_create(obj.as_object().expect("stored event is an object"), EventApi::of(&rt.group));
        invalid_if_any(rt, obj, &errs)?;
    }
    let empty = Map::new();
    let meta = obj.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
    invalid_if_any(rt, obj, &object_meta(meta, rt.namespaced, NameRule::PathSegment))
}

fn create(st: &mut State, rt: &ResourceType, ns: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let body = ctx.json_body()?;
    let mut obj = decode(rt, &body)?;
    reconcile_namespace(rt, &mut obj, ns)?;
    if meta_str(&obj, "name").is_empty() && !meta_str(&obj, "generateName").is_empty() {
        let name = format!("{}{}", meta_str(&obj, "generateName"), st.name_suffix());
        set_meta(&mut obj, "name", json!(name));
    }
    let name = meta_str(&obj, "name").to_string();
    check_namespace_lifecycle(st, rt, ns, &name)?;
    validate_create(rt, &obj)?;
    if !meta_str(&obj, "resourceVersion").is_empty() {
        return Err(ApiError::internal("resourceVersion should not be set on objects to be created"));
    }
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("uid");
        m.remove("creationTimestamp");
        m.remove("deletionTimestamp");
    }
    st.fill_system_fields(&mut obj);
    let k = key(rt, ns, &name);
    if st.objects.contains_key(&k) {
        return Err(ApiError::already_exists(rt, &name));
    }
    if ctx.dry_run() {
        return Ok(json_response(201, &render(rt, &obj, true)));
    }
    let stored = st.put(k, obj);
    Ok(json_response(201, &render(rt, &stored, true)))
}

/// The common part of update and patch: preconditions, immutable system fields, validation, no-op detection.
fn commit_update(
    st: &mut State,
    t: &Target,
    k: ObjKey,
    old: &Arc<Value>,
    mut new: Value,
    dry_run: bool,
) -> Result<Response<ResBody>, ApiError> {
    let rt = &t.rt;
    let name = k.2.clone();
    let body_rv = meta_str(&new, "resourceVersion").to_string();
    if !body_rv.is_empty() && body_rv != meta_str(old, "resourceVersion") {
        return Err(ApiError::stale(rt, &name));
    }
    let body_uid = meta_str(&new, "uid").to_string();
    if !body_uid.is_empty() && body_uid != meta_str(old, "uid") {
        let why = format!(
            "Precondition failed: UID in precondition: {body_uid}, UID in object meta: {}",
            meta_str(old, "uid")
        );
        return Err(ApiError::conflict(rt, &name, &why));
    }
    for field in ["uid", "creationTimestamp", "resourceVersion"] {
        set_meta(&mut new, field, old["metadata"].get(field).cloned().unwrap_or(Value::Null));
    }
    if let Some(m) = new.get_mut("metadata").and_then(Value::as_object_mut) {
        m.retain(|_, v| !v.is_null());
    }
    if t.subresource.as_deref() == Some("status") {
        // Only status changes through the status subresource.
        let status = new.get("status").cloned();
        new = (**old).clone();
        match status {
            Some(s) => new["status"] = s,
            None => {
                new.as_object_mut().map(|m| m.remove("status"));
            }
        }
    }
    if rt.is_event() {
        let errs = event::validate_update(
            new.as_object().expect("stored event is an object"),
            old.as_object().expect("stored event is an object"),
            EventApi::of(&rt.group),
        );
        invalid_if_any(rt, &new, &errs)?;
    }
    let empty = Map::new();
    let meta = new.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
    invalid_if_any(rt, &new, &object_meta(meta, rt.namespaced, NameRule::PathSegment))?;
    if new == **old || dry_run {
        return Ok(json_response(200, &render(rt, if dry_run { &new } else { old }, true)));
    }
    let stored = st.put(k, new);
    Ok(json_response(200, &render(rt, &stored, true)))
}

fn update(st: &mut State, t: &Target, ns: &str, name: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let body = ctx.json_body()?;
    let mut new = decode(&t.rt, &body)?;
    let body_name = meta_str(&new, "name").to_string();
    if body_name.is_empty() {
        set_meta(&mut new, "name", json!(name));
    } else if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    reconcile_namespace(&t.rt, &mut new, ns)?;
    let k = key(&t.rt, ns, name);
    let old = st.objects.get(&k).cloned().ok_or_else(|| ApiError::not_found(&t.rt, name))?;
    commit_update(st, t, k, &old, new, ctx.dry_run())
}

fn patch(st: &mut State, t: &Target, ns: &str, name: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let ptype = PatchType::from_content_type(&ctx.content_type)
        .ok_or_else(|| ApiError::unsupported_media_type(&ctx.content_type))?;
    let body: Value = serde_json::from_slice(&ctx.raw).map_err(|e| {
        ApiError::bad_request(format!(
            "error decoding patch: {e} (YAML apply patches are not supported here; send JSON)"
        ))
    })?;
    let k = key(&t.rt, ns, name);
    if ptype == PatchType::Apply && ctx.q("fieldManager").is_none_or(str::is_empty) {
        let err = FieldError::required("fieldManager", "is required for apply patch");
        return Err(ApiError::invalid_kind("PatchOptions.meta.k8s.io", "meta.k8s.io", "PatchOptions", "", &[err]));
    }
    let Some(old) = st.objects.get(&k).cloned() else {
        if ptype != PatchType::Apply {
            return Err(ApiError::not_found(&t.rt, name));
        }
        // Server-side apply of a missing object creates it.
        let mut obj = decode(&t.rt, &body)?;
        set_meta(&mut obj, "name", json!(name));
        reconcile_namespace(&t.rt, &mut obj, ns)?;
        check_namespace_lifecycle(st, &t.rt, ns, name)?;
        validate_create(&t.rt, &obj)?;
        st.fill_system_fields(&mut obj);
        if ctx.dry_run() {
            return Ok(json_response(201, &render(&t.rt, &obj, true)));
        }
        let stored = st.put(k, obj);
        return Ok(json_response(201, &render(&t.rt, &stored, true)));
    };
    let mut view = render(&t.rt, &old, true);
    match ptype {
        PatchType::Merge | PatchType::Apply => patch::merge(&mut view, &body),
        PatchType::Strategic => patch::strategic(&mut view, &body),
        PatchType::Json => patch::json_patch(&mut view, &body).map_err(|e| match e {
            JsonPatchError::Malformed(m) => ApiError::bad_request(m),
            JsonPatchError::Failed(m) => ApiError::new(422, "Invalid", m),
        })?,
    }
    let mut new = decode(&t.rt, &view)?;
    set_meta(&mut new, "name", json!(name));
    reconcile_namespace(&t.rt, &mut new, ns)?;
    commit_update(st, t, k, &old, new, ctx.dry_run())
}

fn delete(st: &mut State, rt: &ResourceType, ns: &str, name: &str, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let k = key(rt, ns, name);
    let old = st.objects.get(&k).cloned().ok_or_else(|| ApiError::not_found(rt, name))?;
    let options: Value = serde_json::from_slice(&ctx.raw).unwrap_or(Value::Null);
    if let Some(uid) = options.pointer("/preconditions/uid").and_then(Value::as_str)
        && uid != meta_str(&old, "uid")
    {
        let why =
            format!("Precondition failed: UID in precondition: {uid}, UID in object meta: {}", meta_str(&old, "uid"));
        return Err(ApiError::conflict(rt, name, &why));
    }
    if let Some(rv) = options.pointer("/preconditions/resourceVersion").and_then(Value::as_str)
        && rv != meta_str(&old, "resourceVersion")
    {
        let why = format!(
            "Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}",
            meta_str(&old, "resourceVersion")
        );
        return Err(ApiError::conflict(rt, name, &why));
    }
    let gone = if ctx.dry_run() || options.get("dryRun").is_some_and(|d| d == &json!(["All"])) {
        old
    } else {
        st.delete(&k).unwrap_or(old)
    };
    if rt.group.is_empty() && rt.plural == "pods" {
        return Ok(json_response(200, &render(rt, &gone, true)));
    }
    let mut details = json!({"name": name, "kind": rt.plural, "uid": meta_str(&gone, "uid")});
    if !rt.group.is_empty() {
        details["group"] = json!(rt.group);
    }
    Ok(json_response(
        200,
        &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                "details": details}),
    ))
}

fn delete_collection(
    st: &mut State,
    rt: &ResourceType,
    ns: Option<&str>,
    ctx: &Ctx,
) -> Result<Response<ResBody>, ApiError> {
    let filter = Filter {
        rt: rt.clone(),
        namespace: ns.map(str::to_string),
        fields: FieldSelector::parse(rt, ctx.q("fieldSelector").unwrap_or(""))?,
        labels: LabelSelector::parse(ctx.q("labelSelector").unwrap_or(""))?,
    };
    let storage = rt.storage();
    let keys: Vec<ObjKey> =
        st.objects.iter().filter(|(k, v)| k.0 == storage && filter.matches(&k.1, v)).map(|(k, _)| k.clone()).collect();
    let mut items = Vec::new();
    for k in keys {
        let gone = if ctx.dry_run() { st.objects.get(&k).cloned() } else { st.delete(&k) };
        if let Some(g) = gone {
            items.push(render(rt, &g, false));
        }
    }
    Ok(json_response(
        200,
        &json!({"kind": rt.list_kind(), "apiVersion": rt.api_version(),
                "metadata": {"resourceVersion": st.rv.to_string()}, "items": items}),
    ))
}

/// etcd3's versioner: `strconv.ParseUint`, its failure as a field error on `resourceVersion`.
fn parse_rv_go(s: &str) -> Result<u64, String> {
    s.parse().map_err(|_| {
        let why = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            "value out of range"
        } else {
            "invalid syntax"
        };
        format!("resourceVersion: Invalid value: {s:?}: strconv.ParseUint: parsing {s:?}: {why}")
    })
}

/// A list's resourceVersion: a bad one is a 400 (`invalid resource version: ...`).
fn parse_list_rv(s: &str) -> Result<u64, ApiError> {
    parse_rv_go(s).map_err(|e| ApiError::bad_request(format!("invalid resource version: {e}")))
}

/// A watch's resourceVersion: a bad one is a plain error from the storage, so a 500 without a reason.
fn parse_watch_rv(s: &str) -> Result<u64, ApiError> {
    parse_rv_go(s).map_err(|e| ApiError::internal(&e))
}

/// `ValidateListOptions` of apimachinery (`pkg/apis/meta/internalversion/validation`), the WatchList feature on:
/// resourceVersionMatch only with a resourceVersion, not with continue, `Exact` not with `0`, no
/// sendInitialEvents on a list; on a watch, sendInitialEvents only with `NotOlderThan` and resourceVersionMatch only
/// with sendInitialEvents. 422 with kind `ListOptions.meta.k8s.io`.
fn validate_list_options(ctx: &Ctx, watch: bool) -> Result<(), ApiError> {
    let rv = ctx.q("resourceVersion").unwrap_or("");
    let rvm = ctx.q("resourceVersionMatch").unwrap_or("");
    let continued = ctx.q("continue").is_some_and(|c| !c.is_empty());
    let send_initial = ctx.q("sendInitialEvents").is_some_and(|v| !v.is_empty());
    let field = "resourceVersionMatch";
    let mut errs = Vec::new();
    if !watch {
        if !rvm.is_empty() {
            if rv.is_empty() {
                errs.push(FieldError::forbidden(
                    field,
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if continued {
                errs.push(FieldError::forbidden(field, "resourceVersionMatch is forbidden when continue is provided"));
            }
            if rvm != "Exact" && rvm != "NotOlderThan" {
                errs.push(FieldError::not_supported(field, rvm, &["Exact", "NotOlderThan", ""]));
            }
            if rvm == "Exact" && rv == "0" {
                errs.push(FieldError::forbidden(
                    field,
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        if send_initial {
            errs.push(FieldError::forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
        }
    } else {
        if send_initial && rvm != "NotOlderThan" {
            errs.push(FieldError::forbidden(
                field,
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if !rvm.is_empty() {
            if !send_initial {
                errs.push(FieldError::forbidden(
                    field,
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if rvm != "NotOlderThan" {
                errs.push(FieldError::not_supported(field, rvm, &["NotOlderThan"]));
            }
            if continued {
                errs.push(FieldError::forbidden(field, "resourceVersionMatch is forbidden when continue is provided"));
            }
        }
    }
    if errs.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid_kind("ListOptions.meta.k8s.io", "meta.k8s.io", "ListOptions", "", &errs))
}

/// etcd3's messages for a compacted resourceVersion (`storage/etcd3/errors.go`).
const WATCH_TOO_OLD: &str = "The resourceVersion for the provided watch is too old.";
const LIST_TOO_OLD: &str = "The resourceVersion for the provided list is too old.";
const INCONSISTENT_CONTINUE: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// A continue token as kube-apiserver's (`storage.EncodeContinue`): base64url (no padding) of
/// `{"v":"meta.k8s.io/v1","rv":RV,"start":"NS/NAME\u0000"}`; `rv` -1 continues at the latest resourceVersion (the
/// token a 410 on a compacted continue hands out).
fn encode_continue(ns: &str, name: &str, rv: i64) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{ns}/{name}\u{0}")});
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&token).unwrap_or_default())
}

/// `storage.DecodeContinue`, with its errors (400 `invalid continue token: ...`): the namespace and name to start
/// after, and the resourceVersion.
fn decode_continue(token: &str) -> Result<(String, String, i64), ApiError> {
    let invalid =
        |why: String| ApiError::bad_request(format!("invalid continue token: continue key is not valid{why}"));
    let data = URL_SAFE_NO_PAD.decode(token).map_err(|e| {
        // Go's base64: `illegal base64 data at input byte N`.
        let at = match e {
            base64::DecodeError::InvalidByte(at, _) | base64::DecodeError::InvalidLastSymbol(at, _) => at,
            _ => token.len(),
        };
        invalid(format!(": illegal base64 data at input byte {at}"))
    })?;
    let decoded: Value = serde_json::from_slice(&data).map_err(|e| invalid(format!(": {e}")))?;
    let version = decoded["v"].as_str().unwrap_or("");
    if version != "meta.k8s.io/v1" {
        return Err(invalid(format!(": server does not recognize this encoded version {version}")));
    }
    let rv = decoded["rv"].as_i64().unwrap_or(0);
    if rv == 0 {
        return Err(invalid(": incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into()));
    }
    let start = decoded["start"].as_str().unwrap_or("");
    if start.is_empty() {
        return Err(invalid(": encoded start key empty (version meta.k8s.io/v1)".into()));
    }
    let start = start.strip_suffix('\u{0}').unwrap_or(start);
    let (ns, name) = start.split_once('/').ok_or_else(|| invalid(format!(": {start}")))?;
    Ok((ns.to_string(), name.to_string(), rv))
}

/// `storage.NewTooLargeResourceVersionError`: 504 Timeout with cause `ResourceVersionTooLarge`. etcd3's list
/// check (`validateMinimumResourceVersion`) passes no retry delay; its watch with `sendInitialEvents` passes 1 to
/// 4 seconds.
fn too_large(rv: u64, current: u64, retry_after: Option<u64>) -> ApiError {
    // `NewTimeoutError` puts "Timeout: " before the message.
    let mut e = ApiError::new(504, "Timeout", format!("Timeout: Too large resource version: {rv}, current: {current}"));
    let mut details =
        json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}]});
    if let Some(seconds) = retry_after {
        details["retryAfterSeconds"] = json!(seconds);
    }
    e.details = Some(details);
    e
}

/// A watch answer of one `ERROR` event carrying `e`, then the end of the stream.
fn error_watch(e: &ApiError, filter: Filter) -> Response<ResBody> {
    let mut line = serde_json::to_vec(&json!({"type": "ERROR", "object": e.status()})).unwrap_or_default();
    line.push(b'\n');
    let body = WatchBody { pending: VecDeque::from([Bytes::from(line)]), rx: None, filter, deadline: None };
    respond(200, ResBody::Watch(Box::new(body)))
}

/// Iterates the objects of one storage as they were at a past resourceVersion: the current objects, overlaid with
/// their state before every later change.
struct Snapshot<'a> {
    current: Peekable<std::collections::btree_map::Range<'a, ObjKey, Arc<Value>>>,
    overlay: Peekable<std::collections::btree_map::Range<'a, ObjKey, Option<Arc<Value>>>>,
}

impl<'a> Iterator for Snapshot<'a> {
    type Item = (&'a ObjKey, &'a Arc<Value>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let order = match (self.current.peek(), self.overlay.peek()) {
                (None, None) => return None,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some((a, _)), Some((b, _))) => a.cmp(b),
            };
            match order {
                std::cmp::Ordering::Less => return self.current.next(),
                std::cmp::Ordering::Equal => {
                    self.current.next();
                }
                std::cmp::Ordering::Greater => {}
            }
            if let Some((k, Some(v))) = self.overlay.next() {
                return Some((k, v));
            }
        }
    }
}

fn list(st: &State, rt: &ResourceType, ns: Option<&str>, ctx: &Ctx) -> Result<Response<ResBody>, ApiError> {
    let filter = Filter {
        rt: rt.clone(),
        namespace: ns.map(str::to_string),
        fields: FieldSelector::parse(rt, ctx.q("fieldSelector").unwrap_or(""))?,
        labels: LabelSelector::parse(ctx.q("labelSelector").unwrap_or(""))?,
    };
    let limit: usize = match ctx.q("limit").filter(|s| !s.is_empty()) {
        Some(l) => l.parse().map_err(|_| {
            let why = if l.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) {
                "value out of range"
            } else {
                "invalid syntax"
            };
            ApiError::bad_request(format!("strconv.ParseInt: parsing {l:?}: {why}"))
        })?,
        None => 0,
    };
    let table = ctx.table(rt)?;
    validate_list_options(ctx, false)?;
    let storage = rt.storage();
    let mut start = Bound::Included((storage.clone(), ns.unwrap_or("").to_string(), String::new()));
    let snapshot_rv = match ctx.q("continue").filter(|s| !s.is_empty()) {
        Some(token) => {
            let (kns, kname, rv) = decode_continue(token)?;
            if ctx.q("resourceVersion").is_some_and(|rv| !rv.is_empty() && rv != "0") {
                return Err(ApiError::bad_request("specifying resource version is not allowed when using continue"));
            }
            start = Bound::Excluded((storage.clone(), kns.clone(), kname.clone()));
            match u64::try_from(rv) {
                // -1: go on at the latest resourceVersion.
                Err(_) => st.rv,
                Ok(rv) if rv < st.compacted_rv => {
                    let mut e = ApiError::expired(INCONSISTENT_CONTINUE);
                    e.continue_token = Some(encode_continue(&kns, &kname, -1).into());
                    return Err(e);
                }
                Ok(rv) => rv,
            }
        }
        None => match ctx.q("resourceVersion").filter(|s| !s.is_empty()) {
            None => st.rv,
            Some(rv) => match parse_list_rv(rv)? {
                0 => st.rv,
                rv if rv > st.rv => return Err(too_large(rv, st.rv, None)),
                rv if ctx.q("resourceVersionMatch") == Some("Exact") => {
                    if rv < st.compacted_rv {
                        return Err(ApiError::expired(LIST_TOO_OLD));
                    }
                    rv
                }
                _ => st.rv,
            },
        },
    };
    let mut overlay: BTreeMap<ObjKey, Option<Arc<Value>>> = BTreeMap::new();
    for c in st.history.iter().rev().take_while(|c| c.rv > snapshot_rv) {
        if c.key.0 == storage {
            overlay.insert(c.key.clone(), c.prev.clone());
        }
    }
    let in_scope = |k: &ObjKey| k.0 == storage && ns.is_none_or(|ns| k.1 == ns);
    let snapshot = Snapshot {
        current: st.objects.range((start.clone(), Bound::Unbounded)).peekable(),
        overlay: overlay.range((start, Bound::Unbounded)).peekable(),
    };
    let mut matching = snapshot.take_while(|(k, _)| in_scope(k)).filter(|(k, v)| filter.matches(&k.1, v));
    let mut items = Vec::new();
    let mut cores = Vec::new();
    let mut last: Option<&ObjKey> = None;
    for (k, v) in matching.by_ref() {
        if table.is_some() {
            cores.push(render(&ResourceType::CORE_EVENTS, v, true));
            items.push(render(rt, v, true));
        } else {
            items.push(render(rt, v, false));
        }
        last = Some(k);
        if limit > 0 && items.len() == limit {
            break;
        }
    }
    let mut metadata = json!({"resourceVersion": snapshot_rv.to_string()});
    if let Some(k) = last
        && limit > 0
        && items.len() == limit
    {
        let remaining = matching.count();
        if remaining > 0 {
            let rv = i64::try_from(snapshot_rv).unwrap_or(i64::MAX);
            metadata["continue"] = json!(encode_continue(&k.1, &k.2, rv));
            if filter.fields.is_empty() && filter.labels.is_empty() {
                metadata["remainingItemCount"] = json!(remaining);
            }
        }
    }
    if let Some(include) = table {
        let rows: Vec<(Value, Value)> = cores.into_iter().zip(items).collect();
        return Ok(json_response(200, &table::event_table(&rows, metadata, include)));
    }
    Ok(json_response(
        200,
        &json!({"kind": rt.list_kind(), "apiVersion": rt.api_version(), "metadata": metadata, "items": items}),
    ))
}

fn watch(
    st: &mut State,
    rt: &ResourceType,
    ns: Option<&str>,
    field_selector: &str,
    ctx: &Ctx,
) -> Result<Response<ResBody>, ApiError> {
    let filter = Filter {
        rt: rt.clone(),
        namespace: ns.map(str::to_string),
        fields: FieldSelector::parse(rt, field_selector)?,
        labels: LabelSelector::parse(ctx.q("labelSelector").unwrap_or(""))?,
    };
    validate_list_options(ctx, true)?;
    let bookmarks = ctx.q("allowWatchBookmarks") == Some("true");
    // sendInitialEvents=true: the state as ADDED events first, then (with bookmarks) a BOOKMARK marked
    // initial-events-end; sendInitialEvents=false: only what changes after the resourceVersion, and without one (or
    // with "0") from now on, not the state (etcd3's watcher with the WatchList feature).
    let send_initial_given = ctx.q("sendInitialEvents").is_some_and(|v| !v.is_empty());
    let send_initial = ctx.q("sendInitialEvents") == Some("true");
    let timeout = match ctx.q("timeoutSeconds").filter(|s| !s.is_empty()) {
        Some(s) => Some(Duration::from_secs(
            s.parse().map_err(|_| ApiError::bad_request(format!("invalid timeoutSeconds: {s:?}")))?,
        )),
        None => st.config.default_watch_timeout,
    };
    let storage = rt.storage();
    let mut pending = VecDeque::new();
    let rv = match ctx.q("resourceVersion").filter(|s| !s.is_empty()) {
        Some(rv) => Some(parse_watch_rv(rv)?),
        None => None,
    };
    let mut from_rv = st.rv;
    match rv {
        Some(rv) if rv != 0 && !send_initial => {
            if rv < st.compacted_rv {
                let e = ApiError::expired(WATCH_TOO_OLD);
                if st.config.expired_watch == ExpiredWatch::HttpGone {
                    return Err(e);
                }
                return Ok(error_watch(&e, filter));
            }
            // A resourceVersion above the current one is accepted without error, as kube-apiserver does for
            // Events (no watch cache; etcd waits for the revision): the watch then stays silent until the
            // store passes it, and what changed up to there is never sent.
            from_rv = rv;
            for c in st.history.iter().filter(|c| c.rv > rv && c.key.0 == storage) {
                if let Some(line) = filter.change_line(c) {
                    pending.push_back(line);
                }
            }
        }
        Some(rv) if send_initial && rv > st.rv => {
            // etcd3's watcher checks a sendInitialEvents watch against the current revision first (and asks
            // for a retry after a jittered 1 to 4 s; the double says 1).
            return Ok(error_watch(&too_large(rv, st.rv, Some(1)), filter));
        }
        _ if send_initial_given && !send_initial => {}
        _ => {
            // No resourceVersion, "0", or sendInitialEvents: the current state as synthetic ADDED events.
            for (k, v) in st.objects.iter().filter(|(k, _)| k.0 == storage) {
                if filter.matches(&k.1, v) {
                    pending.push_back(filter.line("ADDED", v));
                }
            }
            if send_initial && bookmarks {
                pending.push_back(filter.bookmark(st.rv, true));
            }
        }
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    st.watchers.push(Watcher { storage, bookmarks, from_rv, tx });
    let deadline = timeout.map(|d| Box::pin(tokio::time::sleep(d)));
    let body = WatchBody { pending, rx: Some(rx), filter, deadline };
    Ok(respond(200, ResBody::Watch(Box::new(body))))
}
