//! Leader election on a `coordination.k8s.io/v1` Lease, as client-go's `leaderelection` package
//! does it, so that two exporter replicas never export the same events twice.
//!
//! ```no_run
//! # async fn demo(client: kube::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use gpu_events_export::leader::{LeaderElector, LeaseConfig, default_identity};
//! use tokio::sync::watch;
//!
//! let config = LeaseConfig::new("gpu-events-export", "monitoring", default_identity());
//! let elector = LeaderElector::new(client, config)?;
//! let (leading_tx, mut leading) = watch::channel(false);
//! let (stop_tx, stop) = watch::channel(false);
//! let election = tokio::spawn(elector.run(leading_tx, stop));
//! leading.wait_for(|l| *l).await?; // export only from here on, and stop when it turns false
//! # stop_tx.send(true)?;
//! # election.await??;
//! # Ok(()) }
//! ```
//!
//! # The protocol
//! - Every [`retry_period`](LeaseConfig::retry_period) (a standby adds up to 20 % jitter) the
//!   elector reads the Lease. It **acquires** it when the Lease does not exist (create), has no
//!   holder (released), or has not changed for the holder's `leaseDurationSeconds`; it **renews**
//!   it when it is the holder. Writes carry the `resourceVersion` read, so of two replicas racing
//!   for the same Lease one gets `409 Conflict`; that one re-reads and stands by.
//! - Expiry is judged as client-go judges it: by how long this replica has seen the Lease's
//!   record unchanged on its own monotonic clock, never by comparing `renewTime` with its wall
//!   clock, so clock skew between nodes cannot make two leaders. A replica that starts while a
//!   dead leader's Lease is still recorded therefore waits one lease duration before taking over.
//!   `leaseDurationSeconds` holds whole seconds (rounded up); when it equals this replica's own
//!   rounded duration, the replica's exact [`lease_duration`](LeaseConfig::lease_duration) is used,
//!   so sub-second durations work between replicas configured alike.
//! - The leader publishes `true` on `on_change` after each acquisition and publishes `false` **as
//!   soon as** it has not renewed for [`renew_deadline`](LeaseConfig::renew_deadline) (a hanging
//!   request is abandoned then), or when it sees another holder. It keeps trying and leads again
//!   if it can.
//! - On stop it publishes `false` first, then **releases** the Lease if it holds it
//!   (`holderIdentity: ""`, `leaseDurationSeconds: 1`), so a standby takes over at its next read.
//! - `leaseTransitions` is 0 when the Lease is created and grows by one each time a replica
//!   acquires it from another holder (or after a release); `acquireTime` is the time of that
//!   acquisition, `renewTime` of the last write.
//!
//! RBAC: `get`, `create` and `update` on `leases` (`coordination.k8s.io`) in the Lease's
//! namespace. A 403 ends [`LeaderElector::run`] with [`LeaderError::Forbidden`] (and an error
//! log) without ever leading.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, PostParams};
use tokio::sync::watch;
use tokio::time::Instant;

/// Where and how to elect: the Lease, this replica's identity and the timing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeaseConfig {
    /// Lease name (a DNS subdomain, e.g. `gpu-events-export`).
    pub name: String,
    /// Namespace of the Lease (usually the exporter's own).
    pub namespace: String,
    /// This replica's identity, unique among the replicas (see [`default_identity`]).
    pub identity: String,
    /// How long a Lease stays with its holder without renewal before a standby may take it
    /// (default [`LeaseConfig::DEFAULT_LEASE_DURATION`]). Must be longer than `renew_deadline`.
    pub lease_duration: Duration,
    /// How long the leader keeps leading without a successful renewal (default
    /// [`LeaseConfig::DEFAULT_RENEW_DEADLINE`]). Must be longer than 1.2 × `retry_period`.
    pub renew_deadline: Duration,
    /// How often the Lease is read and renewed or acquired (default
    /// [`LeaseConfig::DEFAULT_RETRY_PERIOD`]; > 0).
    pub retry_period: Duration,
}

impl LeaseConfig {
    /// The Lease's name unless one is configured (the exporter's `leaderElection.leaseName`).
    pub const DEFAULT_NAME: &'static str = "gpu-events-export";
    /// The default of [`lease_duration`](LeaseConfig::lease_duration) (client-go's).
    pub const DEFAULT_LEASE_DURATION: Duration = Duration::from_secs(15);
    /// The default of [`renew_deadline`](LeaseConfig::renew_deadline) (client-go's).
    pub const DEFAULT_RENEW_DEADLINE: Duration = Duration::from_secs(10);
    /// The default of [`retry_period`](LeaseConfig::retry_period) (client-go's).
    pub const DEFAULT_RETRY_PERIOD: Duration = Duration::from_secs(2);

    /// A Lease `namespace/name` for `identity`, with client-go's default timing
    /// ([`DEFAULT_LEASE_DURATION`](Self::DEFAULT_LEASE_DURATION),
    /// [`DEFAULT_RENEW_DEADLINE`](Self::DEFAULT_RENEW_DEADLINE),
    /// [`DEFAULT_RETRY_PERIOD`](Self::DEFAULT_RETRY_PERIOD)).
    pub fn new(name: impl Into<String>, namespace: impl Into<String>, identity: impl Into<String>) -> Self {
        LeaseConfig {
            name: name.into(),
            namespace: namespace.into(),
            identity: identity.into(),
            lease_duration: Self::DEFAULT_LEASE_DURATION,
            renew_deadline: Self::DEFAULT_RENEW_DEADLINE,
            retry_period: Self::DEFAULT_RETRY_PERIOD,
        }
    }

    /// `leaseDurationSeconds` as written: whole seconds, rounded up, at least 1.
    fn duration_seconds(&self) -> i32 {
        let secs = self.lease_duration.as_secs() + u64::from(self.lease_duration.subsec_nanos() > 0);
        i32::try_from(secs.max(1)).unwrap_or(i32::MAX)
    }
}

/// An identity for this replica: `$POD_NAME`, else `$HOSTNAME`, else `gpu-events`, followed by `_`
/// and 8 random hex digits (as client-go adds a UUID), so a restarted Pod is a new holder.
pub fn default_identity() -> String {
    let base = ["POD_NAME", "HOSTNAME"]
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "gpu-events".to_string());
    format!("{base}_{:08x}", fastrand::u32(..))
}

/// Why leader election cannot start or go on. Each message says what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LeaderError {
    /// A [`LeaseConfig`] setting is empty or the timing does not fit together.
    #[error("leader election: {field}: {problem}")]
    InvalidConfig {
        /// The setting (`name`, `namespace`, `identity`, `leaseDuration`, `renewDeadline`, `retryPeriod`).
        field: &'static str,
        /// What is wrong and what is accepted.
        problem: String,
    },
    /// RBAC denies a verb on the Lease.
    #[error(
        "leader election: RBAC forbids {verb} on leases.coordination.k8s.io {namespace}/{name} ({message}); \
         grant get, create and update on leases in namespace {namespace} to the exporter's service account, \
         or turn leader election off"
    )]
    Forbidden {
        /// `get`, `create` or `update`.
        verb: &'static str,
        /// The Lease's namespace.
        namespace: String,
        /// The Lease's name.
        name: String,
        /// The API server's message.
        message: String,
    },
    /// The API server rejects the request itself (400, 401, 422: e.g. an invalid Lease name or
    /// missing credentials); retrying would not help.
    #[error(
        "leader election: the API server rejected {verb} of Lease {namespace}/{name} with {code}: {message}; \
         check the Lease name and namespace and the exporter's credentials"
    )]
    Rejected {
        /// `get`, `create` or `update`.
        verb: &'static str,
        /// The Lease's namespace.
        namespace: String,
        /// The Lease's name.
        name: String,
        /// HTTP status code.
        code: u16,
        /// The API server's message.
        message: String,
    },
}

/// Why one attempt failed.
enum Failure {
    /// Stop electing: the error is returned by `run`.
    Fatal(LeaderError),
    /// Try again at the next retry period.
    Transient(String),
}

/// Elects a leader among replicas sharing one Lease; see the [module documentation](self).
pub struct LeaderElector {
    api: Api<Lease>,
    config: LeaseConfig,
    /// The Lease's last seen resourceVersion and when this replica first saw it.
    observed: Option<(String, Instant)>,
}

impl std::fmt::Debug for LeaderElector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeaderElector").field("config", &self.config).finish_non_exhaustive()
    }
}

async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

impl LeaderElector {
    /// An elector for `config.namespace/config.name` using `client`.
    ///
    /// # Errors
    /// [`LeaderError::InvalidConfig`] when the name, namespace or identity is empty, the retry
    /// period is zero, the renew deadline is not above 1.2 × the retry period, or the lease
    /// duration is not above the renew deadline (the rules of client-go).
    pub fn new(client: kube::Client, config: LeaseConfig) -> Result<LeaderElector, LeaderError> {
        let invalid = |field, problem: String| Err(LeaderError::InvalidConfig { field, problem });
        for (field, value) in [("name", &config.name), ("namespace", &config.namespace), ("identity", &config.identity)]
        {
            if value.is_empty() {
                return invalid(field, "is empty; give one".into());
            }
        }
        if config.retry_period.is_zero() {
            return invalid("retryPeriod", "is zero; give a duration above zero, e.g. 2s".into());
        }
        if config.renew_deadline.as_secs_f64() <= config.retry_period.as_secs_f64() * 1.2 {
            return invalid(
                "renewDeadline",
                format!(
                    "{:?} must be longer than 1.2 × retryPeriod ({:?}); e.g. renewDeadline 10s with retryPeriod 2s",
                    config.renew_deadline, config.retry_period
                ),
            );
        }
        if config.lease_duration <= config.renew_deadline {
            return invalid(
                "leaseDuration",
                format!(
                    "{:?} must be longer than renewDeadline ({:?}); e.g. leaseDuration 15s with renewDeadline 10s",
                    config.lease_duration, config.renew_deadline
                ),
            );
        }
        if config.lease_duration.as_secs() >= i32::MAX as u64 {
            return invalid(
                "leaseDuration",
                format!("{:?} is too long; give at most a few minutes", config.lease_duration),
            );
        }
        let api = Api::namespaced(client, &config.namespace);
        Ok(LeaderElector { api, config, observed: None })
    }

    /// This replica's identity (the `holderIdentity` it writes).
    pub fn identity(&self) -> &str {
        &self.config.identity
    }

    /// Elects until `stop` turns `true` (or its sender is dropped), publishing on `on_change`
    /// whether this replica leads: `false` at once, `true` after each acquisition, `false` when
    /// it stops leading (renew deadline passed, another holder seen, stop). On stop it releases
    /// the Lease if it holds it, within at most one renew deadline.
    ///
    /// Transient failures (5xx, 429, transport errors, timeouts, a missing namespace) are logged
    /// and retried every retry period.
    ///
    /// # Errors
    /// [`LeaderError::Forbidden`] on a 403 and [`LeaderError::Rejected`] on a 400, 401 or 422,
    /// after publishing `false` and logging the error: such a replica never leads.
    pub async fn run(
        mut self,
        on_change: watch::Sender<bool>,
        mut stop: watch::Receiver<bool>,
    ) -> Result<(), LeaderError> {
        let publish = |leading: bool| {
            on_change.send_if_modified(|current| {
                let changed = *current != leading;
                *current = leading;
                changed
            });
        };
        publish(false);
        let (lease, identity) =
            (format!("{}/{}", self.config.namespace, self.config.name), self.config.identity.clone());
        let renew_deadline = self.config.renew_deadline;
        let mut leading = false;
        let mut last_renew = Instant::now();
        let outcome = loop {
            if *stop.borrow() {
                break Ok(());
            }
            let started = Instant::now();
            let budget =
                if leading { (last_renew + renew_deadline).saturating_duration_since(started) } else { renew_deadline };
            let attempt = tokio::select! {
                attempt = tokio::time::timeout(budget, self.try_acquire_or_renew()) => attempt,
                () = stopped(&mut stop) => break Ok(()),
            };
            match attempt {
                Ok(Ok(true)) => {
                    if !leading {
                        tracing::info!(%lease, %identity, "leader election: leading");
                    }
                    leading = true;
                    last_renew = started;
                    publish(true);
                }
                Ok(Ok(false)) => {
                    if leading {
                        tracing::warn!(%lease, %identity, "leader election: another replica holds the Lease; standing by");
                        leading = false;
                        publish(false);
                    }
                }
                Ok(Err(Failure::Fatal(err))) => {
                    publish(false);
                    tracing::error!(%lease, %identity, "{err}");
                    return Err(err);
                }
                Ok(Err(Failure::Transient(why))) => {
                    tracing::warn!(%lease, %identity, %why, "leader election: cannot read or write the Lease; retrying");
                }
                Err(_) => tracing::warn!(%lease, %identity, "leader election: Lease request timed out; retrying"),
            }
            if leading && Instant::now() >= last_renew + renew_deadline {
                tracing::warn!(%lease, %identity, ?renew_deadline, "leader election: not renewed within the renew deadline; standing by");
                leading = false;
                publish(false);
            }
            let mut wake = Instant::now() + self.config.retry_period;
            if leading {
                wake = wake.min(last_renew + renew_deadline);
            } else {
                wake += self.config.retry_period.mul_f64(fastrand::f64() * 0.2);
            }
            tokio::select! {
                () = tokio::time::sleep_until(wake) => {}
                () = stopped(&mut stop) => break Ok(()),
            }
        };
        // Stop exporting before a standby may start; then hand the Lease over. An acquisition
        // cut short by the stop may have gone through, so the Lease is checked even when not
        // leading.
        publish(false);
        match tokio::time::timeout(renew_deadline, self.release()).await {
            Ok(Ok(true)) => tracing::info!(%lease, %identity, "leader election: Lease released"),
            Ok(Ok(false)) => {}
            Ok(Err(Failure::Fatal(err))) => tracing::warn!(%lease, %identity, "release failed: {err}"),
            Ok(Err(Failure::Transient(why))) => tracing::warn!(%lease, %identity, %why, "release failed"),
            Err(_) => tracing::warn!(%lease, %identity, "release timed out"),
        }
        outcome
    }

    fn failure(&self, verb: &'static str, err: kube::Error) -> Failure {
        match err {
            kube::Error::Api(status) => {
                let (namespace, name) = (self.config.namespace.clone(), self.config.name.clone());
                let message = status.message.clone();
                match status.code {
                    403 => Failure::Fatal(LeaderError::Forbidden { verb, namespace, name, message }),
                    code @ (400 | 401 | 422) => {
                        Failure::Fatal(LeaderError::Rejected { verb, namespace, name, code, message })
                    }
                    code => Failure::Transient(format!("{verb}: {code} {}: {message}", status.reason)),
                }
            }
            err => Failure::Transient(format!("{verb}: {err}")),
        }
    }

    /// Remembers when the Lease's record was first seen in its current version.
    fn observe(&mut self, lease: &Lease) {
        let rv = lease.metadata.resource_version.clone().unwrap_or_default();
        if self.observed.as_ref().is_none_or(|(seen, _)| *seen != rv) {
            self.observed = Some((rv, Instant::now()));
        }
    }

    /// Whether the holder recorded in `spec` has let the Lease expire, on this replica's clock.
    fn expired(&self, spec: &LeaseSpec) -> bool {
        let seconds = spec.lease_duration_seconds.unwrap_or(0);
        let duration = if seconds == self.config.duration_seconds() {
            self.config.lease_duration
        } else {
            Duration::from_secs(u64::try_from(seconds).unwrap_or(0))
        };
        self.observed.as_ref().is_none_or(|(_, since)| since.elapsed() >= duration)
    }

    /// The spec this replica writes to hold the Lease, from the one it read.
    fn holding(&self, old: Option<&LeaseSpec>, now: Timestamp) -> LeaseSpec {
        let mut spec = old.cloned().unwrap_or_default();
        let renewing = old.is_some_and(|o| o.holder_identity.as_deref() == Some(self.config.identity.as_str()));
        if !renewing {
            spec.acquire_time = Some(MicroTime(now));
            spec.lease_transitions = Some(old.map_or(0, |o| o.lease_transitions.unwrap_or(0).saturating_add(1)));
        } else if spec.acquire_time.is_none() {
            spec.acquire_time = Some(MicroTime(now));
        }
        spec.holder_identity = Some(self.config.identity.clone());
        spec.lease_duration_seconds = Some(self.config.duration_seconds());
        spec.renew_time = Some(MicroTime(now));
        spec
    }

    /// One round of client-go's `tryAcquireOrRenew`: `Ok(true)` when this replica holds the Lease
    /// now, `Ok(false)` when another does. A 409 on create or update re-reads once.
    async fn try_acquire_or_renew(&mut self) -> Result<bool, Failure> {
        let name = self.config.name.clone();
        for _ in 0..2 {
            let current = self.api.get_opt(&name).await.map_err(|e| self.failure("get", e))?;
            let Some(lease) = current else {
                let lease = Lease {
                    metadata: ObjectMeta {
                        name: Some(name.clone()),
                        namespace: Some(self.config.namespace.clone()),
                        ..ObjectMeta::default()
                    },
                    spec: Some(self.holding(None, Timestamp::now())),
                };
                match self.api.create(&PostParams::default(), &lease).await {
                    Ok(created) => {
                        self.observe(&created);
                        return Ok(true);
                    }
                    Err(kube::Error::Api(status)) if status.code == 409 => continue,
                    Err(err) => return Err(self.failure("create", err)),
                }
            };
            self.observe(&lease);
            let spec = lease.spec.clone().unwrap_or_default();
            let holder = spec.holder_identity.as_deref().unwrap_or("");
            if !holder.is_empty() && holder != self.config.identity && !self.expired(&spec) {
                return Ok(false);
            }
            let mut next = lease;
            next.spec = Some(self.holding(Some(&spec), Timestamp::now()));
            match self.api.replace(&name, &PostParams::default(), &next).await {
                Ok(updated) => {
                    self.observe(&updated);
                    return Ok(true);
                }
                Err(kube::Error::Api(status)) if status.code == 409 => continue,
                Err(err) => return Err(self.failure("update", err)),
            }
        }
        Ok(false)
    }

    /// Gives the Lease up if this replica holds it: `Ok(true)` when released.
    async fn release(&mut self) -> Result<bool, Failure> {
        let name = self.config.name.clone();
        let Some(mut lease) = self.api.get_opt(&name).await.map_err(|e| self.failure("get", e))? else {
            return Ok(false);
        };
        let Some(spec) = lease.spec.as_mut() else { return Ok(false) };
        if spec.holder_identity.as_deref() != Some(self.config.identity.as_str()) {
            return Ok(false);
        }
        let now = MicroTime(Timestamp::now());
        spec.holder_identity = Some(String::new());
        spec.lease_duration_seconds = Some(1);
        spec.renew_time = Some(now.clone());
        spec.acquire_time = Some(now);
        self.api.replace(&name, &PostParams::default(), &lease).await.map_err(|e| self.failure("update", e))?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lease_duration_seconds_round_up_to_at_least_one() {
        let mut c = LeaseConfig::new("l", "ns", "me");
        assert_eq!(c.duration_seconds(), 15);
        c.lease_duration = Duration::from_millis(300);
        assert_eq!(c.duration_seconds(), 1);
        c.lease_duration = Duration::from_millis(15_001);
        assert_eq!(c.duration_seconds(), 16);
        c.lease_duration = Duration::ZERO;
        assert_eq!(c.duration_seconds(), 1);
    }

    #[test]
    fn default_identity_is_unique_per_call() {
        let (a, b) = (default_identity(), default_identity());
        assert_ne!(a, b);
        assert!(a.rsplit_once('_').is_some_and(|(base, hex)| !base.is_empty() && hex.len() == 8));
    }
}
