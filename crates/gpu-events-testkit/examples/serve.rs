//! Serve the API double on 127.0.0.1 for measurements of whole programs (`scripts/export-memory.sh`):
//! seed `--events N` core/v1 Events, then add `--rate R` new Events per second and repeat old
//! ones (count increments), and write a kubeconfig for the programs under test. `--event-ttl 120s` expires
//! Events that long after their last write, as kube-apiserver's `--event-ttl` (off by default: Events stay).
//!
//! ```sh
//! cargo run --release -p gpu-events-testkit --example serve -- \
//!   --events 200000 --rate 100 --event-ttl 3600s --kubeconfig /tmp/kubeconfig
//! ```

use std::time::Duration;

use gpu_events_testkit::{ApiServer, ServerConfig};
use serde_json::json;

fn event(i: u64, count: u64) -> serde_json::Value {
    let pod = format!("trainer-{}", i % 5000);
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{pod}.{i:016x}"), "namespace": format!("ml-{}", i % 20),
                     "uid": format!("00000000-0000-4000-8000-{i:012}")},
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": format!("ml-{}", i % 20), "name": pod},
        "reason": "FailedScheduling", "type": "Warning", "count": count,
        "message": "0/64 nodes are available: 48 Insufficient nvidia.com/gpu, 16 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: 0/64 nodes are available: 64 No preemption victims found for incoming pod.",
        "source": {"component": "default-scheduler"},
        "firstTimestamp": chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        "lastTimestamp": chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut events, mut rate, mut kubeconfig) = (0u64, 0u64, String::from("kubeconfig"));
    let mut event_ttl: Option<Duration> = None;
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--events" => events = value.parse()?,
            "--rate" => rate = value.parse()?,
            "--kubeconfig" => kubeconfig = value,
            "--event-ttl" => {
                let seconds = value.strip_suffix('s').unwrap_or(&value);
                event_ttl = Some(Duration::from_secs(seconds.parse()?));
            }
            other => return Err(format!("unknown flag {other}").into()),
        }
    }
    // Keep the request log off: a measurement runs for minutes.
    let mut config = ServerConfig::default().record_requests(false).history_limit(100_000);
    if let Some(ttl) = event_ttl {
        config = config.event_ttl(ttl);
    }
    let server = ApiServer::start_with(config).await;
    for i in 0..events {
        server.insert(event(i, 1))?;
    }
    server.write_kubeconfig(&kubeconfig, "default")?;
    println!("serving {} with {events} events at {kubeconfig}, event TTL {event_ttl:?}", server.url());
    let mut next = events;
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut repeat = 1u64;
    loop {
        tick.tick().await;
        // Per 100 ms: rate/10 Events, half new, half repeats of recent ones.
        for k in 0..rate.div_ceil(10) {
            if k % 2 == 0 || next == 0 {
                server.insert(event(next, 1))?;
                next += 1;
            } else {
                repeat += 1;
                server.insert(event(next.saturating_sub(1 + k), repeat))?;
            }
        }
    }
}
