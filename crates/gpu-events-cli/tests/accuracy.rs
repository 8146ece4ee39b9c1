//! Reading and diagnosis measured on real texts the project was not written against
//! (`tests/fixtures/corpus/`, layout and expected-line syntax in its README).
//!
//! For each text: the records `explain` reads from it are matched, in order, to the `# record:`
//! lines written from the source; a record is right when every key its line gives agrees. Records
//! no line matches are *invented* (non-event text read as an event; a record flagged
//! `fromStatus`, a pasted Pod status, and `fromLog`, a kubelet log line, claim no event and are not counted); expected ones never matched
//! are *lost*, and *silently* lost when the decoder reported nothing unread. Each `# diagnose:`
//! line is right when a diagnosis of that object names that cause (and phase, when given); a
//! wrong cause with High confidence is counted apart.
//!
//! The figures are printed per split and must equal the generated block of `docs/accuracy.md`, so
//! the document never drifts from the code: after a change, regenerate it with
//! `UPDATE_ACCURACY=1 cargo test -p gpu-events-cli --test accuracy`. Per-text misses are printed
//! for `tuning` texts only: `heldout` texts are measured, never looked at while fixing.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use gpu_events_core::decode::Decoder;
use gpu_events_core::diagnose::{Confidence, Diagnosis, diagnose};
use gpu_events_core::{EventRecord, Flag};

/// One text of the corpus, split into its parts.
struct Text {
    file: String,
    split: String,
    body: String,
    records: Vec<Expected>,
    diagnoses: Vec<Expected>,
}

/// The `key=value` pairs of one expected line.
type Expected = BTreeMap<String, String>;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corpus")
}

/// `key=value` tokens; values bare or double-quoted with `\"` and `\\` escapes.
fn pairs(line: &str) -> Result<Expected, String> {
    let mut out = Expected::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        // Words after a bare value, before the next `key=`, belong to it (`cause=none-fits:a b`).
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if !rest[..word_end].contains('=') {
            let (_, last) = out.iter_mut().next_back().ok_or_else(|| format!("no `=` in {rest:?}"))?;
            last.push(' ');
            last.push_str(&rest[..word_end]);
            rest = rest[word_end..].trim_start();
            continue;
        }
        let (key, after) = rest.split_once('=').ok_or_else(|| format!("no `=` in {rest:?}"))?;
        let key = key.trim().to_owned();
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            value.push(next);
                        }
                    }
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => value.push(c),
                }
            }
            let end = end.ok_or_else(|| format!("unclosed quote after {key}="))?;
            (value, &quoted[end..])
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_owned(), &after[end..])
        };
        out.insert(key, value);
        rest = tail.trim_start();
    }
    Ok(out)
}

fn read_text(path: &Path) -> Text {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let content = std::fs::read_to_string(path).unwrap();
    let (head, expected) = content.split_once("\n# expected:").unwrap_or_else(|| panic!("{file}: no `# expected:`"));
    let mut lines = head.lines().peekable();
    let mut split = String::new();
    // The header: `# key: value` lines up to the first blank line.
    while let Some(line) = lines.next_if(|l| l.starts_with("# ")) {
        if let Some(value) = line.strip_prefix("# split:") {
            split = value.trim().to_owned();
        }
    }
    // The collectors' own omission markers (`# ... (rest not captured) ...`) are not the paste.
    let body: Vec<&str> = lines.filter(|l| !l.starts_with("# ...")).collect();
    let mut text =
        Text { file: file.clone(), split, body: body.join("\n") + "\n", records: Vec::new(), diagnoses: Vec::new() };
    for line in expected.lines() {
        let parse = |rest: &str| pairs(rest).unwrap_or_else(|err| panic!("{file}: {err}"));
        if let Some(rest) = line.strip_prefix("# record:") {
            text.records.push(parse(rest));
        } else if let Some(rest) = line.strip_prefix("# diagnose:") {
            text.diagnoses.push(parse(rest));
        }
    }
    assert!(matches!(text.split.as_str(), "tuning" | "heldout"), "{file}: split {:?}", text.split);
    text
}

/// The value a record gives for an expected key, as text; `None` when it has none.
fn record_value(record: &EventRecord, key: &str) -> Option<String> {
    let regarding = &record.regarding;
    match key {
        "reason" => Some(record.reason.as_str().to_owned()),
        "type" => record.type_.as_ref().map(ToString::to_string),
        "kind" => regarding.kind.clone(),
        "name" => regarding.name.clone(),
        "namespace" => regarding.namespace.clone(),
        "count" => (record.count > 1).then(|| record.count.to_string()),
        "note" => Some(record.note.clone()),
        _ => {
            let path = key.strip_prefix("details.")?;
            let mut value = serde_json::to_value(record.details.as_ref()?).ok()?;
            for part in path.split('.') {
                value = value.get(part)?.clone();
            }
            Some(match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            })
        }
    }
}

/// The keys of `expected` the record gets wrong (empty: the record is right).
fn record_misses(expected: &Expected, record: &EventRecord) -> Vec<String> {
    let mut misses = Vec::new();
    for (key, want) in expected {
        let ok = match key.as_str() {
            "note_ends" => record.note.ends_with(want.as_str()),
            "note_starts" => record.note.starts_with(want.as_str()),
            "flags" => want.split(',').all(|flag| {
                record.flags.iter().any(|f| {
                    let got = serde_json::to_value(f).ok().and_then(|v| v.as_str().map(str::to_owned));
                    // The corpus's `truncated` is a text cut by its recorder or by the paste
                    // (README): the tool tells the two apart (`truncated`, `cutInPaste`).
                    got.as_deref() == Some(flag) || (flag == "truncated" && got.as_deref() == Some("cutInPaste"))
                })
            }),
            // A count of 1 is written `count=1` or left out; `-` says the text gives none.
            "count" if want == "1" || want == "-" => record.count <= 1,
            // Keys that are prose in a few files (inside notes the collectors did not quote).
            "volumes" | "pod" | "container" => true,
            _ => {
                let got = record_value(record, key);
                if want == "-" { got.is_none() } else { got.as_deref() == Some(want.as_str()) }
            }
        };
        if !ok {
            misses.push(format!(
                "{key}: want {want:?}, got {:?}",
                record_value(record, key.trim_end_matches("_ends").trim_end_matches("_starts"))
            ));
        }
    }
    misses
}

/// Whether a diagnosis is about the object an expected line names.
fn same_object(expected: &Expected, diagnosis: &Diagnosis) -> bool {
    let name_ok = match expected.get("name").map(String::as_str) {
        None => true,
        Some("-") => diagnosis.object.name.is_none(),
        Some(name) => diagnosis.object.name.as_deref() == Some(name),
    };
    let kind_ok = match expected.get("kind").map(String::as_str) {
        None | Some("-") => true,
        Some(kind) => diagnosis.kind().is_none_or(|k| k == kind),
    };
    name_ok && kind_ok
}

fn phase_of(diagnosis: &Diagnosis) -> String {
    serde_json::to_value(diagnosis.phase).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Whether the diagnosis's phase is the expected one. The collectors wrote Pod phases
/// (`status.phase`: Pending, Running, Failed, ...) or a state the phase has no word for
/// (`Inqueue`); the diagnosis names the state kubectl's STATUS column shows, which lies in one
/// phase (ContainerCreating and Init:CrashLoopBackOff are Pending, Evicted is Failed, CrashLoopBackOff is Running; an
/// OOMKilled container leaves its Pod Running or Failed by restart policy).
fn phase_matches(want: &str, diagnosis: &Diagnosis) -> bool {
    let got = phase_of(diagnosis);
    let in_phase: &[&str] = match got.as_str() {
        // Init containers run while the Pod is Pending.
        "ContainerCreating" | "Pending" | "Init:CrashLoopBackOff" => &["Pending"],
        "Evicted" | "Failed" => &["Failed"],
        "CrashLoopBackOff" | "Running" => &["Running"],
        "OOMKilled" => &["Running", "Failed"],
        _ => &[],
    };
    got == want || in_phase.contains(&want)
}

fn cause_of(diagnosis: &Diagnosis) -> String {
    serde_json::to_value(diagnosis.cause).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

#[derive(Default)]
struct Tally {
    texts: usize,
    texts_right: usize,
    events: usize,
    events_right: usize,
    lost: usize,
    silently_lost: usize,
    invented: usize,
    objects: usize,
    objects_right: usize,
    /// Expected objects no diagnosis was made for (the object was not told apart, or not seen as stuck).
    objects_missed: usize,
    /// Of those, objects whose expected cause was diagnosed on another object (a naming miss).
    cause_elsewhere: usize,
    /// Of those, objects of texts nothing was read from (no record at all).
    nothing_read: usize,
    wrong_high: usize,
}

/// What one text gave: its tally and, for tuning texts, what went wrong.
fn measure(text: &Text, now: DateTime<Utc>, tally: &mut Tally, misses: &mut String) {
    let mut records = Vec::new();
    let mut errors = 0usize;
    for item in Decoder::from_str(&text.body).reference_time(now) {
        match item {
            Ok(record) => records.push(record),
            Err(_) => errors += 1,
        }
    }
    let mut notes = Vec::new();
    tally.texts += 1;
    tally.events += text.records.len();
    // Match expected records in order: each to the next unused record of its reason.
    let mut used = vec![false; records.len()];
    let mut next = 0usize;
    let mut right = 0usize;
    let mut lost = 0usize;
    for expected in &text.records {
        let reason = expected.get("reason").map(String::as_str).unwrap_or_default();
        let found = (next..records.len())
            .chain(0..next)
            .find(|&i| {
                !used[i] && records[i].reason.as_str() == reason && record_misses(expected, &records[i]).is_empty()
            })
            .or_else(|| {
                (next..records.len()).chain(0..next).find(|&i| !used[i] && records[i].reason.as_str() == reason)
            });
        match found {
            Some(i) => {
                used[i] = true;
                next = i + 1;
                let record_misses = record_misses(expected, &records[i]);
                if record_misses.is_empty() {
                    right += 1;
                } else {
                    notes.push(format!("  {reason}: {}", record_misses.join("; ")));
                }
            }
            None => {
                lost += 1;
                notes.push(format!("  lost: {reason} {}", expected.get("note").map_or("", |n| n.as_str())));
            }
        }
    }
    let unmatched = |(record, used): &(&EventRecord, &bool)| {
        !**used && !record.has_flag(Flag::FromStatus) && !record.has_flag(Flag::FromLog)
    };
    let invented = records.iter().zip(&used).filter(unmatched).count();
    for (record, _) in records.iter().zip(&used).filter(unmatched) {
        notes.push(format!("  invented: {} {:?}", record.reason, record.note.chars().take(60).collect::<String>()));
    }
    tally.events_right += right;
    tally.lost += lost;
    if lost > 0 && errors == 0 {
        tally.silently_lost += lost;
    }
    tally.invented += invented;

    let diagnoses = diagnose(&records);
    let mut objects_right = 0usize;
    for expected in &text.diagnoses {
        tally.objects += 1;
        let want = expected.get("cause").map(String::as_str).unwrap_or_default();
        let candidates: Vec<&Diagnosis> = diagnoses.iter().filter(|d| same_object(expected, d)).collect();
        let good = candidates
            .iter()
            .any(|d| cause_of(d) == want && expected.get("phase").is_none_or(|phase| phase_matches(phase, d)));
        if good {
            objects_right += 1;
        } else {
            if candidates.is_empty() {
                tally.objects_missed += 1;
                tally.cause_elsewhere += usize::from(diagnoses.iter().any(|d| cause_of(d) == want));
                tally.nothing_read += usize::from(records.is_empty());
            }
            let mut got: Vec<String> =
                candidates.iter().map(|d| format!("{} {} ({:?})", phase_of(d), cause_of(d), d.confidence)).collect();
            if candidates.is_empty() {
                // Say which objects were diagnosed instead: a naming miss reads differently from no diagnosis.
                got.extend(diagnoses.iter().map(|d| {
                    format!(
                        "other: {}/{} {}",
                        d.kind().unwrap_or_else(|| "?".to_owned()),
                        d.object.name.as_deref().unwrap_or("-"),
                        cause_of(d)
                    )
                }));
            }
            if candidates.iter().any(|d| d.confidence == Confidence::High && cause_of(d) != want) {
                tally.wrong_high += 1;
            }
            notes.push(format!(
                "  diagnose {}/{}: want {want} {}, got [{}]",
                expected.get("kind").map_or("?", |s| s.as_str()),
                expected.get("name").map_or("?", |s| s.as_str()),
                expected.get("phase").map_or("", |s| s.as_str()),
                got.join(", ")
            ));
        }
    }
    tally.objects_right += objects_right;
    if notes.is_empty() {
        tally.texts_right += 1;
    } else if text.split == "tuning" {
        let _ = writeln!(misses, "{} ({} unread region(s)):\n{}", text.file, errors, notes.join("\n"));
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 { "-".to_owned() } else { format!("{:.0}%", 100.0 * part as f64 / whole as f64) }
}

fn report(tallies: &BTreeMap<String, Tally>) -> String {
    let mut out = String::new();
    out.push_str("| split | texts | fully right | events | read right | lost (silently) | invented | objects | diagnosed right | no diagnosis (nothing read; cause on another object) | wrong cause, High |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (split, t) in tallies {
        let _ = writeln!(
            out,
            "| {split} | {} | {} ({}) | {} | {} ({}) | {} ({}) | {} | {} | {} ({}) | {} ({}; {}) | {} |",
            t.texts,
            t.texts_right,
            percent(t.texts_right, t.texts),
            t.events,
            t.events_right,
            percent(t.events_right, t.events),
            t.lost,
            t.silently_lost,
            t.invented,
            t.objects,
            t.objects_right,
            percent(t.objects_right, t.objects),
            t.objects_missed,
            t.nothing_read,
            t.cause_elsewhere,
            t.wrong_high
        );
    }
    out
}

const BEGIN: &str = "<!-- accuracy:begin (generated by crates/gpu-events-cli/tests/accuracy.rs) -->\n";
const END: &str = "<!-- accuracy:end -->";

#[test]
fn corpus_accuracy_matches_docs_accuracy_md() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 60, "the corpus holds {} texts", paths.len());
    let now: DateTime<Utc> = "2026-01-01T00:00:00Z".parse().unwrap();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = String::new();
    for path in &paths {
        let text = read_text(path);
        measure(&text, now, tallies.entry(text.split.clone()).or_default(), &mut misses);
    }
    let table = report(&tallies);
    println!("{table}\nTuning texts not fully right:\n{misses}");
    readme_quotes_the_held_out_rates(&tallies["heldout"]);

    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/accuracy.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap_or_default();
    let generated = format!("{BEGIN}{table}{END}");
    let current =
        doc.find(BEGIN).and_then(|start| doc[start..].find(END).map(|end| &doc[start..start + end + END.len()]));
    if std::env::var_os("UPDATE_ACCURACY").is_some() {
        let updated = match current {
            Some(block) => doc.replace(block, &generated),
            None => format!("{doc}\n{generated}\n"),
        };
        std::fs::write(&doc_path, updated).unwrap();
        return;
    }
    assert_eq!(
        current,
        Some(generated.as_str()),
        "docs/accuracy.md does not hold this measurement; regenerate with\n  UPDATE_ACCURACY=1 cargo test -p gpu-events-cli --test accuracy"
    );
}

/// The README quotes the held-out rates in words ("about N% of events and M% of stuck objects");
/// they must stay within five points of the measurement.
fn readme_quotes_the_held_out_rates(held_out: &Tally) {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let quoted = flat
        .split_once("today about ")
        .and_then(|(_, rest)| rest.split_once("% of events and "))
        .and_then(|(events, rest)| {
            Some((events.parse::<f64>().ok()?, rest.split_once("% of stuck objects")?.0.parse::<f64>().ok()?))
        })
        .expect("README.md says \"today about N% of events and M% of stuck objects\"");
    let measured = (
        100.0 * held_out.events_right as f64 / held_out.events as f64,
        100.0 * held_out.objects_right as f64 / held_out.objects as f64,
    );
    assert!(
        (quoted.0 - measured.0).abs() <= 5.0 && (quoted.1 - measured.1).abs() <= 5.0,
        "README.md quotes {quoted:?}% of held-out events and objects right; docs/accuracy.md measures {measured:.0?}"
    );
}

#[test]
fn expected_lines_parse_as_the_readme_says() {
    let parsed = pairs(r#"reason=Failed type=Warning note="a \"quoted\" word" count=3"#).unwrap();
    assert_eq!(parsed["reason"], "Failed");
    assert_eq!(parsed["note"], "a \"quoted\" word");
    assert_eq!(parsed["count"], "3");
    assert!(pairs(r#"note="unclosed"#).is_err());
    assert!(pairs("bare words").is_err());
}
