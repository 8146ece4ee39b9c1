//! Sinks over real HTTP and files: what webhook and OTLP receivers get, retries of a failing
//! receiver, drops of a full queue counted, a slow sink not holding back the others, rotation.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gpu_events_export::sink::{Line, Sink, SinkConfig};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// A receiver on 127.0.0.1: records bodies; answers 500 to the first `fail` requests; waits
/// `delay` before each answer.
struct Receiver {
    url: String,
    bodies: Arc<Mutex<Vec<(String, Value)>>>,
    requests: Arc<AtomicUsize>,
}

async fn receiver(fail: usize, delay: Duration) -> Receiver {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let requests = Arc::new(AtomicUsize::new(0));
    let (b, r) = (bodies.clone(), requests.clone());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let (bodies, requests) = (b.clone(), r.clone());
            tokio::spawn(async move {
                let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                    let (bodies, requests) = (bodies.clone(), requests.clone());
                    async move {
                        let path = request.uri().path().to_owned();
                        let body = request.into_body().collect().await.unwrap().to_bytes();
                        tokio::time::sleep(delay).await;
                        let n = requests.fetch_add(1, Ordering::SeqCst);
                        let status = if n < fail { 500 } else { 200 };
                        if status == 200 {
                            bodies.lock().unwrap().push((path, serde_json::from_slice(&body).unwrap()));
                        }
                        Ok::<_, std::convert::Infallible>(
                            Response::builder().status(status).body(Full::new(Bytes::new())).unwrap(),
                        )
                    }
                });
                let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    Receiver { url, bodies, requests }
}

fn record_line(i: usize) -> Line {
    let json = json!({
        "reason": "FailedScheduling", "type": "Warning", "note": format!("0/4 nodes are available {i}"),
        "eventUid": format!("uid-{i}"), "cluster": "gpu-lab",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": format!("p-{i}")},
        "lastTimestamp": "2026-12-01T10:00:00.000000Z", "delta": {"occurrences": 1, "total": 3}, "cause": "insufficient-gpu"
    });
    Line { json: json.to_string().into() }
}

fn quick(spec: &str) -> SinkConfig {
    let mut config = SinkConfig::from_spec(spec);
    config.backoff = Duration::from_millis(20);
    config
}

#[tokio::test]
async fn a_webhook_gets_json_arrays_and_a_failing_one_is_retried() {
    let hook = receiver(2, Duration::ZERO).await;
    let sink = Sink::start(&quick(&format!("webhook:{}/events", hook.url))).await.unwrap();
    for i in 0..3 {
        sink.offer(record_line(i));
    }
    assert!(sink.sync(Duration::from_secs(10)).await);
    let bodies = hook.bodies.lock().unwrap().clone();
    let received: Vec<&Value> = bodies.iter().flat_map(|(_, b)| b.as_array().unwrap()).collect();
    assert_eq!(received.len(), 3);
    assert_eq!(received[0]["note"], "0/4 nodes are available 0");
    assert_eq!(bodies[0].0, "/events");
    assert_eq!(sink.stats().failures.load(Ordering::Relaxed), 2);
    assert_eq!(sink.stats().written.load(Ordering::Relaxed), 3);
    assert_eq!(sink.stats().dropped.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn otlp_receivers_get_log_records_with_kubernetes_attributes() {
    let collector = receiver(0, Duration::ZERO).await;
    let sink = Sink::start(&SinkConfig::from_spec(&format!("otlp:{}", collector.url))).await.unwrap();
    sink.offer(record_line(7));
    assert!(sink.sync(Duration::from_secs(10)).await);
    let bodies = collector.bodies.lock().unwrap().clone();
    let (path, body) = &bodies[0];
    assert_eq!(path, "/v1/logs");
    let resource = &body["resourceLogs"][0];
    assert_eq!(
        resource["resource"]["attributes"][0],
        json!({"key": "k8s.cluster.name", "value": {"stringValue": "gpu-lab"}})
    );
    let log = &resource["scopeLogs"][0]["logRecords"][0];
    assert_eq!(log["severityText"], "WARN");
    assert_eq!(log["body"]["stringValue"], "0/4 nodes are available 7");
    assert_eq!(log["timeUnixNano"], "1796119200000000000");
    let attribute = |key: &str| {
        log["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| a["value"]["stringValue"].clone())
    };
    assert_eq!(attribute("k8s.event.reason"), Some(json!("FailedScheduling")));
    assert_eq!(attribute("k8s.object.name"), Some(json!("p-7")));
    assert_eq!(attribute("gpu_events.cause"), Some(json!("insufficient-gpu")));
    assert_eq!(attribute("k8s.event.count"), Some(json!("3")));
}

#[tokio::test]
async fn a_receiver_that_keeps_failing_costs_bounded_attempts_and_counted_drops() {
    let down = receiver(usize::MAX, Duration::ZERO).await;
    let sink = Sink::start(&quick(&format!("webhook:{}", down.url))).await.unwrap();
    sink.offer(record_line(0));
    tokio::time::timeout(Duration::from_secs(20), sink.sync(Duration::from_secs(20))).await.unwrap();
    assert_eq!(down.requests.load(Ordering::SeqCst), 7, "seven attempts per batch");
    assert_eq!(sink.stats().dropped.load(Ordering::Relaxed), 1);
}

#[tokio::test]
async fn a_slow_sink_drops_what_its_queue_cannot_hold_and_never_blocks_the_others() {
    let slow = receiver(0, Duration::from_millis(300)).await;
    let mut config = SinkConfig::from_spec(&format!("webhook:{}", slow.url));
    config.queue = 5;
    config.batch = 1;
    let slow_sink = Sink::start(&config).await.unwrap();
    let dir = std::env::temp_dir().join(format!("gpu-events-sinks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fast.jsonl");
    let _ = std::fs::remove_file(&path);
    let fast_sink = Sink::start(&SinkConfig::from_spec(&format!("file:{}", path.display()))).await.unwrap();
    let started = std::time::Instant::now();
    for i in 0..100 {
        slow_sink.offer(record_line(i));
        fast_sink.offer(record_line(i));
    }
    assert!(started.elapsed() < Duration::from_millis(100), "offering never waits: {:?}", started.elapsed());
    assert!(fast_sink.sync(Duration::from_secs(5)).await);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 100);
    let dropped = slow_sink.stats().dropped.load(Ordering::Relaxed);
    assert!(dropped >= 90, "{dropped}");
    slow_sink.close(Duration::from_secs(5)).await;
    assert_eq!(slow.bodies.lock().unwrap().len() as u64 + dropped, 100, "every line written or counted as dropped");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn files_rotate_by_size_and_keep_the_newest() {
    let dir = std::env::temp_dir().join(format!("gpu-events-rotate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("events.jsonl");
    let mut config = SinkConfig::from_spec(&format!("file:{}", path.display()));
    config.rotate_bytes = 1000;
    config.keep = 2;
    config.batch = 1;
    let sink = Sink::start(&config).await.unwrap();
    for i in 0..20 {
        sink.offer(record_line(i));
        assert!(sink.sync(Duration::from_secs(5)).await);
    }
    sink.close(Duration::from_secs(5)).await;
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let current = read("events.jsonl");
    assert!(current.len() <= 1000 && !current.is_empty());
    assert!(!read("events.jsonl.1").is_empty() && !read("events.jsonl.2").is_empty());
    assert!(!dir.join("events.jsonl.3").exists(), "only `keep` rotated files");
    assert!(current.lines().last().unwrap().contains("available 19"), "the newest line is in the current file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_refusal_that_will_not_change_is_not_retried() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(AtomicUsize::new(0));
    let seen = requests.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let service = service_fn(move |_request: Request<hyper::body::Incoming>| {
                    seen.fetch_add(1, Ordering::SeqCst);
                    async {
                        Ok::<_, std::convert::Infallible>(
                            Response::builder().status(400).body(Full::new(Bytes::new())).unwrap(),
                        )
                    }
                });
                let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    let sink = Sink::start(&quick(&format!("webhook:{url}"))).await.unwrap();
    sink.offer(record_line(0));
    assert!(sink.sync(Duration::from_secs(5)).await);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    assert_eq!(sink.stats().dropped.load(Ordering::Relaxed), 1);
}
