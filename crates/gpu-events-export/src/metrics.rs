//! Prometheus metrics with bounded labels only, and the HTTP endpoint that serves them.
//!
//! Every metric is prefixed `gpu_events_export_` and carries `cluster` when the exporter has a
//! cluster name. Labels are drawn from closed sets: the catalogue's reasons (a reason the
//! catalogue does not know is labelled `other`), groups, `Normal`/`Warning` (any other type is
//! `other`), cause ids, the two APIs, and the sink and alert rule names of the configuration.
//! `namespace` is added to the event counter only when [`MetricsConfig::namespace_label`] is on.
//! Object names and UIDs are never labels.
//!
//! | metric | type | labels | meaning |
//! |---|---|---|---|
//! | `events_exported_total` | counter | `reason`, `group`, `type`, `cause` (+`namespace`) | occurrences exported (`delta.occurrences`) |
//! | `duplicates_suppressed_total` | counter | | notifications that brought nothing new |
//! | `watch_restarts_total` | counter | `api` | watches that ended and were restarted |
//! | `relists_total` | counter | `api` | full re-lists (410 Gone, a watch closed at once) |
//! | `gaps_suspected_total` | counter | `api` | events that may have been missed |
//! | `checkpoints_ahead_total` | counter | `api` | starts from a state file newer than the API server (restored volume, another cluster) |
//! | `sink_queue_depth` | gauge | `sink` | records waiting in the sink's queue |
//! | `sink_failures_total` | counter | `sink` | failed send attempts |
//! | `sink_dropped_total` | counter | `sink` | records the sink gave up on |
//! | `records_unrouted_total` | counter | | records no route sent anywhere |
//! | `alerts_total` | counter | `rule`, `state` | alerts fired / resolved |
//! | `owner_lookups_total` | counter | `result` (`resolved`, `rate_limited`, `failed`) | owner lookups (with `owners` on) |
//! | `owner_cache_hits_total` | counter | | objects of an owner chain answered from the cache |
//! | `owner_requests_total` | counter | | metadata GETs sent |
//! | `owner_request_errors_total` | counter | `reason` (`not_found`, `forbidden`, `other`) | metadata GETs that failed |
//! | `leader` | gauge | | 1 while this replica exports, 0 while it is a standby waiting for the Lease |
//! | `dedupe_marks` | gauge | | events remembered for deduplication (a watermark each, kept `markTtl` after the last export) |
//! | `last_event_age_seconds` | gauge | | now minus the newest event time exported, computed at scrape time (absent before the first export) |
//!
//! The event, duplicate, watch, re-list, gap and checkpoint counters are not kept here: they are
//! the exporter's [`ExporterStats`], read when `/metrics` is scraped, so an event is counted once
//! and the metrics and the stats never disagree.
//!
//! The exposition is the OpenMetrics text format that `prometheus-client` writes
//! (`application/openmetrics-text; version=1.0.0`), which Prometheus scrapes natively.
//! `prometheus-client` has no separate 0.0.4 encoder.

use std::borrow::Cow;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::watch::EventApi;
use chrono::{DateTime, Utc};
use gpu_events_core::EventType;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Method, Request, Response, StatusCode};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::registry::{Registry, Unit};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::ExportRecord;
use crate::alert::{Alert, AlertState};
use crate::owner::OwnerCounters;
use crate::route::namespace_of;
use crate::stats::{EventLabels, ExporterStats, PerApi};

/// The `metrics` block of the exporter's configuration, and (feature `clap`) its flag.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct MetricsConfig {
    /// Add the regarding object's namespace as a label of `events_exported_total` (off by default:
    /// a cluster with many namespaces multiplies the series). The flag `--metrics-namespace-label`
    /// turns it on over the file.
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "metrics-namespace-label",
            help = "Add a `namespace` label to the metrics (bounded by your namespaces)"
        )
    )]
    pub namespace_label: bool,
}

impl MetricsConfig {
    /// The same configuration with the namespace label on or off.
    pub fn with_namespace_label(mut self, on: bool) -> Self {
        self.namespace_label = on;
        self
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ApiLabels {
    api: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SinkLabels {
    sink: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AlertLabels {
    rule: String,
    state: &'static str,
}

/// The exporter's [`ExporterStats`], rendered when scraped (the one set of counters).
#[derive(Debug)]
struct StatsMetrics(Arc<ExporterStats>);

impl StatsMetrics {
    /// A counter with an `api` label: a series for each API that has counted something.
    fn per_api(encoder: &mut DescriptorEncoder, name: &str, help: &str, counter: &PerApi) -> std::fmt::Result {
        let mut family = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
        for (api, value) in EventApi::ALL.into_iter().zip(counter.values()) {
            if value > 0 {
                ConstCounter::new(value).encode(family.encode_family(&ApiLabels { api: api.as_str() })?)?;
            }
        }
        Ok(())
    }
}

impl Collector for StatsMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let stats = &self.0;
        let mut events = encoder.encode_descriptor(
            "events_exported",
            "Event occurrences exported, by catalogue reason (other for uncatalogued), group, type and cause",
            None,
            MetricType::Counter,
        )?;
        for (labels, value) in stats.occurrences_by_labels() {
            ConstCounter::new(value).encode(events.encode_family(&labels)?)?;
        }
        let duplicates = encoder.encode_descriptor(
            "duplicates_suppressed",
            "Watch notifications that brought no new occurrence",
            None,
            MetricType::Counter,
        )?;
        ConstCounter::new(stats.duplicates.load(Ordering::Relaxed)).encode(duplicates)?;
        let per_api = [
            ("watch_restarts", "Watches that ended and were restarted", &stats.watch_restarts),
            (
                "watch_errors",
                "Lists and watches that failed (RBAC, API connection, server errors)",
                &stats.watch_errors,
            ),
            ("relists", "Full re-lists (410 Gone, or a watch that closed at once)", &stats.relists),
            ("gaps_suspected", "Events that may have been missed", &stats.gaps_suspected),
            (
                "checkpoints_ahead",
                "Starts from a state file whose resourceVersion is newer than the API server's",
                &stats.checkpoints_ahead,
            ),
        ];
        for (name, help, counter) in per_api {
            Self::per_api(&mut encoder, name, help, counter)?;
        }
        let Some(age) = stats.newest_event_millis().map(|millis| age_seconds(millis, Utc::now())) else {
            return Ok(());
        };
        let gauge = ConstGauge::new(age);
        let metric = encoder.encode_descriptor(
            "last_event_age",
            "Seconds since the newest event time exported (computed at scrape time)",
            Some(&Unit::Seconds),
            gauge.metric_type(),
        )?;
        gauge.encode(metric)
    }
}

/// The owner resolver's counters, read at scrape time; `None` while resolution is off (no
/// series then).
#[derive(Debug, Default)]
struct OwnerMetrics(Arc<std::sync::Mutex<Option<OwnerCounters>>>);

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabels {
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

impl Collector for OwnerMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(c) = *self.0.lock().unwrap_or_else(|e| e.into_inner()) else { return Ok(()) };
        let counter = |value: u64| ConstCounter::new(value);
        let failed = c.lookups.saturating_sub(c.resolved).saturating_sub(c.skipped_rate_limited);
        let mut family = encoder.encode_descriptor(
            "owner_lookups",
            "Owner lookups, by result (rate_limited: no token, so no owner; failed: a GET failed)",
            None,
            MetricType::Counter,
        )?;
        for (result, value) in [("resolved", c.resolved), ("rate_limited", c.skipped_rate_limited), ("failed", failed)]
        {
            counter(value).encode(family.encode_family(&ResultLabels { result })?)?;
        }
        let hits = encoder.encode_descriptor(
            "owner_cache_hits",
            "Objects of an owner chain answered from the cache",
            None,
            MetricType::Counter,
        )?;
        counter(c.cache_hits).encode(hits)?;
        let requests =
            encoder.encode_descriptor("owner_requests", "Metadata GETs sent for owners", None, MetricType::Counter)?;
        counter(c.requests).encode(requests)?;
        let mut errors = encoder.encode_descriptor(
            "owner_request_errors",
            "Metadata GETs for owners that failed, by reason",
            None,
            MetricType::Counter,
        )?;
        let other = c.errors.saturating_sub(c.not_found).saturating_sub(c.forbidden);
        for (reason, value) in [("not_found", c.not_found), ("forbidden", c.forbidden), ("other", other)] {
            counter(value).encode(errors.encode_family(&ReasonLabels { reason })?)?;
        }
        Ok(())
    }
}

/// Seconds from `millis` (Unix milliseconds) to `now`, at least 0.
fn age_seconds(millis: i64, now: DateTime<Utc>) -> f64 {
    (now.timestamp_millis().saturating_sub(millis).max(0)) as f64 / 1000.0
}

/// The exporter's metrics. Share it as `Arc<Metrics>`; every method takes `&self` and is cheap.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    namespace_label: bool,
    /// The counters the exporter's methods below count into, rendered at scrape time.
    stats: Arc<ExporterStats>,
    queue_depth: Family<SinkLabels, Gauge>,
    sink_failures: Family<SinkLabels, Counter>,
    sink_dropped: Family<SinkLabels, Counter>,
    unrouted: Counter,
    alerts: Family<AlertLabels, Counter>,
    marks: Gauge,
    leader: Gauge,
    owners: Arc<std::sync::Mutex<Option<OwnerCounters>>>,
    /// Whether the watch works (`/healthz` answers 503 when it does not).
    healthy: std::sync::atomic::AtomicBool,
}

impl Metrics {
    /// Metrics for one exporter, with counters of their own; `cluster` becomes a label of every
    /// metric when given.
    pub fn new(config: &MetricsConfig, cluster: Option<&str>) -> Metrics {
        Metrics::with_stats(config, cluster, Arc::default())
    }

    /// Metrics that render `stats` (the exporter's counters) at each scrape, and count into them.
    pub fn with_stats(config: &MetricsConfig, cluster: Option<&str>, stats: Arc<ExporterStats>) -> Metrics {
        let labels: Vec<(Cow<'static, str>, Cow<'static, str>)> =
            cluster.map(|c| (Cow::Borrowed("cluster"), Cow::Owned(c.to_owned()))).into_iter().collect();
        let mut registry = Registry::with_prefix_and_labels("gpu_events_export", labels.into_iter());
        let metrics = Metrics {
            registry: Registry::default(),
            namespace_label: config.namespace_label,
            stats,
            queue_depth: Family::default(),
            sink_failures: Family::default(),
            sink_dropped: Family::default(),
            unrouted: Counter::default(),
            alerts: Family::default(),
            marks: Gauge::default(),
            leader: Gauge::default(),
            owners: Arc::default(),
            healthy: std::sync::atomic::AtomicBool::new(true),
        };
        registry.register_collector(Box::new(StatsMetrics(metrics.stats.clone())));
        registry.register("sink_queue_depth", "Records waiting in a sink's queue", metrics.queue_depth.clone());
        registry.register("sink_failures", "Failed send attempts, per sink", metrics.sink_failures.clone());
        registry.register(
            "sink_dropped",
            "Records a sink gave up on (queue full or retries exhausted)",
            metrics.sink_dropped.clone(),
        );
        registry.register("records_unrouted", "Records that no route sent to any sink", metrics.unrouted.clone());
        registry.register("alerts", "Alerts, by rule and state (firing, resolved)", metrics.alerts.clone());
        registry.register(
            "dedupe_marks",
            "Events remembered for deduplication (one watermark each, kept markTtl after the last export)",
            metrics.marks.clone(),
        );
        registry.register(
            "leader",
            "1 while this replica exports, 0 while it is a standby waiting for the Lease",
            metrics.leader.clone(),
        );
        registry.register_collector(Box::new(OwnerMetrics(metrics.owners.clone())));
        Metrics { registry, ..metrics }
    }

    /// The counters these metrics render (and the exporter's methods below count into).
    pub fn stats(&self) -> &Arc<ExporterStats> {
        &self.stats
    }

    /// Count an exported record: one more record, `delta.occurrences` more for its reason, group,
    /// type and cause, and move the newest event time forward (`delta.lastSeen`, else
    /// `lastTimestamp`, else now).
    pub fn record_exported(&self, record: &ExportRecord) {
        let event = &record.record;
        let reason = if event.reason.is_known() { event.reason.as_str().to_owned() } else { "other".to_owned() };
        let type_ = match &event.type_ {
            Some(EventType::Normal) => "Normal",
            Some(EventType::Warning) => "Warning",
            Some(_) => "other",
            None => "",
        };
        let mut labels: EventLabels = vec![
            ("reason", reason),
            ("group", event.group.map(|g| g.as_str().to_owned()).unwrap_or_default()),
            ("type", type_.to_owned()),
            ("cause", record.cause.map(|c| c.id().to_owned()).unwrap_or_default()),
        ];
        if self.namespace_label {
            labels.push(("namespace", namespace_of(record).unwrap_or_default().to_owned()));
        }
        let now = Utc::now();
        let time = record.delta.last_seen.or(event.last_timestamp).unwrap_or(now);
        let now_secs = u64::try_from(now.timestamp()).unwrap_or(0);
        self.stats.record_exported(labels, record.delta.occurrences, time.timestamp_millis(), now_secs);
    }

    /// Count `count` notifications that brought nothing new.
    pub fn duplicates_suppressed(&self, count: u64) {
        self.stats.duplicates.fetch_add(count, Ordering::Relaxed);
    }

    /// Count a watch restart on `api`.
    pub fn watch_restarted(&self, api: EventApi) {
        self.stats.watch_restarts.add(api.index(), 1);
    }

    /// Count a failed list or watch on `api`.
    pub fn watch_failed(&self, api: EventApi) {
        self.stats.watch_errors.add(api.index(), 1);
    }

    /// Whether the watch works; `/healthz` answers 503 while it does not.
    pub fn set_healthy(&self, healthy: bool) {
        self.healthy.store(healthy, Ordering::Relaxed);
    }

    /// Count a re-list on `api`.
    pub fn relisted(&self, api: EventApi) {
        self.stats.relists.add(api.index(), 1);
    }

    /// Count a start from a checkpoint newer than the API server on `api`.
    pub fn checkpoint_ahead(&self, api: EventApi) {
        self.stats.checkpoints_ahead.add(api.index(), 1);
    }

    /// Count `count` events possibly missed on `api`.
    pub fn gaps_suspected(&self, api: EventApi, count: u64) {
        self.stats.gaps_suspected.add(api.index(), count);
    }

    /// Set the number of records waiting in `sink`'s queue.
    pub fn set_queue_depth(&self, sink: &str, depth: usize) {
        let depth = i64::try_from(depth).unwrap_or(i64::MAX);
        self.queue_depth.get_or_create(&SinkLabels { sink: sink.to_owned() }).set(depth);
    }

    /// Count a failed send attempt of `sink`.
    pub fn sink_failed(&self, sink: &str) {
        self.sink_failures.get_or_create(&SinkLabels { sink: sink.to_owned() }).inc();
    }

    /// Count `count` records `sink` gave up on.
    pub fn sink_dropped(&self, sink: &str, count: u64) {
        self.sink_dropped.get_or_create(&SinkLabels { sink: sink.to_owned() }).inc_by(count);
    }

    /// The owner resolver's counters now (exposed from the first call on: call it once resolution
    /// is on, and after lookups).
    pub fn set_owner_counters(&self, counters: OwnerCounters) {
        *self.owners.lock().unwrap_or_else(|e| e.into_inner()) = Some(counters);
    }

    /// Whether this replica exports (leads, or runs without leader election) or waits as a standby.
    pub fn set_leader(&self, leader: bool) {
        self.leader.set(i64::from(leader));
    }

    /// Set the number of deduplication watermarks held.
    pub fn set_marks(&self, marks: usize) {
        self.marks.set(i64::try_from(marks).unwrap_or(i64::MAX));
    }

    /// Count a record no route sent anywhere.
    pub fn record_unrouted(&self) {
        self.unrouted.inc();
    }

    /// Count an alert by its rule and state.
    pub fn alert(&self, alert: &Alert) {
        let state = match alert.state {
            AlertState::Firing => "firing",
            AlertState::Resolved => "resolved",
        };
        self.alerts.get_or_create(&AlertLabels { rule: alert.rule.clone(), state }).inc();
    }

    /// Seconds from the newest exported event time to `now`, `None` before the first export.
    pub fn last_event_age_seconds(&self, now: DateTime<Utc>) -> Option<f64> {
        self.stats.newest_event_millis().map(|millis| age_seconds(millis, now))
    }

    /// The exposition (OpenMetrics text, ending in `# EOF`).
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail; the encoders only forward the writer's errors.
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }
}

/// The `Content-Type` of [`Metrics::encode`]'s output.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Answer one request: `GET`/`HEAD` `/metrics` and `/healthz`; 404 for other paths, 405 for
/// other methods.
fn respond(metrics: &Metrics, request: &Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
    let reply = |status: StatusCode, content_type: &'static str, body: String| {
        let mut response = Response::new(Full::new(Bytes::from(body)));
        *response.status_mut() = status;
        if let Ok(value) = content_type.parse() {
            response.headers_mut().insert(hyper::header::CONTENT_TYPE, value);
        }
        response
    };
    let path = request.uri().path();
    if path != "/metrics" && path != "/healthz" {
        return reply(
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            "not found: try /metrics or /healthz\n".into(),
        );
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = reply(StatusCode::METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", "use GET\n".into());
        if let Ok(value) = "GET, HEAD".parse() {
            response.headers_mut().insert(hyper::header::ALLOW, value);
        }
        return response;
    }
    match path {
        "/metrics" => reply(StatusCode::OK, CONTENT_TYPE, metrics.encode()),
        _ if !metrics.healthy.load(Ordering::Relaxed) => reply(
            StatusCode::SERVICE_UNAVAILABLE,
            "text/plain; charset=utf-8",
            "unhealthy: no successful list or watch lately (see watch_errors_total and the logs)\n".into(),
        ),
        _ => reply(StatusCode::OK, "text/plain; charset=utf-8", "ok\n".into()),
    }
}

/// Serve `GET /metrics` and `GET /healthz` over HTTP/1 on `addr` (port 0 picks a free port).
/// Returns the bound address and the accept loop's task; abort the task to stop serving.
///
/// Connections are served concurrently, each with a 10-second limit to send the request head.
/// An accept error (such as running out of file descriptors) pauses the loop for 100 ms instead
/// of ending it.
///
/// # Errors
///
/// The error of binding `addr` (in use, not permitted, not local).
pub async fn serve(addr: SocketAddr, metrics: Arc<Metrics>) -> std::io::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let task = tokio::spawn(async move {
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let metrics = metrics.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let response = respond(&metrics, &request);
                    async move { Ok::<_, Infallible>(response) }
                });
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(Duration::from_secs(10));
                // A client that goes away mid-request is its own problem, not the exporter's.
                let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
            });
        }
    });
    Ok((local, task))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use chrono::TimeDelta;

    fn gpu_pending(namespace: &str, pod: &str, occurrences: u64) -> ExportRecord {
        let note = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.";
        let mut record = record(&event_json("FailedScheduling", "Warning", "Pod", Some(namespace), pod, note));
        record.delta.occurrences = occurrences;
        record
    }

    /// The sample lines (not comments) of an exposition.
    fn samples(text: &str) -> Vec<&str> {
        text.lines().filter(|line| !line.starts_with('#')).collect()
    }

    #[test]
    fn exported_events_are_counted_by_bounded_labels() {
        let metrics = Metrics::new(&MetricsConfig::default(), Some("gpu-prod"));
        metrics.record_exported(&gpu_pending("ml", "llama-0", 3));
        metrics.record_exported(&gpu_pending("ml", "llama-1", 2));
        for i in 0..500 {
            let custom = record(&event_json(
                &format!("Custom{i}"),
                "Sparkly",
                "Widget",
                Some(&format!("ns-{i}")),
                &format!("w-{i}"),
                "hi",
            ));
            metrics.record_exported(&custom);
        }
        let text = metrics.encode();
        let mut events: Vec<_> = samples(&text).into_iter().filter(|s| s.contains("events_exported")).collect();
        events.sort_unstable();
        assert_eq!(
            events,
            [
                r#"gpu_events_export_events_exported_total{cluster="gpu-prod",reason="FailedScheduling",group="scheduling",type="Warning",cause="insufficient-gpu"} 5"#,
                r#"gpu_events_export_events_exported_total{cluster="gpu-prod",reason="other",group="",type="other",cause=""} 500"#,
            ],
            "{text}"
        );
        assert!(text.contains("\ngpu_events_export_duplicates_suppressed_total{cluster=\"gpu-prod\"} 0\n"), "{text}");
        assert!(!text.contains("llama") && !text.contains("w-1") && !text.contains("ns-1"), "no object names: {text}");
        assert!(text.ends_with("# EOF\n"));
        assert!(text.contains("# TYPE gpu_events_export_events_exported counter"));
    }

    /// The value of the one sample that starts with `series` (`name{labels}` or `name`).
    fn sample(text: &str, series: &str) -> u64 {
        let line =
            samples(text).into_iter().find(|s| s.starts_with(series)).unwrap_or_else(|| panic!("{series}: {text}"));
        line.rsplit(' ').next().and_then(|v| v.parse().ok()).expect("a number")
    }

    #[test]
    fn one_event_counts_once_in_the_stats_and_in_the_metrics() {
        let stats = Arc::new(ExporterStats::default());
        let metrics = Metrics::with_stats(&MetricsConfig::default(), None, stats.clone());
        metrics.record_exported(&gpu_pending("ml", "llama-0", 3));
        metrics.duplicates_suppressed(1);
        metrics.relisted(EventApi::CoreV1);
        metrics.gaps_suspected(EventApi::CoreV1, 1);
        assert_eq!(stats.exported.load(Ordering::Relaxed), 1);
        assert_eq!(stats.occurrences(), 3);
        let text = metrics.encode();
        let exported: u64 = samples(&text)
            .into_iter()
            .filter(|s| s.starts_with("gpu_events_export_events_exported_total"))
            .filter_map(|s| s.rsplit(' ').next()?.parse::<u64>().ok())
            .sum();
        assert_eq!(exported, stats.occurrences(), "{text}");
        assert_eq!(sample(&text, "gpu_events_export_duplicates_suppressed_total"), 1);
        assert_eq!(stats.duplicates.load(Ordering::Relaxed), 1);
        assert_eq!(sample(&text, r#"gpu_events_export_relists_total{api="v1"}"#), 1);
        assert_eq!(stats.relists.load(Ordering::Relaxed), 1);
        assert_eq!(stats.gaps_suspected[EventApi::CoreV1.index()].load(Ordering::Relaxed), 1);
        // Counted after the scrape: the next scrape reads the same counters, no copy to update.
        metrics.record_exported(&gpu_pending("ml", "llama-0", 2));
        assert_eq!(stats.occurrences(), 5);
        assert!(metrics.encode().contains(r#"cause="insufficient-gpu"} 5"#));
    }

    #[test]
    fn namespace_label_is_opt_in() {
        let metrics = Metrics::new(&MetricsConfig::default().with_namespace_label(true), None);
        metrics.record_exported(&gpu_pending("ml", "llama-0", 1));
        metrics.record_exported(&record(&event_json(
            "NodeNotReady",
            "Normal",
            "Node",
            None,
            "gpu-node-1",
            "Node gpu-node-1 status is now: NodeNotReady",
        )));
        let text = metrics.encode();
        let mut events: Vec<_> = samples(&text).into_iter().filter(|s| s.contains("events_exported")).collect();
        events.sort_unstable();
        assert_eq!(
            events,
            [
                r#"gpu_events_export_events_exported_total{reason="FailedScheduling",group="scheduling",type="Warning",cause="insufficient-gpu",namespace="ml"} 1"#,
                r#"gpu_events_export_events_exported_total{reason="NodeNotReady",group="node",type="Normal",cause="",namespace=""} 1"#,
            ],
            "{text}"
        );
    }

    #[test]
    fn exporter_health_metrics() {
        let metrics = Metrics::new(&MetricsConfig::default(), None);
        metrics.duplicates_suppressed(4);
        metrics.watch_restarted(EventApi::EventsV1);
        metrics.watch_restarted(EventApi::EventsV1);
        metrics.relisted(EventApi::CoreV1);
        metrics.gaps_suspected(EventApi::CoreV1, 7);
        metrics.checkpoint_ahead(EventApi::EventsV1);
        metrics.set_queue_depth("webhook", 12);
        metrics.set_queue_depth("webhook", 3);
        metrics.sink_failed("webhook");
        metrics.sink_dropped("webhook", 2);
        metrics.record_unrouted();
        let alert = |state| Alert {
            rule: "gpu-starved".into(),
            sink: "webhook".into(),
            state,
            labels: Default::default(),
            since: Utc::now(),
            last_seen: None,
            occurrences: 1,
            at: Utc::now(),
            message: String::new(),
        };
        metrics.alert(&alert(AlertState::Firing));
        metrics.alert(&alert(AlertState::Resolved));
        metrics.alert(&alert(AlertState::Firing));
        metrics.set_marks(120);
        metrics.set_leader(true);
        let text = metrics.encode();
        let mut found = samples(&text);
        found.sort_unstable();
        assert_eq!(
            found,
            [
                r#"gpu_events_export_alerts_total{rule="gpu-starved",state="firing"} 2"#,
                r#"gpu_events_export_alerts_total{rule="gpu-starved",state="resolved"} 1"#,
                r#"gpu_events_export_checkpoints_ahead_total{api="events.k8s.io/v1"} 1"#,
                "gpu_events_export_dedupe_marks 120",
                "gpu_events_export_duplicates_suppressed_total 4",
                r#"gpu_events_export_gaps_suspected_total{api="v1"} 7"#,
                "gpu_events_export_leader 1",
                "gpu_events_export_records_unrouted_total 1",
                r#"gpu_events_export_relists_total{api="v1"} 1"#,
                r#"gpu_events_export_sink_dropped_total{sink="webhook"} 2"#,
                r#"gpu_events_export_sink_failures_total{sink="webhook"} 1"#,
                r#"gpu_events_export_sink_queue_depth{sink="webhook"} 3"#,
                r#"gpu_events_export_watch_restarts_total{api="events.k8s.io/v1"} 2"#,
            ],
            "{text}"
        );
        assert!(!text.contains("last_event_age"), "absent before the first export");
        assert_eq!(metrics.last_event_age_seconds(Utc::now()), None);
        assert!(!text.contains("owner_"), "no owner series while resolution is off");
    }

    #[test]
    fn owner_counters_are_exposed_by_result_and_reason() {
        let metrics = Metrics::new(&MetricsConfig::default(), Some("gpu-lab"));
        let mut counters = OwnerCounters::default();
        (counters.lookups, counters.resolved, counters.skipped_rate_limited) = (10, 6, 3);
        (counters.cache_hits, counters.requests, counters.errors) = (8, 5, 4);
        (counters.not_found, counters.forbidden) = (2, 1);
        metrics.set_owner_counters(counters);
        let text = metrics.encode();
        for line in [
            r#"gpu_events_export_owner_lookups_total{cluster="gpu-lab",result="resolved"} 6"#,
            r#"gpu_events_export_owner_lookups_total{cluster="gpu-lab",result="rate_limited"} 3"#,
            r#"gpu_events_export_owner_lookups_total{cluster="gpu-lab",result="failed"} 1"#,
            r#"gpu_events_export_owner_cache_hits_total{cluster="gpu-lab"} 8"#,
            r#"gpu_events_export_owner_requests_total{cluster="gpu-lab"} 5"#,
            r#"gpu_events_export_owner_request_errors_total{cluster="gpu-lab",reason="not_found"} 2"#,
            r#"gpu_events_export_owner_request_errors_total{cluster="gpu-lab",reason="forbidden"} 1"#,
            r#"gpu_events_export_owner_request_errors_total{cluster="gpu-lab",reason="other"} 1"#,
        ] {
            assert!(text.contains(line), "{line} in:\n{text}");
        }
        assert!(text.contains("# TYPE gpu_events_export_owner_lookups counter"), "{text}");
    }

    #[test]
    fn last_event_age_is_computed_at_scrape_time_from_the_newest_event() {
        let metrics = Metrics::new(&MetricsConfig::default(), None);
        let now = Utc::now();
        let mut older = gpu_pending("ml", "a", 1);
        older.delta.last_seen = Some(now - TimeDelta::seconds(300));
        let mut newer = gpu_pending("ml", "b", 1);
        newer.delta.last_seen = Some(now - TimeDelta::seconds(42));
        metrics.record_exported(&newer);
        metrics.record_exported(&older);
        assert_eq!(metrics.last_event_age_seconds(now), Some(42.0), "the newest event wins, whatever the order");
        assert_eq!(metrics.last_event_age_seconds(now - TimeDelta::seconds(60)), Some(0.0), "never negative");
        let text = metrics.encode();
        let line = samples(&text)
            .into_iter()
            .find(|s| s.starts_with("gpu_events_export_last_event_age_seconds "))
            .expect("the gauge");
        let age: f64 = line.rsplit(' ').next().and_then(|v| v.parse().ok()).expect("a number");
        assert!((42.0..52.0).contains(&age), "{line}");
        assert!(text.contains("# TYPE gpu_events_export_last_event_age_seconds gauge"));
        assert!(text.contains("# UNIT gpu_events_export_last_event_age_seconds seconds"));
    }

    #[test]
    fn config_parses_and_rejects_unknown_fields() {
        let config: MetricsConfig = serde_yaml_ng::from_str("namespaceLabel: true").expect("parses");
        assert!(config.namespace_label);
        assert_eq!(serde_yaml_ng::from_str::<MetricsConfig>("{}").expect("parses"), MetricsConfig::default());
        let error = serde_yaml_ng::from_str::<MetricsConfig>("namespaces: true").expect_err("typo");
        assert!(error.to_string().contains("unknown field `namespaces`"), "{error}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn serves_metrics_and_health_over_http() {
        let metrics = Arc::new(Metrics::new(&MetricsConfig::default(), Some("gpu-prod")));
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
        let (bound, task) = serve(addr, metrics.clone()).await.expect("binds");
        assert_ne!(bound.port(), 0);
        metrics.record_exported(&gpu_pending("ml", "llama-0", 2));
        let client = reqwest::Client::new();
        let base = format!("http://{bound}");

        let response = client.get(format!("{base}/metrics")).send().await.expect("scrapes");
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], CONTENT_TYPE);
        let body = response.text().await.expect("a body");
        assert!(
            body.contains(r#"gpu_events_export_events_exported_total{cluster="gpu-prod",reason="FailedScheduling",group="scheduling",type="Warning",cause="insufficient-gpu"} 2"#),
            "{body}"
        );
        assert!(body.ends_with("# EOF\n"));

        // Counters move between scrapes.
        metrics.record_exported(&gpu_pending("ml", "llama-0", 1));
        let body = client.get(format!("{base}/metrics")).send().await.expect("scrapes").text().await.expect("a body");
        assert!(body.contains(r#"cause="insufficient-gpu"} 3"#), "{body}");

        let health = client.get(format!("{base}/healthz")).send().await.expect("health");
        assert_eq!(health.status(), 200);
        assert_eq!(health.text().await.expect("a body"), "ok\n");
        assert_eq!(client.get(format!("{base}/nope")).send().await.expect("404").status(), 404);
        let post = client.post(format!("{base}/metrics")).body("x").send().await.expect("405");
        assert_eq!(post.status(), 405);
        assert_eq!(post.headers()["allow"], "GET, HEAD");

        // Concurrent scrapes.
        let scrapes = (0..8).map(|_| {
            let client = client.clone();
            let url = format!("{base}/metrics");
            tokio::spawn(async move { client.get(url).send().await.map(|r| r.status().as_u16()) })
        });
        for scrape in scrapes {
            assert_eq!(scrape.await.expect("joins").expect("scrapes"), 200);
        }

        task.abort();
        assert!(task.await.expect_err("aborted").is_cancelled());
        assert!(serve(bound, metrics).await.is_ok(), "the port is free again after the task ends");
    }

    #[tokio::test]
    async fn binding_a_used_port_is_an_error() {
        let metrics = Arc::new(Metrics::new(&MetricsConfig::default(), None));
        let (bound, task) = serve("127.0.0.1:0".parse().expect("an address"), metrics.clone()).await.expect("binds");
        let error = serve(bound, metrics).await.map(|_| ()).expect_err("in use");
        assert_eq!(error.kind(), std::io::ErrorKind::AddrInUse);
        task.abort();
    }
}
