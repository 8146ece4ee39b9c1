//! Leader election against the testkit API server over HTTP: two electors on one Lease, handover
//! by release and by expiry, stepping down at the renew deadline, 409 races on update and create,
//! RBAC denials.

use std::time::Duration;

use gpu_events_export::leader::{LeaderElector, LeaderError, LeaseConfig};
use gpu_events_testkit::{ApiServer, Fault, ResourceType};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

const LEASE: &str = "gpu-events-export";
const LEASE_PATH: &str = "/apis/coordination.k8s.io/v1/namespaces/ml/leases/gpu-events-export";

/// Lease duration, renew deadline and retry period, in milliseconds.
fn config(identity: &str, timing: (u64, u64, u64)) -> LeaseConfig {
    let mut c = LeaseConfig::new(LEASE, "ml", identity);
    c.lease_duration = Duration::from_millis(timing.0);
    c.renew_deadline = Duration::from_millis(timing.1);
    c.retry_period = Duration::from_millis(timing.2);
    c
}

const FAST: (u64, u64, u64) = (300, 200, 50);

struct Replica {
    leading: watch::Receiver<bool>,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), LeaderError>>,
}

fn start(server: &ApiServer, identity: &str, timing: (u64, u64, u64)) -> Replica {
    let elector = LeaderElector::new(server.client_without_retry(), config(identity, timing)).expect("valid config");
    assert_eq!(elector.identity(), identity);
    let (tx, leading) = watch::channel(false);
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(elector.run(tx, stopped));
    Replica { leading, stop, task }
}

fn lease(server: &ApiServer) -> Value {
    server.get(&ResourceType::LEASES, Some("ml"), LEASE).expect("the Lease exists")
}

fn holder(server: &ApiServer) -> String {
    lease(server)["spec"]["holderIdentity"].as_str().unwrap_or_default().to_string()
}

fn transitions(server: &ApiServer) -> i64 {
    lease(server)["spec"]["leaseTransitions"].as_i64().unwrap_or(-1)
}

/// Waits until `r` leads (or not), panicking after `within`; returns how long it took.
async fn wait_leading(r: &mut Replica, leading: bool, within: Duration) -> Duration {
    let started = Instant::now();
    tokio::time::timeout(within, r.leading.wait_for(|l| *l == leading))
        .await
        .unwrap_or_else(|_| panic!("not leading={leading} within {within:?}"))
        .expect("the elector publishes");
    started.elapsed()
}

/// Samples both replicas every 2 ms for `period`: never both leading.
async fn assert_exclusive(a: &Replica, b: &Replica, period: Duration) {
    let end = Instant::now() + period;
    while Instant::now() < end {
        assert!(!(*a.leading.borrow() && *b.leading.borrow()), "two leaders at once");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::test]
async fn one_leader_at_a_time_and_a_fast_handover_on_release() {
    let server = ApiServer::start().await;
    // A long lease (2 s): a handover much faster than that can only come from the release.
    let timing = (2000, 1000, 50);
    let mut a = start(&server, "a", timing);
    wait_leading(&mut a, true, Duration::from_secs(2)).await;
    let mut b = start(&server, "b", timing);
    assert_exclusive(&a, &b, Duration::from_millis(400)).await;
    assert!(*a.leading.borrow() && !*b.leading.borrow());
    let created = lease(&server);
    assert_eq!(created["spec"]["holderIdentity"], "a");
    assert_eq!(created["spec"]["leaseDurationSeconds"], 2);
    assert_eq!(created["spec"]["leaseTransitions"], 0);
    assert!(created["spec"]["acquireTime"].is_string() && created["spec"]["renewTime"].is_string());
    let renewed = created["spec"]["renewTime"].clone();
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_ne!(lease(&server)["spec"]["renewTime"], renewed, "the leader renews every retry period");
    assert_eq!(lease(&server)["spec"]["acquireTime"], created["spec"]["acquireTime"], "renewals keep acquireTime");

    // A stops: it publishes false and releases; B takes over well within the lease duration.
    let stopped_at = Instant::now();
    a.stop.send(true).unwrap();
    let took = wait_leading(&mut b, true, Duration::from_secs(2)).await;
    assert!(!*a.leading.borrow(), "a stopped leading before b began");
    assert!(took < Duration::from_millis(700), "handover by release took {took:?}");
    a.task.await.unwrap().expect("a stops cleanly");
    let release = server
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT" && r.path == LEASE_PATH)
        .find(|r| r.body.as_ref().is_some_and(|b| b["spec"]["holderIdentity"] == ""))
        .expect("a released the Lease");
    assert_eq!(release.body.unwrap()["spec"]["leaseDurationSeconds"], 1);
    assert!(stopped_at.elapsed() < Duration::from_secs(2));
    assert_eq!(holder(&server), "b");
    assert_eq!(transitions(&server), 1);

    // A standby that stops leaves the holder alone.
    let c = start(&server, "c", timing);
    tokio::time::sleep(Duration::from_millis(150)).await;
    c.stop.send(true).unwrap();
    c.task.await.unwrap().unwrap();
    assert!(!*c.leading.borrow());
    assert_eq!(holder(&server), "b");
    b.stop.send(true).unwrap();
    b.task.await.unwrap().unwrap();
    assert_eq!(holder(&server), "");
}

#[tokio::test]
async fn the_standby_takes_over_after_the_lease_duration_when_the_leader_dies() {
    let server = ApiServer::start().await;
    let mut a = start(&server, "a", FAST);
    wait_leading(&mut a, true, Duration::from_secs(2)).await;
    let mut b = start(&server, "b", FAST);
    assert_exclusive(&a, &b, Duration::from_millis(400)).await;
    assert!(!*b.leading.borrow());

    // A dies without releasing.
    a.task.abort();
    let died = Instant::now();
    let _ = a.task.await;
    wait_leading(&mut b, true, Duration::from_secs(2)).await;
    let took = died.elapsed();
    // Not before the lease expired (minus one retry period: B's last sight of A's renewal may
    // predate the death), and soon after.
    assert!(took >= Duration::from_millis(240), "took over after {took:?}, before the lease expired");
    assert!(took < Duration::from_millis(900), "took over after {took:?}");
    assert_eq!(holder(&server), "b");
    assert_eq!(transitions(&server), 1);
    b.stop.send(true).unwrap();
    b.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_leader_that_cannot_renew_steps_down_at_the_renew_deadline() {
    let server = ApiServer::start().await;
    let timing = (800, 300, 50);
    let mut a = start(&server, "a", timing);
    wait_leading(&mut a, true, Duration::from_secs(2)).await;

    // Renewals hang: A must stop leading at the renew deadline, not wait for the request, and
    // before the lease could pass to another replica (800 ms).
    server.inject(Fault::delay(Duration::from_secs(3)).method("PUT").path_prefix(LEASE_PATH).forever());
    let took = wait_leading(&mut a, false, Duration::from_secs(2)).await;
    assert!(took >= Duration::from_millis(200), "stepped down after {took:?}, before the renew deadline");
    assert!(took < Duration::from_millis(700), "stepped down after {took:?}, the lease was about to pass on");

    // Once renewals work again, A leads again: it is still the holder, so no transition.
    server.clear_faults();
    wait_leading(&mut a, true, Duration::from_secs(5)).await;
    assert_eq!(holder(&server), "a");
    assert_eq!(transitions(&server), 0);

    // Failing renewals (500) step down the same way.
    server.inject(Fault::status(500).method("PUT").path_prefix(LEASE_PATH).forever());
    let took = wait_leading(&mut a, false, Duration::from_secs(2)).await;
    assert!(took < Duration::from_millis(700), "stepped down after {took:?}");
    server.clear_faults();
    a.stop.send(true).unwrap();
    a.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_409_on_update_means_the_other_replica_won() {
    let server = ApiServer::start().await;
    // A released Lease, free for both.
    server
        .insert(json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": LEASE, "namespace": "ml"},
            "spec": {"holderIdentity": "", "leaseDurationSeconds": 1, "leaseTransitions": 4}}))
        .unwrap();
    // Both read the same resourceVersion before either write is handled.
    server.inject(Fault::delay(Duration::from_millis(150)).method("PUT").path_prefix(LEASE_PATH).times(2));
    let a = start(&server, "a", FAST);
    let b = start(&server, "b", FAST);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_exclusive(&a, &b, Duration::from_millis(300)).await;
    let (la, lb) = (*a.leading.borrow(), *b.leading.borrow());
    assert!(la ^ lb, "exactly one leads (a: {la}, b: {lb})");
    let winner = if la { "a" } else { "b" };
    assert_eq!(holder(&server), winner);
    assert_eq!(transitions(&server), 5);
    let puts: Vec<_> = server.requests().into_iter().filter(|r| r.method == "PUT").collect();
    assert_eq!(puts.iter().filter(|r| r.status == Some(409)).count(), 1, "one write lost the race");
    // The loser re-read the Lease right after its 409.
    let requests = server.requests();
    let conflict = requests.iter().position(|r| r.status == Some(409)).unwrap();
    assert!(requests[conflict + 1..].iter().any(|r| r.method == "GET" && r.path == LEASE_PATH));
    for r in [a, b] {
        r.stop.send(true).unwrap();
        r.task.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn a_409_on_create_means_the_other_replica_won() {
    let server = ApiServer::start().await;
    let collection = "/apis/coordination.k8s.io/v1/namespaces/ml/leases";
    server.inject(Fault::delay(Duration::from_millis(150)).method("POST").path_prefix(collection).times(2));
    let a = start(&server, "a", FAST);
    let b = start(&server, "b", FAST);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_exclusive(&a, &b, Duration::from_millis(300)).await;
    let (la, lb) = (*a.leading.borrow(), *b.leading.borrow());
    assert!(la ^ lb, "exactly one leads (a: {la}, b: {lb})");
    assert_eq!(holder(&server), if la { "a" } else { "b" });
    assert_eq!(transitions(&server), 0);
    let posts: Vec<Option<u16>> =
        server.requests().into_iter().filter(|r| r.method == "POST").map(|r| r.status).collect();
    assert_eq!(posts.len(), 2);
    assert!(posts.contains(&Some(201)) && posts.contains(&Some(409)), "{posts:?}");
    for r in [a, b] {
        r.stop.send(true).unwrap();
        r.task.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn rbac_denial_on_leases_is_a_clear_error_and_never_leads() {
    for verb in ["get", "create", "update"] {
        let server = ApiServer::start().await;
        if verb == "update" {
            server
                .insert(json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                    "metadata": {"name": LEASE, "namespace": "ml"}, "spec": {"holderIdentity": ""}}))
                .unwrap();
        }
        server.deny(verb, &ResourceType::LEASES);
        let r = start(&server, "a", FAST);
        let result = tokio::time::timeout(Duration::from_secs(2), r.task).await.expect("run ends").unwrap();
        let err = result.expect_err("a denied elector fails");
        let LeaderError::Forbidden { verb: v, namespace, name, .. } = &err else { panic!("unexpected {err:?}") };
        assert_eq!((*v, namespace.as_str(), name.as_str()), (verb, "ml", LEASE));
        let text = err.to_string();
        assert!(text.contains(&format!("RBAC forbids {verb} on leases.coordination.k8s.io ml/{LEASE}")), "{text}");
        assert!(text.contains("grant get, create and update on leases in namespace ml"), "{text}");
        assert!(!*r.leading.borrow());
        assert!(!server.writes().iter().any(|w| w.succeeded()), "never held the Lease");
    }
}

#[tokio::test]
async fn transient_errors_are_retried() {
    let server = ApiServer::start().await;
    server.inject(Fault::status(503).path_prefix(LEASE_PATH).times(2));
    server.inject(Fault::drop_connection().path_prefix(LEASE_PATH));
    let mut a = start(&server, "a", FAST);
    wait_leading(&mut a, true, Duration::from_secs(2)).await;
    assert_eq!(holder(&server), "a");
    a.stop.send(true).unwrap();
    a.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn invalid_timing_is_rejected_with_what_to_fix() {
    let server = ApiServer::start().await;
    let cases = [((300, 300, 50), "leaseDuration"), ((300, 200, 200), "renewDeadline"), ((300, 200, 0), "retryPeriod")];
    for (timing, field) in cases {
        let err = LeaderElector::new(server.client(), config("a", timing)).expect_err(field);
        let LeaderError::InvalidConfig { field: f, .. } = &err else { panic!("unexpected {err:?}") };
        assert_eq!(*f, field, "{err}");
    }
    let err = LeaderElector::new(server.client(), config("", FAST)).unwrap_err();
    assert_eq!(err.to_string(), "leader election: identity: is empty; give one");
    let defaults = LeaseConfig::new(LEASE, "ml", "a");
    assert_eq!(
        (defaults.lease_duration, defaults.renew_deadline, defaults.retry_period),
        (Duration::from_secs(15), Duration::from_secs(10), Duration::from_secs(2))
    );
    assert!(LeaderElector::new(server.client(), defaults).is_ok());
}
