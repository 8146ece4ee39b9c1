//! The text formats people paste, from the real cases in tests/fixtures/cases.

use chrono::TimeDelta;
use gpu_events_core::decode::{Decoder, Format};
use gpu_events_core::record::Flag;
use gpu_events_core::{EventRecord, EventType, Source};

mod common;
#[allow(unused_imports)]
use common::*;

fn decode(text: &str) -> Vec<EventRecord> {
    let decoder = Decoder::from_str(text).reference_time(now());
    assert_eq!(decoder.format(), Format::Text, "{text}");
    decoder.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

fn ago(record: &EventRecord) -> (Option<TimeDelta>, Option<TimeDelta>) {
    (record.first_timestamp.map(|t| now() - t), record.last_timestamp.map(|t| now() - t))
}

#[test]
fn case_001_describe_row_without_header_indented_one_space() {
    let [r] = decode(case(fixture!("001-insufficient-gpu-node-unschedulable.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "FailedScheduling");
    assert_eq!(r.type_, Some(EventType::Warning));
    assert_eq!(r.reporting_controller.as_deref(), Some("default-scheduler"));
    assert_eq!(r.count, 2);
    assert_eq!(ago(&r), (Some(TimeDelta::seconds(40)), Some(TimeDelta::seconds(40))));
    assert!(r.has_flag(Flag::ApproximateTime));
    assert_eq!(r.note, "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.");
}

#[test]
fn case_007_describe_table_with_header_and_series() {
    let records = decode(case(fixture!("007-dra-cdi-unresolvable-k8s-gpu.txt")));
    let reasons: Vec<&str> = records.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["Scheduled", "Pulled", "Failed"]);
    assert_eq!(records[0].note, "Successfully assigned arc-runners/nvidia-example-workload to node-a");
    assert_eq!((records[1].count, records[2].count), (26, 26));
    assert_eq!(ago(&records[2]), (Some(TimeDelta::seconds(6 * 60 + 37)), Some(TimeDelta::seconds(86))));
    assert!(records.iter().all(|r| r.reporting_controller.is_some()));
    assert_eq!(records[2].source, Some(Source::Kubelet));
}

#[test]
fn case_011_get_events_rows_without_header_name_their_objects() {
    let records = decode(case(fixture!("011-gpu-operator-must-gather-get-events.txt")));
    assert_eq!(records.len(), 12, "the `# ... (omitted) ...` line is not an event");
    assert_eq!(records[0].regarding.kind.as_deref(), Some("DaemonSet"));
    assert_eq!(records[0].regarding.name.as_deref(), Some("nvidia-dcgm-exporter"));
    assert_eq!(records[1].regarding.kind.as_deref(), Some("Pod"));
    let sandbox = records.last().unwrap();
    assert_eq!(sandbox.reason, "FailedCreatePodSandBox");
    assert_eq!(sandbox.regarding.name.as_deref(), Some("nvidia-device-plugin-daemonset-2nc7v"));
    assert!(sandbox.note.ends_with("no runtime for \"nvidia\" is configured"));
    assert_eq!(ago(sandbox).1, Some(TimeDelta::seconds(3 * 60 + 43)));
}

#[test]
fn case_013_the_reporter_decides_between_the_two_failed_scheduling_reasons() {
    let records = decode(case(fixture!("013-karpenter-incompatible-nodepool-gpu.txt")));
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].source, Some(Source::KubeScheduler));
    assert_eq!(records[1].source, Some(Source::Karpenter));
    assert_eq!((records[0].count, records[1].count), (54, 58));
    assert_eq!(ago(&records[1]).0, Some(TimeDelta::seconds(4 * 3600 + 48 * 60)));
}

#[test]
fn case_025_partial_get_events_row() {
    let [r] = decode(case(fixture!("025-rke2-taint-didnt-tolerate-get-events.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "FailedScheduling");
    // The TYPE column is missing: FailedScheduling is only ever a Warning.
    assert_eq!(r.type_, Some(gpu_events_core::EventType::Warning));
    assert!(r.has_flag(gpu_events_core::Flag::InferredType));
    assert_eq!(r.regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(r.regarding.name.as_deref(), Some("model-2-79d7d6786c-bprm8"));
    assert!(r.note.starts_with("0/1 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taint {protect: no_schedule}, that the pod didn't tolerate"));
}

#[test]
fn case_029_e2e_dump() {
    let [r] = decode(case(fixture!("029-e2e-failedplacement-daemonset-controller.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "FailedPlacement");
    assert_eq!(r.reporting_controller.as_deref(), Some("daemonset-controller"));
    assert_eq!(r.reporting_instance, None);
    assert_eq!(r.regarding.name.as_deref(), Some("cos-nvidia-installer"));
    assert_eq!(r.last_timestamp.unwrap().to_rfc3339(), "2017-07-25T07:39:30+00:00");
    assert!(!r.has_flag(Flag::ApproximateTime));
}

#[test]
fn case_033_misaligned_row_and_aggregation_prefix() {
    let [r] = decode(case(fixture!("033-kata-cc-combined-from-similar-events.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "FailedCreatePodSandBox");
    assert_eq!(r.count, 16);
    assert_eq!(ago(&r), (Some(TimeDelta::seconds(34)), Some(TimeDelta::seconds(19))));
    assert!(r.has_flag(Flag::CombinedFromSimilarEvents));
    assert!(r.note.starts_with("Failed to create pod sandbox: rpc error"));
}

#[test]
fn case_035_get_events_rows_with_leading_spaces() {
    let records = decode(case(fixture!("035-gpu-operator-driver-upgrade-events-brackets.txt")));
    assert_eq!(records.len(), 8);
    assert!(records.iter().all(|r| r.reason == "GPUDriverUpgrade" && r.regarding.kind.as_deref() == Some("Node")));
    assert_eq!(records[0].regarding.name.as_deref(), Some("localhost.localdomain"));
    assert_eq!(ago(&records[7]).1, Some(TimeDelta::minutes(6)));
}

#[test]
fn case_037_get_events_table_with_header() {
    let records = decode(case(fixture!("037-time-slicing-get-events-init-containers.txt")));
    assert_eq!(records.len(), 24);
    assert!(records.iter().all(|r| r.type_ == Some(EventType::Normal) && r.regarding.kind.as_deref() == Some("Pod")));
    let names: std::collections::BTreeSet<&str> = records.iter().filter_map(|r| r.regarding.name.as_deref()).collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["gpu-feature-discovery-rvlg9", "nvidia-device-plugin-daemonset-cffds"]
    );
}

#[test]
fn case_045_no_age_column() {
    let [r] = decode(case(fixture!("045-kai-scheduler-unschedulable-no-age.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "Unschedulable");
    assert_eq!(r.reporting_controller.as_deref(), Some("kai-scheduler"));
    assert_eq!(r.source, Some(Source::KaiScheduler));
    assert_eq!((r.first_timestamp, r.last_timestamp), (None, None));
    assert!(r.note.starts_with("No nodes with enough resources were found"));
}

#[test]
fn case_049_get_events_with_namespace_column() {
    let [r] = decode(case(fixture!("049-ascend-npu-device-fault-event.txt"))).try_into().unwrap();
    assert_eq!(r.reason, "Occur");
    assert_eq!(r.regarding.namespace.as_deref(), Some("kube-system"));
    assert_eq!(r.regarding.kind.as_deref(), Some("Pod"));
    assert!(r.note.starts_with("device fault, nodeName:node-a"));
}

#[test]
fn every_describe_or_table_case_reads_into_records() {
    let cases: &[(&str, usize)] = &[
        (fixture!("003-gpushare-aliyun-gpu-mem.txt"), 1),
        (fixture!("005-hami-unexpectedadmission-eof.txt"), 1),
        (fixture!("009-cdi-unresolvable-gpu-uuid-rke2.txt"), 1),
        (fixture!("015-eks-karpenter-nominated-multi-insufficient.txt"), 9),
        (fixture!("017-k3s-amd-gpu-preemption-double-period.txt"), 1),
        (fixture!("019-gpu-manager-exceedsgpuquota.txt"), 1),
        (fixture!("021-hami-nodeunfitpod-kueue.txt"), 2),
        (fixture!("023-mig-nvml-insufficient-permissions.txt"), 2),
        (fixture!("027-k3s-geti-x351-over-23h.txt"), 1),
        (fixture!("031-dra-prepare-deadline-exceeded.txt"), 1),
        (fixture!("039-hami-mixed-reasons-filteringfailed.txt"), 2),
        (fixture!("041-ocp-dgx-a100-container-init-oom.txt"), 1),
        (fixture!("047-xpk-kueue-admission-pending-tpu.txt"), 2),
        (fixture!("051-gke-node-reboot-unhealthy-devices-redacted.txt"), 1),
    ];
    for (text, want) in cases {
        let records = decode(case(text));
        assert_eq!(records.len(), *want, "{}", text.lines().next().unwrap());
        for r in &records {
            assert!(r.known, "{} should be catalogued", r.reason);
            assert!(!r.note.is_empty());
        }
    }
    let [r] = decode(case(fixture!("027-k3s-geti-x351-over-23h.txt"))).try_into().unwrap();
    assert_eq!(r.count, 351);
    assert_eq!(ago(&r).0, Some(TimeDelta::hours(23)));
}

#[test]
fn describe_sections_tie_events_to_their_objects_and_join_wrapped_messages() {
    let paste = "Name:         llama-0\nNamespace:    ml\nPriority:     0\nContainers:\n  main:\n    Image:  x\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  2m    default-scheduler  0/3 nodes are available: 3 Insufficient\n           nvidia.com/gpu.\n\n\nName:         gpu-node-1\nRoles:        <none>\nEvents:\n  Type    Reason    Age  From     Message\n  ----    ------    ---  ----     -------\n  Normal  Starting  5m   kubelet  Starting kubelet.\n";
    let records = decode(paste);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(records[0].regarding.namespace.as_deref(), Some("ml"));
    assert_eq!(records[0].regarding.name.as_deref(), Some("llama-0"));
    assert_eq!(records[0].note, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
    assert_eq!(records[1].regarding.kind.as_deref(), Some("Node"));
    assert_eq!(records[1].regarding.name.as_deref(), Some("gpu-node-1"));
}

#[test]
fn klog_lines_and_kubectl_135_container_prefix() {
    let text = "I1130 05:40:02.123456   12345 event.go:307] \"Event occurred\" object=\"ml/llama-0\" fieldPath=\"\" kind=\"Pod\" apiVersion=\"v1\" type=\"Warning\" reason=\"FailedScheduling\" message=\"0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\"\n";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!(r.regarding.name.as_deref(), Some("llama-0"));
    assert_eq!(r.last_timestamp.unwrap().to_rfc3339(), "2026-11-30T05:40:02.123456+00:00");
    // The klog header has no year: the time is flagged approximate.
    assert!(r.has_flag(Flag::ApproximateTime), "{:?}", r.flags);
    let describe = "  Normal  Created  10s  kubelet  spec.containers{cuda}: Container created\n";
    let [r] = decode(describe).try_into().unwrap();
    assert_eq!(r.regarding.field_path.as_deref(), Some("spec.containers{cuda}"));
    assert_eq!(r.note, "Container created");
}

#[test]
fn yaml_is_still_yaml() {
    let yaml = "apiVersion: v1\nkind: Event\nreason: Pulled\ntype: Normal\ninvolvedObject: {kind: Pod, name: a}\nmessage: \"Warning  FailedScheduling  2m  x  y\"\n";
    assert_eq!(Decoder::from_str(yaml).format(), Format::Yaml);
}

#[test]
fn a_describe_status_block_without_events_is_a_record_from_status() {
    let text = "Name:               imgsr-job-a-worker-0\nNamespace:          ns-a\nStart Time:         Thu, 12 Mar 2020 16:58:22 +0800\nStatus:             Failed\nReason:             UnexpectedAdmissionError\nMessage:            Pod Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected\nEvents:             <none>\n";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!(r.reason, "UnexpectedAdmissionError");
    assert_eq!(r.regarding.name.as_deref(), Some("imgsr-job-a-worker-0"));
    assert_eq!(r.regarding.namespace.as_deref(), Some("ns-a"));
    assert!(r.has_flag(Flag::FromStatus));
    assert_eq!(r.details.as_ref().map(|d| d.kind()), Some("unexpectedAdmission"));
}

#[test]
fn rows_without_a_header_take_their_pod_from_the_scheduled_event() {
    let records = decode(case(fixture!("007-dra-cdi-unresolvable-k8s-gpu.txt")));
    assert!(records.iter().all(|r| r.regarding.name.as_deref() == Some("nvidia-example-workload")
        && r.regarding.namespace.as_deref() == Some("arc-runners")
        && r.regarding.kind.as_deref() == Some("Pod")));
}

#[test]
fn the_old_describe_layout_reads() {
    let text = "Events:\n  FirstSeen  LastSeen  Count  From                  SubObjectPath  Type     Reason            Message\n  ---------  --------  -----  ----                  -------------  -------- ------            -------\n  1m         30s       3      {default-scheduler }                 Warning  FailedScheduling  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!((r.reason.as_str(), r.count), ("FailedScheduling", 3));
    assert_eq!(r.reporting_controller.as_deref(), Some("default-scheduler"));
    assert_eq!(ago(&r), (Some(TimeDelta::minutes(1)), Some(TimeDelta::seconds(30))));
}

#[test]
fn old_unstructured_klog_lines_read() {
    let text = "I1130 05:41:07.000000    2114 event.go:291] Event(v1.ObjectReference{Kind:\"Pod\", Namespace:\"ml\", Name:\"llama-2\", UID:\"5f0c\", APIVersion:\"v1\", ResourceVersion:\"1843\", FieldPath:\"spec.containers{main}\"}): type: 'Warning' reason: 'BackOff' Back-off restarting failed container main in pod llama-2_ml(5f0c)\n";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!(r.reason, "BackOff");
    assert_eq!(r.regarding.field_path.as_deref(), Some("spec.containers{main}"));
    assert_eq!(r.details.as_ref().map(|d| d.kind()), Some("restartBackOff"));
}

#[test]
fn kubelet_error_lines_that_name_a_pod_read_as_its_event_through_journald() {
    // `journalctl -u kubelet` output: kubelet logs `ErrorS(err, msg, "pod", pod)` beside the
    // event whose note is `msg: err`. Lines naming no pod, and other log lines, are no events
    // (and no YAML error, although every line holds `key: value`).
    let text = r#"
Jan 14 22:32:39 node-a kubelet[14067]: E0114 22:32:39.849988   14067 kuberuntime_manager.go:1323] "Failed to prepare dynamic resources" err="prepare dynamic resources: DRA driver compute-domain.nvidia.com is not registered" pod="default/nccl-test-worker-0"
Jan 14 22:32:42 node-a kubelet[14067]: E0114 22:32:42.287311   14067 container_manager_linux.go:1016] "Unable to get container claim info state" err="unable to get information for ResourceClaim x"
Jan 14 22:32:43 node-a kubelet[14067]: I0114 22:32:43.000000   14067 kubelet.go:2400] "SyncLoop ADD" source="api" pods=["default/a"]
"#;
    let [r] = decode(text).try_into().unwrap();
    assert_eq!(r.reason, "FailedPrepareDynamicResources");
    assert_eq!(r.type_, Some(EventType::Warning));
    assert_eq!(r.regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(
        (r.regarding.namespace.as_deref(), r.regarding.name.as_deref()),
        (Some("default"), Some("nccl-test-worker-0"))
    );
    assert!(r.note.ends_with("DRA driver compute-domain.nvidia.com is not registered"), "{}", r.note);
    assert_eq!(r.last_timestamp, Some("2026-01-14T22:32:39.849988Z".parse().unwrap()));
    assert_eq!(r.flags, [Flag::ApproximateTime, Flag::FromLog, Flag::InferredReason]);
    assert_eq!(r.details.as_ref().map(|d| d.kind()), Some("dynamicResourcesFailed"));
}

// ----- found by the property tests of tests/round_trip.rs ---------------------------------------

#[test]
fn wide_columns_after_a_multibyte_message_are_cut_by_characters() {
    // kubectl's tabwriter pads by runes: after `GPU 메모리 부족` the later columns start at the
    // header's character offsets, ten bytes further right than its byte offsets.
    let text = "\
LAST SEEN   TYPE      REASON   OBJECT   SUBOBJECT   SOURCE    MESSAGE      FIRST SEEN   COUNT   NAME
2m          Warning   Failed   pod/a                kubelet   GPU 메모리 부족   5m           3       a.17f0
10s         Normal    Pulled   pod/b                kubelet   ok           10s          1       b.17f1
";
    let [failed, pulled] = decode(text).try_into().unwrap();
    assert_eq!(failed.note, "GPU 메모리 부족");
    assert_eq!((failed.count, failed.event_name.as_deref()), (3, Some("a.17f0")));
    assert_eq!(ago(&failed), (Some(TimeDelta::minutes(5)), Some(TimeDelta::minutes(2))));
    assert_eq!((pulled.note.as_str(), pulled.count, pulled.event_name.as_deref()), ("ok", 1, Some("b.17f1")));
}

#[test]
fn an_empty_from_cell_does_not_shift_a_message_with_double_spaces() {
    // No FROM (an old event without source): the message's own `:  ` gap is not a column.
    let text = "\
Events:
  Type    Reason     Age   From  Message
  ----    ------     ----  ----  -------
  Normal  Scheduled  10m         Name:  not-a-header
";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!(r.note, "Name:  not-a-header");
    assert_eq!(r.reporting_controller, None);
    assert_eq!(ago(&r).1, Some(TimeDelta::minutes(10)));
}

#[test]
fn rows_with_an_empty_message_survive_a_terminal_copy() {
    // The padding after OBJECT (or FROM) is gone, so the line ends before MESSAGE starts; the
    // rows are still rows, and a wrapped message line is still a continuation.
    let table = "\
LAST SEEN   TYPE     REASON           OBJECT   MESSAGE
10m         Normal   AdmissionGated   pod/a
5m          Normal   Pulled           pod/b    Container image
  \"cuda:12\" already present
";
    let [gated, pulled] = decode(table).try_into().unwrap();
    assert_eq!((gated.reason.as_str(), gated.note.as_str()), ("AdmissionGated", ""));
    assert_eq!(gated.regarding.name.as_deref(), Some("a"));
    assert_eq!(pulled.note, "Container image \"cuda:12\" already present");
    let describe = "\
Events:
  Type    Reason                 Age   From  Message
  ----    ------                 ----  ----  -------
          ConsolidationApproved  10y
  Normal  Pulled                 5m    kubelet  ok
";
    let [approved, pulled] = decode(describe).try_into().unwrap();
    assert_eq!(
        (approved.reason.as_str(), approved.type_.as_ref(), approved.note.as_str()),
        ("ConsolidationApproved", None, "")
    );
    assert_eq!(ago(&approved).1, Some(TimeDelta::days(3650)));
    assert_eq!(pulled.note, "ok");
}

#[test]
fn the_pre_1_14_get_events_layout_reads_with_its_kind_and_object_name() {
    // Found by the get_events fuzz target: the KIND column was unknown, so the header was not one
    // and the table went to the YAML parser. In this layout NAME is the object, not the Event.
    let text = "\
LAST SEEN   FIRST SEEN   COUNT     NAME       KIND      SUBOBJECT   TYPE      REASON             SOURCE              MESSAGE
1m          5m           3         llama-0    Pod                   Warning   FailedScheduling   default-scheduler   0/2 nodes are available: 2 Insufficient nvidia.com/gpu.
";
    let [r] = decode(text).try_into().unwrap();
    assert_eq!((r.reason.as_str(), r.count), ("FailedScheduling", 3));
    assert_eq!((r.regarding.kind.as_deref(), r.regarding.name.as_deref()), (Some("Pod"), Some("llama-0")));
    assert_eq!(r.event_name, None);
    assert_eq!(r.reporting_controller.as_deref(), Some("default-scheduler"));
    assert_eq!(ago(&r), (Some(TimeDelta::minutes(5)), Some(TimeDelta::minutes(1))));
    assert_eq!(r.note, "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
}

#[test]
fn an_unnamed_section_takes_the_kind_its_reasons_agree_on() {
    // The HAMi FilteringFailed reason concerns Pods too, but a vendor reason the catalogue does
    // not know says nothing: it takes the section's kind from FailedScheduling.
    let paste = "Events:\n  Type     Reason            Age   From            Message\n  ----     ------            ----  ----            -------\n  Warning  FailedScheduling  10s   hami-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n  Warning  VendorSpecific    10s   hami-scheduler  something vendor-specific\n";
    let records = decode(paste);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.regarding.kind.as_deref(), Some("Pod"), "{}", record.reason);
        assert!(record.has_flag(Flag::InferredKind));
    }
    // A kind the input gives is not flagged.
    let named = decode(
        "LAST SEEN   TYPE      REASON             OBJECT       MESSAGE\n10s         Warning   FailedScheduling   pod/a        0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n",
    );
    assert_eq!(named[0].regarding.kind.as_deref(), Some("Pod"));
    assert!(!named[0].has_flag(Flag::InferredKind));
}

#[test]
fn cluster_scoped_objects_have_no_namespace_in_tables() {
    let table = "NAMESPACE   LAST SEEN   TYPE      REASON     OBJECT            MESSAGE\ndefault     5m          Warning   NodeNotReady   node/gpu-a    Node gpu-a status is now: NodeNotReady\nml          5m          Warning   Failed     pod/train-0       Error: ErrImagePull\n";
    let records = decode(table);
    assert_eq!(records[0].regarding.namespace, None, "a Node has no namespace");
    assert_eq!(records[0].event_namespace.as_deref(), Some("default"), "its Event has one");
    assert_eq!(records[1].regarding.namespace.as_deref(), Some("ml"));
}

#[test]
fn a_get_pods_table_is_not_events_and_names_the_one_pod_listed() {
    let paste = "NAME                                READY     STATUS    RESTARTS   AGE\ntrain-gpu-0   0/1       Pending   0          15m\n\nEvents:\n  Type     Reason            Age                From               Message\n  ----     ------            ----               ----               -------\n  Warning  FailedScheduling  2s (x57 over 15m)  default-scheduler  0/6 nodes are available: 6 Insufficient nvidia.com/gpu.\n";
    let records = decode(paste);
    // The row is the Pod's status (Pending, flagged fromStatus), not an event.
    let events: Vec<_> = records.iter().filter(|r| !r.has_flag(Flag::FromStatus)).collect();
    assert_eq!(events.len(), 1, "{records:?}");
    assert_eq!(events[0].reason, "FailedScheduling");
    assert_eq!(events[0].regarding.name.as_deref(), Some("train-gpu-0"));
    assert_eq!(events[0].count, 57);
    assert_eq!(records.len(), 2);
}

#[test]
fn a_typed_describe_command_names_the_section_below_it() {
    let paste = "$ kubectl describe pod llama-0 -n ml\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  2s    default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n";
    let records = decode(paste);
    assert_eq!(records[0].regarding.name.as_deref(), Some("llama-0"));
    assert_eq!(records[0].regarding.namespace.as_deref(), Some("ml"));
    // A poster's placeholder names nothing.
    let placeholder = decode(&paste.replace("llama-0 -n ml", "<pod-name>"));
    assert_eq!(placeholder[0].regarding.name, None);
}

#[test]
fn rows_and_messages_inside_prose_are_read_with_nothing_invented() {
    let paste = "I applied it and the pod status is pending,  Warning  FailedScheduling  77s   volcano  0/1 nodes are unavailable: 1 no enough gpu cards on node .\n";
    let records: Vec<EventRecord> = Decoder::from_str(paste).reference_time(now()).map(Result::unwrap).collect();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].reason.as_str(), records[0].reporting_controller.as_deref()),
        ("FailedScheduling", Some("volcano"))
    );
    assert!(records[0].note.starts_with("0/1 nodes are unavailable"));

    let title = "Pod stays Pending: 0/1 nodes are available: 1 Insufficient tencent.com/vcuda-core, 1 Insufficient tencent.com/vcuda-memory.\n";
    let records: Vec<EventRecord> = Decoder::from_str(title).reference_time(now()).map(Result::unwrap).collect();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].reason, "FailedScheduling");
    assert!(records[0].has_flag(Flag::InferredReason) && records[0].has_flag(Flag::InferredKind));

    let status = "Status:         Failed\nMessage:        Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected\n";
    let records: Vec<EventRecord> = Decoder::from_str(status).reference_time(now()).map(Result::unwrap).collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].reason, "UnexpectedAdmissionError");

    // Prose with no event in it stays what it was: an input that is not events.
    let prose = "We run 10/12 nodes with GPUs and nothing is failing.\n";
    assert!(Decoder::from_str(prose).reference_time(now()).all(|r| r.is_err()));
}

#[test]
fn custom_columns_and_ui_event_lists_are_read() {
    let custom = "CREATED                SOURCE              REASON             MSG\n2018-06-06T09:59:16Z   default-scheduler   FailedScheduling   0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n2018-06-06T09:59:23Z   default-scheduler   Scheduled          Successfully assigned ml/a to node-a\n";
    let records = decode(custom);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].reason, "FailedScheduling");
    assert_eq!(records[0].reporting_controller.as_deref(), Some("default-scheduler"));
    assert!(records[1].note.starts_with("Successfully assigned"));

    let ui = "Server requested\n2023-12-15T19:19:23Z [Normal] Successfully assigned hub/jupyter-a to node-b\n2023-12-15T19:19:32Z [Normal] Pulling image \"alpine\"\n2023-12-15T19:23:25Z [Normal] Started container nfs-fixer\n";
    let records: Vec<EventRecord> = Decoder::from_str(ui).reference_time(now()).map(Result::unwrap).collect();
    let reasons: Vec<&str> = records.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["Scheduled", "Pulling", "Started"]);
    assert!(records.iter().all(|r| r.has_flag(Flag::InferredReason)));
}

#[test]
fn a_row_quoted_in_backticks_keeps_no_closing_backtick() {
    // A new user's paste (HAMi#71): the describe row posted as inline code.
    let text = "`  Warning  UnexpectedAdmissionError  10s   kubelet  Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected`\n";
    let read = records(text);
    let [record] = read.as_slice() else { panic!("{read:#?}") };
    assert_eq!(
        record.note,
        "Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected"
    );
    assert!(!record.has_flag(Flag::UnrecognizedNote));
    // A span opened before the table (`` `Events: ``, corpus 262) or after a list marker (258),
    // and an e2e log line in inline code (261), close after the message.
    let table = "`Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  6s    default-scheduler  0/2 nodes are available: 2 Insufficient aliyun.com/gpu-mem`\n";
    let read = records(table);
    assert_eq!(read[0].note, "0/2 nodes are available: 2 Insufficient aliyun.com/gpu-mem");
    let listed = "2.  `Normal   TriggeredScaleUp  50s  cluster-autoscaler  pod triggered scale-up: [{https://example/grp 0->1 (max: 10)}]`\n";
    assert_eq!(records(listed)[0].note, "pod triggered scale-up: [{https://example/grp 0->1 (max: 10)}]");
    let e2e = "`INFO: At 2017-07-25 07:39:30 +0000 UTC - event for ds: {daemonset-controller } FailedPlacement: failed to place pod on \"m\": Node didn't have enough resource: cpu, requested: 150, used: 950, capacity: 1000`\n";
    assert!(records(e2e)[0].note.ends_with("capacity: 1000"), "{:?}", records(e2e)[0].note);
    // A message that quotes in backticks itself keeps them.
    let own = "  Warning  Failed  1m  kubelet  Error: container `main` failed\n";
    assert!(records(own)[0].note.ends_with("`main` failed"));
}
