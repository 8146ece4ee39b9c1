//! The catalogue against the spec files and its own invariants.

use std::collections::{BTreeSet, HashSet};

use gpu_events_core::reason::{KarpenterReason, KueueReason, SchedulerReason, TensorFusionReason, VolcanoReason};
use gpu_events_core::{EventType, Reason, ReasonName, Source};

const SPEC: &str = include_str!("../../../tests/fixtures/spec/tensorfusion-reasons.tsv");
const RETIRED_SPEC: &str = include_str!("../../../tests/fixtures/spec/tensorfusion-retired-reasons.tsv");

struct SpecRow<'a> {
    reason: &'a str,
    types: BTreeSet<&'a str>,
    objects: BTreeSet<&'a str>,
    group: &'a str,
    controllers: BTreeSet<&'a str>,
    actions: BTreeSet<&'a str>,
    formats: BTreeSet<&'a str>,
}

fn split<'a>(cell: &'a str, sep: &str) -> BTreeSet<&'a str> {
    if cell == "-" { BTreeSet::new() } else { cell.split(sep).map(str::trim).collect() }
}

fn rows(tsv: &str) -> Vec<SpecRow<'_>> {
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 7, "spec row has 7 columns: {line}");
            SpecRow {
                reason: cells[0],
                types: if cells[1] == "Normal or Warning" { ["Normal", "Warning"].into() } else { [cells[1]].into() },
                objects: split(cells[2], ";"),
                group: cells[3],
                controllers: split(cells[4], ";"),
                actions: split(cells[5], ";"),
                formats: split(cells[6], " || "),
            }
        })
        .collect()
}

/// Union of a field over all TensorFusion entries with a wire string (the gang reasons have two).
fn union<'a>(
    wire: &str,
    field: impl Fn(&'static gpu_events_core::ReasonInfo) -> Vec<&'static str>,
) -> BTreeSet<&'a str> {
    Reason::all_with_wire(wire)
        .iter()
        .map(|r| r.info())
        .filter(|i| i.source == Source::TensorFusion)
        .flat_map(field)
        .collect()
}

fn check_against(spec: &str, retired: bool) -> usize {
    let rows = rows(spec);
    for row in &rows {
        let entries: Vec<_> =
            Reason::all_with_wire(row.reason).iter().filter(|r| r.info().source == Source::TensorFusion).collect();
        assert!(!entries.is_empty(), "{} is missing from the catalogue", row.reason);
        for entry in &entries {
            let info = entry.info();
            assert_eq!(info.retired, retired, "{}: retired flag", row.reason);
            if row.group != "-" {
                assert_eq!(info.group.as_str(), row.group, "{}: group", row.reason);
            }
        }
        assert_eq!(
            union(row.reason, |i| i
                .types
                .iter()
                .map(|t| match t {
                    EventType::Normal => "Normal",
                    EventType::Warning => "Warning",
                    _ => "other",
                })
                .collect()),
            row.types,
            "{}: types",
            row.reason
        );
        assert_eq!(union(row.reason, |i| i.objects.to_vec()), row.objects, "{}: objects", row.reason);
        assert_eq!(
            union(row.reason, |i| i.reporting_controllers.to_vec()),
            row.controllers,
            "{}: controllers",
            row.reason
        );
        assert_eq!(union(row.reason, |i| i.actions.to_vec()), row.actions, "{}: actions", row.reason);
        assert_eq!(union(row.reason, |i| i.note_formats.to_vec()), row.formats, "{}: note formats", row.reason);
    }
    rows.len()
}

#[test]
fn every_tensorfusion_reason_of_the_spec_is_catalogued_with_its_metadata() {
    assert_eq!(check_against(SPEC, false), 42);
}

#[test]
fn every_retired_tensorfusion_reason_is_catalogued_as_retired() {
    assert_eq!(check_against(RETIRED_SPEC, true), 11);
}

#[test]
fn the_catalogue_holds_no_tensorfusion_reason_outside_the_spec() {
    let spec: HashSet<&str> =
        rows(SPEC).iter().chain(rows(RETIRED_SPEC).iter()).map(|r| r.reason).collect::<Vec<_>>().into_iter().collect();
    for reason in Reason::all().iter().filter(|r| r.info().source == Source::TensorFusion) {
        assert!(spec.contains(reason.as_str()), "{} is not in the spec files", reason.as_str());
    }
}

#[test]
fn every_entry_is_complete_and_ids_are_unique() {
    let mut ids = HashSet::new();
    for reason in Reason::all() {
        let info = reason.info();
        assert!(ids.insert(info.id), "duplicate id {}", info.id);
        assert_eq!(info.reason, *reason);
        assert!(!info.wire.is_empty() && info.wire.len() <= 128, "{}: wire string", info.id);
        assert!(!info.types.is_empty(), "{}: no types", info.id);
        assert!(info.types.iter().all(|t| matches!(t, EventType::Normal | EventType::Warning)), "{}: types", info.id);
        assert!(!info.objects.is_empty(), "{}: no objects", info.id);
        assert!(info.meaning.len() > 20 && info.meaning != "placeholder", "{}: meaning", info.id);
        assert!(info.reference.contains('/'), "{}: reference names no repository/file", info.id);
        assert!(!info.note_formats.iter().any(|f| f.is_empty()), "{}: empty note format", info.id);
    }
}

#[test]
fn every_source_has_entries() {
    for source in Source::ALL {
        assert!(Reason::all().iter().any(|r| r.info().source == *source), "{source} has no entries");
    }
}

#[test]
fn every_wire_string_round_trips_through_parse_display_and_serde() {
    for reason in Reason::all() {
        let info = reason.info();
        if info.family_affixes().is_some() {
            continue;
        }
        let name = ReasonName::parse(info.wire);
        assert!(name.is_known(), "{}", info.wire);
        assert_eq!(name.to_string(), info.wire);
        let json = serde_json::to_string(&name).unwrap();
        assert_eq!(json, format!("\"{}\"", info.wire));
        assert_eq!(serde_json::from_str::<ReasonName>(&json).unwrap(), name);
        // Parsing without a reporter gives the primary entry of the string.
        assert_eq!(info.wire.parse::<Reason>().unwrap(), Reason::all_with_wire(info.wire)[0]);
        // The entry's own reporter selects the entry itself.
        if let Some(controller) = info.reporting_controllers.iter().find(|c| !c.contains('*')) {
            let resolved = Reason::from_wire_reported_by(info.wire, Some(controller)).unwrap();
            assert_eq!(resolved.as_str(), info.wire);
            if Reason::all_with_wire(info.wire).iter().filter(|r| r.info().reported_by(controller)).count() == 1 {
                assert_eq!(resolved, *reason, "{} reported by {controller}", info.id);
            }
        }
    }
}

#[test]
fn unknown_reasons_survive_byte_for_byte_and_never_equal_known_ones() {
    for wire in ["CheckpointSaved", "failedscheduling", "FailedScheduling ", "", "Ünïcödé/reason", "OutOf"] {
        let name = ReasonName::parse(wire);
        assert!(!name.is_known(), "{wire:?} should be unknown");
        assert_eq!(name.as_str(), wire);
        let back: ReasonName = serde_json::from_str(&serde_json::to_string(&name).unwrap()).unwrap();
        assert_eq!(back.as_str(), wire);
        assert!(wire.parse::<Reason>().is_err());
        for known in Reason::all() {
            assert_ne!(name, ReasonName::from(*known));
        }
    }
    let err = "CheckpointSaved".parse::<Reason>().unwrap_err();
    assert!(err.to_string().contains("CheckpointSaved"), "{err}");
}

#[test]
fn families_keep_the_full_wire_string() {
    for wire in ["OutOfnvidia.com/gpu", "OutOfcpu", "OutOfephemeral-storage"] {
        let name = ReasonName::parse(wire);
        assert!(name.is_known(), "{wire}");
        assert_eq!(name.as_str(), wire);
        assert_eq!(name.info().unwrap().source, Source::Kubelet);
        assert_eq!(serde_json::to_string(&name).unwrap(), format!("\"{wire}\""));
    }
    assert_eq!(ReasonName::parse("OutOfnvidia.com/gpu").family_member(), Some("nvidia.com/gpu"));
    assert_eq!(ReasonName::parse("EvictedDueToPreempted").info().unwrap().source, Source::Kueue);
}

#[test]
fn the_reporting_controller_decides_between_shared_strings() {
    let resolve = |wire, controller| ReasonName::resolve(wire, Some(controller)).reason().unwrap();
    assert_eq!(resolve("FailedScheduling", "default-scheduler"), Reason::from(SchedulerReason::FailedScheduling));
    assert_eq!(resolve("FailedScheduling", "karpenter"), Reason::from(KarpenterReason::FailedScheduling));
    // Unknown reporters (a secondary scheduler profile) fall back to the primary entry.
    assert_eq!(resolve("FailedScheduling", "tensor-fusion-scheduler"), Reason::from(SchedulerReason::FailedScheduling));
    // An exact reporter beats kube-scheduler's `*-scheduler` wildcard.
    assert_eq!(resolve("FailedScheduling", "vc-scheduler"), Reason::from(VolcanoReason::FailedScheduling));
    assert_eq!(resolve("FailedScheduling", "hami-scheduler"), Reason::from(SchedulerReason::FailedScheduling));
    assert_eq!(resolve("Preempted", "default-scheduler"), Reason::from(SchedulerReason::Preempted));
    assert_eq!(resolve("Preempted", "kueue-admission"), Reason::from(KueueReason::Preempted));
    assert_eq!(
        resolve("GangWaitingForMembers", "tensor-fusion-scheduler"),
        Reason::from(TensorFusionReason::GangWaitingForMembers)
    );
    assert_eq!(
        resolve("GangWaitingForMembers", "GangScheduler"),
        Reason::from(TensorFusionReason::GangManagerWaitingForMembers)
    );
    assert_eq!(resolve("GangScheduled", "GangScheduler"), Reason::from(TensorFusionReason::GangManagerScheduled));
    assert_eq!(
        resolve("GangSchedulingTimeout", "GangScheduler"),
        Reason::from(TensorFusionReason::GangManagerSchedulingTimeout)
    );
    // Same string, same reporter id set on both: both render the wire string unchanged.
    assert_eq!(ReasonName::resolve("GangScheduled", Some("GangScheduler")).as_str(), "GangScheduled");
}

#[test]
fn reason_serde_and_schema_are_plain_strings_derived_from_the_tables() {
    let reason = Reason::from(TensorFusionReason::DriverProbeFailed);
    assert_eq!(serde_json::to_string(&reason).unwrap(), "\"DriverProbeFailed\"");
    assert_eq!(serde_json::from_str::<Reason>("\"DriverProbeFailed\"").unwrap(), reason);
    let err = serde_json::from_str::<Reason>("\"NoSuchReason\"").unwrap_err();
    assert!(err.to_string().contains("NoSuchReason"), "{err}");

    let schema = serde_json::to_value(schemars::schema_for!(ReasonName)).unwrap();
    assert_eq!(schema["type"], "string");
    assert!(schema.get("enum").is_none(), "an enum would reject newer reasons");
    let examples: Vec<&str> = schema["examples"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let distinct: HashSet<&str> =
        Reason::all().iter().filter(|r| r.info().family_affixes().is_none()).map(|r| r.as_str()).collect();
    assert_eq!(examples.len(), distinct.len(), "every distinct wire string once");
    assert!(examples.contains(&"GangWaitingForMembers"));
    assert!(!examples.contains(&"OutOf<resource>"), "a family pattern is not a wire string");
}
