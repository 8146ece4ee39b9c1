//! Property tests of the decoders: an arbitrary valid event, written the way Kubernetes and
//! kubectl write it (core/v1 JSON, events.k8s.io/v1 JSON and YAML, the record JSON Lines of
//! `gpu-events explain -o json`, `kubectl get events` tables in every layout, the `kubectl
//! describe` Events section), reads back as the same record: every field for the structured
//! formats, the fields the table carries for the text ones (times within the age's precision).

use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};
use gpu_events_core::decode::Decoder;
use gpu_events_core::record::Flag;
use gpu_events_core::record::kinds::is_cluster_scoped;
use gpu_events_core::{EventRecord, Reason};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

mod common;
#[allow(unused_imports)]
use common::*;

/// One generated event: what an Event object says, before any format writes it.
#[derive(Clone, Debug)]
struct Spec {
    reason: String,
    type_: Option<String>,
    note: String,
    kind: String,
    object_api_version: Option<String>,
    object_namespace: Option<String>,
    name: String,
    object_uid: Option<String>,
    field_path: Option<String>,
    action: Option<String>,
    controller: Option<String>,
    instance: Option<String>,
    /// core/v1 `reportingComponent` rather than `source.component` (events.k8s.io:
    /// `reportingController` rather than `deprecatedSource`).
    via_reporting_fields: bool,
    count: u32,
    first: Option<DateTime<Utc>>,
    last: Option<DateTime<Utc>>,
    /// Times as MicroTime (`eventTime`, `series`) rather than seconds (`firstTimestamp`, ...).
    micro: bool,
    event_name: String,
    event_namespace: Option<String>,
    event_uid: Option<String>,
}

// ----- generators -------------------------------------------------------------------------------

/// Catalogue wire strings, with `<placeholder>` families filled (`OutOf<resource>`).
fn catalogue_wires() -> Vec<(String, &'static [&'static str])> {
    Reason::all()
        .iter()
        .map(|reason| {
            let info = reason.info();
            let wire = match info.wire.split_once('<') {
                Some((head, tail)) => {
                    format!("{head}nvidia.com/gpu{}", tail.split_once('>').map_or("", |(_, rest)| rest))
                }
                None => info.wire.to_owned(),
            };
            (wire, info.note_formats)
        })
        .collect()
}

/// A Go format string filled with plain values, so the note matches the reason's grammar.
fn go_fill(format: &str, word: &str, number: u32) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('d') => out.push_str(&number.to_string()),
            Some('t') => out.push_str("true"),
            Some('q') => out.push_str(&format!("{word:?}")),
            Some(_) | None => out.push_str(word),
        }
    }
    out
}

/// Notes that look like other text formats, to catch a decoder taking a cell for a line shape.
const LOOKALIKE_NOTES: [&str; 8] = [
    "Events:  <none>",
    "# not a comment",
    "Name:  not-a-header",
    "LAST SEEN   TYPE   REASON   OBJECT   MESSAGE",
    "4m43s (x93 over 24m)",
    "Warning  FailedScheduling  pod/x  y",
    "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..",
    "   padded note with  two  spaces   ",
];

/// `(reason, note)`: a catalogue reason with a note in its own format, any reason with any note,
/// or a note shaped like another format.
fn reason_and_note(multiline: bool) -> impl Strategy<Value = (String, String)> {
    let wires = catalogue_wires();
    let reason = prop_oneof![
        3 => prop::sample::select(wires.iter().map(|(w, _)| w.clone()).collect::<Vec<_>>()),
        1 => "[A-Z][A-Za-z0-9]{2,30}",
    ];
    let free_note = if multiline { "[\\PC\n\t]{0,120}" } else { "\\PC{0,120}" };
    prop_oneof![
        3 => (prop::sample::select(wires), "[a-z][a-z0-9-]{0,12}", 0u32..5000, any::<prop::sample::Index>())
            .prop_map(|((wire, formats), word, number, pick)| {
                let note = if formats.is_empty() { String::new() } else { go_fill(pick.get::<&str>(formats), &word, number) };
                (wire, note)
            }),
        3 => (reason.clone(), free_note),
        1 => (reason, prop::sample::select(LOOKALIKE_NOTES.to_vec()).prop_map(str::to_owned)),
    ]
}

fn kind() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["Pod", "Node", "GPUPool", "GPUNode", "TensorFusionWorkload", "Job", "DaemonSet", "PodGroup", "Workload", "NodeClaim"]).prop_map(str::to_owned),
        1 => "[A-Z][a-z]{2,12}",
    ]
}

/// A DNS subdomain name (object and Event names).
fn dns_name() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9.-]{0,40}[a-z0-9])?"
}

/// A DNS label (namespaces).
fn dns_label() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?"
}

/// A component or instance name: no spaces (`kubectl` joins component and host with `, `).
fn component() -> impl Strategy<Value = String> {
    "[a-zA-Z][a-zA-Z0-9./_-]{0,30}"
}

/// `(first, last, micro)`: seconds or microseconds precision, `last >= first`; with `ages`, at
/// most ten years before [`now`] (a table's ages), else anywhere in 1970..2100.
fn times(ages: bool) -> impl Strategy<Value = (Option<DateTime<Utc>>, Option<DateTime<Utc>>, bool)> {
    let base = if ages { now().timestamp() - 10 * 365 * 86_400 } else { 0 };
    let span: i64 = if ages { 10 * 365 * 86_400 } else { 4_102_444_800 };
    let instant = (0..span, 0u32..1_000_000);
    prop_oneof![
        8 => (instant.clone(), instant, any::<bool>()).prop_map(move |((a, ua), (b, ub), micro)| {
            let at = |s: i64, us: u32| DateTime::from_timestamp(base + s, if micro { us * 1000 } else { 0 }).unwrap();
            let (a, b) = (at(a, ua), at(b, ub));
            (Some(a.min(b)), Some(a.max(b)), micro)
        }),
        1 => Just((None, None, false)),
    ]
}

fn spec(multiline: bool, ages: bool) -> impl Strategy<Value = Spec> {
    (
        (
            reason_and_note(multiline),
            prop::option::weighted(0.9, prop::sample::select(vec!["Normal", "Warning"])),
            kind(),
            dns_name(),
        ),
        (
            prop::option::of(prop::sample::select(vec!["v1", "tensor-fusion.ai/v1", "batch/v1"])),
            prop::option::weighted(0.8, dns_label()),
            prop::option::of("[0-9a-f]{8}-[0-9a-f]{4}"),
            prop::option::of(prop::sample::select(vec!["spec.containers{cuda}", "spec.initContainers{init}"])),
        ),
        (
            prop::option::of("[A-Z][A-Za-z ]{0,20}"),
            prop::option::weighted(0.9, component()),
            prop::option::of(component()),
            any::<bool>(),
        ),
        (
            prop_oneof![3 => 1u32..5, 1 => 1..=(i32::MAX as u32)],
            times(ages),
            dns_name(),
            prop::option::of("[0-9a-f]{8}"),
        ),
    )
        .prop_map(
            |(
                ((reason, note), type_, kind, name),
                (object_api_version, object_namespace, object_uid, field_path),
                (action, controller, instance, via_reporting_fields),
                (count, (first, last, micro), event_name, event_uid),
            )| {
                let mut spec = Spec {
                    reason,
                    type_: type_.map(str::to_owned),
                    note,
                    kind,
                    object_api_version: object_api_version.map(str::to_owned),
                    event_namespace: Some(object_namespace.clone().unwrap_or_else(|| "default".to_owned())),
                    object_namespace,
                    name,
                    object_uid,
                    field_path: field_path.map(str::to_owned),
                    action,
                    controller,
                    instance,
                    via_reporting_fields,
                    count,
                    first,
                    last,
                    micro,
                    event_name: String::new(),
                    event_uid,
                };
                spec.event_name = format!("{event_name}.18a1b2c3");
                // A single MicroTime occurrence has no series: its last time is its first.
                if spec.micro && spec.count == 1 {
                    spec.last = spec.first;
                }
                spec
            },
        )
}

// ----- writers ----------------------------------------------------------------------------------

fn seconds(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn micros(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Insert the `Some` values of `pairs` into `map`.
fn put(map: &mut Map<String, Value>, pairs: &[(&str, Option<Value>)]) {
    for (key, value) in pairs {
        if let Some(value) = value {
            map.insert((*key).to_owned(), value.clone());
        }
    }
}

fn object_reference(s: &Spec) -> Value {
    let mut map = Map::new();
    put(
        &mut map,
        &[
            ("kind", Some(json!(s.kind))),
            ("apiVersion", s.object_api_version.as_ref().map(|v| json!(v))),
            ("namespace", s.object_namespace.as_ref().map(|v| json!(v))),
            ("name", Some(json!(s.name))),
            ("uid", s.object_uid.as_ref().map(|v| json!(v))),
            ("fieldPath", s.field_path.as_ref().map(|v| json!(v))),
        ],
    );
    Value::Object(map)
}

fn metadata(s: &Spec) -> Value {
    let mut map = Map::new();
    put(
        &mut map,
        &[
            ("name", Some(json!(s.event_name))),
            ("namespace", s.event_namespace.as_ref().map(|v| json!(v))),
            ("uid", s.event_uid.as_ref().map(|v| json!(v))),
        ],
    );
    Value::Object(map)
}

fn source(s: &Spec) -> Value {
    let mut map = Map::new();
    put(
        &mut map,
        &[("component", s.controller.as_ref().map(|v| json!(v))), ("host", s.instance.as_ref().map(|v| json!(v)))],
    );
    Value::Object(map)
}

/// The series of a MicroTime event that happened more than once.
fn series(s: &Spec) -> Option<Value> {
    (s.micro && s.count > 1).then(|| json!({"count": s.count, "lastObservedTime": s.last.map(micros)}))
}

/// A core/v1 Event as the API server returns it.
fn core_event(s: &Spec) -> Value {
    let mut map = Map::new();
    put(
        &mut map,
        &[
            ("apiVersion", Some(json!("v1"))),
            ("kind", Some(json!("Event"))),
            ("metadata", Some(metadata(s))),
            ("involvedObject", Some(object_reference(s))),
            ("reason", Some(json!(s.reason))),
            ("type", s.type_.as_ref().map(|v| json!(v))),
            ("message", Some(json!(s.note))),
            ("action", s.action.as_ref().map(|v| json!(v))),
        ],
    );
    if s.via_reporting_fields {
        put(
            &mut map,
            &[
                ("reportingComponent", s.controller.as_ref().map(|v| json!(v))),
                ("reportingInstance", s.instance.as_ref().map(|v| json!(v))),
            ],
        );
    } else {
        map.insert("source".to_owned(), source(s));
    }
    if s.micro {
        put(&mut map, &[("eventTime", s.first.map(|t| json!(micros(t)))), ("series", series(s))]);
    } else {
        put(
            &mut map,
            &[
                ("firstTimestamp", s.first.map(|t| json!(seconds(t)))),
                ("lastTimestamp", s.last.map(|t| json!(seconds(t)))),
                ("count", Some(json!(s.count))),
            ],
        );
    }
    Value::Object(map)
}

/// An events.k8s.io/v1 Event as the API server returns it.
fn events_event(s: &Spec) -> Value {
    let mut map = Map::new();
    put(
        &mut map,
        &[
            ("apiVersion", Some(json!("events.k8s.io/v1"))),
            ("kind", Some(json!("Event"))),
            ("metadata", Some(metadata(s))),
            ("regarding", Some(object_reference(s))),
            ("reason", Some(json!(s.reason))),
            ("type", s.type_.as_ref().map(|v| json!(v))),
            ("note", Some(json!(s.note))),
            ("action", s.action.as_ref().map(|v| json!(v))),
        ],
    );
    if s.via_reporting_fields {
        put(
            &mut map,
            &[
                ("reportingController", s.controller.as_ref().map(|v| json!(v))),
                ("reportingInstance", s.instance.as_ref().map(|v| json!(v))),
            ],
        );
    } else {
        map.insert("deprecatedSource".to_owned(), source(s));
    }
    if s.micro {
        put(&mut map, &[("eventTime", s.first.map(|t| json!(micros(t)))), ("series", series(s))]);
    } else {
        put(
            &mut map,
            &[
                ("deprecatedFirstTimestamp", s.first.map(|t| json!(seconds(t)))),
                ("deprecatedLastTimestamp", s.last.map(|t| json!(seconds(t)))),
                ("deprecatedCount", Some(json!(s.count))),
            ],
        );
    }
    Value::Object(map)
}

/// kubectl's `duration.HumanDuration`, and the precision of what it prints.
fn human(delta: TimeDelta) -> (String, i64) {
    let seconds = delta.num_seconds();
    let (minutes, hours) = (seconds / 60, seconds / 3600);
    let days = hours / 24;
    let years = days / 365;
    match () {
        _ if seconds < 120 => (format!("{seconds}s"), 1),
        _ if minutes < 10 && seconds % 60 == 0 => (format!("{minutes}m"), 1),
        _ if minutes < 10 => (format!("{minutes}m{}s", seconds % 60), 1),
        _ if minutes < 180 => (format!("{minutes}m"), 60),
        _ if hours < 8 && minutes % 60 == 0 => (format!("{hours}h"), 60),
        _ if hours < 8 => (format!("{hours}h{}m", minutes % 60), 60),
        _ if hours < 48 => (format!("{hours}h"), 3600),
        _ if hours < 24 * 8 && hours % 24 == 0 => (format!("{days}d"), 3600),
        _ if hours < 24 * 8 => (format!("{days}d{}h", hours % 24), 3600),
        _ if hours < 24 * 365 * 2 => (format!("{days}d"), 86_400),
        _ if hours < 24 * 365 * 8 && days % 365 == 0 => (format!("{years}y"), 86_400),
        _ if hours < 24 * 365 * 8 => (format!("{years}y{}d", days % 365), 86_400),
        _ => (format!("{years}y"), 365 * 86_400),
    }
}

/// kubectl `translateTimestampSince`.
fn since(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(|| "<unknown>".to_owned(), |t| human(now() - t).0)
}

/// Go's `text/tabwriter` as kubectl configures it: each tab-terminated cell padded to its
/// column's widest cell plus `padding` (at least `min_width`), widths in runes; the last cell of
/// a line is not padded (and trailing padding is kept, as tabwriter keeps it).
fn tabwriter(rows: &[Vec<String>], min_width: usize, padding: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns.saturating_sub(1))
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count() + padding)
                .max()
                .unwrap_or(0)
                .max(min_width)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < row.len() {
                out.extend(std::iter::repeat_n(' ', widths[i] - cell.chars().count()));
            }
        }
        out.push('\n');
    }
    out
}

/// `kubectl get events` (printers.go `printEvent`): `all_namespaces` is `-A`, `wide` is `-o wide`.
fn get_events_table(specs: &[Spec], all_namespaces: bool, wide: bool) -> String {
    let mut header = vec!["LAST SEEN", "TYPE", "REASON", "OBJECT"];
    if wide {
        header.extend(["SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME"]);
    } else {
        header.push("MESSAGE");
    }
    if all_namespaces {
        header.insert(0, "NAMESPACE");
    }
    let mut rows = vec![header.into_iter().map(str::to_owned).collect::<Vec<_>>()];
    for s in specs {
        let first = since(s.first);
        let last = if s.last.is_some() { since(s.last) } else { first.clone() };
        let mut row = vec![
            last,
            s.type_.clone().unwrap_or_default(),
            s.reason.clone(),
            format!("{}/{}", s.kind.to_lowercase(), s.name),
        ];
        let message = s.note.trim().to_owned();
        if wide {
            let source = match (&s.controller, &s.instance) {
                (Some(c), Some(i)) => format!("{c}, {i}"),
                (None, Some(i)) => format!(", {i}"),
                (c, None) => c.clone().unwrap_or_default(),
            };
            row.extend([
                s.field_path.clone().unwrap_or_default(),
                source,
                message,
                first,
                s.count.to_string(),
                s.event_name.clone(),
            ]);
        } else {
            row.push(message);
        }
        if all_namespaces {
            row.insert(0, s.event_namespace.clone().unwrap_or_default());
        }
        rows.push(row);
    }
    tabwriter(&rows, 6, 3)
}

/// `kubectl describe` of one object (describe.go `DescribeEvents`, and the generic describer's
/// `Name`/`Namespace`/`Kind` lines), its events being `specs`.
fn describe(specs: &[Spec]) -> String {
    let object = &specs[0];
    // Cluster-scoped objects (a Node) have no Namespace line.
    let mut header = vec![vec!["Name:".to_owned(), object.name.clone()]];
    if let Some(namespace) = &object.object_namespace {
        header.push(vec!["Namespace:".to_owned(), namespace.clone()]);
    }
    header.push(vec!["Kind:".to_owned(), object.kind.clone()]);
    let mut out = tabwriter(&header, 0, 2);
    out.push_str("Events:\n");
    let mut rows = vec![
        ["  Type", "Reason", "Age", "From", "Message"].map(str::to_owned).to_vec(),
        ["  ----", "------", "----", "----", "-------"].map(str::to_owned).to_vec(),
    ];
    for s in specs {
        let interval = if s.count > 1 {
            format!("{} (x{} over {})", since(s.last), s.count, since(s.first))
        } else {
            since(s.first)
        };
        rows.push(vec![
            format!("  {}", s.type_.clone().unwrap_or_default()),
            s.reason.clone(),
            interval,
            s.controller.clone().unwrap_or_default(),
            s.note.trim().to_owned(),
        ]);
    }
    out.push_str(&tabwriter(&rows, 0, 2));
    out
}

// ----- checks -----------------------------------------------------------------------------------

fn decode_all(input: &str) -> Vec<EventRecord> {
    Decoder::from_str(input)
        .reference_time(now())
        .map(|item| item.unwrap_or_else(|err| panic!("decode error {err}\ninput:\n{input}")))
        .collect()
}

/// What every structured format must keep of the spec.
fn check_fields(record: &EventRecord, s: &Spec) -> Result<(), TestCaseError> {
    prop_assert_eq!(record.reason.as_str(), s.reason.as_str());
    prop_assert_eq!(record.type_.as_ref().map(|t| t.to_string()), s.type_.clone());
    prop_assert_eq!(&record.note, &s.note);
    prop_assert_eq!(record.count, s.count);
    prop_assert_eq!(record.first_timestamp, s.first);
    prop_assert_eq!(record.last_timestamp, s.last);
    let r = &record.regarding;
    prop_assert_eq!(r.kind.as_deref(), Some(s.kind.as_str()));
    prop_assert_eq!(&r.api_version, &s.object_api_version);
    prop_assert_eq!(&r.namespace, &s.object_namespace);
    prop_assert_eq!(r.name.as_deref(), Some(s.name.as_str()));
    prop_assert_eq!(&r.uid, &s.object_uid);
    prop_assert_eq!(&r.field_path, &s.field_path);
    prop_assert_eq!(&record.action, &s.action);
    prop_assert_eq!(&record.reporting_controller, &s.controller);
    prop_assert_eq!(&record.reporting_instance, &s.instance);
    prop_assert_eq!(record.event_name.as_deref(), Some(s.event_name.as_str()));
    prop_assert_eq!(&record.event_namespace, &s.event_namespace);
    prop_assert_eq!(&record.event_uid, &s.event_uid);
    prop_assert!(!record.has_flag(Flag::ApproximateTime));
    Ok(())
}

/// `decoded` is `true` read from a table: as late as the truth, by less than the age's precision.
fn check_age(decoded: Option<DateTime<Utc>>, truth: Option<DateTime<Utc>>, what: &str) -> Result<(), TestCaseError> {
    match (decoded, truth) {
        (None, None) => {}
        (Some(decoded), Some(truth)) => {
            let (_, precision) = human(now() - truth);
            let error = decoded - truth;
            prop_assert!(
                error >= TimeDelta::zero() && error < TimeDelta::seconds(precision),
                "{what}: decoded {decoded}, true {truth}, precision {precision}s"
            );
        }
        (decoded, truth) => prop_assert!(false, "{what}: decoded {decoded:?}, true {truth:?}"),
    }
    Ok(())
}

/// The fields a `kubectl get events` row carries.
fn check_table_row(record: &EventRecord, s: &Spec, all_namespaces: bool, wide: bool) -> Result<(), TestCaseError> {
    prop_assert_eq!(record.reason.as_str(), s.reason.as_str());
    prop_assert_eq!(record.type_.as_ref().map(|t| t.to_string()), s.type_.clone());
    prop_assert_eq!(record.note.as_str(), s.note.trim());
    let kind = record.regarding.kind.as_deref().unwrap_or_default();
    prop_assert!(kind.eq_ignore_ascii_case(&s.kind), "kind {} for {}", kind, s.kind);
    prop_assert_eq!(record.regarding.name.as_deref(), Some(s.name.as_str()));
    let namespace = if all_namespaces { s.event_namespace.clone() } else { None };
    // The row's NAMESPACE is the Event's; a cluster-scoped object has none.
    let regarding_namespace = namespace.clone().filter(|_| !is_cluster_scoped(&s.kind));
    prop_assert_eq!(&record.regarding.namespace, &regarding_namespace);
    prop_assert_eq!(&record.event_namespace, &namespace);
    check_age(record.last_timestamp, s.last.or(s.first), "lastTimestamp")?;
    prop_assert_eq!(record.has_flag(Flag::ApproximateTime), s.first.is_some());
    if wide {
        prop_assert_eq!(record.count, s.count);
        check_age(record.first_timestamp, s.first, "firstTimestamp")?;
        prop_assert_eq!(&record.regarding.field_path, &s.field_path);
        prop_assert_eq!(record.event_name.as_deref(), Some(s.event_name.as_str()));
        prop_assert_eq!(&record.reporting_controller, &s.controller);
        prop_assert_eq!(&record.reporting_instance, &s.instance);
    }
    Ok(())
}

/// Table notes are one line (kubectl prints a newline raw, which no reader can tell from a wrap).
fn one_line(mut s: Spec) -> Spec {
    s.note = s.note.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    s
}

/// What a terminal copy gives: tabwriter's padding after the last non-empty cell is gone.
fn without_trailing_spaces(text: &str) -> String {
    text.lines().map(|line| format!("{}\n", line.trim_end())).collect()
}

/// An events.k8s.io record and a core/v1 record of the same event differ only in their API.
fn same_but_api(core: &EventRecord, events: &EventRecord) -> Result<(), TestCaseError> {
    let mut events = events.clone();
    events.event_api_version = core.event_api_version.clone();
    prop_assert_eq!(core, &events);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// core/v1 JSON, events.k8s.io/v1 JSON and YAML (alone, in Lists and in watch streams) read
    /// back every field, and the JSON Lines the CLI writes read back as the same records.
    #[test]
    fn structured_formats_read_back_every_field(specs in prop::collection::vec(spec(true, false), 1..4)) {
        for s in &specs {
            let core = core_event(s);
            let events = events_event(s);
            let [core_record] = <[EventRecord; 1]>::try_from(decode_all(&core.to_string())).unwrap();
            check_fields(&core_record, s)?;
            prop_assert_eq!(core_record.event_api_version.as_deref(), Some("v1"));
            let [events_record] = <[EventRecord; 1]>::try_from(decode_all(&events.to_string())).unwrap();
            check_fields(&events_record, s)?;
            prop_assert_eq!(events_record.event_api_version.as_deref(), Some("events.k8s.io/v1"));
            same_but_api(&core_record, &events_record)?;
            let yaml = serde_yaml_ng::to_string(&events).unwrap();
            let [yaml_record] = <[EventRecord; 1]>::try_from(decode_all(&yaml)).unwrap();
            prop_assert_eq!(&yaml_record, &events_record, "YAML:\n{}", yaml);
        }

        // The containers: a List of each API, a watch stream, a multi-document YAML stream.
        let expected: Vec<EventRecord> = specs.iter().map(|s| decode_all(&core_event(s).to_string()).remove(0)).collect();
        let list = json!({"apiVersion": "v1", "kind": "EventList", "metadata": {}, "items": specs.iter().map(core_event).collect::<Vec<_>>()});
        prop_assert_eq!(&decode_all(&serde_json::to_string_pretty(&list).unwrap()), &expected);
        let watch: String = specs.iter().map(|s| format!("{}\n", json!({"type": "MODIFIED", "object": core_event(s)}))).collect();
        prop_assert_eq!(&decode_all(&watch), &expected);
        let yaml_stream: String =
            specs.iter().map(|s| format!("---\n{}", serde_yaml_ng::to_string(&events_event(s)).unwrap())).collect();
        let from_yaml = decode_all(&yaml_stream);
        prop_assert_eq!(from_yaml.len(), expected.len());
        for (events, core) in from_yaml.iter().zip(&expected) {
            same_but_api(core, events)?;
        }

        // `gpu-events explain -o json`: one record per line, read back as the same records
        // (the same catalogue rows too, not only the same wire strings).
        let written: Vec<EventRecord> = expected.iter().chain(&from_yaml).cloned().collect();
        let lines: String = written.iter().map(|r| format!("{}\n", serde_json::to_string(r).unwrap())).collect();
        prop_assert_eq!(decode_all(&lines), written);
    }

    /// `kubectl get events` in its four layouts reads back what each row shows.
    #[test]
    fn get_events_tables_read_back_their_columns(
        specs in prop::collection::vec(spec(false, true).prop_map(one_line), 1..6),
        all_namespaces in any::<bool>(),
        wide in any::<bool>(),
        pasted in any::<bool>(),
    ) {
        let mut table = get_events_table(&specs, all_namespaces, wide);
        if pasted {
            table = without_trailing_spaces(&table);
        }
        let records = decode_all(&table);
        prop_assert_eq!(records.len(), specs.len(), "table:\n{}", table);
        for (record, s) in records.iter().zip(&specs) {
            check_table_row(record, s, all_namespaces, wide).map_err(|e| TestCaseError::fail(format!("{e}\ntable:\n{table}")))?;
        }
    }

    /// The Events section of `kubectl describe` reads back its columns, tied to the object.
    #[test]
    fn describe_sections_read_back_their_columns(
        specs in prop::collection::vec(spec(false, true).prop_map(one_line), 1..6),
        pasted in any::<bool>(),
    ) {
        let mut text = describe(&specs);
        if pasted {
            text = without_trailing_spaces(&text);
        }
        let records = decode_all(&text);
        prop_assert_eq!(records.len(), specs.len(), "describe:\n{}", text);
        let object = &specs[0];
        for (record, s) in records.iter().zip(&specs) {
            let fail = |e: TestCaseError| TestCaseError::fail(format!("{e}\ndescribe:\n{text}"));
            (|| {
                prop_assert_eq!(record.reason.as_str(), s.reason.as_str());
                prop_assert_eq!(record.type_.as_ref().map(|t| t.to_string()), s.type_.clone());
                prop_assert_eq!(record.note.as_str(), s.note.trim());
                prop_assert_eq!(&record.reporting_controller, &s.controller);
                prop_assert_eq!(record.regarding.name.as_deref(), Some(object.name.as_str()));
                // A cluster-scoped object has no namespace, whatever the section printed.
                let namespace = object.object_namespace.clone().filter(|_| !is_cluster_scoped(&object.kind));
                prop_assert_eq!(&record.regarding.namespace, &namespace);
                prop_assert_eq!(record.regarding.kind.as_deref(), Some(object.kind.as_str()));
                prop_assert_eq!(record.count, s.count);
                check_age(record.first_timestamp, s.first, "firstTimestamp")?;
                let last = if s.count > 1 { s.last } else { s.first };
                check_age(record.last_timestamp, last, "lastTimestamp")?;
                Ok(())
            })().map_err(fail)?;
        }
    }
}

#[test]
fn the_writers_follow_kubectl() {
    // Hand-checked against kubectl 1.31 output (columns three spaces apart, minimum width 6).
    let s = Spec {
        reason: "FailedScheduling".into(),
        type_: Some("Warning".into()),
        note: "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.".into(),
        kind: "Pod".into(),
        object_api_version: None,
        object_namespace: Some("ml".into()),
        name: "llama-0".into(),
        object_uid: None,
        field_path: None,
        action: None,
        controller: Some("default-scheduler".into()),
        instance: None,
        via_reporting_fields: false,
        count: 3,
        first: Some(now() - TimeDelta::minutes(24)),
        last: Some(now() - TimeDelta::seconds(283)),
        micro: false,
        event_name: "llama-0.18a1".into(),
        event_namespace: Some("ml".into()),
        event_uid: None,
    };
    assert_eq!(
        get_events_table(std::slice::from_ref(&s), false, false),
        "LAST SEEN   TYPE      REASON             OBJECT        MESSAGE\n\
         4m43s       Warning   FailedScheduling   pod/llama-0   0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
    );
    assert_eq!(
        describe(&[s]),
        "Name:       llama-0\nNamespace:  ml\nKind:       Pod\nEvents:\n\
         \x20 Type     Reason            Age                  From               Message\n\
         \x20 ----     ------            ----                 ----               -------\n\
         \x20 Warning  FailedScheduling  4m43s (x3 over 24m)  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
    );
}

/// Found by `structured_formats_read_back_every_field`: a record read back from JSON Lines had its
/// reason re-resolved without the note-form choice (`note_form_row`) made when it was built, so
/// a `GangScheduled` event with no reporting controller and the gang manager's note was
/// `GangManagerScheduled` when read from the Event and `GangScheduled` when read back.
#[test]
fn a_record_read_back_keeps_the_row_its_note_form_chose() {
    let event = r#"{"apiVersion":"v1","kind":"Event","metadata":{"name":"a.1"},"involvedObject":{"kind":"Pod","name":"a"},
        "reason":"GangScheduled","message":"Pod group a scheduled with 0 members"}"#;
    let [record] = <[EventRecord; 1]>::try_from(decode_all(event)).unwrap();
    let gang_manager = Reason::TensorFusion(gpu_events_core::reason::TensorFusionReason::GangManagerScheduled);
    assert_eq!(record.reason.reason(), Some(gang_manager));
    let [again] = <[EventRecord; 1]>::try_from(decode_all(&serde_json::to_string(&record).unwrap())).unwrap();
    assert_eq!(again.reason.reason(), Some(gang_manager));
}
