//! Real kubectl output from a real kube-apiserver (the testkit's Go harness) piped into `gpu-events explain`: the
//! server-side tables of `kubectl get events` (default, `-A`, `-o wide`), `kubectl events`, `kubectl describe pod`
//! and `-o json|yaml`, each read with every event's reason and type; the watches (`kubectl get events -w`, `-A -w`,
//! `-w -o wide|json|yaml`, `-w --output-watch-events`, `kubectl events -w`) while the test repeats an event and
//! adds another, each watched object read in order; and live `explain pod/NAME` (`--diagnose`) on Pod statuses
//! stored through kubectl, the same body on the API double and on the real server.
//!
//! `#[ignore]`d: the first run builds kube-apiserver with Go (minutes, then cached). Run with
//! `cargo test -p gpu-events-cli --test real_kubectl -- --ignored` (`.ci/run` does).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use gpu_events_testkit::{ApiServer, RealApiServer};
use serde_json::Value;
use tokio::sync::OnceCell;

mod common;
use common::{gang_event, kubectl_ok};

const NAMESPACE: &str = "kc";

/// `kubectl --kubeconfig K ARGS`, asserting it succeeded.
fn kubectl(server: &RealApiServer, args: &[&str], stdin: Option<&str>) -> String {
    kubectl_at(server.kubeconfig(), args, stdin)
}

/// `kubectl --kubeconfig KUBECONFIG ARGS` (any server), asserting it succeeded.
fn kubectl_at(kubeconfig: &Path, args: &[&str], stdin: Option<&str>) -> String {
    kubectl_ok(kubeconfig, args, stdin.unwrap_or(""))
}

/// `gpu-events explain - -o jsonl` on `input`: one record per line.
fn explain(input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["explain", "-", "-o", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output: Output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "explain: {}\ninput:\n{input}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// (reason, type) of each record, sorted.
fn reasons(records: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = records
        .iter()
        .map(|r| (r["reason"].as_str().unwrap().to_string(), r["type"].as_str().unwrap_or("").to_string()))
        .collect();
    out.sort();
    out
}

fn pair(reason: &str, kind: &str) -> (String, String) {
    (reason.to_string(), kind.to_string())
}

/// Every event published into the namespace.
fn all_three() -> Vec<(String, String)> {
    vec![pair("BackOff", "Warning"), pair("FailedScheduling", "Warning"), pair("GangWaitingForMembers", "Normal")]
}

/// The shared server with, in namespace `kc`, Pods `train-0` (pending: a core/v1 FailedScheduling and an
/// events.k8s.io/v1 GangWaitingForMembers) and `infer-0` (a core/v1 BackOff), all created with kubectl.
async fn seeded() -> &'static RealApiServer {
    static SEEDED: OnceCell<()> = OnceCell::const_new();
    let server = RealApiServer::shared().await;
    SEEDED.get_or_init(|| async { tokio::task::spawn_blocking(move || seed(server)).await.unwrap() }).await;
    server
}

fn seed(server: &RealApiServer) {
    let pods = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata: {{name: {NAMESPACE}}}\n---\n{}---\n{}",
        pod_yaml("train-0"),
        pod_yaml("infer-0")
    );
    kubectl(server, &["apply", "-f", "-"], Some(&pods));
    let uid =
        |name: &str| kubectl(server, &["-n", NAMESPACE, "get", "pod", name, "-o", "jsonpath={.metadata.uid}"], None);
    let (train, infer) = (uid("train-0"), uid("infer-0"));
    let events = train_and_infer_events(NAMESPACE, Some((&train, &infer)), 5, 1);
    kubectl(server, &["create", "-f", "-"], Some(&events));
}

/// The seeded events, as YAML for `kubectl create`: train-0's FailedScheduling (core/v1, count 12, first seen 50
/// minutes ago, last `train_last` minutes ago) and GangWaitingForMembers (events.k8s.io/v1, 3 minutes ago), and
/// infer-0's BackOff (count 30, last `infer_last` minutes ago); with the Pods' uids when given.
fn train_and_infer_events(ns: &str, uids: Option<(&str, &str)>, train_last: i64, infer_last: i64) -> String {
    let now = chrono::Utc::now();
    let ago = |minutes: i64| (now - chrono::Duration::minutes(minutes)).format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let gang = gang_event(ns, uids.map(|(train, _)| train), now - chrono::Duration::minutes(3), None);
    let (train_uid, infer_uid, infer_ref) = match uids {
        Some((train, infer)) => (format!(", uid: {train}"), format!(", uid: {infer}"), format!("({infer})")),
        None => (String::new(), String::new(), String::new()),
    };
    format!(
        r#"apiVersion: v1
kind: Event
metadata: {{name: train-0.1, namespace: {ns}}}
involvedObject: {{apiVersion: v1, kind: Pod, namespace: {ns}, name: train-0{train_uid}}}
reason: FailedScheduling
type: Warning
message: "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod."
source: {{component: default-scheduler}}
count: 12
firstTimestamp: "{first}"
lastTimestamp: "{train_last}"
---
{gang}---
apiVersion: v1
kind: Event
metadata: {{name: infer-0.1, namespace: {ns}}}
involvedObject: {{apiVersion: v1, kind: Pod, namespace: {ns}, name: infer-0{infer_uid}, fieldPath: "spec.containers{{main}}"}}
reason: BackOff
type: Warning
message: "Back-off restarting failed container main in pod infer-0_{ns}{infer_ref}"
source: {{component: kubelet, host: node-a}}
count: 30
firstTimestamp: "{first}"
lastTimestamp: "{infer_last}"
"#,
        first = ago(50),
        train_last = ago(train_last),
        infer_last = ago(infer_last),
    )
}

fn pod_yaml(name: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: {NAMESPACE}}}\nspec:\n  containers:\n  - {{name: main, image: nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04, resources: {{limits: {{nvidia.com/gpu: 1}}}}}}\n"
    )
}

/// Runs kubectl with `args` (blocking, off the runtime) and explains its output.
async fn explain_kubectl(args: &[&str]) -> (String, Vec<Value>) {
    let server = seeded().await;
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = kubectl(server, &args, None);
        let records = explain(&out);
        (out, records)
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_default_table() {
    let (out, records) = explain_kubectl(&["get", "events", "-n", NAMESPACE]).await;
    assert!(out.starts_with("LAST SEEN"), "a server-side table:\n{out}");
    assert_eq!(reasons(&records), all_three(), "{out}");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_all_namespaces() {
    let (out, records) = explain_kubectl(&["get", "events", "-A"]).await;
    assert!(out.starts_with("NAMESPACE"), "{out}");
    let ours: Vec<Value> = records.into_iter().filter(|r| r["regarding"]["namespace"] == NAMESPACE).collect();
    assert_eq!(reasons(&ours), all_three(), "{out}");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_wide() {
    let (out, records) = explain_kubectl(&["get", "events", "-n", NAMESPACE, "-o", "wide"]).await;
    assert!(out.lines().next().unwrap().contains("SUBOBJECT"), "the wide columns:\n{out}");
    assert_eq!(reasons(&records), all_three(), "{out}");
    let backoff = records.iter().find(|r| r["reason"] == "BackOff").unwrap();
    assert_eq!(backoff["count"], 30, "{backoff}");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn kubectl_events() {
    let (out, records) = explain_kubectl(&["events", "-n", NAMESPACE]).await;
    assert_eq!(reasons(&records), all_three(), "{out}");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_json_and_yaml() {
    for args in
        [&["get", "events", "-n", NAMESPACE, "-o", "json"][..], &["get", "events", "-n", NAMESPACE, "-o", "yaml"]]
    {
        let (out, records) = explain_kubectl(args).await;
        assert_eq!(reasons(&records), all_three(), "{out}");
        let gang = records.iter().find(|r| r["reason"] == "GangWaitingForMembers").unwrap();
        assert_eq!(gang["note"], "Waiting for gang members: 1/4 ready");
        assert_eq!(gang["reportingController"], "GangScheduler");
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn describe_pod() {
    let (out, records) = explain_kubectl(&["describe", "pod", "-n", NAMESPACE, "train-0"]).await;
    assert!(out.contains("Events:"), "{out}");
    // The describe's `Status: Pending` is the Pod seen waiting: a Normal `fromStatus` record of
    // its phase beside its two events, about the same Pod.
    let from_status = |r: &&Value| r["flags"].as_array().is_some_and(|f| f.iter().any(|f| f == "fromStatus"));
    let (status, events): (Vec<Value>, Vec<Value>) = records.iter().cloned().partition(|r| from_status(&r));
    assert_eq!(
        reasons(&events),
        [pair("FailedScheduling", "Warning"), pair("GangWaitingForMembers", "Normal")],
        "{out}"
    );
    assert_eq!(reasons(&status), [pair("Pending", "Normal")], "{out}");
    assert_eq!(status[0]["regarding"]["name"], "train-0");
    assert_eq!(status[0]["note"], "pod status: Pending");
    let (out, records) = explain_kubectl(&["describe", "pod", "-n", NAMESPACE, "infer-0"]).await;
    let events: Vec<Value> = records.iter().filter(|r| !from_status(r)).cloned().collect();
    assert_eq!(reasons(&events), [pair("BackOff", "Warning")], "{out}");
}

/// Namespace `ns` with Pod `train-0` and one core/v1 FailedScheduling event of it (count 12), for a watch
/// test of its own (the watch sees only what the test does there).
fn seed_watched(server: &RealApiServer, ns: &str) {
    let pod = pod_yaml("train-0").replace(&format!("namespace: {NAMESPACE}"), &format!("namespace: {ns}"));
    kubectl(
        server,
        &["apply", "-f", "-"],
        Some(&format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n---\n{pod}")),
    );
    let last = (chrono::Utc::now() - chrono::Duration::minutes(5)).format("%Y-%m-%dT%H:%M:%SZ");
    let first = (chrono::Utc::now() - chrono::Duration::minutes(50)).format("%Y-%m-%dT%H:%M:%SZ");
    let event = format!(
        r#"apiVersion: v1
kind: Event
metadata: {{name: train-0.1, namespace: {ns}}}
involvedObject: {{apiVersion: v1, kind: Pod, namespace: {ns}, name: train-0}}
reason: FailedScheduling
type: Warning
message: "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
source: {{component: default-scheduler}}
count: 12
firstTimestamp: "{first}"
lastTimestamp: "{last}"
"#
    );
    kubectl(server, &["create", "-f", "-"], Some(&event));
}

/// What a watch of `ns` sees while the test works: the FailedScheduling event repeats (count 13, through
/// `kubectl patch`), then an events.k8s.io/v1 GangWaitingForMembers event is created, already a series of 4.
fn change_watched(server: &RealApiServer, ns: &str) {
    let now = chrono::Utc::now();
    let patch = format!(r#"{{"count":13,"lastTimestamp":"{}"}}"#, now.format("%Y-%m-%dT%H:%M:%SZ"));
    kubectl(server, &["-n", ns, "patch", "event", "train-0.1", "--type=merge", "-p", &patch], None);
    let gang = gang_event(ns, None, now - chrono::Duration::minutes(2), Some((4, now)));
    kubectl(server, &["create", "-f", "-"], Some(&gang));
}

/// `kubectl ARGS` left watching: once its output satisfies `ready` (the initial list is out), runs `during`,
/// waits until the output satisfies `done`, lets kubectl write the rest of that line or object, then kills
/// it and returns all it printed. Panics with the output so far after 30 s.
fn watch(
    server: &RealApiServer,
    args: &[&str],
    ready: impl Fn(&str) -> bool,
    during: impl FnOnce(),
    done: impl Fn(&str) -> bool,
) -> String {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let mut child = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(server.kubeconfig())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl is installed");
    let out = Arc::new(Mutex::new(String::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = Arc::clone(&out);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = stdout.read(&mut buf) {
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let wait_for = |what: &str, until: &dyn Fn(&str) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !until(&out.lock().unwrap()) {
            assert!(Instant::now() < deadline, "kubectl {args:?}: no {what} in 30 s:\n{}", out.lock().unwrap());
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("initial list", &ready);
    during();
    wait_for("changes", &done);
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert!(!status.success() && stderr.is_empty(), "kubectl {args:?} ran until killed, silently: {stderr}");
    Arc::try_unwrap(out).unwrap().into_inner().unwrap()
}

/// `kubectl -n NS ARGS` watching namespace `ns` (seeded by [`seed_watched`]; `-A` in `args` watches them all)
/// across [`change_watched`], and its output explained.
async fn explain_watch(ns: &'static str, args: &'static [&'static str]) -> (String, Vec<Value>) {
    let server = RealApiServer::shared().await;
    tokio::task::spawn_blocking(move || {
        seed_watched(server, ns);
        let args: Vec<&str> = ["-n", ns].iter().chain(args).copied().collect();
        let times = |out: &str, what: &str| out.matches(what).count();
        let out = watch(
            server,
            &args,
            |out| times(out, "FailedScheduling") >= 1,
            || change_watched(server, ns),
            |out| times(out, "FailedScheduling") >= 2 && times(out, "GangWaitingForMembers") >= 1,
        );
        let records = explain(&out);
        (out, records)
    })
    .await
    .unwrap()
}

/// (reason, kind, name, namespace, count) of a record.
type Row = (String, String, String, Option<String>, u64);

/// The [`Row`] of each record, in order.
fn rows(records: &[Value]) -> Vec<Row> {
    records
        .iter()
        .map(|r| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                text(&r["reason"]),
                text(&r["regarding"]["kind"]),
                text(&r["regarding"]["name"]),
                r["regarding"]["namespace"].as_str().map(str::to_string),
                r["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The rows of [`change_watched`]'s watch, in order: the seeded FailedScheduling (count 12), its repeat (13),
/// the new GangWaitingForMembers (its series' 4); `namespace` as the output says it.
fn watched_rows(namespace: Option<&str>) -> Vec<Row> {
    let row = |reason: &str, count| {
        (reason.to_string(), "Pod".to_string(), "train-0".to_string(), namespace.map(str::to_string), count)
    };
    vec![row("FailedScheduling", 12), row("FailedScheduling", 13), row("GangWaitingForMembers", 4)]
}

/// The rows without their counts, for tables without a COUNT column.
fn uncounted(rows: Vec<Row>) -> Vec<(String, String, String, Option<String>)> {
    rows.into_iter().map(|(reason, kind, name, namespace, _)| (reason, kind, name, namespace)).collect()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_watch_json_and_yaml() {
    for (ns, format) in [("kc-w-json", "json"), ("kc-w-yaml", "yaml")] {
        let args: &'static [&str] = if format == "json" {
            &["get", "events", "-w", "-o", "json"]
        } else {
            &["get", "events", "-w", "-o", "yaml"]
        };
        let (out, records) = explain_watch(ns, args).await;
        assert_eq!(rows(&records), watched_rows(Some(ns)), "{out}");
        let gang = &records[2];
        assert_eq!(gang["note"], "Waiting for gang members: 1/4 ready", "{out}");
        assert_eq!(gang["reportingController"], "GangScheduler", "{out}");
        assert!(
            records[1]["lastTimestamp"].as_str() > records[0]["lastTimestamp"].as_str(),
            "the repeat is newer: {out}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_watch_output_watch_events() {
    let (out, records) =
        explain_watch("kc-w-owe", &["get", "events", "-w", "--output-watch-events", "-o", "json"]).await;
    let types: Vec<String> =
        out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["type"].as_str().unwrap().to_owned()).collect();
    assert_eq!(types, ["ADDED", "MODIFIED", "ADDED"], "one watch event a line:\n{out}");
    assert_eq!(rows(&records), watched_rows(Some("kc-w-owe")), "{out}");

    // The table form, with its EVENT column.
    let (out, records) = explain_watch("kc-w-owe-table", &["get", "events", "-w", "--output-watch-events"]).await;
    assert!(out.starts_with("EVENT"), "{out}");
    assert_eq!(uncounted(rows(&records)), uncounted(watched_rows(None)), "{out}");
    assert!(
        records[1]["lastTimestamp"].as_str() > records[0]["lastTimestamp"].as_str(),
        "LAST SEEN of the repeat: {out}"
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn get_events_watch_table() {
    // The server-side table, its rows printed as the watch delivers them (no COUNT column).
    let (out, records) = explain_watch("kc-w-table", &["get", "events", "-w"]).await;
    assert!(out.starts_with("LAST SEEN"), "{out}");
    assert_eq!(uncounted(rows(&records)), uncounted(watched_rows(None)), "{out}");
    assert!(
        records[1]["lastTimestamp"].as_str() > records[0]["lastTimestamp"].as_str(),
        "LAST SEEN of the repeat: {out}"
    );

    // Every namespace: the NAMESPACE column.
    let (out, records) = explain_watch("kc-w-table-all", &["get", "events", "-A", "-w"]).await;
    assert!(out.starts_with("NAMESPACE"), "{out}");
    let ours: Vec<Value> = records.into_iter().filter(|r| r["regarding"]["namespace"] == "kc-w-table-all").collect();
    assert_eq!(uncounted(rows(&ours)), uncounted(watched_rows(Some("kc-w-table-all"))), "{out}");

    // `-o wide`: its COUNT column.
    let (out, records) = explain_watch("kc-w-wide", &["get", "events", "-w", "-o", "wide"]).await;
    assert!(out.lines().next().unwrap().contains("COUNT"), "{out}");
    assert_eq!(uncounted(rows(&records)), uncounted(watched_rows(None)), "{out}");
    // Every row with its count, also the GangWaitingForMembers one that kubectl lined up on its own, wider than
    // the header (read by its cells since the fix; before, its note began "GangScheduler-0   Waiting" and its
    // count was 1 for 4).
    assert_eq!(rows(&records), watched_rows(None), "{out}");
    for record in &records[..2] {
        assert_eq!(record["note"], "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.", "{out}");
        assert_eq!(record["reportingController"], "default-scheduler", "{out}");
    }
    assert_eq!(records[2]["note"], "Waiting for gang members: 1/4 ready", "{out}");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn kubectl_events_watch() {
    let (out, records) = explain_watch("kc-w-events", &["events", "-w"]).await;
    assert!(out.starts_with("LAST SEEN"), "{out}");
    assert_eq!(rows(&records), watched_rows(None), "{out}");

    let (out, records) = explain_watch("kc-w-events-all", &["events", "-A", "-w"]).await;
    assert!(out.starts_with("NAMESPACE"), "{out}");
    let ours: Vec<Value> = records.into_iter().filter(|r| r["regarding"]["namespace"] == "kc-w-events-all").collect();
    assert_eq!(rows(&ours), watched_rows(Some("kc-w-events-all")), "{out}");
}

/// `gpu-events ARGS --kubeconfig K -o jsonl` against the server (live mode), asserting it succeeded: one
/// record or diagnosis per line.
fn live(kubeconfig: &Path, args: &[&str]) -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(args)
        .args(["-o", "jsonl", "--request-timeout", "20s", "--kubeconfig"])
        .arg(kubeconfig)
        .env("KUBECONFIG", "/nonexistent/kubeconfig")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "gpu-events {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Namespace `kc-live` as a stuck cluster stores it: `train-0` Pending (its PodScheduled condition False,
/// Unschedulable) with a core/v1 FailedScheduling and an events.k8s.io/v1 GangWaitingForMembers, `infer-0`
/// crash-looping after an OOM kill (container status) with a core/v1 BackOff. The statuses are written through
/// `kubectl patch --subresource=status`, so the server validated and stored them (`--validate=false`: the
/// double has no OpenAPI).
fn seed_live(kubeconfig: &Path) {
    const NS: &str = "kc-live";
    let pods = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata: {{name: {NS}}}\n---\n{}---\n{}",
        pod_yaml("train-0"),
        pod_yaml("infer-0")
    )
    .replace(&format!("namespace: {NAMESPACE}"), &format!("namespace: {NS}"));
    kubectl_at(kubeconfig, &["apply", "--validate=false", "-f", "-"], Some(&pods));
    let unschedulable = r#"{"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu."}]}}"#;
    let oom = r#"{"status":{"phase":"Running","containerStatuses":[{"name":"main","image":"cuda","imageID":"","ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 5m0s restarting failed container=main"}},"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled"}}}]}}"#;
    for (pod, status) in [("train-0", unschedulable), ("infer-0", oom)] {
        kubectl_at(
            kubeconfig,
            &["-n", NS, "patch", "pod", pod, "--subresource=status", "--type=merge", "-p", status],
            None,
        );
    }
    let stored = kubectl_at(
        kubeconfig,
        &[
            "-n",
            NS,
            "get",
            "pod",
            "infer-0",
            "-o",
            "jsonpath={.status.containerStatuses[0].lastState.terminated.reason}",
        ],
        None,
    );
    assert_eq!(stored, "OOMKilled", "the server kept the patched status");
    let events = train_and_infer_events(NS, None, 2, 2);
    kubectl_at(kubeconfig, &["create", "--validate=false", "-f", "-"], Some(&events));
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn explain_live_on_both_servers() {
    // The same body on the API double, then on the real server.
    let double = ApiServer::start().await;
    let config = std::env::temp_dir().join(format!("gpu-events-real-kubectl-{}.yaml", std::process::id()));
    double.write_kubeconfig(&config, "default").unwrap();
    let on_double = config.clone();
    tokio::task::spawn_blocking(move || explain_live(&on_double)).await.unwrap();
    double.shutdown().await;
    let _ = std::fs::remove_file(&config);
    let server = RealApiServer::shared().await;
    tokio::task::spawn_blocking(move || explain_live(server.kubeconfig())).await.unwrap();
}

/// Live `explain` of [`seed_live`]'s namespace through `kubeconfig`.
fn explain_live(kubeconfig: &Path) {
    seed_live(kubeconfig);
    // The object's events from both APIs (the server took the field selectors), each once.
    let all = live(kubeconfig, &["explain", "pod/train-0", "-n", "kc-live"]);
    // The Pod's status is a record too (flag fromStatus): its Unschedulable PodScheduled condition.
    let from_status = |r: &Value| r["flags"].as_array().is_some_and(|f| f.iter().any(|f| f == "fromStatus"));
    let (status, records): (Vec<Value>, Vec<Value>) = all.into_iter().partition(from_status);
    assert_eq!(reasons(&status), [pair("FailedScheduling", "Warning")], "{status:?}");
    assert_eq!(reasons(&records), [pair("FailedScheduling", "Warning"), pair("GangWaitingForMembers", "Normal")]);
    assert!(records.iter().all(|r| r["regarding"]["name"] == "train-0" && r["regarding"]["namespace"] == "kc-live"));
    let failed = records.iter().find(|r| r["reason"] == "FailedScheduling").unwrap();
    assert_eq!(failed["count"], 12, "{failed}");

    let [diagnosis]: [Value; 1] =
        live(kubeconfig, &["explain", "pod/train-0", "-n", "kc-live", "--diagnose"]).try_into().unwrap();
    assert_eq!(
        (diagnosis["phase"].as_str(), diagnosis["cause"].as_str()),
        (Some("Pending"), Some("insufficient-gpu")),
        "{diagnosis}"
    );

    // infer-0: the stored container status says the last exit was an OOM kill.
    let [diagnosis]: [Value; 1] =
        live(kubeconfig, &["explain", "pod/infer-0", "-n", "kc-live", "--diagnose"]).try_into().unwrap();
    assert_eq!(diagnosis["phase"], "OOMKilled", "{diagnosis}");
    assert_eq!(diagnosis["cause"], "container-oom", "{diagnosis}");
    assert_eq!(diagnosis["nextSteps"][0], "kubectl logs infer-0 -n kc-live -c main --previous", "{diagnosis}");

    // The whole namespace: both stuck Pods.
    let names: Vec<String> = live(kubeconfig, &["explain", "-n", "kc-live", "--diagnose"])
        .iter()
        .map(|d| d["object"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["infer-0", "train-0"]);
}
