//! `gpu-events explain pod/NAME` against the local API server double, over HTTP on 127.0.0.1.

use std::process::{Command, Output, Stdio};

use gpu_events_testkit::ApiServer;
use serde_json::{Value, json};

fn run(kubeconfig: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        .stdin(Stdio::null())
        .output()
        .expect("gpu-events runs")
}

fn lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A stuck GPU Pod, its events in both APIs, an unrelated Pod, and a crash-looping one.
async fn seeded() -> (ApiServer, tempdir::Dir) {
    let server = ApiServer::start().await;
    let pod = |name: &str, status: Value| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ml", "uid": format!("uid-{name}")},
               "spec": {"containers": [{"name": "main", "image": "cuda"}]}, "status": status})
    };
    server.insert(pod("train-0", json!({"phase": "Pending"}))).unwrap();
    server
        .insert(pod(
            "infer-0",
            json!({"phase": "Running", "containerStatuses": [{"name": "main", "image": "cuda", "imageID": "", "ready": false,
                   "restartCount": 7, "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                   "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}),
        ))
        .unwrap();
    server
        .insert(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "train-0.1", "namespace": "ml", "uid": "e-1"},
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "train-0", "uid": "uid-train-0"},
            "reason": "FailedScheduling", "type": "Warning", "source": {"component": "default-scheduler"},
            "message": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
            "count": 12, "firstTimestamp": "2026-11-30T05:00:00Z", "lastTimestamp": "2026-11-30T05:50:00Z"}))
        .unwrap();
    server
        .insert(json!({"apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "train-0.2", "namespace": "ml", "uid": "e-2"},
            "regarding": {"kind": "Pod", "namespace": "ml", "name": "train-0", "uid": "uid-train-0"},
            "reason": "GangWaitingForMembers", "type": "Normal", "action": "Waiting",
            "reportingController": "GangScheduler", "reportingInstance": "GangScheduler-0",
            "eventTime": "2026-11-30T05:40:00.000000Z", "note": "Waiting for gang members: 1/4 ready"}))
        .unwrap();
    server
        .insert(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "infer-0.1", "namespace": "ml", "uid": "e-3"},
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "infer-0", "uid": "uid-infer-0", "fieldPath": "spec.containers{main}"},
            "reason": "BackOff", "type": "Warning", "source": {"component": "kubelet", "host": "node-a"},
            "message": "Back-off restarting failed container main in pod infer-0_ml(uid-infer-0)",
            "count": 30, "firstTimestamp": "2026-11-30T05:00:00Z", "lastTimestamp": "2026-11-30T05:55:00Z"}))
        .unwrap();
    let dir = tempdir::Dir::new();
    server.write_kubeconfig(dir.path().join("config"), "ml").unwrap();
    (server, dir)
}

#[tokio::test(flavor = "multi_thread")]
async fn explain_an_object_live_reads_both_apis_once_each() {
    let (server, dir) = seeded().await;
    let kubeconfig = dir.path().join("config");
    let output = tokio::task::spawn_blocking(move || run(&kubeconfig, &["explain", "pod/train-0", "-o", "jsonl"]))
        .await
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records = lines(&output);
    let mut reasons: Vec<&str> = records.iter().map(|r| r["reason"].as_str().unwrap()).collect();
    reasons.sort_unstable();
    assert_eq!(reasons, ["FailedScheduling", "GangWaitingForMembers"], "each Event once, not once per API");
    // Field selectors went to the server.
    let requests = server.requests();
    let selector = |r: &gpu_events_testkit::RecordedRequest| {
        r.query.iter().find(|(k, _)| k == "fieldSelector").map(|(_, v)| v.clone()).unwrap_or_default()
    };
    assert!(requests.iter().any(|r| r.path == "/apis/events.k8s.io/v1/namespaces/ml/events"
        && selector(r) == "regarding.name=train-0"));
    assert!(
        requests
            .iter()
            .any(|r| r.path == "/api/v1/namespaces/ml/events" && selector(r) == "involvedObject.name=train-0")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn diagnose_live_uses_the_pod_status() {
    let (_server, dir) = seeded().await;
    let kubeconfig = dir.path().join("config");
    let k = kubeconfig.clone();
    let output = tokio::task::spawn_blocking(move || run(&k, &["explain", "pod/train-0", "--diagnose", "-o", "jsonl"]))
        .await
        .unwrap();
    let [diagnosis]: [Value; 1] = lines(&output).try_into().unwrap();
    assert_eq!(diagnosis["cause"], "insufficient-gpu");
    assert_eq!(diagnosis["phase"], "Pending");

    let output =
        tokio::task::spawn_blocking(move || run(&kubeconfig, &["explain", "pod/infer-0", "--diagnose", "-o", "jsonl"]))
            .await
            .unwrap();
    let [diagnosis]: [Value; 1] = lines(&output).try_into().unwrap();
    assert_eq!(diagnosis["phase"], "OOMKilled", "the Pod status says the last exit was an OOM kill");
    assert_eq!(diagnosis["cause"], "container-oom", "the restarts come from the memory limit");
    let steps: Vec<&str> = diagnosis["nextSteps"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(steps[0], "kubectl logs infer-0 -n ml -c main --previous", "{steps:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_namespace_diagnoses_every_object_with_warnings() {
    let (_server, dir) = seeded().await;
    let kubeconfig = dir.path().join("config");
    let output =
        tokio::task::spawn_blocking(move || run(&kubeconfig, &["explain", "-n", "ml", "--diagnose", "-o", "jsonl"]))
            .await
            .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let names: Vec<String> = lines(&output).iter().map(|d| d["object"]["name"].as_str().unwrap().to_owned()).collect();
    assert_eq!(names, ["infer-0", "train-0"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn all_namespaces_reads_every_namespace_and_n_only_its_own() {
    let (server, dir) = seeded().await;
    server
        .insert(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "etl-0.1", "namespace": "batch", "uid": "e-9"},
            "involvedObject": {"kind": "Pod", "namespace": "batch", "name": "etl-0", "uid": "uid-etl-0"},
            "reason": "BackOff", "type": "Warning", "source": {"component": "kubelet", "host": "node-b"},
            "message": "Back-off restarting failed container main in pod etl-0_batch(uid-etl-0)",
            "count": 3, "firstTimestamp": "2026-11-30T05:00:00Z", "lastTimestamp": "2026-11-30T05:10:00Z"}))
        .unwrap();
    let kubeconfig = dir.path().join("config");
    let objects = |args: &'static [&'static str]| {
        let kubeconfig = kubeconfig.clone();
        move || {
            let output = run(&kubeconfig, args);
            assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
            let mut names: Vec<String> = lines(&output)
                .iter()
                .map(|d| {
                    format!("{}/{}", d["object"]["namespace"].as_str().unwrap(), d["object"]["name"].as_str().unwrap())
                })
                .collect();
            names.sort();
            names
        }
    };
    let all = tokio::task::spawn_blocking(objects(&["explain", "-A", "--diagnose", "-o", "jsonl"])).await.unwrap();
    assert_eq!(all, ["batch/etl-0", "ml/infer-0", "ml/train-0"]);
    let ml = tokio::task::spawn_blocking(objects(&["explain", "-n", "ml", "--diagnose", "-o", "jsonl"])).await.unwrap();
    assert_eq!(ml, ["ml/infer-0", "ml/train-0"]);
    let batch = tokio::task::spawn_blocking(objects(&["explain", "--namespace", "batch", "--diagnose", "-o", "jsonl"]))
        .await
        .unwrap();
    assert_eq!(batch, ["batch/etl-0"]);
}

/// `--html` from the cluster: the Pod's two events on its timeline, in the order they came.
#[tokio::test(flavor = "multi_thread")]
async fn a_live_object_gives_a_page() {
    let (_server, dir) = seeded().await;
    let kubeconfig = dir.path().join("config");
    let output = tokio::task::spawn_blocking(move || run(&kubeconfig, &["explain", "pod/train-0", "--html", "-"]))
        .await
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let page = String::from_utf8(output.stdout).unwrap();
    assert!(page.contains("pod/train-0") && page.contains("the cluster (pod/train-0)"), "{page}");
    let first = page
        .find("<g class=\"timeline-row\"><title>Warning FailedScheduling: 12 occurrence(s)")
        .expect("FailedScheduling row");
    let second = page.find("<g class=\"timeline-row\"><title>Normal GangWaitingForMembers").expect("gang row");
    assert!(first < second, "FailedScheduling began first (05:00, the gang wait at 05:40)");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_cluster_is_a_clear_error() {
    let dir = tempdir::Dir::new();
    let server = ApiServer::start().await;
    server.write_kubeconfig(dir.path().join("config"), "ml").unwrap();
    server.shutdown().await;
    let kubeconfig = dir.path().join("config");
    let output = tokio::task::spawn_blocking(move || run(&kubeconfig, &["explain", "pod/x"])).await.unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("reading the cluster"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn kubeconfig_and_context_flags_choose_the_cluster_as_kubectl_does() {
    let (server, dir) = seeded().await;
    // The current context points at nothing; `--context live` at the seeded server.
    let config = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: dead\n  cluster:\n    server: http://127.0.0.1:9\n- name: live\n  cluster:\n    server: {url}\n\
         contexts:\n- name: dead\n  context:\n    cluster: dead\n    user: u\n- name: live\n  context:\n    cluster: live\n    user: u\n    namespace: ml\n\
         current-context: dead\nusers:\n- name: u\n  user: {{}}\n",
        url = server.url()
    );
    let path = dir.path().join("two-contexts");
    std::fs::write(&path, config).unwrap();
    let flag = path.to_str().unwrap().to_owned();
    let output = tokio::task::spawn_blocking(move || {
        // KUBECONFIG names a file that does not exist: the flag wins over it, as in kubectl.
        run(
            std::path::Path::new("/nonexistent/kubeconfig"),
            &[
                "explain",
                "pod/train-0",
                "-o",
                "jsonl",
                "--kubeconfig",
                &flag,
                "--context",
                "live",
                "--request-timeout",
                "10s",
            ],
        )
    })
    .await
    .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(lines(&output).len(), 2, "the two events of train-0, read in the context's namespace");

    let missing = path.to_str().unwrap().to_owned();
    let output = tokio::task::spawn_blocking(move || {
        run(
            std::path::Path::new("/nonexistent/kubeconfig"),
            &["explain", "pod/x", "--kubeconfig", &missing, "--context", "nope"],
        )
    })
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nope") && stderr.contains("two-contexts"), "names the context and the file: {stderr}");
}

/// A temporary directory removed on drop (std only).
mod tempdir {
    pub struct Dir(std::path::PathBuf);

    impl Dir {
        pub fn new() -> Dir {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "gpu-events-live-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }

        pub fn path(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
