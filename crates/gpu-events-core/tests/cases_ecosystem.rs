//! Real event text from `tests/fixtures/cases` through the Karpenter, Kueue, GPU Operator and
//! Ascend grammars, reached through the catalogue (reason + reporting controller → grammar).

use gpu_events_core::details::Details;
use gpu_events_core::details::ecosystem::{
    DriverUpgrade, DriverUpgradeStep, EcosystemDetails, KarpenterCause, KarpenterFailedScheduling, KueueFlavorReason,
    KueueInadmissible, KueueInadmissibleCause, Nominated, NpuDeviceFault,
};
use proptest::prelude::*;

mod common;
#[allow(unused_imports)]
use common::*;

const CASE_013: &str = fixture!("013-karpenter-incompatible-nodepool-gpu.txt");
const CASE_015: &str = fixture!("015-eks-karpenter-nominated-multi-insufficient.txt");
const CASE_035: &str = fixture!("035-gpu-operator-driver-upgrade-events-brackets.txt");
const CASE_047: &str = fixture!("047-xpk-kueue-admission-pending-tpu.txt");
const CASE_049: &str = fixture!("049-ascend-npu-device-fault-event.txt");

fn ecosystem(details: Details) -> EcosystemDetails {
    match details {
        Details::Ecosystem(inner) => inner,
        other => panic!("not an ecosystem note: {other:?}"),
    }
}

#[test]
fn case_013_karpenter_failed_scheduling() {
    let note = single_message(CASE_013, "Failed to schedule pod, ");
    let details = parse("FailedScheduling", Some("karpenter"), note);
    insta::assert_json_snapshot!("case_013_karpenter_failed_scheduling", details);

    let d = KarpenterFailedScheduling::parse(note).unwrap();
    let [spot, limits] = &d.incompatibilities[..] else { panic!("two nodepool clauses expected: {d:?}") };
    assert_eq!(spot.node_pool.as_deref(), Some("spot-pool"));
    let overhead = spot.daemonset_overhead.as_ref().unwrap();
    let overhead: Vec<_> = overhead.iter().map(|(k, v)| (k.as_str(), v.quantity.as_str())).collect();
    assert_eq!(overhead, [("cpu", "1566m"), ("memory", "930Mi"), ("pods", "11")]);
    assert_eq!(spot.cause, KarpenterCause::NoInstanceType);
    assert_eq!(spot.reason, "no instance type has enough resources");
    let requirements: Vec<_> =
        spot.requirements.iter().map(|r| (r.key.as_str(), r.operator.as_str(), r.values.join(" "))).collect();
    assert_eq!(
        requirements,
        [
            ("eks.amazonaws.com/instance-category", "In", "c m t".to_owned()),
            ("eks.amazonaws.com/nodeclass", "In", "spot-default".to_owned()),
            ("karpenter.sh/capacity-type", "In", "spot".to_owned()),
            ("karpenter.sh/nodepool", "In", "spot-pool".to_owned()),
            ("kubernetes.io/arch", "In", "amd64".to_owned()),
        ]
    );
    let resources: Vec<_> =
        spot.resources.as_ref().unwrap().iter().map(|(k, v)| (k.as_str(), v.quantity.as_str(), v.value)).collect();
    assert_eq!(
        resources,
        [
            ("cpu", "1566m", Some(1.566)),
            ("memory", "930Mi", Some(930.0 * 1_048_576.0)),
            ("nvidia.com/gpu", "1", Some(1.0)),
            ("pods", "12", Some(12.0)),
        ]
    );
    assert_eq!(limits.cause, KarpenterCause::LimitsExceeded);
    assert_eq!(limits.reason, "all available instance types exceed limits for nodepool");
    assert_eq!(limits.node_pool.as_deref(), Some("gpu-nodepool"));

    // The kube-scheduler FailedScheduling line of the same case is not Karpenter's grammar.
    let scheduler = messages(CASE_013, "0/3 nodes are available")[0];
    assert_eq!(KarpenterFailedScheduling::parse(scheduler), None);
}

#[test]
fn case_015_karpenter_nominated() {
    let note = single_message(CASE_015, "Pod should schedule on: ");
    let details = ecosystem(parse("Nominated", Some("karpenter"), note));
    let EcosystemDetails::Nominated(nominated) = &details else { panic!("{details:?}") };
    assert_eq!(nominated.node_claim.as_deref(), Some("gpu-ljvhl"));
    assert_eq!(nominated.node, None);
    // The form with a node, once the NodeClaim registered.
    let with_node = Nominated::parse(&format!("{note}, node/node-a")).unwrap();
    assert_eq!((with_node.node_claim.as_deref(), with_node.node.as_deref()), (Some("gpu-ljvhl"), Some("node-a")));
}

#[test]
fn karpenter_nominated_existing_node_and_machine() {
    // NominatePodEvent with a nil NodeClaim names only the Node.
    let note = "Pod should schedule on: node/ip-10-0-1-5.us-west-2.compute.internal";
    let details = parse("Nominated", Some("karpenter"), note);
    let json = serde_json::to_value(&details).unwrap();
    assert_eq!(json["kind"], "nominated");
    assert_eq!(json["nodeClaim"], serde_json::Value::Null);
    assert_eq!(json["machine"], serde_json::Value::Null);
    assert_eq!(json["node"], "ip-10-0-1-5.us-west-2.compute.internal");
    // Before v0.32 (Machine API): `machine/NAME, node/NAME`.
    let note = "Pod should schedule on: machine/default-8m2xk, node/ip-10-0-1-5.us-west-2.compute.internal";
    let EcosystemDetails::Nominated(nominated) = ecosystem(parse("Nominated", Some("karpenter"), note)) else {
        panic!("{note}")
    };
    assert_eq!(nominated.node_claim, None);
    assert_eq!(nominated.machine.as_deref(), Some("default-8m2xk"));
    assert_eq!(nominated.node.as_deref(), Some("ip-10-0-1-5.us-west-2.compute.internal"));
}

/// `prefix` followed by `n` nested ` (` and their `)`: formerly quadratic in `structured_suffix`.
fn nested_parentheses(prefix: &str, n: usize) -> String {
    format!("{prefix}{}{}", " (".repeat(n), ")".repeat(n))
}

#[test]
fn karpenter_failed_scheduling_deeply_nested_parentheses() {
    let note = nested_parentheses("Failed to schedule pod, x", 350_000);
    assert!(note.len() > 1_000_000);
    let EcosystemDetails::KarpenterFailedScheduling(d) = ecosystem(parse("FailedScheduling", Some("karpenter"), &note))
    else {
        panic!("not Karpenter FailedScheduling")
    };
    assert_eq!(d.incompatibilities.len(), 1);
    let clause = &d.incompatibilities[0];
    assert_eq!(clause.cause, KarpenterCause::Other);
    assert_eq!(clause.reason, note["Failed to schedule pod, ".len()..]);
    assert!(clause.values.is_empty());
    // With a structured suffix after the noise.
    let note = format!("{} (NodePool=gpu)", nested_parentheses("Failed to schedule pod, x", 350_000));
    let EcosystemDetails::KarpenterFailedScheduling(d) = ecosystem(parse("FailedScheduling", Some("karpenter"), &note))
    else {
        panic!("not Karpenter FailedScheduling")
    };
    assert_eq!(d.incompatibilities[0].node_pool.as_deref(), Some("gpu"));
    assert_eq!(
        d.incompatibilities[0].reason.len(),
        note.len() - "Failed to schedule pod, ".len() - " (NodePool=gpu)".len()
    );
}

#[test]
fn karpenter_disruption_blocked_deeply_nested_parentheses() {
    let note = nested_parentheses("Node is x", 350_000);
    let EcosystemDetails::DisruptionBlocked(d) = ecosystem(parse("DisruptionBlocked", Some("karpenter"), &note)) else {
        panic!("not DisruptionBlocked")
    };
    assert_eq!(d.reason, note);
    assert!(d.values.is_empty() && d.pod.is_none() && d.pdbs.is_empty());
    let note = format!("{} (Pod=ns/p)", nested_parentheses("Node is x", 350_000));
    let EcosystemDetails::DisruptionBlocked(d) = ecosystem(parse("DisruptionBlocked", Some("karpenter"), &note)) else {
        panic!("not DisruptionBlocked")
    };
    assert_eq!(d.pod.as_deref(), Some("ns/p"));
    assert_eq!(d.reason, note[..note.len() - " (Pod=ns/p)".len()]);
}

#[test]
fn case_035_gpu_driver_upgrade_states() {
    let notes = messages(CASE_035, "Successfully updated node state label to ");
    let states: Vec<_> = notes
        .iter()
        .map(|note| {
            let d = DriverUpgrade::parse(note).unwrap();
            assert_eq!(d.step, DriverUpgradeStep::StateLabelUpdated, "{note}");
            assert!(d.legacy_format, "bracketed form: {note}");
            assert_eq!(d.error, None);
            d.state.unwrap()
        })
        .collect();
    assert_eq!(
        states,
        [
            "upgrade-required",
            "cordon-required",
            "wait-for-jobs-required",
            "pod-deletion-required",
            "pod-restart-required",
            "validation-required",
            "uncordon-required",
            "upgrade-done",
        ]
    );
    let details: Vec<_> =
        notes.iter().map(|note| parse("GPUDriverUpgrade", Some("nvidia-gpu-operator"), note)).collect();
    insta::assert_json_snapshot!("case_035_gpu_driver_upgrade_states", details);
    // Newer releases print the state without brackets.
    let modern = DriverUpgrade::parse("Successfully updated node state label to upgrade-done").unwrap();
    assert_eq!((modern.state.as_deref(), modern.legacy_format), (Some("upgrade-done"), false));
}

#[test]
fn case_047_kueue_pending_resource_unavailable() {
    let notes = messages(CASE_047, "couldn't assign flavors to pod set ");
    assert_eq!(notes.len(), 2);
    for (note, resource) in notes.iter().zip(["cpu", "memory"]) {
        let d = KueueInadmissible::parse(note).unwrap();
        assert_eq!(d.cause, KueueInadmissibleCause::FlavorAssignment);
        assert_eq!(d.pod_sets.len(), 1);
        assert_eq!(d.pod_sets[0].pod_set, "job");
        assert_eq!(d.pod_sets[0].reasons, [KueueFlavorReason::ResourceUnavailable { resource: resource.to_owned() }]);
        assert!(!d.truncated);
    }
    let details: Vec<_> = notes.iter().map(|note| parse("Pending", Some("kueue-admission"), note)).collect();
    insta::assert_json_snapshot!("case_047_kueue_pending", details);
}

#[test]
fn case_049_ascend_device_fault() {
    let note = single_message(CASE_049, "device fault, ");
    let details = parse("Occur", Some("device-plugin"), note);
    insta::assert_json_snapshot!("case_049_ascend_device_fault", details);
    let d = NpuDeviceFault::parse(note).unwrap();
    assert_eq!(d.node_name, "node-a");
    assert_eq!(d.assertion, "Occur");
    assert_eq!((d.card_id, d.device_id), (2, 0));
    assert_eq!(d.fault_codes, ["8C084E00"]);
    assert_eq!(d.fault_level_name, "RestartBusiness");
    assert_eq!(d.alarm_raised_time, "2023-11-21 05:36:53");
}

/// Text made of the pieces the Kueue and Karpenter grammars slice on, so that random inputs reach
/// their deeper branches.
fn grammar_like() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "Failed to schedule pod, ",
        "incompatible with nodepool ",
        "\"spot\"",
        ", daemonset overhead=",
        "{\"cpu\":\"1\"}",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "\"",
        "\\",
        ", ",
        "; ",
        "requirements=",
        "resources=",
        "NodePool=",
        "a In [b c]",
        "did not tolerate taint",
        "no instance type",
        "couldn't assign flavors to pod set ",
        "failed to assign flavors to pod set ",
        "main: ",
        "insufficient unused quota for ",
        "insufficient quota for ",
        " in flavor ",
        "3 more needed",
        "request > maximum capacity (",
        "topology ",
        " allows to fit only ",
        " out of ",
        " pod(s)",
        ". Total nodes: ",
        "; excluded: ",
        ". Pending the preemption of ",
        " ...",
        "Preempted to accommodate a workload (UID: ",
        ", JobUID: ",
        ") due to ",
        "; preemptor path: ",
        "; preemptor effective priority: ",
        "; Flavors considered: ",
        "Quota reserved in ClusterQueue ",
        "é",
        "日本",
        "7",
        "-",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn kueue_and_karpenter_parsers_never_panic(
        arbitrary in "\\PC{0,160}",
        shaped in grammar_like(),
    ) {
        use gpu_events_core::details::ecosystem::*;
        for note in [arbitrary.as_str(), shaped.as_str()] {
            let _ = KarpenterFailedScheduling::parse(note);
            let _ = KarpenterIncompatibility::parse(note);
            let _ = KarpenterRequirement::parse_list(note);
            let _ = DisruptionBlocked::parse(note);
            let _ = NodeClaimEvent::parse(note);
            let _ = KarpenterDisruption::parse(note);
            let _ = KarpenterEvicted::parse(note);
            let _ = KarpenterFailedDraining::parse(note);
            let _ = AwaitingVolumeDetachment::parse(note);
            let _ = Nominated::parse(note);
            let _ = KueueInadmissible::parse(note);
            let _ = KueueFlavorReason::parse_list(note);
            let _ = KueueFlavorsConsidered::parse_list(note);
            let _ = QuotaReserved::parse(note);
            let _ = KueueAdmitted::parse(note);
            let _ = KueuePreempted::parse(note);
            let _ = KueuePreemptedWorkload::parse(note);
            let _ = KueueEvicted::parse(note);
            let _ = CreatedWorkload::parse(note);
            let _ = KueueStarted::parse(note);
            let _ = FinishedWorkload::parse(note);
            let _ = TriggeredScaleUp::parse(note);
            let _ = NotTriggerScaleUp::parse(note);
            let _ = ScaleDown::parse(note);
            let _ = DriverUpgrade::parse(note);
            let _ = NpuDeviceFault::parse(note);
        }
    }
}
