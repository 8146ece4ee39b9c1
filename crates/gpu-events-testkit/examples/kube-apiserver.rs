//! Start a real kube-apiserver and etcd on 127.0.0.1 (the Go harness in `harness/`, built with Go on first use and
//! cached under `target/`), write a kubeconfig, and stay in the foreground until Ctrl-C or SIGTERM.
//!
//! ```sh
//! cargo run -p gpu-events-testkit --example kube-apiserver -- --kubeconfig kubeconfig.yaml [--event-ttl 300s]
//! kubectl --kubeconfig kubeconfig.yaml get namespaces
//! ```

use std::time::Duration;

use gpu_events_testkit::{RealApiServer, RealServerConfig};
use tokio::signal::unix::{SignalKind, signal};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = RealServerConfig::default().kubeconfig("kubeconfig.yaml");
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--kubeconfig" => config = config.kubeconfig(value),
            "--event-ttl" => {
                let seconds = value.strip_suffix('s').unwrap_or(&value);
                config = config.event_ttl(Duration::from_secs(seconds.parse()?));
            }
            other => {
                return Err(format!("unknown flag {other} (flags: --kubeconfig PATH, --event-ttl SECONDSs)").into());
            }
        }
    }
    eprintln!("starting kube-apiserver (the first run builds the Go harness: minutes)");
    let server = RealApiServer::start_with(config).await?;
    println!("kube-apiserver at {}; kubeconfig {}; Ctrl-C stops it", server.url(), server.kubeconfig().display());
    let mut term = signal(SignalKind::terminate())?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    let status = server.stop().await?;
    eprintln!("stopped ({status})");
    Ok(())
}
