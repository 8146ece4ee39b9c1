//! The `gpu-events` binary end to end.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    common::gpu_events_output(args, stdin.unwrap_or("").as_bytes())
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

const SAMPLE: &str = include_str!("../sample/events.yaml");

#[test]
fn explain_without_input_shows_the_bundled_sample() {
    let output = run(&["explain"], None);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = stdout(&output);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("# bundled sample"), "{text}");
    let header = lines.next().unwrap();
    for column in ["LAST SEEN", "TYPE", "REASON", "OBJECT", "GROUP", "MESSAGE"] {
        assert!(header.contains(column), "{header}");
    }
    assert!(text.contains("GangWaitingForMembers") && text.contains("gpupool/pool-a"), "{text}");
    // Sorted by nothing: input order, one line per event.
    let sample_events = SAMPLE.matches("\n  kind: Event").count();
    assert_eq!(text.lines().count(), 2 + sample_events);
}

#[test]
fn explain_json_prints_one_record_per_event_for_json_and_yaml_alike() {
    let sample: serde_json::Value = serde_yaml_ng::from_str(SAMPLE).unwrap();
    let as_json = serde_json::to_string(&sample).unwrap();
    let from_json = run(&["explain", "-", "-o", "jsonl"], Some(&as_json));
    let from_yaml = run(&["explain", "-", "-o", "jsonl"], Some(SAMPLE));
    assert!(from_json.status.success() && from_yaml.status.success());
    let records = json_lines(&from_json);
    assert_eq!(records, json_lines(&from_yaml));
    assert_eq!(records.len(), sample["items"].as_array().unwrap().len());
    let apis: std::collections::BTreeSet<&str> =
        records.iter().map(|r| r["eventApiVersion"].as_str().unwrap()).collect();
    assert_eq!(apis.into_iter().collect::<Vec<_>>(), ["events.k8s.io/v1", "v1"]);
    let unknown: Vec<&str> =
        records.iter().filter(|r| r["known"] == false).map(|r| r["reason"].as_str().unwrap()).collect();
    assert_eq!(unknown, ["XidCriticalError", "CheckpointSaved"]);
    for record in &records {
        for field in [
            "reason",
            "type",
            "known",
            "group",
            "regarding",
            "reportingController",
            "note",
            "count",
            "lastTimestamp",
            "details",
            "flags",
        ] {
            assert!(record.get(field).is_some(), "{field} missing in {record}");
        }
    }
}

#[test]
fn explain_reads_a_file_and_reports_bad_items_with_exit_status_one() {
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("events.json");
    std::fs::write(
        &path,
        r#"{"kind":"List","apiVersion":"v1","items":[
            {"apiVersion":"v1","kind":"Event","reason":"Pulled","type":"Normal","involvedObject":{"kind":"Pod","name":"a"}},
            {"apiVersion":"v1","kind":"Event","reason":"Pulled","count":"x","involvedObject":{"kind":"Pod","name":"b"}}]}"#,
    )
    .unwrap();
    let output = run(&["explain", path.to_str().unwrap(), "-o", "jsonl"], None);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output).len(), 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("items[1]") && stderr.contains("count"), "{stderr}");

    let missing = run(&["explain", dir.join("nope.json").to_str().unwrap()], None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot open"), "missing file is named");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn malformed_input_names_line_and_column() {
    let output = run(&["explain", "-"], Some("{\"kind\": \"List\",\n \"items\": [}"));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("malformed JSON at line 2, column"), "{stderr}");
}

#[test]
fn reasons_json_lists_the_tensorfusion_spec_with_types_and_objects() {
    let output = run(&["reasons", "-o", "json"], None);
    assert!(output.status.success());
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let spec = include_str!("../../../tests/fixtures/spec/tensorfusion-reasons.tsv");
    let mut seen = 0;
    for line in spec.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let matching: Vec<&serde_json::Value> = entries
            .iter()
            .filter(|e| e["reason"] == cells[0] && e["source"] == "tensorfusion" && e["retired"] == false)
            .collect();
        assert!(!matching.is_empty(), "{} missing", cells[0]);
        let types: std::collections::BTreeSet<&str> =
            matching.iter().flat_map(|e| e["types"].as_array().unwrap()).map(|t| t.as_str().unwrap()).collect();
        let want: std::collections::BTreeSet<&str> =
            if cells[1] == "Normal or Warning" { ["Normal", "Warning"].into() } else { [cells[1]].into() };
        assert_eq!(types, want, "{}", cells[0]);
        for entry in &matching {
            assert_eq!(entry["objects"], serde_json::json!([cells[2]]), "{}", cells[0]);
            for key in ["group", "source", "reportingControllers", "actions", "retired", "meaning"] {
                assert!(entry.get(key).is_some(), "{key}");
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 42);
}

#[test]
fn reasons_markdown_is_the_committed_docs_page() {
    let output = run(&["reasons", "-o", "markdown"], None);
    let committed = include_str!("../../../docs/reasons.md");
    assert!(
        stdout(&output) == committed,
        "docs/reasons.md is stale: cargo run -p gpu-events-cli -- reasons -o markdown > docs/reasons.md"
    );
}

#[test]
fn schema_describes_the_record_contract() {
    let output = run(&["schema"], None);
    let schema: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let properties = schema["properties"].as_object().unwrap();
    for field in [
        "reason",
        "type",
        "known",
        "group",
        "regarding",
        "related",
        "action",
        "reportingController",
        "reportingInstance",
        "note",
        "count",
        "firstTimestamp",
        "lastTimestamp",
        "eventName",
        "eventNamespace",
        "eventUid",
        "details",
        "flags",
    ] {
        assert!(properties.contains_key(field), "schema lacks {field}");
    }
    assert_eq!(schema["properties"]["reason"]["$ref"], "#/$defs/ReasonName");
    assert_eq!(schema["$defs"]["ReasonName"]["type"], "string", "reasons are open strings, never an enum");
}

#[test]
fn a_pasted_describe_output_reads_from_stdin() {
    let paste = include_str!("../../../tests/fixtures/cases/047-xpk-kueue-admission-pending-tpu.txt");
    let output = run(&["explain", "-", "-o", "jsonl", "--now", "2026-11-30T06:00:00Z"], Some(paste));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records = json_lines(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["reason"], "Pending");
    assert_eq!(records[0]["count"], 3);
    assert_eq!(records[0]["reportingController"], "kueue-admission");
    assert_eq!(records[0]["lastTimestamp"], "2026-11-30T05:55:37.000000Z", "4m23s before --now");
    // The paste names no kind; Kueue's `Pending` is only ever about a Workload.
    assert_eq!(records[0]["flags"], serde_json::json!(["approximateTime", "inferredKind"]));
    assert_eq!(records[0]["regarding"]["kind"], "Workload");
}

#[test]
fn sample_flag_table_sorting_and_namespaces() {
    let output = run(&["explain", "--sample"], Some("not used"));
    assert!(output.status.success());
    let text = stdout(&output);
    let header = text.lines().nth(1).unwrap();
    assert!(header.starts_with("NAMESPACE"), "the sample spans namespaces: {header}");
    // Oldest first: the 3h-old defrag event leads, the newest event closes the table.
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert!(rows[0].contains("DefragFinished"), "{}", rows[0]);
    assert!(rows.last().unwrap().contains("CheckpointSaved"), "{text}");

    let empty = run(&["explain", "-"], Some("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[]}"));
    assert!(empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no events found"));
}

#[test]
fn control_characters_never_reach_the_table() {
    let input = r#"{"apiVersion":"v1","kind":"Event","reason":"Bad\nReason","type":"Warning","involvedObject":{"kind":"Pod","name":"a\u001b[31mred"},"message":"line1\nline2\ttab"}"#;
    let output = run(&["explain", "-"], Some(input));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(!text.contains('\u{1b}') && !text.contains('\t'));
}

#[test]
fn diagnose_and_summary_of_the_sample() {
    let output = run(&["explain", "--sample", "--diagnose", "-o", "jsonl"], None);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let diagnoses = json_lines(&output);
    let gpu_pod = diagnoses.iter().find(|d| d["object"]["name"] == "gpu-pod").unwrap();
    assert_eq!(gpu_pod["cause"], "device-plugin-unavailable");
    assert_eq!(gpu_pod["phase"], "Failed");
    assert!(gpu_pod["evidence"][0]["reason"] == "UnexpectedAdmissionError");
    assert!(gpu_pod["nextSteps"].as_array().unwrap().iter().any(|s| s.as_str().unwrap().contains("gpu-pod")));
    let node = diagnoses.iter().find(|d| d["object"]["name"] == "node-c").unwrap();
    assert!(node["nextSteps"].as_array().unwrap().iter().all(|s| !s.as_str().unwrap().contains("-n default")));

    let table = stdout(&run(&["explain", "--sample", "--diagnose"], None));
    assert!(table.contains("pod/gpu-pod -n default: Failed — device-plugin-unavailable"), "{table}");

    let summary = run(&["explain", "--sample", "--summary", "-o", "jsonl"], None);
    let [report]: [serde_json::Value; 1] = json_lines(&summary).try_into().unwrap();
    assert_eq!(report["records"], 26);
    assert_eq!(report["byReason"]["FailedScheduling"], 3);
    assert_eq!(report["byCause"]["device-plugin-unavailable"], 1, "gpu-pod");
    assert_eq!(report["byCause"]["cold-plug-failed"], 1, "the kata sandbox");

    // A JSON file is summarized on the decoding threads: the same report.
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("records.jsonl");
    std::fs::write(&path, &run(&["explain", "--sample", "-o", "jsonl"], None).stdout).unwrap();
    let from_file = run(&["explain", path.to_str().unwrap(), "--summary", "-o", "jsonl"], None);
    assert!(from_file.status.success(), "{}", String::from_utf8_lossy(&from_file.stderr));
    assert_eq!(json_lines(&from_file), vec![report]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_is_one_list_document_as_kubectl_prints_and_reads_back() {
    let list = run(&["explain", "--sample", "-o", "json"], None);
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    let value: serde_json::Value = serde_json::from_slice(&list.stdout).expect("one JSON document");
    assert_eq!((value["apiVersion"].as_str(), value["kind"].as_str()), (Some("v1"), Some("List")));
    let lines = json_lines(&run(&["explain", "--sample", "-o", "jsonl"], None));
    assert_eq!(lines.len(), 26);
    // The table's order (oldest first) is the List's; JSON Lines keep the input's order.
    let mut items = value["items"].as_array().unwrap().clone();
    let key = |r: &serde_json::Value| r.to_string();
    items.sort_by_key(key);
    let mut sorted = lines.clone();
    sorted.sort_by_key(key);
    assert_eq!(items, sorted);
    let back = json_lines(&run(&["explain", "-", "-o", "jsonl"], Some(&stdout(&list))));
    let mut back_sorted = back.clone();
    back_sorted.sort_by_key(key);
    assert_eq!(back_sorted, sorted, "a List of records reads back as the same records");

    let diagnoses: serde_json::Value =
        serde_json::from_slice(&run(&["explain", "--sample", "--diagnose", "-o", "json"], None).stdout).unwrap();
    assert_eq!(diagnoses["kind"], "List");
    assert!(diagnoses["items"].as_array().unwrap().iter().any(|d| d["object"]["name"] == "gpu-pod"));
}

#[test]
fn wide_name_and_no_headers_follow_kubectl() {
    let wide = stdout(&run(&["explain", "--sample", "-o", "wide", "--no-headers"], None));
    let table = stdout(&run(&["explain", "--sample", "-o", "wide"], None));
    let header = table.lines().find(|l| !l.starts_with('#')).unwrap();
    let columns: Vec<&str> = header.split("   ").map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(
        columns,
        ["NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "GROUP", "MESSAGE", "SOURCE", "FIRST SEEN", "COUNT"]
    );
    assert_eq!(wide.lines().count(), 26, "no header, no comment line: {wide}");
    assert!(!wide.contains("LAST SEEN") && !wide.starts_with('#'));
    // COUNT is its own column in wide, not an `(xN)` suffix of the message.
    assert!(!wide.contains("(x"), "{wide}");

    let names = stdout(&run(&["explain", "--sample", "-o", "name"], None));
    assert!(!names.is_empty());
    for line in names.lines() {
        assert!(line.starts_with("event/") || line.starts_with("event.events.k8s.io/"), "{line}");
    }
    let objects = stdout(&run(&["explain", "--sample", "--diagnose", "-o", "name"], None));
    assert!(objects.lines().any(|l| l == "pod/gpu-pod"), "{objects}");

    let refused = run(&["explain", "--sample", "--summary", "-o", "name"], None);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("-o name"));
}

#[test]
fn yaml_output_reads_back_as_the_same_records() {
    let yaml = stdout(&run(&["explain", "--sample", "-o", "yaml"], None));
    assert!(yaml.starts_with("apiVersion: v1\nkind: List\n"), "{}", &yaml[..80]);
    let json = json_lines(&run(&["explain", "--sample", "-o", "jsonl"], None));
    let back = json_lines(&run(&["explain", "-", "-o", "jsonl"], Some(&yaml)));
    assert_eq!(back, json, "records written as YAML read back unchanged");
}

#[test]
fn a_pasted_events_section_without_its_header_reads_as_an_unnamed_pod() {
    let paste = "Events:\n Warning FailedScheduling  40s (x2 over 40s)  default-scheduler  0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.\n";
    let output = run(&["explain", "-", "--diagnose"], Some(paste));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = stdout(&output);
    assert!(text.starts_with("pod (not named in the input): Pending — insufficient-gpu"), "{text}");
    assert!(!text.contains("unknown/") && !text.contains("<unknown>:"), "{text}");
    assert!(text.contains("kubectl get pod NAME -o jsonpath="), "{text}");
}

#[test]
fn a_pasted_container_state_shows_as_status_not_as_an_age() {
    let paste = "Name:         web-0\nNamespace:    ml\nContainers:\n  main:\n    State:          Waiting\n      Reason:       ImagePullBackOff\nEvents:       <none>\n";
    let text = stdout(&run(&["explain", "-", "--diagnose"], Some(paste)));
    assert!(text.contains("    status     Warning  ImagePullBackOff"), "{text}");
    assert!(text.contains("container main status: ImagePullBackOff"), "{text}");
}

/// `explain` on hostile files (generated here, never committed): a clear message and exit
/// status 1, or the records it could read.
#[test]
fn explain_on_hostile_input_says_what_went_wrong() {
    let dir = std::env::temp_dir().join(format!("gpu-events-cli-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = r#"{"apiVersion":"v1","kind":"Event","reason":"Pulled","type":"Normal","involvedObject":{"kind":"Pod","name":"a"},"message":"ok"}"#;
    let explain = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let output = run(&["explain", path.to_str().unwrap(), "-o", "jsonl"], None);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output, stderr)
    };

    // A 40 MB note in a List item: skipped with its position, the next item printed.
    let huge = format!(
        r#"{{"kind":"List","apiVersion":"v1","items":[{{"apiVersion":"v1","kind":"Event","reason":"X","message":"{}"}},{good}]}}"#,
        "a".repeat(40 * 1024 * 1024)
    );
    let (output, stderr) = explain("huge.json", huge.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output).len(), 1);
    assert!(
        stderr.contains("warning: skipped: document 1, items[0]: item larger than 33554432 bytes skipped"),
        "{stderr}"
    );

    // 100 000 nested arrays; a cut stream; invalid UTF-8 in YAML; YAML nested past the limit.
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let (output, stderr) = explain("nested.json", nested.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("items[0]: malformed JSON") && stderr.contains("recursion limit"), "{stderr}");
    let cut = format!("[{good},\n{}", &good[..40]);
    let (output, stderr) = explain("cut.json", cut.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output).len(), 1);
    assert!(stderr.contains("error: malformed JSON at line 2, column 41: EOF while parsing a value"), "{stderr}");
    let (output, stderr) = explain("latin1.yaml", b"apiVersion: v1\nkind: Event\nreason: X\nmessage: caf\xE9\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("error: input is not UTF-8 text: invalid utf-8 sequence of 1 bytes from index 49"),
        "{stderr}"
    );
    let deep = format!("reason: X\nnote: {}", "[".repeat(100_000));
    let (output, stderr) = explain("deep.yaml", deep.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("error: malformed YAML at line 2, column 135: recursion limit exceeded"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn completions_and_man_page_come_from_the_clap_definitions() {
    for shell in ["bash", "zsh", "fish"] {
        let output = run(&["completions", shell], None);
        assert!(output.status.success(), "{shell}: {}", String::from_utf8_lossy(&output.stderr));
        let script = stdout(&output);
        for word in ["explain", "export", "diagnose", "kubeconfig", "request-timeout", "color"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let man = stdout(&run(&["man"], None));
    assert!(man.starts_with(".ie") && man.contains(".TH gpu-events 1"), "{}", &man[..man.len().min(200)]);
    assert!(man.contains("explain") && man.contains("completions"), "the man page lists the subcommands");
    // Every page the SUBCOMMANDS section names can be had, and explain's documents its flags.
    let named: Vec<&str> =
        man.split("gpu\\-events\\-").skip(1).filter_map(|rest| rest.split_once("(1)")).map(|(n, _)| n).collect();
    assert!(named.len() >= 6 && named.contains(&"explain"), "{named:?}");
    for name in named {
        let output = run(&["man", name], None);
        assert!(output.status.success(), "man {name}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout(&output).contains(&format!(".TH gpu-events-{name} 1")), "man {name}");
    }
    let explain = stdout(&run(&["man", "explain"], None));
    for flag in ["diagnose", "html", "redact", "no\\-headers"] {
        assert!(explain.contains(flag), "explain's page lacks {flag}");
    }
    assert_eq!(run(&["man", "nope"], None).status.code(), Some(2));
}

#[test]
fn run_as_the_kubectl_plugin_its_usage_says_kubectl_gpu_events() {
    let dir = std::env::temp_dir().join(format!("gpu-events-plugin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plugin = dir.join("kubectl-gpu_events");
    let _ = std::fs::remove_file(&plugin);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gpu-events"), &plugin).unwrap();
    let output = Command::new(&plugin).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("Usage: kubectl gpu-events [OPTIONS] <COMMAND>"), "{help}");
    let output = Command::new(&plugin).args(["explain", "--no-such-flag"]).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("Usage: kubectl gpu-events explain"));
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-events")).arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("Usage: gpu-events [OPTIONS] <COMMAND>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn color_flag_and_no_color() {
    // `--color always` colours even into a pipe; `never` and the default into a pipe do not.
    let always = stdout(&run(&["explain", "--sample", "--color", "always"], None));
    assert!(always.contains("\x1b["), "coloured: {always}");
    let never = stdout(&run(&["explain", "--sample", "--color", "never"], None));
    assert!(!never.contains('\x1b'));
    let auto = stdout(&run(&["explain", "--sample"], None));
    assert!(!auto.contains('\x1b'), "a pipe is not a terminal");
    let bad = run(&["explain", "--sample", "--color", "sometimes"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("[possible values: auto, always, never]"));
}

/// `script` (util-linux) gives the command a terminal for stdin, as a person typing it has.
#[test]
fn explain_on_a_terminal_with_nothing_piped_prints_a_usage_hint() {
    if Command::new("script").arg("--version").output().is_err() {
        panic!("this test needs `script` from util-linux (Debian: bsdutils) to give the command a terminal");
    }
    let command = format!("{} explain", env!("CARGO_BIN_EXE_gpu-events"));
    let output = Command::new("script").args(["-qec", &command, "/dev/null"]).stdin(Stdio::null()).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.contains("nothing to read") && text.contains("--sample"), "{text}");
    assert!(!text.contains("GangWaitingForMembers"), "no demo output: {text}");
    // Run as the kubectl plugin, the hint says `kubectl gpu-events explain`.
    let dir = std::env::temp_dir().join(format!("gpu-events-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plugin = dir.join("kubectl-gpu_events");
    let _ = std::fs::remove_file(&plugin);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gpu-events"), &plugin).unwrap();
    let command = format!("{} explain", plugin.display());
    let output = Command::new("script").args(["-qec", &command, "/dev/null"]).stdin(Stdio::null()).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("kubectl gpu-events explain events.json"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_namespace_with_a_file_is_refused_not_ignored() {
    // Found by a new user: `-n default` with a file printed every namespace's rows, exit 0.
    let output = run(&["explain", "--sample", "-n", "default"], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("select objects in the cluster"));
}

/// The options table of `gpu-events-export`'s `config.rs` (key, flag, default) names exactly the
/// flags `gpu-events export --help` prints, besides `--config` and the global ones.
#[test]
fn the_config_docs_table_lists_every_export_flag() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-events-export/src/config.rs");
    let docs = std::fs::read_to_string(path).unwrap();
    let flags_in = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|word| word.starts_with("--") && word.len() > 2)
            .map(str::to_owned)
            .collect()
    };
    let table: String = docs
        .lines()
        .filter(|l| l.starts_with("//! | `"))
        .map(|l| l.split('|').nth(2).unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ");
    let help = stdout(&run(&["export", "--help"], None));
    let options: String = help.lines().filter(|l| l.trim_start().starts_with('-')).collect::<Vec<_>>().join(" ");
    let mut printed = flags_in(&options);
    for other in ["--config", "--kubeconfig", "--context", "--request-timeout", "--color", "--help", "--version"] {
        assert!(printed.remove(other), "{other} in {help}");
    }
    assert_eq!(flags_in(&table), printed, "config.rs's table against `export --help`");
}

/// A Pod that waited for a GPU while the autoscaler tried, and one event the input gave no time.
fn stuck_pod_events() -> String {
    let event = |reason: &str, type_: &str, count: u32, times: Option<(&str, &str)>, message: &str| {
        let mut event = serde_json::json!({
            "apiVersion": "v1", "kind": "Event", "metadata": {"name": format!("train-0.{reason}"), "namespace": "ml"},
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": "train-0"},
            "reason": reason, "type": type_, "message": message, "count": count,
        });
        if let Some((first, last)) = times {
            event["firstTimestamp"] = format!("2026-11-30T{first}Z").into();
            event["lastTimestamp"] = format!("2026-11-30T{last}Z").into();
        }
        event.to_string()
    };
    let items = [
        event(
            "NotTriggerScaleUp",
            "Normal",
            10,
            Some(("05:46:00", "05:55:00")),
            "pod didn't trigger scale-up: 1 max node group size reached",
        ),
        event(
            "FailedScheduling",
            "Warning",
            40,
            Some(("05:00:00", "05:50:00")),
            "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
        ),
        event(
            "TriggeredScaleUp",
            "Normal",
            20,
            Some(("05:05:00", "05:45:00")),
            "pod triggered scale-up: [{gpu-pool 1->2 (max: 4)}]",
        ),
        event(
            "FailedMount",
            "Warning",
            2,
            None,
            "MountVolume.SetUp failed for volume \"data\" : configmap \"data\" not found",
        ),
    ];
    format!("{{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[{}]}}", items.join(","))
}

#[test]
fn diagnose_draws_each_stuck_objects_events_on_a_time_axis() {
    let output = run(&["explain", "-", "--diagnose", "--now", "2026-11-30T06:00:00Z"], Some(&stuck_pod_events()));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = stdout(&output);
    assert!(!text.contains('\x1b'), "plain into a pipe: {text}");
    assert!(
        text.contains("timeline (● event, ━ first to last seen): 2026-11-30 05:00:00 → 05:55:00 UTC (55m)"),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('│')).collect();
    let reasons: Vec<&str> = rows.iter().map(|r| r.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(reasons, ["FailedScheduling", "TriggeredScaleUp", "NotTriggerScaleUp"], "oldest first: {text}");
    let counts: Vec<&str> = rows.iter().map(|r| r.split_whitespace().nth(2).unwrap()).collect();
    assert_eq!(counts, ["x40", "x20", "x10"]);
    // Each row starts further right than the one before, as its first event came later.
    let start = |row: &str| row.split('│').nth(1).unwrap().chars().position(|c| c == '●').unwrap();
    assert!(start(rows[0]) < start(rows[1]) && start(rows[1]) < start(rows[2]), "{text}");
    assert!(rows[0].ends_with("05:00:00 → 05:50:00"), "{}", rows[0]);
    // The event with no time is said so, not placed.
    assert!(
        text.lines().any(|l| l.contains("Warning  FailedMount") && l.ends_with("x2  (no time in the input)")),
        "{text}"
    );
    let coloured = stdout(&run(&["explain", "-", "--diagnose", "--color", "always"], Some(&stuck_pod_events())));
    assert!(coloured.contains("\x1b[33m━") || coloured.contains("\x1b[33m●"), "Warning marks in colour: {coloured}");
    assert!(text.lines().all(|l| l.chars().count() <= 100 || !l.contains('│')), "bounded: {text}");
}

/// Run `command` on a terminal (`script` from util-linux), `NO_COLOR` set or not; its output.
fn on_a_terminal(command: &str, no_color: Option<&str>) -> String {
    let mut script = Command::new("script");
    script.args(["-qec", command, "/dev/null"]).stdin(Stdio::null()).env_remove("NO_COLOR");
    if let Some(value) = no_color {
        script.env("NO_COLOR", value);
    }
    let output = script.output().expect("this test needs `script` from util-linux (Debian: bsdutils)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn no_color_on_a_terminal_is_plain_unless_color_always() {
    let bin = env!("CARGO_BIN_EXE_gpu-events");
    let table = format!("{bin} explain --sample");
    assert!(on_a_terminal(&table, None).contains("\x1b[33mWarning"), "a terminal is coloured");
    assert!(!on_a_terminal(&table, Some("1")).contains('\x1b'), "NO_COLOR: plain");
    // An empty NO_COLOR is unset (no-color.org), `--color always` wins over it.
    assert!(on_a_terminal(&table, Some("")).contains('\x1b'));
    assert!(on_a_terminal(&format!("{table} --color always"), Some("1")).contains("\x1b[33mWarning"));
    assert!(!on_a_terminal(&format!("{table} --color never"), None).contains('\x1b'));
    let diagnose = format!("{bin} explain --sample --diagnose");
    assert!(on_a_terminal(&diagnose, None).contains("\x1b[33m●"), "the timeline is coloured on a terminal");
    assert!(!on_a_terminal(&diagnose, Some("1")).contains('\x1b'));

    // The exporter's logs (stderr) follow the same rule: a dead cluster makes it log at once.
    let dir = std::env::temp_dir().join(format!("gpu-events-no-color-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: dead\n  cluster:\n    server: http://127.0.0.1:1\n\
         contexts:\n- name: dead\n  context:\n    cluster: dead\n    user: u\ncurrent-context: dead\nusers:\n- name: u\n  user: {}\n",
    )
    .unwrap();
    let export = format!("timeout 2 {bin} export --kubeconfig {}", kubeconfig.display());
    let runs = [(None, ""), (Some("1"), ""), (Some("1"), " --color always"), (None, " --color never")]
        .map(|(no_color, flag)| {
            let command = format!("{export}{flag}");
            std::thread::spawn(move || on_a_terminal(&command, no_color))
        })
        .map(|run| run.join().unwrap());
    for log in &runs {
        assert!(log.contains("WARN") || log.contains("ERROR"), "the exporter logged: {log}");
    }
    assert!(runs[0].contains("\x1b["), "logs on a terminal are coloured: {}", runs[0]);
    assert!(!runs[1].contains('\x1b'), "NO_COLOR: {}", runs[1]);
    assert!(runs[2].contains("\x1b["), "--color always: {}", runs[2]);
    assert!(!runs[3].contains('\x1b'), "--color never: {}", runs[3]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_subcommand_takes_color() {
    for args in [
        &["reasons", "--color", "never"][..],
        &["schema", "--color", "always"],
        &["completions", "bash", "--color", "never"],
        &["man", "--color", "never"],
        &["redact", "-", "--color", "never"],
        &["explain", "--sample", "--summary", "--color", "never"],
        &["export", "--help", "--color", "never"],
    ] {
        let output = run(args, Some(""));
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

/// JSON Lines are written as each record is read: a watch shows each event while it runs.
#[test]
fn jsonl_streams_each_record_before_the_input_ends() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["explain", "-", "-o", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, read) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let _ = lines.send(line.unwrap());
        }
    });
    let event = |name: &str| {
        format!(
            "{{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{{\"name\":\"{name}\"}},\"reason\":\"Pulled\",\"type\":\"Normal\",\"involvedObject\":{{\"kind\":\"Pod\",\"name\":\"a\"}},\"message\":\"ok\"}}\n"
        )
    };
    for name in ["a.1", "a.2"] {
        stdin.write_all(event(name).as_bytes()).unwrap();
        stdin.flush().unwrap();
        let line = read.recv_timeout(std::time::Duration::from_secs(10)).expect("the record, while stdin is open");
        let record: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(record["eventName"], name);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn diagnoses_as_yaml_are_one_list_document() {
    let yaml = stdout(&run(&["explain", "--sample", "--diagnose", "-o", "yaml"], None));
    let value: serde_json::Value = serde_yaml_ng::from_str(&yaml).expect("one YAML document");
    assert_eq!((value["apiVersion"].as_str(), value["kind"].as_str()), (Some("v1"), Some("List")));
    let jsonl = json_lines(&run(&["explain", "--sample", "--diagnose", "-o", "jsonl"], None));
    assert_eq!(value["items"].as_array().unwrap(), &jsonl, "the List holds the diagnoses -o jsonl streams");
}
