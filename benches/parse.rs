//! Parse speed, each measured against a baseline in the same run (ratios go to BENCHMARKS.md via
//! `scripts/bench-report.py`):
//!
//! * `event/*`: one Event JSON to an `EventRecord` with details, against plain `serde_json`
//!   deserialization of the same JSON into the k8s-openapi Event (the floor: reading the JSON is
//!   unavoidable).
//! * `note/*`: each main grammar on a real note, against tokenising the same note with
//!   `str::split` (the floor of looking at every byte once).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gpu_events::core::Reason;
use gpu_events::core::decode::Decoder;
use gpu_events::core::details::Note;
use k8s_openapi::api::core::v1::Event as CoreEvent;
use k8s_openapi::api::events::v1::Event;

const EVENTS_EVENT: &str = r#"{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"llama-train-3.18a1b2c3d4e5f605","namespace":"ml","uid":"7c1f0a52-1111-4a6e-9d51-0000000000a5","resourceVersion":"1843392","creationTimestamp":"2026-11-30T05:40:05Z"},"eventTime":"2026-11-30T05:40:05.114520Z","series":{"count":93,"lastObservedTime":"2026-11-30T06:03:48.000000Z"},"reportingController":"default-scheduler","reportingInstance":"default-scheduler-control-plane-a","action":"Scheduling","reason":"FailedScheduling","regarding":{"kind":"Pod","namespace":"ml","name":"llama-train-3","uid":"5f0c2a10-aaaa-4b1e-8c3d-00000000a004","apiVersion":"v1","resourceVersion":"1843001"},"note":"0/36 nodes are available: 3 node(s) were unschedulable, 33 Insufficient nvidia.com/gpu. preemption: 0/36 nodes are available: 1 Insufficient nvidia.com/gpu, 3 Preemption is not helpful for scheduling, 32 No preemption victims found for incoming pod..","type":"Warning"}"#;

const CORE_EVENT: &str = r#"{"apiVersion":"v1","kind":"Event","metadata":{"name":"gpu-pod.18a1b2c3d4e5f613","namespace":"default","uid":"7c1f0a52-1111-4a6e-9d51-0000000000b3","resourceVersion":"1843500","creationTimestamp":"2026-11-30T05:57:20Z"},"involvedObject":{"kind":"Pod","namespace":"default","name":"gpu-pod","uid":"5f0c2a10-aaaa-4b1e-8c3d-00000000c004","apiVersion":"v1","resourceVersion":"1843001"},"reason":"UnexpectedAdmissionError","message":"Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected","source":{"component":"kubelet","host":"node6"},"firstTimestamp":"2026-11-30T05:57:20Z","lastTimestamp":"2026-11-30T05:57:20Z","count":1,"type":"Warning","eventTime":null,"reportingComponent":"kubelet","reportingInstance":"node6"}"#;

/// (bench name, reason, reporting controller, action, note): real notes of the main grammars.
const NOTES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "fit_error",
        "FailedScheduling",
        "default-scheduler",
        "",
        "0/36 nodes are available: 3 node(s) were unschedulable, 33 Insufficient nvidia.com/gpu. preemption: 0/36 nodes are available: 1 Insufficient nvidia.com/gpu, 3 Preemption is not helpful for scheduling, 32 No preemption victims found for incoming pod..",
    ),
    (
        "unexpected_admission",
        "UnexpectedAdmissionError",
        "kubelet",
        "",
        "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected",
    ),
    (
        "sandbox_runtime_missing",
        "FailedCreatePodSandBox",
        "kubelet",
        "",
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured",
    ),
    (
        "eviction",
        "Evicted",
        "kubelet",
        "",
        "The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340, available: 1883424Ki. Container helmer was using 10304Ki, request is 10Mi, has larger consumption of ephemeral-storage. ",
    ),
    ("gang_progress", "GangWaitingForMembers", "GangScheduler", "Waiting", "Waiting for gang members: 2/4 ready"),
    (
        "quota_exceeded",
        "GPUQuotaOrCapacityNotEnough",
        "tensor-fusion-scheduler",
        "check quota and filter",
        "TensorFusion schedule failed, no enough resource or quotas: quota exceeded in namespace ml for total.max.tflops.request: requested 120, limit 100",
    ),
    (
        "resource_scaled",
        "ResourceScaledUp",
        "autoscaler",
        "Scaled",
        "Resources scaled up: Compute 10->20, VRAM 4Gi->8Gi",
    ),
    (
        "defrag_finished",
        "DefragFinished",
        "GPUPoolCompaction",
        "DefragFinished",
        "defrag step finished: candidates=3 processed=2 evicted=4 failed=0 unmovable=1 pdbBlocked=0 missingPdb=0 freshSkip=0 deadline=false",
    ),
    (
        "scale_up",
        "TriggeredScaleUp",
        "cluster-autoscaler",
        "",
        "pod triggered scale-up: [{aks-gpunp-98036146-vmss 1->2 (max: 2)}]",
    ),
];

fn events(c: &mut Criterion) {
    let mut group = c.benchmark_group("event");
    group.bench_function("events_v1/serde_json_floor", |b| {
        b.iter(|| serde_json::from_str::<Event>(black_box(EVENTS_EVENT)).unwrap())
    });
    group.bench_function("events_v1/typed_record", |b| {
        b.iter(|| Decoder::from_str(black_box(EVENTS_EVENT)).next().unwrap().unwrap())
    });
    group.bench_function("core_v1/serde_json_floor", |b| {
        b.iter(|| serde_json::from_str::<CoreEvent>(black_box(CORE_EVENT)).unwrap())
    });
    group.bench_function("core_v1/typed_record", |b| {
        b.iter(|| Decoder::from_str(black_box(CORE_EVENT)).next().unwrap().unwrap())
    });
    group.finish();
}

fn notes(c: &mut Criterion) {
    let mut group = c.benchmark_group("note");
    for &(name, reason, controller, action, note) in NOTES {
        let Some(grammar) = Reason::from_wire_reported_by(reason, Some(controller)).and_then(|r| r.info().grammar)
        else {
            continue; // Not every grammar exists yet; the report lists what ran.
        };
        let input = Note::new(note)
            .with_action((!action.is_empty()).then_some(action))
            .with_reporting_controller(Some(controller));
        group.bench_function(format!("{name}/str_split_floor"), |b| {
            b.iter(|| black_box(note).split([' ', ',', ':', '/']).filter(|t| !t.is_empty()).count())
        });
        group.bench_function(format!("{name}/grammar"), |b| b.iter(|| grammar.parse(black_box(&input))));
    }
    group.finish();
}

criterion_group!(benches, events, notes);
criterion_main!(benches);
