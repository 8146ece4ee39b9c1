//! `RealApiServer`: the Go harness's kube-apiserver starts, serves both identities as documented, takes
//! `--event-ttl` and extra kube-apiserver flags, and stops cleanly, removing what it wrote.
//!
//! `#[ignore]`d: the first run builds kube-apiserver with Go (minutes, then cached). Run with
//! `cargo test -p gpu-events-testkit --test real -- --ignored` (`.ci/run` does).

use std::time::Duration;

use gpu_events_testkit::{RealApiServer, RealServerConfig};
use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::Api;
use kube::api::ListParams;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn a_real_server_starts_serves_both_identities_and_stops_cleanly() {
    let dir = std::env::temp_dir().join(format!("gpu-events-real-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig.yaml");
    let config = RealServerConfig::default()
        .kubeconfig(&kubeconfig)
        .event_ttl(Duration::from_secs(90))
        .apiserver_arg("--etcd-compaction-interval=2m");
    let server = RealApiServer::start_with(config).await.unwrap();
    assert!(server.url().starts_with("https://127.0.0.1:"), "{}", server.url());
    assert_eq!(server.kubeconfig(), kubeconfig);

    // The admin sees the namespaces kube-apiserver makes itself.
    let admin = server.client().await.unwrap();
    let names: Vec<String> = Api::<Namespace>::all(admin)
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|ns| ns.metadata.name)
        .collect();
    for expected in ["default", "kube-node-lease", "kube-public", "kube-system"] {
        assert!(names.iter().any(|n| n == expected), "{expected} in {names:?}");
    }

    // The plain user is authenticated but RBAC gives it nothing.
    let user = server.client_for_context("user").await.unwrap();
    let denied = Api::<Pod>::namespaced(user, "default").list(&ListParams::default()).await.unwrap_err();
    let kube::Error::Api(status) = &denied else { panic!("{denied:?}") };
    assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
    assert!(status.message.contains(r#"User "gpu-events-user" cannot list resource "pods""#), "{}", status.message);

    // The flags reached kube-apiserver, the extra one after the harness's own (the harness logs them).
    let log = server.log();
    let flags = log.lines().find(|l| l.starts_with("harness: kube-apiserver ")).expect("the flags are logged");
    assert!(flags.contains(" --event-ttl=1m30s "), "{flags}");
    assert!(flags.ends_with(" --etcd-compaction-interval=2m"), "{flags}");

    let status = server.stop().await.unwrap();
    assert!(status.success(), "{status}");
    // A kubeconfig path given by the caller is left for the caller.
    assert!(kubeconfig.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "real kube-apiserver: builds the Go harness on first use"]
async fn a_dropped_server_is_gone_with_its_data() {
    let server = RealApiServer::start().await.unwrap();
    let kubeconfig = server.kubeconfig().to_path_buf();
    let data_dir = kubeconfig.parent().unwrap().to_path_buf();
    assert!(data_dir.join("etcd").is_dir(), "{}", data_dir.display());
    let url = server.url().to_string();
    let log = server.log();
    drop(server);
    assert!(!data_dir.exists(), "{} left behind; log:\n{log}", data_dir.display());
    let port = url.rsplit(':').next().unwrap();
    assert!(std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_err(), "{url} still answers");
}
