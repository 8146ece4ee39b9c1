//! How the commands that talk to a cluster find it: kubectl's own flags (`--kubeconfig`,
//! `--context`, `--request-timeout`), over the kubeconfig rules kube-rs shares with kubectl
//! (`KUBECONFIG`, else `~/.kube/config`; the current context and its namespace).

use std::path::PathBuf;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};

/// kubectl's connection flags, global to every subcommand.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ClusterArgs {
    /// Path to the kubeconfig file to use (else `KUBECONFIG`, else `~/.kube/config`).
    #[arg(long, global = true, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use (else its current context).
    #[arg(long, global = true, value_name = "NAME")]
    pub context: Option<String>,
    /// How long to wait for each request before giving up, as kubectl takes it: `0` waits
    /// forever, else a number with a unit (`30s`, `2m`, `1h`; a bare number is seconds).
    #[arg(long, global = true, value_name = "DURATION", value_parser = parse_timeout)]
    pub request_timeout: Option<Duration>,
}

impl ClusterArgs {
    /// The client configuration these flags select.
    pub async fn config(&self) -> Result<kube::Config, String> {
        let options = KubeConfigOptions { context: self.context.clone(), ..KubeConfigOptions::default() };
        let mut config = match (&self.kubeconfig, &self.context) {
            (Some(path), _) => {
                let kubeconfig = Kubeconfig::read_from(path)
                    .map_err(|e| format!("reading the kubeconfig {}: {e}", path.display()))?;
                kube::Config::from_custom_kubeconfig(kubeconfig, &options)
                    .await
                    .map_err(|e| format!("the kubeconfig {}: {e}", path.display()))?
            }
            (None, Some(_)) => kube::Config::from_kubeconfig(&options)
                .await
                .map_err(|e| format!("the kubeconfig (KUBECONFIG or ~/.kube/config): {e}"))?,
            (None, None) => kube::Config::infer()
                .await
                .map_err(|e| format!("reading the cluster (kubeconfig from KUBECONFIG or ~/.kube/config): {e}"))?,
        };
        if let Some(timeout) = self.request_timeout {
            // kubectl's `0` means no timeout: kube's `None`.
            let timeout = (!timeout.is_zero()).then_some(timeout);
            config.connect_timeout = timeout;
            config.read_timeout = timeout;
            config.write_timeout = timeout;
        }
        Ok(config)
    }
}

/// kubectl's `--request-timeout` values (Go durations of one unit, the form kubectl documents).
fn parse_timeout(s: &str) -> Result<Duration, String> {
    let err = || format!("`{s}` is not a duration: use 0, or a number with s, m or h (e.g. 30s, 2m)");
    let (number, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let value: f64 = number.parse().map_err(|_| err())?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(err()),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeouts_read_as_kubectl_reads_them() {
        assert_eq!(parse_timeout("0"), Ok(Duration::ZERO));
        assert_eq!(parse_timeout("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_timeout("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_timeout("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_timeout("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_timeout("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_timeout("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_timeout("soon").unwrap_err().contains("`soon` is not a duration"));
        assert!(parse_timeout("5d").is_err());
        assert!(parse_timeout("-1s").is_err());
    }
}
