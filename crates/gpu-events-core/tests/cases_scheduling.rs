//! The scheduler grammars (kube-scheduler, Volcano, KAI-Scheduler, HAMi) against the real event
//! text of `tests/fixtures/cases`: every value each case's `# expected:` block lists for a
//! scheduler message, through the catalogue row's grammar, plus an insta JSON snapshot of the
//! whole details. A proptest checks that the parsers never panic.

use gpu_events_core::ReasonName;
use gpu_events_core::details::scheduling::{
    Ending, FitError, FitErrorWording, HamiNoAvailableNode, KaiUnschedulable, NodeReason, Preemption, Scheduled,
    SchedulingDetails,
};
use gpu_events_core::details::{Details, Note};
use proptest::prelude::*;

mod common;
#[allow(unused_imports)]
use common::*;

const C001: &str = fixture!("001-insufficient-gpu-node-unschedulable.txt");
const C003: &str = fixture!("003-gpushare-aliyun-gpu-mem.txt");
const C013: &str = fixture!("013-karpenter-incompatible-nodepool-gpu.txt");
const C015: &str = fixture!("015-eks-karpenter-nominated-multi-insufficient.txt");
const C017: &str = fixture!("017-k3s-amd-gpu-preemption-double-period.txt");
const C019: &str = fixture!("019-gpu-manager-exceedsgpuquota.txt");
const C021: &str = fixture!("021-hami-nodeunfitpod-kueue.txt");
const C025: &str = fixture!("025-rke2-taint-didnt-tolerate-get-events.txt");
const C027: &str = fixture!("027-k3s-geti-x351-over-23h.txt");
const C039: &str = fixture!("039-hami-mixed-reasons-filteringfailed.txt");
const C045: &str = fixture!("045-kai-scheduler-unschedulable-no-age.txt");

/// Run the grammar of the catalogue row that `reason` from `reporter` resolves to.
fn details(reason: &str, reporter: &str, note: &str) -> SchedulingDetails {
    let info = ReasonName::resolve(reason, Some(reporter))
        .info()
        .unwrap_or_else(|| panic!("{reason} from {reporter} is not catalogued"));
    let grammar = info.grammar.unwrap_or_else(|| panic!("{} has no grammar", info.id));
    match grammar.parse(&Note::new(note)) {
        Details::Scheduling(details) => {
            assert!(grammar.kinds.contains(&details.kind()), "{}", details.kind());
            details
        }
        other => panic!("{reason} from {reporter}: {note}: {other:?}"),
    }
}

/// The FitError of a `FailedScheduling` note, through the catalogue; checks that the direct
/// parser agrees.
fn fit_error(reporter: &str, note: &str) -> FitError {
    match details("FailedScheduling", reporter, note) {
        SchedulingDetails::FitError(fit) => {
            assert_eq!(FitError::parse(note).as_ref(), Some(&fit));
            fit
        }
        other => panic!("not a FitError: {other:?}"),
    }
}

/// `(count, type, text)` of each histogram entry.
fn entries(reasons: &[gpu_events_core::details::scheduling::ReasonCount]) -> Vec<(u32, String, &str)> {
    reasons
        .iter()
        .map(|entry| {
            let json = serde_json::to_value(&entry.reason).unwrap();
            let kind = json["type"].as_str().unwrap().to_owned();
            (entry.count, kind, entry.reason.text())
        })
        .collect()
}

fn entry(count: u32, kind: &str, text: &'static str) -> (u32, String, &'static str) {
    (count, kind.to_owned(), text)
}

/// `(totalNodes, entries)` of a preemption histogram.
fn preemption(fit: &FitError) -> (u32, Vec<(u32, String, &str)>) {
    match &fit.preemption {
        Some(Preemption::Nodes { total_nodes, reasons }) => (*total_nodes, entries(reasons)),
        other => panic!("no preemption histogram: {other:?}"),
    }
}

const NO_VICTIMS: &str = "No preemption victims found for incoming pod";

#[test]
fn case_001_pre_1_24_no_preemption() {
    let note = message(C001, "0/2 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.wording, FitErrorWording::Available);
    assert_eq!(fit.total_nodes, Some(2));
    assert_eq!(
        entries(&fit.reasons),
        [
            entry(1, "insufficient", "Insufficient nvidia.com/gpu"),
            entry(1, "unschedulable", "node(s) were unschedulable"),
        ]
    );
    assert_eq!(fit.insufficient("nvidia.com/gpu"), Some(1));
    assert_eq!(fit.preemption, None);
    assert!(fit.post_filter.is_empty());
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_001_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_003_vendor_resource_no_period() {
    let note = message(C003, "0/2 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(2));
    assert_eq!(entries(&fit.reasons), [entry(2, "insufficient", "Insufficient aliyun.com/gpu-mem")]);
    assert_eq!(fit.insufficient("aliyun.com/gpu-mem"), Some(2));
    assert_eq!(fit.ending, Ending::None);
    assert_eq!(fit.preemption, None);
    insta::assert_json_snapshot!("case_003_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_013_default_scheduler_line() {
    let note = message(C013, "0/3 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(3));
    assert_eq!(entries(&fit.reasons), [entry(3, "insufficient", "Insufficient nvidia.com/gpu")]);
    assert_eq!(preemption(&fit), (3, vec![entry(3, "noPreemptionVictims", NO_VICTIMS)]));
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_013_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_015_multi_resource_insufficient() {
    let note = message(C015, "0/8 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(8));
    assert_eq!(fit.insufficient("cpu"), Some(1));
    assert_eq!(fit.insufficient("memory"), Some(3));
    assert_eq!(fit.insufficient("nvidia.com/gpu"), Some(8));
    assert_eq!(fit.reasons.len(), 3);
    assert_eq!(preemption(&fit), (8, vec![entry(8, "noPreemptionVictims", NO_VICTIMS)]));
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_015_fit_error", SchedulingDetails::FitError(fit));

    // The Scheduled row of the same case.
    let note = message(C015, "Successfully assigned");
    let SchedulingDetails::Scheduled(scheduled) = details("Scheduled", "default-scheduler", note) else {
        panic!("not Scheduled");
    };
    assert_eq!(Scheduled::parse(note).as_ref(), Some(&scheduled));
    assert_eq!(scheduled.namespace.as_deref(), Some("stablediffusion"));
    assert_eq!(scheduled.pod, "stablediffusion-raycluster-ms6pl-worker-gpu-85d22");
    assert_eq!(scheduled.node, "node-a");
}

#[test]
fn case_017_amd_gpu_double_period() {
    let note = message(C017, "0/1 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(1));
    assert_eq!(entries(&fit.reasons), [entry(1, "insufficient", "Insufficient amd.com/gpu")]);
    // No empty trailing reason from the "..".
    assert_eq!(preemption(&fit), (1, vec![entry(1, "noPreemptionVictims", NO_VICTIMS)]));
    assert_eq!(fit.ending, Ending::DoublePeriod);
    insta::assert_json_snapshot!("case_017_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_019_extender_token_kept_as_other() {
    let note = message(C019, "0/2 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(2));
    assert_eq!(entries(&fit.reasons), [entry(2, "other", "ExceedsGPUQuota")]);
    assert_eq!(fit.reasons[0].reason, NodeReason::parse("ExceedsGPUQuota"));
    assert_eq!(fit.preemption, None);
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_019_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_021_hami_node_unfit_pod_two_rows() {
    let notes = messages(C021, "0/1 nodes are available");
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0], notes[1]);
    let fit = fit_error("hami-scheduler", notes[0]);
    assert_eq!(fit, fit_error("hami-scheduler", notes[1]));
    assert_eq!(fit.total_nodes, Some(1));
    assert_eq!(entries(&fit.reasons), [entry(1, "other", "NodeUnfitPod")]);
    assert_eq!(preemption(&fit), (1, vec![entry(1, "noPreemptionVictims", NO_VICTIMS)]));
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_021_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_025_old_taint_phrase_with_comma() {
    let note = message(C025, "0/1 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(1));
    assert_eq!(
        entries(&fit.reasons),
        [
            entry(1, "insufficient", "Insufficient nvidia.com/gpu"),
            entry(1, "untoleratedTaint", "node(s) had taint {protect: no_schedule}, that the pod didn't tolerate"),
            entry(1, "nodeAffinity", "node(s) didn't match Pod's node affinity/selector"),
        ]
    );
    let NodeReason::UntoleratedTaint { key, value, .. } = &fit.reasons[1].reason else {
        panic!("not a taint");
    };
    assert_eq!(key.as_deref(), Some("protect"));
    assert_eq!(value.as_deref(), Some("no_schedule"));
    // Counts are per reason: they sum to 3 with 1 node.
    assert_eq!(fit.reasons.iter().map(|e| e.count).sum::<u32>(), 3);
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_025_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_027_large_count() {
    let note = message(C027, "0/1 nodes are available");
    let fit = fit_error("default-scheduler", note);
    assert_eq!(fit.total_nodes, Some(1));
    assert_eq!(entries(&fit.reasons), [entry(1, "insufficient", "Insufficient nvidia.com/gpu")]);
    assert_eq!(preemption(&fit), (1, vec![entry(1, "noPreemptionVictims", NO_VICTIMS)]));
    assert_eq!(fit.ending, Ending::Period);
    insta::assert_json_snapshot!("case_027_fit_error", SchedulingDetails::FitError(fit));
}

#[test]
fn case_039_hami_mixed_reasons_and_filtering_failed() {
    let note = message(C039, "0/4 nodes are available");
    let fit = fit_error("hami-scheduler", note);
    assert_eq!(fit.total_nodes, Some(4));
    assert_eq!(
        entries(&fit.reasons),
        [
            entry(1, "other", "NodeUnfitPod"),
            entry(1, "untoleratedTaint", "node(s) had untolerated taint {node.kubernetes.io/unreachable: }"),
            entry(2, "other", "node unregistered"),
        ]
    );
    let NodeReason::UntoleratedTaint { key, value, .. } = &fit.reasons[1].reason else {
        panic!("not a taint");
    };
    assert_eq!(key.as_deref(), Some("node.kubernetes.io/unreachable"));
    assert_eq!(value.as_deref(), Some(""));
    assert_eq!(
        preemption(&fit),
        (
            4,
            vec![
                entry(1, "preemptionNotHelpful", "Preemption is not helpful for scheduling"),
                entry(3, "noPreemptionVictims", NO_VICTIMS),
            ]
        )
    );
    assert_eq!(fit.ending, Ending::DoublePeriod);
    insta::assert_json_snapshot!("case_039_fit_error", SchedulingDetails::FitError(fit));

    let note = message(C039, "no available node");
    let details = details("FilteringFailed", "hami-scheduler", note);
    let SchedulingDetails::HamiNoAvailableNode(no_node) = &details else {
        panic!("not hamiNoAvailableNode: {details:?}");
    };
    assert_eq!(no_node.nodes_not_fit, Some(3));
    assert_eq!(HamiNoAvailableNode::parse(note).as_ref(), Some(no_node));
    insta::assert_json_snapshot!("case_039_filtering_failed", details);
}

#[test]
fn case_045_kai_unschedulable() {
    let note = message(C045, "No nodes with enough resources");
    let details = details("Unschedulable", "kai-scheduler", note);
    let SchedulingDetails::KaiUnschedulable(kai) = &details else {
        panic!("not kaiUnschedulable: {details:?}");
    };
    assert_eq!(KaiUnschedulable::parse(note).as_ref(), Some(kai));
    assert_eq!(kai.summary, "No nodes with enough resources were found");
    assert_eq!(entries(&kai.reasons), [entry(2, "insufficient", "node(s) didn't have enough resources: GPUs")]);
    assert_eq!(kai.reasons[0].reason.insufficient_resource(), Some("GPUs"));
    insta::assert_json_snapshot!("case_045_kai_unschedulable", details);
}

/// A 1 MB note of `. <lower-case>` PostFilter candidates with a histogram entry at the end: the
/// catalogue grammar parses it in one pass into the two entries.
#[test]
fn hostile_post_filter_candidates_parse_linearly() {
    let candidates = ". b".repeat(350_000);
    let note = format!("0/5 nodes are available: 1 a{candidates}, 1 z.");
    assert!(note.len() > 1_000_000);
    let fit = fit_error("default-scheduler", &note);
    assert_eq!(fit.total_nodes, Some(5));
    assert_eq!(fit.reasons.len(), 2);
    assert_eq!(fit.reasons[0].reason.text(), format!("a{candidates}"));
    assert_eq!(entries(&fit.reasons[1..]), [entry(1, "other", "z")]);
    assert!(fit.post_filter.is_empty());
    assert_eq!(fit.preemption, None);
    assert_eq!(fit.ending, Ending::Period);
}

/// kube-scheduler cuts notes at 1024 bytes with ` ...`: the separator before the cut and a cut
/// `preemption: ` label or header are not kept as text.
#[test]
fn truncated_notes_keep_no_cut_separator_or_header() {
    let head = "0/50 nodes are available: 2 Insufficient nvidia.com/gpu, 48 node(s) had untolerated taint {team: gpu}";
    let taint = entry(48, "untoleratedTaint", "node(s) had untolerated taint {team: gpu}");
    let gpu = entry(2, "insufficient", "Insufficient nvidia.com/gpu");
    for tail in [". ...", ", ...", ". preemp ...", ". preemption: 0/50 nodes are avai ...", ". preemption: 0/5 ..."] {
        let note = format!("{head}{tail}");
        let fit = fit_error("default-scheduler", &note);
        assert_eq!(entries(&fit.reasons), [gpu.clone(), taint.clone()], "{note}");
        assert!(fit.post_filter.is_empty(), "{note}");
        assert_eq!(fit.preemption, None, "{note}");
        assert_eq!(fit.ending, Ending::Truncated, "{note}");
    }
    let note =
        format!("{head}. preemption: 0/50 nodes are available: 50 No preemption victims found for incoming pod, ...");
    let fit = fit_error("default-scheduler", &note);
    assert_eq!(preemption(&fit), (50, vec![entry(50, "noPreemptionVictims", NO_VICTIMS)]));
}

/// A first count too large for a count makes the note unrecognised, not a PreFilter sentence.
#[test]
fn overflowing_first_count_is_unrecognized() {
    let note = "0/5 nodes are available: 99999999999 Insufficient cpu.";
    assert_eq!(FitError::parse(note), None);
    let info = ReasonName::resolve("FailedScheduling", Some("default-scheduler")).info().unwrap();
    let details = info.grammar.unwrap().parse(&Note::new(note));
    assert_eq!(details.kind(), "unrecognized", "{details:?}");
}

/// Every scheduler message of the cases, for mutation testing.
fn real_messages() -> Vec<&'static str> {
    vec![
        message(C001, "0/2 nodes are available"),
        message(C003, "0/2 nodes are available"),
        message(C013, "0/3 nodes are available"),
        message(C015, "0/8 nodes are available"),
        message(C017, "0/1 nodes are available"),
        message(C019, "0/2 nodes are available"),
        message(C021, "0/1 nodes are available"),
        message(C025, "0/1 nodes are available"),
        message(C027, "0/1 nodes are available"),
        message(C039, "0/4 nodes are available"),
        message(C039, "no available node"),
        message(C045, "No nodes with enough resources"),
        "0/2 nodes are available: 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        "In hyperNode s0: 0/7 nodes are unavailable: 7 Insufficient nvidia.com/gpu.",
        "3/6 tasks in gang unschedulable: pod group is not ready, 6 Pending, 6 minAvailable; Pending: 3 Unschedulable, 3 Schedulable. Origin reason is t-1: 0/3 nodes are unavailable: 3 Insufficient cpu.",
        "No nodes are available that match all of the following predicates:: Insufficient cpu (3), NoVolumeZoneConflict (2).",
    ]
}

/// Every scheduler grammar of the catalogue, by reason and reporter.
fn grammars() -> Vec<&'static gpu_events_core::details::Grammar> {
    [
        ("FailedScheduling", "default-scheduler"),
        ("FailedScheduling", "volcano"),
        ("Scheduled", "default-scheduler"),
        ("Preempted", "default-scheduler"),
        ("Unschedulable", "volcano"),
        ("Unschedulable", "kai-scheduler"),
        ("PodGroupPending", "vc-controller-manager"),
        ("FilteringFailed", "hami-scheduler"),
        ("FilteringSucceed", "hami-scheduler"),
        ("BindingSucceed", "hami-scheduler"),
        ("BindingFailed", "hami-scheduler"),
    ]
    .into_iter()
    .map(|(reason, reporter)| {
        ReasonName::resolve(reason, Some(reporter))
            .info()
            .and_then(|info| info.grammar)
            .unwrap_or_else(|| panic!("{reason} from {reporter} has no grammar"))
    })
    .collect()
}

/// Apply one edit to `text` at a char position.
fn mutate(text: &str, op: u8, at: prop::sample::Index, len: usize, insert: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = at.index(chars.len() + 1);
    let mut out: String = chars[..i].iter().collect();
    match op {
        0 => {}
        1 => {
            out.push_str(insert);
            out.extend(&chars[i..]);
        }
        2 => out.extend(chars.iter().skip(i + len)),
        _ => out.push_str(" ..."),
    }
    out
}

fn check_no_panic(text: &str) {
    let _ = FitError::parse(text);
    let _ = NodeReason::parse(text);
    for grammar in grammars() {
        let _ = grammar.parse(&Note::new(text));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in any::<String>()) {
        check_no_panic(&text);
    }

    #[test]
    fn parsers_never_panic_on_histogram_like_text(
        total in 0u64..100_000_000_000,
        body in "([0-9]{1,3} |, |[.:{}()/\\[\\] ]|[a-zA-Z]{1,8}|é|ß|🙂|preemption: |0/)*",
    ) {
        check_no_panic(&format!("0/{total} nodes are available: {body}"));
        check_no_panic(&format!("0/{total} nodes are unavailable: {body}"));
        check_no_panic(&format!("No nodes with enough resources were found: {body}"));
    }

    #[test]
    fn parsers_never_panic_on_mutated_real_messages(
        which in any::<prop::sample::Index>(),
        op in 0u8..4,
        at in any::<prop::sample::Index>(),
        len in 0usize..40,
        insert in "(\\PC|[ ,.:0-9{}()/])*",
    ) {
        let messages = real_messages();
        let original = messages[which.index(messages.len())];
        let mutated = mutate(original, op, at, len, &insert);
        check_no_panic(&mutated);
        // A FitError cut with ` ...` at a char boundary past its header still parses.
        let header_end = original.find(": ").map_or(usize::MAX, |at| at + 2);
        if op == 3 && original.starts_with("0/") && mutated.len() - " ...".len() > header_end {
            prop_assert!(FitError::parse(&mutated).is_some(), "{}", mutated);
        }
    }
}
