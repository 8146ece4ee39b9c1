//! Diagnosis of stuck GPU objects from their events: the cause a person would give.

use gpu_events_core::EventRecord;
use gpu_events_core::decode::Decoder;
use gpu_events_core::diagnose::{Cause, Confidence, Phase, diagnose};

mod common;
#[allow(unused_imports)]
use common::*;

fn single(text: &str) -> (Phase, Cause, Confidence) {
    let diagnoses = diagnose(&records(text));
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    let d = &diagnoses[0];
    assert!(!d.evidence.is_empty() && !d.next_steps.is_empty());
    (d.phase, d.cause, d.confidence)
}

#[test]
fn insufficient_gpu_from_the_fit_error() {
    let (phase, cause, confidence) = single(case(fixture!("001-insufficient-gpu-node-unschedulable.txt")));
    assert_eq!((phase, cause, confidence), (Phase::Pending, Cause::InsufficientGpu, Confidence::High));
    let (_, cause, _) = single(case(fixture!("017-k3s-amd-gpu-preemption-double-period.txt")));
    assert_eq!(cause, Cause::InsufficientGpu, "amd.com/gpu is a GPU too");
}

#[test]
fn untolerated_taint_and_node_affinity() {
    let text = "  Warning  FailedScheduling  2m  default-scheduler  0/2 nodes are available: 2 node(s) had untolerated taint {dedicated: gpuGroup}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.\n";
    assert_eq!(single(text).1, Cause::UntoleratedTaint);
    let text = "  Warning  FailedScheduling  2m  default-scheduler  0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector.\n";
    assert_eq!(single(text).1, Cause::NodeAffinityMismatch);
}

#[test]
fn runtime_chains_name_the_runtime_cause() {
    let diagnoses = diagnose(&records(case(include_str!(
        "../../../tests/fixtures/cases/011-gpu-operator-must-gather-get-events.txt"
    ))));
    // `no runtime for "nvidia" is configured`: the handler is missing (what the runtime says);
    // the toolkit that configures it is the other reading.
    let sandbox: Vec<_> = diagnoses.iter().filter(|d| d.cause == Cause::RuntimeHandlerMissing).collect();
    assert_eq!(sandbox.len(), 4, "{diagnoses:#?}");
    assert!(sandbox.iter().all(|d| d.phase == Phase::ContainerCreating));
    assert!(sandbox.iter().all(|d| d.also_possible.iter().any(|a| a.cause == Cause::NvidiaRuntimeMissing)));
    let (phase, cause, _) = single(case(fixture!("007-dra-cdi-unresolvable-k8s-gpu.txt")));
    assert_eq!((phase, cause), (Phase::ContainerCreating, Cause::CdiDeviceUnresolvable));
}

#[test]
fn admission_failures_are_the_device_plugin() {
    for text in [
        fixture!("005-hami-unexpectedadmission-eof.txt"),
        fixture!("051-gke-node-reboot-unhealthy-devices-redacted.txt"),
        // The kubelet's clock is a second behind the scheduler's: Scheduled (16s) reads as
        // newer than the admission failure (17s), but admission comes after scheduling.
        fixture!("023-mig-nvml-insufficient-permissions.txt"),
    ] {
        assert_eq!(single(case(text)).0, Phase::Failed);
        assert_eq!(single(case(text)).1, Cause::DevicePluginUnavailable);
    }
}

#[test]
fn the_latest_events_weigh_most() {
    // FailedScheduling, Nominated, Scheduled, then Started: the Pod got past its problem.
    let started = records(case(fixture!("015-eks-karpenter-nominated-multi-insufficient.txt")));
    assert!(diagnose(&started).is_empty(), "a Pod that started is not stuck");
    // With only the first two (FailedScheduling, Nominated) it waits for the nominated node.
    let waiting = diagnose(&started[..2]);
    assert_eq!(waiting.len(), 1);
    assert_eq!((waiting[0].phase, waiting[0].cause), (Phase::Pending, Cause::NodeExpansionPending));

    let text = "  Warning  FailedScheduling  10m  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n  Normal   Nominated         5m   karpenter          Pod should schedule on: nodeclaim/gpu-x\n";
    assert_eq!(single(text), (Phase::Pending, Cause::NodeExpansionPending, Confidence::High));
}

#[test]
fn the_bundled_sample_gets_a_diagnosis_per_stuck_pod() {
    let sample = include_str!("../../gpu-events-cli/sample/events.yaml");
    let diagnoses = diagnose(&records(sample));
    let find = |name: &str| diagnoses.iter().find(|d| d.object.name.as_deref() == Some(name)).unwrap();
    // Karpenter could not provision for it (05:41, `no instance type has enough resources`):
    // that failure explains the shortage the newer FitError (06:03) reports.
    assert_eq!(find("llama-train-3").cause, Cause::NodeExpansionFailed);
    // The quota error is evidence for another cause: less than High.
    assert!(find("llama-train-3").confidence < Confidence::High);
    assert!(
        find("llama-train-3").evidence.iter().any(|r| r.reason == "FailedScheduling" && r.note.starts_with("0/36"))
    );

    assert_eq!(find("nvidia-dcgm-exporter-qd6vj").cause, Cause::RuntimeHandlerMissing);
    assert_eq!(find("nvidia-example-workload").cause, Cause::CdiDeviceUnresolvable);
    assert_eq!(find("gpu-pod").cause, Cause::DevicePluginUnavailable);
    assert_eq!(find("cuda-vectoradd-kata").cause, Cause::ColdPlugFailed);
    // The kubelet counted all 8 GPUs in use at admission: a GPU shortage, not the plugin.
    assert_eq!((find("trainer-7f9c").phase, find("trainer-7f9c").cause), (Phase::Failed, Cause::InsufficientGpu));
    // Nominated, then Scheduled: the node came; nothing since says the Pod is stuck.
    assert!(diagnoses.iter().all(|d| d.object.name.as_deref() != Some("sd-worker-gpu-85d22")), "{diagnoses:#?}");
    // The hypervisor Pod of a GPUNode, not the GPUNode, has logs.
    let hypervisor = &find("gpu-node-1").next_steps;
    assert_eq!(hypervisor[0], "kubectl logs -n tensor-fusion-sys hypervisor-gpu-node-1 -c hypervisor --previous");
    assert!(!hypervisor.iter().any(|s| s.starts_with("kubectl logs gpu-node-1")), "{hypervisor:?}");
    let probe = &find("driver-probe-gpu-node-2").next_steps;
    assert!(
        probe.contains(&"kubectl logs job/driver-probe-gpu-node-2 -n tensor-fusion-sys --all-containers".to_owned())
    );
    assert_eq!(find("llama-infer-6b7d9").cause, Cause::CrashLoop);
    assert_eq!(find("llama-infer-6b7d9").phase, Phase::CrashLoopBackOff);
    assert_eq!(find("batch-embed-x2").cause, Cause::NodePressureEviction);
    // The OOM kill at 05:58 is older than the Xid 79 at 05:59: the GPU fell off the bus.
    assert_eq!(find("node-c").cause, Cause::DeviceFault);
    assert_eq!(find("llama-train-0").cause, Cause::GangWaiting);
    let steps = &find("gpu-pod").next_steps;
    assert!(steps.iter().any(|s| s.contains("-n default") && s.contains("gpu-pod")), "{steps:?}");
    let json = serde_json::to_value(find("gpu-pod")).unwrap();
    assert_eq!(json["cause"], "device-plugin-unavailable");
    assert_eq!(json["object"]["kind"], "Pod");
    assert!(json["nextSteps"].is_array() && json["evidence"].is_array());
}

#[test]
fn every_cause_id_is_kebab_case_and_has_next_steps() {
    for cause in Cause::ALL {
        let id = cause.id();
        assert!(id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{id}");
        assert_eq!(serde_json::to_value(cause).unwrap(), id);
        assert!(cause.steps().iter().any(|s| s.scope.is_none()), "{id}: no step that applies everywhere");
        assert!(!cause.summary().is_empty());
    }
}

#[test]
fn the_readme_lists_every_cause_in_declaration_order() {
    let readme = include_str!("../../../README.md");
    let start = readme.find("Causes are stable ids:").expect("the README lists the causes");
    let list = &readme[start..];
    let list = &list[..list.find("`unknown`.").expect("the list ends with unknown") + "`unknown`".len()];
    let documented: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    let declared: Vec<&str> = Cause::ALL.iter().map(|c| c.id()).collect();
    assert_eq!(documented, declared);
}

#[test]
fn the_summary_counts_reasons_and_diagnosed_causes() {
    use gpu_events_core::diagnose::Summary;
    let records = records(include_str!("../../gpu-events-cli/sample/events.yaml"));
    let mut summary = Summary::default();
    for record in &records {
        summary.add(record);
    }
    let report = summary.finish();
    assert_eq!(report.records, records.len() as u64);
    assert_eq!(report.by_reason["FailedScheduling"], 3);
    assert_eq!(report.by_reason["GangWaitingForMembers"], 2);
    let diagnosed = diagnose(&records);
    assert_eq!(report.by_cause.values().sum::<u64>(), diagnosed.len() as u64);
    assert_eq!(report.by_cause["runtime-handler-missing"], 1);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["byReason"].is_object() && json["byCause"].is_object() && json["records"].is_u64());

    // Entries taken apart from their records (as decoding threads do) count the same.
    let mut from_entries = Summary::default();
    for record in records {
        from_entries.add_entry(gpu_events_core::diagnose::SummaryEntry::of(record));
    }
    assert_eq!(from_entries.finish(), report);
}

#[test]
fn a_summary_from_parallel_entries_is_the_summary_of_the_records() {
    use gpu_events_core::diagnose::{Summary, SummaryEntry};
    // Every case text, as JSON Lines records: decoded on three threads, reduced there.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases");
    let mut lines = String::new();
    let mut expected = Summary::default();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let now = "2026-11-30T06:00:00Z".parse().unwrap();
        for record in Decoder::from_str(case(&text)).reference_time(now).flatten() {
            lines.push_str(&serde_json::to_string(&record).unwrap());
            lines.push('\n');
            expected.add(&record);
        }
    }
    let input = std::io::Cursor::new(lines.repeat(20).into_bytes());
    let mut summary = Summary::default();
    for entry in Decoder::from_reader(input).parallel_map(3, |item| item.map(SummaryEntry::of)) {
        summary.add_entry(entry.unwrap());
    }
    let (report, expected) = (summary.finish(), expected.finish());
    assert_eq!(report.records, 20 * expected.records);
    assert_eq!(report.by_cause, expected.by_cause, "the same objects, twenty times their events");
    assert_eq!(report.by_reason.values().sum::<u64>(), report.records);
}

#[test]
fn every_pasted_case_gets_the_cause_a_person_would_give() {
    let cases: &[(&str, Cause)] = &[
        (fixture!("001-insufficient-gpu-node-unschedulable.txt"), Cause::InsufficientGpu),
        // Both nodes short of gpushare's memory: its plugin advertises none (the thread's reply).
        (fixture!("003-gpushare-aliyun-gpu-mem.txt"), Cause::DevicePluginMissing),
        (fixture!("005-hami-unexpectedadmission-eof.txt"), Cause::DevicePluginUnavailable),
        (fixture!("007-dra-cdi-unresolvable-k8s-gpu.txt"), Cause::CdiDeviceUnresolvable),
        (fixture!("009-cdi-unresolvable-gpu-uuid-rke2.txt"), Cause::CdiDeviceUnresolvable),
        (fixture!("013-karpenter-incompatible-nodepool-gpu.txt"), Cause::NodeExpansionFailed),
        (fixture!("017-k3s-amd-gpu-preemption-double-period.txt"), Cause::InsufficientGpu),
        (fixture!("019-gpu-manager-exceedsgpuquota.txt"), Cause::GpuQuotaExceeded),
        (fixture!("021-hami-nodeunfitpod-kueue.txt"), Cause::InsufficientGpu),
        (fixture!("023-mig-nvml-insufficient-permissions.txt"), Cause::DevicePluginUnavailable),
        (fixture!("025-rke2-taint-didnt-tolerate-get-events.txt"), Cause::InsufficientGpu),
        (fixture!("027-k3s-geti-x351-over-23h.txt"), Cause::InsufficientGpu),
        (fixture!("031-dra-prepare-deadline-exceeded.txt"), Cause::DraPrepareFailed),
        (fixture!("033-kata-cc-combined-from-similar-events.txt"), Cause::ColdPlugFailed),
        (fixture!("039-hami-mixed-reasons-filteringfailed.txt"), Cause::InsufficientGpu),
        (fixture!("041-ocp-dgx-a100-container-init-oom.txt"), Cause::ContainerOom),
        (fixture!("043-kuberay-cce-unexpectedadmission-pod-status-yaml.txt"), Cause::DevicePluginUnavailable),
        (fixture!("045-kai-scheduler-unschedulable-no-age.txt"), Cause::InsufficientGpu),
        (fixture!("049-ascend-npu-device-fault-event.txt"), Cause::DeviceFault),
        (fixture!("051-gke-node-reboot-unhealthy-devices-redacted.txt"), Cause::DevicePluginUnavailable),
    ];
    for (text, want) in cases {
        let diagnoses = diagnose(&records(case(text)));
        let first_line = text.lines().next().unwrap();
        assert!(!diagnoses.is_empty(), "{first_line}: no diagnosis");
        assert!(
            diagnoses.iter().all(|d| d.cause == *want),
            "{first_line}: {:?}",
            diagnoses.iter().map(|d| d.cause).collect::<Vec<_>>()
        );
    }
    // All-Normal pastes (lifecycle, driver upgrade progress) need no diagnosis.
    for text in [
        fixture!("035-gpu-operator-driver-upgrade-events-brackets.txt"),
        fixture!("037-time-slicing-get-events-init-containers.txt"),
    ] {
        assert!(diagnose(&records(case(text))).is_empty());
    }
}

#[test]
fn container_statuses_in_a_pasted_describe_set_the_phase() {
    let paste = "Name:         infer-0\nNamespace:    ml\nContainers:\n  main:\n    Image:          cuda\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\nEvents:\n  Type     Reason   Age                From     Message\n  ----     ------   ----               ----     -------\n  Warning  BackOff  2m (x30 over 50m)  kubelet  Back-off restarting failed container main in pod infer-0_ml(5f0c)\n";
    let [d]: [_; 1] = diagnose(&records(paste)).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::OomKilled, Cause::ContainerOom), "the restarts come from the memory limit");
    let pull = "Name:         web-0\nNamespace:    ml\nContainers:\n  main:\n    State:          Waiting\n      Reason:       ImagePullBackOff\nEvents:       <none>\n";
    let [d]: [_; 1] = diagnose(&records(pull)).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::ContainerCreating, Cause::ImagePullFailed));
}

#[test]
fn a_kueue_queue_limit_is_a_gpu_quota_only_for_gpus() {
    let cpu = records(case(fixture!("047-xpk-kueue-admission-pending-tpu.txt")));
    assert!(diagnose(&cpu).iter().all(|d| d.cause == Cause::Unknown && d.phase == Phase::Pending));
    let gpu = "  Warning  Pending  1m  kueue-admission  couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more needed\n";
    assert_eq!(single(gpu).1, Cause::GpuQuotaExceeded);
}

/// The next steps of the one diagnosis of `text`.
fn steps(text: &str) -> Vec<String> {
    let diagnoses = diagnose(&records(text));
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    diagnoses[0].next_steps.clone()
}

const DESCRIBE_ML_POD: &str = "Name:         llama-2\nNamespace:    ml\nEvents:\n  Type     Reason       Age   From     Message\n  ----     ------       ----  ----     -------\n";

#[test]
fn volume_next_steps_name_what_is_missing() {
    let mount = |message: &str| {
        let text = format!("{DESCRIBE_ML_POD}  Warning  FailedMount  1m (x5 over 6m)  kubelet  {message}\n");
        let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
        assert_eq!(d.cause, Cause::VolumeMountFailed, "{message}");
        d.next_steps
    };
    let mentions_claims = |steps: &[String]| steps.iter().any(|s| s.contains("pvc"));

    let secret = mount("MountVolume.SetUp failed for volume \"hf-token\" : secret \"hf-token-v2\" not found");
    assert_eq!(secret[0], "kubectl get secret hf-token-v2 -n ml", "{secret:?}");
    assert!(!mentions_claims(&secret), "{secret:?}");

    let config = mount("MountVolume.SetUp failed for volume \"cfg\" : configmap \"model-config\" not found");
    assert_eq!(config[0], "kubectl get configmap model-config -n ml", "{config:?}");
    assert!(!mentions_claims(&config), "{config:?}");

    let csi = mount(
        "MountVolume.MountDevice failed for volume \"pvc-1\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ebs.csi.aws.com not found in the list of registered CSI drivers",
    );
    assert_eq!(csi[0], "kubectl get csidriver ebs.csi.aws.com", "{csi:?}");

    let timeout = mount(
        "Unable to attach or mount volumes: unmounted volumes=[model-cache], unattached volumes=[model-cache]: timed out waiting for the condition",
    );
    assert!(timeout.contains(&"kubectl get pvc -n ml".to_owned()), "{timeout:?}");

    // The kubelet's later timeouts name no kind: the older error that names the Secret decides,
    // however many timeouts followed it.
    let mut text = format!(
        "{DESCRIBE_ML_POD}  Warning  FailedMount  20m  kubelet  MountVolume.SetUp failed for volume \"wandb\" : secret \"wandb-key\" not found\n"
    );
    for age in (2..=12).rev().step_by(2) {
        text.push_str(&format!("  Warning  FailedMount  {age}m  kubelet  Unable to attach or mount volumes: unmounted volumes=[wandb], unattached volumes=[wandb]: timed out waiting for the condition\n"));
    }
    let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
    assert_eq!(d.next_steps[0], "kubectl get secret wandb-key -n ml", "{:?}", d.next_steps);
    assert!(!mentions_claims(&d.next_steps), "{:?}", d.next_steps);

    // Two volumes lacking the same Secret, a timeout between them: the Secret once.
    let twice = format!(
        "{DESCRIBE_ML_POD}  Warning  FailedMount  9m  kubelet  MountVolume.SetUp failed for volume \"a\" : secret \"s\" not found\n  Warning  FailedMount  8m  kubelet  MountVolume.SetUp failed for volume \"b\" : configmap \"c\" not found\n  Warning  FailedMount  7m  kubelet  MountVolume.SetUp failed for volume \"d\" : secret \"s\" not found\n"
    );
    let twice = steps(&twice);
    assert_eq!(twice.iter().filter(|s| s.contains("secret s")).count(), 1, "{twice:?}");
    assert!(twice.contains(&"kubectl get configmap c -n ml".to_owned()), "{twice:?}");

    // Every diagnosis ends with the generic steps, names filled in.
    for steps in [&secret, &config, &csi, &timeout] {
        assert!(steps.contains(&"kubectl get pod llama-2 -n ml -o jsonpath='{.spec.volumes}'".to_owned()), "{steps:?}");
    }
}

/// A step that needs TensorFusion's CRDs, namespace, labels or annotations.
fn is_tensorfusion_step(step: &str) -> bool {
    ["gpupools", "gpunodes", "gpunodeclaims", "gpus ", "gpuresourcequotas", "tensorfusion", "tensor-fusion"]
        .iter()
        .any(|m| step.contains(m))
}

#[test]
fn tensorfusion_steps_only_for_tensorfusion_evidence() {
    // No case is TensorFusion's: none gets a TensorFusion command.
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let records: Vec<EventRecord> = {
            let now = "2026-11-30T06:00:00Z".parse().unwrap();
            Decoder::from_str(case(&text)).reference_time(now).filter_map(Result::ok).collect()
        };
        for d in diagnose(&records) {
            let bad: Vec<_> = d.next_steps.iter().filter(|s| is_tensorfusion_step(s)).collect();
            assert!(bad.is_empty(), "{}: {bad:?}", path.display());
        }
    }
    // Karpenter's expansion failure: NodePools, not GPUPools.
    let karpenter = steps(case(fixture!("013-karpenter-incompatible-nodepool-gpu.txt")));
    assert!(karpenter.iter().any(|s| s.contains("nodepools")), "{karpenter:?}");
    // TensorFusion's own quota and expansion errors keep their commands.
    let tf = |reason: &str, message: &str| {
        steps(&format!("{DESCRIBE_ML_POD}  Warning  {reason}  2m  tensor-fusion-scheduler  {message}\n"))
    };
    let quota = tf(
        "GPUQuotaOrCapacityNotEnough",
        "TensorFusion schedule failed, no enough resource or quotas: quota exceeded in namespace ml for total.max.tflops.request: requested 120, limit 100",
    );
    assert!(quota.contains(&"kubectl get gpuresourcequotas -n ml -o yaml".to_owned()), "{quota:?}");
    assert!(!quota.iter().any(|s| s.contains("clusterqueues")), "{quota:?}");
    let capacity = tf(
        "GPUQuotaOrCapacityNotEnough",
        "TensorFusion schedule failed, no enough resource or quotas: 0/3 nodes are available",
    );
    assert!(capacity.contains(&"kubectl get gpupools -o wide".to_owned()), "{capacity:?}");
    // A ResourceQuota of a plain cluster: no GPUResourceQuota.
    let plain = steps(case(fixture!("019-gpu-manager-exceedsgpuquota.txt")));
    assert!(plain.iter().any(|s| s.contains("resourcequota")) && !plain.iter().any(|s| is_tensorfusion_step(s)));
    // Karpenter's nomination: NodeClaims only; cluster-autoscaler: its status ConfigMap.
    let nominated = "  Normal  Nominated  1m  karpenter  Pod should schedule on: nodeclaim/gpu-x\n";
    let nominated = steps(nominated);
    assert!(nominated.contains(&"kubectl get nodeclaims -o wide".to_owned()), "{nominated:?}");
    assert!(!nominated.iter().any(|s| is_tensorfusion_step(s)), "{nominated:?}");
    let scale_up = steps(
        "  Normal  TriggeredScaleUp  1m  cluster-autoscaler  pod triggered scale-up: [{gpu-pool 0->1 (max: 4)}]\n",
    );
    assert!(scale_up.iter().any(|s| s.contains("cluster-autoscaler-status")), "{scale_up:?}");
    assert!(!scale_up.iter().any(|s| s.contains("nodeclaims")), "{scale_up:?}");
}

#[test]
fn dra_and_device_faults_are_not_the_device_plugin() {
    let mentions = |steps: &[String], what: &str| steps.iter().any(|s| s.contains(what));
    let dra = case(fixture!("031-dra-prepare-deadline-exceeded.txt"));
    let (phase, cause, confidence) = single(dra);
    assert_eq!((phase, cause, confidence), (Phase::ContainerCreating, Cause::DraPrepareFailed, Confidence::High));
    let dra = steps(dra);
    assert!(mentions(&dra, "kubectl get resourceclaims") && mentions(&dra, "resourceslices"), "{dra:?}");
    assert!(!mentions(&dra, "device-plugin"), "{dra:?}");
    let named = steps(&format!(
        "{DESCRIBE_ML_POD}  Warning  FailedPrepareDynamicResources  1m  kubelet  Failed to prepare dynamic resources: NodePrepareResources failed for claim ml/llama-gpu-claim: rpc error: code = Unavailable desc = connection refused\n"
    ));
    assert_eq!(named[0], "kubectl describe resourceclaim llama-gpu-claim -n ml", "{named:?}");

    let ascend = case(fixture!("049-ascend-npu-device-fault-event.txt"));
    assert_eq!(single(ascend).1, Cause::DeviceFault);
    let ascend = steps(ascend);
    assert_eq!(ascend[0], "kubectl describe node node-a", "the faulty NPU's node, from the note: {ascend:?}");
    assert!(
        mentions(&ascend, "npu-smi") && !mentions(&ascend, "nvidia-smi") && !mentions(&ascend, "xid"),
        "{ascend:?}"
    );

    for xid in [
        "LAST SEEN   TYPE      REASON             OBJECT       MESSAGE\n2m          Warning   XidCriticalError   node/gpu-3   Xid=79 on Device=GPU-3f2a; GPU has fallen off the bus\n",
        "LAST SEEN   TYPE      REASON     OBJECT       MESSAGE\n2m          Warning   GPUError   node/gpu-3   NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, DBE (double bit error) ECC error\n",
    ] {
        let diagnoses = diagnose(&records(xid));
        let [d]: [_; 1] = diagnoses.try_into().unwrap();
        assert_eq!((d.phase, d.cause), (Phase::Running, Cause::DeviceFault));
        assert_eq!(d.next_steps[0], "kubectl describe node gpu-3", "{:?}", d.next_steps);
        assert!(mentions(&d.next_steps, "grep -i xid") && !mentions(&d.next_steps, "npu-smi"), "{:?}", d.next_steps);
    }
    // Xid inside a word is not an Xid.
    let oxide = "LAST SEEN   TYPE      REASON     OBJECT       MESSAGE\n2m          Warning   Corrosion   node/gpu-3   oxidezone sensor warning\n";
    assert!(diagnose(&records(oxide)).iter().all(|d| d.cause != Cause::DeviceFault));
}

#[test]
fn a_cgroup_oom_is_the_container_limit_and_a_system_oom_the_node() {
    let node_event = |reason: &str, message: &str| {
        let text = format!(
            "LAST SEEN   TYPE      REASON   OBJECT       MESSAGE\n5m          Warning   {reason}   node/gpu-1   {message}\n"
        );
        let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
        d
    };
    let cgroup = node_event(
        "OOMKilling",
        "Memory cgroup out of memory: Killed process 4242 (python3) total-vm:26712340kB, anon-rss:15643924kB, file-rss:0kB, shmem-rss:4kB, UID:0 pgtables:31560kB oom_score_adj:-997",
    );
    assert_eq!((cgroup.cause, cgroup.confidence), (Cause::ContainerOom, Confidence::High));
    assert!(cgroup.next_steps.contains(&"kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-1".to_owned()));
    assert!(!cgroup.next_steps.iter().any(|s| s.contains("top pods")), "{:?}", cgroup.next_steps);

    let with_memcg = node_event(
        "OOMKilling",
        "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=1f,mems_allowed=0,oom_memcg=/kubepods/burstable/pod0b6f9c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f/1f,task_memcg=/kubepods/burstable/pod0b6f9c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f/1f,task=python,pid=7,uid=0\nMemory cgroup out of memory: Killed process 7 (python) total-vm:1kB, anon-rss:1kB, file-rss:0kB",
    );
    assert_eq!(with_memcg.cause, Cause::ContainerOom);
    assert!(
        with_memcg.next_steps[0].contains("@.metadata.uid==\"0b6f9c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f\""),
        "{:?}",
        with_memcg.next_steps
    );

    let system = node_event(
        "OOMKilling",
        "Out of memory: Killed process 12345 (python) total-vm:1kB, anon-rss:1kB, file-rss:0kB",
    );
    assert_eq!((system.cause, system.confidence), (Cause::HostOom, Confidence::High));
    assert!(system.next_steps.contains(&"kubectl describe node gpu-1".to_owned()), "{:?}", system.next_steps);
    let kubelet = node_event("SystemOOM", "System OOM encountered, victim process: python, pid: 4567");
    assert_eq!(kubelet.cause, Cause::HostOom);
    // The bare kernel line does not say which: the node, with less confidence.
    let bare = node_event("OOMKilling", "Killed process 1 (java) total-vm:1kB, anon-rss:1kB, file-rss:0kB");
    assert_eq!((bare.cause, bare.confidence), (Cause::HostOom, Confidence::Medium));

    // A Pod's own OOM (status, or the runtime's container init OOM): its limits and last state.
    let init = case(fixture!("041-ocp-dgx-a100-container-init-oom.txt"));
    let init = steps(init);
    assert!(init.iter().any(|s| s.contains(".resources.limits")), "{init:?}");
}

#[test]
fn a_mixed_fit_error_names_the_cause_a_person_would() {
    let fit = |reasons: &str| {
        let text = format!("  Warning  FailedScheduling  2m  default-scheduler  {reasons}\n");
        single(&text).1
    };
    use Cause::*;
    let cases: &[(&str, Cause)] = &[
        // The nodes the Pod may run on are short of GPUs; the tainted ones are not candidates.
        (
            "0/5 nodes are available: 2 Insufficient nvidia.com/gpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
            InsufficientGpu,
        ),
        (
            "0/5 nodes are available: 1 Insufficient nvidia.com/gpu, 4 node(s) had untolerated taint {dedicated: training}.",
            InsufficientGpu,
        ),
        // Every node is excluded by taints.
        ("0/5 nodes are available: 5 node(s) had untolerated taint {nvidia.com/gpu: present}.", UntoleratedTaint),
        // GPU nodes tainted, the others not selected: the toleration is missing.
        (
            "0/5 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: present}, 3 node(s) didn't match Pod's node affinity/selector.",
            UntoleratedTaint,
        ),
        // Only the control plane is tainted: the selector matches no worker.
        (
            "0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 node(s) didn't match Pod's node affinity/selector.",
            NodeAffinityMismatch,
        ),
        (
            "0/5 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) didn't match Pod's node affinity/selector.",
            NodeAffinityMismatch,
        ),
        // Neither says which nodes have GPUs: the reason on more nodes.
        (
            "0/5 nodes are available: 2 node(s) had untolerated taint {dedicated: ml}, 3 node(s) didn't match Pod's node affinity/selector.",
            NodeAffinityMismatch,
        ),
        (
            "0/5 nodes are available: 3 node(s) had untolerated taint {dedicated: ml}, 2 node(s) didn't match Pod's node affinity/selector.",
            UntoleratedTaint,
        ),
        // Nodes with a GPU to spare lack memory.
        ("0/5 nodes are available: 1 Insufficient nvidia.com/gpu, 4 Insufficient memory.", InsufficientResources),
        (
            "0/8 nodes are available: 1 Insufficient cpu, 3 Insufficient memory, 8 Insufficient nvidia.com/gpu.",
            InsufficientGpu,
        ),
        ("0/3 nodes are available: 3 Insufficient cpu.", InsufficientResources),
        (
            "0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 node(s) had untolerated taint {dedicated: ml}.",
            VolumeMountFailed,
        ),
        (
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
            VolumeMountFailed,
        ),
        ("0/2 nodes are available: 2 ExceedsGPUQuota, 1 Insufficient nvidia.com/gpu.", GpuQuotaExceeded),
    ];
    for (message, want) in cases {
        assert_eq!(fit(message), *want, "{message}");
    }
}

#[test]
fn a_pod_past_its_scheduling_problem_is_not_stuck_on_it() {
    let history = format!(
        "{DESCRIBE_ML_POD}  Warning  FailedScheduling  12m  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n  Normal   Nominated         11m  karpenter          Pod should schedule on: nodeclaim/gpu-x\n  Normal   Scheduled         9m   default-scheduler  Successfully assigned ml/llama-2 to gpu-x\n"
    );
    assert!(diagnose(&records(&history)).is_empty(), "scheduled after the shortage");
    // What happens after scheduling is the diagnosis.
    let mount = format!(
        "{history}  Warning  FailedMount       2m (x4 over 8m)  kubelet  MountVolume.SetUp failed for volume \"hf\" : secret \"hf\" not found\n"
    );
    let [d]: [_; 1] = diagnose(&records(&mount)).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::ContainerCreating, Cause::VolumeMountFailed));
}

#[test]
fn rows_without_a_type_or_an_object_are_read_with_the_catalogue() {
    // An e2e dump prints no type: FailedPlacement is only ever a Warning, and regards a DaemonSet.
    let e2e = case(fixture!("029-e2e-failedplacement-daemonset-controller.txt"));
    let [d]: [_; 1] = diagnose(&records(e2e)).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::Pending, Cause::InsufficientResources), "cpu, requested 150 of 50 free");
    assert_eq!(d.kind().as_deref(), Some("DaemonSet"));
    // A Kueue Workload's Events section: steps for a Workload, not a Pod.
    let kueue = case(fixture!("047-xpk-kueue-admission-pending-tpu.txt"));
    let kueue = steps(kueue);
    assert!(kueue.contains(&"kubectl describe workload NAME".to_owned()), "{kueue:?}");
    assert!(kueue.iter().any(|s| s.contains("clusterqueues")), "{kueue:?}");
    // The Ascend fault names its node: one way to describe it, not two.
    let ascend = steps(case(fixture!("049-ascend-npu-device-fault-event.txt")));
    assert_eq!(ascend.iter().filter(|s| s.starts_with("kubectl describe node")).count(), 1, "{ascend:?}");
}

#[test]
fn a_failing_container_is_named_in_the_phase_and_the_steps() {
    let paste = "Name:         trainer-0\nNamespace:    ml\nInit Containers:\n  model-download:\n    Image:         busybox\n    State:         Waiting\n      Reason:      CrashLoopBackOff\n    Last State:    Terminated\n      Reason:      Error\nContainers:\n  main:\n    State:         Waiting\n      Reason:      PodInitializing\nEvents:\n  Type     Reason   Age               From     Message\n  ----     ------   ----              ----     -------\n  Warning  BackOff  2m (x25 over 9m)  kubelet  Back-off restarting failed container model-download in pod trainer-0_ml(5f0c)\n";
    let [d]: [_; 1] = diagnose(&records(paste)).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::InitCrashLoopBackOff, Cause::CrashLoop));
    assert_eq!(d.next_steps[0], "kubectl logs trainer-0 -n ml -c model-download --previous");
    assert!(
        d.next_steps[1].contains(".status.initContainerStatuses[?(@.name==\"model-download\")].lastState"),
        "{:?}",
        d.next_steps
    );
    assert!(!d.next_steps.iter().any(|s| s.contains("--all-containers")), "{:?}", d.next_steps);
    // Events alone: the back-off note names the container.
    let sample = diagnose(&records(include_str!("../../gpu-events-cli/sample/events.yaml")));
    let infer = sample.iter().find(|d| d.object.name.as_deref() == Some("llama-infer-6b7d9")).unwrap();
    assert_eq!(infer.next_steps[0], "kubectl logs llama-infer-6b7d9 -n ml -c server --previous");
}

#[test]
fn the_surest_record_of_the_cause_sets_the_confidence() {
    let pull = "LAST SEEN   TYPE      REASON    OBJECT     MESSAGE\n2m          Warning   Failed    pod/sd-0   Failed to pull image \"nvcr.io/nvidia/pytorch:24.05-py3\": rpc error: code = Unknown desc = failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.05-py3\": failed to resolve reference \"nvcr.io/nvidia/pytorch:24.05-py3\": pulling from host nvcr.io failed with status code [manifests 24.05-py3]: 401 Unauthorized\n90s         Warning   Failed    pod/sd-0   Error: ImagePullBackOff\n";
    assert_eq!(single(pull), (Phase::ContainerCreating, Cause::ImagePullFailed, Confidence::High));
}

#[test]
fn a_kata_cold_plug_failure_names_the_kubelet_api_it_needs() {
    let kata = case(fixture!("033-kata-cc-combined-from-similar-events.txt"));
    let steps = steps(kata);
    assert!(steps[0].contains("KubeletPodResourcesGet"), "{steps:?}");
}

#[test]
fn a_missing_configmap_or_secret_in_the_container_config_is_named() {
    let failed = |message: &str| {
        let text = format!("{DESCRIBE_ML_POD}  Warning  Failed  1m (x7 over 3m)  kubelet  {message}\n");
        let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
        assert_eq!((d.phase, d.cause), (Phase::ContainerCreating, Cause::ConfigNotFound), "{message}");
        d.next_steps
    };
    assert_eq!(failed("Error: configmap \"model-config\" not found")[0], "kubectl get configmap model-config -n ml");
    assert_eq!(failed("Error: secret \"hf-token\" not found")[0], "kubectl get secret hf-token -n ml");
    let key = failed("Error: couldn't find key HF_TOKEN in Secret ml/hf-token");
    assert_eq!(key[0], "kubectl describe secret hf-token -n ml   # is there a key HF_TOKEN?");
    // A pasted container state says only the reason.
    let state = "Name:         llama-2\nNamespace:    ml\nContainers:\n  main:\n    State:          Waiting\n      Reason:       CreateContainerConfigError\nEvents:       <none>\n";
    assert_eq!(single(state).1, Cause::ConfigNotFound);
    // A runtime error is not a config error.
    let runtime = format!(
        "{DESCRIBE_ML_POD}  Warning  Failed  1m  kubelet  Error: failed to create containerd task: context deadline exceeded\n"
    );
    assert_ne!(single(&runtime).1, Cause::ConfigNotFound);
}

#[test]
fn a_resource_quota_that_refuses_gpus_is_a_gpu_quota() {
    let quota = |resource: &str| {
        let text = format!(
            "Name:         llama-rs\nNamespace:    ml\nKind:         ReplicaSet\nEvents:\n  Type     Reason        Age   From                   Message\n  ----     ------        ----  ----                   -------\n  Warning  FailedCreate  1m    replicaset-controller  Error creating: pods \"llama-rs-x\" is forbidden: exceeded quota: team-quota, requested: {resource}=1, used: {resource}=8, limited: {resource}=8\n"
        );
        let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
        d
    };
    let gpu = quota("requests.nvidia.com/gpu");
    assert_eq!((gpu.phase, gpu.cause), (Phase::Pending, Cause::GpuQuotaExceeded));
    assert_eq!(gpu.next_steps[0], "kubectl describe resourcequota team-quota -n ml");
    assert!(!gpu.next_steps.iter().any(|s| s.contains("gpuresourcequotas")), "{:?}", gpu.next_steps);
    assert_ne!(quota("requests.cpu").cause, Cause::GpuQuotaExceeded);
}

#[test]
fn high_confidence_needs_typed_details_and_no_contradiction() {
    // Known by its reason alone (a FailedMount the grammar does not read): at most Medium.
    let reason_only = "  Warning  FailedAttachVolume  1m  attachdetach-controller  something new happened\n";
    let (_, _, confidence) = single(reason_only);
    assert!(confidence <= Confidence::Medium, "{confidence:?}");
    // A typed FitError alone: High (some node is not short, so the GPUs are advertised).
    let fit = "  Warning  FailedScheduling  1m  default-scheduler  0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient nvidia.com/gpu.\n";
    assert_eq!(single(fit), (Phase::Pending, Cause::InsufficientGpu, Confidence::High));
}

#[test]
fn diagnoses_read_back_from_their_json() {
    let sample = include_str!("../../gpu-events-cli/sample/events.yaml");
    let diagnoses = diagnose(&records(sample));
    assert!(diagnoses.len() > 3);
    let json = serde_json::to_string(&diagnoses).unwrap();
    let back: Vec<gpu_events_core::diagnose::Diagnosis> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, diagnoses);
    let cause: Cause = serde_json::from_str("\"insufficient-gpu\"").unwrap();
    assert_eq!(cause, Cause::InsufficientGpu);
    assert!(serde_json::from_str::<Cause>("\"no-such-cause\"").is_err());
}

#[test]
fn root_causes_over_the_latest_event() {
    // An admission failure, then the kubelet's fallout for the Pod it rejected.
    let admission = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected\n  Warning  FailedMount  1m  kubelet  MountVolume.SetUp failed for volume \"kube-api-access-x\" : object \"ml\"/\"kube-root-ca.crt\" not registered\n";
    let (phase, cause, _) = single(admission);
    assert_eq!((phase, cause), (Phase::Failed, Cause::DevicePluginUnavailable));

    // New NodeClaims nominated one after another: churn, nodes never ready.
    let churn = "  Warning  FailedScheduling  30m  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n  Normal   Nominated  29m  karpenter  Pod should schedule on: nodeclaim/gpu-a\n  Normal   Nominated  20m  karpenter  Pod should schedule on: nodeclaim/gpu-b\n  Normal   Nominated  10m  karpenter  Pod should schedule on: nodeclaim/gpu-c\n";
    assert_eq!(single(churn).1, Cause::NodeNeverReady);
    assert!(single(churn).2 < Confidence::High);

    // HAMi's resource names under default-scheduler.
    let hami = "  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpumem.\n";
    assert_eq!(single(hami).1, Cause::WrongScheduler);
    let hami_scheduler = hami.replace("default-scheduler", "hami-scheduler");
    assert_eq!(single(&hami_scheduler).1, Cause::InsufficientGpu);

    // A MIG profile nobody offers; a DRA claim nothing satisfies.
    let mig = "  Warning  FailedScheduling  1m  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/mig-3g.40gb.\n";
    assert_eq!(single(mig).1, Cause::MigProfileUnavailable);
    let dra =
        "  Warning  FailedScheduling  1m  default-scheduler  0/2 nodes are available: 2 cannot allocate all claims.\n";
    assert_eq!(single(dra).1, Cause::DraClaimUnsatisfiable);

    // Accelerators beyond NVIDIA and AMD are GPUs too.
    for resource in ["tencent.com/vcuda-core", "huawei.com/Ascend910", "gpu.intel.com/i915"] {
        let text = format!(
            "  Warning  FailedScheduling  1m  default-scheduler  0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient {resource}.\n"
        );
        assert_eq!(single(&text).1, Cause::InsufficientGpu, "{resource}");
        // The only node of the cluster, or every node, has none: nothing advertises it there
        // (corpus 134, 140, 262).
        for alone in [
            format!(
                "  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient {resource}.\n"
            ),
            format!(
                "  Warning  FailedScheduling  1m  default-scheduler  0/2 nodes are available: 2 Insufficient {resource}.\n"
            ),
        ] {
            assert_eq!(single(&alone), (Phase::Pending, Cause::DevicePluginMissing, Confidence::Medium), "{alone}");
        }
        let alone = format!(
            "  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient {resource}.\n"
        );
        // Or another Pod holds all of it (corpus 191): said as the runner-up, with the record.
        let diagnosis = &diagnose(&records(&alone))[0];
        let [runner_up] = diagnosis.also_possible.as_slice() else { panic!("{:?}", diagnosis.also_possible) };
        assert_eq!((runner_up.cause, runner_up.evidence.len()), (Cause::InsufficientGpu, 1));
    }
    // NVIDIA's whole GPUs on one node are as often all taken: no such inference.
    let nvidia =
        "  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n";
    assert_eq!(single(nvidia).1, Cause::InsufficientGpu);
    // But short on every node it may as well be advertised by none: Medium, the plugin the
    // runner-up (corpus 237, 274); with a node that has some to spare elsewhere, High.
    let diagnosis = &diagnose(&records(nvidia))[0];
    assert_eq!(diagnosis.confidence, Confidence::Medium);
    assert_eq!(diagnosis.also_possible[0].cause, Cause::DevicePluginMissing);
    let some = "  Warning  FailedScheduling  1m  default-scheduler  0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient nvidia.com/gpu.\n";
    assert_eq!(single(some), (Phase::Pending, Cause::InsufficientGpu, Confidence::High));
    // HAMi's `node unregistered` on every node: its device plugin registered none (corpus 271);
    // on some nodes beside a shortage on the rest, the shortage (corpus 129).
    let hami = "  Warning  FailedScheduling  1m  hami-scheduler  0/1 nodes are available: 1 node unregistered.\n";
    assert_eq!(single(hami).1, Cause::DevicePluginMissing);
    let hami = "  Warning  FailedScheduling  1m  hami-scheduler  0/3 nodes are available: 2 node unregistered, 1 NodeUnfitPod.\n";
    assert_eq!(single(hami).1, Cause::InsufficientGpu);
    // Another reason beside the shortage: no inference either.
    let mixed = "  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient huawei.com/Ascend910.\n";
    assert_ne!(single(mixed).1, Cause::DevicePluginMissing);
}

// ----- device faults, driver paths, start failures (each from a real text; corpus cases noted) --

#[test]
fn a_device_the_plugin_reports_lost_is_a_device_fault_not_the_plugin() {
    // corpus 107 (kubernetes/kubernetes issue): NVML says the GPU is lost.
    let text = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = Unable to retrieve list of available devices: error creating nvml.Device 5: nvml: GPU is lost, which is unexpected\n";
    assert_eq!(single(text), (Phase::Failed, Cause::DeviceFault, Confidence::High));
    // A plugin that is down is still the plugin.
    let text = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected\n";
    assert_eq!(single(text).1, Cause::DevicePluginUnavailable);
}

#[test]
fn a_probe_that_finds_no_gpu_is_a_device_fault() {
    // corpus 166 (GPU Operator issue): the driver container's startup probe runs nvidia-smi.
    let text = "Warning Unhealthy 2m6s (x41235 over 5d15h) kubelet Startup probe failed: No devices were found\n";
    assert_eq!(single(text), (Phase::Running, Cause::DeviceFault, Confidence::Medium));
    let text = "  Warning  Unhealthy  2m  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503\n";
    assert!(diagnose(&records(text)).iter().all(|d| d.cause != Cause::DeviceFault));
}

#[test]
fn a_missing_driver_directory_is_the_driver_not_a_volume() {
    // corpus 171/172 (GKE): the device plugin mounts the driver's install directory.
    let text = "  Warning  FailedMount  3m (x5 over 10m)  kubelet  MountVolume.SetUp failed for volume \"nvidia\" : hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory\n";
    assert_eq!(single(text), (Phase::ContainerCreating, Cause::CudaDriverMismatch, Confidence::High));
    let text = "  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed for volume \"data\" : hostPath type check failed: /mnt/data is not a directory\n";
    assert_eq!(single(text).1, Cause::VolumeMountFailed);
}

#[test]
fn a_toolkit_hook_that_fails_at_start_is_a_start_failure() {
    // corpus 159 (NVIDIA container toolkit issue): the hook ran and failed on a cgroup mount.
    let text = "  Warning  Failed     18s (x3 over 36s)  kubelet            Error: failed to create containerd task: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: mount error: open failed: /sys/fs/cgroup/devices/kubepods/devices.allow: no such file or directory: unknown\n";
    assert_eq!(single(text).1, Cause::ContainerStartFailed);
}

#[test]
fn other_supported_causes_are_listed_as_also_possible() {
    // Two problems of one Pod in one phase: the newest is the cause, the other is listed.
    let text = "  Warning  FailedMount             5m  kubelet  MountVolume.SetUp failed for volume \"data\" : hostPath type check failed: /mnt/data is not a directory\n  Warning  FailedCreatePodSandBox  1m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!(d.cause, Cause::RuntimeHandlerMissing);
    // The same record's other reading (the toolkit never configured the handler), then the mount.
    let [toolkit, alternative] = d.also_possible.as_slice() else { panic!("{:#?}", d.also_possible) };
    assert_eq!(
        (toolkit.cause, toolkit.evidence[0].reason.as_str()),
        (Cause::NvidiaRuntimeMissing, "FailedCreatePodSandBox")
    );
    assert_eq!((alternative.cause, alternative.confidence), (Cause::VolumeMountFailed, Confidence::Medium));
    assert_eq!(alternative.evidence.len(), 1);
    assert_eq!(alternative.evidence[0].reason, "FailedMount");
    // In JSON as `alsoPossible`, and read back.
    let json = serde_json::to_value(d).unwrap();
    assert_eq!(json["alsoPossible"][1]["cause"], "volume-mount-failed");
    let back: gpu_events_core::diagnose::Diagnosis = serde_json::from_value(json).unwrap();
    assert_eq!(&back, d);
    // The fallout of an admission failure is not an alternative (rule 1).
    let text = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected\n  Warning  FailedMount  1m  kubelet  MountVolume.SetUp failed for volume \"kube-api-access-x\" : object \"default\"/\"kube-root-ca.crt\" not registered\n";
    let diagnoses = diagnose(&records(text));
    assert!(diagnoses[0].also_possible.is_empty(), "{diagnoses:#?}");
}

#[test]
fn a_summary_of_volume_errors_defers_to_the_error_it_sums_up() {
    // corpus 171 (GKE device plugin): the newest FailedMount only says the mount timed out.
    let text = "  Warning  FailedMount  70s (x10 over 5m19s)  kubelet  MountVolume.SetUp failed for volume \"nvidia\" : hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory\n  Warning  FailedMount  60s  kubelet  Unable to attach or mount volumes: unmounted volumes=[nvidia], unattached volumes=[dev nvidia pod-resources default-token-kxwh4 device-plugin]: timed out waiting for the condition\n";
    let (phase, cause, _) = single(text);
    assert_eq!((phase, cause), (Phase::ContainerCreating, Cause::CudaDriverMismatch));
    // Alone, the summary still says a volume is not mounted, as a reason-level reading.
    let text = "  Warning  FailedMount  60s  kubelet  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition\n";
    assert_eq!(single(text).1, Cause::VolumeMountFailed);
    assert_eq!(single(text).2, Confidence::Medium);
}

#[test]
fn a_get_pods_status_is_the_pods_state() {
    // corpus 175 (dcgm-exporter issue): only a `kubectl get pods` table and logs.
    let text = "$ kubectl get pods\nNAME                  READY   STATUS             RESTARTS   AGE\ndcgm-exporter-8k4s5   0/1     CrashLoopBackOff   27         117m\ndcgm-exporter-fwcxb   1/1     Running            0          117m\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!(d.object.name.as_deref(), Some("dcgm-exporter-8k4s5"));
    assert_eq!((d.phase, d.cause), (Phase::CrashLoopBackOff, Cause::CrashLoop));
}

#[test]
fn hami_codes_gang_summaries_and_queue_quotas_name_their_cause() {
    // corpus 131 (HAMi issue): the sharing mode asked for is one the NPU cannot serve.
    let text = "Warning  FilteringFailed   96s (x13 over 98s)  hami-scheduler  1 nodes ModeNotFit(node-a)\n";
    assert_eq!(single(text).1, Cause::InvalidGpuRequest);
    // corpus 129 (HAMi issue, 2023 spelling): nodes without HAMi-registered GPUs.
    let text = "  Warning  FailedScheduling  39s    4pd-scheduler  0/3 nodes are available: 2 node unregisterd. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..\n";
    assert_eq!(single(text).1, Cause::InsufficientGpu);
    // corpus 102 (Volcano issue, 2019 wording): a gang waiting for its members.
    let text = "  Warning  FailedScheduling  66s   volcano  10/30 tasks in gang unschedulable: job is not ready, 10 minAvailable, 30 Pending.\n";
    assert_eq!(single(text), (Phase::Pending, Cause::GangWaiting, Confidence::Medium));
    // corpus 119 (Volcano issue): the queue's quota refuses the PodGroup.
    let text = "  Normal   Unschedulable  15s (x13 over 28s)  volcano  queue resource quota insufficient\n";
    assert_eq!(single(text).1, Cause::GpuQuotaExceeded);
}

#[test]
fn a_bare_status_defers_to_the_note_of_the_same_reason() {
    // A `get pods` STATUS (a bare UnexpectedAdmissionError) beside the describe's Message of the
    // same failure: the Message decides, the STATUS is no evidence of a cause of its own.
    let text = "\
Message:        Pod Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = error creating nvml.Device 2: nvml: GPU is lost, which is unexpected

$ kubectl get pods
NAME        READY   STATUS                     RESTARTS   AGE
trainer-0   0/1     UnexpectedAdmissionError   0          9s
";
    let (phase, cause, _) = single(text);
    assert_eq!((phase, cause), (Phase::Failed, Cause::DeviceFault));
}

#[test]
fn an_unschedulable_condition_is_the_failed_scheduling_it_mirrors() {
    // Found on a real server: a Pending Pod whose events expired (event TTL 1h) still says why
    // in its PodScheduled condition; `kubectl get pod -o json` alone was "no object".
    let pod = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "train-0", "namespace": "live"},
      "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
        "lastTransitionTime": "2026-11-30T05:00:00Z",
        "message": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod."}]}}"#;
    let records = records(pod);
    let [record] = records.as_slice() else { panic!("{records:#?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert!(record.has_flag(gpu_events_core::Flag::FromStatus));
    assert_eq!(record.details.as_ref().map(|d| d.kind()), Some("fitError"));
    let (phase, cause, _) = single(pod);
    assert_eq!((phase, cause), (Phase::Pending, Cause::InsufficientGpu));
}

#[test]
fn a_failed_scale_up_and_a_gang_of_one() {
    // corpus 156 (GKE): the autoscaler tried for this Pod and the cloud refused.
    let text = "  Warning  FailedScaleUp  2m  cluster-autoscaler  Node scale up in zones us-central1-c associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled.\n";
    assert_eq!(single(text), (Phase::Pending, Cause::NodeExpansionFailed, Confidence::High));
    // corpus 101 (Volcano): a gang whose minAvailable is 1 waits for no other member.
    let text = "  Warning  Unschedulable  69s  volcano  1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.\n";
    assert_eq!(single(text).1, Cause::InsufficientResources);
    let text = "  Warning  Unschedulable  66s  volcano  4/4 tasks in gang unschedulable: pod group is not ready, 4 Pending, 4 minAvailable.\n";
    assert_eq!(single(text).1, Cause::GangWaiting);
}

#[test]
fn a_refused_bind_and_an_uninitialized_node() {
    // corpus 137 (HAMi): the extender refused the bind: the allocation failed, not the fit.
    let text = "  Warning  FailedScheduling  1m  default-scheduler  binding rejected: node node6 has been locked within 5 minutes\n";
    assert_eq!(single(text).1, Cause::GpuAllocationFailed);
    // corpus 151 (Karpenter): the launched node never initialized.
    let text = "  Warning  FailedScheduling  1m  karpenter  Failed to schedule pod, would schedule against uninitialized nodeclaim/pool-a, node/node-a\n";
    assert_eq!(single(text).1, Cause::NodeNeverReady);
}

/// Every cause reads back from its JSON id, and a hand-made diagnosis (as a user's tool or test would write it)
/// round-trips through serde with its evidence's reasons resolved again.
#[test]
fn every_cause_and_a_hand_made_diagnosis_round_trip() {
    for cause in Cause::ALL {
        let json = serde_json::to_value(cause).unwrap();
        assert_eq!(json, cause.id());
        assert_eq!(serde_json::from_value::<Cause>(json).unwrap(), *cause);
    }
    let karpenter = gpu_events_core::EventRecord::builder("FailedScheduling")
        .reporting_controller("karpenter")
        .note("Failed to schedule pod, did not tolerate taint (taint=a:NoSchedule)")
        .regarding(gpu_events_core::ObjectReference::new("Pod", Some("ml"), "x"))
        .build();
    assert_ne!(karpenter.reason, gpu_events_core::ReasonName::parse("FailedScheduling"), "not the primary row");
    let json = serde_json::json!({
        "object": {"kind": "Pod", "namespace": "ml", "name": "x"},
        "phase": "Pending", "cause": "untolerated-taint", "confidence": "medium",
        "evidence": [serde_json::to_value(&karpenter).unwrap()],
        "nextSteps": ["kubectl describe pod x -n ml"]
    });
    let diagnosis: gpu_events_core::diagnose::Diagnosis = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(diagnosis.cause, Cause::UntoleratedTaint);
    assert_eq!(diagnosis.evidence[0].reason, karpenter.reason, "Karpenter's row again, not kube-scheduler's");
    assert_eq!(serde_json::to_value(&diagnosis).unwrap(), json);
}

#[test]
fn a_waiting_containers_runtime_message_names_the_runtime_cause() {
    // corpus 160 in `-o json` form: RunContainerError's message is the runtime's error chain.
    let pod = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "gpu-0", "namespace": "edge"},
      "status": {"phase": "Pending", "containerStatuses": [{"name": "main", "restartCount": 1,
        "state": {"waiting": {"reason": "RunContainerError",
          "message": "failed to create task for container: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=tegra: unknown"}}}]}}"#;
    let records = records(pod);
    let [record] = records.as_slice() else { panic!("{records:#?}") };
    assert!(record.note.ends_with("unresolvable CDI devices nvidia.com/gpu=tegra: unknown"), "{}", record.note);
    assert_eq!(single(pod).1, Cause::CdiDeviceUnresolvable);
}

#[test]
fn a_claim_nominated_again_and_again_never_became_ready() {
    // corpus 151 (Karpenter on Bottlerocket NVIDIA): 43 nominations of one NodeClaim.
    let text = "43x Nominated: Pod should schedule on: nodeclaim/pool-a, node/node-a (train-0.180819b84ef9dc25)\n";
    assert_eq!(single(text), (Phase::Pending, Cause::NodeNeverReady, Confidence::Medium));
    let once = "  Normal  Nominated  1m  karpenter  Pod should schedule on: nodeclaim/pool-a\n";
    assert_eq!(single(once).1, Cause::NodeExpansionPending);
}

#[test]
fn a_plugin_that_answers_with_its_own_error_is_not_high_on_unavailable() {
    // corpus 116 (Volcano gpushare plugin): the plugin answered; its words are the evidence. Its
    // Allocate refused the devices chosen for the Pod: an allocation that failed.
    let text = "  Warning  UnexpectedAdmissionError  1m  kubelet  Allocate failed due to rpc error: code = Unknown desc = failed to find gpu id, which is unexpected\n";
    assert_eq!(single(text), (Phase::Failed, Cause::GpuAllocationFailed, Confidence::Medium));
    let diagnosis = &diagnose(&records(text))[0];
    assert_eq!(diagnosis.also_possible.first().map(|a| a.cause), Some(Cause::DevicePluginUnavailable));
    // GetPreferredAllocation's error is the plugin's own state (corpus 259).
    let preferred = "  Warning  UnexpectedAdmissionError  1m  kubelet  Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = Unable to retrieve list of available devices: error creating nvml.Device 5: nvml: Insufficient Permissions, which is unexpected\n";
    assert_eq!(single(preferred), (Phase::Failed, Cause::DevicePluginUnavailable, Confidence::Medium));
    let down = "  Warning  UnexpectedAdmissionError  1m  kubelet  Allocate failed due to rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix /var/lib/kubelet/device-plugins/nvidia.sock: connect: connection refused\", which is unexpected\n";
    assert_eq!(single(down), (Phase::Failed, Cause::DevicePluginUnavailable, Confidence::High));
}

#[test]
fn a_message_quoted_without_its_reason_is_at_most_medium() {
    // Rule 14: an issue title or a sentence gives the message, not the Pod's other events.
    let quoted = "the pod is stuck with `0/4 nodes are available: 4 Insufficient nvidia.com/gpu.` any idea?\n";
    assert_eq!(single(quoted), (Phase::Pending, Cause::InsufficientGpu, Confidence::Medium));
    let row = "  Warning  FailedScheduling  1m  default-scheduler  0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 3 Insufficient nvidia.com/gpu.\n";
    assert_eq!(single(row).2, Confidence::High);
}

#[test]
fn a_jobs_pod_group_pending_reads_as_the_pod_groups_own_condition() {
    // corpus 108 (Volcano): vc-controller-manager copies the PodGroup's condition onto the Job.
    let text = "  Warning  PodGroupPending  7m  vc-controller-manager  PodGroup default:job-a unschedule,reason: 4/4 tasks in gang unschedulable: pod group is not ready, 4 Pending, 4 minAvailable\n";
    assert_eq!(single(text).0, Phase::Pending);
    assert_eq!(single(text).1, Cause::GangWaiting);
    let one = text.replace("4/4", "1/1").replace("4 Pending, 4 minAvailable", "1 Pending, 1 minAvailable");
    assert_eq!(single(&one).1, Cause::InsufficientResources);
}

#[test]
fn on_a_node_a_gpu_fault_outranks_a_later_oom_kill() {
    // Found by a new user's paste: an Xid 79 on the node, then a container's cgroup OOM kill.
    let text = "LAST SEEN   TYPE      REASON             OBJECT        MESSAGE\n20m         Warning   XidCriticalError   node/node-c   Xid=79 GPU has fallen off the bus\n2m          Warning   OOMKilling         node/node-c   Memory cgroup out of memory: Killed process 4242 (python) total-vm:100kB, anon-rss:10kB, file-rss:0kB, shmem-rss:0kB\n";
    assert_eq!(single(text).1, Cause::DeviceFault);
}

#[test]
fn the_shortage_a_scale_up_answers_is_in_the_evidence() {
    // Found by a new user's paste: FailedScheduling x93, then NotTriggerScaleUp.
    let text = "  Warning  FailedScheduling   5m (x93 over 2h)  default-scheduler   0/5 nodes are available: 5 Insufficient nvidia.com/gpu.\n  Normal   NotTriggerScaleUp  1m                cluster-autoscaler  pod didn't trigger scale-up: 1 max node group size reached\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!(d.cause, Cause::NodeExpansionFailed);
    assert!(d.evidence.iter().any(|e| e.reason == "FailedScheduling"), "{:#?}", d.evidence);
}

#[test]
fn a_node_group_that_cannot_grow_explains_the_shortage_after_it() {
    // 2i2c-org/infrastructure#2185 (a new user's paste): the one group that fits backs off after
    // a failed scale-up; the FitError two minutes later is its consequence.
    let text = "2023-02-08T18:24:48Z [Normal] pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector, 1 in backoff after failed scale-up
2023-02-08T18:27:02Z [Warning] 0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.
";
    let read = records(text);
    assert_eq!(read[1].last_timestamp.map(|t| t.to_rfc3339()), Some("2023-02-08T18:27:02+00:00".to_owned()));
    assert_eq!(single(text).1, Cause::NodeExpansionFailed);
    // No group fits the Pod at all: the autoscaler sums up the FitError, whose shortage it is
    // (corpus 144).
    let text = "  Warning  FailedScheduling   2m  default-scheduler   0/3 nodes are available: 3 Insufficient memory.
  Normal   NotTriggerScaleUp  1m  cluster-autoscaler  pod didn't trigger scale-up: 2 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector
";
    assert_eq!(single(text).1, Cause::InsufficientResources);
}

#[test]
fn a_pod_seen_waiting_takes_its_groups_cause() {
    // corpus 101/108 (Volcano): the Pods of a stuck gang have no events of their own; a `get
    // pods` row shows them Pending. The PodGroup's cause is theirs (rule 16), at most Medium.
    let text = "$ kubectl get pods\nNAME            READY   STATUS    RESTARTS   AGE\ntrain-worker-0   0/1     Pending   0          5m\nother-0          0/1     Pending   0          5m\n$ kubectl describe pg train\nEvents:\n  Type     Reason         Age   From     Message\n  ----     ------         ----  ----     -------\n  Warning  Unschedulable  69s   volcano  1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.\n";
    let diagnoses = diagnose(&records(text));
    let of = |name: &str| diagnoses.iter().find(|d| d.object.name.as_deref() == Some(name)).unwrap();
    let group = of("train");
    assert_eq!((group.cause, group.kind().as_deref()), (Cause::InsufficientResources, Some("PodGroup")));
    let member = of("train-worker-0");
    assert_eq!(
        (member.phase, member.cause, member.confidence),
        (Phase::Pending, Cause::InsufficientResources, Confidence::Medium)
    );
    assert_eq!(member.evidence[0].reason, "Unschedulable", "the group's event leads the evidence");
    // A Pod the group's name does not cover stays unknown, and is still seen waiting.
    let other = of("other-0");
    assert_eq!((other.phase, other.cause, other.confidence), (Phase::Pending, Cause::Unknown, Confidence::Low));
    // A Pod seen waiting beside the one unnamed group is its member.
    let text = "NAME      READY   STATUS    RESTARTS   AGE\nsolo-0    0/1     Pending   0          5m\n\n  Normal   Unschedulable  15s (x13 over 28s)  volcano  queue resource quota insufficient\n";
    let diagnoses = diagnose(&records(text));
    assert_eq!(diagnoses.len(), 2, "the Pod and its unnamed PodGroup: {diagnoses:#?}");
    assert!(diagnoses.iter().all(|d| d.cause == Cause::GpuQuotaExceeded), "{diagnoses:#?}");
}

#[test]
fn an_init_containers_crash_loop_leaves_the_pod_pending() {
    let phase_of = |text: &str| {
        let diagnoses = diagnose(&records(text));
        let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
        (d.phase, d.cause, d.next_steps.clone())
    };
    // corpus 214: `get pods` says Init:CrashLoopBackOff without naming the container.
    let (phase, cause, _) = phase_of(
        "NAME                          READY   STATUS                  RESTARTS       AGE\nnvidia-cuda-validator-q6m4x   0/1     Init:CrashLoopBackOff   5 (115s ago)   4m51s\n",
    );
    assert_eq!((phase, cause), (Phase::InitCrashLoopBackOff, Cause::CrashLoop));
    // corpus 213: a describe pasted from its middle (`Controlled By:`, `Init Containers:`).
    let (phase, ..) = phase_of(
        "Controlled By:  DaemonSet/nvidia-driver-installer\nInit Containers:\n  nvidia-driver-installer:\n    Image:          gke-nvidia-installer:fixed\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n",
    );
    assert_eq!(phase, Phase::InitCrashLoopBackOff);
    // corpus 184: the GPU Operator's validator runs `cuda-validation` as an init container; the
    // back-off note names only the container.
    let (phase, cause, steps) = phase_of(
        "  Warning  BackOff  9s (x7 over 73s)  kubelet  Back-off restarting failed container cuda-validation in pod nvidia-cuda-validator-h7h8p_gpu-operator(e5d64f72-86c8-4c90-936a-aa59a005abba)\n",
    );
    assert_eq!((phase, cause), (Phase::InitCrashLoopBackOff, Cause::CrashLoop));
    assert!(steps.iter().any(|s| s.contains("initContainerStatuses")), "{steps:#?}");
    // Another container's back-off is the Pod's own crash loop.
    let (phase, ..) = phase_of(
        "  Warning  BackOff  9s (x7 over 73s)  kubelet  Back-off restarting failed container main in pod train-0_ml(e5d64f72-86c8-4c90-936a-aa59a005abba)\n",
    );
    assert_eq!(phase, Phase::CrashLoopBackOff);
}

#[test]
fn a_kai_note_names_a_cause_only_by_its_histogram() {
    // corpus 110: KAI's bare `Unable to schedule pod` says nothing of GPUs.
    let bare = "  Warning  Unschedulable  2m11s (x599 over 12m)  kai-scheduler  Unable to schedule pod\n";
    assert_eq!(single(bare).1, Cause::Unknown);
    let gpus = "  Warning  Unschedulable  1m  kai-scheduler  no nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.\n";
    assert_eq!(single(gpus).1, Cause::InsufficientGpu);
    let cpu = "  Warning  Unschedulable  1m  kai-scheduler  no nodes with enough resources were found: 2 node(s) didn't have enough resources: CPU cores.\n";
    assert_eq!(single(cpu).1, Cause::InsufficientResources);
}

#[test]
fn a_gang_with_no_pods_yet_waits_on_its_queue() {
    // corpus 217 (and 119): `0/0 tasks` means Volcano created no Pod yet; the queue's quota
    // that keeps the PodGroup from being enqueued is the cause, though the gang line is newer.
    let text = "  Normal   Unschedulable  15s  volcano  queue resource quota insufficient\n  Warning  Unschedulable  15s  volcano  0/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable\n";
    assert_eq!(single(text).1, Cause::GpuQuotaExceeded);
}

#[test]
fn a_row_without_its_message_does_not_outweigh_one_whose_note_names_a_cause() {
    // NVIDIA/k8s-device-plugin#245 (a new user's paste): the scale-up row was cut before its message.
    let text = "  Warning  FailedScheduling   10h  default-scheduler   0/6 nodes are available: 6 Insufficient nvidia.com/gpu.\n  Normal   NotTriggerScaleUp  1s\n";
    assert_eq!(single(text).1, Cause::InsufficientGpu);
}

#[test]
fn a_container_the_runtime_could_not_start_is_a_start_failure() {
    // Azure/aks-engine (corpus 211): a Job's Pod `Status: Failed`, its container terminated
    // `ContainerCannotRun` under the NVIDIA prestart hook's error (cut by the paste).
    let text = "Name:         cuda-vector-add-8hdjn\nNamespace:    default\nStatus:       Failed\nContainers:\n  cuda-vector-add:\n    State:          Terminated\n      Reason:       ContainerCannotRun\n      Message:      OCI runtime create failed: container_linux.go:344: starting container process caused \"running prestart hook 0 caused \\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --co\n";
    let diagnoses = diagnose(&records(text));
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    let d = &diagnoses[0];
    assert_eq!((d.phase, d.cause, d.confidence), (Phase::Failed, Cause::ContainerStartFailed, Confidence::Medium));
    // The state's message is the evidence, not the reader's `container X status: R`.
    assert!(
        d.evidence.iter().any(|r| r.reason == "ContainerCannotRun" && r.note.starts_with("OCI runtime create failed"))
    );
    // A `get pods` STATUS of the kubelet's reason for a failed start says as much on its own.
    let text = "NAME        READY   STATUS              RESTARTS   AGE\ngpu-pod-0   0/1     RunContainerError   1          11s\n";
    assert_eq!(single(text).1, Cause::ContainerStartFailed);
}

#[test]
fn a_runtime_that_failed_to_create_the_container_for_an_unknown_reason_is_a_start_failure() {
    // NVIDIA/gpu-operator on MicroK8s (corpus 201): the spec could not be generated.
    let text = "  Warning  Failed     2m34s   kubelet   Error: failed to generate container \"4f9f5999\" spec: failed to generate spec: path \"/run/nvidia/validations\" is mounted on \"/run\" but it is not a shared mount\n";
    assert_eq!(single(text), (Phase::ContainerCreating, Cause::ContainerStartFailed, Confidence::Medium));
    // An error of no known runtime step stays unknown.
    let text = "  Warning  Failed     2m34s   kubelet   Error: something else went wrong\n";
    assert_eq!(single(text).1, Cause::Unknown);
}

#[test]
fn a_container_state_pasted_out_of_a_pods_yaml_is_its_status() {
    // NVIDIA/gpu-operator#1518 (corpus 204): the state at its own depth between prose lines,
    // its message a folded scalar.
    let text = "in the validator pod the toolkit-validation container fails with the following initContainerStatus:\n          exitCode: 128\n          reason: StartError\n          message: >-\n            failed to create containerd task: failed to create shim task: OCI\n            runtime create failed: error running hook #0: error\n            running hook: exit status 1, stdout: , stderr:\n            nvidia-container-cli.real: mount error: file creation failed\n\nTo Reproduce\n";
    let read = records(text);
    let status: Vec<_> = read.iter().filter(|r| r.reason == "StartError").collect();
    assert_eq!(status.len(), 1, "{read:#?}");
    assert!(status[0].has_flag(gpu_events_core::Flag::FromStatus));
    assert!(status[0].note.ends_with("OCI runtime create failed: error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli.real: mount error: file creation failed"), "{}", status[0].note);
    assert_eq!(single(text).1, Cause::ContainerStartFailed);
    // Under its parents, in JSON's order of keys.
    let text = "  lastState:\n    terminated:\n      reason: StartError\n      exitCode: 128\n      message: 'failed to create containerd task: unresolvable CDI devices nvidia.com/gpu=all: unknown'\n";
    assert_eq!(single(text).1, Cause::CdiDeviceUnresolvable);
}

#[test]
fn gpu_operator_steps_only_where_the_gpu_operator_is_in_evidence() {
    let hook = "failed to create containerd task: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown";
    let steps = |name: &str, ns: &str| {
        let text = format!("  Warning  Failed  2m  kubelet  Error: {hook}\n");
        let mut read = records(&text);
        for r in &mut read {
            r.regarding.name = Some(name.to_owned());
            r.regarding.namespace = Some(ns.to_owned());
        }
        let diagnoses = diagnose(&read);
        assert_eq!(diagnoses[0].cause, Cause::CudaDriverMismatch);
        diagnoses[0].next_steps.join("\n")
    };
    // An EKS AMI's own driver: no operator, no `-n gpu-operator`.
    let plain = steps("trainer-0", "ml");
    assert!(!plain.contains("gpu-operator"), "{plain}");
    assert!(plain.contains("kubectl get pods -A -o wide | grep -iE 'nvidia-driver|driver-installer'"), "{plain}");
    // The operator's validator: its default namespace, said to be assumed.
    let operator = steps("nvidia-operator-validator-c9wp2", "default");
    assert!(operator.contains("kubectl logs -n gpu-operator -l app=nvidia-driver-daemonset --tail=100   # the GPU Operator's default namespace"), "{operator}");
    // OpenShift's namespace, as the input gives it.
    let openshift = steps("nvidia-cuda-validator-q6m4x", "nvidia-gpu-operator");
    assert!(
        openshift.contains("kubectl logs -n nvidia-gpu-operator -l app=nvidia-driver-daemonset --tail=100"),
        "{openshift}"
    );
    assert!(!openshift.contains("default namespace"), "{openshift}");
}

#[test]
fn an_admission_preemption_that_found_nothing_to_evict_is_a_shortage() {
    // kubernetes/kube-state-metrics#1145 (a new user's paste): a Pod's status, the node at its
    // max-pods. No device plugin in it, so not `device-plugin-unavailable`.
    let text = r#"{
  "message": "Pod Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: pods, q: 1), ]",
  "phase": "Failed",
  "reason": "UnexpectedAdmissionError",
  "startTime": "2020-04-19T19:30:12Z"
}
"#;
    assert_eq!(single(text), (Phase::Failed, Cause::InsufficientResources, Confidence::High));
    // `jq .status` output is the Pod's status, not an Event.
    assert!(records(text).iter().all(|r| r.has_flag(gpu_events_core::Flag::FromStatus)));
    // A GPU among the shortfall is the GPU.
    let text = "  Warning  UnexpectedAdmissionError  104m  kubelet  Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: memory, q: 11067392), (res: nvidia.com/gpu, q: 1), ]\n";
    assert_eq!(single(text).1, Cause::InsufficientGpu);
}

#[test]
fn a_probe_that_keeps_failing_is_its_own_cause() {
    // NVIDIA-AI-Blueprints/rag#31 (a new user's paste): a NIM whose health endpoint never came up.
    let text = "  Warning  Unhealthy  16s (x292 over 50m)  kubelet  Startup probe failed: Get \"http://10.0.0.1:8000/v1/health/ready\": dial tcp 10.0.0.1:8000: connect: connection refused\n";
    assert_eq!(single(text), (Phase::Running, Cause::ProbeFailing, Confidence::High));
    // The kubelet restarting the container for it says the same.
    let text = "  Normal   Killing    1m   kubelet  Container vllm failed liveness probe, will be restarted\n";
    assert_eq!(single(text).1, Cause::ProbeFailing);
    // Readiness restarts nothing: at most Medium.
    let text = "  Warning  Unhealthy  5s (x40 over 10m)  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503\n";
    assert_eq!(single(text), (Phase::Running, Cause::ProbeFailing, Confidence::Medium));
}

#[test]
fn a_fit_error_whose_counts_fall_short_of_its_nodes_is_at_most_medium() {
    // kubernetes/kubernetes#130427 (a new user's paste): cut after "3 node(s) had"; 85 of 216
    // nodes counted, so the two short of storage may not be the story.
    let text = "Warning  FailedScheduling   44s (x2 over 54s)       default-scheduler   0/216 nodes are available: 1 node(s) had untolerated taint {workergroup: agentless}, 10 node(s) had untolerated taint {workergroup: gpu-pool}, 14 node(s) had untolerated taint {workergroup: a100-pool}, 2 node(s) did not have enough free storage, 24 node(s) had untolerated taint {workergroup: ui-pool}, 3 node(s) had\n";
    let diagnoses = diagnose(&records(text));
    assert!(diagnoses.iter().all(|d| d.confidence < Confidence::High), "{diagnoses:#?}");
    // Whole, the same reasons are High.
    let text = "Warning  FailedScheduling   44s  default-scheduler   0/3 nodes are available: 1 node(s) had untolerated taint {workergroup: agentless}, 2 node(s) did not have enough free storage.\n";
    assert_eq!(single(text).2, Confidence::High);
}

#[test]
fn a_vendor_plugins_own_admission_error_is_not_high_on_the_plugin_being_down() {
    // ray-project/kuberay#1414 (a new user's paste): CCE's plugin finds no allocation the
    // scheduler made for an init container; the plugin is up.
    let text = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to pod d65f09ad-cca3-4631-a0a3-d5ba850f8a69 container wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected\n";
    let (phase, _, confidence) = single(text);
    assert_eq!((phase, confidence), (Phase::Failed, Confidence::Medium));
    // The kubelet's own count of devices is still High.
    let text = "  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected\n";
    assert_eq!(single(text).2, Confidence::High);
}

#[test]
fn a_runner_up_is_never_surer_than_the_diagnosis() {
    // Project-HAMi/HAMi#1332 (a new user's paste): two filter failures of different causes.
    let text = "  Warning  FilteringFailed  12m (x15 over 5d2h)     hami-scheduler  5 nodes failed: CardTypeMismatch (node1,node2,node3,node4,node5)\n  Warning  FilteringFailed  93s (x8 over 12d)       hami-scheduler  3 nodes failed: CardInsufficientMemory (node2,node3,node5)\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert!(!d.also_possible.is_empty(), "{d:#?}");
    assert!(d.also_possible.iter().all(|a| a.confidence <= d.confidence), "{d:#?}");
}

#[test]
fn a_node_with_fewer_accelerators_allocatable_than_it_has() {
    // NVIDIA/k8s-device-plugin (corpus 123): 8 GPUs, 7 allocatable after an Xid: a device withheld.
    let text = "I found only 7 GPU cards:\nCapacity:\n  cpu:                        128\n  nvidia.com/gpu:             8\nAllocatable:\n  cpu:                        128\n  nvidia.com/gpu:             7       <=========== here\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!((d.object.kind.as_deref(), d.cause), (Some("Node"), Cause::DeviceFault));
    // None allocatable: no plugin serves them.
    let text = "Name:               gpu-node-1\nRoles:              <none>\nCapacity:\n  nvidia.com/gpu:     4\nAllocatable:\n  nvidia.com/gpu:     0\n";
    let diagnoses = diagnose(&records(text));
    assert_eq!(
        (diagnoses[0].object.name.as_deref(), diagnoses[0].cause),
        (Some("gpu-node-1"), Cause::DevicePluginMissing)
    );
    // All allocatable: nothing wrong.
    let text = "Capacity:\n  nvidia.com/gpu:     4\nAllocatable:\n  nvidia.com/gpu:     4\n";
    assert!(diagnose(&records(text)).is_empty());
}

#[test]
fn a_karpenter_node_that_stays_uninitialized_waits_for_its_resources() {
    // bottlerocket-os (corpus 226): Ready, yet never initialized.
    let text = "  Normal   NodeReady                26m                 kubelet                  Node x status is now: NodeReady\n  Normal   DisruptionBlocked        71s (x13 over 26m)  karpenter                Node isn't initialized\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!(d.cause, Cause::DevicePluginMissing);
    assert!(d.also_possible.iter().any(|a| a.cause == Cause::NodeNeverReady), "{d:#?}");
}

#[test]
fn a_resource_that_never_registered_on_a_karpenter_node_has_no_plugin() {
    // aws/karpenter-provider-aws#1914 (a helper's paste).
    let text = " Warning  FailedConsistencyCheck  8m5s (x68 over 11h)  karpenter  expected resource \"nvidia.com/gpu\" didn't register on the node\n";
    assert_eq!(single(text).1, Cause::DevicePluginMissing);
}

#[test]
fn a_runtime_error_quoted_alone_is_its_containers_message() {
    // kubeedge (corpus 160): the chain in prose, the Pod's STATUS in a table.
    let text = "the pod shows RunContainerError:\nfailed to create task for container: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=tegra: unknown\n\nNAMESPACE   NAME                               READY   STATUS              RESTARTS     AGE\ndefault     gpu-deployment-64f6b8cb49-vsr82    0/1     RunContainerError   1 (9s ago)   11s\n";
    let diagnoses = diagnose(&records(text));
    let [d] = diagnoses.as_slice() else { panic!("{diagnoses:#?}") };
    assert_eq!(d.object.name.as_deref(), Some("gpu-deployment-64f6b8cb49-vsr82"));
    assert_eq!(d.cause, Cause::CdiDeviceUnresolvable);
}

#[test]
fn a_node_whose_plugin_found_no_gpu_explains_the_pod_that_waits_for_one() {
    // Rule 20 (diag28 review texts: device plugin logs pasted beside a Pending Pod).
    let text = "  Warning  FailedScheduling  2m  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n\
                \n\
                I1106 09:17:18.873686       1 main.go:381] No devices found. Waiting indefinitely.\n";
    let diagnoses = diagnose(&records(text));
    let pod = diagnoses.iter().find(|d| d.kind().as_deref() == Some("Pod")).expect("a Pod diagnosis");
    assert_eq!(
        (pod.phase, pod.cause, pod.confidence),
        (Phase::Pending, Cause::DevicePluginMissing, Confidence::Medium)
    );
    assert_eq!(pod.also_possible.first().map(|a| a.cause), Some(Cause::InsufficientGpu));
    assert!(pod.evidence.iter().any(|r| r.reason == "DevicePluginNoDevices"));
    let node = diagnoses.iter().find(|d| d.kind().as_deref() == Some("Node")).expect("the node's own diagnosis");
    assert_eq!(node.cause, Cause::DevicePluginMissing);
    // The same unnamed node with an Xid too: its fault is its cause, and the Pod's.
    let faulty = format!("{text}[ 12.3] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n");
    let pod = diagnose(&records(&faulty)).into_iter().find(|d| d.kind().as_deref() == Some("Pod")).unwrap();
    assert_eq!(pod.cause, Cause::DeviceFault);
    // A Pod short of CPU is not waiting for a GPU: the node explains nothing of it.
    let cpu = text.replace("Insufficient nvidia.com/gpu", "Insufficient cpu");
    let pod = diagnose(&records(&cpu)).into_iter().find(|d| d.kind().as_deref() == Some("Pod")).unwrap();
    assert_eq!(pod.cause, Cause::InsufficientResources);
}

#[test]
fn a_logged_sandbox_failure_is_the_pods_own() {
    // corpus 162 (Kata cold plug): containerd names the sandbox's Pod, the kubelet's line beside
    // it does not; both are the one Pod's FailedCreatePodSandBox.
    let text = "Feb 19 13:45:49 node-a containerd[14192]: time=\"2026-02-19T13:45:49.346103748+01:00\" level=error msg=\"RunPodSandbox for &PodSandboxMetadata{Name:cuda-vectoradd-kata,Uid:01cb,Namespace:default,Attempt:0,} failed, error\" error=\"rpc error: code = Unknown desc = failed to create containerd task: unresolvable CDI devices nvidia.com/pgpu=vfio1\"\n\
                Feb 19 13:45:49 node-a kubelet[9136]: E0219 13:45:49.346352    9136 log.go:32] \"RunPodSandbox from runtime service failed\" err=\"rpc error: code = Unknown desc = failed to create containerd task: unresolvable CDI devices nvidia.com/pgpu=vfio1\"\n";
    let records = records(text);
    assert_eq!(records.len(), 2, "{records:#?}");
    for record in &records {
        assert_eq!(record.reason, "FailedCreatePodSandBox");
        assert_eq!(record.regarding.name.as_deref(), Some("cuda-vectoradd-kata"));
        assert_eq!(record.regarding.namespace.as_deref(), Some("default"));
        assert!(record.note.starts_with("Failed to create pod sandbox: rpc error"), "{}", record.note);
        assert!(record.has_flag(gpu_events_core::Flag::FromLog));
    }
    // containerd's time has its year: not approximate; klog's has none.
    assert!(!records[0].has_flag(gpu_events_core::Flag::ApproximateTime));
    assert!(records[1].has_flag(gpu_events_core::Flag::ApproximateTime));
    assert_eq!(single(text).1, Cause::CdiDeviceUnresolvable);
}

#[test]
fn a_document_that_relays_a_scheduler_message_is_the_pods_status() {
    // corpus 252 (Azure ML on AKS): a service error document, no Event, carries the FitError.
    let text = "{\n  \"code\": \"KubernetesError\",\n  \"message\": \"Kubernetes Deployment Error\",\n  \"details\": [\n    {\n      \"code\": \"Unschedulable\",\n      \"message\": \"0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\"\n    }\n  ]\n}\n";
    let records = records(text);
    let [record] = records.as_slice() else { panic!("{records:#?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.note, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
    assert!(record.has_flag(gpu_events_core::Flag::FromStatus));
    assert_eq!(single(text).1, Cause::InsufficientGpu);
    // A log record whose message no grammar reads stays no event.
    let log: Vec<_> = Decoder::from_str("{\"level\": \"info\", \"msg\": \"started\"}\n").collect();
    assert!(log.iter().all(Result::is_err), "{log:#?}");
}

#[test]
fn a_node_that_lists_no_accelerator_is_one_no_plugin_registered() {
    // diag28 (NVIDIA/k8s-device-plugin#285): the node's resources pasted, no nvidia.com/gpu.
    let cpu_only = "Capacity:\n  cpu:                12\n  memory:             16325228Ki\n  pods:               110\nAllocatable:\n  cpu:                12\n  memory:             16325228Ki\n  pods:               110\n";
    let [d]: [_; 1] = diagnose(&records(cpu_only)).try_into().unwrap();
    assert_eq!((d.cause, d.confidence), (Cause::DevicePluginMissing, Confidence::Low));
    assert_eq!(d.kind().as_deref(), Some("Node"));
    // Beside a Node that lists GPUs, a CPU node is no finding.
    let both = format!(
        "Name:               gpu-a\n{}\nName:               cpu-b\n{cpu_only}",
        "Capacity:\n  cpu:                12\n  nvidia.com/gpu:     8\n  pods:               110\nAllocatable:\n  cpu:                12\n  nvidia.com/gpu:     8\n  pods:               110"
    );
    assert!(records(&both).iter().all(|r| r.reason != "NoAcceleratorListed"), "{:#?}", records(&both));
}

#[test]
fn a_name_printed_without_its_namespace_is_the_one_object_of_that_name() {
    // diag29 (NVIDIA/k8s-device-plugin#165): the Pod's YAML has no namespace, its describe does.
    let paste = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu-pod\nspec:\n  containers:\n  - name: c\n    image: nvidia/cuda\n\nEvents:\n  Type     Reason   Age  From     Message\n  ----     ------   ---  ----     -------\n  Warning  BackOff  1m   kubelet  Back-off restarting failed container\n\nName:         gpu-pod\nNamespace:    default\nStatus:       Running\nContainers:\n  c:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n";
    let read = records(paste);
    assert!(read.iter().any(|r| r.regarding.namespace.is_none()), "{read:#?}");
    let [d]: [_; 1] = diagnose(&read).try_into().unwrap();
    assert_eq!((d.object.name.as_deref(), d.object.namespace.as_deref()), (Some("gpu-pod"), Some("default")));
    assert_eq!(d.cause, Cause::CrashLoop);
    // Two namespaces print the name: the bare one could be either, so it stays apart.
    let two = format!(
        "{paste}\nName:         gpu-pod\nNamespace:    other\nStatus:       Running\nContainers:\n  c:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n"
    );
    assert_eq!(diagnose(&records(&two)).len(), 3);
}

#[test]
fn an_unknown_cause_is_never_more_than_low_confidence() {
    // breaker29: a FailedScheduling whose note names no known cause was Medium.
    let row = "Events:\n  Type     Reason            Age  From               Message\n  ----     ------            ---  ----               -------\n  Warning  FailedScheduling  1m   default-scheduler  binding pod failed: the scheduler said no\n";
    let [d]: [_; 1] = diagnose(&records(row)).try_into().unwrap();
    assert_eq!((d.cause, d.confidence), (Cause::Unknown, Confidence::Low));
}

#[test]
fn an_admission_shortage_with_a_cut_note_is_read_from_its_reason() {
    // Corpus 304: the describe's Message is cut; the reason names the resource.
    let status = |reason: &str| {
        let text = format!(
            "Status:         Failed\nReason:         {reason}\nMessage:        Pod Node didn't have enough resource: alpha.kub\n"
        );
        let [d]: [_; 1] = diagnose(&records(&text)).try_into().unwrap();
        (d.phase, d.cause)
    };
    // The alpha GPUs were the kubelet's own: no device plugin to blame.
    assert_eq!(status("OutOfalpha.kubernetes.io/nvidia-gpu"), (Phase::Failed, Cause::InsufficientGpu));
    assert_eq!(status("OutOfcpu"), (Phase::Failed, Cause::InsufficientResources));
    // A plugin's resource the kubelet finds short at admission: most often a plugin not
    // registered again after the kubelet restarted.
    assert_eq!(status("OutOfnvidia.com/gpu"), (Phase::Failed, Cause::DevicePluginUnavailable));
}

#[test]
fn an_unnamed_pods_events_beside_the_one_named_pod_are_its_diagnosis() {
    // The scheduler's message quoted in prose, then a describe that names the Pod (no Events).
    let text = "the scheduler says `0/2 nodes are available: 2 Insufficient nvidia.com/gpu.`\n\nName:         gpu-pod\nNamespace:    default\nStatus:       Pending\nContainers:\n  c:\n    Image:  nvidia/cuda\n";
    let read = records(text);
    let diagnoses = diagnose(&read);
    let [d]: [_; 1] = diagnoses.try_into().unwrap();
    assert_eq!(d.object.name.as_deref(), Some("gpu-pod"));
    assert_eq!(d.cause, Cause::InsufficientGpu);
    // The records keep what the input said of them.
    assert!(read.iter().any(|r| r.reason == "FailedScheduling" && r.regarding.name.is_none()), "{read:#?}");
}

#[test]
fn kai_binder_and_hami_filter_answers_name_their_gpu_causes() {
    // Corpus 285: controller-runtime ≥0.15 logs the message before the fields, tabs pasted as spaces.
    let log = "2025-09-19T08:46:56.625Z        DEBUG   events  Failed to bind pod test/gpu-fraction-01 to node n1: failed waiting for GPU reservation pod to allocate: kai-resource-reservation/gpu-reservation-n1-vsk92      {\"type\": \"Warning\", \"object\": {\"kind\":\"Pod\",\"namespace\":\"test\",\"name\":\"gpu-fraction-01\",\"apiVersion\":\"v1\"}, \"reason\": \"BindingError\"}\n";
    let read = records(log);
    let [record] = read.as_slice() else { panic!("{read:#?}") };
    assert_eq!((record.reason.as_str(), record.regarding.name.as_deref()), ("BindingError", Some("gpu-fraction-01")));
    assert!(record.note.starts_with("Failed to bind pod test/gpu-fraction-01 to node n1: "), "{}", record.note);
    let [d]: [_; 1] = diagnose(&read).try_into().unwrap();
    assert_eq!((d.phase, d.cause), (Phase::Pending, Cause::GpuAllocationFailed));
    // Corpus 283: HAMi's extender found no node whose devices fit.
    let hami = "Events:\n  Type     Reason           Age  From            Message\n  ----     ------           ---  ----            -------\n  Warning  FilteringFailed  1m   hami-scheduler  no available node, all node scores do not meet\n";
    let [d]: [_; 1] = diagnose(&records(hami)).try_into().unwrap();
    assert_eq!((d.cause, d.confidence), (Cause::InsufficientGpu, Confidence::Medium));
}

#[test]
fn events_a_notebook_reissued_are_about_the_pod_they_came_from() {
    // Corpus 244: Kubeflow's notebook controller copies its Pod's events onto the Notebook.
    let rows = "Events:\n  Type     Reason            Age  From                 Message\n  ----     ------            ---  ----                 -------\n  Warning  FailedScheduling  12m  notebook-controller  Reissued from pod/gpu1-0: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n";
    let [d]: [_; 1] = diagnose(&records(rows)).try_into().unwrap();
    assert_eq!((d.object.kind.as_deref(), d.object.name.as_deref()), (Some("Pod"), Some("gpu1-0")));
    assert_eq!(d.cause, Cause::InsufficientGpu);
}
