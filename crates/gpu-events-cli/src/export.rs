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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::{CommandFactory, Parser};
    use gpu_events_export::config::{apis_text, format_duration};
    use gpu_events_export::leader::LeaseConfig;
    use gpu_events_export::owner::OwnerConfig;
    use gpu_events_export::sink::SinkConfig;
    use gpu_events_export::watch::EventApi;

    use super::*;

    /// `gpu-events export`'s flags alone.
    #[derive(Parser, Debug)]
    struct Export {
        #[command(flatten)]
        args: ExportArgs,
    }

    fn parse(argv: &[&str]) -> ExportArgs {
        Export::try_parse_from(std::iter::once("export").chain(argv.iter().copied())).unwrap().args
    }

    /// Each flag's help as `--help` prints it.
    fn help(flag: &str) -> String {
        let command = Export::command();
        let arg = command.get_arguments().find(|a| a.get_long() == Some(flag));
        arg.and_then(|a| a.get_help()).unwrap_or_else(|| panic!("no --{flag}")).to_string()
    }

    #[test]
    fn every_flag_of_before_still_parses() {
        let args = parse(&[
            "--cluster=c",
            "-n=a",
            "--namespace=b",
            "--api=both",
            "--sink=stdout",
            "--state=/tmp/s",
            "--checkpoint-interval=1m",
            "--max-events=9",
            "--mark-ttl=3h",
            "--metrics-addr=127.0.0.1:9464",
            "--metrics-namespace-label",
            "--no-default-redaction",
            "--redact={name: t, pattern: x}",
            "--route={name: r, sinks: [stdout]}",
            "--alert={name: a, silence: 30m, sink: stdout}",
            "--owners",
            "--leader-elect",
            "--leader-elect-namespace=ns",
            "--leader-elect-lease-name=l",
            "--leader-elect-identity=i",
            "--owners-qps=2",
            "--owners-burst=3",
            "--owners-cache-size=4",
            "--sink-queue=5",
            "--sink-batch=6",
            "--sink-rotate-bytes=7",
            "--sink-keep=8",
        ]);
        let (options, election) = options(args).unwrap();
        assert_eq!(options.cluster.as_deref(), Some("c"));
        assert_eq!(options.namespaces, ["a", "b"]);
        assert_eq!(options.apis, EventApi::ALL);
        assert_eq!(options.state, Some(PathBuf::from("/tmp/s")));
        assert_eq!(options.checkpoint_interval, Duration::from_secs(60));
        assert_eq!(options.max_events.get(), 9);
        assert_eq!(options.mark_ttl, Duration::from_secs(3 * 3600));
        assert_eq!(options.metrics_addr, Some("127.0.0.1:9464".parse().unwrap()));
        assert!(options.metrics.namespace_label);
        assert!(!options.redaction.defaults);
        assert_eq!(options.redaction.rules.len(), 1);
        assert_eq!((options.routes.len(), options.alerts.len()), (1, 1));
        assert!(options.owners.enabled);
        assert_eq!((options.owners.qps, options.owners.burst, options.owners.cache_size), (2.0, 3, 4));
        let sink = &options.sinks[0];
        assert_eq!((sink.spec.as_str(), sink.queue, sink.batch, sink.rotate_bytes, sink.keep), ("stdout", 5, 6, 7, 8));
        let lease = election.unwrap().to_lease_config("fallback");
        assert_eq!((lease.namespace.as_str(), lease.name.as_str(), lease.identity.as_str()), ("ns", "l", "i"));
        for (flag, apis) in [("events", vec![EventApi::EventsV1]), ("core", vec![EventApi::CoreV1])] {
            assert_eq!(options_of(&["--api", flag]).apis, apis, "--api {flag}");
        }
    }

    fn options_of(argv: &[&str]) -> ExporterOptions {
        options(parse(argv)).unwrap().0
    }

    #[test]
    fn flags_overlay_the_config_file() {
        let dir = std::env::temp_dir().join(format!("gpu-events-export-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.yaml");
        std::fs::write(
            &file,
            "cluster: from-file\nnamespaces: [ml]\nowners: {enabled: true, qps: 2, burst: 3}\n\
             leaderElection: {enabled: true, leaseNamespace: file-ns, leaseDuration: 20s}\n",
        )
        .unwrap();
        let path = file.to_str().unwrap();
        let (options, election) = options(parse(&[
            "--config",
            path,
            "--cluster",
            "from-flag",
            "--owners-qps",
            "7",
            "--leader-elect-namespace",
            "flag-ns",
        ]))
        .unwrap();
        assert_eq!(options.cluster.as_deref(), Some("from-flag"), "a flag wins");
        assert_eq!(options.namespaces, ["ml"], "not given as a flag: the file's");
        assert!(options.owners.enabled);
        assert_eq!((options.owners.qps, options.owners.burst), (7.0, 3), "flags win per key");
        assert_eq!(options.owners.cache_size, OwnerConfig::DEFAULT_CACHE_SIZE);
        let lease = election.expect("the file turns election on").to_lease_config("fallback");
        // Before, the file's leaseNamespace won over --leader-elect-namespace.
        assert_eq!(lease.namespace, "flag-ns");
        assert_eq!(lease.lease_duration, Duration::from_secs(20));
        assert_eq!(lease.renew_deadline, LeaseConfig::DEFAULT_RENEW_DEADLINE);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_flags_and_no_file_is_the_runtime_defaults() {
        let (options, election) = options(parse(&[])).unwrap();
        assert!(election.is_none());
        assert_eq!(options.apis, ExporterOptions::DEFAULT_APIS);
        assert_eq!(options.checkpoint_interval, ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL);
        assert_eq!(options.max_events, ExporterOptions::DEFAULT_MAX_EVENTS);
        assert_eq!(options.mark_ttl, ExporterOptions::DEFAULT_MARK_TTL);
        assert_eq!(options.sinks, [SinkConfig::from_spec(ExporterOptions::DEFAULT_SINK)]);
        assert_eq!(options.owners, OwnerConfig::default());
        assert!(options.redaction.defaults);
    }

    /// Each default is written once, as a constant of the runtime settings: `--help` prints that
    /// constant (and the defaults applied are the same constants, above).
    #[test]
    fn help_shows_each_default_from_its_runtime_constant() {
        let d = format_duration;
        for (flag, default) in [
            ("api", apis_text(ExporterOptions::DEFAULT_APIS)),
            ("checkpoint-interval", d(ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL)),
            ("max-events", ExporterOptions::DEFAULT_MAX_EVENTS.to_string()),
            ("mark-ttl", d(ExporterOptions::DEFAULT_MARK_TTL)),
            ("sink", ExporterOptions::DEFAULT_SINK.to_owned()),
            ("sink-queue", SinkConfig::DEFAULT_QUEUE.to_string()),
            ("sink-batch", SinkConfig::DEFAULT_BATCH.to_string()),
            ("sink-rotate-bytes", SinkConfig::DEFAULT_ROTATE_BYTES.to_string()),
            ("sink-keep", SinkConfig::DEFAULT_KEEP.to_string()),
            ("owners-qps", OwnerConfig::DEFAULT_QPS.to_string()),
            ("owners-burst", OwnerConfig::DEFAULT_BURST.to_string()),
            ("owners-cache-size", OwnerConfig::DEFAULT_CACHE_SIZE.to_string()),
            ("owners-ttl", d(OwnerConfig::DEFAULT_TTL)),
            ("leader-elect-lease-name", LeaseConfig::DEFAULT_NAME.to_owned()),
            ("leader-elect-lease-duration", d(LeaseConfig::DEFAULT_LEASE_DURATION)),
            ("leader-elect-renew-deadline", d(LeaseConfig::DEFAULT_RENEW_DEADLINE)),
            ("leader-elect-retry-period", d(LeaseConfig::DEFAULT_RETRY_PERIOD)),
        ] {
            let help = help(flag);
            assert!(help.ends_with(&format!("[default: {default}]")), "--{flag}: {help}");
        }
        // And a shown default parses back to the constant.
        assert_eq!(
            options_of(&["--checkpoint-interval", &d(ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL)])
                .checkpoint_interval,
            ExporterOptions::DEFAULT_CHECKPOINT_INTERVAL
        );
    }
}
