//! The cost of publishing a repeat of a live event, with 10, 10 000 and 100 000 live keys: this
//! crate's `Recorder` against kube 5.0's `kube::runtime::events::Recorder` (the baseline), both
//! writing to the testkit API server on 127.0.0.1 in the same run. Also prints the writes each
//! makes for 1000 repeats of one event.
//!
//! `cargo bench -p gpu-events-recorder --bench publish -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gpu_events_core::details::tensorfusion::GangMembersWaiting;
use gpu_events_recorder::Recorder;
use gpu_events_testkit::ApiServer;
use k8s_openapi::api::core::v1::{ObjectReference, Pod};
use kube::Resource;
use kube::api::ObjectMeta;
use kube::runtime::events as kube_events;
use tokio::runtime::Runtime;

const KEYS: [usize; 3] = [10, 10_000, 100_000];

fn pod(i: usize) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(format!("worker-{i}")),
            namespace: Some("ml".into()),
            uid: Some(format!("uid-{i}")),
            ..ObjectMeta::default()
        },
        ..Pod::default()
    }
}

fn kube_event() -> kube_events::Event {
    kube_events::Event {
        type_: kube_events::EventType::Normal,
        reason: "GangWaitingForMembers".into(),
        note: Some("Waiting for gang members: 2/4 ready".into()),
        action: "Waiting".into(),
        secondary: None,
    }
}

fn ours(rt: &Runtime, server: &ApiServer, keys: usize) -> Recorder {
    rt.block_on(async {
        let recorder = Recorder::builder(server.client_without_retry(), "tensor-fusion.ai/bench")
            .instance("bench-0")
            .max_keys(keys + 16)
            .queue_capacity(keys + 16)
            .build()
            .expect("a recorder");
        for i in 0..keys {
            recorder.publish(GangMembersWaiting::new(2, 4), &pod(i)).expect("valid");
            // The second occurrence starts the series, so a measured repeat is a plain repeat.
            recorder.publish(GangMembersWaiting::new(2, 4), &pod(i)).expect("valid");
        }
        recorder.flush().await;
        recorder
    })
}

fn theirs(rt: &Runtime, server: &ApiServer, keys: usize) -> (kube_events::Recorder, Vec<ObjectReference>) {
    rt.block_on(async {
        let reporter =
            kube_events::Reporter { controller: "tensor-fusion.ai/bench".into(), instance: Some("bench-0".into()) };
        let recorder = kube_events::Recorder::new(server.client_without_retry(), reporter);
        let references: Vec<_> = (0..keys).map(|i| pod(i).object_ref(&())).collect();
        for reference in &references {
            recorder.publish(&kube_event(), reference).await.expect("kube publishes");
        }
        (recorder, references)
    })
}

fn publish_repeat(c: &mut Criterion) {
    let rt = Runtime::new().expect("a tokio runtime");
    let mut group = c.benchmark_group("publish_repeat");
    group.sample_size(20);
    for keys in KEYS {
        let server = rt.block_on(ApiServer::start());
        let recorder = ours(&rt, &server, keys);
        let target = pod(keys / 2);
        group.bench_with_input(BenchmarkId::new("gpu_events_recorder", keys), &keys, |b, _| {
            b.iter(|| black_box(recorder.publish(GangMembersWaiting::new(2, 4), &target).expect("valid")));
        });
        drop(recorder);
        drop(server);

        let server = rt.block_on(ApiServer::start());
        let (kube_recorder, references) = theirs(&rt, &server, keys);
        let reference = references[keys / 2].clone();
        let event = kube_event();
        group.bench_with_input(BenchmarkId::new("kube_recorder_baseline", keys), &keys, |b, _| {
            b.to_async(&rt).iter(|| async { kube_recorder.publish(&event, &reference).await.expect("kube publishes") });
        });
    }
    group.finish();
}

/// Writes for 1000 repeats of one event, counted by the server (printed; not a timing).
fn writes_per_thousand_repeats(_: &mut Criterion) {
    let rt = Runtime::new().expect("a tokio runtime");
    let (ours_writes, theirs_writes) = rt.block_on(async {
        let server = ApiServer::start().await;
        let recorder = Recorder::builder(server.client_without_retry(), "tensor-fusion.ai/bench").build().unwrap();
        for _ in 0..1000 {
            recorder.publish(GangMembersWaiting::new(2, 4), &pod(0)).unwrap();
            tokio::task::yield_now().await;
        }
        recorder.flush().await;
        let ours = server.writes().len();

        let server = ApiServer::start().await;
        let reporter = kube_events::Reporter { controller: "tensor-fusion.ai/bench".into(), instance: None };
        let kube_recorder = kube_events::Recorder::new(server.client_without_retry(), reporter);
        let reference = pod(0).object_ref(&());
        for _ in 0..1000 {
            kube_recorder.publish(&kube_event(), &reference).await.unwrap();
        }
        (ours, server.writes().len())
    });
    println!("writes_per_1000_repeats gpu_events_recorder={ours_writes} kube_recorder_baseline={theirs_writes}");
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = writes_per_thousand_repeats, publish_repeat
}
criterion_main!(benches);
