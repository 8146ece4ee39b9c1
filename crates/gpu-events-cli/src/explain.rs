//! `gpu-events explain`: decode events and print them as a table or JSON Lines.

use std::fs::File;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::decode::Decoder;

use crate::table::Table;
use crate::{Error, ExplainOutput, age};

/// The bundled sample dump, compiled into the binary.
const SAMPLE: &str = include_str!("../sample/events.yaml");
/// The sample's clock: a little after its newest event, so LAST SEEN reads as on the day.
const SAMPLE_NOW: &str = "2026-11-30T06:05:00Z";

pub fn run(
    file: Option<&Path>,
    output: ExplainOutput,
    now: Option<DateTime<Utc>>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let input: Box<dyn Read> = match file {
        Some(path) if path == Path::new("-") => Box::new(io::stdin().lock()),
        Some(path) => Box::new(File::open(path).map_err(|source| Error::Open {
            path: path.to_owned(),
            source,
        })?),
        // Piped input, unless the pipe is empty (`< /dev/null`, CI runners): then the sample.
        None if !io::stdin().is_terminal() && has_input(&mut io::stdin().lock())? => {
            Box::new(io::stdin().lock())
        }
        None => {
            let now = now.unwrap_or_else(|| SAMPLE_NOW.parse().expect("SAMPLE_NOW is RFC 3339"));
            if output == ExplainOutput::Table {
                writeln!(
                    out,
                    "# bundled sample: no FILE given and nothing piped in; LAST SEEN is relative to {now}"
                )?;
            } else {
                eprintln!(
                    "gpu-events: no FILE given and nothing piped in: reading the bundled sample"
                );
            }
            return print(Decoder::from_str(SAMPLE), output, now, out);
        }
    };
    print(
        Decoder::from_reader(input),
        output,
        now.unwrap_or_else(Utc::now),
        out,
    )
}

/// Whether a reader has at least one byte, without consuming it.
fn has_input(reader: &mut impl BufRead) -> io::Result<bool> {
    Ok(!reader.fill_buf()?.is_empty())
}

fn print(
    decoder: impl Iterator<Item = Result<EventRecord, gpu_events_core::decode::DecodeError>>,
    output: ExplainOutput,
    now: DateTime<Utc>,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let mut failed = false;
    let mut table = Table::new(vec![
        "LAST SEEN",
        "TYPE",
        "REASON",
        "OBJECT",
        "GROUP",
        "MESSAGE",
    ]);
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
            }
            ExplainOutput::Table => table.push(row(&record, now)),
        }
    }
    if output == ExplainOutput::Table {
        table.write(out)?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn row(record: &EventRecord, now: DateTime<Utc>) -> Vec<String> {
    let last_seen = match record.last_timestamp {
        Some(at) => age::human(now - at),
        None => "<unknown>".to_owned(),
    };
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
    let mut message = record.note.replace(['\n', '\r'], " ");
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
