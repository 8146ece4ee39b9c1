//! `deploy/` against a real kube-apiserver (the testkit's Go harness): `kubectl apply --dry-run=server` of its
//! manifests succeeds, then its RBAC is applied for real, a token is requested for its ServiceAccount (TokenRequest,
//! `kubectl create token`) and `gpu-events export` runs as that identity, with leader election and owner
//! resolution on: it lists and watches Events through both APIs, follows the Pod's owners to its Deployment, holds and releases its Lease, and
//! the same identity is refused (403 Forbidden) what deploy/ does not grant.
//!
//! `#[ignore]`d: the first run builds kube-apiserver with Go (minutes, then cached). Run with
//! `cargo test -p gpu-events-cli --test real_deploy -- --ignored` (`.ci/run` does).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gpu_events_testkit::RealApiServer;
use serde_json::Value;

mod common;
use common::{gang_event, kubectl_ok, kubectl_output};

/// The repository's deploy/ directory.
fn deploy(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(file).display().to_string()
}

/// As [`kubectl_output`], asserting success; its stdout.
fn kubectl(kubeconfig: &Path, args: &[&str], stdin: &str) -> String {
    kubectl_ok(kubeconfig, args, stdin)
}

/// As [`kubectl_output`], asserting the server refused it with 403 Forbidden; its stderr.
fn forbidden(kubeconfig: &Path, args: &[&str]) -> String {
    let output = kubectl_output(kubeconfig, args, "");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success() && stderr.contains("(Forbidden)"), "kubectl {args:?} is not 403: {stderr}");
    stderr
}

/// A copy of the server's kubeconfig whose current context authenticates with `token`, in namespace `gpu-events`.
fn kubeconfig_for_token(server: &RealApiServer, token: &str, dir: &Path) -> PathBuf {
    let path = dir.join("sa-kubeconfig");
    std::fs::copy(server.kubeconfig(), &path).unwrap();
    let cluster = kubectl(&path, &["config", "view", "-o", "jsonpath={.clusters[0].name}"], "");
    kubectl(&path, &["config", "set-credentials", "gpu-events-export", &format!("--token={token}")], "");
    let context = ["config", "set-context", "sa", "--user=gpu-events-export", "--namespace=gpu-events"];
    kubectl(&path, &[&context[..], &[&format!("--cluster={cluster}")]].concat(), "");
    kubectl(&path, &["config", "use-context", "sa"], "");
    path
}

/// In namespace `ml`, created by the admin: Deployment `train` (no replicas: nothing runs here), its ReplicaSet
/// `train-7d4` and their Pod `train-0`, owned in that chain, and one Event through each API about the Pod.
fn seed(admin: &Path) {
    let template = "selector: {matchLabels: {app: train}}\n  template:\n    metadata: {labels: {app: train}}\n    spec: {containers: [{name: main, image: nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04}]}";
    let uid =
        |kind: &str, name: &str| kubectl(admin, &["-n", "ml", "get", kind, name, "-o", "jsonpath={.metadata.uid}"], "");
    let owned = |kind: &str, name: &str, uid: String| {
        format!("ownerReferences: [{{apiVersion: apps/v1, kind: {kind}, name: {name}, uid: {uid}, controller: true}}]")
    };
    let deployment = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata: {{name: ml}}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: train, namespace: ml}}\nspec:\n  replicas: 0\n  {template}\n"
    );
    kubectl(admin, &["apply", "-f", "-"], &deployment);
    let replica_set = format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: train-7d4\n  namespace: ml\n  {}\nspec:\n  replicas: 0\n  {template}\n",
        owned("Deployment", "train", uid("deployment", "train"))
    );
    kubectl(admin, &["apply", "-f", "-"], &replica_set);
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: train-0\n  namespace: ml\n  labels: {{app: train}}\n  {}\nspec:\n  containers:\n  - {{name: main, image: nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04, resources: {{limits: {{nvidia.com/gpu: 1}}}}}}\n",
        owned("ReplicaSet", "train-7d4", uid("replicaset", "train-7d4"))
    );
    kubectl(admin, &["apply", "-f", "-"], &pod);
    let uid = uid("pod", "train-0");
    let now = chrono::Utc::now();
    let events = format!(
        r#"apiVersion: v1
kind: Event
metadata: {{name: train-0.1, namespace: ml}}
involvedObject: {{apiVersion: v1, kind: Pod, namespace: ml, name: train-0, uid: {uid}}}
reason: FailedScheduling
type: Warning
message: "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
source: {{component: default-scheduler}}
count: 3
firstTimestamp: "{seconds}"
lastTimestamp: "{seconds}"
---
{gang}"#,
        seconds = now.format("%Y-%m-%dT%H:%M:%SZ"),
        gang = gang_event("ml", Some(&uid), now, None),
    );
    kubectl(admin, &["create", "-f", "-"], &events);
}

/// The sink's lines once there are `n` (within 60 s), after a second more to see that no more come.
fn exactly_lines(path: &Path, n: usize, exporter: &mut Child) -> Vec<Value> {
    let read = || -> Vec<Value> {
        std::fs::read_to_string(path).unwrap_or_default().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let started = Instant::now();
    while read().len() < n && started.elapsed() < Duration::from_secs(60) {
        assert!(exporter.try_wait().unwrap().is_none(), "the exporter exited early");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(1));
    let lines = read();
    assert_eq!(lines.len(), n, "{lines:#?}");
    lines
}

/// The Lease's holderIdentity, as the admin reads it.
fn lease_holder(admin: &Path) -> String {
    kubectl(
        admin,
        &["-n", "gpu-events", "get", "lease", "gpu-events-export", "-o", "jsonpath={.spec.holderIdentity}"],
        "",
    )
}

#[test]
#[ignore = "real kube-apiserver: builds the Go harness on first use; run with --ignored"]
fn deploy_applies_and_the_exporter_runs_with_exactly_its_rbac() {
    let started = Instant::now();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(RealApiServer::start()).expect("a real kube-apiserver");
    let up = started.elapsed();
    let admin = server.kubeconfig().to_path_buf();
    let dir = std::env::temp_dir().join(format!("gpu-events-real-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // A server-side dry run creates nothing, so the namespaced objects need their namespace first (deployment.yaml
    // declares it; applied for real it would come first). The directory as a user applies it: every file in
    // deploy/ is a manifest (the exporter's own config example lives in deploy/exporter/, which `-f` does not read).
    kubectl(&admin, &["create", "namespace", "gpu-events"], "");
    let manifests = ["deployment.yaml", "rbac.yaml", "owner-rbac.yaml"].map(deploy);
    let directory = deploy("");
    let dry = kubectl(&admin, &["apply", "--dry-run=server", "-f", &directory], "");
    for object in [
        "namespace/gpu-events",
        "configmap/gpu-events-export",
        "persistentvolumeclaim/gpu-events-export-state",
        "deployment.apps/gpu-events-export",
        "serviceaccount/gpu-events-export",
        "clusterrole.rbac.authorization.k8s.io/gpu-events-export",
        "clusterrolebinding.rbac.authorization.k8s.io/gpu-events-export",
        "role.rbac.authorization.k8s.io/gpu-events-export-leader",
        "rolebinding.rbac.authorization.k8s.io/gpu-events-export-leader",
        "clusterrole.rbac.authorization.k8s.io/gpu-events-export-owners",
        "clusterrolebinding.rbac.authorization.k8s.io/gpu-events-export-owners",
    ] {
        assert!(dry.lines().any(|l| l.starts_with(object) && l.ends_with("(server dry run)")), "{object}:\n{dry}");
    }

    // The RBAC for real, a token for its ServiceAccount, and that identity's kubeconfig.
    kubectl(&admin, &["apply", "-f", &manifests[1], "-f", &manifests[2]], "");
    let token = kubectl(&admin, &["-n", "gpu-events", "create", "token", "gpu-events-export", "--duration=1h"], "");
    let sa = kubeconfig_for_token(&server, token.trim(), &dir);
    let whoami = kubectl(&sa, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"], "");
    assert_eq!(whoami, "system:serviceaccount:gpu-events:gpu-events-export");
    seed(&admin);

    // The exporter as the ServiceAccount: both APIs, the whole cluster, owners and leader election on.
    let sink = dir.join("events.jsonl");
    let log = std::fs::File::create(dir.join("export.log")).unwrap();
    let mut exporter = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["export", "--kubeconfig"])
        .arg(&sa)
        .args(["--cluster", "real", "--api", "both", "--owners", "--leader-elect"])
        .args(["--leader-elect-namespace", "gpu-events"])
        .arg("--sink")
        .arg(format!("file:{}", sink.display()))
        .arg("--state")
        .arg(dir.join("state.json"))
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let exported = exactly_lines(&sink, 2, &mut exporter);
    let mut reasons: Vec<&str> = exported.iter().map(|l| l["reason"].as_str().unwrap()).collect();
    reasons.sort_unstable();
    assert_eq!(reasons, ["FailedScheduling", "GangWaitingForMembers"], "each Event once through both APIs");
    for line in &exported {
        // Pod, ReplicaSet and Deployment read with owner-rbac.yaml's get.
        assert_eq!((&line["owner"]["kind"], &line["owner"]["name"]), (&"Deployment".into(), &"train".into()), "{line}");
    }
    let holder = lease_holder(&admin);
    assert!(!holder.is_empty(), "the exporter holds its Lease");

    // What deploy/ does not grant is refused to the same identity.
    forbidden(&sa, &["get", "secrets", "-A"]);
    forbidden(&sa, &["-n", "gpu-events", "delete", "lease", "gpu-events-export"]);
    forbidden(&sa, &["-n", "ml", "delete", "event", "train-0.1"]);
    forbidden(&sa, &["get", "nodes"]);

    // SIGTERM: the final checkpoint, then the Lease released.
    assert!(Command::new("kill").args(["-TERM", &exporter.id().to_string()]).status().unwrap().success());
    let status = exporter.wait().unwrap();
    let log = std::fs::read_to_string(dir.join("export.log")).unwrap();
    assert!(status.success(), "the exporter exits cleanly on SIGTERM ({status}):\n{log}");
    assert!(!log.to_lowercase().contains("forbidden"), "no request of the exporter was refused:\n{log}");
    assert_eq!(lease_holder(&admin), "", "released on stop");
    assert!(dir.join("state.json").is_file(), "the checkpoint was written");

    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!(
        "deploy_applies_and_the_exporter_runs_with_exactly_its_rbac: {:?} (server start {up:?})",
        started.elapsed()
    );
}
