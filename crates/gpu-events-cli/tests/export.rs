//! `gpu-events export` as a process against the testkit API server on 127.0.0.1: disconnects, a
//! 410, SIGTERM and a restart from the checkpoint; no event lost, none duplicated, metrics right.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use gpu_events_testkit::{ApiServer, ServerConfig};
use serde_json::{Value, json};

fn event(i: usize, count: u32) -> Value {
    let now = chrono::Utc::now();
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("trainer-{i}.1"), "namespace": "ml", "uid": format!("00000000-0000-4000-8000-{i:012}")},
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": "ml", "name": format!("trainer-{i}")},
        "reason": "FailedScheduling", "type": "Warning", "count": count,
        "message": "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.",
        "source": {"component": "default-scheduler"},
        "firstTimestamp": (now - chrono::Duration::minutes(20)).format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        "lastTimestamp": now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    })
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The exporter process; killed if a failing assertion leaves it running.
struct Exporter(Option<Child>);

impl Drop for Exporter {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn start(dir: &Path, port: u16) -> Exporter {
    let child = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["export", "--cluster", "gpu-lab", "--checkpoint-interval", "200ms"])
        .arg("--sink")
        .arg(format!("file:{}", dir.join("events.jsonl").display()))
        .arg("--state")
        .arg(dir.join("state.json"))
        .args(["--metrics-addr", &format!("127.0.0.1:{port}")])
        .args([
            "--alert",
            "{name: starved, match: {causes: [insufficient-gpu]}, groupBy: [namespace], for: 10m, sink: file}",
        ])
        .env("KUBECONFIG", dir.join("kubeconfig"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Exporter(Some(child))
}

fn stop(mut exporter: Exporter) {
    let child = exporter.0.take().unwrap();
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn wait_for(dir: &Path, records: usize) -> Vec<Value> {
    for _ in 0..1000 {
        let got: Vec<Value> = lines(dir).into_iter().filter(|l| l.get("eventUid").is_some()).collect();
        if got.len() >= records {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("expected {records} records, have {:#?}", lines(dir));
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_loses_nothing_and_duplicates_nothing_across_faults_and_a_restart() {
    let server = ApiServer::start_with(ServerConfig::default().history_limit(40)).await;
    let dir = temp_dir();
    server.write_kubeconfig(dir.join("kubeconfig"), "default").unwrap();
    // trainer-0 has been failing for 20 minutes (two occurrences so far): the alert's pattern.
    for i in 0..10 {
        server.insert(event(i, if i == 0 { 2 } else { 1 })).unwrap();
    }
    let port = free_port();
    let child = start(&dir, port);
    wait_for(&dir, 10).await;
    assert!(server.wait_for_watches(1, Duration::from_secs(10)).await);

    server.drop_watches();
    server.insert(event(0, 3)).unwrap();
    server.insert(event(10, 1)).unwrap();
    wait_for(&dir, 12).await;
    server.drop_watches();
    server.insert(event(1, 2)).unwrap();
    wait_for(&dir, 13).await;

    // 11 occurrences listed, then +1 (trainer-0), +1 (trainer-10), +1 (trainer-1).
    let scrape = |port: u16| async move {
        reqwest::get(format!("http://127.0.0.1:{port}/metrics")).await.unwrap().text().await.unwrap()
    };
    let exported = r#"gpu_events_export_events_exported_total{cluster="gpu-lab",reason="FailedScheduling",group="scheduling",type="Warning",cause="insufficient-gpu"} 14"#;
    let metrics = scrape(port).await;
    assert!(metrics.contains(exported), "{metrics}");
    assert!(!metrics.contains(r#"watch_restarts_total{cluster="gpu-lab",api="events.k8s.io/v1"} 0"#), "{metrics}");
    stop(child);

    // Down: one new event and one repeat, and the history the checkpoint points into is gone.
    // Up again: a 410, a re-list, and exactly those two records.
    server.insert(event(11, 1)).unwrap();
    server.insert(event(2, 4)).unwrap();
    server.compact();
    let port = free_port();
    let child = start(&dir, port);
    wait_for(&dir, 15).await;
    let gap = r#"gpu_events_export_gaps_suspected_total{cluster="gpu-lab",api="events.k8s.io/v1"} 1"#;
    let mut metrics = String::new();
    for _ in 0..100 {
        metrics = scrape(port).await;
        if metrics.contains(gap) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(metrics.contains(gap), "{metrics}");
    assert!(metrics.contains(r#"gpu_events_export_duplicates_suppressed_total{cluster="gpu-lab"} 10"#), "{metrics}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop(child);
    let records: Vec<Value> = lines(&dir).into_iter().filter(|l| l.get("eventUid").is_some()).collect();
    assert_eq!(records.len(), 15, "{records:#?}");
    let mut by_uid: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for record in &records {
        let entry = by_uid.entry(record["eventUid"].as_str().unwrap().to_owned()).or_default();
        entry.0 += record["delta"]["occurrences"].as_u64().unwrap();
        entry.1 = record["delta"]["total"].as_u64().unwrap();
    }
    assert_eq!(by_uid.len(), 12);
    assert!(by_uid.values().all(|(sum, total)| sum == total), "{by_uid:?}");
    // The alert (20 minutes of insufficient-gpu in `ml`) went to the same file, once.
    let alerts: Vec<Value> = lines(&dir).into_iter().filter(|l| l.get("rule").is_some()).collect();
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    assert_eq!(alerts[0]["state"], "firing");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GETs `path` from 127.0.0.1:`port` once it answers 200 (the process may still be starting).
/// Found by a new-user review: kube's default retry policy retried the 504 a checkpoint ahead of
/// the server gets for about five minutes before the exporter saw it; nothing was exported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_file_from_another_server_is_caught_at_start() {
    // Its own directory: `temp_dir` empties the one the other tests share.
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-export-ahead-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let first = ApiServer::start().await;
    first.write_kubeconfig(dir.join("kubeconfig"), "default").unwrap();
    for i in 0..30 {
        first.insert(event(i, 1)).unwrap();
    }
    let exporter = start(&dir, free_port());
    wait_for(&dir, 30).await;
    tokio::time::sleep(Duration::from_millis(500)).await; // a checkpoint after the last event
    stop(exporter);
    // A new cluster (its resourceVersions start again), the old state file.
    let second = ApiServer::start().await;
    second.write_kubeconfig(dir.join("kubeconfig"), "default").unwrap();
    for i in 100..103 {
        second.insert(event(i, 1)).unwrap();
    }
    let port = free_port();
    let exporter = start(&dir, port);
    // Within wait_for's 20 s, not after minutes of client-side retries.
    let records = wait_for(&dir, 33).await;
    assert!(records[30..].iter().all(|r| r["regarding"]["name"].as_str().unwrap() >= "trainer-100"), "{records:#?}");
    let metrics = get_when_up(port, "/metrics").await;
    let ahead = r#"gpu_events_export_checkpoints_ahead_total{cluster="gpu-lab",api="events.k8s.io/v1"} 1"#;
    assert!(metrics.contains(ahead), "{metrics}");
    stop(exporter);
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn get_when_up(port: u16, path: &str) -> String {
    for _ in 0..250 {
        if let Ok(response) = reqwest::get(format!("http://127.0.0.1:{port}{path}")).await
            && response.status() == 200
        {
            return response.text().await.unwrap();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("127.0.0.1:{port}{path} never answered 200");
}

fn start_replica(dir: &Path, name: &str, port: u16) -> Exporter {
    let child = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["export", "--leader-elect", "--leader-elect-namespace", "gpu-events", "--checkpoint-interval", "200ms"])
        .args(["--metrics-addr", &format!("127.0.0.1:{port}")])
        .arg("--sink")
        .arg(format!("file:{}", dir.join("events.jsonl").display()))
        .arg("--state")
        .arg(dir.join("state.json"))
        .env("KUBECONFIG", dir.join("kubeconfig"))
        .env("POD_NAME", name)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Exporter(Some(child))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_sharing_a_state_file_export_each_event_once_across_a_handover() {
    let server = ApiServer::start().await;
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-replicas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    server.write_kubeconfig(dir.join("kubeconfig"), "default").unwrap();
    for i in 0..5 {
        server.insert(event(i, 1)).unwrap();
    }
    let (port_a, port_b) = (free_port(), free_port());
    let a = start_replica(&dir, "replica-a", port_a);
    wait_for(&dir, 5).await;
    let b = start_replica(&dir, "replica-b", port_b);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(lines(&dir).len(), 5, "the standby exports nothing");
    // The standby answers /healthz and serves its metrics (a Deployment's probes and scrapes).
    let standby = get_when_up(port_b, "/metrics").await;
    assert!(standby.contains("gpu_events_export_leader 0"), "{standby}");
    assert!(get_when_up(port_b, "/healthz").await.starts_with("ok"));
    assert!(get_when_up(port_a, "/metrics").await.contains("gpu_events_export_leader 1"));
    let lease = server.objects(&gpu_events_testkit::ResourceType::LEASES);
    assert!(lease[0]["spec"]["holderIdentity"].as_str().unwrap().starts_with("replica-a"), "{lease:?}");

    stop(a);
    server.insert(event(5, 1)).unwrap();
    server.insert(event(0, 2)).unwrap();
    let records = wait_for(&dir, 7).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let lease = server.objects(&gpu_events_testkit::ResourceType::LEASES);
    assert!(lease[0]["spec"]["holderIdentity"].as_str().unwrap().starts_with("replica-b"), "{lease:?}");
    let leading = get_when_up(port_b, "/metrics").await;
    assert!(leading.contains("gpu_events_export_leader 1"), "{leading}");
    assert!(leading.contains("gpu_events_export_events_exported_total"), "the exporter counts into the same metrics");
    stop(b);
    assert_eq!(lines(&dir).len(), 7, "{records:#?}");
    let delta = records.iter().find(|r| r["delta"]["total"] == 2).unwrap();
    assert_eq!(delta["delta"]["occurrences"], 1, "the new leader resumed from the shared checkpoint");
    std::fs::remove_dir_all(&dir).unwrap();
}
