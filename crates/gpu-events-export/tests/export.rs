//! The exporter against the testkit API server over HTTP: list and watch with disconnects, 410,
//! watches that close at once, 429, both APIs, a restart from the checkpoint. Asserted on the
//! file sink's lines: every event exported once, repeats as deltas with the right counts.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use gpu_events_export::exporter::{self, ExporterOptions, ExporterStats};
use gpu_events_export::sink::SinkConfig;
use gpu_events_export::watch::{EventApi, WatchTiming};
use gpu_events_testkit::{ApiServer, Fault, ServerConfig};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinHandle;

fn core_event(name: &str, uid: &str, count: u32, message: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": name, "namespace": "ml", "uid": uid},
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": "ml", "name": name.split('.').next().unwrap()},
        "reason": "FailedScheduling", "type": "Warning", "count": count,
        "message": message,
        "source": {"component": "default-scheduler"},
        "firstTimestamp": "2026-12-01T10:00:00Z", "lastTimestamp": format!("2026-12-01T10:{:02}:00Z", count.min(59)),
    })
}

fn uid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012}")
}

struct Run {
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), exporter::ExportError>>,
    stats: Arc<ExporterStats>,
}

fn timing() -> WatchTiming {
    WatchTiming {
        watch_timeout: Duration::from_secs(5),
        dead_watch: Duration::from_millis(100),
        min_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        page_size: 7,
    }
}

fn start(server: &ApiServer, dir: &Path, apis: Vec<EventApi>) -> Run {
    let mut options = ExporterOptions::default();
    options.cluster = Some("gpu-lab".into());
    options.apis = apis;
    options.state = Some(dir.join("state.json"));
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.checkpoint_interval = Duration::from_millis(200);
    options.watch = timing();
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));
    Run { stop, task, stats }
}

impl Run {
    async fn finish(self) -> Arc<ExporterStats> {
        self.stop.send(true).unwrap();
        self.task.await.unwrap().unwrap();
        self.stats
    }
}

/// The lines the exporter has finished writing: a poll can see the last one half written (no
/// newline yet), which is not a line yet.
fn lines(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("events.jsonl")).unwrap_or_default();
    let finished = text.rfind('\n').map_or("", |end| &text[..end]);
    finished.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

async fn wait_for_lines(dir: &Path, n: usize) -> Vec<Value> {
    for _ in 0..500 {
        let got = lines(dir);
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("expected {n} lines, have {}", lines(dir).len());
}

/// Per event uid: the sum of exported occurrences, and the last total.
fn totals(lines: &[Value]) -> std::collections::BTreeMap<String, (u64, u64)> {
    let mut out = std::collections::BTreeMap::new();
    for line in lines {
        let uid = line["eventUid"].as_str().unwrap().to_owned();
        let entry = out.entry(uid).or_insert((0, 0));
        entry.0 += line["delta"]["occurrences"].as_u64().unwrap();
        entry.1 = line["delta"]["total"].as_u64().unwrap();
    }
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-events-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test]
async fn no_event_lost_or_duplicated_across_disconnects_410_and_a_restart() {
    let server = ApiServer::start_with(ServerConfig::default().history_limit(50)).await;
    let dir = temp_dir("restart");
    for i in 0..20 {
        server
            .insert(core_event(
                &format!("pod-{i}.1"),
                &uid(i),
                1,
                "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
            ))
            .unwrap();
    }
    let run = start(&server, &dir, vec![EventApi::EventsV1]);
    let first = wait_for_lines(&dir, 20).await;
    assert_eq!(first.len(), 20);
    assert!(first.iter().all(|l| l["cluster"] == "gpu-lab" && l["delta"]["occurrences"] == 1));
    assert!(first.iter().all(|l| l["cause"] == "insufficient-gpu"), "{}", first[0]);

    // Repeats become deltas; a disconnect in between loses nothing.
    assert!(server.wait_for_watches(1, Duration::from_secs(5)).await);
    server
        .insert(core_event("pod-0.1", &uid(0), 4, "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."))
        .unwrap();
    server.drop_watches();
    server
        .insert(core_event("pod-1.1", &uid(1), 2, "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."))
        .unwrap();
    server
        .insert(core_event("pod-20.1", &uid(20), 1, "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."))
        .unwrap();
    let after = wait_for_lines(&dir, 23).await;
    let delta = after.iter().find(|l| l["eventUid"] == uid(0) && l["delta"]["total"] == 4).unwrap();
    assert_eq!(delta["delta"]["occurrences"], 3);
    assert!(delta["delta"]["previousExport"].is_string());

    // History compacted while the watch is down: the exporter re-lists and sends only changes.
    server.drop_watches();
    server.insert(core_event("pod-2.1", &uid(2), 5, "x")).unwrap();
    server.compact();
    let after_410 = wait_for_lines(&dir, 24).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(lines(&dir).len(), 24, "the re-list replayed nothing that had not changed");
    assert_eq!(after_410.last().unwrap()["delta"]["occurrences"], 4);
    let stats = run.finish().await;
    assert!(stats.gaps_suspected.load(Ordering::Relaxed) >= 1);
    assert!(stats.duplicates.load(Ordering::Relaxed) >= 20, "the re-listed unchanged events were suppressed");

    // While the exporter is down: one new event, one repeat. After the restart, exactly those.
    server.insert(core_event("pod-21.1", &uid(21), 1, "y")).unwrap();
    server.insert(core_event("pod-3.1", &uid(3), 2, "z")).unwrap();
    let run = start(&server, &dir, vec![EventApi::EventsV1]);
    let resumed = wait_for_lines(&dir, 26).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    run.finish().await;
    assert_eq!(lines(&dir).len(), 26, "a restart replays nothing");
    let by_uid = totals(&resumed);
    assert_eq!(by_uid.len(), 22, "every event, once");
    for (uid, (occurrences, total)) in &by_uid {
        assert_eq!(occurrences, total, "{uid}: the deltas add up to the count");
    }
}

#[tokio::test]
async fn both_apis_count_each_event_once_and_dead_watches_are_relisted() {
    let server = ApiServer::start().await;
    let dir = temp_dir("both");
    for i in 0..5 {
        server.insert(core_event(&format!("pod-{i}.1"), &uid(i), 1, "m")).unwrap();
    }
    // The next watches close at once (200 and an empty body), as kubernetes #104171 describes.
    server.inject(Fault::empty_response().watch(true).times(4));
    server.inject(Fault::too_many_requests(1).method("GET").times(2));
    let run = start(&server, &dir, vec![EventApi::EventsV1, EventApi::CoreV1]);
    wait_for_lines(&dir, 5).await;
    assert!(server.wait_for_watches(2, Duration::from_secs(10)).await);
    server.insert(core_event("pod-5.1", &uid(5), 1, "m")).unwrap();
    wait_for_lines(&dir, 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stats = run.finish().await;
    let all = lines(&dir);
    assert_eq!(all.len(), 6, "{all:#?}");
    assert!(stats.duplicates.load(Ordering::Relaxed) >= 6, "the other API's copies were suppressed");
    assert!(stats.relists[0].load(Ordering::Relaxed) + stats.relists[1].load(Ordering::Relaxed) >= 3);
}

/// A free port on 127.0.0.1 (bound and released; the exporter binds it next).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn records_are_redacted_routed_alerted_on_and_counted_in_metrics() {
    let server = ApiServer::start().await;
    let dir = temp_dir("pipeline");
    let now = chrono::Utc::now();
    let stamp = |t: chrono::DateTime<chrono::Utc>| t.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let mut starved = core_event(
        "llama-0.1",
        &uid(1),
        5,
        "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: node 10.0.3.7 is not eligible.",
    );
    starved["firstTimestamp"] = json!(stamp(now - chrono::Duration::minutes(15)));
    starved["lastTimestamp"] = json!(stamp(now));
    server.insert(starved).unwrap();
    let mut scheduled = core_event("llama-1.1", &uid(2), 1, "Successfully assigned ml/llama-1 to gpu-node-1");
    scheduled["reason"] = json!("Scheduled");
    scheduled["type"] = json!("Normal");
    scheduled["lastTimestamp"] = json!(stamp(now));
    server.insert(scheduled).unwrap();

    let port = free_port();
    let yaml = format!(
        "sinks:\n  - name: all\n    spec: file:{all}\n  - name: warnings\n    spec: file:{warn}\n\
         routes:\n  - name: everything\n    sinks: [all]\n  - name: warnings-only\n    match: {{types: [Warning]}}\n    sinks: [warnings]\n\
         alerts:\n  - name: gpu-starved\n    match: {{reasons: [FailedScheduling], causes: [insufficient-gpu]}}\n    groupBy: [namespace, reason]\n    for: 10m\n    sink: warnings\n",
        all = dir.join("all.jsonl").display(),
        warn = dir.join("warnings.jsonl").display()
    );
    let config = gpu_events_export::config::ExportConfig::parse(&yaml).unwrap();
    let mut options = ExporterOptions::default();
    options.cluster = Some("gpu-lab".into());
    options.sinks = config.sinks;
    options.routes = config.routes;
    options.alerts = config.alerts;
    options.watch = timing();
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));

    let read = |name: &str| -> Vec<Value> {
        std::fs::read_to_string(dir.join(name))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    for _ in 0..500 {
        if read("all.jsonl").len() >= 2 && read("warnings.jsonl").len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let all = read("all.jsonl");
    assert_eq!(all.len(), 2, "{all:#?}");
    let warnings = read("warnings.jsonl");
    let (records, alerts): (Vec<_>, Vec<_>) = warnings.iter().partition(|l| l.get("reason").is_some());
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["type"], "Warning");
    let note = records[0]["note"].as_str().unwrap();
    assert!(!note.contains("10.0.3.7") && note.contains("<ipv4>"), "{note}");
    assert_eq!(records[0]["redactions"], json!(["ipv4"]));
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    assert_eq!(alerts[0]["rule"], "gpu-starved");
    assert_eq!(alerts[0]["state"], "firing");

    let body = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    let line = r#"gpu_events_export_events_exported_total{cluster="gpu-lab",reason="FailedScheduling",group="scheduling",type="Warning",cause="insufficient-gpu"} 5"#;
    assert!(body.contains(line), "{body}");
    assert!(
        body.contains(r#"gpu_events_export_alerts_total{cluster="gpu-lab",rule="gpu-starved",state="firing"} 1"#),
        "{body}"
    );
    assert!(!body.contains("llama-0"), "no object names in metrics");
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
}

/// The value of the sample `series` (`name{labels}`) in an exposition, 0 when absent.
fn sample(body: &str, series: &str) -> u64 {
    body.lines()
        .find(|l| l.starts_with(series) && l[series.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn one_event_counts_once_in_the_stats_and_in_the_metrics() {
    // Regression: the exporter counted every event twice, once in ExporterStats and once in the
    // metrics; now the metrics render the stats, so the two views cannot drift apart.
    let server = ApiServer::start().await;
    let dir = temp_dir("counted-once");
    server.insert(core_event("pod-0.1", &uid(0), 3, "m")).unwrap();
    let port = free_port();
    let mut options = ExporterOptions::default();
    options.apis = vec![EventApi::EventsV1, EventApi::CoreV1];
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.watch = timing();
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));
    wait_for_lines(&dir, 1).await;
    // Both APIs list the same Event: the second copy is a duplicate.
    for _ in 0..500 {
        if stats.duplicates.load(Ordering::Relaxed) >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let body = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
    assert_eq!(lines(&dir).len(), 1, "one record");
    assert_eq!(stats.exported.load(Ordering::Relaxed), 1);
    assert_eq!(stats.occurrences(), 3, "its three occurrences, once");
    let exported =
        r#"gpu_events_export_events_exported_total{reason="FailedScheduling",group="scheduling",type="Warning","#;
    let series: Vec<&str> = body.lines().filter(|l| l.starts_with(exported)).collect();
    assert_eq!(series.len(), 1, "{body}");
    assert!(series[0].ends_with(" 3"), "{body}");
    let duplicates = stats.duplicates.load(Ordering::Relaxed);
    assert!(duplicates >= 1, "{body}");
    assert_eq!(sample(&body, "gpu_events_export_duplicates_suppressed_total"), duplicates, "{body}");
    for api in EventApi::ALL {
        let relists = sample(&body, &format!(r#"gpu_events_export_relists_total{{api="{}"}}"#, api.as_str()));
        assert_eq!(relists, stats.relists[api.index()].load(Ordering::Relaxed), "{api:?}: {body}");
        assert!(relists >= 1, "{api:?}: {body}");
    }
}

#[tokio::test]
async fn events_deleted_while_down_are_not_exported_twice_through_both_apis() {
    let server = ApiServer::start().await;
    let dir = temp_dir("deleted");
    let run = start(&server, &dir, vec![EventApi::EventsV1, EventApi::CoreV1]);
    assert!(server.wait_for_watches(2, Duration::from_secs(5)).await);
    let run_stats = run.finish().await;
    assert_eq!(run_stats.exported.load(Ordering::Relaxed), 0);
    // While down: events come and go (a namespace deleted).
    for i in 0..10 {
        server.insert(core_event(&format!("pod-{i}.1"), &uid(i), 1, "m")).unwrap();
    }
    for i in 0..10 {
        server.remove(&gpu_events_testkit::ResourceType::CORE_EVENTS, Some("ml"), &format!("pod-{i}.1")).unwrap();
    }
    let run = start(&server, &dir, vec![EventApi::EventsV1, EventApi::CoreV1]);
    wait_for_lines(&dir, 10).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    run.finish().await;
    let all = lines(&dir);
    assert_eq!(all.len(), 10, "each once: {all:#?}");
}

#[tokio::test]
async fn a_checkpoint_that_cannot_be_written_does_not_stop_the_export() {
    let server = ApiServer::start().await;
    let dir = temp_dir("unwritable");
    // A directory where the temporary file must go.
    std::fs::create_dir_all(dir.join("state.json.tmp")).unwrap();
    let run = start(&server, &dir, vec![EventApi::EventsV1]);
    server.insert(core_event("pod-0.1", &uid(0), 1, "m")).unwrap();
    wait_for_lines(&dir, 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.insert(core_event("pod-1.1", &uid(1), 1, "m")).unwrap();
    wait_for_lines(&dir, 2).await;
    let stats = run.finish().await;
    assert!(stats.checkpoint_failures.load(Ordering::Relaxed) >= 1);
}

#[tokio::test]
async fn a_hung_webhook_holds_back_neither_the_file_nor_the_watch_nor_shutdown() {
    let server = ApiServer::start().await;
    let dir = temp_dir("hung");
    // A receiver that accepts and never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook = format!("webhook:http://{}/hook", listener.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            open.push(stream);
        }
    });
    let mut options = ExporterOptions::default();
    options.state = Some(dir.join("state.json"));
    let mut webhook = SinkConfig::from_spec(&hook);
    webhook.queue = 3;
    webhook.batch = 1;
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display())), webhook];
    options.checkpoint_interval = Duration::from_millis(200);
    options.watch = timing();
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));
    for i in 0..20 {
        server.insert(core_event(&format!("pod-{i}.1"), &uid(i), 1, "m")).unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let started = std::time::Instant::now();
    wait_for_lines(&dir, 20).await;
    assert!(started.elapsed() < Duration::from_secs(5), "the file sink kept up: {:?}", started.elapsed());
    let stopping = std::time::Instant::now();
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
    assert!(stopping.elapsed() < Duration::from_secs(15), "shutdown took {:?}", stopping.elapsed());
    held.abort();
}

#[tokio::test]
async fn a_watch_that_keeps_failing_shows_in_healthz_metrics_and_the_silence_alert() {
    let server = ApiServer::start().await;
    let dir = temp_dir("failing");
    server.deny("list", &gpu_events_testkit::ResourceType::EVENTS_V1);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut options = ExporterOptions::default();
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.watch = timing();
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    options.alerts = vec![gpu_events_export::AlertRule::silence("export-silence", Duration::from_secs(1), "file")];
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));
    let mut health = (0, String::new());
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let Ok(response) = reqwest::get(format!("http://127.0.0.1:{port}/healthz")).await else { continue };
        health = (response.status().as_u16(), response.text().await.unwrap());
        if health.0 == 503 {
            break;
        }
    }
    assert_eq!(health.0, 503, "{health:?}");
    let metrics = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    assert!(metrics.contains(r#"gpu_events_export_watch_errors_total{api="events.k8s.io/v1"}"#), "{metrics}");
    assert!(stats.watch_errors[0].load(Ordering::Relaxed) >= 2);
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
    let alerts = lines(&dir);
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    assert!(alerts[0]["message"].as_str().unwrap().contains("the watch is failing"), "{}", alerts[0]);
}

#[tokio::test]
async fn a_checkpoint_newer_than_the_server_is_detected_relisted_and_counted_as_a_gap() {
    // A state file restored from a backup taken later, or from another (busier) cluster: its
    // resourceVersion is ahead of this server's. A watch from it would be accepted and stay silent.
    let server = ApiServer::start().await;
    let dir = temp_dir("future");
    for i in 0..3 {
        server.insert(core_event(&format!("pod-{i}.1"), &uid(i), 2, "m")).unwrap();
    }
    let run = start(&server, &dir, vec![EventApi::CoreV1]);
    wait_for_lines(&dir, 3).await;
    run.finish().await;
    let state = dir.join("state.json");
    // Edited as text: the marks' 128-bit ids do not survive a round trip through a JSON Value.
    let text = std::fs::read_to_string(&state).unwrap();
    let saved: Value = serde_json::from_str(&text).unwrap();
    let rv = saved["resourceVersions"]["v1 *"].as_str().unwrap();
    let ahead = server.resource_version() + 1_000;
    let text = text.replace(&format!(r#""v1 *":"{rv}""#), &format!(r#""v1 *":"{ahead}""#));
    assert!(text.contains(&ahead.to_string()), "{text}");
    std::fs::write(&state, text).unwrap();

    // While down: one event repeats, one is new.
    server.insert(core_event("pod-0.1", &uid(0), 5, "m")).unwrap();
    server.insert(core_event("pod-9.1", &uid(9), 1, "m")).unwrap();
    let run = start(&server, &dir, vec![EventApi::CoreV1]);
    let got = wait_for_lines(&dir, 5).await;
    // And the watch after the re-list works.
    server.insert(core_event("pod-10.1", &uid(10), 1, "m")).unwrap();
    wait_for_lines(&dir, 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stats = run.finish().await;
    let all = lines(&dir);
    assert_eq!(all.len(), 6, "the marks keep the re-list from exporting again: {got:#?}");
    let totals = totals(&all);
    assert_eq!(totals[&uid(0)], (5, 5), "the repeat is a delta of 3 on top of 2");
    assert_eq!(totals[&uid(9)], (1, 1));
    assert_eq!(stats.checkpoints_ahead.load(Ordering::Relaxed), 1);
    assert_eq!(stats.gaps_suspected.load(Ordering::Relaxed), 1);
    let saved: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    let saved_rv: u64 = saved["resourceVersions"]["v1 *"].as_str().unwrap().parse().unwrap();
    assert!(saved_rv <= server.resource_version(), "the checkpoint now holds the server's position");
}

#[tokio::test]
async fn owner_resolution_is_counted_in_metrics() {
    let server = ApiServer::start().await;
    let dir = temp_dir("owner-metrics");
    let seed = |kind: &str, api_version: &str, name: &str, id: usize, owner: Option<(&str, &str, usize)>| {
        let mut meta = json!({"name": name, "namespace": "ml", "uid": uid(id)});
        if let Some((owner_kind, owner_name, owner_id)) = owner {
            meta["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": owner_kind, "name": owner_name,
                "uid": uid(owner_id), "controller": true}]);
        }
        server.insert(json!({"apiVersion": api_version, "kind": kind, "metadata": meta})).unwrap();
    };
    seed("Deployment", "apps/v1", "llama", 101, None);
    seed("ReplicaSet", "apps/v1", "llama-7d4", 102, Some(("Deployment", "llama", 101)));
    seed("Pod", "v1", "p3-llama", 103, Some(("ReplicaSet", "llama-7d4", 102)));
    seed("Pod", "v1", "p4-llama", 104, Some(("ReplicaSet", "llama-7d4", 102)));
    // Listed (and resolved) in name order: p1's GET fails (500), p2 is gone (404: its own owner),
    // p3 costs three GETs, p4 one (its ReplicaSet and Deployment from the cache), and p5 finds no
    // token left in a burst of 6.
    for (i, pod) in ["p1-broken", "p2-gone", "p3-llama", "p4-llama", "p5-late"].iter().enumerate() {
        server.insert(core_event(&format!("{pod}.1"), &uid(i), 1, "m")).unwrap();
    }
    server.inject(Fault::status(500).method("GET").path_prefix("/api/v1/namespaces/ml/pods/p1-broken"));

    let port = free_port();
    let mut options = ExporterOptions::default();
    options.apis = vec![EventApi::CoreV1];
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.watch = timing();
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    options.owners.enabled = true;
    options.owners.burst = 6;
    options.owners.qps = 0.001;
    let (stop, stopped) = watch::channel(false);
    let stats = Arc::new(ExporterStats::default());
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, stats.clone(), stopped));
    let records = wait_for_lines(&dir, 5).await;
    let owner_of = |pod: &str| records.iter().find(|r| r["regarding"]["name"] == pod).unwrap()["owner"].clone();
    assert_eq!(owner_of("p4-llama")["name"], "llama", "{records:#?}");
    assert!(owner_of("p5-late").is_null(), "rate limited: no owner");

    let body = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    for line in [
        r#"gpu_events_export_owner_lookups_total{result="resolved"} 3"#,
        r#"gpu_events_export_owner_lookups_total{result="rate_limited"} 1"#,
        r#"gpu_events_export_owner_lookups_total{result="failed"} 1"#,
        "gpu_events_export_owner_cache_hits_total 2",
        "gpu_events_export_owner_requests_total 6",
        r#"gpu_events_export_owner_request_errors_total{reason="not_found"} 1"#,
        r#"gpu_events_export_owner_request_errors_total{reason="forbidden"} 0"#,
        r#"gpu_events_export_owner_request_errors_total{reason="other"} 1"#,
    ] {
        assert!(body.contains(line), "{line} in:\n{body}");
    }
    assert!(!body.contains("p3-llama") && !body.contains("llama-7d4"), "no object names in metrics");
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn without_owner_resolution_there_are_no_owner_series() {
    let server = ApiServer::start().await;
    let dir = temp_dir("no-owner-metrics");
    let port = free_port();
    let mut options = ExporterOptions::default();
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.watch = timing();
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, Arc::default(), stopped));
    assert!(server.wait_for_watches(1, Duration::from_secs(5)).await);
    let body = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    assert!(!body.contains("owner_"), "{body}");
    assert!(body.contains("gpu_events_export_leader 1"), "{body}");
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn marks_expire_without_a_state_file() {
    // Regression: marks used to expire only when a checkpoint was written, so without --state
    // they grew until maxEvents.
    let server = ApiServer::start().await;
    let dir = temp_dir("no-state");
    for i in 0..3 {
        server.insert(core_event(&format!("pod-{i}.1"), &uid(i), 1, "m")).unwrap();
    }
    let port = free_port();
    let mut options = ExporterOptions::default();
    options.apis = vec![EventApi::CoreV1];
    options.sinks = vec![SinkConfig::from_spec(&format!("file:{}", dir.join("events.jsonl").display()))];
    options.watch = timing();
    options.checkpoint_interval = Duration::from_millis(100);
    options.mark_ttl = Duration::from_millis(1);
    options.metrics_addr = Some(format!("127.0.0.1:{port}").parse().unwrap());
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(exporter::run(server.client_without_retry(), options, Arc::default(), stopped));
    wait_for_lines(&dir, 3).await;
    // Once the marks have expired, a re-list (after a 410) exports the same events again: the
    // observable sign that they were dropped (with a real markTtl, the API server has deleted
    // those events by then).
    let mut exported = 3;
    for _ in 0..100 {
        server.compact();
        server.close_watches();
        tokio::time::sleep(Duration::from_millis(30)).await;
        exported = lines(&dir).len();
        if exported >= 6 {
            break;
        }
    }
    assert!(exported >= 6, "marks never expired: {exported} lines");
    let body = reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap();
    assert!(body.contains("gpu_events_export_dedupe_marks"), "{body}");
    stop.send(true).unwrap();
    task.await.unwrap().unwrap();
}
