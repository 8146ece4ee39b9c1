//! `gpu-events explain`: decode events and print them as a table or JSON Lines.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::decode::{DecodeError, Decoder};
use gpu_events_core::diagnose::{Diagnosis, ObjectKey, Summary, SummaryEntry, SummaryReport, diagnose};
use gpu_events_core::record::Flag;
use gpu_events_export::Redactor;

use crate::table::Table;
use crate::timeline::Timeline;
use crate::{Error, ExplainOutput, Mode, View, age, html, live, output, redact};

/// Progress on a terminal every this many events.
const PROGRESS_EVERY: u64 = 20_000;

/// The bundled sample dump, compiled into the binary.
const SAMPLE: &str = include_str!("../sample/events.yaml");

/// What `explain` says when run on a terminal with no FILE and nothing piped in.
const USAGE_HINT: &str = "gpu-events explain: nothing to read. Give it events:
  kubectl get events -A -o json > events.json && gpu-events explain events.json
  kubectl describe pod NAME | gpu-events explain - --diagnose
  gpu-events explain pod/NAME -n NAMESPACE --diagnose     (live, from your kubeconfig's cluster)
  gpu-events explain --sample                             (the bundled sample)";
/// The sample's clock: a little after its newest event, so LAST SEEN reads as on the day.
const SAMPLE_NOW: &str = "2026-11-30T06:05:00Z";

/// What to read.
pub enum Input<'a> {
    /// A file, or `-` for standard input.
    File(&'a Path),
    /// Standard input when piped; the sample when it is a terminal or empty.
    Auto,
    /// The bundled sample.
    Sample,
}

pub fn run(
    input: Input<'_>,
    view: View<'_>,
    now: Option<DateTime<Utc>>,
    redactor: Option<&Arc<Redactor>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    match input {
        Input::File(path) if path == Path::new("-") => stream(redact::reader(io::stdin(), redactor), view, now, out),
        Input::File(path) => {
            if path.is_dir() {
                return Err(Error::Open {
                    path: path.to_owned(),
                    source: io::Error::other("is a directory, not an events file"),
                });
            }
            let file = File::open(path).map_err(|source| Error::Open { path: path.to_owned(), source })?;
            let now = now.unwrap_or_else(Utc::now);
            // A file is read whole, so JSON is decoded on worker threads (records stay in
            // order) when there are cores for them besides the reader and this thread; with
            // fewer, one thread parsing in place is as fast and uses half the CPU (BENCHMARKS.md).
            let threads = std::thread::available_parallelism().map_or(1, usize::from).saturating_sub(2);
            let decoder = Decoder::from_reader(redact::reader(file, redactor)).reference_time(now).report_skipped(true);
            if view.mode == Mode::Summary {
                // Each record is reduced to its summary entry where it was decoded.
                let entries = decoder.parallel_map(threads, |item| item.map(SummaryEntry::of));
                return summarize(entries, view, out);
            }
            print(decoder.parallel(threads), view, now, &path.display().to_string(), out)
        }
        // Nothing to read on a terminal: say how to give input instead of printing a demo.
        Input::Auto if io::stdin().is_terminal() => {
            // Run as the kubectl plugin, the hint says so.
            let name = crate::command_name(std::env::args_os().next().as_deref());
            eprintln!("{}", USAGE_HINT.replace("gpu-events explain", &format!("{name} explain")));
            Ok(ExitCode::from(2))
        }
        // Piped input, unless the pipe is empty (`< /dev/null`, CI runners): then the sample.
        Input::Auto if !io::stdin().is_terminal() && has_input(&mut io::stdin().lock())? => {
            stream(redact::reader(io::stdin(), redactor), view, now, out)
        }
        Input::Auto | Input::Sample => {
            let now = now.unwrap_or_else(|| SAMPLE_NOW.parse().expect("SAMPLE_NOW is RFC 3339"));
            if view.output.is_table() && view.mode == Mode::Records && !view.no_headers {
                writeln!(out, "# bundled sample (no FILE given, nothing piped in); LAST SEEN is relative to {now}")?;
            } else {
                eprintln!("gpu-events: reading the bundled sample (no FILE given, nothing piped in)");
            }
            print(
                Decoder::from_str(&redact::text(SAMPLE, redactor)).reference_time(now).report_skipped(true),
                view,
                now,
                "the bundled sample",
                out,
            )
        }
    }
}

/// Live mode: the target's events from the cluster, the Pod's status applied to its diagnosis.
pub fn run_live(
    target: &live::Target,
    view: View<'_>,
    now: Option<DateTime<Utc>>,
    redactor: Option<&Arc<Redactor>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (records, pod) = runtime.block_on(live::fetch(target))?;
    let now = now.unwrap_or_else(Utc::now);
    let sharpen = |diagnoses: &mut Vec<Diagnosis>| {
        if let Some(pod) = &pod {
            pod.sharpen(diagnoses);
        }
    };
    let records = records.into_iter().map(|record| Ok(redact::record(record, redactor)));
    let source = match (&target.kind, &target.name) {
        (Some(kind), Some(name)) => format!("the cluster ({kind}/{name})"),
        _ => "the cluster".to_owned(),
    };
    print_with(records, view, now, Stream::No, &source, &sharpen, out)
}

/// Standard input: JSON Lines are flushed record by record, so a watch (`kubectl get events -w
/// -o json | gpu-events explain - -o json`) shows each event as it comes.
fn stream(
    input: Box<dyn Read + Send>,
    view: View<'_>,
    now: Option<DateTime<Utc>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let now = now.unwrap_or_else(Utc::now);
    let decoder = Decoder::from_reader(input).reference_time(now).report_skipped(true);
    print_with(decoder, view, now, Stream::Yes, "standard input", &|_| {}, out)
}

/// Whether a reader has at least one byte, without consuming it.
fn has_input(reader: &mut impl BufRead) -> io::Result<bool> {
    Ok(!reader.fill_buf()?.is_empty())
}

fn print(
    decoder: impl Iterator<Item = Result<EventRecord, DecodeError>>,
    view: View<'_>,
    now: DateTime<Utc>,
    source: &str,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    print_with(decoder, view, now, Stream::No, source, &|_| {}, out)
}

/// Whether records are flushed as they are read (standard input: a watch).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    Yes,
    No,
}

fn print_with(
    decoder: impl Iterator<Item = Result<EventRecord, DecodeError>>,
    view: View<'_>,
    now: DateTime<Utc>,
    stream: Stream,
    source: &str,
    adjust: &dyn Fn(&mut Vec<Diagnosis>),
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let mut failed = false;
    let mut records = Vec::new();
    let mut summary = Summary::default();
    let mut unrecognized = 0usize;
    // `-o name` of events the input did not name (pasted tables, klog lines).
    let mut unnamed = 0usize;
    let progress = io::stderr().is_terminal();
    let mut read = 0u64;
    for item in decoder {
        read += 1;
        // A large input on a terminal shows that it is being read.
        if progress && read.is_multiple_of(PROGRESS_EVERY) {
            eprint!("\rgpu-events: {read} events read…");
        }
        let record = match item {
            Ok(record) => record,
            Err(err) => {
                failed |= err.is_loss();
                report(&err);
                continue;
            }
        };
        if record.has_flag(Flag::UnrecognizedNote) {
            unrecognized += 1;
        }
        match (view.mode, view.output) {
            (Mode::Summary, _) => summary.add(&record),
            // Streams are written as they are read; every other form needs the whole input.
            (Mode::Records, ExplainOutput::Jsonl) => {
                serde_json::to_writer(&mut *out, &record)?;
                writeln!(out)?;
                if stream == Stream::Yes {
                    out.flush()?;
                }
            }
            (Mode::Records, ExplainOutput::Name) => match output::event_name(&record) {
                Some(name) => {
                    writeln!(out, "{name}")?;
                    if stream == Stream::Yes {
                        out.flush()?;
                    }
                }
                None => unnamed += 1,
            },
            _ => records.push(record),
        }
    }
    if progress && read >= PROGRESS_EVERY {
        eprint!("\r\x1b[2K");
    }
    if unrecognized > 0 {
        eprintln!("gpu-events: {unrecognized} note(s) did not match their reason's grammar (flag unrecognizedNote)");
    }
    match view.mode {
        Mode::Summary => write_summary(&summary.finish(), view, out)?,
        Mode::Diagnose => {
            let mut diagnoses = diagnose(&records);
            adjust(&mut diagnoses);
            if diagnoses.is_empty() {
                eprintln!("gpu-events: no object with Warning events or a stuck signal");
            }
            // The objects' events, for the pictures (the other forms print the diagnoses alone).
            let mut by_object: HashMap<ObjectKey, Vec<&EventRecord>> = HashMap::new();
            if view.html.is_some() || view.output.is_table() {
                for record in &records {
                    by_object.entry(ObjectKey::of(record)).or_default().push(record);
                }
            }
            let of_object = |d| of_object(&by_object, d);
            if let Some(path) = view.html {
                let page = html::Page {
                    source,
                    records: &records,
                    objects: diagnoses.iter().map(|d| (d, of_object(d))).collect(),
                    now,
                };
                write_page(&page, path, out)?;
                return Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS });
            }
            match view.output {
                ExplainOutput::Json => output::write_json_list(out, &diagnoses)?,
                ExplainOutput::Yaml => output::write_yaml_list(out, &diagnoses)?,
                ExplainOutput::Jsonl => {
                    for diagnosis in &diagnoses {
                        writeln!(out, "{}", serde_json::to_string(diagnosis)?)?;
                    }
                }
                ExplainOutput::Name => {
                    for diagnosis in &diagnoses {
                        match output::object_name(diagnosis) {
                            Some(name) => writeln!(out, "{name}")?,
                            None => unnamed += 1,
                        }
                    }
                }
                ExplainOutput::Table | ExplainOutput::Wide => {
                    let colour = crate::table::colour_stdout();
                    let width = std::env::var("COLUMNS")
                        .ok()
                        .and_then(|c| c.parse().ok())
                        .unwrap_or(crate::timeline::MAX_TEXT_WIDTH);
                    for diagnosis in &diagnoses {
                        let timeline = Timeline::of(of_object(diagnosis));
                        diagnosis_block(diagnosis, &timeline, now, Picture { width, colour }, out)?;
                    }
                }
            }
        }
        Mode::Records => match view.output {
            ExplainOutput::Json => output::write_json_list(out, &records)?,
            ExplainOutput::Yaml => output::write_yaml_list(out, &records)?,
            ExplainOutput::Table | ExplainOutput::Wide if records.is_empty() => {
                eprintln!("gpu-events: no events found");
            }
            ExplainOutput::Table | ExplainOutput::Wide => {
                let wide = view.output == ExplainOutput::Wide;
                table(&mut records, now, wide)
                    .headers(!view.no_headers)
                    .coloured(crate::table::colour_stdout())
                    .write(out)?;
            }
            ExplainOutput::Jsonl | ExplainOutput::Name => {}
        },
    }
    if unnamed > 0 {
        let what = if view.mode == Mode::Diagnose { "object(s)" } else { "event(s)" };
        eprintln!("gpu-events: -o name: {unnamed} {what} not named in the input, left out");
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// An item that could not be read, or input that is not events, on stderr.
fn report(err: &DecodeError) {
    let level = if err.is_fatal() {
        "error"
    } else if err.is_loss() {
        "warning: skipped"
    } else {
        "note: skipped"
    };
    eprintln!("gpu-events: {level}: {err}");
}

/// `--summary` from entries reduced on the decoding threads (see [`print_with`] for records).
fn summarize(
    entries: impl Iterator<Item = Result<SummaryEntry, DecodeError>>,
    view: View<'_>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let mut failed = false;
    let mut summary = Summary::default();
    let progress = io::stderr().is_terminal();
    let mut read = 0u64;
    for entry in entries {
        read += 1;
        if progress && read.is_multiple_of(PROGRESS_EVERY) {
            eprint!("\rgpu-events: {read} events read…");
        }
        match entry {
            Ok(entry) => summary.add_entry(entry),
            Err(err) => {
                failed |= err.is_loss();
                report(&err);
            }
        }
    }
    if progress && read >= PROGRESS_EVERY {
        eprint!("\r\x1b[2K");
    }
    let report = summary.finish();
    if report.unrecognized > 0 {
        eprintln!(
            "gpu-events: {} note(s) did not match their reason's grammar (flag unrecognizedNote)",
            report.unrecognized
        );
    }
    write_summary(&report, view, out)?;
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn write_summary(report: &SummaryReport, view: View<'_>, out: &mut impl Write) -> Result<(), Error> {
    match view.output {
        ExplainOutput::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)?;
        }
        ExplainOutput::Jsonl => writeln!(out, "{}", serde_json::to_string(report)?)?,
        ExplainOutput::Yaml => output::write_yaml(out, report)?,
        ExplainOutput::Table | ExplainOutput::Wide => summary_table(report, !view.no_headers, out)?,
        // `main` refuses `--summary -o name` before reading; this is the same answer.
        ExplainOutput::Name => {
            return Err(Error::Config("--summary has no names to print: use -o table, wide, json or yaml".into()));
        }
    }
    Ok(())
}

fn summary_table(report: &SummaryReport, headers: bool, out: &mut impl Write) -> Result<(), Error> {
    writeln!(out, "{} records, {} with an unrecognized note\n", report.records, report.unrecognized)?;
    let mut reasons = Table::new(vec!["REASON", "COUNT"]).headers(headers);
    let mut by_count: Vec<_> = report.by_reason.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, count) in by_count {
        reasons.push(vec![clean(reason), count.to_string()]);
    }
    reasons.write(out)?;
    if !report.by_cause.is_empty() {
        writeln!(out)?;
        let mut causes = Table::new(vec!["CAUSE", "OBJECTS"]).headers(headers);
        for (cause, count) in &report.by_cause {
            causes.push(vec![cause.clone(), count.to_string()]);
        }
        causes.write(out)?;
    }
    Ok(())
}

/// A diagnosed object's events, and evidence they did not hold (a Pod's live status).
fn of_object<'a>(by_object: &HashMap<ObjectKey, Vec<&'a EventRecord>>, d: &'a Diagnosis) -> Vec<&'a EventRecord> {
    let mut of = by_object.get(&d.object).cloned().unwrap_or_default();
    for record in &d.evidence {
        if !of.contains(&record) {
            of.push(record);
        }
    }
    of
}

/// `--html FILE`: the page, in FILE or on standard output (`-`).
fn write_page(page: &html::Page<'_>, path: &Path, out: &mut impl Write) -> Result<(), Error> {
    if path == Path::new("-") {
        return Ok(html::write(page, out)?);
    }
    let open = |source| Error::Open { path: path.to_owned(), source };
    let mut file = io::BufWriter::new(File::create(path).map_err(open)?);
    html::write(page, &mut file)?;
    file.flush()?;
    eprintln!(
        "gpu-events: wrote {}: {} object(s) to look at, {} event(s)",
        path.display(),
        page.objects.len(),
        page.records.len()
    );
    Ok(())
}

/// How the text timeline is drawn: at most `width` columns, coloured or plain.
#[derive(Clone, Copy)]
struct Picture {
    width: usize,
    colour: bool,
}

fn diagnosis_block(
    d: &Diagnosis,
    timeline: &Timeline,
    now: DateTime<Utc>,
    picture: Picture,
    out: &mut impl Write,
) -> Result<(), Error> {
    // A pasted Events section names neither kind nor object: say so, with the kind its
    // reasons imply.
    let kind = d.kind().map_or_else(|| "object".to_owned(), |k| k.to_lowercase());
    let object = match d.object.name.as_deref() {
        Some(name) => format!("{kind}/{name}"),
        None => format!("{kind} (not named in the input)"),
    };
    let namespace = d.object.namespace.as_deref().map(|ns| format!(" -n {ns}")).unwrap_or_default();
    writeln!(
        out,
        "{}{}: {} — {} ({:?} confidence)",
        clean(&object),
        clean(&namespace),
        phase_name(d),
        d.cause,
        d.confidence
    )?;
    writeln!(out, "  {}", d.cause.summary())?;
    timeline.write_text(out, picture.width, picture.colour)?;
    writeln!(out, "  evidence:")?;
    for record in &d.evidence {
        let row = row(record, now);
        writeln!(out, "    {:<10} {:<8} {:<28} {}", row[0], row[1], clean(&row[2]), clean(&row[5]))?;
    }
    for alternative in &d.also_possible {
        writeln!(
            out,
            "  also possible: {} ({:?} confidence): {}",
            alternative.cause,
            alternative.confidence,
            alternative.cause.summary()
        )?;
        if let Some(record) = alternative.evidence.first() {
            let row = row(record, now);
            writeln!(out, "    {:<10} {:<8} {:<28} {}", row[0], row[1], clean(&row[2]), clean(&row[5]))?;
        }
    }
    writeln!(out, "  next steps:")?;
    for step in &d.next_steps {
        writeln!(out, "    {step}")?;
    }
    writeln!(out)?;
    Ok(())
}

pub(crate) fn phase_name(d: &Diagnosis) -> String {
    serde_json::to_value(d.phase).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// kubectl `get events` columns, oldest first like `kubectl events`; NAMESPACE when the input
/// spans several namespaces. Wide (`-o wide`, as `kubectl get events -o wide`) always has
/// NAMESPACE and adds FIRST SEEN, COUNT and SOURCE (reportingController, reportingInstance).
fn table(records: &mut [EventRecord], now: DateTime<Utc>, wide: bool) -> Table {
    records.sort_by_key(|r| r.last_timestamp);
    let first_namespace = records.first().and_then(|r| r.regarding.namespace.clone());
    let namespaces = wide || records.iter().any(|r| r.regarding.namespace != first_namespace);
    let mut header = vec!["LAST SEEN", "TYPE", "REASON", "OBJECT", "GROUP", "MESSAGE"];
    if wide {
        header.extend(["SOURCE", "FIRST SEEN", "COUNT"]);
    }
    if namespaces {
        header.insert(0, "NAMESPACE");
    }
    let mut table = Table::new(header);
    for record in records.iter() {
        let mut row = row(record, now);
        if wide {
            // The count is its own column here, not a `(xN)` suffix.
            if record.count > 1 {
                row[5] = record.note.clone();
            }
            row.push(source(record));
            row.push(record.first_timestamp.map_or_else(|| "<unknown>".to_owned(), |at| age::human(now - at)));
            row.push(record.count.to_string());
        }
        if namespaces {
            row.insert(0, record.regarding.namespace.clone().unwrap_or_default());
        }
        table.push(row.into_iter().map(|cell| clean(&cell)).collect());
    }
    table
}

/// kubectl's SOURCE column: `reportingController, reportingInstance`, or the one that is known.
fn source(record: &EventRecord) -> String {
    match (record.reporting_controller.as_deref(), record.reporting_instance.as_deref()) {
        (Some(controller), Some(instance)) => format!("{controller}, {instance}"),
        (Some(one), None) | (None, Some(one)) => one.to_owned(),
        (None, None) => String::new(),
    }
}

/// Control characters (newlines, ESC, tabs) would break rows or reach the terminal raw.
fn clean(cell: &str) -> String {
    cell.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A record's cells: LAST SEEN, TYPE, REASON, OBJECT, GROUP, MESSAGE.
pub(crate) fn row(record: &EventRecord, now: DateTime<Utc>) -> Vec<String> {
    let mut last_seen = match record.last_timestamp {
        // A pasted status block or container state is the object now, not an event with an age.
        _ if record.has_flag(gpu_events_core::record::Flag::FromStatus) => "status".to_owned(),
        Some(at) => age::human(now - at),
        None => "<unknown>".to_owned(),
    };
    if record.has_flag(gpu_events_core::record::Flag::ApproximateTime) && last_seen != "status" {
        last_seen.insert(0, '~');
    }
    let regarding = &record.regarding;
    let object = format!(
        "{}/{}",
        regarding.kind.as_deref().unwrap_or("unknown").to_lowercase(),
        regarding.name.as_deref().unwrap_or("")
    );
    let group = record.group.map_or_else(|| "-".to_owned(), |g| g.to_string());
    let mut message = record.note.clone();
    if record.count > 1 {
        message = format!("{message} (x{})", record.count);
    }
    vec![
        last_seen,
        record.type_.as_ref().map_or_else(String::new, |t| t.to_string()),
        record.reason.to_string(),
        object,
        group,
        message,
    ]
}
