//! Emit TensorFusion events through the typed recorder against the cluster of your kubeconfig,
//! then print what was sent and dropped.
//!
//! ```sh
//! cargo run --example recorder_scenario
//! ```
//!
//! It publishes, in order: `GangWaitingForMembers` (2 of 4 ready) on Pod
//! `ml/llama-train-worker-0` 1000 times, then 3 of 4 once; `ManagedNodeCreated` on GPUPool
//! `pool-a`; `GPUQuotaOrCapacityNotEnough` on Pod `cv/vision-0` with a 5000-byte error; and
//! `DefragPodEvicted` on `pool-a` for 30 Pods. It exits 0 once everything is flushed. It needs
//! `create`, `patch` and `get` on `events.k8s.io` events in `ml`, `cv` and `default`.

use std::error::Error;

use gpu_events::core::details::tensorfusion::{
    DefragPodEvicted, GangMembersWaiting, GpuQuotaOrCapacityNotEnough, NodeCreated,
};
use gpu_events::recorder::{GpuPool, Published, Recorder, Stats};
use k8s_openapi::api::core::v1::Pod;
use kube::api::ObjectMeta;

/// The reportingController of the scenario.
pub const CONTROLLER: &str = "tensor-fusion.ai/recorder-scenario";

fn pod(namespace: &str, name: &str) -> Pod {
    let metadata = ObjectMeta { name: Some(name.into()), namespace: Some(namespace.into()), ..ObjectMeta::default() };
    Pod { metadata, ..Pod::default() }
}

/// A 5000-byte quota error with multi-byte characters (Japanese workload names, as users write them).
pub fn long_error() -> String {
    let mut error = String::from(
        "quota exceeded in namespace cv for total.max.vram.request: requested 96Gi, limit 80Gi; workloads: ",
    );
    let mut i = 0;
    while error.len() < 5000 {
        error.push_str(&format!("推論ワークロード-{i}, "));
        i += 1;
    }
    while error.len() > 5000 {
        error.pop();
    }
    error
}

/// Runs the scenario with `client`; returns the recorder's counters once everything is flushed.
pub async fn run(client: kube::Client) -> Result<Stats, Box<dyn Error>> {
    let recorder = Recorder::builder(client, CONTROLLER).build()?;
    let mut dropped = 0;
    let mut tally = |published: Published| dropped += usize::from(matches!(published, Published::Dropped(_)));

    let worker = pod("ml", "llama-train-worker-0");
    for _ in 0..1000 {
        tally(recorder.publish(GangMembersWaiting::new(2, 4), &worker)?);
    }
    tally(recorder.publish(GangMembersWaiting::new(3, 4), &worker)?);

    let pool = GpuPool::new("pool-a", None);
    tally(recorder.publish(NodeCreated::new("i-0abc1234def567890", "10.0.0.9"), &pool)?);
    tally(recorder.publish(GpuQuotaOrCapacityNotEnough::new(&long_error()), &pod("cv", "vision-0"))?);
    for i in 0..30 {
        tally(recorder.publish(DefragPodEvicted::new("ml", &format!("llama-infer-{i}"), "gpu-node-3"), &pool)?);
    }
    recorder.shutdown().await;
    let stats = recorder.stats();
    println!(
        "{} publish calls: {} creates, {} series patches, {} repeats counted in memory, {} dropped ({} here), {} rejected, {} failed",
        stats.published,
        stats.creates,
        stats.patches,
        stats.counted,
        stats.dropped(),
        dropped,
        stats.rejected,
        stats.failed
    );
    Ok(stats)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let client = kube::Client::try_default().await?;
    let stats = run(client).await?;
    if stats.rejected + stats.failed > 0 {
        return Err(format!("{} writes were refused and {} failed", stats.rejected, stats.failed).into());
    }
    Ok(())
}
