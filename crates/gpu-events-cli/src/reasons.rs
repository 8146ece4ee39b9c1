//! `gpu-events reasons`: the catalogue as a table, JSON or Markdown.

use std::io::Write;
use std::process::ExitCode;

use gpu_events_core::Reason;
use gpu_events_core::reason::{catalogue_json, catalogue_markdown};

use crate::table::Table;
use crate::{Error, ReasonsOutput};

pub fn run(output: ReasonsOutput, out: &mut impl Write) -> Result<ExitCode, Error> {
    match output {
        ReasonsOutput::Json => {
            serde_json::to_writer_pretty(&mut *out, &catalogue_json())?;
            writeln!(out)?;
        }
        ReasonsOutput::Markdown => out.write_all(catalogue_markdown().as_bytes())?,
        ReasonsOutput::Table => {
            let mut table = Table::new(vec!["REASON", "TYPE", "OBJECTS", "GROUP", "SOURCE", "REPORTING CONTROLLERS"]);
            for reason in Reason::all() {
                let info = reason.info();
                let types: Vec<&str> = info.types.iter().map(|t| t.as_str()).collect();
                let mut types = types.join(",");
                if info.retired {
                    types.push_str(" (retired)");
                }
                table.push(vec![
                    info.wire.to_owned(),
                    types,
                    info.objects.join(","),
                    info.group.to_string(),
                    info.source.to_string(),
                    info.reporting_controllers.join(","),
                ]);
            }
            table.write(out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
