//! The server's state: objects, the global resourceVersion, the change history used by watch and consistent
//! lists, open watches, faults, RBAC denials and the request log.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, RandomState};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use crate::config::ServerConfig;
use crate::event::{self, EventApi};
use crate::fault::{Fault, FaultAction};
use crate::log::RecordedRequest;
use crate::resource::{ResourceType, split_api_version};

/// (storage, namespace, name); the namespace is empty for cluster-scoped objects.
pub(crate) type ObjKey = (String, String, String);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

/// One committed change, as etcd would report it.
#[derive(Debug)]
pub(crate) struct Change {
    pub rv: u64,
    pub kind: ChangeKind,
    pub key: ObjKey,
    /// The object after the change (for a deletion: the last state, carrying the deletion's resourceVersion).
    pub object: Arc<Value>,
    /// The object before the change.
    pub prev: Option<Arc<Value>>,
}

/// What a watch stream receives.
#[derive(Debug)]
pub(crate) enum WatchMsg {
    Change(Arc<Change>),
    Bookmark(u64),
    Close,
    Abort,
}

pub(crate) struct Watcher {
    pub storage: String,
    pub bookmarks: bool,
    /// The resourceVersion the watch started from: nothing at or below it is sent. It is above the current one
    /// for a watch from a future resourceVersion, which etcd accepts and serves once its revision passes it.
    pub from_rv: u64,
    pub tx: UnboundedSender<WatchMsg>,
}

pub(crate) struct State {
    pub config: ServerConfig,
    pub addr: SocketAddr,
    pub resources: Vec<ResourceType>,
    pub objects: BTreeMap<ObjKey, Arc<Value>>,
    pub rv: u64,
    pub history: VecDeque<Arc<Change>>,
    /// Changes up to and including this resourceVersion are no longer in the history.
    pub compacted_rv: u64,
    pub watchers: Vec<Watcher>,
    pub faults: Vec<Fault>,
    pub requests: Vec<RecordedRequest>,
    pub next_seq: u64,
    /// (verb, group, plural)
    pub denied: HashSet<(String, String, String)>,
    uid_counter: u64,
    /// How far [`ApiServer::advance_clock`](crate::ApiServer::advance_clock) has moved the TTL clock.
    clock_offset: Duration,
    /// Events by expiry (with `event_ttl`), and each one's expiry.
    expiry: BTreeSet<(Instant, ObjKey)>,
    deadlines: HashMap<ObjKey, Instant>,
}

fn random_u64(salt: u64) -> u64 {
    RandomState::new().hash_one(salt)
}

pub(crate) fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

pub(crate) fn meta_str<'a>(obj: &'a Value, key: &str) -> &'a str {
    obj.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str).unwrap_or("")
}

pub(crate) fn set_meta(obj: &mut Value, key: &str, value: Value) {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    obj["metadata"][key] = value;
}

/// Renders a stored object as `rt` serves it; list items go without `apiVersion`/`kind`, like kube-apiserver's.
pub(crate) fn render(rt: &ResourceType, stored: &Value, with_type_meta: bool) -> Value {
    if rt.is_event() {
        let empty = serde_json::Map::new();
        return event::render(stored.as_object().unwrap_or(&empty), EventApi::of(&rt.group), with_type_meta);
    }
    let mut v = stored.clone();
    if let Some(m) = v.as_object_mut() {
        if with_type_meta {
            m.insert("apiVersion".into(), json!(rt.api_version()));
            m.insert("kind".into(), json!(rt.kind));
        } else {
            m.remove("apiVersion");
            m.remove("kind");
        }
    }
    v
}

impl State {
    pub fn new(config: ServerConfig, addr: SocketAddr) -> Self {
        let mut st = State {
            config,
            addr,
            resources: ResourceType::builtins(),
            objects: BTreeMap::new(),
            rv: 0,
            history: VecDeque::new(),
            compacted_rv: 0,
            watchers: Vec::new(),
            faults: Vec::new(),
            requests: Vec::new(),
            next_seq: 0,
            denied: HashSet::new(),
            uid_counter: 0,
            clock_offset: Duration::ZERO,
            expiry: BTreeSet::new(),
            deadlines: HashMap::new(),
        };
        for ns in ["default", "kube-node-lease", "kube-public", "kube-system"] {
            let mut obj = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns},
                                 "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}});
            st.fill_system_fields(&mut obj);
            st.put((ResourceType::NAMESPACES.storage(), String::new(), ns.to_string()), obj);
        }
        st
    }

    pub fn new_uid(&mut self) -> String {
        self.uid_counter += 1;
        let a = random_u64(self.uid_counter);
        let b = random_u64(!self.uid_counter);
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | ((b >> 48) & 0x3fff),
            b & 0xffff_ffff_ffff
        )
    }

    /// The random suffix of `generateName` (5 characters of kube's alphabet).
    pub fn name_suffix(&mut self) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        self.uid_counter += 1;
        let mut r = random_u64(self.uid_counter);
        (0..5)
            .map(|_| {
                let c = ALPHABET[(r % ALPHABET.len() as u64) as usize] as char;
                r /= ALPHABET.len() as u64;
                c
            })
            .collect()
    }

    /// Sets uid and creationTimestamp when absent (as `FillObjectMetaSystemFields` does on create).
    pub fn fill_system_fields(&mut self, obj: &mut Value) {
        if meta_str(obj, "uid").is_empty() {
            let uid = self.new_uid();
            set_meta(obj, "uid", json!(uid));
        }
        if meta_str(obj, "creationTimestamp").is_empty() {
            set_meta(obj, "creationTimestamp", json!(now_rfc3339()));
        }
    }

    pub fn find_resource(&self, group: &str, version: &str, plural: &str) -> Option<ResourceType> {
        self.resources.iter().find(|r| r.group == group && r.version == version && r.plural == plural).cloned()
    }

    pub fn find_kind(&self, api_version: &str, kind: &str) -> Option<ResourceType> {
        let (group, version) = split_api_version(api_version);
        self.resources.iter().find(|r| r.group == group && r.version == version && r.kind == kind).cloned()
    }

    pub fn register(&mut self, rt: ResourceType) {
        self.resources.retain(|r| !(r.group == rt.group && r.version == rt.version && r.plural == rt.plural));
        self.resources.push(rt);
    }

    fn next_rv(&mut self) -> u64 {
        self.rv += 1;
        self.rv
    }

    /// Stores an object under a new resourceVersion and reports the change to watches.
    pub fn put(&mut self, key: ObjKey, mut obj: Value) -> Arc<Value> {
        let rv = self.next_rv();
        set_meta(&mut obj, "resourceVersion", json!(rv.to_string()));
        let obj = Arc::new(obj);
        self.renew_ttl(&key);
        let prev = self.objects.insert(key.clone(), obj.clone());
        let kind = if prev.is_some() { ChangeKind::Modified } else { ChangeKind::Added };
        self.record(Change { rv, kind, key, object: obj.clone(), prev });
        obj
    }

    /// Deletes an object, reporting it with a new resourceVersion.
    pub fn delete(&mut self, key: &ObjKey) -> Option<Arc<Value>> {
        let prev = self.objects.remove(key)?;
        if let Some(deadline) = self.deadlines.remove(key) {
            self.expiry.remove(&(deadline, key.clone()));
        }
        let rv = self.next_rv();
        let mut obj = (*prev).clone();
        set_meta(&mut obj, "resourceVersion", json!(rv.to_string()));
        let obj = Arc::new(obj);
        self.record(Change { rv, kind: ChangeKind::Deleted, key: key.clone(), object: obj.clone(), prev: Some(prev) });
        Some(obj)
    }

    /// The TTL clock: monotonic time, plus what tests advanced it by.
    pub fn now(&self) -> Instant {
        Instant::now() + self.clock_offset
    }

    /// Moves the TTL clock forward and expires what is due.
    pub fn advance_clock(&mut self, by: Duration) -> usize {
        self.clock_offset += by;
        self.expire_due()
    }

    /// An Event's TTL starts again at each write, as kube-apiserver attaches a new etcd lease on create and on
    /// every update (see [`ServerConfig::event_ttl`]).
    fn renew_ttl(&mut self, key: &ObjKey) {
        let Some(ttl) = self.config.event_ttl else { return };
        if key.0 != ResourceType::EVENTS_V1.storage() {
            return;
        }
        let deadline = self.now() + ttl;
        if let Some(old) = self.deadlines.insert(key.clone(), deadline) {
            self.expiry.remove(&(old, key.clone()));
        }
        self.expiry.insert((deadline, key.clone()));
    }

    /// Deletes the Events whose TTL has run out (watches see DELETED); how many.
    pub fn expire_due(&mut self) -> usize {
        let now = self.now();
        let mut expired = 0;
        while let Some((deadline, key)) = self.expiry.first().cloned() {
            if deadline > now {
                break;
            }
            self.expiry.pop_first();
            self.deadlines.remove(&key);
            if self.delete(&key).is_some() {
                expired += 1;
            }
        }
        expired
    }

    fn record(&mut self, change: Change) {
        let change = Arc::new(change);
        self.watchers.retain(|w| {
            if w.storage == change.key.0 && change.rv > w.from_rv {
                w.tx.send(WatchMsg::Change(change.clone())).is_ok()
            } else {
                !w.tx.is_closed()
            }
        });
        self.history.push_back(change);
        if let Some(limit) = self.config.history_limit {
            while self.history.len() > limit {
                if let Some(old) = self.history.pop_front() {
                    self.compacted_rv = old.rv;
                }
            }
        }
    }

    /// Forgets the whole history: a watch or list from any earlier resourceVersion gets 410 Gone.
    pub fn compact(&mut self) {
        self.history.clear();
        self.compacted_rv = self.rv;
    }

    pub fn bookmark_all(&mut self) {
        let rv = self.rv;
        self.watchers.retain(|w| !w.bookmarks || rv < w.from_rv || w.tx.send(WatchMsg::Bookmark(rv)).is_ok());
    }

    pub fn end_watches(&mut self, abort: bool) {
        for w in self.watchers.drain(..) {
            let _ = w.tx.send(if abort { WatchMsg::Abort } else { WatchMsg::Close });
        }
    }

    pub fn open_watches(&mut self) -> usize {
        self.watchers.retain(|w| !w.tx.is_closed());
        self.watchers.len()
    }

    /// Appends a request to the log and returns its sequence number.
    pub fn log_request(&mut self, mut req: RecordedRequest) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        req.seq = seq;
        if self.config.record_requests {
            self.requests.push(req);
        }
        seq
    }

    pub fn finish_request(&mut self, seq: u64, status: Option<u16>, faulted: bool) {
        if let Some(r) = self.requests.iter_mut().rev().find(|r| r.seq == seq) {
            r.status = status;
            r.faulted = faulted;
        }
    }

    /// The first fault that fires on this request, if any.
    pub fn fire_fault(&mut self, method: &str, path: &str, watch: bool) -> Option<FaultAction> {
        let action = self.faults.iter_mut().find_map(|f| f.check(method, path, watch).then(|| f.action.clone()));
        self.faults.retain(|f| f.times != Some(0));
        action
    }
}
