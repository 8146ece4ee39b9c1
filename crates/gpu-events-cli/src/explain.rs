//! `gpu-events explain`: decode events and print them as a table or JSON Lines.

use std::fs::File;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::decode::{DecodeError, Decoder};

use crate::table::Table;
use crate::{Error, ExplainOutput, age};

/// The bundled sample dump, compiled into the binary.
const SAMPLE: &str = include_str!("../sample/events.yaml");
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
    output: ExplainOutput,
    now: Option<DateTime<Utc>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let source: Box<dyn Read> = match input {
        Input::File(path) if path == Path::new("-") => {
            return stream(Box::new(io::stdin().lock()), output, now, out);
        }
        Input::File(path) => {
            if path.is_dir() {
                return Err(Error::Open {
                    path: path.to_owned(),
                    source: io::Error::other("is a directory, not an events file"),
                });
            }
            Box::new(File::open(path).map_err(|source| Error::Open {
                path: path.to_owned(),
                source,
            })?)
        }
        // Piped input, unless the pipe is empty (`< /dev/null`, CI runners): then the sample.
        Input::Auto if !io::stdin().is_terminal() && has_input(&mut io::stdin().lock())? => {
            return stream(Box::new(io::stdin().lock()), output, now, out);
        }
        Input::Auto | Input::Sample => {
            let now = now.unwrap_or_else(|| SAMPLE_NOW.parse().expect("SAMPLE_NOW is RFC 3339"));
            if output == ExplainOutput::Table {
                writeln!(
                    out,
                    "# bundled sample (no FILE given, nothing piped in); LAST SEEN is relative to {now}"
                )?;
            } else {
                eprintln!(
                    "gpu-events: reading the bundled sample (no FILE given, nothing piped in)"
                );
            }
            return print(
                Decoder::from_str(SAMPLE).reference_time(now),
                output,
                now,
                false,
                out,
            );
        }
    };
    let now = now.unwrap_or_else(Utc::now);
    print(
        Decoder::from_reader(source).reference_time(now),
        output,
        now,
        false,
        out,
    )
}

/// Standard input: JSON Lines are flushed record by record, so a watch (`kubectl get events -w
/// -o json | gpu-events explain - -o json`) shows each event as it comes.
fn stream(
    input: Box<dyn Read>,
    output: ExplainOutput,
    now: Option<DateTime<Utc>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let now = now.unwrap_or_else(Utc::now);
    print(
        Decoder::from_reader(input).reference_time(now),
        output,
        now,
        true,
        out,
    )
}

/// Whether a reader has at least one byte, without consuming it.
fn has_input(reader: &mut impl BufRead) -> io::Result<bool> {
    Ok(!reader.fill_buf()?.is_empty())
}

fn print(
    decoder: impl Iterator<Item = Result<EventRecord, DecodeError>>,
    output: ExplainOutput,
    now: DateTime<Utc>,
    live: bool,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let mut failed = false;
    let mut records = Vec::new();
    for item in decoder {
        let record = match item {
            Ok(record) => record,
            Err(err) => {
                failed = true;
                let level = if err.is_fatal() {
                    "error"
                } else {
                    "warning: skipped"
                };
                eprintln!("gpu-events: {level}: {err}");
                continue;
            }
        };
        match output {
            ExplainOutput::Json => {
                serde_json::to_writer(&mut *out, &record)?;
                writeln!(out)?;
                if live {
                    out.flush()?;
                }
            }
            ExplainOutput::Table => records.push(record),
        }
    }
    if output == ExplainOutput::Table {
        if records.is_empty() {
            eprintln!("gpu-events: no events found");
        } else {
            table(&mut records, now).write(out)?;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// kubectl `get events` columns, oldest first like `kubectl events`; NAMESPACE when the input
/// spans several namespaces.
fn table(records: &mut [EventRecord], now: DateTime<Utc>) -> Table {
    records.sort_by_key(|r| r.last_timestamp);
    let first_namespace = records.first().and_then(|r| r.regarding.namespace.clone());
    let namespaces = records
        .iter()
        .any(|r| r.regarding.namespace != first_namespace);
    let mut header = vec!["LAST SEEN", "TYPE", "REASON", "OBJECT", "GROUP", "MESSAGE"];
    if namespaces {
        header.insert(0, "NAMESPACE");
    }
    let mut table = Table::new(header);
    for record in records.iter() {
        let mut row = row(record, now);
        if namespaces {
            row.insert(0, record.regarding.namespace.clone().unwrap_or_default());
        }
        table.push(row.into_iter().map(|cell| clean(&cell)).collect());
    }
    table
}

/// Control characters (newlines, ESC, tabs) would break rows or reach the terminal raw.
fn clean(cell: &str) -> String {
    cell.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn row(record: &EventRecord, now: DateTime<Utc>) -> Vec<String> {
    let mut last_seen = match record.last_timestamp {
        Some(at) => age::human(now - at),
        None => "<unknown>".to_owned(),
    };
    if record.has_flag(gpu_events_core::record::Flag::ApproximateTime) {
        last_seen.insert(0, '~');
    }
    let regarding = &record.regarding;
    let object = format!(
        "{}/{}",
        regarding
            .kind
            .as_deref()
            .unwrap_or("unknown")
            .to_lowercase(),
        regarding.name.as_deref().unwrap_or("")
    );
    let group = record
        .group
        .map_or_else(|| "-".to_owned(), |g| g.to_string());
    let mut message = record.note.clone();
    if record.count > 1 {
        message = format!("{message} (x{})", record.count);
    }
    vec![
        last_seen,
        record
            .type_
            .as_ref()
            .map_or_else(String::new, |t| t.to_string()),
        record.reason.to_string(),
        object,
        group,
        message,
    ]
}
