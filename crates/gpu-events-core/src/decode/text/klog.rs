//! Log lines that echo events: klog's `"Event occurred"` (client-go tools/record `event.go`,
//! structured logging since Kubernetes 1.20) and the Kubernetes e2e framework's event dump
//! (`INFO: At <time> - event for <name>: {<component> <host>} <Reason>: <message>`).

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::details::template::go_unquote;

/// One event echoed in a log line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LoggedEvent {
    pub(crate) namespace: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) kind: Option<String>,
    pub(crate) api_version: Option<String>,
    pub(crate) field_path: Option<String>,
    pub(crate) type_: Option<String>,
    pub(crate) reason: String,
    pub(crate) message: String,
    pub(crate) component: Option<String>,
    pub(crate) host: Option<String>,
    pub(crate) time: Option<DateTime<Utc>>,
    /// `time` is from a klog header, which has no year: the year is inferred from `now`.
    pub(crate) year_inferred: bool,
}

const KLOG_MARKER: &str = "\"Event occurred\"";

/// The unstructured form client-go logged before structured logging (≤1.19 and still in some
/// controllers): `Event(v1.ObjectReference{Kind:"Pod", ...}): type: 'Warning' reason: 'X' message`.
const OLD_KLOG_MARKER: &str = "Event(v1.ObjectReference{";

/// client-go's event broadcaster logs an Event the API server refused as a Go value dump
/// (`Server rejected event '&v1.Event{... Reason:"X", Regarding:v1.ObjectReference{...},
/// Note:"...", Type:"Warning", ...}': 'reason' (will not retry!)`, tools/events
/// event_broadcaster.go; core/v1's `InvolvedObject:` and `Message:` in tools/record). The
/// event never reached the server: the log line is all there is of it.
const REJECTED_MARKER: &str = "Server rejected event '&v1.Event{";

/// controller-runtime's event recorder logs each event it records at debug level through zap
/// (pkg/internal/recorder: `logger.V(1).Info(type, "object", ref, "reason", reason, "message",
/// message)` under the logger `events`); zap's console encoder writes `TS\tDEBUG\tevents\tTYPE\t`
/// then the fields as one JSON object.
const ZAP_EVENTS_MARKER: &str = "\tevents\t";

/// Whether a line is one of the log formats read here.
pub(crate) fn is_log_line(line: &str) -> bool {
    line.contains(KLOG_MARKER)
        || line.contains(OLD_KLOG_MARKER)
        || line.contains(REJECTED_MARKER)
        || (line.contains(" - event for ") && line.contains("INFO: At "))
        || zap_fields(line).is_some()
}

/// A [`ZAP_EVENTS_MARKER`] line taken apart: zap's time, the text between the logger and the
/// fields (the type in controller-runtime before v0.15, the message since, which logs
/// `Info(message, "type", type, "object", ref, "reason", reason)`), and the JSON fields.
struct ZapLine<'l> {
    time: &'l str,
    text: &'l str,
    fields: serde_json::Map<String, serde_json::Value>,
}

/// The logger's name and level as zap's console encoder writes them: tab-separated, or with
/// the tabs turned to spaces by a paste (`TS  DEBUG  events  ...`); the line's head and rest.
fn split_logger(line: &str) -> Option<(&str, &str)> {
    if let Some(found) = line.split_once(ZAP_EVENTS_MARKER) {
        return Some(found);
    }
    line.match_indices(" events ").find_map(|(at, marker)| {
        let head = line[..at].trim_end();
        let level = head.rsplit(char::is_whitespace).next()?;
        matches!(level, "DEBUG" | "INFO" | "debug" | "info").then(|| (head, &line[at + marker.len()..]))
    })
}

fn zap_fields(line: &str) -> Option<ZapLine<'_>> {
    let (head, rest) = split_logger(line)?;
    let time = head.split_whitespace().next()?;
    let rest = rest.trim_start();
    // The fields are the one JSON object that ends the line; the message may hold braces.
    let (at, fields) = rest.match_indices("{\"").find_map(|(at, _)| {
        match serde_json::from_str::<serde_json::Value>(rest[at..].trim_end()) {
            Ok(serde_json::Value::Object(map)) => Some((at, map)),
            _ => None,
        }
    })?;
    let text = rest[..at].trim();
    let typed = matches!(text, "Normal" | "Warning")
        || fields.get("type").and_then(serde_json::Value::as_str).is_some_and(|t| matches!(t, "Normal" | "Warning"));
    (typed && fields.contains_key("reason")).then_some(ZapLine { time, text, fields })
}

/// Parse a controller-runtime event log line ([`ZAP_EVENTS_MARKER`]): its time (zap's epoch
/// seconds, or ISO 8601), type, object, reason and message.
pub(crate) fn parse_zap_event(line: &str) -> Option<LoggedEvent> {
    let ZapLine { time, text: before, fields } = zap_fields(line)?;
    let text = |map: &serde_json::Map<String, serde_json::Value>, key: &str| {
        map.get(key).and_then(serde_json::Value::as_str).filter(|v| !v.is_empty()).map(str::to_owned)
    };
    let object = fields.get("object").and_then(serde_json::Value::as_object);
    let time = match time.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() => {
            DateTime::from_timestamp(seconds.trunc() as i64, (seconds.fract() * 1e9) as u32)
        }
        _ => DateTime::parse_from_rfc3339(time).ok().map(|t| t.to_utc()),
    };
    let old_layout = matches!(before, "Normal" | "Warning");
    let (type_, message) = match old_layout {
        true => (before.to_owned(), text(&fields, "message").unwrap_or_default()),
        false => (text(&fields, "type")?, text(&fields, "message").unwrap_or_else(|| before.to_owned())),
    };
    Some(LoggedEvent {
        namespace: object.and_then(|o| text(o, "namespace")),
        name: object.and_then(|o| text(o, "name")),
        kind: object.and_then(|o| text(o, "kind")),
        api_version: object.and_then(|o| text(o, "apiVersion")),
        field_path: object.and_then(|o| text(o, "fieldPath")),
        type_: Some(type_),
        reason: text(&fields, "reason")?,
        message,
        component: None,
        host: None,
        time,
        year_inferred: false,
    })
}

/// The Go-quoted string field `key:"..."` in a `%#v` dump, unescaped; the first such field
/// after `from` that opens a field (after `{` or `, `).
fn go_field<'t>(text: &'t str, key: &str) -> Option<(String, &'t str)> {
    let pattern = format!("{key}:\"");
    let at = text.match_indices(&pattern).map(|(at, _)| at).find(|&at| at == 0 || text[..at].ends_with(['{', ' ']))?;
    let value = &text[at + pattern.len() - 1..];
    // The closing quote is the first one no backslash escapes.
    let mut escaped = false;
    let end = value.char_indices().skip(1).find_map(|(i, c)| match c {
        _ if escaped => {
            escaped = false;
            None
        }
        '\\' => {
            escaped = true;
            None
        }
        '"' => Some(i),
        _ => None,
    })?;
    Some((crate::details::template::go_unquote(&value[..=end])?, &value[end + 1..]))
}

/// Parse a [`REJECTED_MARKER`] line: reason, note, type, object and reporter of the Event.
pub(crate) fn parse_rejected(line: &str, now: DateTime<Utc>) -> Option<LoggedEvent> {
    let (prefix, dump) = line.split_once(REJECTED_MARKER)?;
    let text = |key: &str, within: &str| go_field(within, key).map(|(v, _)| v).filter(|v| !v.is_empty());
    // The object: events.k8s.io's `Regarding:` or core/v1's `InvolvedObject:`.
    let object = ["Regarding:v1.ObjectReference{", "InvolvedObject:v1.ObjectReference{"]
        .iter()
        .find_map(|marker| dump.split_once(marker).map(|(_, rest)| rest.split_once('}').map_or(rest, |(o, _)| o)));
    let time = klog_time(prefix.trim_start(), now);
    let event = LoggedEvent {
        namespace: object.and_then(|o| text("Namespace", o)),
        name: object.and_then(|o| text("Name", o)),
        kind: object.and_then(|o| text("Kind", o)),
        api_version: object.and_then(|o| text("APIVersion", o)),
        field_path: object.and_then(|o| text("FieldPath", o)),
        type_: text("Type", dump),
        reason: text("Reason", dump)?,
        message: text("Note", dump).or_else(|| text("Message", dump)).unwrap_or_default(),
        component: text("ReportingController", dump),
        host: text("ReportingInstance", dump),
        time,
        year_inferred: time.is_some(),
    };
    Some(event)
}

/// Parse the old unstructured klog event line; `now` supplies the year klog leaves out.
pub(crate) fn parse_old_klog(line: &str, now: DateTime<Utc>) -> Option<LoggedEvent> {
    let (prefix, rest) = line.split_once(OLD_KLOG_MARKER)?;
    let (reference, rest) = rest.split_once("}): type: '")?;
    let (type_, rest) = rest.split_once("' reason: '")?;
    let (reason, message) = rest.split_once("' ").unwrap_or((rest.trim_end_matches('\''), ""));
    let time = klog_time(prefix.trim_start(), now);
    let mut event = LoggedEvent {
        time,
        year_inferred: time.is_some(),
        type_: Some(type_.to_owned()),
        reason: reason.to_owned(),
        message: message.to_owned(),
        ..LoggedEvent::default()
    };
    // `Kind:"Pod", Namespace:"ml", Name:"x", UID:"...", APIVersion:"v1", ResourceVersion:"1", FieldPath:""`
    for pair in reference.split(", ") {
        let Some((key, value)) = pair.split_once(':') else { continue };
        let value = go_unquote(value).unwrap_or_else(|| value.to_owned());
        let value = Some(value).filter(|v| !v.is_empty());
        match key {
            "Kind" => event.kind = value,
            "Namespace" => event.namespace = value,
            "Name" => event.name = value,
            "APIVersion" => event.api_version = value,
            "FieldPath" => event.field_path = value,
            _ => {}
        }
    }
    (!event.reason.is_empty()).then_some(event)
}

/// Parse a klog `"Event occurred"` line; `now` supplies the year klog leaves out.
pub(crate) fn parse_klog(line: &str, now: DateTime<Utc>) -> Option<LoggedEvent> {
    let (prefix, fields) = line.split_once(KLOG_MARKER)?;
    let time = klog_time(prefix.trim_start(), now);
    let mut event = LoggedEvent { time, year_inferred: time.is_some(), ..LoggedEvent::default() };
    for (key, value) in logfmt(fields) {
        match key {
            "object" => match value.split_once('/') {
                Some((namespace, name)) => {
                    event.namespace = Some(namespace.to_owned()).filter(|n| !n.is_empty());
                    event.name = Some(name.to_owned());
                }
                None => event.name = Some(value),
            },
            "kind" => event.kind = Some(value),
            "apiVersion" => event.api_version = Some(value),
            "fieldPath" => event.field_path = Some(value).filter(|v| !v.is_empty()),
            "type" => event.type_ = Some(value),
            "reason" => event.reason = value,
            "message" => event.message = value,
            _ => {}
        }
    }
    (!event.reason.is_empty()).then_some(event)
}

/// `I1130 05:40:02.123456 ...`: severity, month, day, time; the year is the one that puts the
/// time at or before `now`.
fn klog_time(prefix: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let mut chars = strip_journal(prefix).chars();
    if !matches!(chars.next()?, 'I' | 'W' | 'E' | 'F') {
        return None;
    }
    let rest = chars.as_str();
    let month: u32 = rest.get(0..2)?.parse().ok()?;
    let day: u32 = rest.get(2..4)?.parse().ok()?;
    let clock = rest.get(4..)?.split_whitespace().next()?;
    let time = chrono::NaiveTime::parse_from_str(clock, "%H:%M:%S%.f").ok()?;
    let at = |year| NaiveDate::from_ymd_opt(year, month, day).map(|d| Utc.from_utc_datetime(&d.and_time(time)));
    let this_year = at(now.year())?;
    if this_year > now + chrono::TimeDelta::days(1) { at(now.year() - 1) } else { Some(this_year) }
}

/// `line` without the prefix `journalctl` and syslog put before a unit's output
/// (`Jan 14 22:32:39 node-a kubelet[14067]: `); `line` itself when it has none.
pub(crate) fn strip_journal(line: &str) -> &str {
    fn strip(line: &str) -> Option<&str> {
        let month = line.get(..3)?;
        if !(month.starts_with(|c: char| c.is_ascii_uppercase()) && month.chars().all(|c| c.is_ascii_alphabetic())) {
            return None;
        }
        let rest = line[3..].strip_prefix(' ')?.trim_start();
        let (day, rest) = rest.split_once(' ')?;
        let (clock, rest) = rest.split_once(' ')?;
        let clock_ok = clock.len() == 8
            && clock.bytes().enumerate().all(|(i, b)| if i % 3 == 2 { b == b':' } else { b.is_ascii_digit() });
        if !(day.len() <= 2 && day.bytes().all(|b| b.is_ascii_digit()) && clock_ok) {
            return None;
        }
        // `host unit[pid]: ` (or `host unit: `).
        let (_host, rest) = rest.split_once(' ')?;
        let (unit, rest) = rest.split_once(": ")?;
        (!unit.is_empty() && !unit.contains(' ')).then_some(rest)
    }
    strip(line).unwrap_or(line)
}

/// A structured klog line (`E0114 22:32:39.849988   14067 file.go:1323] "Message" key="value"`,
/// klog's `InfoS`/`ErrorS` text format, Kubernetes ≥1.20), after any journald prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Structured<'a> {
    /// `I`, `W`, `E` or `F`.
    pub(crate) severity: char,
    /// From the header; the year is inferred (see [`klog_time`]).
    pub(crate) time: Option<DateTime<Utc>>,
    /// The quoted message.
    pub(crate) message: String,
    /// The `key=value` pairs after it.
    pub(crate) fields: Vec<(&'a str, String)>,
    /// The time's year was inferred (a klog header has none).
    pub(crate) approximate: bool,
}

impl Structured<'_> {
    /// The value of field `key`.
    pub(crate) fn field(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }
}

/// Whether `line` has a klog header (`I0504 12:11:07.123456 1 file.go:12] `) after any
/// journald prefix: a log line, not YAML, whatever follows.
pub(crate) fn has_klog_header(line: &str) -> bool {
    klog_body(line).is_some()
}

/// kube-scheduler v1.10-v1.18's unstructured failure log (pkg/scheduler/factory.go:
/// `klog.V(3).Infof("Unable to schedule %v/%v: no fit: %v; waiting", ns, name, err)`), which
/// accompanies the Pod's FailedScheduling with the FitError as its note: (namespace, name, the
/// FitError, the header's time).
pub(crate) fn parse_unable_to_schedule(
    line: &str,
    now: DateTime<Utc>,
) -> Option<(&str, &str, &str, Option<DateTime<Utc>>)> {
    // Every text line comes here: a substring test before the header is parsed.
    if !line.contains(": no fit: ") {
        return None;
    }
    let (_, header, body) = klog_body(line)?;
    let rest = body.strip_prefix("Unable to schedule ")?;
    let (pod, rest) = rest.split_once(": no fit: ")?;
    let (namespace, name) = pod.split_once('/')?;
    let err = rest.trim_end().strip_suffix("; waiting")?;
    (!name.is_empty() && !name.contains(' ') && !err.is_empty()).then(|| (namespace, name, err, klog_time(header, now)))
}

/// A log line's time (from its klog header; the year inferred) and its message: the line
/// without any journald prefix and klog header (the whole line when it has neither).
pub(crate) fn message_of(line: &str, now: DateTime<Utc>) -> (Option<DateTime<Utc>>, &str) {
    match klog_body(line) {
        Some((_, header, body)) => (klog_time(header, now), body),
        None => (None, strip_journal(line.trim_start())),
    }
}

/// The text after a klog header, with the header's severity.
fn klog_body(line: &str) -> Option<(char, &str, &str)> {
    let line = strip_journal(line.trim_start());
    // A log viewer's container prefix (k9s, `kubectl logs --prefix`, stern): one word before
    // the header (`kube-scheduler I0417 07:44:16.769658 ...`).
    let line = match line.split_once(' ') {
        Some((word, rest)) if !word.starts_with(['I', 'W', 'E', 'F']) || word.len() != 5 => {
            let rest = rest.trim_start();
            let header = rest.len() > 5
                && rest.starts_with(['I', 'W', 'E', 'F'])
                && rest.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
                && rest.as_bytes()[5] == b' ';
            if header { rest } else { line }
        }
        _ => line,
    };
    let severity = line.chars().next().filter(|c| matches!(c, 'I' | 'W' | 'E' | 'F'))?;
    if !line.get(1..5).is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit())) || line.as_bytes().get(5) != Some(&b' ') {
        return None;
    }
    let (header, body) = line.split_once("] ")?;
    // `file.go:123` ends the header.
    let source = header.rsplit(' ').next()?;
    let (file, number) = source.rsplit_once(':')?;
    (file.ends_with(".go") && number.bytes().all(|b| b.is_ascii_digit())).then_some((severity, header, body))
}

/// Parse a structured klog line; `None` when it is not one (no header, no quoted message).
pub(crate) fn parse_structured(line: &str, now: DateTime<Utc>) -> Option<Structured<'_>> {
    let (severity, header, body) = klog_body(line)?;
    let quoted = body.strip_prefix('"')?;
    let bytes = quoted.as_bytes();
    let mut i = 0;
    while i < bytes.len() && bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    let end = (i + 2).min(body.len());
    let message = go_unquote(&body[..end])?;
    Some(Structured {
        severity,
        time: klog_time(header, now),
        message,
        fields: logfmt(&body[end..]),
        approximate: true,
    })
}

/// Parse a logrus logfmt line, as containerd and CRI-O write them (`time="2026-02-19T13:45:49+01:00"
/// level=error msg="..." error="..."`), after any journald prefix; `None` when it is not one.
pub(crate) fn parse_logfmt(line: &str) -> Option<Structured<'_>> {
    let body = strip_journal(line.trim_start());
    if !body.starts_with("time=") {
        return None;
    }
    let fields = logfmt(body);
    let field = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    let message = field("msg")?.to_owned();
    let time = field("time").and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.with_timezone(&Utc));
    let severity = match field("level") {
        Some("error" | "fatal" | "panic") => 'E',
        Some("warning" | "warn") => 'W',
        _ => 'I',
    };
    Some(Structured { severity, time, message, fields, approximate: false })
}

/// `key="quoted value" key=bare` pairs; quoted values use Go escapes.
fn logfmt(text: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim();
        if after.starts_with('"') {
            // Find the closing quote, skipping escaped ones.
            let bytes = after.as_bytes();
            let mut i = 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            let end = (i + 1).min(after.len());
            let quoted = after.get(..end).unwrap_or(after);
            out.push((key, go_unquote(quoted).unwrap_or_else(|| quoted.trim_matches('"').to_owned())));
            rest = after.get(end..).unwrap_or("").trim_start();
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            out.push((key, after[..end].to_owned()));
            rest = after[end..].trim_start();
        }
    }
    out
}

/// Parse an e2e framework event line: `INFO: At 2017-07-25 07:39:30 +0000 UTC - event for
/// NAME: {COMPONENT HOST} REASON: MESSAGE`.
pub(crate) fn parse_e2e(line: &str) -> Option<LoggedEvent> {
    let (_, rest) = line.split_once("INFO: At ")?;
    let (time, rest) = rest.split_once(" - event for ")?;
    let (name, rest) = rest.split_once(": {")?;
    let (source, rest) = rest.split_once("} ")?;
    let (reason, message) = rest.split_once(": ")?;
    // Posted as inline code: the span's closing backtick is no part of the message.
    let message =
        if super::opens_span_before(line, "INFO: At ") { super::without_closing_backtick(message) } else { message };
    let (component, host) = match source.split_once(' ') {
        Some((component, host)) => (component, host),
        None => (source, ""),
    };
    let time = NaiveDateTime::parse_from_str(time.trim_end_matches(" UTC"), "%Y-%m-%d %H:%M:%S %z")
        .ok()
        .map(|t| Utc.from_utc_datetime(&t))
        .or_else(|| {
            DateTime::parse_from_str(time.trim_end_matches(" UTC"), "%Y-%m-%d %H:%M:%S %z").ok().map(|t| t.to_utc())
        });
    Some(LoggedEvent {
        name: Some(name.to_owned()),
        reason: reason.to_owned(),
        message: message.to_owned(),
        component: Some(component.to_owned()).filter(|c| !c.is_empty()),
        host: Some(host.to_owned()).filter(|h| !h.is_empty()),
        time,
        ..LoggedEvent::default()
    })
}

#[cfg(test)]
mod zap_tests {
    use super::*;

    #[test]
    fn a_controller_runtime_event_line_is_its_event() {
        // StatCan/aaw#1583: the Kubeflow notebook controller's log.
        let line = "1.6783916437612605e+09\tDEBUG\tevents\tWarning\t{\"object\": {\"kind\":\"Notebook\",\"namespace\":\"deil-lode\",\"name\":\"odbiz-more-ram\",\"uid\":\"6d28d10a\",\"apiVersion\":\"kubeflow.org/v1beta1\"}, \"reason\": \"FailedAttachVolume\", \"message\": \"Reissued from pod/odbiz-more-ram-0: Multi-Attach error for volume \\\"pvc-011a\\\" Volume is already exclusively attached to one node and can't be attached to another\"}";
        assert!(is_log_line(line));
        let event = parse_zap_event(line).unwrap();
        assert_eq!((event.kind.as_deref(), event.name.as_deref()), (Some("Notebook"), Some("odbiz-more-ram")));
        assert_eq!((event.type_.as_deref(), event.reason.as_str()), (Some("Warning"), "FailedAttachVolume"));
        assert!(
            event.message.starts_with("Reissued from pod/odbiz-more-ram-0: Multi-Attach error for volume \"pvc-011a\"")
        );
        assert_eq!(event.time.map(|t| t.timestamp()), Some(1_678_391_643));
        // Another logger's line, or a type that is no event type, is not one.
        assert!(!is_log_line("1.67e+09\tINFO\tcontroller\tReconciling\t{\"name\": \"x\"}"));
        assert!(!is_log_line("1.67e+09\tDEBUG\tevents\tSomething\t{}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journald_prefixes_come_off_and_structured_lines_are_read() {
        let now: DateTime<Utc> = "2026-03-01T00:00:00Z".parse().unwrap();
        let line = r#"Jan 14 22:32:39 node-a kubelet[14067]: E0114 22:32:39.849988   14067 kuberuntime_manager.go:1323] "Failed to prepare dynamic resources" err="prepare: DRA driver x is not registered" pod="default/w-0""#;
        assert!(strip_journal(line).starts_with("E0114 "));
        assert_eq!(strip_journal("Jan is a month: not a prefix"), "Jan is a month: not a prefix");
        assert!(has_klog_header(line));
        let read = parse_structured(line, now).unwrap();
        assert_eq!(read.severity, 'E');
        assert_eq!(read.message, "Failed to prepare dynamic resources");
        assert_eq!(read.field("err"), Some("prepare: DRA driver x is not registered"));
        assert_eq!(read.field("pod"), Some("default/w-0"));
        assert_eq!(read.time, Some("2026-01-14T22:32:39.849988Z".parse().unwrap()));
        // A quote inside the message, no fields; not klog: no header, or no `file.go:N]`.
        let quoted = parse_structured(r#"I0504 12:11:07.1 1 a.go:12] "say \"hi\"""#, now).unwrap();
        assert_eq!((quoted.message.as_str(), quoted.fields.len()), ("say \"hi\"", 0));
        assert!(parse_structured("kind: Pod", now).is_none());
        assert!(parse_structured("I0504 12:11:07.1 1 nothing] \"x\"", now).is_none());
        assert!(!has_klog_header("I0504 is not a header"));
    }

    #[test]
    fn reads_klog_event_lines() {
        let now = "2026-11-30T06:00:00Z".parse().unwrap();
        let line = r#"I1130 05:40:02.123456   12345 event.go:307] "Event occurred" object="ml/llama-0" fieldPath="" kind="Pod" apiVersion="v1" type="Warning" reason="FailedScheduling" message="0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: \"x\"""#;
        let event = parse_klog(line, now).unwrap();
        assert_eq!(event.namespace.as_deref(), Some("ml"));
        assert_eq!(event.name.as_deref(), Some("llama-0"));
        assert_eq!(event.kind.as_deref(), Some("Pod"));
        assert_eq!(event.reason, "FailedScheduling");
        assert_eq!(event.message, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: \"x\"");
        assert_eq!(event.time.unwrap().to_rfc3339(), "2026-11-30T05:40:02.123456+00:00");
        // December lines read in January belong to the year before.
        let january = "2027-01-02T00:00:00Z".parse().unwrap();
        assert_eq!(parse_klog(&line.replace("I1130", "I1231"), january).unwrap().time.unwrap().year(), 2026);
        assert!(parse_klog("I1130 random log line", now).is_none());
    }

    #[test]
    fn reads_old_unstructured_klog_lines() {
        let now = "2026-11-30T06:00:00Z".parse().unwrap();
        let line = r#"I1130 05:41:07.000000    2114 event.go:291] Event(v1.ObjectReference{Kind:"Pod", Namespace:"ml", Name:"llama-2", UID:"5f0c", APIVersion:"v1", ResourceVersion:"1843", FieldPath:""}): type: 'Warning' reason: 'FailedMount' MountVolume.SetUp failed for volume "hf-token" : secret "hf-token" not found"#;
        let event = parse_old_klog(line, now).unwrap();
        assert_eq!(
            (event.kind.as_deref(), event.namespace.as_deref(), event.name.as_deref()),
            (Some("Pod"), Some("ml"), Some("llama-2"))
        );
        assert_eq!((event.type_.as_deref(), event.reason.as_str()), (Some("Warning"), "FailedMount"));
        assert_eq!(event.message, "MountVolume.SetUp failed for volume \"hf-token\" : secret \"hf-token\" not found");
        assert_eq!(event.field_path, None);
        assert_eq!(event.time.unwrap().to_rfc3339(), "2026-11-30T05:41:07+00:00");
        assert!(parse_old_klog("I1130 Event(v1.ObjectReference{Kind:\"Pod\"", now).is_none());
    }

    #[test]
    fn reads_e2e_dumps() {
        let line = "INFO: At 2017-07-25 07:39:30 +0000 UTC - event for cos-nvidia-installer: {daemonset-controller } FailedPlacement: failed to place pod on \"m\": Node didn't have enough resource: cpu, requested: 150, used: 950, capacity: 1000";
        let event = parse_e2e(line).unwrap();
        assert_eq!(event.name.as_deref(), Some("cos-nvidia-installer"));
        assert_eq!((event.component.as_deref(), event.host.as_deref()), (Some("daemonset-controller"), None));
        assert_eq!(event.reason, "FailedPlacement");
        assert!(event.message.starts_with("failed to place pod on"));
        assert_eq!(event.time.unwrap().to_rfc3339(), "2017-07-25T07:39:30+00:00");
    }
}
