//! `gpu-events`: read Kubernetes event dumps as typed records, list the reason catalogue, and print
//! the record schema. Also installable as the kubectl plugin `kubectl-gpu_events`.

mod age;
mod cluster;
mod explain;
mod export;
mod html;
mod live;
mod output;
mod reasons;
mod redact;
mod table;
mod timeline;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// Typed Kubernetes events for GPU platforms.
#[derive(Parser, Debug)]
#[command(name = "gpu-events", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    cluster: cluster::ClusterArgs,
    /// When to colour the output: `auto` colours a terminal unless `NO_COLOR` is set.
    #[arg(long, global = true, value_enum, default_value_t = table::ColorChoice::Auto)]
    color: table::ColorChoice,
}

/// The name the command is known by: run as the kubectl plugin (`kubectl-gpu_events`, which
/// kubectl runs for `kubectl gpu-events`), its usage says so.
pub(crate) fn command_name(argv0: Option<&std::ffi::OsStr>) -> &'static str {
    let file = argv0.map(std::path::Path::new).and_then(|p| p.file_stem()).and_then(|s| s.to_str());
    if file == Some("kubectl-gpu_events") { "kubectl gpu-events" } else { "gpu-events" }
}

/// The main man page, or a subcommand's under the name the main page's SUBCOMMANDS section
/// gives it (`gpu-events-explain(1)`, clap_mangen's naming).
fn man_page(subcommand: Option<&str>, out: &mut impl Write) -> Result<ExitCode, Error> {
    let mut command = cli_command();
    // Built, so that clap's own `help` subcommand, which the main page lists, has a page too.
    command.build();
    let page = match subcommand {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name).cloned() else {
                let known: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                eprintln!("gpu-events: error: no subcommand {name:?}; man pages exist for: {}", known.join(", "));
                return Ok(ExitCode::from(2));
            };
            // A one-shot command: the page's name lives until the process ends.
            let title: &'static str =
                Box::leak(format!("{}-{name}", command.get_name().replace(' ', "-")).into_boxed_str());
            sub.name(title)
        }
    };
    clap_mangen::Man::new(page).render(out).map(|()| ExitCode::SUCCESS).map_err(Error::from)
}

/// The clap command under the name it was run by.
fn cli_command() -> clap::Command {
    let name = command_name(std::env::args_os().next().as_deref());
    Cli::command().bin_name(name).name(name)
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read events (kubectl JSON or YAML: one Event, an EventList/List, or a stream; core/v1 or
    /// events.k8s.io/v1) and print them as typed records.
    ///
    /// Also reads the text people paste: `kubectl describe` output (its Events sections),
    /// `kubectl get events` tables, klog "Event occurred" lines, and JSON Lines of records.
    /// With no FILE, reads standard input when it is piped; on a terminal it prints a usage hint
    /// (`--sample` reads the bundled sample dump). Items
    /// that cannot be read are reported on stderr and the rest are printed; the exit status is 1
    /// if anything was not read.
    Explain {
        /// Input file, `-` for standard input, or an object in the cluster (`pod/NAME`, any
        /// kind) to read its events live from the kubeconfig's cluster.
        #[arg(conflicts_with = "sample")]
        file: Option<PathBuf>,
        /// Namespace of the object (live mode); alone, reads every event of the namespace.
        #[arg(short, long)]
        namespace: Option<String>,
        /// Every namespace (live mode, without an object).
        #[arg(short = 'A', long, conflicts_with = "namespace")]
        all_namespaces: bool,
        /// Read the bundled sample dump (compiled into the binary), whatever stdin is.
        #[arg(long)]
        sample: bool,
        /// Output format, as kubectl's `-o`: `json` and `yaml` print one `List` document, `jsonl`
        /// one record (or diagnosis) per line as it is read (for `-w` streams).
        #[arg(short, long, value_enum, default_value_t = ExplainOutput::Table)]
        output: ExplainOutput,
        /// Leave out the header row of tables (`-o table`, `-o wide`), as kubectl's `--no-headers`.
        #[arg(long)]
        no_headers: bool,
        /// Group the events by object and say, for each stuck one, its phase, the most likely
        /// cause (a stable id such as `insufficient-gpu`), the evidence and the next steps.
        #[arg(long, conflicts_with = "summary")]
        diagnose: bool,
        /// Print counts only: records, records per reason, diagnosed objects per cause.
        #[arg(long)]
        summary: bool,
        /// Write one self-contained HTML page to FILE (`-` for standard output) instead: per
        /// stuck object its timeline and diagnosis, and occurrences by reason as a bar chart.
        /// The page loads nothing from the network.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["summary", "output", "no_headers"])]
        html: Option<PathBuf>,
        /// Reference time (RFC 3339) for LAST SEEN and for the relative ages of pasted tables
        /// (`4m43s`); defaults to now.
        #[arg(long, value_parser = parse_time)]
        now: Option<DateTime<Utc>>,
        #[command(flatten)]
        redaction: redact::ExplainArgs,
    },
    /// Export events before they expire: watch the cluster (both Event APIs if asked), write each
    /// Event once as a typed record, repeats as deltas with their counts, to stdout, a file, OTLP
    /// or a webhook; a checkpoint (`--state`) makes restarts lossless and duplicate-free.
    Export(Box<export::ExportArgs>),
    /// Write the input back with secrets replaced, every other byte unchanged: the step before
    /// pasting `kubectl describe` output, a YAML dump or logs into an issue.
    ///
    /// `gpu-events redact describe.txt > safe.txt`. The rules are the exporter's (credentials,
    /// tokens, signed URLs, keys, passwords, addresses; `--list-rules`), plus your own; stderr
    /// says how many of each rule were replaced.
    Redact(redact::RedactArgs),
    /// List the reason catalogue.
    Reasons {
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReasonsOutput::Table)]
        output: ReasonsOutput,
    },
    /// Print the JSON Schema of the event record (the `-o json` output of `explain`).
    Schema,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    ///
    /// e.g. `gpu-events completions bash > ~/.local/share/bash-completion/completions/gpu-events`.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff) to standard output: `gpu-events man > gpu-events.1`, and each
    /// subcommand's page, which the first one lists: `gpu-events man explain > gpu-events-explain.1`.
    Man {
        /// The subcommand whose page to print (`explain`, `export`, ...); none: the main page.
        subcommand: Option<String>,
    },
}

/// `explain -o`: kubectl's output names, plus `jsonl` for streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExplainOutput {
    /// kubectl `get events` columns (the default).
    Table,
    /// The table with FIRST SEEN, COUNT, NAMESPACE and the reporting controller/instance.
    Wide,
    /// `event/NAME` per event the input names (with `--diagnose`: `kind/name` per object).
    Name,
    /// One JSON document: a `List` of records (or diagnoses); `--summary` prints its object.
    Json,
    /// The same document as YAML.
    Yaml,
    /// JSON Lines: one record (or diagnosis) per line, written as it is read.
    Jsonl,
}

impl ExplainOutput {
    /// Whether this format is a table (where `--no-headers` applies).
    fn is_table(self) -> bool {
        matches!(self, ExplainOutput::Table | ExplainOutput::Wide)
    }
}

/// What `explain` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Records,
    Diagnose,
    Summary,
}

/// What `explain` prints, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct View<'a> {
    mode: Mode,
    output: ExplainOutput,
    /// `--no-headers`.
    no_headers: bool,
    /// `--html FILE`: the diagnoses as a page in FILE (`-`: standard output).
    html: Option<&'a std::path::Path>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReasonsOutput {
    Table,
    Json,
    Markdown,
}

fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|err| format!("{err}; expected RFC 3339, e.g. 2026-11-30T06:00:00Z"))
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&cli_command().get_matches()) {
        Ok(cli) => cli,
        Err(err) => err.exit(),
    };
    table::set_color(cli.color);
    let cluster = cli.cluster;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Explain {
            file,
            sample,
            output,
            no_headers,
            diagnose,
            summary,
            html,
            now,
            namespace,
            all_namespaces,
            redaction,
        } => {
            let redactor = match redaction.redactor() {
                Ok(redactor) => redactor,
                Err(err) => return fail(&err),
            };
            let mode = match (diagnose || html.is_some(), summary) {
                (true, _) => Mode::Diagnose,
                (_, true) => Mode::Summary,
                _ => Mode::Records,
            };
            if mode == Mode::Summary && output == ExplainOutput::Name {
                cli_command()
                    .error(
                        clap::error::ErrorKind::ArgumentConflict,
                        "-o name lists events or, with --diagnose, objects; --summary has neither",
                    )
                    .exit();
            }
            let view = View { mode, output, no_headers, html: html.as_deref() };
            // An argument that is no file but reads `kind/name` is an object in the cluster.
            let object = file.as_deref().filter(|p| !p.exists()).and_then(|p| p.to_str()).and_then(live::parse_object);
            if object.is_some() || (file.is_none() && !sample && (namespace.is_some() || all_namespaces)) {
                let (kind, name) = object.map_or((None, None), |(k, n)| (Some(k), Some(n)));
                let namespace = if all_namespaces { None } else { namespace };
                let target = live::Target { kind, name, namespace, cluster };
                explain::run_live(&target, view, now, redactor.as_ref(), &mut out)
            } else if namespace.is_some() || all_namespaces {
                // kubectl refuses a namespace that does not fit its `-f` input; here it would
                // select nothing, so say so rather than print every namespace's events.
                cli_command()
                    .error(
                        clap::error::ErrorKind::ArgumentConflict,
                        "-n/--namespace and -A select objects in the cluster; with a FILE or --sample there is \
                         nothing for them to select (filter the dump when you make it: kubectl get events -n NS -o json)",
                    )
                    .exit();
            } else {
                let input = match (&file, sample) {
                    (Some(path), _) => explain::Input::File(path),
                    (None, true) => explain::Input::Sample,
                    (None, false) => explain::Input::Auto,
                };
                explain::run(input, view, now, redactor.as_ref(), &mut out)
            }
        }

        Command::Export(args) => export::run(*args, &cluster).map_err(Error::Export),
        Command::Redact(args) => redact::run(args),
        Command::Reasons { output } => reasons::run(output, &mut out),
        Command::Schema => print_schema(&mut out),
        Command::Completions { shell } => {
            let mut command = cli_command();
            let name = command.get_name().to_owned();
            clap_complete::generate(shell, &mut command, name, &mut out);
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { subcommand } => man_page(subcommand.as_deref(), &mut out),
    };
    let result = result.and_then(|status| out.flush().map(|()| status).map_err(Error::from));
    match result {
        Ok(status) => status,
        // A closed pipe (`| head`) is not an error.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => fail(&err),
    }
}

fn fail(err: &Error) -> ExitCode {
    eprintln!("gpu-events: error: {err:#}");
    ExitCode::FAILURE
}

fn print_schema(out: &mut impl Write) -> Result<ExitCode, Error> {
    let schema = gpu_events_core::EventRecord::json_schema();
    serde_json::to_writer_pretty(&mut *out, &schema)?;
    writeln!(out)?;
    Ok(ExitCode::SUCCESS)
}

/// Errors of the command (input errors are reported per item and do not end up here).
#[derive(Debug, thiserror::Error)]
enum Error {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot open {path}: {source}")]
    Open { path: PathBuf, source: io::Error },
    #[error("reading the cluster: {0}")]
    Kube(kube::Error),
    #[error("{0}")]
    Cluster(String),
    #[error("export: {0}")]
    Export(String),
    /// Redaction rules that cannot be used (a file, or a rule that does not compile).
    #[error("{0}")]
    Config(String),
}

fn is_broken_pipe(err: &Error) -> bool {
    match err {
        Error::Io(err) => err.kind() == io::ErrorKind::BrokenPipe,
        Error::Json(err) => err.io_error_kind() == Some(io::ErrorKind::BrokenPipe),
        Error::Open { .. } | Error::Kube(_) | Error::Cluster(_) | Error::Export(_) | Error::Config(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_names_itself_as_kubectl_runs_it() {
        assert_eq!(command_name(Some("/usr/local/bin/kubectl-gpu_events".as_ref())), "kubectl gpu-events");
        assert_eq!(command_name(Some("kubectl-gpu_events.exe".as_ref())), "kubectl gpu-events");
        assert_eq!(command_name(Some("/usr/bin/gpu-events".as_ref())), "gpu-events");
        assert_eq!(command_name(None), "gpu-events");
    }

    #[test]
    fn the_clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

// Records are built on decoding threads and dropped on the main one: glibc's arenas serialize
// those cross-thread frees, mimalloc does not.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
