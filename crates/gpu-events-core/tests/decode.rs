//! Decoding both Event APIs from JSON and YAML, Lists, streams, and bad input.

use gpu_events_core::decode::{DecodeError, Decoder, Format};
use gpu_events_core::reason::{KarpenterReason, SchedulerReason};
use gpu_events_core::record::Flag;
use gpu_events_core::{EventRecord, EventType, Group, Reason, Source};

mod common;
#[allow(unused_imports)]
use common::*;

fn decode(input: &str) -> Vec<Result<EventRecord, DecodeError>> {
    Decoder::from_str(input).collect()
}

fn records(input: &str) -> Vec<EventRecord> {
    decode(input).into_iter().map(|r| r.unwrap_or_else(|e| panic!("unexpected error: {e}"))).collect()
}

const CORE_EVENT: &str = r#"{
  "apiVersion": "v1", "kind": "Event",
  "metadata": {"name": "gpu-pod.17f0", "namespace": "default", "uid": "e-1", "creationTimestamp": "2026-11-30T05:57:19Z"},
  "involvedObject": {"kind": "Pod", "namespace": "default", "name": "gpu-pod", "uid": "p-1", "apiVersion": "v1", "fieldPath": ""},
  "reason": "UnexpectedAdmissionError", "type": "Warning",
  "message": "Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected",
  "source": {"component": "kubelet", "host": "node6"},
  "count": 3, "firstTimestamp": "2026-11-30T05:57:20Z", "lastTimestamp": "2026-11-30T05:59:00Z"
}"#;

const EVENTS_EVENT: &str = r#"{
  "apiVersion": "events.k8s.io/v1", "kind": "Event",
  "metadata": {"name": "llama-train-0.18a1", "namespace": "ml", "uid": "e-2", "creationTimestamp": "2026-11-30T05:40:03Z"},
  "eventTime": "2026-11-30T05:40:03.002000Z",
  "reportingController": "GangScheduler", "reportingInstance": "GangScheduler-op-0", "action": "Waiting",
  "reason": "GangWaitingForMembers", "type": "Normal",
  "regarding": {"kind": "Pod", "namespace": "ml", "name": "llama-train-0", "uid": "p-2"},
  "note": "Waiting for gang members: 2/4 ready",
  "series": {"count": 6, "lastObservedTime": "2026-11-30T05:46:10.500000Z"}
}"#;

#[test]
fn core_v1_event_keeps_the_stable_fields() {
    let [record] = records(CORE_EVENT).try_into().unwrap();
    assert_eq!(record.reason, "UnexpectedAdmissionError");
    assert!(record.known);
    assert_eq!(record.source, Some(Source::Kubelet));
    assert_eq!(record.group, Some(Group::Admission));
    assert_eq!(record.type_, Some(EventType::Warning));
    assert_eq!(record.regarding.kind.as_deref(), Some("Pod"));
    assert_eq!(record.regarding.name.as_deref(), Some("gpu-pod"));
    assert_eq!(record.regarding.uid.as_deref(), Some("p-1"));
    assert_eq!(record.regarding.field_path, None, "empty strings become None");
    // source.component / source.host fill the reporting fields of core/v1 events.
    assert_eq!(record.reporting_controller.as_deref(), Some("kubelet"));
    assert_eq!(record.reporting_instance.as_deref(), Some("node6"));
    assert_eq!(record.count, 3);
    // The oldest of firstTimestamp and creationTimestamp; the newest of lastTimestamp.
    assert_eq!(record.first_timestamp.unwrap().to_rfc3339(), "2026-11-30T05:57:19+00:00");
    assert_eq!(record.last_timestamp.unwrap().to_rfc3339(), "2026-11-30T05:59:00+00:00");
    assert_eq!(record.event_name.as_deref(), Some("gpu-pod.17f0"));
    assert_eq!(record.event_namespace.as_deref(), Some("default"));
    assert_eq!(record.event_uid.as_deref(), Some("e-1"));
    assert_eq!(record.event_api_version.as_deref(), Some("v1"));
    assert!(record.note.starts_with("Allocate failed due to rpc error"));
    assert!(record.flags.is_empty());
    // The kubelet admission grammar reads the note.
    assert_eq!(record.details.as_ref().map(|d| d.kind()), Some("unexpectedAdmission"));
}

#[test]
fn events_k8s_io_event_uses_series_and_event_time() {
    let [record] = records(EVENTS_EVENT).try_into().unwrap();
    assert_eq!(record.count, 6, "series.count wins");
    assert_eq!(record.first_timestamp.unwrap().to_rfc3339(), "2026-11-30T05:40:03+00:00");
    assert_eq!(record.last_timestamp.unwrap().to_rfc3339(), "2026-11-30T05:46:10.500+00:00");
    assert_eq!(record.action.as_deref(), Some("Waiting"));
    assert_eq!(record.reporting_controller.as_deref(), Some("GangScheduler"));
    assert_eq!(record.reporting_instance.as_deref(), Some("GangScheduler-op-0"));
    assert_eq!(record.event_api_version.as_deref(), Some("events.k8s.io/v1"));
    assert_eq!(record.source, Some(Source::TensorFusion));
    assert_eq!(record.group, Some(Group::Gang));
    assert_eq!(record.reason.info().unwrap().reporting_controllers, ["GangScheduler"]);
}

#[test]
fn count_defaults_to_one_and_timestamps_come_from_event_time_alone() {
    let input = r#"{"apiVersion":"events.k8s.io/v1","kind":"Event","reason":"Scheduled","type":"Normal",
        "reportingController":"default-scheduler","eventTime":"2026-11-30T05:43:30.250000Z",
        "regarding":{"kind":"Pod","name":"p"},"note":"Successfully assigned ns/p to node-a"}"#;
    let [record] = records(input).try_into().unwrap();
    assert_eq!(record.count, 1);
    assert_eq!(record.first_timestamp, record.last_timestamp);
    assert_eq!(record.last_timestamp.unwrap().timestamp_subsec_micros(), 250_000);
    let core = r#"{"apiVersion":"v1","kind":"Event","reason":"Pulled","count":0,"involvedObject":{}}"#;
    let [record] = records(core).try_into().unwrap();
    assert_eq!(record.count, 1, "count 0 still means one occurrence");
    assert_eq!(record.first_timestamp, None);
}

#[test]
fn reporting_fields_win_over_source_on_core_v1() {
    let input = r#"{"apiVersion":"v1","kind":"Event","reason":"FailedScheduling","type":"Warning",
        "reportingComponent":"karpenter","reportingInstance":"karpenter-0",
        "source":{"component":"default-scheduler","host":"h"},"involvedObject":{"kind":"Pod","name":"p"}}"#;
    let [record] = records(input).try_into().unwrap();
    assert_eq!(record.reporting_controller.as_deref(), Some("karpenter"));
    assert_eq!(record.reporting_instance.as_deref(), Some("karpenter-0"));
    assert_eq!(record.reason, Reason::from(KarpenterReason::FailedScheduling));
}

#[test]
fn list_of_both_apis_as_json_and_yaml_gives_the_same_records() {
    let json = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{CORE_EVENT},{EVENTS_EVENT}],"metadata":{{"resourceVersion":""}}}}"#
    );
    let from_json = records(&json);
    assert_eq!(from_json.len(), 2);
    assert_eq!(Decoder::from_str(&json).format(), Format::Json);

    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let yaml = serde_yaml_ng::to_string(&value).unwrap();
    assert_eq!(Decoder::from_str(&yaml).format(), Format::Yaml);
    assert_eq!(records(&yaml), from_json);
}

#[test]
fn event_list_items_inherit_the_api_of_the_list() {
    // An API server EventList carries apiVersion only on the list.
    let input = r#"{"kind":"EventList","apiVersion":"events.k8s.io/v1","items":[
        {"reason":"Nominated","type":"Normal","reportingController":"karpenter","regarding":{"kind":"Pod","name":"p"},
         "note":"Pod should schedule on: nodeclaim/gpu-ljvhl"}]}"#;
    let [record] = records(input).try_into().unwrap();
    assert_eq!(record.event_api_version.as_deref(), Some("events.k8s.io/v1"));
    assert_eq!(record.note, "Pod should schedule on: nodeclaim/gpu-ljvhl");
    assert_eq!(record.source, Some(Source::Karpenter));
}

#[test]
fn multi_document_yaml_and_json_streams_and_watch_envelopes() {
    let yaml = "apiVersion: v1\nkind: Event\nreason: Pulled\ntype: Normal\ninvolvedObject: {kind: Pod, name: a}\n---\n\
                apiVersion: v1\nkind: Event\nreason: Created\ntype: Normal\ninvolvedObject: {kind: Pod, name: b}\n---\n";
    let names: Vec<_> = records(yaml).into_iter().map(|r| r.regarding.name.unwrap()).collect();
    assert_eq!(names, ["a", "b"]);

    let stream = format!(
        "{CORE_EVENT}\n{{\"type\":\"ADDED\",\"object\":{EVENTS_EVENT}}}\n{{\"type\":\"BOOKMARK\",\"object\":{{\"kind\":\"Event\",\"metadata\":{{\"resourceVersion\":\"12\"}}}}}}\n[{CORE_EVENT}]"
    );
    let got = records(&stream);
    assert_eq!(got.len(), 3, "bookmarks carry no event");
    assert_eq!(got[1].reason, "GangWaitingForMembers");
}

#[test]
fn unknown_reasons_and_types_survive() {
    let input = r#"{"apiVersion":"v1","kind":"Event","reason":"XidCriticalError","type":"Critical",
        "involvedObject":{"kind":"Node","name":"node-c"},"message":"Xid=79"}"#;
    let [record] = records(input).try_into().unwrap();
    assert!(!record.known);
    assert_eq!(record.reason.as_str(), "XidCriticalError");
    assert_eq!(record.type_.as_ref().unwrap().as_str(), "Critical");
    assert_eq!((record.group, record.source), (None, None));
    assert!(record.flags.is_empty(), "no expectation, so no mismatch");
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["reason"], "XidCriticalError");
    assert_eq!(json["type"], "Critical");
    assert_eq!(json["known"], false);
    let back: EventRecord = serde_json::from_value(json).unwrap();
    assert_eq!(back, record);
}

#[test]
fn type_mismatch_is_flagged() {
    let input = r#"{"apiVersion":"v1","kind":"Event","reason":"FailedScheduling","type":"Normal",
        "source":{"component":"default-scheduler"},"involvedObject":{"kind":"Pod","name":"p"}}"#;
    let [record] = records(input).try_into().unwrap();
    assert_eq!(record.reason, Reason::from(SchedulerReason::FailedScheduling));
    assert_eq!(record.flags, [Flag::TypeMismatch]);
    assert_eq!(serde_json::to_value(&record).unwrap()["flags"], serde_json::json!(["typeMismatch"]));
    let good = input.replace("\"Normal\"", "\"Warning\"");
    assert!(records(&good)[0].flags.is_empty());
}

#[test]
fn combined_from_similar_events_prefix_is_removed_and_flagged() {
    let input = r#"{"apiVersion":"v1","kind":"Event","reason":"FailedCreatePodSandBox","type":"Warning",
        "involvedObject":{"kind":"Pod","name":"cuda-vectoradd-kata"},
        "message":"(combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = x"}"#;
    let [record] = records(input).try_into().unwrap();
    assert_eq!(record.note, "Failed to create pod sandbox: rpc error: code = Unknown desc = x");
    assert!(record.has_flag(Flag::CombinedFromSimilarEvents));
}

#[test]
fn a_bad_item_is_reported_and_the_others_go_on() {
    let input = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{CORE_EVENT},
        {{"apiVersion":"v1","kind":"Event","metadata":{{"name":"bad.1"}},"count":"many","involvedObject":{{}}}},
        {{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"not-an-event"}}}},
        42,
        {{"apiVersion":"apps/v1","kind":"Event"}},
        {EVENTS_EVENT}]}}"#
    );
    let results = decode(&input);
    assert_eq!(results.len(), 6);
    assert!(results[0].is_ok() && results[5].is_ok());
    let messages: Vec<String> = results[1..5].iter().map(|r| r.as_ref().unwrap_err().to_string()).collect();
    assert!(messages[0].starts_with("document 1, items[1] (name \"bad.1\"): count:"), "{}", messages[0]);
    assert!(messages[0].contains("expected i32"), "{}", messages[0]);
    assert!(messages[1].contains("kind \"Pod\" is not an Event"), "{}", messages[1]);
    assert!(messages[2].contains("items[3]") && messages[2].contains("found a number"), "{}", messages[2]);
    assert!(messages[3].contains("apiVersion \"apps/v1\""), "{}", messages[3]);
    assert!(results[1..5].iter().all(|r| !r.as_ref().unwrap_err().is_fatal()));
}

#[test]
fn malformed_json_reports_line_and_column_and_stops() {
    let input = format!("{CORE_EVENT}\n{{\"apiVersion\": \"v1\",\n  \"kind\": Event}}\n{CORE_EVENT}");
    let results = decode(&input);
    assert_eq!(results.len(), 2, "the error ends decoding");
    assert!(results[0].is_ok());
    match results[1].as_ref().unwrap_err() {
        DecodeError::Json { line, column, message } => {
            assert_eq!((*line, *column), (11, 11), "the `E` of `Event` on line 11");
            assert!(message.contains("expected value"), "{message}");
        }
        other => panic!("expected a JSON error, got {other:?}"),
    }
    let truncated = &CORE_EVENT[..CORE_EVENT.len() / 2];
    let err = decode(truncated).pop().unwrap().unwrap_err();
    assert!(err.is_fatal());
    assert!(err.to_string().starts_with("malformed JSON at line "), "{err}");
}

#[test]
fn malformed_yaml_reports_line_and_column() {
    let input = "apiVersion: v1\nkind: Event\nreason: [unclosed\ntype: Normal\n";
    let err = decode(input).pop().unwrap().unwrap_err();
    match &err {
        DecodeError::Yaml { line, column, .. } => {
            assert!(line.is_some() && column.is_some(), "{err}")
        }
        other => panic!("expected a YAML error, got {other:?}"),
    }
    assert!(err.to_string().contains("at line"), "{err}");
}

#[test]
fn invalid_utf8_and_empty_input() {
    let err = Decoder::from_slice(b"reason: \xff\xfe").next().unwrap().unwrap_err();
    assert!(matches!(err, DecodeError::NotUtf8(_)), "{err}");
    assert!(Decoder::from_str("  \n\t ").next().is_none());
    assert_eq!(Decoder::from_str("").format(), Format::Empty);
    let json_bad_utf8 = Decoder::from_slice(b"{\"reason\": \"\xff\"}").next().unwrap().unwrap_err();
    assert!(json_bad_utf8.is_fatal(), "{json_bad_utf8}");
}

#[test]
fn a_document_that_is_not_an_event_is_an_item_error() {
    let results = decode("just some text\n");
    assert_eq!(results.len(), 1);
    let err = results[0].as_ref().unwrap_err();
    assert!(!err.is_fatal());
    // Prose is read as text (not as a YAML string) and reported with its lines.
    assert_eq!(err.to_string(), "line 1: text, not events");
}

#[test]
fn the_reader_api_reads_the_same_as_the_str_api() {
    let json = format!("{CORE_EVENT}{EVENTS_EVENT}");
    let from_reader: Vec<_> = Decoder::from_reader(json.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(from_reader, records(&json));
}

#[test]
fn objects_that_are_not_events_are_reported_not_invented() {
    for input in [r#"{"foo":1}"#, "{}"] {
        let err = decode(input).pop().unwrap().unwrap_err();
        assert!(err.to_string().contains("not an Event"), "{input}: {err}");
    }
}

#[test]
fn the_api_version_is_kept_as_received_and_deleted_watch_events_are_flagged() {
    let beta = EVENTS_EVENT.replace("events.k8s.io/v1", "events.k8s.io/v1beta1");
    let [record] = records(&beta).try_into().unwrap();
    assert_eq!(record.event_api_version.as_deref(), Some("events.k8s.io/v1beta1"));
    assert_eq!(record.count, 6);
    let deleted = format!(r#"{{"type":"DELETED","object":{CORE_EVENT}}}"#);
    let [record] = records(&deleted).try_into().unwrap();
    assert_eq!(record.flags, [Flag::Deleted]);
}

#[test]
fn shared_reason_strings_use_the_object_kind_and_type_when_the_reporter_does_not_decide() {
    // Kueue's Started is on a Job; the kubelet's on a Pod.
    let job = r#"{"apiVersion":"v1","kind":"Event","reason":"Started","type":"Normal",
        "involvedObject":{"kind":"Job","name":"train"},"message":"Admitted by clusterQueue cq"}"#;
    assert_eq!(records(job)[0].source, Some(Source::Kueue));
    let pod = job.replace("\"Job\"", "\"Pod\"");
    assert_eq!(records(&pod)[0].source, Some(Source::Kubelet));
}

#[test]
fn records_written_as_json_lines_read_back_unchanged() {
    let originals = records(&format!("{CORE_EVENT}{EVENTS_EVENT}"));
    let lines: String = originals.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
    assert!(lines.contains("\"lastTimestamp\":\"2026-11-30T05:46:10.500000Z\""), "{lines}");
    assert!(lines.contains("\"firstTimestamp\":\"2026-11-30T05:57:19.000000Z\""), "{lines}");
    assert_eq!(records(&lines), originals);
}

#[test]
fn a_list_is_streamed_item_by_item_so_a_cut_keeps_what_came_before() {
    let list = format!(
        r#"{{"apiVersion":"v1","items":[{CORE_EVENT},{EVENTS_EVENT},{CORE_EVENT}],"kind":"List","metadata":{{}}}}"#
    );
    let cut = &list[..list.len() - CORE_EVENT.len() / 2 - 40];
    let results = decode(cut);
    assert_eq!(results.len(), 3, "two whole items, then the error");
    assert!(results[0].is_ok() && results[1].is_ok());
    let err = results[2].as_ref().unwrap_err();
    assert!(err.is_fatal() && err.to_string().contains("EOF"), "{err}");
}

#[test]
fn a_syntax_error_inside_one_item_spares_the_others() {
    let bad = CORE_EVENT.replace(r#""count": 3"#, r#""count": three"#);
    let list =
        format!("{{\"apiVersion\":\"v1\",\"items\":[\n{CORE_EVENT},\n{bad},\n{EVENTS_EVENT}],\"kind\":\"List\"}}");
    let results = decode(&list);
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    let err = results[1].as_ref().unwrap_err();
    assert!(!err.is_fatal());
    // The bad item starts on line 11; `count` is on its 8th line.
    assert!(err.to_string().contains("malformed JSON at line 18"), "{err}");
}

#[test]
fn an_oversized_item_is_skipped_and_reported() {
    let huge_note = "x".repeat(33 * 1024 * 1024);
    let big = format!(
        r#"{{"apiVersion":"v1","kind":"Event","reason":"Failed","involvedObject":{{"kind":"Pod","name":"a"}},"message":"{huge_note}"}}"#
    );
    let list = format!(r#"{{"apiVersion":"v1","kind":"List","items":[{big},{CORE_EVENT}]}}"#);
    let results = decode(&list);
    assert_eq!(results.len(), 2);
    let err = results[0].as_ref().unwrap_err();
    assert!(!err.is_fatal() && err.to_string().contains("larger than"), "{err}");
    assert!(results[1].is_ok());
}

#[test]
fn many_items_stream_through() {
    let items: Vec<&str> = std::iter::repeat_n(EVENTS_EVENT, 5000).collect();
    let list = format!(r#"{{"apiVersion":"v1","items":[{}],"kind":"List"}}"#, items.join(","));
    let mut count = 0;
    for record in Decoder::from_reader(list.as_bytes()) {
        assert_eq!(record.unwrap().count, 6);
        count += 1;
    }
    assert_eq!(count, 5000);
}

#[test]
fn notes_cut_at_the_note_limit_are_flagged_truncated() {
    let event = |note: &str| {
        format!(
            r#"{{"apiVersion":"v1","kind":"Event","reason":"FailedScheduling","type":"Warning","source":{{"component":"default-scheduler"}},"involvedObject":{{"kind":"Pod","name":"p"}},"message":{}}}"#,
            serde_json::to_string(note).unwrap()
        )
    };
    let body = "0/50 nodes are available: ".to_owned() + &"1 node(s) had untolerated taint {k: v}, ".repeat(30);
    let exact = format!("{} ...", &body[..1020]);
    assert_eq!(exact.len(), 1024);
    assert!(records(&event(&exact))[0].has_flag(Flag::Truncated));
    // A multi-byte character cut in half becomes U+FFFD: two bytes longer.
    let with_replacement = format!("{}\u{FFFD} ...", &body[..1019]);
    assert_eq!(with_replacement.len(), 1026);
    assert!(records(&event(&with_replacement))[0].has_flag(Flag::Truncated));
    assert!(!records(&event("0/3 nodes are available: 3 Insufficient cpu ..."))[0].has_flag(Flag::Truncated));
}

#[test]
fn a_pod_object_or_its_status_reads_as_what_the_status_says() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: infer-0\n  namespace: ml\n  uid: 5f0c\nstatus:\n  phase: Running\n  startTime: \"2026-11-30T05:00:00Z\"\n  initContainerStatuses:\n  - name: fetch\n    state: {terminated: {reason: Completed, finishedAt: \"2026-11-30T05:01:00Z\"}}\n  containerStatuses:\n  - name: server\n    lastState:\n      terminated: {exitCode: 137, reason: OOMKilled, finishedAt: \"2026-11-30T05:55:00Z\"}\n    state:\n      waiting: {reason: CrashLoopBackOff}\n";
    let [record] = records(pod).try_into().unwrap();
    assert_eq!(record.reason, "OOMKilled", "an OOM kill outranks the back-off it causes");
    assert_eq!(record.regarding.field_path.as_deref(), Some("spec.containers{server}"));
    assert_eq!(
        (record.regarding.namespace.as_deref(), record.regarding.name.as_deref()),
        (Some("ml"), Some("infer-0"))
    );
    assert_eq!(record.regarding.uid.as_deref(), Some("5f0c"));
    assert_eq!(
        record.last_timestamp.unwrap().to_rfc3339(),
        "2026-11-30T05:55:00+00:00",
        "the newest time in the status"
    );
    assert!(record.has_flag(Flag::FromStatus));

    // The bare `status:` of case 043: the kubelet's admission failure, its message unfolded.
    let text = fixture!("043-kuberay-cce-unexpectedadmission-pod-status-yaml.txt");
    let body = &text[text.find("\n\n").unwrap() + 2..text.find("# expected:").unwrap()];
    let [status] = records(body).try_into().unwrap();
    assert_eq!(status.reason, "UnexpectedAdmissionError");
    assert!(status.known && status.has_flag(Flag::FromStatus));
    assert!(status.note.starts_with(
        "Pod Allocate failed due to pod d65f09ad-cca3-4631-a0a3-d5ba850f8a69 container wait-gcs-ready unable"
    ));
    assert_eq!(status.last_timestamp.unwrap().to_rfc3339(), "2023-09-12T05:46:46+00:00");

    // A healthy Pod says nothing: no record, no error.
    let healthy = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"ok\"},\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"a\",\"state\":{\"running\":{}}}]}}";
    assert!(decode(healthy).is_empty());
    // Another kind is still not an Event.
    assert!(decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"}}")[0].is_err());
}

/// What a decoder yields, comparable: records, or errors as text.
type Outcome = Vec<Result<EventRecord, String>>;

fn outcome(items: impl Iterator<Item = Result<EventRecord, DecodeError>>) -> Outcome {
    items.map(|item| item.map_err(|err| err.to_string())).collect()
}

fn sequential_and_parallel(input: &str) -> (Outcome, Outcome) {
    let sequential = outcome(Decoder::from_str(input));
    let parallel = outcome(Decoder::from_reader(std::io::Cursor::new(input.as_bytes().to_vec())).parallel(3));
    (sequential, parallel)
}

/// A List of `n` items: both APIs, a wrong-typed item, a watch envelope, an array element
/// that is not an object, a syntax error inside one item.
fn mixed_list(n: usize) -> String {
    let mut items = Vec::new();
    for i in 0..n {
        items.push(match i % 7 {
            0 => CORE_EVENT.replace("gpu-pod", &format!("gpu-pod-{i}")),
            1 => EVENTS_EVENT.replace("llama-train-0", &format!("llama-{i}")),
            2 => r#"{"apiVersion":"v1","kind":"Event","reason":"BackOff","count":"many","involvedObject":{}}"#.to_owned(),
            3 => format!(r#"{{"type":"ADDED","object":{}}}"#, CORE_EVENT),
            4 => "42".to_owned(),
            5 => r#"{"apiVersion":"v1","kind":"Event","reason":"Pulled","count":1x,"involvedObject":{}}"#.to_owned(),
            _ => format!(r#"{{"apiVersion":"v1","kind":"Event","reason":"Pulled","message":"pulled \"img-{i}\"","involvedObject":{{"kind":"Pod","name":"p"}}}}"#),
        });
    }
    format!("{{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n{}\n],\"metadata\":{{}}}}", items.join(",\n"))
}

#[test]
fn the_parallel_decoder_yields_what_the_sequential_one_does_in_order() {
    // Several batches (512 items each), errors among them.
    let (sequential, parallel) = sequential_and_parallel(&mixed_list(3000));
    assert_eq!(sequential.len(), 3000);
    assert_eq!(
        sequential.iter().filter(|r| r.is_err()).count(),
        (0..3000).filter(|i| [2, 4, 5].contains(&(i % 7))).count()
    );
    assert_eq!(sequential, parallel);

    // A stream of top-level objects and envelopes, a BOOKMARK, then a syntax error: what came
    // before, the error, and nothing after it.
    let stream = format!(
        "{CORE_EVENT}\n{EVENTS_EVENT}\n{{\"type\":\"BOOKMARK\",\"object\":{{\"kind\":\"Event\"}}}}\n{}\n{{\"reason\": tru}}\n{CORE_EVENT}",
        format_args!(r#"{{"type":"DELETED","object":{}}}"#, EVENTS_EVENT.replace('\n', " "))
    );
    let (sequential, parallel) = sequential_and_parallel(&stream);
    assert_eq!(sequential.len(), 4, "{sequential:?}");
    assert!(sequential[3].as_ref().is_err_and(|e| e.contains("line")), "{:?}", sequential[3]);
    assert_eq!(sequential, parallel);

    // A List cut in the middle.
    let list = mixed_list(1200);
    let (sequential, parallel) = sequential_and_parallel(&list[..list.len() / 2]);
    assert!(sequential.last().unwrap().is_err());
    assert_eq!(sequential, parallel);

    // YAML and text decode on the calling thread, the same.
    let yaml = "apiVersion: v1\nkind: Event\nreason: Pulled\ninvolvedObject: {kind: Pod, name: p}\n";
    let (sequential, parallel) = sequential_and_parallel(yaml);
    assert_eq!(sequential.len(), 1);
    assert_eq!(sequential, parallel);
}

#[test]
fn a_parallel_decoder_dropped_early_stops_its_threads() {
    let list = mixed_list(20_000);
    let mut decoder = Decoder::from_reader(std::io::Cursor::new(list.into_bytes())).parallel(2);
    assert!(decoder.next().unwrap().is_ok());
    drop(decoder);
    // The threads notice at their next hand-over; a second decoder still works (nothing is
    // left holding the input or a lock).
    let again = Decoder::from_reader(std::io::Cursor::new(mixed_list(10).into_bytes())).parallel(2).count();
    assert_eq!(again, 10);
}

/// Found by a new-user review: the blank lines and spaces before the first document were not
/// counted in error positions.
#[test]
fn positions_count_the_blank_lines_before_the_first_document() {
    let errors = decode("\n\n\n\n  {\"apiVersion\": \"v1\" \"kind\": \"Event\"}\n");
    let [Err(DecodeError::Json { line, column, .. })] = errors.as_slice() else { panic!("{errors:?}") };
    assert_eq!((*line, *column), (5, 23));
    let list = format!("\n\n{{\"kind\": \"List\", \"items\": [\n{CORE_EVENT},\n{{\"reason\": tru}}\n]}}\n");
    let errors: Vec<String> = decode(&list).into_iter().filter_map(Result::err).map(|e| e.to_string()).collect();
    let core_lines = CORE_EVENT.lines().count();
    assert!(errors[0].contains(&format!("line {}", 4 + core_lines)), "{errors:?}");
    let errors = decode("\n\n\na: [\n");
    let [Err(DecodeError::Yaml { line, .. })] = errors.as_slice() else { panic!("{errors:?}") };
    assert_eq!(*line, Some(5), "{errors:?}");
}

#[test]
fn a_json_projection_names_its_object_as_kind_slash_name() {
    // `kubectl get events -o json | jq -c '.items[] | {reason, message, namespace: .metadata.namespace,
    // object: "\(.involvedObject.kind | ascii_downcase)/\(.involvedObject.name)"}'`
    let text = r#"{"reason":"FailedScheduling","message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","namespace":"ml","object":"pod/llama-0"}
{"reason":"NodeNotReady","message":"Node is not ready","object":"node/gpu-1"}
"#;
    let records: Vec<EventRecord> = decode(text).into_iter().map(Result::unwrap).collect();
    let refs: Vec<_> = records
        .iter()
        .map(|r| (r.regarding.kind.as_deref(), r.regarding.name.as_deref(), r.regarding.namespace.as_deref()))
        .collect();
    assert_eq!(refs, [(Some("Pod"), Some("llama-0"), Some("ml")), (Some("Node"), Some("gpu-1"), None)]);
}
