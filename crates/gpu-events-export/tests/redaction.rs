//! Redaction reaches the names that carry the same data as notes (Nodes named by their IP), and
//! changes no fact: over every text the project has (the case pastes, `../shared/cases` when
//! present, the CLI's sample, the fuzz seeds), no rule fires but on the known addresses, and
//! decoding the redacted text gives the same records as decoding the original.

use std::path::{Path, PathBuf};

use gpu_events_core::decode::Decoder;
use gpu_events_export::redact::Counts;
use gpu_events_export::{Delta, ExportRecord, RedactionConfig, Redactor};
use serde_json::{Value, json};

#[test]
fn nodes_named_by_their_address_are_redacted_everywhere() {
    let event = json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "10.0.3.7.18ed3835cba801c4", "namespace": "default", "uid": "u-1"},
        "involvedObject": {"kind": "Node", "name": "10.0.3.7", "uid": "10.0.3.7"},
        "reason": "NodeNotReady", "type": "Normal", "message": "Node 10.0.3.7 status is now: NodeNotReady",
        "source": {"component": "kubelet", "host": "10.0.3.7"}
    });
    let record = Decoder::from_str(&event.to_string()).next().unwrap().unwrap();
    let mut export = ExportRecord::new(record, Delta::new(1, 1, None, None, None));
    Redactor::new(&RedactionConfig::default()).unwrap().redact(&mut export);
    let text = serde_json::to_string(&export).unwrap();
    assert!(!text.contains("10.0.3.7"), "{text}");
    assert_eq!(export.record.regarding.name.as_deref(), Some("<ipv4>"));
    assert_eq!(export.record.reporting_instance.as_deref(), Some("<ipv4>"));
    assert_eq!(export.redactions, ["ipv4"]);
    // Namespaces and ordinary names are kept.
    assert_eq!(export.record.event_namespace.as_deref(), Some("default"));
}

/// Redactions the corpus is known to need: (file name prefix, rule, how many, what they
/// replace). Case 053 names its node by IP (the anonymized `10.0.0.1`, in the header comment and
/// in `Node:`), case 028's scale-up group is a GCE URL with its project, the CLI's sample has an
/// EC2 instance and Pod IPs.
const EXPECTED: &[(&str, &str, u64, &str)] = &[
    ("053-", "ipv4", 2, "10.0.0.1"),
    ("028-", "gcp-project", 1, "projects/project-a/"),
    ("events.yaml", "aws-instance-id", 1, "i-0a1b2c3d4e5f67890"),
    ("events.yaml", "ipv4", 2, "10.0.12.34|10.244.3.17"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_in(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_in(&path, out);
        } else if path.extension().is_some_and(|ext| ext != "md" && ext != "tsv") {
            let name = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
            out.push((name, std::fs::read_to_string(&path).expect("a corpus file is UTF-8")));
        }
    }
}

/// Every event text of the project: (path, text).
fn corpus() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    files_in(&root().join("tests/fixtures/cases"), &mut texts);
    let copies = texts.len();
    assert!(copies >= 25, "the case fixtures are there ({copies})");
    // The reference pack next to a checkout has more cases than the repository's copies.
    files_in(&root().join("../shared/cases"), &mut texts);
    files_in(&root().join("crates/gpu-events-cli/sample"), &mut texts);
    files_in(&root().join("fuzz/seeds"), &mut texts);
    assert!(texts.len() > copies, "the sample and the fuzz seeds are there");
    texts
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[test]
fn no_rule_fires_on_the_corpus_but_on_its_known_addresses() {
    let redactor = Redactor::new(&RedactionConfig::default()).unwrap();
    let mut unexpected = Vec::new();
    for (path, text) in corpus() {
        let mut counts = Counts::default();
        let redacted = redactor.redact_text(&text, &mut counts);
        let expected: Vec<(&str, u64)> = EXPECTED
            .iter()
            .filter(|(prefix, ..)| file_name(&path).starts_with(prefix))
            .map(|(_, rule, n, _)| (*rule, *n))
            .collect();
        let got: Vec<(&str, u64)> = redactor.counted(&counts).collect();
        if got != expected {
            let changed: Vec<(&str, &str)> =
                text.lines().zip(redacted.lines()).filter(|(a, b)| a != b).take(5).collect();
            unexpected.push(format!("{path}: {got:?} (expected {expected:?}); lines {changed:#?}"));
        }
    }
    assert!(unexpected.is_empty(), "false positives:\n{}", unexpected.join("\n"));
}

/// Walks two JSON trees: the same shape and the same numbers, booleans and nulls; a string that
/// differs must be what the redactor makes of the original (else a fact changed).
fn compare(before: &Value, after: &Value, pointer: &str, redactor: &Redactor, changed: &mut Vec<String>) {
    match (before, after) {
        (Value::String(a), Value::String(b)) if a != b => {
            let expected = redactor.redact_str(a).text.into_owned();
            assert_eq!(&expected, b, "{pointer}: {a:?} decoded as {b:?} after redaction");
            changed.push(format!("{pointer}: {a:?} -> {b:?}"));
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{pointer}: lengths differ");
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                compare(x, y, &format!("{pointer}/{index}"), redactor, changed);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            let keys = |o: &serde_json::Map<String, Value>| o.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(a), keys(b), "{pointer}: fields differ");
            for (key, x) in a {
                compare(x, &b[key], &format!("{pointer}/{key}"), redactor, changed);
            }
        }
        _ => assert_eq!(before, after, "{pointer}"),
    }
}

/// "0 facts changed", the strict form: the facts are every field of every record the core
/// decoder reads from a text (reason, type, count, times, the object, and the typed details:
/// GPU UUIDs, resources, quantities, FitError counts, ...). Decoding the redacted text must give
/// the same records with the same fields; a string may differ only by the redaction of its own
/// text, and only where the corpus is known to carry an address or an id ([`EXPECTED`]).
#[test]
fn decoding_the_redacted_corpus_gives_the_same_facts() {
    let records = same_facts(&Redactor::new(&RedactionConfig::default()).unwrap());
    assert!(records >= 100, "the corpus decodes to records ({records})");
}

/// The check fails when a rule eats a fact (here GPU UUIDs, which cases 009 and 023 carry).
#[test]
#[should_panic(expected = "a fact changed")]
fn the_fact_check_catches_a_rule_that_eats_facts() {
    let rule = gpu_events_export::RedactionRule::new("gpu", "GPU-[0-9a-f]{8}-[0-9a-f-]{27}", "GPU-<uuid>");
    same_facts(&Redactor::new(&RedactionConfig::with_rules(vec![rule])).unwrap());
}

/// Decodes every corpus text before and after redaction and compares the records; the number
/// of records compared.
fn same_facts(redactor: &Redactor) -> usize {
    let mut records = 0;
    for (path, text) in corpus() {
        let redacted = redactor.redact_str(&text).text.into_owned();
        let now = "2026-12-02T00:00:00Z".parse().unwrap();
        let decode = |text: &str| -> Vec<Result<Value, String>> {
            Decoder::from_str(text)
                .reference_time(now)
                .map(|item| item.map(|r| serde_json::to_value(r).unwrap()).map_err(|e| e.to_string()))
                .collect()
        };
        let (before, after) = (decode(&text), decode(&redacted));
        assert_eq!(before.len(), after.len(), "{path}: record count");
        let mut changed = Vec::new();
        for (index, (b, a)) in before.iter().zip(&after).enumerate() {
            match (b, a) {
                (Ok(b), Ok(a)) => compare(b, a, &format!("{path}#{index}"), redactor, &mut changed),
                (Err(b), Err(a)) => assert_eq!(b, a, "{path}#{index}: the error changed"),
                _ => panic!("{path}#{index}: {b:?} became {a:?}"),
            }
            records += 1;
        }
        // Where a change is known, it is of what the corpus is known to carry, and nothing else.
        let known: Vec<&str> = EXPECTED
            .iter()
            .filter(|(prefix, ..)| file_name(&path).starts_with(prefix))
            .flat_map(|(.., tokens)| tokens.split('|'))
            .collect();
        for change in &changed {
            assert!(known.iter().any(|token| change.contains(token)), "{path}: a fact changed: {change}");
        }
    }
    records
}

/// The README lists the built-in rules by family, as the engine has them.
#[test]
fn the_readme_lists_the_engines_rules() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("<!-- redaction-rules").expect("the README has the rule list");
    let block = &readme[start..];
    let block = &block[block.find('\n').unwrap() + 1..block.find("<!-- /redaction-rules -->").unwrap()];
    let mut families: Vec<(&str, Vec<&str>)> = Vec::new();
    for rule in gpu_events_export::redact::builtin_rules() {
        match families.iter_mut().find(|(family, _)| *family == rule.family) {
            Some((_, names)) => names.push(rule.name),
            None => families.push((rule.family, vec![rule.name])),
        }
    }
    let expected: String = families
        .iter()
        .map(|(family, names)| {
            let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
            format!("- {family}: {}\n", names.join(", "))
        })
        .collect();
    assert!(block == expected, "README.md's rule list is stale; it should read:\n{expected}");
}

/// Secrets as GPU-cluster events carry them, each with the parts that must not survive.
const SECRETS: &[(&str, &[&str])] = &[
    ("s3fs: passwd AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY invalid", &["IOSFODNN7", "bPxRfiCY"]),
    (
        "back-off pulling https://m.s3.amazonaws.com/w.bin?X-Amz-Credential=ASIAY34FZKBOKMUTVV7A%2F20261202&X-Amz-Security-Token=IQoJb3JpZ2luX2Vj&X-Amz-Signature=9f2c1e7ab3d4e5f6",
        &["Y34FZKBOK", "IQoJb3JpZ2lu", "9f2c1e7ab3d4e5f6"],
    ),
    (
        "FailedCreate: HF_TOKEN hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567 and ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        &["QwErTyUiOp", "16C7e42F292c"],
    ),
    ("blobfuse: https://a.blob.core.windows.net/c?sv=2022-11-02&sr=c&sig=AbC%2Bd3F%3D failed", &["AbC%2Bd3F"]),
    (
        "notify https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX: 404",
        &["T0123ABCD", "aBcDeFgHiJ"],
    ),
    (
        "malformed key -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
        &["MIIEvQIBAD"],
    ),
    (
        "attach eni-0a1b2c3d4e5f60718 for arn:aws:iam::123456789012:role/node failed",
        &["0a1b2c3d4e5f60718", "123456789012"],
    ),
    (
        "token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlX3gx rejected",
        &["eyJzdWIiOiJzeXN0ZW0ifQ", "c2lnbmF0dXJlX3gx"],
    ),
    ("dial postgres://app:s3cr3tPW@db:5432/x with password=Tr0ub4dor&3 failed", &["s3cr3tPW", "Tr0ub4dor"]),
    (
        "Authorization: Basic dXNlcjpwYXNzd29yZA== xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp",
        &["dXNlcjpw", "AbCdEfGhIjKlMnOp"],
    ),
    (
        "OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI",
        &["Ab3dEf6hIj9k", "AIzaSyDdI0h"],
    ),
    (
        r#"pull secret {"auths":{"nvcr.io":{"auth":"JG9hdXRodG9rZW46bnZhcGk="}}} link 00:1a:2b:3c:4d:5e via fd00:10:96::a"#,
        &["JG9hdXRod", "00:1a:2b", "fd00:10:96"],
    ),
];

/// Secrets spliced into every note of the corpus, written as kubectl writes JSON (Go escapes
/// `&`, `<`, `>`) and as YAML: none survives redaction of the text, and each record keeps its
/// reason, type, count, object and kind of details.
#[test]
fn secrets_spliced_into_real_notes_do_not_survive_in_json_or_yaml() {
    let redactor = Redactor::new(&RedactionConfig::default()).unwrap();
    let now = "2026-12-02T00:00:00Z".parse().unwrap();
    let mut items = Vec::new();
    for (_, text) in corpus() {
        for record in Decoder::from_str(&text).reference_time(now).filter_map(Result::ok) {
            let (phrase, _) = SECRETS[items.len() % SECRETS.len()];
            items.push(json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": format!("e{}", items.len()), "namespace": "ml"},
                "involvedObject": {"kind": record.regarding.kind.as_deref().unwrap_or("Pod"), "name": "llama-0", "namespace": "ml"},
                "reason": record.reason.to_string(), "type": "Warning", "count": 3,
                "message": format!("{} {phrase}", record.note),
                "lastTimestamp": "2026-12-01T10:00:00Z",
            }));
        }
    }
    assert!(items.len() >= 100);
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
    let go_json = serde_json::to_string_pretty(&list)
        .unwrap()
        .replace('&', "\\u0026")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e");
    let yaml = serde_yaml_ng::to_string(&list).unwrap();
    for (format, text) in [("json", go_json), ("yaml", yaml)] {
        let redacted = redactor.redact_str(&text).text.into_owned();
        let records = |text: &str| -> Vec<Value> {
            Decoder::from_str(text).reference_time(now).map(|r| serde_json::to_value(r.unwrap()).unwrap()).collect()
        };
        let (before, after) = (records(&text), records(&redacted));
        assert_eq!(before.len(), items.len(), "{format}");
        assert_eq!(after.len(), before.len(), "{format}");
        let output = serde_json::to_string(&after).unwrap();
        let unredacted = serde_json::to_string(&before).unwrap();
        for (_, parts) in SECRETS {
            for part in *parts {
                assert!(unredacted.contains(part), "{format}: {part} is in the records before redaction");
                assert!(!output.contains(part) && !redacted.contains(part), "{format}: {part} survived");
            }
        }
        for (b, a) in before.iter().zip(&after) {
            for field in ["reason", "type", "count", "regarding"] {
                assert_eq!(b[field], a[field], "{format}: {field} of {}", b["note"]);
            }
            assert_eq!(b["details"]["kind"], a["details"]["kind"], "{format}: details of {}", b["note"]);
        }
    }
}
