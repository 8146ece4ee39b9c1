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
    assert_eq!(reported, ["line 1: text, not events", "line 4: text, not events"]);
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
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].regarding.name.as_deref(), Some("gpu-pod"));
    assert_eq!(reported, ["lines 1-2: a `kubectl get pods` table, not events"]);
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
