//! Every catalogue grammar against the one declaration of the details kinds: the test over
//! `Reason::all()` that replaces the per-family "each grammar lists its kinds" checks.
//!
//! A grammar is declared once in its family module (`details_family!` / `tensorfusion_details!`);
//! these checks tie what the catalogue rows point at to what the families declare, so a grammar
//! added to a family and a row touches nothing else.

use std::collections::{BTreeMap, BTreeSet};

use gpu_events_core::Reason;
use gpu_events_core::details::{Details, EcosystemDetails, NodeDetails, Note, SchedulingDetails, TensorFusionDetails};

/// Every declared kind, with the family that declares it.
fn declared() -> BTreeMap<&'static str, &'static str> {
    let mut kinds = BTreeMap::new();
    for (family, list) in [
        ("TensorFusion", TensorFusionDetails::KINDS),
        ("Scheduling", SchedulingDetails::KINDS),
        ("Node", NodeDetails::KINDS),
        ("Ecosystem", EcosystemDetails::KINDS),
    ] {
        for kind in list {
            assert!(kinds.insert(*kind, family).is_none(), "kind {kind} is declared twice");
        }
    }
    kinds
}

#[test]
fn every_grammar_lists_declared_kinds_and_every_declared_kind_has_a_grammar() {
    let declared = declared();
    let mut listed = BTreeSet::new();
    for reason in Reason::all() {
        let info = reason.info();
        let Some(grammar) = info.grammar else { continue };
        assert!(!grammar.kinds.is_empty(), "{}: a grammar producing nothing", info.id);
        for kind in grammar.kinds {
            assert!(declared.contains_key(kind), "{}: kind {kind} is declared by no family", info.id);
            listed.insert(*kind);
        }
    }
    let orphans: Vec<_> = declared.keys().filter(|k| !listed.contains(*k)).collect();
    assert!(orphans.is_empty(), "kinds no catalogue grammar produces: {orphans:?}");
}

/// A note each grammar accepts, by catalogue id (`Source::Variant`): it parses into a kind the grammar lists and goes
/// through JSON unchanged.
const SAMPLES: &[(&str, &str)] = &[
    (
        "ClusterAutoscaler::FailedScaleUp",
        "Node scale up in zones us-central1-c associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled.",
    ),
    ("Karpenter::Nominated", "Pod should schedule on: nodeclaim/a"),
    ("Karpenter::Nominated", "Pod should schedule on: node/n"),
    ("Karpenter::Nominated", "Pod should schedule on: machine/m, node/n"),
    ("Karpenter::FailedScheduling", "Failed to schedule pod, did not tolerate taint (taint=a:NoSchedule)"),
    ("Karpenter::DisruptionBlocked", "Node is nominated for a pending pod"),
    ("Karpenter::InsufficientCapacityError", "NodeClaim a event: b"),
    ("Karpenter::DisruptionLaunching", "Disrupting Node: Empty"),
    ("Karpenter::Evicted", "Evicted pod: Empty"),
    ("Karpenter::FailedDraining", "Failed to drain node, x"),
    ("Karpenter::AwaitingVolumeDetachment", "Awaiting deletion of bound volumeattachments (a)"),
    ("ClusterAutoscaler::TriggeredScaleUp", "pod triggered scale-up: [{g 1->2 (max: 3)}]"),
    ("ClusterAutoscaler::NotTriggerScaleUp", "pod didn't trigger scale-up: 1 x"),
    ("ClusterAutoscaler::ScaleDown", "deleting pod for node scale down"),
    ("Kueue::Pending", "ClusterQueue a is inactive"),
    ("Kueue::QuotaReserved", "Quota reserved in ClusterQueue a, wait time since queued was 1s"),
    ("Kueue::Admitted", "Admitted by ClusterQueue a, wait time since reservation was 0s"),
    ("Kueue::Preempted", "Preempted by another workload in the cohort"),
    ("Kueue::PreemptedWorkload", "Preempted workload a/b (UID: u) in ClusterQueue c"),
    ("Kueue::EvictedDueTo", "The ClusterQueue is stopped"),
    ("Kueue::CreatedWorkload", "Created Workload: a/b"),
    ("Kueue::Started", "Admitted by clusterQueue a"),
    ("Kueue::FinishedWorkload", "Workload 'a/b' is declared finished"),
    ("NvidiaGpuOperator::GPUDriverUpgrade", "Successfully drained the node"),
    (
        "AscendDevicePlugin::Occur",
        "device fault, nodeName:n, assertion:Notice, cardID:0, deviceID:0, faultCodes:A, faultLevelName:L, alarmRaisedTime:t",
    ),
    ("KubeScheduler::Scheduled", "Successfully assigned a/b to n"),
    ("KubeScheduler::FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu."),
    ("KubeScheduler::FailedScheduling", "no nodes available to schedule pods"),
    ("KubeScheduler::FailedScheduling", "skip schedule deleting pod: a/b"),
    ("KubeScheduler::FailedScheduling", "running Bind plugin \"B\": e"),
    ("KubeScheduler::FailedScheduling", "binding rejected: x"),
    ("KubeScheduler::Preempted", "Preempted by a pod on node n"),
    ("Volcano::FailedScheduling", "0/1 nodes are unavailable: 1 Insufficient cpu."),
    ("Volcano::FailedScheduling", "pod group is not ready, 1 Pending, 1 minAvailable"),
    ("Volcano::FailedScheduling", "Pod a/b can possibly be assigned to n, once minAvailable is satisfied"),
    ("Volcano::FailedScheduling", "something else"),
    ("Volcano::Unschedulable", "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable"),
    ("Volcano::Unschedulable", "queue resource quota insufficient"),
    ("Volcano::PodGroupPending", "PodGroup a:b unschedule,reason: x"),
    (
        "KaiScheduler::Unschedulable",
        "No nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.",
    ),
    ("Hami::FilteringFailed", "no available node, 3 nodes do not meet"),
    ("Hami::FilteringFailed", "2 nodes CardInsufficientMemory(a,b)"),
    ("Hami::FilteringFailed", "does not request any resource"),
    ("Hami::FilteringSucceed", "find fit node(a), 0 nodes not fit, 1 nodes fit(a:1.00)"),
    ("Hami::BindingSucceed", "Successfully binding node [a] to b/c"),
    ("Hami::BindingFailed", "failed to get node a"),
];

#[test]
fn each_grammar_produces_a_kind_it_lists_and_round_trips() {
    for (reason, note) in SAMPLES {
        let info = Reason::all()
            .iter()
            .map(|r| r.info())
            .find(|info| info.id == *reason)
            .unwrap_or_else(|| panic!("{reason} not in the catalogue"));
        let grammar = info.grammar.unwrap_or_else(|| panic!("{reason} has no grammar"));
        let details = grammar.parse(&Note::new(note));
        let kind = details.kind();
        assert_ne!(kind, "unrecognized", "{reason}: {note}");
        assert!(grammar.kinds.contains(&kind), "{reason}: {kind} not listed for {note}");
        let json = serde_json::to_value(&details).unwrap();
        assert_eq!(json["kind"], kind, "{note}");
        let back: Details = serde_json::from_value(json).unwrap();
        assert_eq!(back, details, "{note}");
    }
}

/// The families whose grammars have no case-file tests of their own get a sample for every kind:
/// a new ecosystem or scheduler grammar without one fails here, naming its kind.
#[test]
fn every_ecosystem_and_scheduler_kind_has_a_sample() {
    let sampled: BTreeSet<&str> = SAMPLES
        .iter()
        .filter_map(|(reason, note)| {
            let info = Reason::all().iter().map(|r| r.info()).find(|info| info.id == *reason)?;
            Some(info.grammar?.parse(&Note::new(note)).kind())
        })
        .collect();
    let missing: Vec<&str> = EcosystemDetails::KINDS
        .iter()
        .chain(SchedulingDetails::KINDS)
        .copied()
        .filter(|kind| !sampled.contains(kind))
        .collect();
    assert!(missing.is_empty(), "kinds without a sample in SAMPLES (add a note the grammar reads): {missing:?}");
}

/// `Details::get` finds each sample's details in its one family, and `EventRecord::details_as` reaches a
/// grammar's struct in one call (and nothing else).
#[test]
fn typed_details_are_reached_in_one_call() {
    for (reason, note) in SAMPLES {
        let info = Reason::all().iter().map(|r| r.info()).find(|info| info.id == *reason).unwrap();
        let details = info.grammar.unwrap().parse(&Note::new(note));
        let families = [
            details.get::<TensorFusionDetails>().map(|d| d.kind()),
            details.get::<SchedulingDetails>().map(|d| d.kind()),
            details.get::<NodeDetails>().map(|d| d.kind()),
            details.get::<EcosystemDetails>().map(|d| d.kind()),
        ];
        let found: Vec<_> = families.iter().flatten().collect();
        assert_eq!(found, [&details.kind()], "{reason}: {note}: one family holds the details");
    }
    assert!(Details::Unrecognized.get::<SchedulingDetails>().is_none());

    use gpu_events_core::EventRecord;
    use gpu_events_core::details::ecosystem::Nominated;
    use gpu_events_core::details::scheduling::FitError;
    use gpu_events_core::details::tensorfusion::GangMembersWaiting;
    let fit = EventRecord::builder("FailedScheduling")
        .note("0/5 nodes are available: 3 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {a: b}.")
        .build();
    let Some(Details::Scheduling(SchedulingDetails::FitError(expected))) = &fit.details else { panic!("{fit:?}") };
    assert_eq!(fit.details_as::<FitError>(), Some(expected));
    assert_eq!(fit.details_as::<FitError>().and_then(|f| f.total_nodes), Some(5));
    assert!(fit.details_as::<Nominated>().is_none() && fit.details_as::<GangMembersWaiting>().is_none());
    let gang = EventRecord::builder("GangWaitingForMembers")
        .reporting_controller("GangScheduler")
        .note("Waiting for gang members: 2/4 ready")
        .build();
    assert_eq!(gang.details_as::<GangMembersWaiting>(), Some(&GangMembersWaiting::new(2, 4)));
    assert!(gang.details_as::<FitError>().is_none());
    let nominated = EventRecord::builder("Nominated")
        .reporting_controller("karpenter")
        .note("Pod should schedule on: nodeclaim/gpu-a")
        .build();
    assert!(nominated.details_as::<Nominated>().is_some(), "{nominated:?}");
    let unrecognized = EventRecord::builder("Nominated").reporting_controller("karpenter").note("hello").build();
    assert_eq!(unrecognized.details, Some(Details::Unrecognized));
    assert!(
        unrecognized.details_as::<EcosystemDetails>().is_none() && unrecognized.details_as::<Nominated>().is_none()
    );
    assert!(EventRecord::builder("NoSuchReason").note("x").build().details_as::<FitError>().is_none());
}
