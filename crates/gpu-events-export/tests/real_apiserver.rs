//! The exporter against a real kube-apiserver (the testkit's Go harness) and, with the same test body, against the
//! API double: paged lists with real `continue` tokens, watches through both Event APIs, repeats as deltas and a
//! restart from the checkpoint, asserted on the file sink's lines. Events are created and updated through kube on
//! both servers, so the server assigns uids and resourceVersions.
//!
//! The real-server test is `#[ignore]`d (the first run builds kube-apiserver with Go: minutes, then cached): run it
//! with `cargo test -p gpu-events-export --test real_apiserver -- --ignored` (`.ci/run` does).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use gpu_events_export::exporter::{self, ExporterOptions, ExporterStats};
use gpu_events_export::sink::SinkConfig;
use gpu_events_export::watch::{EventApi, WatchTiming};
use gpu_events_testkit::{ApiServer, RealApiServer};
use k8s_openapi::api::core::v1::{Event as CoreEvent, Namespace};
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The server a test body runs on.
enum Target {
    Double(ApiServer),
    Real(&'static RealApiServer),
}

impl Target {
    async fn client(&self) -> kube::Client {
        match self {
            Target::Double(server) => server.client_without_retry(),
            Target::Real(server) => server.client().await.expect("a client for the real server"),
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
}

fn start(client: kube::Client, dir: &Path) -> Run {
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
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(exporter::run(client, options, Arc::new(ExporterStats::default()), stopped));
    Run { stop, task }
}

impl Run {
    async fn finish(self) {
        self.stop.send(true).unwrap();
        self.task.await.unwrap().unwrap();
    }
}

fn lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
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
