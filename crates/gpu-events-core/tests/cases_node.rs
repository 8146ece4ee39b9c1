//! The node-side grammars (kubelet, node-problem-detector, kube-controller-manager) against the
//! real event text in `tests/fixtures/cases/`: each test reads one case file, finds the message
//! by its known start, parses it through the catalogue row's grammar and asserts what the case's
//! `# expected:` block lists. Whole details are compared with insta JSON snapshots.

use std::collections::BTreeSet;

use gpu_events_core::decode::Decoder;
use gpu_events_core::details::node::{
    AdmissionStep, AllocationCause, LimitScope, NodeDetails, PullFailureCause, RuntimeCause, RuntimeFailure,
    RuntimePhase,
};
use gpu_events_core::details::{Details, Note};
use gpu_events_core::record::Flag;
use gpu_events_core::{Reason, ReasonName, Source};
use proptest::prelude::*;

mod common;
#[allow(unused_imports)]
use common::*;

/// Like [`parse`], for a note that must give node details.
fn node(reason: &str, controller: &str, note: &str) -> NodeDetails {
    match parse(reason, Some(controller), note) {
        Details::Node(details) => details,
        other => panic!("{reason}: {note:?} gave {other:?}"),
    }
}

fn runtime_failure(reason: &str, note: &str) -> RuntimeFailure {
    match node(reason, "kubelet", note) {
        NodeDetails::RuntimeFailure(failure) => failure,
        other => panic!("{reason}: not a runtime failure: {other:?}"),
    }
}

#[test]
fn case_005_hami_unexpected_admission_eof() {
    let text = fixture!("005-hami-unexpectedadmission-eof.txt");
    let note = message(text, "Allocate failed due to");
    let details = parse("UnexpectedAdmissionError", Some("kubelet"), note);
    let Details::Node(NodeDetails::UnexpectedAdmission(admission)) = &details else { panic!("{details:?}") };
    assert_eq!(admission.step, AdmissionStep::Allocate);
    assert_eq!(admission.cause, AllocationCause::DevicePluginRpc);
    let grpc = admission.grpc.as_ref().unwrap();
    assert_eq!(grpc.code, "Unavailable");
    assert_eq!(grpc.description, "error reading from server: EOF");
    assert_eq!(admission.resource, None);
    assert_eq!((admission.requested, admission.available), (None, None));
    insta::assert_json_snapshot!("case_005_unexpected_admission", details);
}

#[test]
fn case_007_dra_cdi_unresolvable() {
    let text = fixture!("007-dra-cdi-unresolvable-k8s-gpu.txt");
    let NodeDetails::PulledImage(pulled) = node("Pulled", "kubelet", message(text, "Container image \"ubuntu:22.04\""))
    else {
        panic!("Pulled")
    };
    assert_eq!(pulled.image, "ubuntu:22.04");
    assert!(pulled.already_present);
    assert_eq!((pulled.pull_duration, pulled.total_duration), (None, None));

    let note = message(text, "Error: failed to create containerd container");
    let failure = runtime_failure("Failed", note);
    assert_eq!(failure.phase, Some(RuntimePhase::CreateContainer));
    assert_eq!(
        failure.cause,
        RuntimeCause::CdiDevicesUnresolvable { devices: vec!["k8s.gpu.nvidia.com/device=gpu-1".to_owned()] }
    );
    insta::assert_json_snapshot!("case_007_failed", parse("Failed", Some("kubelet"), note));
}

#[test]
fn case_009_cdi_unresolvable_gpu_uuid() {
    let text = fixture!("009-cdi-unresolvable-gpu-uuid-rke2.txt");
    let note = message(text, "Error: failed to create containerd task");
    let failure = runtime_failure("Failed", note);
    assert_eq!(
        failure.cause,
        RuntimeCause::CdiDevicesUnresolvable {
            devices: vec!["management.nvidia.com/gpu=GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead".to_owned()]
        },
        "the device is addressed by GPU UUID and has no trailing `: unknown`"
    );
    assert_eq!(failure.phase, Some(RuntimePhase::StartContainer));
    insta::assert_json_snapshot!("case_009_failed", parse("Failed", Some("kubelet"), note));
}

#[test]
fn case_011_gpu_operator_runtime_handler_missing() {
    let text = fixture!("011-gpu-operator-must-gather-get-events.txt");
    let created: Vec<_> = messages(text, "Created pod: ")
        .into_iter()
        .map(|note| match node("SuccessfulCreate", "daemonset-controller", note) {
            NodeDetails::ControllerCreated(created) => created.pod.unwrap(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(created, ["nvidia-dcgm-exporter-qd6vj", "nvidia-device-plugin-daemonset-2nc7v"]);

    let sandboxes = messages(text, "Failed to create pod sandbox: ");
    assert_eq!(sandboxes.len(), 4);
    let mut ids = BTreeSet::new();
    for note in &sandboxes {
        let failure = runtime_failure("FailedCreatePodSandBox", note);
        assert_eq!(failure.phase, Some(RuntimePhase::Sandbox));
        assert_eq!(failure.grpc_code.as_deref(), Some("Unknown"));
        assert_eq!(failure.cause, RuntimeCause::RuntimeHandlerMissing { handler: "nvidia".to_owned() });
        let id = failure.sandbox_id.unwrap();
        assert_eq!(id.len(), 64);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(note.contains(&id));
        ids.insert(id);
    }
    assert_eq!(ids.len(), 4, "each Pod has its own sandbox");
    insta::assert_json_snapshot!("case_011_sandbox", parse("FailedCreatePodSandBox", Some("kubelet"), sandboxes[0]));

    // The older containerd wording maps to the same typed cause.
    let old = runtime_failure(
        "FailedCreatePodSandBox",
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured",
    );
    assert_eq!(old.cause, RuntimeCause::RuntimeHandlerMissing { handler: "nvidia".to_owned() });
}

#[test]
fn case_023_mig_nvml_insufficient_permissions() {
    let text = fixture!("023-mig-nvml-insufficient-permissions.txt");
    let note = message(text, "Allocate failed due to");
    let details = parse("UnexpectedAdmissionError", Some("kubelet"), note);
    let Details::Node(NodeDetails::UnexpectedAdmission(admission)) = &details else { panic!("{details:?}") };
    assert_eq!(admission.cause, AllocationCause::PreferredAllocationFailed);
    assert_eq!(admission.grpc.as_ref().unwrap().code, "Unknown");
    let nvml = admission.nvml.as_ref().unwrap();
    assert_eq!(nvml.device, Some(5));
    assert_eq!(nvml.error, "Insufficient Permissions");
    insta::assert_json_snapshot!("case_023_unexpected_admission", details);
}

#[test]
fn case_029_daemonset_failed_placement() {
    let text = fixture!("029-e2e-failedplacement-daemonset-controller.txt");
    let note = message(text, "failed to place pod on");
    let details = parse("FailedPlacement", Some("daemonset-controller"), note);
    let Details::Node(NodeDetails::DaemonPlacementFailed(placement)) = &details else { panic!("{details:?}") };
    assert_eq!(placement.node, "bootstrap-e2e-master");
    let out = placement.insufficient.as_ref().unwrap();
    assert_eq!(out.resource, "cpu");
    assert_eq!((out.requested, out.used, out.capacity), (150, 950, 1000));
    insta::assert_json_snapshot!("case_029_failed_placement", details);
}

#[test]
fn case_031_dra_prepare_deadline_exceeded() {
    let text = fixture!("031-dra-prepare-deadline-exceeded.txt");
    let note = message(text, "Failed to prepare dynamic resources:");
    let details = parse("FailedPrepareDynamicResources", Some("kubelet"), note);
    let Details::Node(NodeDetails::DynamicResourcesFailed(dra)) = &details else { panic!("{details:?}") };
    assert_eq!(dra.call.as_deref(), Some("NodePrepareResources"));
    let grpc = dra.grpc.as_ref().unwrap();
    assert_eq!(grpc.code, "DeadlineExceeded");
    assert_eq!(grpc.description, "context deadline exceeded");
    assert_eq!(dra.driver, None, "the driver is not named in this message");
    insta::assert_json_snapshot!("case_031_dynamic_resources", details);
}

#[test]
fn case_033_kata_cold_plug_combined_from_similar_events() {
    let text = fixture!("033-kata-cc-combined-from-similar-events.txt");
    let raw = message(text, "(combined from similar events): ");
    let event = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": "cuda-vectoradd-kata.1", "namespace": "default"},
        "involvedObject": {"kind": "Pod", "namespace": "default", "name": "cuda-vectoradd-kata"},
        "reason": "FailedCreatePodSandBox",
        "type": "Warning",
        "message": raw,
        "source": {"component": "kubelet"},
        "count": 16
    });
    let record = Decoder::from_str(&event.to_string()).next().unwrap().unwrap();
    assert!(record.flags.contains(&Flag::CombinedFromSimilarEvents));
    assert!(!record.flags.contains(&Flag::UnrecognizedNote));
    assert!(record.note.starts_with("Failed to create pod sandbox: "));
    let Some(Details::Node(NodeDetails::RuntimeFailure(failure))) = &record.details else {
        panic!("{:?}", record.details)
    };
    assert_eq!(failure.phase, Some(RuntimePhase::Sandbox));
    assert_eq!(failure.grpc_code.as_deref(), Some("Unknown"));
    assert_eq!(failure.sandbox_id.as_deref(), Some("d0a43b5d3c6c433f011efbfacb6de3f7ac448f3d09a272cef8d43249712b12b1"));
    let RuntimeCause::DeviceColdPlugFailed { error } = &failure.cause else { panic!("{:?}", failure.cause) };
    assert!(error.starts_with("cold plug: GetPodResources failed for pod(cuda-vectoradd-kata)"));
    assert!(error.ends_with("PodResources API Get method disabled"));
    assert_eq!(failure.error.matches("rpc error: code = Unknown").count(), 2, "nested gRPC code Unknown twice");
    insta::assert_json_snapshot!("case_033_sandbox", record.details);
}

#[test]
fn case_037_time_slicing_created_started_pulled() {
    let text = fixture!("037-time-slicing-get-events-init-containers.txt");
    let mut created = BTreeSet::new();
    let mut started = BTreeSet::new();
    let mut images = BTreeSet::new();
    let mut rows = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && l.contains("Normal ")) {
        let columns: Vec<&str> = line.split_whitespace().collect();
        let (reason, object) = (columns[2], columns[3]);
        let note = line[line.find(object).unwrap() + object.len()..].trim();
        rows += 1;
        match node(reason, "kubelet", note) {
            NodeDetails::ContainerCreated(c) => {
                created.insert(c.container.unwrap());
            }
            NodeDetails::ContainerStarted(c) => {
                started.insert(c.container.unwrap());
            }
            NodeDetails::PulledImage(p) => {
                assert!(p.already_present, "{note}");
                images.insert(p.image);
            }
            other => panic!("{reason}: {other:?}"),
        }
    }
    assert_eq!(rows, 24);
    let containers: BTreeSet<String> = [
        "toolkit-validation",
        "config-manager-init",
        "config-manager",
        "gpu-feature-discovery",
        "nvidia-device-plugin",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(created, containers);
    assert_eq!(started, containers);
    let want: BTreeSet<String> = [
        "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v22.9.1",
        "nvcr.io/nvidia/k8s-device-plugin:v0.13.0-ubi8",
        "nvcr.io/nvidia/gpu-feature-discovery:v0.7.0-ubi8",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(images, want);
}

#[test]
fn case_041_container_init_oom() {
    let text = fixture!("041-ocp-dgx-a100-container-init-oom.txt");
    let note = message(text, "Error: container create failed");
    let failure = runtime_failure("Failed", note);
    assert_eq!(failure.phase, Some(RuntimePhase::CreateContainer));
    assert_eq!(failure.cause, RuntimeCause::ContainerInitOomKilled);
    let log = failure.runtime_log.as_ref().unwrap();
    assert_eq!(log.time.as_deref(), Some("2022-09-14T11:35:13Z"));
    assert_eq!(log.level.as_deref(), Some("error"));
    assert_eq!(
        log.msg.as_deref(),
        Some(
            "runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)"
        )
    );
    insta::assert_json_snapshot!("case_041_failed", parse("Failed", Some("kubelet"), note));
}

#[test]
fn case_043_pod_status_yaml_folded_message() {
    let text = fixture!("043-kuberay-cce-unexpectedadmission-pod-status-yaml.txt");
    let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).unwrap();
    let status = &yaml["status"];
    assert_eq!(status["reason"].as_str(), Some("UnexpectedAdmissionError"));
    let note = status["message"].as_str().unwrap();
    assert_eq!(
        note,
        "Pod Allocate failed due to pod d65f09ad-cca3-4631-a0a3-d5ba850f8a69 container wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected"
    );
    let details = parse("UnexpectedAdmissionError", Some("kubelet"), note);
    let Details::Node(NodeDetails::UnexpectedAdmission(admission)) = &details else { panic!("{details:?}") };
    assert!(admission.pod_status, "status message prefix `Pod `");
    assert_eq!(admission.step, AdmissionStep::Allocate);
    assert_eq!(admission.cause, AllocationCause::Other);
    assert_eq!(admission.pod_uid.as_deref(), Some("d65f09ad-cca3-4631-a0a3-d5ba850f8a69"));
    assert_eq!(admission.container.as_deref(), Some("wait-gcs-ready"));
    insta::assert_json_snapshot!("case_043_unexpected_admission", details);
}

#[test]
fn case_051_no_healthy_devices_redacted() {
    let text = fixture!("051-gke-node-reboot-unhealthy-devices-redacted.txt");
    let note = message(text, "Allocate failed due to");
    let NodeDetails::UnexpectedAdmission(admission) = node("UnexpectedAdmissionError", "kubelet", note) else {
        panic!()
    };
    assert_eq!(admission.cause, AllocationCause::NoHealthyDevices);
    assert_eq!(admission.resource.as_deref(), Some("xxx"));
    assert!(!admission.pod_status);
}

#[test]
fn case_053_update_plugin_resources_status_message() {
    let text = fixture!("053-kube-batch-update-plugin-resources-failed.txt");
    let note = message(text, "Pod Update plugin resources failed");
    let details = parse("UnexpectedAdmissionError", Some("kubelet"), note);
    let Details::Node(NodeDetails::UnexpectedAdmission(admission)) = &details else { panic!("{details:?}") };
    assert!(admission.pod_status);
    assert_eq!(admission.step, AdmissionStep::UpdatePluginResources);
    assert_eq!(admission.cause, AllocationCause::DevicesUnavailable);
    assert_eq!(admission.resource.as_deref(), Some("nvidia.com/gpu"));
    assert_eq!((admission.requested, admission.available), (Some(1), Some(0)));
    insta::assert_json_snapshot!("case_053_unexpected_admission", details);
}

/// Every node grammar in the catalogue, for the property tests.
#[test]
fn single_pod_ephemeral_limit_eviction() {
    let note = "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. ";
    let NodeDetails::PodEvicted(evicted) = node("Evicted", "kubelet", note) else { panic!("Evicted") };
    assert_eq!(evicted.exceeded_limits.len(), 1);
    let limit = &evicted.exceeded_limits[0];
    assert_eq!((limit.scope, limit.name.as_deref(), limit.limit.quantity.as_str()), (LimitScope::Pod, None, "20Gi"));
    assert!(evicted.other.is_empty());
    let json = serde_json::to_value(parse("Evicted", Some("kubelet"), note)).unwrap();
    assert_eq!(json["kind"], "podEvicted");
    assert_eq!(json["exceededLimits"][0]["scope"], "pod");
    assert_eq!(json["exceededLimits"][0]["limit"]["quantity"], "20Gi");
}

#[test]
fn image_pull_denied_and_rate_limited() {
    let cases = [
        (
            "Failed to pull image \"docker.io/library/privateimg:latest\": rpc error: code = Unknown desc = reading manifest latest in docker.io/library/privateimg: requested access to the resource is denied",
            PullFailureCause::Unauthorized,
        ),
        ("Failed to pull image \"x\": pull QPS exceeded", PullFailureCause::RateLimited),
    ];
    for (note, cause) in cases {
        let NodeDetails::ImagePullFailed(failed) = node("Failed", "kubelet", note) else { panic!("{note}") };
        assert_eq!(failed.cause, cause, "{note}");
    }
}

#[test]
fn missing_entrypoint_path() {
    let failure = runtime_failure(
        "Failed",
        "Error: container create failed: runc create failed: unable to start container process: exec: \"/usr/local/bin/x\": stat /usr/local/bin/x: no such file or directory: unknown",
    );
    assert_eq!(failure.cause, RuntimeCause::ExecutableNotFound { command: "/usr/local/bin/x".to_owned() });
    assert_eq!(failure.phase, Some(RuntimePhase::CreateContainer));
}

fn node_grammars() -> Vec<&'static gpu_events_core::details::Grammar> {
    Reason::all()
        .iter()
        .map(|r| r.info())
        .filter(|i| matches!(i.source, Source::Kubelet | Source::NodeProblemDetector | Source::ControllerManager))
        .filter_map(|i| i.grammar)
        .collect()
}

#[test]
fn every_node_grammar_kind_is_declared() {
    let grammars = node_grammars();
    assert!(grammars.len() >= 40, "{} node grammars wired", grammars.len());
    let samples = [
        ("Pulled", "kubelet", "Successfully pulled image \"x\" in 1s (2s including waiting). Image size: 10 bytes."),
        ("Failed", "kubelet", "Error: ErrImagePull"),
        ("Killing", "kubelet", "Stopping container x"),
        ("Evicted", "kubelet", "The node was low on resource: memory. "),
        ("OOMKilling", "kernel-monitor", "Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:1kB"),
        ("FailedMount", "kubelet", "MountVolume.SetUp failed for volume \"v\" : x"),
        (
            "FailedCreate",
            "replicaset-controller",
            "Error creating: pods \"x-\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1",
        ),
        ("NodeNotReady", "node-controller", "Node is not ready"),
    ];
    for (reason, controller, note) in samples {
        let info = ReasonName::resolve(reason, Some(controller)).info().unwrap();
        let details = info.grammar.unwrap().parse(&Note::new(note));
        assert!(info.grammar.unwrap().kinds.contains(&details.kind()), "{reason}: {} not declared", details.kind());
        let json = serde_json::to_value(&details).unwrap();
        let back: Details = serde_json::from_value(json).unwrap();
        assert_eq!(back, details, "{reason} round-trips through JSON");
    }
}

/// Markers the chain classifier and the node grammars search for.
const MARKERS: &[&str] = &[
    "rpc error: code = ",
    " desc = ",
    "sandbox \"",
    "no runtime for \"",
    "unresolvable CDI devices ",
    "nvidia-container-cli: ",
    "nvml: ",
    "nvml.Device ",
    "exec: \"",
    ": executable file not found in $PATH",
    ": stat ",
    ": no such file or directory",
    "exec: \\\"",
    "fork/exec ",
    "dial unix ",
    "time=\"",
    "level=",
    "msg=\"",
    "\\",
    "\"",
    ": unknown",
    ". ",
    "Killed process ",
    ") total-vm:",
    "exceeded quota: ",
    "Allocate failed due to ",
    ", which is unexpected",
    "é",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn chain_classifier_never_panics(text in any::<String>(), phase in 0usize..3) {
        let phase = [None, Some(RuntimePhase::Sandbox), Some(RuntimePhase::CreateContainer)][phase];
        let failure = RuntimeFailure::classify(phase, &text);
        prop_assert_eq!(failure.error, text);
    }

    #[test]
    fn chain_classifier_never_panics_on_marker_soup(
        parts in proptest::collection::vec(
            prop_oneof![
                prop::sample::select(MARKERS).prop_map(str::to_owned),
                "[a-f0-9]{0,70}",
                ".{0,8}",
            ],
            0..12,
        )
    ) {
        let text: String = parts.concat();
        let _ = RuntimeFailure::classify(None, &text);
        for grammar in node_grammars() {
            let _ = grammar.parse(&Note::new(&text));
        }
    }

    #[test]
    fn node_grammars_never_panic(text in any::<String>()) {
        for grammar in node_grammars() {
            let details = grammar.parse(&Note::new(&text));
            prop_assert!(details.kind() == "unrecognized" || grammar.kinds.contains(&details.kind()));
        }
    }
}
