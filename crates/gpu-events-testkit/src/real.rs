//! A real kube-apiserver with an embedded etcd, run by the Go harness (`harness/`) as a child process, as envtest
//! runs one: its own temporary data directory per server, stopped with SIGTERM when dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::harness::harness_binary;

/// How many lines of the harness's log (its stderr) are kept for error messages.
const LOG_LINES: usize = 200;

/// How long a stopping harness gets before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(30);

/// Errors starting the real API server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RealError {
    /// The Go command could not be run to build the harness.
    #[error(
        "building the kube-apiserver harness needs Go 1.26 or later: cannot run `{go}` ({source}); install Go, set $GO, or set $GPU_EVENTS_HARNESS to a built harness"
    )]
    GoMissing {
        /// The command tried.
        go: String,
        /// Why it could not run.
        source: std::io::Error,
    },
    /// `go build` of the harness failed.
    #[error("`go build` of the kube-apiserver harness in {} failed ({status}):\n{stderr}", dir.display())]
    Build {
        /// The harness sources.
        dir: PathBuf,
        /// The exit status of `go build`.
        status: String,
        /// What `go build` printed.
        stderr: String,
    },
    /// A file or process operation failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or program concerned.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The harness exited, or did not print its ready line in time.
    #[error("the kube-apiserver harness did not become ready: {reason}; its last log lines:\n{log}")]
    NotReady {
        /// Exit status or timeout.
        reason: String,
        /// The end of its stderr.
        log: String,
    },
    /// A kube client could not be made from the harness's kubeconfig.
    #[cfg(feature = "kube")]
    #[error("cannot build a kube client from {}: {source}", path.display())]
    Kube {
        /// The kubeconfig.
        path: PathBuf,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// How to start a [`RealApiServer`].
#[derive(Debug, Clone)]
pub struct RealServerConfig {
    event_ttl: Duration,
    start_timeout: Duration,
    kubeconfig: Option<PathBuf>,
    extra_args: Vec<String>,
}

impl Default for RealServerConfig {
    fn default() -> Self {
        RealServerConfig {
            event_ttl: Duration::from_secs(3600),
            start_timeout: Duration::from_secs(180),
            kubeconfig: None,
            extra_args: vec![],
        }
    }
}

impl RealServerConfig {
    /// kube-apiserver's `--event-ttl` (default one hour, as kube-apiserver's own default).
    pub fn event_ttl(mut self, ttl: Duration) -> Self {
        self.event_ttl = ttl;
        self
    }

    /// How long to wait for the ready line (default three minutes; a start takes seconds once built).
    pub fn start_timeout(mut self, timeout: Duration) -> Self {
        self.start_timeout = timeout;
        self
    }

    /// Where to write the kubeconfig (default: in the server's data directory, removed when it stops). A path given
    /// here is left behind.
    pub fn kubeconfig(mut self, path: impl Into<PathBuf>) -> Self {
        self.kubeconfig = Some(path.into());
        self
    }

    /// A kube-apiserver flag, e.g. `--etcd-compaction-interval=10s`, after the harness's own (so it wins).
    pub fn apiserver_arg(mut self, arg: impl Into<String>) -> Self {
        self.extra_args.push(arg.into());
        self
    }
}

/// A real kube-apiserver on an embedded etcd, both on `127.0.0.1`, RBAC on, with two token identities in its
/// kubeconfig: context `admin` (current, group `system:masters`) and context `user` (no rights until a test binds
/// some). Stops (SIGTERM, then waits) when dropped; its data directory is removed by the harness on exit.
///
/// The first start builds the Go harness (minutes, once; see the harness README) unless `$GPU_EVENTS_HARNESS`
/// names a built one.
pub struct RealApiServer {
    child: Option<Child>,
    // Held open: the harness stops when it closes, so a test process that dies without dropping this (a static,
    // an abort) leaves no server behind.
    // Commands go in here too, one a line ([`RealApiServer::compact`]); answers come on stdout.
    stdin: Mutex<Option<ChildStdin>>,
    answers: Mutex<mpsc::Receiver<String>>,
    url: String,
    kubeconfig: PathBuf,
    log: Arc<Mutex<VecDeque<String>>>,
}

impl std::fmt::Debug for RealApiServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RealApiServer").field("url", &self.url).field("kubeconfig", &self.kubeconfig).finish()
    }
}

impl RealApiServer {
    /// Builds the harness if needed and starts a server with the default [`RealServerConfig`].
    pub async fn start() -> Result<RealApiServer, RealError> {
        Self::start_with(RealServerConfig::default()).await
    }

    /// Builds the harness if needed and starts a server with `config`, returning once it is ready.
    pub async fn start_with(config: RealServerConfig) -> Result<RealApiServer, RealError> {
        tokio::task::spawn_blocking(move || Self::start_blocking(&config))
            .await
            .expect("starting the harness does not panic")
    }

    /// [`start_with`](RealApiServer::start_with) without async, for programs without a runtime.
    pub fn start_blocking(config: &RealServerConfig) -> Result<RealApiServer, RealError> {
        let binary = harness_binary()?;
        let mut command = Command::new(&binary);
        if let Some(path) = &config.kubeconfig {
            command.arg("--kubeconfig").arg(path);
        }
        let mut child = command
            .arg(format!("--event-ttl={}s", config.event_ttl.as_secs()))
            .arg(format!("--start-timeout={}s", config.start_timeout.as_secs()))
            .arg("--stop-on-stdin-eof")
            .arg("--")
            .args(&config.extra_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| RealError::Io { path: binary.clone(), source })?;
        let stdin = child.stdin.take();
        let log = Arc::new(Mutex::new(VecDeque::with_capacity(LOG_LINES)));
        let stderr = child.stderr.take().expect("stderr is piped");
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut log = sink.lock().expect("the log lock is not poisoned");
                if log.len() == LOG_LINES {
                    log.pop_front();
                }
                log.push_back(line);
            }
        });
        let (ready_tx, ready_rx) = mpsc::channel();
        let (answer_tx, answer_rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            // The ready line, then the answers to commands; reading on keeps the pipe from filling.
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(ready) = ReadyLine::parse(&line) {
                    let _ = ready_tx.send(ready);
                } else if line.starts_with("compacted ") || line.starts_with("error ") {
                    let _ = answer_tx.send(line);
                }
            }
        });

        let mut server = RealApiServer {
            child: Some(child),
            stdin: Mutex::new(stdin),
            answers: Mutex::new(answer_rx),
            url: String::new(),
            kubeconfig: PathBuf::new(),
            log,
        };
        let deadline = Instant::now() + config.start_timeout + Duration::from_secs(5);
        loop {
            match ready_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(ready) => {
                    server.url = ready.server;
                    server.kubeconfig = ready.kubeconfig;
                    return Ok(server);
                }
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(_) => {}
            }
            let child = server.child.as_mut().expect("the child is there until drop");
            let exited = child.try_wait().map_err(|source| RealError::Io { path: binary.clone(), source })?;
            if let Some(status) = exited {
                // Let the log thread take the last lines.
                std::thread::sleep(Duration::from_millis(100));
                return Err(RealError::NotReady { reason: format!("it exited ({status})"), log: server.log() });
            }
            if Instant::now() >= deadline {
                return Err(RealError::NotReady {
                    reason: format!("no ready line after {:?}", config.start_timeout),
                    log: server.log(),
                });
            }
        }
    }

    /// One server for the whole test process, started on first use with the default [`RealServerConfig`], so a test
    /// binary pays one start (seconds) rather than one per test. It is never dropped: the harness stops when the test
    /// process exits (its stdin closes) and removes its data. Tests sharing it keep to their own namespaces.
    ///
    /// # Panics
    /// When the server cannot be built or started, with the reason (Go missing, the build's errors, the log).
    pub async fn shared() -> &'static RealApiServer {
        static SHARED: tokio::sync::OnceCell<Result<RealApiServer, String>> = tokio::sync::OnceCell::const_new();
        let started = SHARED.get_or_init(|| async { RealApiServer::start().await.map_err(|e| e.to_string()) }).await;
        match started {
            Ok(server) => server,
            Err(reason) => panic!("the shared real kube-apiserver did not start: {reason}"),
        }
    }

    /// The server's URL, `https://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The kubeconfig the harness wrote (contexts `admin`, current, and `user`); unless given with
    /// [`RealServerConfig::kubeconfig`], it is removed when the server stops.
    pub fn kubeconfig(&self) -> &Path {
        &self.kubeconfig
    }

    /// The last lines of the harness's log (kube-apiserver's and etcd's stderr).
    pub fn log(&self) -> String {
        let log = self.log.lock().expect("the log lock is not poisoned");
        log.iter().map(String::as_str).collect::<Vec<_>>().join("\n")
    }

    /// Compacts etcd at its current revision now, as kube-apiserver's compactor does every
    /// `--etcd-compaction-interval`: a watch from an older resourceVersion then gets an `ERROR` event with a 410
    /// `Expired` Status, and an `Exact` list at one or a `continue` token from before gets 410. Returns the
    /// revision compacted at (the resourceVersion of the latest write, of any resource).
    pub async fn compact(&self) -> Result<u64, RealError> {
        let what = || PathBuf::from("the harness's stdin (command compact)");
        {
            let mut stdin = self.stdin.lock().expect("the stdin lock is not poisoned");
            let pipe = stdin.as_mut().ok_or_else(|| RealError::Io {
                path: what(),
                source: std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the server is stopping"),
            })?;
            pipe.write_all(b"compact\n")
                .and_then(|()| pipe.flush())
                .map_err(|source| RealError::Io { path: what(), source })?;
        }
        let answer = {
            let answers = self.answers.lock().expect("the answers lock is not poisoned");
            answers.recv_timeout(Duration::from_secs(60))
        };
        let failed = |reason: String| RealError::Io { path: what(), source: std::io::Error::other(reason) };
        match answer {
            Ok(line) => line
                .strip_prefix("compacted revision=")
                .and_then(|rev| rev.trim().parse().ok())
                .ok_or_else(|| failed(line.clone())),
            Err(e) => Err(failed(format!("no answer: {e}"))),
        }
    }

    /// Stops the server: SIGTERM, then waits for it to exit (killing it after 30 s). Returns its exit status.
    pub async fn stop(mut self) -> Result<ExitStatus, RealError> {
        let child = self.child.take();
        let stdin = self.stdin.get_mut().expect("the stdin lock is not poisoned").take();
        tokio::task::spawn_blocking(move || stop_child(child, stdin))
            .await
            .expect("stopping the harness does not panic")
            .map(|status| status.expect("the child was there"))
    }
}

#[cfg(feature = "kube")]
impl RealApiServer {
    /// A kube client as the admin (`system:masters`).
    pub async fn client(&self) -> Result<kube::Client, RealError> {
        self.client_for_context("admin").await
    }

    /// A kube client as the admin that does not retry: kube's default policy retries 429, 503 and 504 inside the
    /// client, this one sends each request once, so a [`RequestCounter`](crate::RequestCounter) around it counts
    /// every request that reaches the server (as around the double's
    /// [`client_without_retry`](crate::ApiServer::client_without_retry)).
    pub async fn client_without_retry(&self) -> Result<kube::Client, RealError> {
        let mut config = self.kube_config("admin").await?;
        config.default_retry = false;
        kube::Client::try_from(config).map_err(|e| self.kube_error(e.into()))
    }

    /// A kube client for a context of the kubeconfig: `admin`, or `user` (authenticated, without rights).
    pub async fn client_for_context(&self, context: &str) -> Result<kube::Client, RealError> {
        let config = self.kube_config(context).await?;
        kube::Client::try_from(config).map_err(|e| self.kube_error(e.into()))
    }

    /// The `kube::Config` of a context of the kubeconfig (kube's defaults, including its retries).
    pub async fn kube_config(&self, context: &str) -> Result<kube::Config, RealError> {
        let kubeconfig =
            kube::config::Kubeconfig::read_from(&self.kubeconfig).map_err(|e| self.kube_error(e.into()))?;
        let options = kube::config::KubeConfigOptions { context: Some(context.to_string()), ..Default::default() };
        kube::Config::from_custom_kubeconfig(kubeconfig, &options).await.map_err(|e| self.kube_error(e.into()))
    }

    fn kube_error(&self, source: Box<dyn std::error::Error + Send + Sync>) -> RealError {
        RealError::Kube { path: self.kubeconfig.clone(), source }
    }
}

impl Drop for RealApiServer {
    fn drop(&mut self) {
        let stdin = self.stdin.get_mut().map(Option::take).unwrap_or_default();
        let _ = stop_child(self.child.take(), stdin);
    }
}

/// SIGTERM, then wait up to [`STOP_GRACE`], then SIGKILL. `None` when there was no child.
fn stop_child(child: Option<Child>, stdin: Option<ChildStdin>) -> Result<Option<ExitStatus>, RealError> {
    let Some(mut child) = child else { return Ok(None) };
    let what = PathBuf::from(format!("harness pid {}", child.id()));
    let io = |source| RealError::Io { path: what.clone(), source };
    let pid = rustix::process::Pid::from_child(&child);
    if let Err(e) = rustix::process::kill_process(pid, rustix::process::Signal::TERM) {
        // Already gone: wait below collects it.
        if e != rustix::io::Errno::SRCH {
            return Err(io(e.into()));
        }
    }
    drop(stdin);
    let deadline = Instant::now() + STOP_GRACE;
    loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            child.kill().map_err(io)?;
            return child.wait().map(Some).map_err(io);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The harness's `ready server=URL kubeconfig=PATH data-dir=DIR` line.
#[derive(Debug, PartialEq)]
struct ReadyLine {
    server: String,
    kubeconfig: PathBuf,
}

impl ReadyLine {
    fn parse(line: &str) -> Option<ReadyLine> {
        let fields = line.strip_prefix("ready ")?;
        let field = |key: &str| fields.split(' ').find_map(|f| f.strip_prefix(key)).map(str::to_string);
        Some(ReadyLine { server: field("server=")?, kubeconfig: field("kubeconfig=")?.into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ready_line_gives_the_url_and_kubeconfig_and_other_lines_are_not_ready() {
        let line = "ready server=https://127.0.0.1:40001 kubeconfig=/tmp/x/kubeconfig data-dir=/tmp/x";
        assert_eq!(
            ReadyLine::parse(line),
            Some(ReadyLine { server: "https://127.0.0.1:40001".into(), kubeconfig: "/tmp/x/kubeconfig".into() })
        );
        assert_eq!(ReadyLine::parse("ready server=https://127.0.0.1:1"), None, "no kubeconfig");
        assert_eq!(ReadyLine::parse("I1202 starting kube-apiserver"), None);
    }
}
