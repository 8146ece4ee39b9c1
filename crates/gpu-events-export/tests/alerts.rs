//! Alerts on events.k8s.io series: updates come only with heartbeats (every 30 minutes), so the
//! silence between them must not resolve a pattern that is still going on.

use chrono::{DateTime, Duration as TimeDelta, Utc};
use gpu_events_core::decode::Decoder;
use gpu_events_export::{AlertEngine, AlertRule, AlertState, Delta, ExportRecord, Matcher};
use serde_json::json;

fn at(minutes: i64) -> DateTime<Utc> {
    "2026-12-01T10:00:00Z".parse::<DateTime<Utc>>().unwrap() + TimeDelta::minutes(minutes)
}

/// The series as the exporter sees it at `minutes`: count, and the delta since the last export.
fn series(count: u32, minutes: i64, previous: Option<i64>, occurrences: u64) -> ExportRecord {
    let mut event = json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": "llama-0.1", "namespace": "ml", "uid": "u-1"},
        "eventTime": at(0).to_rfc3339(), "reason": "FailedScheduling", "type": "Warning", "action": "Scheduling",
        "reportingController": "default-scheduler", "reportingInstance": "default-scheduler-0",
        "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-0"},
        "note": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
    });
    if count >= 2 {
        event["series"] = json!({"count": count, "lastObservedTime": at(minutes).to_rfc3339()});
    }
    let record = Decoder::from_str(&event.to_string()).next().unwrap().unwrap();
    let delta = Delta::new(occurrences, u64::from(count), Some(at(0)), Some(at(minutes)), previous.map(at));
    ExportRecord::new(record, delta)
}

#[test]
fn a_series_fed_pattern_fires_once_and_does_not_flap_between_heartbeats() {
    let rule = AlertRule::pattern("gpu-starved", Matcher::default(), &[], std::time::Duration::from_secs(600), "file");
    let mut engine = AlertEngine::new(&[rule]).unwrap();
    let mut alerts = Vec::new();
    alerts.extend(engine.observe(&series(1, 0, None, 1), at(0)));
    alerts.extend(engine.observe(&series(2, 1, Some(0), 1), at(1)));
    for minute in 2..=120 {
        if minute % 30 == 1 {
            let count = 2 + 60 * (minute as u32 / 30);
            alerts.extend(engine.observe(&series(count, minute, Some(minute - 30), 60), at(minute)));
        }
        alerts.extend(engine.tick(at(minute), Some(at(minute)), true));
    }
    let states: Vec<AlertState> = alerts.iter().map(|a| a.state).collect();
    assert_eq!(states, [AlertState::Firing], "{alerts:#?}");
    // 35 minutes after the last heartbeat (at 91), the pattern is over.
    let later: Vec<_> = (121..=127).flat_map(|m| engine.tick(at(m), None, true)).collect();
    assert_eq!(later.len(), 1);
    assert_eq!(later[0].state, AlertState::Resolved);
}
