//! HTTP sinks: a webhook (a JSON array of records per POST) and OTLP/HTTP logs (the
//! OpenTelemetry protocol's JSON encoding, `POST {endpoint}/v1/logs`), so an OpenTelemetry
//! Collector, Loki, Elasticsearch or Kafka behind it take over at scale.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Failure, Line, SinkError, Write};

fn client(
    name: &str,
    headers: &BTreeMap<String, String>,
) -> Result<(reqwest::Client, reqwest::header::HeaderMap), SinkError> {
    let mut map = reqwest::header::HeaderMap::new();
    for (key, value) in headers {
        let key = reqwest::header::HeaderName::from_bytes(key.as_bytes())
            .map_err(|e| SinkError::Http(name.into(), format!("header {key:?}: {e}")))?;
        let value = reqwest::header::HeaderValue::from_str(value)
            .map_err(|e| SinkError::Http(name.into(), format!("header value of {key}: {e}")))?;
        map.insert(key, value);
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| SinkError::Http(name.into(), e.to_string()))?;
    Ok((client, map))
}

fn url(name: &str, text: &str) -> Result<reqwest::Url, SinkError> {
    let url = reqwest::Url::parse(text).map_err(|e| SinkError::Http(name.into(), format!("URL {text:?}: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(SinkError::Http(name.into(), format!("URL {text:?}: only http and https")));
    }
    Ok(url)
}

async fn post(
    client: &reqwest::Client,
    url: &reqwest::Url,
    headers: &reqwest::header::HeaderMap,
    body: Vec<u8>,
) -> Result<(), Failure> {
    let response = client
        .post(url.clone())
        .headers(headers.clone())
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| Failure::from(e.to_string()))?;
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    let after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let retry = status.is_server_error() || matches!(status.as_u16(), 408 | 429);
    Err(Failure { why: format!("{url} answered {status}"), retry, after })
}

/// POSTs each batch as a JSON array to a URL.
pub struct WebhookSink {
    client: reqwest::Client,
    url: reqwest::Url,
    headers: reqwest::header::HeaderMap,
}

impl WebhookSink {
    /// A webhook sink for `url` with extra `headers`.
    ///
    /// # Errors
    /// [`SinkError::Http`] for a bad URL or header.
    pub fn new(url: &str, headers: &BTreeMap<String, String>) -> Result<Self, SinkError> {
        let (client, headers) = client("webhook", headers)?;
        Ok(WebhookSink { client, url: self::url("webhook", url)?, headers })
    }
}

impl Write for WebhookSink {
    async fn write(&mut self, batch: &[Line]) -> Result<(), Failure> {
        let mut body = Vec::with_capacity(batch.iter().map(|l| l.json.len() + 1).sum::<usize>() + 2);
        body.push(b'[');
        for (i, line) in batch.iter().enumerate() {
            if i > 0 {
                body.push(b',');
            }
            body.extend_from_slice(line.json.as_bytes());
        }
        body.push(b']');
        post(&self.client, &self.url, &self.headers, body).await
    }
}

/// OTLP/HTTP logs with the JSON encoding: one `resourceLogs` per batch, one `logRecord` per
/// exported record (body: the note; attributes: reason, type, object, UIDs, cause, the whole
/// record as `gpu_events.record`).
pub struct OtlpSink {
    client: reqwest::Client,
    url: reqwest::Url,
    headers: reqwest::header::HeaderMap,
}

impl OtlpSink {
    /// An OTLP sink for a collector `endpoint` (`http://collector:4318`; `/v1/logs` is appended
    /// unless the URL already ends with it).
    ///
    /// # Errors
    /// [`SinkError::Http`] for a bad URL or header.
    pub fn new(endpoint: &str, headers: &BTreeMap<String, String>) -> Result<Self, SinkError> {
        let (client, headers) = client("otlp", headers)?;
        let endpoint = endpoint.trim_end_matches('/');
        let full = if endpoint.ends_with("/v1/logs") { endpoint.to_owned() } else { format!("{endpoint}/v1/logs") };
        Ok(OtlpSink { client, url: url("otlp", &full)?, headers })
    }
}

/// An OTLP `AnyValue` string attribute.
fn attribute(key: &str, value: &Value) -> Option<Value> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Null => return None,
        other => other.to_string(),
    };
    Some(json!({"key": key, "value": {"stringValue": text}}))
}

fn nanos(value: &Value) -> String {
    value
        .as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .and_then(|t| t.timestamp_nanos_opt())
        .map(|n| n.to_string())
        .unwrap_or_else(|| "0".into())
}

/// One log record for a line (a record or an alert).
pub(crate) fn log_record(line: &Line) -> Value {
    let value: Value = serde_json::from_str(&line.json).unwrap_or(Value::Null);
    let warning = value.get("type").and_then(Value::as_str) == Some("Warning")
        || value.get("state").and_then(Value::as_str) == Some("firing");
    let (severity_number, severity_text) = if warning { (13, "WARN") } else { (9, "INFO") };
    let body = value.get("note").or_else(|| value.get("message")).cloned().unwrap_or(Value::String(String::new()));
    let pairs = [
        ("k8s.event.reason", value.get("reason")),
        ("k8s.event.type", value.get("type")),
        ("k8s.event.uid", value.get("eventUid")),
        ("k8s.event.name", value.get("eventName")),
        ("k8s.namespace.name", value.pointer("/regarding/namespace")),
        ("k8s.object.kind", value.pointer("/regarding/kind")),
        ("k8s.object.name", value.pointer("/regarding/name")),
        ("k8s.object.uid", value.pointer("/regarding/uid")),
        ("k8s.event.count", value.pointer("/delta/total")),
        ("gpu_events.occurrences", value.pointer("/delta/occurrences")),
        ("gpu_events.cause", value.get("cause")),
        ("gpu_events.alert.rule", value.get("rule")),
    ];
    let mut attributes: Vec<Value> = pairs.iter().filter_map(|(key, v)| v.and_then(|v| attribute(key, v))).collect();
    attributes.push(json!({"key": "gpu_events.record", "value": {"stringValue": &*line.json}}));
    let time = value.get("lastTimestamp").or_else(|| value.get("lastSeen")).map(nanos).unwrap_or_else(|| "0".into());
    json!({
        "timeUnixNano": time,
        "observedTimeUnixNano": chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0).to_string(),
        "severityNumber": severity_number,
        "severityText": severity_text,
        "body": {"stringValue": body.as_str().unwrap_or_default()},
        "attributes": attributes,
    })
}

impl Write for OtlpSink {
    async fn write(&mut self, batch: &[Line]) -> Result<(), Failure> {
        let cluster = batch
            .first()
            .and_then(|l| serde_json::from_str::<Value>(&l.json).ok())
            .and_then(|v| v.get("cluster").cloned())
            .unwrap_or(Value::Null);
        let mut resource = Vec::new();
        if let Some(cluster) = attribute("k8s.cluster.name", &cluster) {
            resource.push(cluster);
        }
        let body = json!({"resourceLogs": [{
            "resource": {"attributes": resource},
            "scopeLogs": [{
                "scope": {"name": "gpu-events", "version": env!("CARGO_PKG_VERSION")},
                "logRecords": batch.iter().map(log_record).collect::<Vec<_>>(),
            }],
        }]});
        let body = serde_json::to_vec(&body).map_err(|e| e.to_string())?;
        post(&self.client, &self.url, &self.headers, body).await
    }
}
