//! Pastes of several forms: each region goes to its reader, and every line is in a record or in
//! a reported region (the segmenter, `decode/segment.rs`, and the text readers' accounting).

use gpu_events_core::EventRecord;
use gpu_events_core::decode::{DecodeError, Decoder};

mod common;
#[allow(unused_imports)]
use common::*;

/// Records and the reported regions (`lines a-b: ...`), with the regions that are not events.
fn read(text: &str) -> (Vec<EventRecord>, Vec<String>) {
    let mut records = Vec::new();
    let mut reported = Vec::new();
    for item in Decoder::from_str(text).reference_time(now()).report_skipped(true) {
        match item {
            Ok(record) => records.push(record),
            Err(err) => reported.push(format!("{}{err}", if err.is_loss() { "LOST " } else { "" })),
        }
    }
    (records, reported)
}

const ROW: &str = "  Warning  FailedScheduling  4m11s (x11 over 54m)  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";

#[test]
fn a_row_then_the_pods_manifest_then_prose() {
    let text = format!(
        "The pod never starts:\n\n{ROW}\n\nmy pod:\napiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu-pod\nspec:\n  containers:\n    - name: a\n\nany idea?\n"
    );
    let (records, reported) = read(&text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.count, 11);
    // The manifest is the one Pod the paste shows: the row is about it.
    assert_eq!(record.regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(record.regarding.name.as_deref(), Some("gpu-pod"));
    assert_eq!(
        reported,
        [
            "line 1: text, not events",
            "line 5: text, not events",
            "lines 6-12: a Pod object (gpu-pod) in YAML form, not events",
            "line 14: text, not events",
        ]
    );
}

#[test]
fn an_event_in_yaml_after_a_table_is_read_not_dropped() {
    let text = format!(
        "{ROW}\n\nthe other one, as YAML:\napiVersion: v1\nkind: Event\nreason: UnexpectedAdmissionError\ntype: Warning\ninvolvedObject:\n  kind: Pod\n  name: other\nmessage: 'Allocate failed due to no healthy devices present, which is unexpected'\n"
    );
    let (records, reported) = read(&text);
    let reasons: Vec<&str> = records.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["FailedScheduling", "UnexpectedAdmissionError"]);
    assert_eq!(records[1].regarding.name.as_deref(), Some("other"));
    // Two objects named differently: the row stays unnamed (not given the Event's object).
    assert_eq!(records[0].regarding.name, None);
    assert_eq!(reported, ["line 3: text, not events"]);
}

#[test]
fn json_between_prose_is_read() {
    let text = "kubectl get events -o json gives\n{\"apiVersion\": \"v1\", \"kind\": \"Event\", \"reason\": \"FailedMount\", \"type\": \"Warning\",\n \"involvedObject\": {\"kind\": \"Pod\", \"name\": \"p\"}, \"message\": \"MountVolume.SetUp failed for volume \\\"nvidia\\\" : hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory\"}\nthat's all\n";
    let (records, reported) = read(text);
    assert_eq!(records.len(), 1, "{reported:?}");
    assert_eq!(records[0].regarding.name.as_deref(), Some("p"));
    // Line 1 is a typed command (read: it starts a new section), line 4 prose.
    assert_eq!(reported, ["line 4: text, not events"]);
}

#[test]
fn lines_that_look_like_events_and_are_not_read_are_a_loss() {
    // A reason the catalogue knows, in columns, but no row shape (no age, no source) and no
    // message its grammar reads.
    let text = "FailedScheduling   see   below\n";
    let (records, reported) = read(text);
    assert!(records.is_empty(), "{records:?}");
    assert_eq!(reported, ["LOST line 1: an event with reason FailedScheduling that no reader could read: not read"]);
    // Without report_skipped a loss is still reported; text that is not events is not, unless
    // it is all the input holds.
    let items: Vec<_> = Decoder::from_str(text).collect();
    assert!(matches!(items.as_slice(), [Err(DecodeError::Unread { first_line: 1, last_line: 1, .. })]), "{items:?}");
    let items: Vec<_> = Decoder::from_str(&format!("{ROW}\njust prose\n")).collect();
    assert!(matches!(items.as_slice(), [Ok(_)]), "{items:?}");
    let items: Vec<_> = Decoder::from_str("just prose here\n").collect();
    assert!(matches!(items.as_slice(), [Err(DecodeError::NotEvents { first_line: 1, last_line: 1, .. })]), "{items:?}");
}

#[test]
fn a_pods_table_is_reported_as_such() {
    let text =
        format!("NAME      READY   STATUS    RESTARTS   AGE\ngpu-pod   0/1     Pending   0          5m\n\n{ROW}\n");
    let (records, reported) = read(&text);
    // The Pending row is the Pod seen waiting (a Normal `fromStatus` record), the row its event.
    let [status, event] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((status.reason.as_str(), status.note.as_str()), ("Pending", "pod status: Pending"));
    assert!(status.has_flag(gpu_events_core::Flag::FromStatus));
    assert!(!status.known, "a phase, not Kueue's Pending reason");
    assert_eq!(event.reason, "FailedScheduling");
    assert_eq!(event.regarding.name.as_deref(), Some("gpu-pod"));
    assert_eq!(status.regarding.name.as_deref(), Some("gpu-pod"));
    assert_eq!(
        reported,
        ["lines 1-2: a `kubectl get pods` table (its STATUS column read as the Pods' status), not events"]
    );
}

#[test]
fn quoted_and_bordered_rows_are_read() {
    let text = format!("> {ROW}\n> {ROW}\n");
    let (records, reported) = read(&text);
    assert_eq!(records.len(), 2, "{reported:?}");
    assert!(records.iter().all(|r| r.note.ends_with("nvidia.com/gpu.")), "{records:?}");
    let text = "│ Warning  FailedMount  3m (x5 over 10m)  kubelet  MountVolume.SetUp failed for volume \"nvidia\" : hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory │\n";
    let (records, _) = read(text);
    assert_eq!(records.len(), 1);
    assert!(records[0].note.ends_with("is not a directory"), "{:?}", records[0].note);
}

#[test]
fn prose_after_a_short_row_is_not_its_message() {
    // The row is shorter than a terminal's width: the next line at column 0 is not its wrap.
    let text = "  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed: x\nany idea why?\n";
    let (records, reported) = read(text);
    assert_eq!(records[0].note, "MountVolume.SetUp failed: x");
    assert_eq!(reported, ["line 2: text, not events"]);
}

#[test]
fn a_row_cut_inside_a_quote_or_a_word_of_its_format_is_flagged_cut() {
    // Corpus 268 (`Pulling imag`) and 201 (`container "cfe8...`): one row cut, the others whole.
    let cut = |row: &str| {
        let (records, _) = read(&format!("{ROW}\n{row}\n"));
        records.last().is_some_and(|r| r.has_flag(gpu_events_core::Flag::CutInPaste))
    };
    assert!(cut("  Normal   Pulling  3m11s  kubelet  Pulling imag"));
    assert!(cut("  Warning  Failed   111s   kubelet  Error: failed to generate container \"cfe8cf6a07f43d3"));
    // An older kubelet's whole note, a whole word short of today's format, is not cut.
    assert!(!cut("  Normal   Created  3m11s  kubelet  Created container"));
    assert!(!cut("  Normal   Pulling  3m11s  kubelet  Pulling image \"nvcr.io/nvidia/cuda:12.4.1-base\""));
}

#[test]
fn rows_cut_at_one_column_are_flagged_cut() {
    // `kubectl describe pod x | cut -c1-100`: rows of different messages end at column 100.
    let rows = [
        "  Warning  FailedScheduling  4m11s (x11 over 54m)  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        "  Warning  FailedMount       3m                    kubelet            MountVolume.SetUp failed for volume \"nvidia\" : hostPath type check failed",
        "  Normal   Scheduled         5m                    default-scheduler  Successfully assigned a/b to node-1",
        "  Normal   Pulled            5m                    kubelet            Pulled image",
    ];
    let text: String = rows.iter().map(|r| format!("{}\n", r.chars().take(100).collect::<String>())).collect();
    let (records, _) = read(&text);
    let cut: Vec<bool> = records.iter().map(|r| r.has_flag(gpu_events_core::Flag::CutInPaste)).collect();
    assert_eq!(cut, [true, true, true, false]);
    // The cut fit error is no High-confidence diagnosis.
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    assert!(diagnoses.iter().all(|d| d.confidence != gpu_events_core::diagnose::Confidence::High), "{diagnoses:#?}");
    // Uncut, two identical wide rows are not a cut.
    let text = format!("{ROW}\n{ROW}\n");
    let (records, _) = read(&text);
    assert!(records.iter().all(|r| !r.has_flag(gpu_events_core::Flag::CutInPaste)));
}

// ----- found on real texts of the corpus (tuning split; the case each shape comes from noted) -----

#[test]
fn prose_that_yaml_chokes_on_is_text_not_a_yaml_error() {
    // corpus 174: steps as a `- ` list under a heading that ends in a colon.
    let text = "Steps to reproduce:\n- Create a cluster with a GPU pool.\n- Open the details page: the pod is stuck.\n";
    let (records, reported) = read(text);
    assert!(records.is_empty());
    assert_eq!(reported, ["lines 1-3: text, not events"]);
    // Input that opens as YAML still gets the YAML parser's position.
    let (_, reported) = read("a: [\n");
    assert!(reported[0].contains("malformed YAML at line"), "{reported:?}");
}

#[test]
fn a_manifest_with_an_elided_part_is_an_object_and_the_events_after_it_are_read() {
    // corpus 119: the poster cut the manifest with `.....`.
    let text = "my job:\napiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: train-a\n  namespace: ml\nspec:\n  minAvailable: 1\n  tasks:\n  .....\nthe podgroup says:\nEvents:\n  Type     Reason         Age   From     Message\n  ----     ------         ----  ----     -------\n  Normal   Unschedulable  15s   volcano  queue resource quota insufficient\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!(record.note, "queue resource quota insufficient");
    assert!(
        reported.contains(&"lines 2-10: a Job object (train-a) in YAML form, not events".to_owned()),
        "{reported:?}"
    );
}

#[test]
fn a_typed_describe_of_any_kind_names_the_section_below_it() {
    // corpus 101: `kubectl describe pg NAME` and elided output with no `Name:` line.
    let text = "kubectl describe pg train-a -n ml\n...\nStatus:\n  Conditions:\n    Message:  1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.\n    Reason:   NotEnoughResources\n    Type:     Unschedulable\nEvents:\n  Type     Reason         Age   From     Message\n  ----     ------         ----  ----     -------\n  Warning  Unschedulable  69s   volcano  1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.\n";
    let (records, reported) = read(text);
    // One event; the condition's Reason is no container state (no status record of it).
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!(record.regarding.kind.as_deref(), Some("PodGroup"));
    assert_eq!(record.regarding.name.as_deref(), Some("train-a"));
    assert_eq!(record.regarding.namespace.as_deref(), Some("ml"));
}

#[test]
fn the_namespace_comes_from_the_command_or_the_scheduled_note() {
    // corpus 147: `kubectl get events` without a NAMESPACE column; the Scheduled note names it.
    let table = "LAST SEEN   TYPE      REASON      OBJECT       MESSAGE\n7m59s       Normal    Scheduled   pod/gpu-a    Successfully assigned team-a/gpu-a to node-a\n6m22s       Warning   Failed      pod/gpu-a    Error: ErrImagePull\n";
    let (records, _) = read(table);
    assert!(records.iter().all(|r| r.regarding.namespace.as_deref() == Some("team-a")), "{records:?}");
    // `-n NS` typed above it.
    let typed = format!(
        "$ kubectl get events -n team-b\n{}",
        table.replace("team-a/", "team-b/").lines().take(1).chain(table.lines().skip(2)).collect::<Vec<_>>().join("\n")
    );
    let (records, _) = read(&typed);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.regarding.namespace.as_deref(), Some("team-b"));
    // `--field-selector involvedObject.name=` names the object of rows that print none.
    let selected = "$ kubectl get events --field-selector involvedObject.name=gpu-c -n team-c\nLAST SEEN   TYPE      REASON    MESSAGE\n6m22s       Warning   Failed    Error: ErrImagePull\n";
    let (records, _) = read(selected);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(
        (record.regarding.name.as_deref(), record.regarding.namespace.as_deref()),
        (Some("gpu-c"), Some("team-c"))
    );
}

#[test]
fn a_reason_colon_message_line_wrapped_by_hand_is_one_event() {
    // corpus 125: `Reason: message` with the message continued on indented lines.
    let text = "Every call fails with:\nFailedPrepareDynamicResources: Failed to prepare dynamic resources:\n  NodePrepareResources failed for claim ml/claim-a:\n  plugin not ready\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedPrepareDynamicResources");
    assert_eq!(
        record.note,
        "Failed to prepare dynamic resources: NodePrepareResources failed for claim ml/claim-a: plugin not ready"
    );
    // A one-word reason before a colon is prose as often: not read.
    let (records, _) = read("Failed: the job did not start after three tries\n");
    assert!(records.is_empty(), "{records:?}");
}

#[test]
fn a_row_inside_a_sentence_ends_where_its_grammar_does() {
    // corpus 116: the sentence goes on after the message.
    let text = "It fails with  error Warning UnexpectedAdmissionError kubelet Allocate failed due to rpc error: code = Unknown desc = no gpu left, which is unexpected some of the time\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.note, "Allocate failed due to rpc error: code = Unknown desc = no gpu left, which is unexpected");
}

#[test]
fn container_states_pasted_alone_are_the_pods_status() {
    // corpus 178: a State/Last State fragment between prose lines, no header, no container name.
    let text = "still this,\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       OOMKilled\nany idea?\n";
    let (records, _) = read(text);
    assert!(records.iter().any(|r| r.has_flag(gpu_events_core::Flag::FromStatus)), "{records:?}");
}

#[test]
fn an_event_routers_lines_name_their_object_by_the_event_name() {
    // corpus 151 (Loki/eventrouter): `[Nx ]Reason: message (event-name)`, the name `<object>.<hex>`.
    let text = "event log:\n43x Nominated: Pod should schedule on: nodeclaim/pool-a, node/node-a (train-0.180819b84ef9dc25)\n    FailedScheduling: Failed to schedule pod, would schedule against uninitialized nodeclaim/pool-a, node/node-a (train-1.1807dbd7b70f6f8c)\n";
    let (records, _) = read(text);
    let [nominated, failed] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((nominated.reason.as_str(), nominated.count), ("Nominated", 43));
    assert_eq!(nominated.note, "Pod should schedule on: nodeclaim/pool-a, node/node-a");
    assert_eq!(nominated.regarding.name.as_deref(), Some("train-0"));
    assert_eq!(failed.regarding.name.as_deref(), Some("train-1"));
    // Without the count or the name, a one-word reason before a colon is prose.
    let (records, _) = read("Nominated: the pod should get a node soon\n");
    assert!(records.is_empty(), "{records:?}");
}

#[test]
fn a_scheduler_log_line_with_err_is_the_failed_scheduling_it_records() {
    // corpus 137 (k9s log pane): the container's name before each klog header.
    let text = "│ kube-scheduler E0417 07:44:16.769797       1 scheduler.go:367] \"Error scheduling pod; retrying\" err=\"binding rejected: node node6 has been locked within 5 minutes\" pod=\"default/gpu-a\"   │\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.note, "binding rejected: node node6 has been locked within 5 minutes");
    assert_eq!(
        (record.regarding.namespace.as_deref(), record.regarding.name.as_deref()),
        (Some("default"), Some("gpu-a"))
    );
    assert!(record.has_flag(gpu_events_core::Flag::FromLog));
    // corpus 219: a FitError is logged `no fit; waiting`, with `pod` before `err`.
    let text = "I1115 09:55:55.240368       1 schedule_one.go:854] \"Unable to schedule pod; no fit; waiting\" pod=\"default/gpu-pod\" err=\"0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod..\"\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((record.reason.as_str(), record.regarding.name.as_deref()), ("FailedScheduling", Some("gpu-pod")));
    assert!(record.note.starts_with("0/4 nodes are available: 4 Insufficient nvidia.com/gpu."));
    assert!(matches!(record.details, Some(gpu_events_core::details::Details::Scheduling(_))), "{record:?}");
}

#[test]
fn a_back_off_note_names_its_pod_for_the_rows_beside_it() {
    // corpus 184: a describe typed with a shell alias the readers do not know (`kn describe po`).
    let text = "kn describe po validator-h7h8p\n.....\nEvents:\n  Type     Reason   Age                From     Message\n  ----     ------   ----               ----     -------\n  Normal   Started  38s (x4 over 74s)  kubelet  Started container cuda-validation\n  Warning  BackOff  9s (x7 over 73s)   kubelet  Back-off restarting failed container cuda-validation in pod validator-h7h8p_gpu-operator(e5d64f72-86c8-4c90-936a-aa59a005abba)\n";
    let (records, _) = read(text);
    assert_eq!(records.len(), 2, "{records:?}");
    for record in &records {
        assert_eq!(
            (record.regarding.name.as_deref(), record.regarding.namespace.as_deref()),
            (Some("validator-h7h8p"), Some("gpu-operator"))
        );
    }
}

#[test]
fn a_line_of_prose_with_a_colon_is_not_a_yaml_object() {
    // An issue title: YAML parses it as a mapping, but it does not open as YAML does.
    let (records, reported) = read("Pod pending with error: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.\n");
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert!(reported.is_empty(), "{reported:?}");
}

#[test]
fn a_long_sentence_ending_in_a_colon_is_prose_not_a_describe_field() {
    // corpus 191: two spaces after the colon, as a describe pads its fields, in a sentence.
    let text = "But when I tried to run two containers in parallel I get the following error:  `Unschedulable: 0/1 nodes are available: 1 Insufficient aws.amazon.com/neuron.`\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.note, "0/1 nodes are available: 1 Insufficient aws.amazon.com/neuron.");
    assert!(record.has_flag(gpu_events_core::Flag::FromStatus), "the PodScheduled condition, not an event");
}

#[test]
fn a_sentence_that_opens_with_a_reason_word_is_not_a_lost_event() {
    // corpus 196: a plugin's error output; `Failed` opens English sentences as often as rows.
    let (records, reported) =
        read("the plugin prints:\nFailed to create watcher for /var/lib/kubelet/device-plugins/x.sock\n");
    assert!(records.is_empty());
    assert_eq!(reported, ["lines 1-2: text, not events"]);
    // A CamelCase reason opening a line that no reader takes is still reported as a loss.
    let (_, reported) = read("FailedMount happened twice on node a\n");
    assert!(reported[0].starts_with("LOST"), "{reported:?}");
}

#[test]
fn a_dra_error_names_the_pod_that_references_the_claim() {
    // corpus 126: the kubelet's message quoted in prose names its Pod only inside the message.
    let text = "I'm getting Failed to prepare dynamic resources: failed to fetch ResourceClaim claim-a referenced by pod train-0: the server could not find the requested resource\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedPrepareDynamicResources");
    assert_eq!(record.regarding.name.as_deref(), Some("train-0"));
}

#[test]
fn a_paste_that_opens_with_a_shell_prompt_in_brackets_is_text_not_json() {
    // corpus 108: `[root@host dir]# kubectl ...` opens with a bracket; it was read as a JSON
    // array and the whole paste came out as one JSON syntax error.
    let text = format!(
        "\n[root@pc2 test]# kubectl describe pod gpu-pod\nEvents:\n  Type     Reason            Age                   From               Message\n  ----     ------            ----                  ----               -------\n{ROW}\n"
    );
    let (records, reported) = read(&text);
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.regarding.name.as_deref(), Some("gpu-pod"));
    assert!(reported.iter().all(|r| !r.contains("JSON")), "{reported:?}");
}

#[test]
fn unnamed_events_beside_a_pods_table_are_the_one_stuck_pods() {
    // corpus 207: three operand Pods, one not ready; the pasted row names no object.
    let text = "NAME                                       READY   STATUS     RESTARTS   AGE\nnvidia-container-toolkit-daemonset-xpb75   1/1     Running    0          6h28m\nnvidia-device-plugin-daemonset-dz822       0/1     Init:0/1   0          6h25m\nnvidia-driver-daemonset-9k77n              1/1     Running    0          6h30m\nand in the description of the DevicePlugin:\nWarning  FailedCreatePodSandBox  4m15s (x1760 over 6h24m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler nvidia from runtime list map[runc:0xc00044e460]\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.regarding.name.as_deref(), Some("nvidia-device-plugin-daemonset-dz822"));
    // Two Pods stuck: the row's object is not guessed.
    let two = text.replace("1/1     Running    0          6h30m", "0/1     Init:0/1   0          6h30m");
    let (records, _) = read(&two);
    assert_eq!(
        records.iter().filter(|r| r.regarding.name.is_some() && r.reason == "FailedCreatePodSandBox").count(),
        0
    );
}

#[test]
fn kais_pod_grouper_names_the_pod_it_records_on() {
    // corpus 110: a Pod's Events section pasted without its describe header.
    let text = "Events:\n  Type     Reason             Age                    From           Message\n  ----     ------             ----                   ----           -------\n  Warning  PodGrouperWarning  12m                    pod-grouper    Pod \"qa-build\" not found\n  Warning  Unschedulable      2m11s (x599 over 12m)  kai-scheduler  Unable to schedule pod\n";
    let (records, _) = read(text);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(
            (record.regarding.kind.as_deref(), record.regarding.name.as_deref()),
            (Some("Pod"), Some("qa-build"))
        );
    }
}

#[test]
fn a_console_list_with_the_reason_on_its_own_line() {
    // corpus 111: a dashboard's event list, reason line then message line.
    let text = "unable to schedule the train pod.\nPodGrouperWarning\nPod \"train-pod\" not found\nFailedScheduling\n0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\nSummary\nThe pod never starts.\n";
    let (records, reported) = read(text);
    let reasons: Vec<&str> = records.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["PodGrouperWarning", "FailedScheduling"], "{reported:?}");
    assert!(records.iter().all(|r| r.regarding.name.as_deref() == Some("train-pod")));
    // The heading and its sentence are text, reported as such.
    assert!(reported.iter().any(|r| r.contains("lines 6-7")), "{reported:?}");
}

#[test]
fn a_sandbox_network_error_names_its_pod() {
    // microsoft/pai#4572 (a new user's paste): dockershim names the Pod twice in the chain.
    let text = "  Warning  FailedCreatePodSandBox  39m  kubelet, gtx1080-2  Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container \"0a1b\" network for pod \"nvidia-device-plugin-daemonset-mjwnq\": NetworkPlugin cni failed to set up pod \"nvidia-device-plugin-daemonset-mjwnq_kube-system\" network: dial tcp 10.192.0.1:443: i/o timeout\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(
        (record.regarding.name.as_deref(), record.regarding.namespace.as_deref()),
        (Some("nvidia-device-plugin-daemonset-mjwnq"), Some("kube-system"))
    );
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    assert_eq!(diagnoses[0].cause, gpu_events_core::diagnose::Cause::PodNetworkFailed);
}

#[test]
fn an_event_the_server_rejected_is_read_from_its_go_dump() {
    // Project-HAMi/HAMi#1069 (a new user's paste): client-go logs the refused Event as `%#v`.
    let text = "E0522 10:32:28.457052       1 event_broadcaster.go:253] Server rejected event '&v1.Event{TypeMeta:v1.TypeMeta{Kind:\"\", APIVersion:\"\"}, ObjectMeta:v1.ObjectMeta{Name:\"qwen-5bpm5.1841d2d261a2c8f9\", Namespace:\"privatemodel\"}, ReportingController:\"hami-scheduler\", ReportingInstance:\"hami-scheduler-x\", Action:\"Scheduling\", Reason:\"FailedScheduling\", Regarding:v1.ObjectReference{Kind:\"Pod\", Namespace:\"privatemodel\", Name:\"qwen-5bpm5\", UID:\"4fcb\", APIVersion:\"v1\", ResourceVersion:\"1\", FieldPath:\"\"}, Related:(*v1.ObjectReference)(nil), Note:\"0/4 nodes are available: 4 Insufficient nvidia.com/gpu. with \\\"quotes\\\"\", Type:\"Warning\", DeprecatedCount:0}': 'events.events.k8s.io \"qwen-5bpm5.1841d2d261a2c8f9\" is forbidden: unable to create new content in namespace privatemodel because it is being terminated' (will not retry!)\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!(
        (record.reason.as_str(), record.type_.as_ref().map(|t| t.as_str())),
        ("FailedScheduling", Some("Warning"))
    );
    assert_eq!(record.note, "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. with \"quotes\"");
    assert_eq!(
        (record.regarding.kind.as_deref(), record.regarding.namespace.as_deref(), record.regarding.name.as_deref()),
        (Some("Pod"), Some("privatemodel"), Some("qwen-5bpm5"))
    );
    assert_eq!(record.reporting_controller.as_deref(), Some("hami-scheduler"));
    // core/v1's fields (tools/record): `InvolvedObject:` and `Message:`.
    let core = "W0101 00:00:00.000000       1 event.go:1] Server rejected event '&v1.Event{ObjectMeta:v1.ObjectMeta{Name:\"a.1\"}, InvolvedObject:v1.ObjectReference{Kind:\"Pod\", Namespace:\"ml\", Name:\"a\"}, Reason:\"BackOff\", Message:\"Back-off restarting failed container main in pod a_ml(u)\", Type:\"Warning\"}': 'x' (will not retry!)\n";
    let (records, _) = read(core);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((record.reason.as_str(), record.regarding.name.as_deref()), ("BackOff", Some("a")));
    assert!(record.note.starts_with("Back-off restarting failed container main"));
}

#[test]
fn the_v1_4_fit_error_names_its_pod_and_its_nodes_reasons() {
    // kubernetes/kubernetes#37232 (a new user's paste): the pre-1.8 table, one line per node.
    let text = "Events:\n  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason\t\t\tMessage\n  ---------\t--------\t-----\t----\t\t\t-------------\t--------\t------\t\t\t-------\n  3m\t\t3m\t\t2\t{default-scheduler }\t\t\tWarning\t\tFailedScheduling\tpod (jenkins-0) failed to fit in any node\nfit failure on node (gke-a): Insufficient nvidia.com/gpu\nfit failure on node (gke-b): Insufficient nvidia.com/gpu\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!((record.regarding.name.as_deref(), record.count), (Some("jenkins-0"), 2));
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    assert_eq!(diagnoses[0].cause, gpu_events_core::diagnose::Cause::InsufficientGpu);
}

#[test]
fn the_gke_consoles_summary_is_the_pods_condition() {
    // GoogleCloudPlatform/container-engine-accelerators#104, corpus 187: the console's workload error.
    let (records, _) = read("The workload shows PodUnschedulable Cannot schedule pods: Insufficient nvidia.com/gpu.\n");
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert!(record.has_flag(gpu_events_core::Flag::FromStatus), "a condition, not an event");
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    assert_eq!(
        (diagnoses[0].cause, diagnoses[0].confidence),
        (gpu_events_core::diagnose::Cause::InsufficientGpu, gpu_events_core::diagnose::Confidence::Medium)
    );
    // Cut at the dot of the resource's name, the console names no resource: no cause is made up.
    let (records, _) = read("1.PodUnschedulable Cannot schedule pods: Insufficient nvidia\n");
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    assert!(diagnoses.iter().all(|d| d.cause == gpu_events_core::diagnose::Cause::Unknown), "{diagnoses:#?}");
}

#[test]
fn a_row_cut_after_its_age_is_not_glued_onto_the_message_above() {
    // kserve/kserve#3124-like `get events` rows (coreweave/kubernetes-cloud#125): the paste ends
    // in a row cut after its LAST SEEN.
    let text = "2m37s                  Warning   InternalError            InferenceService/sd4              fails to reconcile predictor: please apply your changes to the latest version and try again\n2m36s\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert!(record.note.ends_with("and try again"), "{}", record.note);
    assert_eq!(record.regarding.kind.as_deref(), Some("InferenceService"));
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert!(reported[0].contains("line 2"), "{reported:?}");
}

#[test]
fn a_describe_row_whose_message_went_onto_the_next_line_keeps_it() {
    // defilantech/LLMKube#78 (corpus 232): no age, the message alone on the next line.
    let text = "The actual scheduling failure is only visible via `kubectl describe pod`:\nWarning  FailedScheduling  default-scheduler\n0/1 nodes are available: 1 Insufficient nvidia.com/gpu\n\n## Expected Behavior\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.note, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu");
    assert_eq!(record.reporting_controller.as_deref(), Some("default-scheduler"));
}

#[test]
fn a_terminal_wrap_inside_a_url_or_a_quoted_name_adds_no_space() {
    // kubeflow/website#2340 (corpus 244): the wrap fell inside a project id in a URL.
    let text = "  Normal   TriggeredScaleUp   11m   cluster-autoscaler  pod triggered scale-up: [{https://content.googleapis.com/compute/v1/projects/sample-proj1-281\n118/zones/europe-west1-b/instanceGroups/gke-cluster-kf-nap-grp 0->1 (max: 1000)}]\n";
    let (records, _) = read(text);
    assert!(records[0].note.contains("projects/sample-proj1-281118/zones/"), "{}", records[0].note);
    // Inside a quoted volume name too; between words, a space.
    let text = "  Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"pvc-0b3a9c1e-5d2f-4c1b-9e8a-1234567890ab-and-a-long-tail-to-reach-the-w\nidth\" : rpc error: code = Internal desc = mount failed\n";
    let (records, _) = read(text);
    assert!(records[0].note.contains("reach-the-width\" : rpc error"), "{}", records[0].note);
    let text = "  Warning  FailedScheduling  2m  default-scheduler  0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 2 Insufficient\nnvidia.com/gpu.\n";
    let (records, _) = read(text);
    assert!(records[0].note.ends_with("2 Insufficient nvidia.com/gpu."), "{}", records[0].note);
}

#[test]
fn an_event_reissued_on_its_owner_keeps_its_own_grammar_and_object() {
    // kubeflow/website#2340 (corpus 244): the notebook-controller copies its Pod's events onto
    // the Notebook with a `Reissued from pod/NAME: ` prefix.
    let text = "Events:\n  Type     Reason             Age   From                 Message\n  ----     ------             ----  ----                 -------\n  Warning  FailedScheduling   12m   notebook-controller  Reissued from pod/gpu1-0: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert!(record.note.starts_with("Reissued from pod/gpu1-0: "), "the note stays verbatim");
    assert!(matches!(record.details, Some(gpu_events_core::details::Details::Scheduling(_))), "{:?}", record.details);
    let related = record.related.as_ref().unwrap();
    assert_eq!((related.kind.as_deref(), related.name.as_deref()), (Some("Pod"), Some("gpu1-0")));
    // The section is the owner's, not a Pod's: no kind is inferred from the reason.
    assert_eq!(record.regarding.kind, None);
}

#[test]
fn the_kubelets_v1_7_mount_timeout_and_sync_error_are_read_and_name_their_pod() {
    // kubernetes/kubernetes#48968 (a new user's paste): messages quoted without their rows.
    let text = "Cluster 1.7.2\n\nUnable to mount volumes for pod \"imgs-640158079-lq5rg_imgs(cc617d27-76c1-11e7-b22a-42010a84002d)\": timeout expired waiting for volumes to attach/mount for pod \"imgs\"/\"imgs-640158079-lq5rg\". list of unattached/unmounted volumes=[nginx-cache]\nError syncing pod\n";
    let (records, _) = read(text);
    let reasons: Vec<_> = records.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["FailedMount", "FailedSync"]);
    for record in &records {
        assert_eq!(
            (record.regarding.name.as_deref(), record.regarding.namespace.as_deref()),
            (Some("imgs-640158079-lq5rg"), Some("imgs"))
        );
    }
    assert!(matches!(records[0].details, Some(gpu_events_core::details::Details::Node(_))));
}

#[test]
fn a_failed_sync_logged_by_the_kubelet_is_the_step_that_failed() {
    // NVIDIA/gpu-operator#349 (a new user's paste): the journal's pod worker line.
    let text = r#"kubelet[1311]: E0505 18:42:19.812688    1311 pod_workers.go:949] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"nvidia-device-plugin-daemonset-h9kxw_gpu-operator(8e491f32)\" with CreatePodSandboxError: \"Failed to create sandbox for pod \\\"nvidia-device-plugin-daemonset-h9kxw_gpu-operator(8e491f32)\\\": rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \\\"nvidia\\\" is configured\"" pod="gpu-operator/nvidia-device-plugin-daemonset-h9kxw" podUID=8e491f32
"#;
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedCreatePodSandBox");
    assert_eq!(
        record.note,
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured"
    );
    assert!(record.has_flag(gpu_events_core::Flag::FromLog));
    assert_eq!(record.regarding.namespace.as_deref(), Some("gpu-operator"));
    // A back-off is the container's state; a sync of another step is only logged.
    let text = r#"E1212 16:05:01.543282   25231 pod_workers.go:190] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"toolkit-validation\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=toolkit-validation pod=nvidia-operator-validator-c9wp2_default(9e0a951e)\"" pod="default/nvidia-operator-validator-c9wp2"
E1212 16:05:02.000000   25231 pod_workers.go:190] "Error syncing pod, skipping" err="failed to \"KillPodSandbox\" for \"x\" with KillPodSandboxError: \"timeout\"" pod="default/x"
"#;
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(
        (record.reason.as_str(), record.regarding.name.as_deref()),
        ("CrashLoopBackOff", Some("nvidia-operator-validator-c9wp2"))
    );
}

#[test]
fn rows_cut_by_the_paste_are_not_glued_onto_the_row_above() {
    // volcano-sh/volcano#4971 and Project-HAMi/HAMi#1332 (a new user's pastes): the last row cut
    // after its age, or inside its TYPE.
    let text = "  Warning  FailedScheduling  34m                   volcano  pod group is not ready, 1 minAvailable, 39 Pending; Pending: 39 Unschedulable\n  Warning  FailedScheduling  34m (x2 over 34m)\n";
    let (records, _) = read(text);
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(records[0].note.ends_with("Pending: 39 Unschedulable"), "{}", records[0].note);
    assert_eq!((records[1].count, records[1].note.as_str()), (2, ""));
    assert!(records[1].has_flag(gpu_events_core::Flag::CutInPaste));
    let text = "  Warning  FilteringFailed  93s (x8 over 12d)       hami-scheduler  3 nodes failed: CardInsufficientMemory (node2,node3,node5)\n  Warn\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert!(record.note.ends_with("(node2,node3,node5)"), "{}", record.note);
    assert!(reported.iter().any(|r| r.contains("line 2")), "{reported:?}");
}

#[test]
fn a_controllers_row_is_about_its_kind_and_a_forbidden_pods_generate_name_names_it() {
    // kubernetes/kubernetes (corpus 229): a row in backticks at the end of a sentence.
    let text = "But when I try to run any deployment in that namespace, I get the error as\n `Warning   FailedCreate   replicaset-controller   Error creating: pods \"tensorflow-3620546736-\" is forbidden: status unknown for quota: quota`. \nThis error goes away if I remove the GPU from resource quota.\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(
        record.note,
        "Error creating: pods \"tensorflow-3620546736-\" is forbidden: status unknown for quota: quota"
    );
    assert_eq!(
        (record.regarding.kind.as_deref(), record.regarding.name.as_deref()),
        (Some("ReplicaSet"), Some("tensorflow-3620546736"))
    );
    assert!(record.has_flag(gpu_events_core::Flag::InferredKind));
    // kubectl before 1.14 without its header: KIND and the Event's name give the object.
    let text = "59m         6d           124       allocation-manager-6597bc46dc.1576a87b365ab1e4         ReplicaSet                                         Warning   FailedCreate            replicaset-controller                                  Error creating: pods \"allocation-manager-6597bc46dc-x\" is forbidden: exceeded quota: namespace-quota\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.regarding.name.as_deref(), Some("allocation-manager-6597bc46dc"));
    assert_eq!(record.count, 124);
}

#[test]
fn a_typed_describe_of_a_kind_the_reason_is_never_about_does_not_name_the_row() {
    // NVIDIA/k8s-device-plugin#283 (a new user's paste): a node's describe through egrep, prose,
    // then the Pod's row.
    let text = "oc describe node node0-066an8.ocx.oqg  | egrep 'Capacity|Allocatable|gpu'\nCapacity:\n nvidia.com/gpu:  2\n\nand then, My test pod could not be scheduled to the GPU node\n\n  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu.\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((record.regarding.kind.as_deref(), record.regarding.name.as_deref()), (Some("Pod"), None));
    // Its own describe's Events are the Node's, whatever their reason.
    let text = "Name:               node-a\nRoles:              <none>\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  3s    default-scheduler  odd, but printed under the node\n";
    let (records, _) = read(text);
    assert_eq!(records[0].regarding.kind.as_deref(), Some("Node"));
}

#[test]
fn an_issue_title_that_quotes_a_message_is_read() {
    // NVIDIA/k8s-device-plugin#421 (a new user's paste): the title, as a markdown heading.
    let text = "# Device plugin not starting and pod showing `0/1 nodes are available: 1 node(s) had untolerated taint {gpu: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    // A paste's own `# ...` comment is still no text to report.
    let (records, reported) = read("# ... (rest omitted) ...\n");
    assert!(records.is_empty() && reported.is_empty(), "{records:?} {reported:?}");
}

#[test]
fn a_row_without_a_type_column_takes_the_reasons_only_type() {
    // vllm-project/aibrix#909 (a new user's paste): rows pasted without their TYPE.
    let text = "  FailedScheduling  2m  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n";
    let (records, _) = read(text);
    assert_eq!(records[0].type_.as_ref().map(|t| t.as_str()), Some("Warning"));
    assert!(records[0].has_flag(gpu_events_core::Flag::InferredType));
    // A reason the catalogue knows with both types stays without one.
    let text = "  Created  2m  kubelet  Created container vllm\n  Failed  2m  kubelet  Error: ErrImagePull\n";
    let (records, _) = read(text);
    let created = records.iter().find(|r| r.reason == "Created").unwrap();
    assert!(created.type_.is_some() == created.has_flag(gpu_events_core::Flag::InferredType));
}

#[test]
fn a_folded_message_pasted_as_text_is_read_whole() {
    // NVIDIA/gpu-operator#156 (a new user's paste): a condition's folded message, mis-indented
    // under its reason, between prose.
    let text = "nvidia-device-plugin-validation reports: \n\n  reason: Unschedulable\n      message: >-\n        0/10 nodes are available: 1 node(s) had taint {workload: aiml}, that the\n        pod didn't tolerate, 9 Insufficient nvidia.com/gpu.\n\n### 2. Steps to reproduce the issue\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(
        record.note,
        "0/10 nodes are available: 1 node(s) had taint {workload: aiml}, that the pod didn't tolerate, 9 Insufficient nvidia.com/gpu."
    );
}

#[test]
fn a_containers_zero_start_time_is_no_time() {
    // gpustack/gpustack#3989 (a new user's paste): `startedAt` of a container that never started.
    let text = "status:\n  containerStatuses:\n  - name: main\n    state:\n      terminated:\n        exitCode: 128\n        reason: StartError\n        message: 'failed to create containerd task: unresolvable CDI devices management.nvidia.com/gpu=0: unknown'\n        startedAt: '1970-01-01T00:00:00Z'\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "StartError");
    assert!(record.first_timestamp.is_none_or(|t| t.timestamp() > 0), "{:?}", record.first_timestamp);
}

#[test]
fn conditions_logs_and_other_tables_are_not_events() {
    // A helper's false positives: a Node's condition, a log record, `get all -A`, `top nodes`.
    for text in [
        "{\"type\":\"MemoryPressure\",\"status\":\"False\",\"reason\":\"KubeletHasSufficientMemory\",\"message\":\"kubelet has sufficient memory available\"}\n",
        "{\"level\":\"info\",\"message\":\"launched nodeclaim\"}\n",
        "NAMESPACE     NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\ndefault       service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   5d\n",
        "k8s-master     74m          3%     2666Mi          65%\n",
    ] {
        let (records, reported) = read(text);
        assert!(records.is_empty(), "{text}: {records:?}");
        assert!(reported.iter().all(|r| !r.starts_with("LOST")), "{text}: {reported:?}");
    }
    // A custom resource's describe Conditions are no container states (cert-manager#739).
    let text = "Name:         tls-cert\nKind:         Certificate\nStatus:\n  Conditions:\n    Reason:   OrderValidated\n    Message:  Certificate issued successfully\n";
    let (records, _) = read(text);
    assert!(records.is_empty(), "{records:?}");
    let text = "Status:\n  Conditions:\n    Message:  Node not registered with cluster\n    Reason:   AwaitingReconciliation\n";
    let (records, _) = read(text);
    assert!(records.is_empty(), "{records:?}");
}

#[test]
fn a_pvcs_capacity_is_no_nodes() {
    // hwameistor/hwameistor#648 (a helper's paste): `describe pvc` typed above its output.
    let text = "kubectl describe pvc test-pvc\nName:          test-pvc\nNamespace:     default\nStatus:        Pending\nCapacity:      \nEvents:\n  Type    Reason                Age   From                         Message\n  ----    ------                ----  ----                         -------\n  Normal  WaitForFirstConsumer  10s   persistentvolume-controller  waiting for first consumer to be created before binding\n";
    let (records, _) = read(text);
    assert_eq!(records[0].regarding.kind.as_deref(), Some("PersistentVolumeClaim"), "{records:?}");
}

#[test]
fn a_status_cell_of_another_table_is_no_lost_event() {
    // hwameistor/hwameistor#648, tektoncd/cli#1083 (a helper's pastes): `get pvc`, `get tr`.
    for text in [
        "NAME       STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS                 AGE\ntest-pvc   Pending                                      hwameistor-storage-lvm-hdd   10m\n",
        "github-check-pr-files-run-qvcb7   False       Failed   41m         9s\n",
    ] {
        let (records, reported) = read(text);
        assert!(records.is_empty(), "{records:?}");
        assert!(reported.iter().all(|r| !r.starts_with("LOST")), "{text}: {reported:?}");
    }
    // A CamelCase reason in a column still is.
    let (_, reported) = read("pod-x   FailedMount   10m   something we cannot read\n");
    assert!(reported.iter().any(|r| r.starts_with("LOST")), "{reported:?}");
}

#[test]
fn a_nodes_own_kubelet_events_are_named_by_their_host() {
    // Azure/acs-engine#4236 (a helper's paste): a node's Events with `kubelet, HOST` in FROM.
    let text = "  Normal   NodeHasSufficientMemory  22m   kubelet, k8s-agentpool-39580029-vmss000000  Node k8s-agentpool-39580029-vmss000000 status is now: NodeHasSufficientMemory\n";
    let (records, _) = read(text);
    assert_eq!(
        (records[0].regarding.kind.as_deref(), records[0].regarding.name.as_deref()),
        (Some("Node"), Some("k8s-agentpool-39580029-vmss000000"))
    );
    // A Pod's kubelet event names no node as its object.
    let text = "  Normal   Pulled  22m   kubelet, node-a  Container image \"x\" already present on machine\n";
    let (records, _) = read(text);
    assert_ne!(records[0].regarding.kind.as_deref(), Some("Node"));
}

#[test]
fn the_old_schedulers_unable_to_schedule_line_is_its_fit_error() {
    // Project-HAMi/HAMi#6 (a helper's paste): kube-scheduler v1.10-v1.18's klog line.
    let text = "I0124 08:49:33.398379       1 factory.go:453] Unable to schedule blue/gpu-pod1: no fit: 0/5 nodes are available: 4 node(s) didn't match node selector.; waiting\n";
    let (records, _) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.reason, "FailedScheduling");
    assert_eq!(record.note, "0/5 nodes are available: 4 node(s) didn't match node selector.");
    assert_eq!(
        (record.regarding.namespace.as_deref(), record.regarding.name.as_deref()),
        (Some("blue"), Some("gpu-pod1"))
    );
    assert!(record.has_flag(gpu_events_core::Flag::FromLog) && record.has_flag(gpu_events_core::Flag::ApproximateTime));
}

#[test]
fn a_described_event_is_that_event() {
    // sapcc/helm-charts#548 (a new user's paste): `kubectl describe event`.
    let text = "Name:             resource-test-bdfcd9f5-g8jq5.157e0a42f7ead471\nNamespace:        default\nLabels:           <none>\nAPI Version:      v1\nCount:            12\nFirst Timestamp:  2019-01-28T14:43:24Z\nInvolved Object:\n  API Version:       v1\n  Kind:              Pod\n  Name:              resource-test-bdfcd9f5-g8jq5\n  Namespace:         default\nKind:                Event\nLast Timestamp:      2019-01-28T14:45:34Z\nMessage:             No nodes are available that match all of the predicates: Insufficient cpu (19), Insufficient memory (19), PodToleratesNodeTaints (10).\nReason:              FailedScheduling\nSource:\n  Component:  default-scheduler\nType:         Warning\nEvents:       <none>\n";
    let (records, reported) = read(text);
    let [record] = records.as_slice() else { panic!("{records:?} {reported:?}") };
    assert_eq!((record.reason.as_str(), record.count), ("FailedScheduling", 12));
    assert_eq!(
        (record.regarding.kind.as_deref(), record.regarding.name.as_deref(), record.regarding.namespace.as_deref()),
        (Some("Pod"), Some("resource-test-bdfcd9f5-g8jq5"), Some("default"))
    );
    assert_eq!(record.reporting_controller.as_deref(), Some("default-scheduler"));
    assert_eq!(record.first_timestamp.map(|t| t.to_rfc3339()), Some("2019-01-28T14:43:24+00:00".to_owned()));
    assert_eq!(record.last_timestamp.map(|t| t.to_rfc3339()), Some("2019-01-28T14:45:34+00:00".to_owned()));
    assert!(!record.has_flag(gpu_events_core::Flag::FromStatus));
    assert_eq!(record.event_name.as_deref(), Some("resource-test-bdfcd9f5-g8jq5.157e0a42f7ead471"));
}

#[test]
fn rows_after_a_label_are_rows_of_their_own() {
    // breaker29 (volcano#3198): each row after a bullet and a `kind event：` label.
    let text = "- vcJob event：Warning  PodGroupPending  38s   vc-controller-manager  PodGroup default:dlp unschedule,reason: 1/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable\n- podGroup event：Normal   Unschedulable  92s (x13 over 105s)  volcano  queue resource quota insufficient\n";
    let (records, _) = read(text);
    let read: Vec<(&str, Option<gpu_events_core::EventType>, u32)> =
        records.iter().map(|r| (r.reason.as_str(), r.type_.clone(), r.count)).collect();
    assert_eq!(
        read,
        [
            ("PodGroupPending", Some(gpu_events_core::EventType::Warning), 1),
            ("Unschedulable", Some(gpu_events_core::EventType::Normal), 13)
        ]
    );
    assert_eq!(records[1].note, "queue resource quota insufficient");
    // The queue's quota: Volcano's queue is where to look, not only ResourceQuotas.
    let diagnoses = gpu_events_core::diagnose::diagnose(&records);
    let quota = diagnoses.iter().find(|d| d.cause == gpu_events_core::diagnose::Cause::GpuQuotaExceeded).unwrap();
    assert!(quota.next_steps.iter().any(|s| s.starts_with("kubectl get queues.scheduling.volcano.sh")), "{quota:#?}");
}

#[test]
fn a_describe_pasted_indented_reads_as_printed() {
    // Corpus 187: the whole describe indented two spaces under a sentence.
    let text = "This is the output of `kubectl describe pods`:\n  Name:           xyz-v1\n  Namespace:      default\n  Status:         Pending\n  Containers:\n    c:\n      Image:      tensorflow/serving:1.11.1-gpu\n  Events:\n    Type     Reason            Age  From               Message\n    ----     ------            ---  ----               -------\n    Warning  FailedScheduling  1m   default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n";
    let (records, _) = read(text);
    let scheduling = records.iter().find(|r| r.reason == "FailedScheduling").unwrap();
    assert_eq!(scheduling.regarding.name.as_deref(), Some("xyz-v1"));
    assert_eq!(scheduling.regarding.namespace.as_deref(), Some("default"));
    // A `Name:` nested in a status block (a Kueue admission check) opens no describe.
    let nested = "Status:\n  Admission Checks:\n    Message:               Retrying after failure: Max nodepool size reached\n    Name:                  dws-prov\n    State:                 Retry\n";
    let (records, _) = read(nested);
    assert!(records.iter().all(|r| r.regarding.name.as_deref() != Some("dws-prov")), "{records:#?}");
}

#[test]
fn a_line_posted_as_inline_code_is_read_without_its_backticks() {
    // Corpus 234: a `get pods -A` row without its header, in backticks, names the stuck Pod.
    let (records, _) = read("`gpu-test2         pod       0/2     CrashLoopBackOff   14 (2m29s ago)   13m`\n");
    let [status] = records.as_slice() else { panic!("{records:#?}") };
    assert_eq!(
        (status.regarding.namespace.as_deref(), status.regarding.name.as_deref()),
        (Some("gpu-test2"), Some("pod"))
    );
    assert_eq!(status.reason, "CrashLoopBackOff");
}
