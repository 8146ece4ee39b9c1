//! The exporter against a real kube-apiserver (the testkit's Go harness) and, with the same test body, against the
//! API double: paged lists with real `continue` tokens, watches through both Event APIs, repeats as deltas, a
//! restart from the checkpoint, a real etcd compaction while the exporter is down (410, re-list, every event once)
//! and Events expiring under a short `--event-ttl` (DELETED, nothing re-exported), two replicas on one Lease (the
//! leader killed, the standby taking over once the lease runs out, every event once) and bookmarks moving the
//! checkpoint on (the real server with its watch cache on for Events), asserted on the file sink's lines. Events are created and updated through kube on
//! both servers, so the server assigns uids and resourceVersions.
//!
//! The real-server test is `#[ignore]`d (the first run builds kube-apiserver with Go: minutes, then cached): run it
//! with `cargo test -p gpu-events-export --test real_apiserver -- --ignored` (`.ci/run` does).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures::StreamExt;
use gpu_events_export::checkpoint::Checkpoint;
use gpu_events_export::exporter::{self, ExporterOptions, ExporterStats};
use gpu_events_export::leader::{LeaderElector, LeaseConfig};
use gpu_events_export::sink::SinkConfig;
use gpu_events_export::watch::{EventApi, WatchTiming};
use gpu_events_testkit::{ApiServer, RealApiServer, RealServerConfig, ServerConfig};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{Event as CoreEvent, Namespace};
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The server a test body runs on.
enum Target {
    Double(ApiServer),
    Real(&'static RealApiServer),
    /// A server of the test's own (compaction and TTL change the whole server).
    OwnReal(RealApiServer),
}

impl Target {
    fn real(&self) -> Option<&RealApiServer> {
        match self {
            Target::Double(_) => None,
            Target::Real(server) => Some(server),
            Target::OwnReal(server) => Some(server),
        }
    }

    async fn client(&self) -> kube::Client {
        match (self, self.real()) {
            (Target::Double(server), _) => server.client_without_retry(),
            (_, Some(server)) => server.client().await.expect("a client for the real server"),
            _ => unreachable!("a target is the double or a real server"),
        }
    }

    /// The `kube::Config` of the admin, without kube's own retries (the exporter's binary turns them off too), for
    /// a client built where it is used (a replica's own runtime).
    async fn kube_config(&self) -> kube::Config {
        let mut config = match (self, self.real()) {
            (Target::Double(server), _) => server.kube_config(),
            (_, Some(server)) => server.kube_config("admin").await.expect("the real server's kubeconfig"),
            _ => unreachable!("a target is the double or a real server"),
        };
        config.default_retry = false;
        config
    }

    /// Compacts the server's history at its latest revision: a watch from an older resourceVersion gets 410.
    async fn compact(&self) {
        match (self, self.real()) {
            (Target::Double(server), _) => server.compact(),
            (_, Some(server)) => {
                server.compact().await.expect("etcd compacts");
            }
            _ => unreachable!("a target is the double or a real server"),
        }
    }

    /// Lets the Events' TTL run out: the double's clock moves on; the real server's etcd leases expire in time.
    async fn expire(&self, ttl: Duration) {
        if let Target::Double(server) = self {
            server.advance_clock(ttl + Duration::from_secs(1));
        }
    }
}

fn core_event(namespace: &str, i: usize, count: i32) -> CoreEvent {
    serde_json::from_value(json!({
        "metadata": {"name": format!("pod-{i}.1"), "namespace": namespace},
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": namespace, "name": format!("pod-{i}")},
        "reason": "FailedScheduling", "type": "Warning", "count": count,
        "message": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "source": {"component": "default-scheduler"},
        "firstTimestamp": "2026-12-01T10:00:00Z", "lastTimestamp": "2026-12-01T10:00:00Z",
    }))
    .unwrap()
}

/// A repeat, as the scheduler's event broadcaster writes it: count and lastTimestamp.
async fn repeat(events: &Api<CoreEvent>, i: usize, count: i32) {
    let patch = json!({"count": count, "lastTimestamp": format!("2026-12-01T10:{:02}:00Z", count.min(59))});
    events.patch(&format!("pod-{i}.1"), &PatchParams::default(), &Patch::Merge(&patch)).await.unwrap();
}

struct Run {
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), exporter::ExportError>>,
    stats: Arc<ExporterStats>,
}

fn start(client: kube::Client, dir: &Path) -> Run {
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(client, options(dir), stats.clone(), stopped));
    Run { stop, task, stats }
}

/// The exporter's options of these tests: both Event APIs, a file sink and the checkpoint in `dir`, short timings.
fn options(dir: &Path) -> ExporterOptions {
    let mut options = ExporterOptions::default();
    options.cluster = Some("gpu-lab".into());
    options.apis = vec![EventApi::EventsV1, EventApi::CoreV1];
    options.state = Some(dir.join("state.json"));
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.checkpoint_interval = Duration::from_millis(200);
    options.watch = WatchTiming {
        watch_timeout: Duration::from_secs(5),
        dead_watch: Duration::from_millis(100),
        min_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        // 21 events: three pages.
        page_size: 7,
    };
    options
}

impl Run {
    /// Stops the exporter (it writes its last checkpoint) and returns its counters.
    async fn finish(self) -> Arc<ExporterStats> {
        self.stop.send(true).unwrap();
        self.task.await.unwrap().unwrap();
        self.stats
    }
}

/// Creates a namespace for a test body.
async fn namespace(client: &kube::Client, name: &str) {
    let ns =
        Namespace { metadata: ObjectMeta { name: Some(name.into()), ..ObjectMeta::default() }, ..Default::default() };
    Api::<Namespace>::all(client.clone()).create(&PostParams::default(), &ns).await.unwrap();
}

/// Per event uid: the occurrences exported (the deltas added up) and how many lines it took.
fn occurrences_by_uid(lines: &[Value]) -> std::collections::BTreeMap<String, (u64, usize)> {
    let mut by_uid = std::collections::BTreeMap::<String, (u64, usize)>::new();
    for line in lines {
        let entry = by_uid.entry(line["eventUid"].as_str().unwrap().to_owned()).or_default();
        entry.0 += line["delta"]["occurrences"].as_u64().unwrap();
        entry.1 += 1;
    }
    by_uid
}

/// The server's own view: each Event's uid and count.
async fn counts_on_the_server(events: &Api<CoreEvent>) -> std::collections::BTreeMap<String, u64> {
    let list = events.list(&Default::default()).await.unwrap();
    list.items.iter().map(|e| (e.metadata.uid.clone().unwrap(), u64::try_from(e.count.unwrap_or(1)).unwrap())).collect()
}

/// The lines the exporter has finished writing: a poll can see the last one half written (no
/// newline yet), which is not a line yet.
fn lines(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("events.jsonl")).unwrap_or_default();
    let finished = text.rfind('\n').map_or("", |end| &text[..end]);
    finished.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Waits for `n` lines, then a little longer to see that no more come.
async fn exactly_lines(dir: &Path, n: usize) -> Vec<Value> {
    for _ in 0..1000 {
        if lines(dir).len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = lines(dir);
    assert_eq!(got.len(), n, "{got:#?}");
    got
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-events-export-real-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every event once though both APIs serve it, repeats as deltas, and a restart from the checkpoint exports
/// exactly what changed while it was down.
async fn no_event_lost_or_duplicated_across_pages_both_apis_and_a_restart(target: Target, dir: PathBuf) {
    let namespace = "exp-restart";
    let client = target.client().await;
    let ns = Namespace {
        metadata: ObjectMeta { name: Some(namespace.into()), ..ObjectMeta::default() },
        ..Default::default()
    };
    Api::<Namespace>::all(client.clone()).create(&PostParams::default(), &ns).await.unwrap();
    let events = Api::<CoreEvent>::namespaced(client.clone(), namespace);
    for i in 0..20 {
        events.create(&PostParams::default(), &core_event(namespace, i, 1)).await.unwrap();
    }

    let run = start(client.clone(), &dir);
    let first = exactly_lines(&dir, 20).await;
    assert!(first.iter().all(|l| l["cluster"] == "gpu-lab" && l["delta"]["occurrences"] == 1), "{}", first[0]);
    assert!(first.iter().all(|l| l["cause"] == "insufficient-gpu"), "{}", first[0]);

    // Through the watch: a repeat is a delta of 3, a new event a line of its own.
    repeat(&events, 0, 4).await;
    events.create(&PostParams::default(), &core_event(namespace, 20, 1)).await.unwrap();
    let watched = exactly_lines(&dir, 22).await;
    let uid0 = &first.iter().find(|l| l["regarding"]["name"] == "pod-0").unwrap()["eventUid"];
    let delta = watched.iter().find(|l| &l["eventUid"] == uid0 && l["delta"]["total"] == 4).unwrap();
    assert_eq!(delta["delta"]["occurrences"], 3);
    run.finish().await;

    // While the exporter is down: one new event, one repeat. After the restart, exactly those.
    events.create(&PostParams::default(), &core_event(namespace, 21, 1)).await.unwrap();
    repeat(&events, 1, 2).await;
    let run = start(client, &dir);
    let resumed = exactly_lines(&dir, 24).await;
    run.finish().await;
    let mut by_uid = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for line in &resumed {
        let entry = by_uid.entry(line["eventUid"].as_str().unwrap().to_owned()).or_default();
        entry.0 += line["delta"]["occurrences"].as_u64().unwrap();
        entry.1 = line["delta"]["total"].as_u64().unwrap();
    }
    assert_eq!(by_uid.len(), 22, "every event, once");
    for (uid, (occurrences, total)) in &by_uid {
        assert_eq!(occurrences, total, "{uid}: the deltas add up to the count");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Across a compaction while the exporter is down: the resumed watches (both APIs) get 410, the exporter re-lists,
/// counts the suspected gap once per API, and the sink holds every event exactly once with its full count (the
/// re-list's replays of what was exported are suppressed as duplicates).
async fn no_event_lost_or_duplicated_across_a_compaction(target: Target, dir: PathBuf) {
    let name = "exp-compact";
    let client = target.client().await;
    namespace(&client, name).await;
    let events = Api::<CoreEvent>::namespaced(client.clone(), name);
    for i in 0..10 {
        events.create(&PostParams::default(), &core_event(name, i, 1)).await.unwrap();
    }
    let run = start(client.clone(), &dir);
    exactly_lines(&dir, 10).await;
    let first = run.finish().await;
    assert_eq!(first.gaps_suspected.load(Ordering::Relaxed), 0, "the first list is no gap");

    // While the exporter is down: five new events and three repeats, then the history it would resume from is
    // compacted away.
    for i in 10..15 {
        events.create(&PostParams::default(), &core_event(name, i, 1)).await.unwrap();
    }
    for i in 0..3 {
        repeat(&events, i, 3).await;
    }
    target.compact().await;

    let run = start(client, &dir);
    let resumed = exactly_lines(&dir, 18).await;
    let stats = run.finish().await;
    assert_eq!(stats.gaps_suspected.values(), [1, 1], "one 410 re-list per API, each a suspected gap");
    assert!(stats.relists.values().iter().all(|&n| n >= 1), "{:?}", stats.relists.values());
    assert!(stats.duplicates.load(Ordering::Relaxed) >= 7, "the re-lists' replays are suppressed");

    let exported = occurrences_by_uid(&resumed);
    let server = counts_on_the_server(&events).await;
    assert_eq!(server.len(), 15);
    let exported_counts: std::collections::BTreeMap<_, _> =
        exported.iter().map(|(uid, (n, _))| (uid.clone(), *n)).collect();
    assert_eq!(exported_counts, server, "every event once, with every occurrence: 0 lost, 0 duplicated");
    for (uid, (_, lines)) in &exported {
        let expected = if server[uid] == 3 { 2 } else { 1 };
        assert_eq!(*lines, expected, "{uid}: a line when first seen, one more per repeat");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn compaction_on_the_double() {
    let target = Target::Double(ApiServer::start().await);
    no_event_lost_or_duplicated_across_a_compaction(target, temp_dir("compact-double")).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
async fn compaction_on_the_real_server() {
    let started = std::time::Instant::now();
    let target = Target::OwnReal(RealApiServer::start().await.expect("a real kube-apiserver"));
    let up = started.elapsed();
    no_event_lost_or_duplicated_across_a_compaction(target, temp_dir("compact-real")).await;
    eprintln!("compaction_on_the_real_server: {:?} (server start {up:?})", started.elapsed());
}

/// Waits (up to a minute) until no Event is left in `events`' namespace; the time waited.
async fn all_expired(events: &Api<CoreEvent>) -> Duration {
    let started = std::time::Instant::now();
    while !events.list(&Default::default()).await.unwrap().items.is_empty() {
        assert!(started.elapsed() < Duration::from_secs(60), "the Events did not expire");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    started.elapsed()
}

/// Collects the uids of DELETED events on a watch of `events` from `resource_version`, until there are `n` (panics if the watch ends first).
fn deletions(events: Api<CoreEvent>, resource_version: String, n: usize) -> JoinHandle<Vec<String>> {
    tokio::spawn(async move {
        let mut stream = events.watch(&WatchParams::default().timeout(60), &resource_version).await.unwrap().boxed();
        let mut deleted = vec![];
        while deleted.len() < n {
            match stream.next().await {
                Some(Ok(WatchEvent::Deleted(event))) => deleted.push(event.metadata.uid.unwrap()),
                Some(Ok(_)) => {}
                other => panic!("the watch ended before {n} deletions: {other:?}"),
            }
        }
        deleted
    })
}

/// Events expire (`--event-ttl`) under a running exporter: the watches see DELETED, the exporter exports each
/// event once, writes no line for a deletion, keeps running, exports an Event recreated under the same name (a new
/// uid) as new, and after a restart from its checkpoint re-exports nothing.
async fn expired_events_are_exported_once(target: Target, ttl: Duration, dir: PathBuf) {
    let name = "exp-ttl";
    let client = target.client().await;
    namespace(&client, name).await;
    let events = Api::<CoreEvent>::namespaced(client.clone(), name);
    let run = start(client.clone(), &dir);
    let from = events.list(&Default::default()).await.unwrap().metadata.resource_version.unwrap();
    let deleted = deletions(events.clone(), from, 5);
    for i in 0..5 {
        events.create(&PostParams::default(), &core_event(name, i, 1)).await.unwrap();
    }
    let first = exactly_lines(&dir, 5).await;

    target.expire(ttl).await;
    let waited = all_expired(&events).await;
    let mut deleted = deleted.await.unwrap();
    deleted.sort();
    let mut exported: Vec<String> = first.iter().map(|l| l["eventUid"].as_str().unwrap().to_owned()).collect();
    exported.sort();
    assert_eq!(deleted, exported, "the server deleted every exported Event (DELETED on the watch)");
    exactly_lines(&dir, 5).await;
    assert!(!run.task.is_finished(), "the exporter runs on after the deletions");

    // The same names again: new Events (new uids), each exported once.
    for i in 0..5 {
        events.create(&PostParams::default(), &core_event(name, i, 1)).await.unwrap();
    }
    exactly_lines(&dir, 10).await;
    target.expire(ttl).await;
    all_expired(&events).await;
    run.finish().await;

    // Restarted once everything has expired: the re-list (or resumed watch) finds nothing to export.
    let run = start(client, &dir);
    let after = exactly_lines(&dir, 10).await;
    assert!(!run.task.is_finished());
    run.finish().await;
    let by_uid = occurrences_by_uid(&after);
    assert_eq!(by_uid.len(), 10, "ten Events, ten uids");
    assert!(by_uid.values().all(|&(n, lines)| n == 1 && lines == 1), "each once: {by_uid:?}");
    assert!(after.iter().all(|l| l["delta"]["occurrences"] == 1), "no line for a deletion");
    eprintln!("expiry waited {waited:?} for a TTL of {ttl:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn ttl_expiry_on_the_double() {
    let ttl = Duration::from_secs(5);
    let target = Target::Double(ApiServer::start_with(ServerConfig::default().event_ttl(ttl)).await);
    expired_events_are_exported_once(target, ttl, temp_dir("ttl-double")).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
async fn ttl_expiry_on_the_real_server() {
    let started = std::time::Instant::now();
    let ttl = Duration::from_secs(5);
    let server = RealApiServer::start_with(RealServerConfig::default().event_ttl(ttl)).await;
    let target = Target::OwnReal(server.expect("a real kube-apiserver"));
    let up = started.elapsed();
    expired_events_are_exported_once(target, ttl, temp_dir("ttl-real")).await;
    eprintln!("ttl_expiry_on_the_real_server: {:?} (server start {up:?})", started.elapsed());
}

#[tokio::test(flavor = "multi_thread")]
async fn on_the_double() {
    let target = Target::Double(ApiServer::start().await);
    no_event_lost_or_duplicated_across_pages_both_apis_and_a_restart(target, temp_dir("double")).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
async fn on_the_real_server() {
    let target = Target::Real(RealApiServer::shared().await);
    no_event_lost_or_duplicated_across_pages_both_apis_and_a_restart(target, temp_dir("real")).await;
}

/// The Lease timing of the replicas: a 2 s lease (whole seconds, as `leaseDurationSeconds` holds), renewed every
/// 200 ms, given up after 1 s without renewal.
fn lease_config(namespace: &str, identity: &str) -> LeaseConfig {
    let mut config = LeaseConfig::new("gpu-events-export", namespace, identity);
    config.lease_duration = Duration::from_secs(2);
    config.renew_deadline = Duration::from_secs(1);
    config.retry_period = Duration::from_millis(200);
    config
}

/// An exporter replica as `gpu-events export --leader-elect` runs one (crates/gpu-events-cli/src/export.rs): it
/// campaigns for the Lease, exports only while it leads, and stops exporting when it loses the Lease. It runs on a
/// runtime of its own, with its own client, so that [`Replica::kill`] can end it as a killed process ends: at
/// once, no final checkpoint, no release of the Lease.
struct Replica {
    runtime: Option<tokio::runtime::Runtime>,
    leading: watch::Receiver<bool>,
    stop: watch::Sender<bool>,
    done: Option<tokio::sync::oneshot::Receiver<()>>,
    stats: Arc<ExporterStats>,
}

impl Replica {
    fn start(config: kube::Config, namespace: &str, identity: &str, dir: &Path) -> Replica {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let (leading_tx, leading) = watch::channel(false);
        let (stop, mut stopped) = watch::channel(false);
        let (done_tx, done) = tokio::sync::oneshot::channel();
        let stats = Arc::new(ExporterStats::default());
        let (lease, mut options, exporter_stats) = (lease_config(namespace, identity), options(dir), stats.clone());
        options.namespaces = vec![namespace.to_owned()];
        runtime.spawn(async move {
            let client = kube::Client::try_from(config).expect("a client");
            let elector = LeaderElector::new(client.clone(), lease).expect("a valid Lease config");
            let mut campaign = leading_tx.subscribe();
            let (release, released) = watch::channel(false);
            let election = tokio::spawn(elector.run(leading_tx, released));
            let stopped_first = tokio::select! {
                _ = campaign.wait_for(|l| *l) => false,
                _ = stopped.wait_for(|s| *s) => true,
            };
            if stopped_first {
                let _ = release.send(true);
                let _ = election.await;
                let _ = done_tx.send(());
                return;
            }
            // Leading: export until told to stop or the Lease is lost, then release it (after the final checkpoint).
            let (stop_export, export_stopped) = watch::channel(false);
            tokio::spawn(async move {
                tokio::select! {
                    _ = campaign.wait_for(|l| !*l) => {}
                    _ = stopped.wait_for(|s| *s) => {}
                }
                let _ = stop_export.send(true);
            });
            exporter::run(client, options, exporter_stats, export_stopped).await.expect("the exporter runs");
            let _ = release.send(true);
            election.await.unwrap().expect("the election ends cleanly");
            let _ = done_tx.send(());
        });
        Replica { runtime: Some(runtime), leading, stop, done: Some(done), stats }
    }

    fn is_leading(&self) -> bool {
        *self.leading.borrow()
    }

    /// Waits until this replica leads; how long that took.
    async fn wait_leading(&mut self, within: Duration) -> Duration {
        let started = std::time::Instant::now();
        tokio::time::timeout(within, self.leading.wait_for(|l| *l))
            .await
            .unwrap_or_else(|_| panic!("not leading within {within:?}"))
            .expect("the replica runs");
        started.elapsed()
    }

    /// Ends the replica as SIGKILL would: every task of its runtime dropped where it stands.
    fn kill(mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }

    /// Stops the replica as SIGTERM does: the exporter's final checkpoint, then the Lease released.
    async fn stop(mut self) {
        self.stop.send(true).unwrap();
        tokio::time::timeout(Duration::from_secs(20), self.done.take().unwrap())
            .await
            .expect("the replica stops")
            .expect("the replica ran to its end");
        self.runtime.take().unwrap().shutdown_background();
    }
}

/// Samples two replicas every 5 ms for `period`: never both leading.
async fn never_both_lead(a: &Replica, b: &Replica, period: Duration) {
    let end = std::time::Instant::now() + period;
    while std::time::Instant::now() < end {
        assert!(!(a.is_leading() && b.is_leading()), "two leaders at once");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Waits until `replica` has written a checkpoint after everything it exported so far (two more checkpoints).
async fn checkpointed(replica: &Replica) {
    let before = replica.stats.checkpoints.load(Ordering::Relaxed);
    for _ in 0..500 {
        if replica.stats.checkpoints.load(Ordering::Relaxed) >= before + 2 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no checkpoint written");
}

/// Two exporter replicas on one Lease and one state file (a shared volume): the first leads and exports, the other
/// waits and exports nothing; the leader is killed (no release, no final checkpoint), the standby takes over once
/// the lease has run out, resumes from the checkpoint and exports what happened meanwhile: every event once, with
/// every occurrence. Returns the hand-over time (from the kill to the standby leading).
async fn a_killed_leaders_standby_takes_over_and_exports_each_event_once(target: Target, dir: PathBuf) -> Duration {
    let name = "exp-leader";
    let client = target.client().await;
    namespace(&client, name).await;
    let events = Api::<CoreEvent>::namespaced(client.clone(), name);
    for i in 0..5 {
        events.create(&PostParams::default(), &core_event(name, i, 1)).await.unwrap();
    }
    let config = target.kube_config().await;
    let mut a = Replica::start(config.clone(), name, "replica-a", &dir);
    a.wait_leading(Duration::from_secs(10)).await;
    exactly_lines(&dir, 5).await;
    let mut b = Replica::start(config, name, "replica-b", &dir);
    never_both_lead(&a, &b, Duration::from_secs(1)).await;
    assert!(a.is_leading() && !b.is_leading(), "a leads, b waits");
    repeat(&events, 0, 2).await;
    exactly_lines(&dir, 6).await;
    assert_eq!(b.stats.exported.load(Ordering::Relaxed), 0, "the standby exports nothing");
    let leases = Api::<Lease>::namespaced(client.clone(), name);
    let lease = leases.get("gpu-events-export").await.unwrap().spec.unwrap();
    assert_eq!(lease.holder_identity.as_deref(), Some("replica-a"));
    assert_eq!(lease.lease_duration_seconds, Some(2));

    // Killed once its checkpoint holds what it exported (what a leader exports after its last checkpoint is
    // exported again by the next one: at least once, not exactly once).
    checkpointed(&a).await;
    a.kill();
    let killed = std::time::Instant::now();
    // While no one leads: a new event and a repeat.
    events.create(&PostParams::default(), &core_event(name, 5, 1)).await.unwrap();
    repeat(&events, 1, 3).await;
    b.wait_leading(Duration::from_secs(10)).await;
    let handover = killed.elapsed();
    let config = lease_config(name, "replica-b");
    assert!(
        handover + config.retry_period >= config.lease_duration,
        "took over after {handover:?}, before the lease ran out"
    );
    // One retry period (and its jitter) after B last saw A renew, on a busy machine: within 4.
    assert!(handover < config.lease_duration + 4 * config.retry_period, "took over after {handover:?}");
    let lease = leases.get("gpu-events-export").await.unwrap().spec.unwrap();
    assert_eq!(lease.holder_identity.as_deref(), Some("replica-b"));
    assert_eq!(lease.lease_transitions, Some(1));

    let exported = exactly_lines(&dir, 8).await;
    repeat(&events, 5, 2).await;
    let exported_after = exactly_lines(&dir, 9).await;
    assert_eq!(exported[..], exported_after[..8]);
    b.stop().await;
    let lease = leases.get("gpu-events-export").await.unwrap().spec.unwrap();
    assert_eq!(lease.holder_identity.as_deref(), Some(""), "released on stop");

    let by_uid = occurrences_by_uid(&exported_after);
    let server = counts_on_the_server(&events).await;
    let exported_counts: std::collections::BTreeMap<_, _> =
        by_uid.iter().map(|(uid, (n, _))| (uid.clone(), *n)).collect();
    assert_eq!(exported_counts, server, "every event once, with every occurrence: 0 lost, 0 duplicated");
    for (uid, (_, lines)) in &by_uid {
        let expected = if server[uid] > 1 { 2 } else { 1 };
        assert_eq!(*lines, expected, "{uid}: a line when first seen, one for its repeat");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    handover
}

#[tokio::test(flavor = "multi_thread")]
async fn leader_handover_on_the_double() {
    let target = Target::Double(ApiServer::start().await);
    let handover =
        a_killed_leaders_standby_takes_over_and_exports_each_event_once(target, temp_dir("leader-double")).await;
    eprintln!("leader_handover_on_the_double: the standby led {handover:?} after the kill");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
async fn leader_handover_on_the_real_server() {
    // A server of its own: the shared one's cluster-wide exporter (`on_the_real_server`) would export these events.
    let target = Target::OwnReal(RealApiServer::start().await.expect("a real kube-apiserver"));
    let handover =
        a_killed_leaders_standby_takes_over_and_exports_each_event_once(target, temp_dir("leader-real")).await;
    eprintln!("leader_handover_on_the_real_server: the standby led {handover:?} after the kill");
}

/// The resourceVersions of the checkpoint in `dir`, by stream, as numbers (etcd revisions on the real server,
/// the double's counter: comparable in these tests, though clients elsewhere must not compare them).
fn checkpointed_versions(dir: &Path) -> std::collections::BTreeMap<String, u64> {
    let checkpoint = Checkpoint::load(&dir.join("state.json")).unwrap().unwrap_or_default();
    checkpoint.resource_versions.into_iter().map(|(stream, rv)| (stream, rv.parse().unwrap())).collect()
}

/// Watches with `allowWatchBookmarks` get BOOKMARK events, and the exporter's checkpoint moves on with them: it
/// watches one namespace, Events are written only in another, and each stream's checkpointed resourceVersion
/// still advances to (at least) the last of those writes, with no line exported for them. A watch of the test's
/// own counts the bookmarks. Returns the time from those writes to the checkpoint's catching up, and the gaps
/// between the bookmarks the test's watch got.
async fn bookmarks_advance_the_checkpoint(target: Target, dir: PathBuf) -> (Duration, Vec<Duration>) {
    let (watched, other) = ("exp-bookmark", "exp-bookmark-other");
    let client = target.client().await;
    namespace(&client, watched).await;
    namespace(&client, other).await;
    let events = Api::<CoreEvent>::namespaced(client.clone(), watched);
    for i in 0..2 {
        events.create(&PostParams::default(), &core_event(watched, i, 1)).await.unwrap();
    }
    let mut options = options(&dir);
    options.namespaces = vec![watched.to_owned()];
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let run = Run { stop, task: tokio::spawn(exporter::run(client.clone(), options, stats.clone(), stopped)), stats };
    exactly_lines(&dir, 2).await;

    // The test's own watch of the watched namespace, from now: it sees only bookmarks.
    let from = events.list(&Default::default()).await.unwrap().metadata.resource_version.unwrap();
    let mut own = events.watch(&WatchParams::default().timeout(10), &from).await.unwrap().boxed();
    let written_elsewhere = Api::<CoreEvent>::namespaced(client.clone(), other);
    let mut last = 0;
    for i in 0..3 {
        let created = written_elsewhere.create(&PostParams::default(), &core_event(other, i, 1)).await.unwrap();
        last = created.metadata.resource_version.unwrap().parse().unwrap();
    }
    let written = std::time::Instant::now();
    let caught_up = loop {
        let versions = checkpointed_versions(&dir);
        assert_eq!(versions.len(), 2, "a stream per API: {versions:?}");
        if versions.values().all(|&rv| rv >= last) {
            break written.elapsed();
        }
        assert!(written.elapsed() < Duration::from_secs(60), "the checkpoint stayed at {versions:?}, below {last}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut bookmarks = vec![];
    let mut at = written;
    while let Some(event) = own.next().await {
        match event.unwrap() {
            WatchEvent::Bookmark(bookmark) => {
                bookmarks.push(at.elapsed());
                at = std::time::Instant::now();
                let rv: u64 = bookmark.metadata.resource_version.parse().unwrap();
                if rv >= last {
                    break;
                }
            }
            other => panic!("only bookmarks on a namespace no one writes to: {other:?}"),
        }
    }
    assert!(!bookmarks.is_empty(), "the watch got a BOOKMARK at the latest resourceVersion");
    let stats = run.finish().await;
    assert_eq!(stats.exported.load(Ordering::Relaxed), 2, "nothing exported from the other namespace");
    assert_eq!(lines(&dir).len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
    (caught_up, bookmarks)
}

#[tokio::test(flavor = "multi_thread")]
async fn bookmarks_on_the_double() {
    let config = ServerConfig::default().bookmark_interval(Duration::from_secs(1));
    let target = Target::Double(ApiServer::start_with(config).await);
    let (caught_up, gaps) = bookmarks_advance_the_checkpoint(target, temp_dir("bookmark-double")).await;
    eprintln!("bookmarks_on_the_double: checkpoint caught up after {caught_up:?}; bookmarks after {gaps:?}");
}

/// kube-apiserver serves Event watches from etcd, without its watch cache (`DefaultWatchCacheSizes` turns it off
/// for `events` and `events.events.k8s.io`), and only the watch cache sends bookmarks: this server turns it on, as
/// `--watch-cache-sizes` lets a cluster do. Its bookmarks come every minute, and 2 s before a watch's timeout.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
async fn bookmarks_on_the_real_server() {
    let config = RealServerConfig::default().apiserver_arg("--watch-cache-sizes=events#1000,events.events.k8s.io#1000");
    let target = Target::OwnReal(RealApiServer::start_with(config).await.expect("a real kube-apiserver"));
    let (caught_up, gaps) = bookmarks_advance_the_checkpoint(target, temp_dir("bookmark-real")).await;
    eprintln!("bookmarks_on_the_real_server: checkpoint caught up after {caught_up:?}; bookmarks after {gaps:?}");
}
