//! Helpers shared by the CLI's tests: the binary run with an input, kubectl on a real kube-apiserver.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `kubectl --kubeconfig KUBECONFIG ARGS` with `stdin`, whatever it answers.
pub fn kubectl_output(kubeconfig: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl is installed");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// As [`kubectl_output`], asserting success; its stdout.
pub fn kubectl_ok(kubeconfig: &Path, args: &[&str], stdin: &str) -> String {
    let output = kubectl_output(kubeconfig, args, stdin);
    assert!(output.status.success(), "kubectl {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The `gpu-events` binary run with `args` and `stdin`, whatever it answers.
pub fn gpu_events_output(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpu-events runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// The `events.k8s.io/v1` GangWaitingForMembers Event the real-server tests seed on Pod `train-0` of `ns`
/// (TensorFusion's gang scheduler wording), with the Pod's uid when given and a series when `series` is
/// `(count, lastObservedTime)`.
pub fn gang_event(
    ns: &str,
    uid: Option<&str>,
    event_time: chrono::DateTime<chrono::Utc>,
    series: Option<(u32, chrono::DateTime<chrono::Utc>)>,
) -> String {
    let micro = |t: chrono::DateTime<chrono::Utc>| t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string();
    let uid = uid.map(|u| format!(", uid: {u}")).unwrap_or_default();
    let series = series
        .map(|(count, last)| format!("series: {{count: {count}, lastObservedTime: \"{}\"}}\n", micro(last)))
        .unwrap_or_default();
    format!(
        r#"apiVersion: events.k8s.io/v1
kind: Event
metadata: {{name: train-0.2, namespace: {ns}}}
regarding: {{apiVersion: v1, kind: Pod, namespace: {ns}, name: train-0{uid}}}
reason: GangWaitingForMembers
type: Normal
action: Waiting
note: "Waiting for gang members: 1/4 ready"
reportingController: GangScheduler
reportingInstance: GangScheduler-0
eventTime: "{}"
{series}"#,
        micro(event_time)
    )
}
