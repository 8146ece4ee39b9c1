//! `gpu-events export`: the exporter of `gpu-events-export`, configured from a YAML file and
//! flags (flags win), stopped by Ctrl-C or SIGTERM with a final checkpoint.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use gpu_events_export::Metrics;
use gpu_events_export::config::{ExportConfig, LeaderElectionConfig};
use gpu_events_export::exporter::{self, ExporterOptions, ExporterStats};
use gpu_events_export::leader::LeaderElector;

/// Flags of `gpu-events export`: `--config` and the exporter's options, declared once in
/// [`ExportConfig`] (the config file's struct) and flattened here.
#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    /// The configuration file (YAML); flags override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    options: ExportConfig,
}

/// Leader election, when on: the Lease settings.
type Election = Option<LeaderElectionConfig>;

/// The options from the file and the flags (flags win), with the defaults filled in.
fn options(args: ExportArgs) -> Result<(ExporterOptions, Election), String> {
    let file = match &args.config {
        Some(path) => ExportConfig::load(path).map_err(|e| e.to_string())?,
        None => ExportConfig::default(),
    };
    let config = file.overlay(args.options);
    let election = config.leader_election.enabled.then(|| config.leader_election.clone());
    Ok((config.into_options(), election))
}

/// Runs until Ctrl-C or SIGTERM.
pub(crate) fn run(args: ExportArgs, cluster: &crate::cluster::ClusterArgs) -> Result<ExitCode, String> {
    let (options, election) = options(args)?;
    // Warnings and errors (failed lists, sinks, checkpoints) on stderr; RUST_LOG refines it.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,gpu_events_export=info"));
    let ansi = crate::table::colour_stderr();
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let mut config = cluster.config().await?;
        // The exporter retries with its own backoff and must see each 429/5xx at once: kube's
        // default policy retries them for minutes (a checkpoint ahead of the server answers
        // 504 ResourceVersionTooLarge, which then went unnoticed while /healthz said ok).
        config.default_retry = false;
        let client = kube::Client::try_from(config).map_err(|e| format!("building the cluster client: {e}"))?;
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let signal = stop.clone();
        tokio::spawn(async move {
            shutdown_signal().await;
            let _ = signal.send(true);
        });
        let Some(election) = election else {
            exporter::run(client, options, Arc::new(ExporterStats::default()), stopped)
                .await
                .map_err(|e| e.to_string())?;
            return Ok(ExitCode::SUCCESS);
        };
        // Export only while leading; losing the Lease stops the exporter (with its final
        // checkpoint) and ends the process, so the Deployment restarts it as a standby.
        let namespace = std::env::var("POD_NAMESPACE").ok().unwrap_or_else(|| client.default_namespace().to_owned());
        let elector =
            LeaderElector::new(client.clone(), election.to_lease_config(&namespace)).map_err(|e| e.to_string())?;
        // A standby serves /healthz (healthy while it campaigns) and its metrics, leader 0, from
        // the start; the exporter fills the same metrics once this replica leads.
        let mut options = options;
        let metrics = Arc::new(Metrics::new(&options.metrics, options.cluster.as_deref()));
        metrics.set_leader(false);
        let _metrics_server = match options.metrics_addr.take() {
            Some(addr) => {
                let (_, task) = gpu_events_export::metrics::serve(addr, metrics.clone())
                    .await
                    .map_err(|e| format!("metrics address {addr}: {e}"))?;
                Some(AbortOnDrop(task))
            }
            None => None,
        };
        let (leading_tx, mut leading) = tokio::sync::watch::channel(false);
        // The Lease is released only after the exporter has written its final checkpoint, so a
        // standby sharing the state file resumes exactly where this replica stopped.
        let (release, released) = tokio::sync::watch::channel(false);
        let election_task = tokio::spawn(elector.run(leading_tx, released));
        let mut waiting = stopped.clone();
        tokio::select! {
            got = leading.wait_for(|l| *l) => if got.is_err() {
                return match election_task.await {
                    Ok(Err(err)) => Err(err.to_string()),
                    _ => Err("leader election ended".into()),
                };
            },
            _ = waiting.wait_for(|s| *s) => {
                let _ = release.send(true);
                let _ = election_task.await;
                return Ok(ExitCode::SUCCESS);
            }
        }
        let lost = stop.clone();
        tokio::spawn(async move {
            let _ = leading.wait_for(|l| !*l).await;
            let _ = lost.send(true);
        });
        let exported = exporter::run_with_metrics(client, options, metrics, stopped).await.map_err(|e| e.to_string());
        let _ = release.send(true);
        let elected = election_task.await;
        exported?;
        match elected {
            Ok(Err(err)) => Err(err.to_string()),
            _ => Ok(ExitCode::SUCCESS),
        }
    })
}

/// Stops a background task when dropped (the metrics server, on every way out of `run`).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
