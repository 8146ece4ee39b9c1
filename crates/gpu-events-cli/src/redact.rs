//! `gpu-events redact [FILE|-]`: the input back byte for byte, secrets replaced (the exporter's
//! redaction engine and rules), and on stderr how many of each rule were replaced. Also the
//! `--redact` flags of `explain`, which run the same engine over the input text before decoding.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use gpu_events_export::config::ExportConfig;
use gpu_events_export::redact::{Counts, RedactingReader, builtin_rules};
use gpu_events_export::{RedactionConfig, RedactionRule, Redactor};

use crate::Error;

/// What `redact` says when run on a terminal with nothing to read.
const USAGE_HINT: &str = "gpu-events redact: nothing to read. Give it the text to paste:
  kubectl describe pod NAME > describe.txt && gpu-events redact describe.txt > safe.txt
  kubectl get events -A -o yaml | gpu-events redact - > events.yaml";

/// Flags of `gpu-events redact`.
#[derive(Args, Debug)]
pub(crate) struct RedactArgs {
    /// Input file, or `-` for standard input (the default when it is piped).
    file: Option<PathBuf>,
    #[command(flatten)]
    rules: RuleArgs,
    /// List the built-in rules (name, family, what each matches) and exit.
    #[arg(long)]
    list_rules: bool,
}

/// Where the rules come from: the same as `gpu-events export`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct RuleArgs {
    /// The exporter's configuration file (YAML): its `redaction` block (`defaults`, `rules`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// A rule of your own (repeatable; replaces the file's rules, as in `export --redact`):
    /// `NAME=REGEX` (replaced by `<redacted>`) or inline YAML
    /// `{name: tenant, pattern: 'tenant-[0-9]+', replacement: '<tenant>'}`.
    #[arg(long = "rule", value_name = "RULE", value_parser = parse_rule)]
    rules: Vec<RedactionRule>,
    /// Turn off the built-in rules (only your own run).
    #[arg(long)]
    no_default_redaction: bool,
}

/// The redaction flags of `explain`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ExplainArgs {
    /// Redact the input before decoding it (the rules of `gpu-events redact`), so no output
    /// format shows a secret.
    #[arg(long)]
    redact: bool,
    /// Redaction rules from the exporter's configuration file (implies `--redact`).
    #[arg(long, value_name = "FILE")]
    redact_config: Option<PathBuf>,
    /// A redaction rule of your own, as `redact --rule` (repeatable; implies `--redact`).
    #[arg(long, value_name = "RULE", value_parser = parse_rule)]
    redact_rule: Vec<RedactionRule>,
}

impl ExplainArgs {
    /// The redactor, when asked for.
    pub(crate) fn redactor(self) -> Result<Option<Arc<Redactor>>, Error> {
        if !self.redact && self.redact_config.is_none() && self.redact_rule.is_empty() {
            return Ok(None);
        }
        let rules = RuleArgs { config: self.redact_config, rules: self.redact_rule, no_default_redaction: false };
        rules.redactor().map(|redactor| Some(Arc::new(redactor)))
    }
}

/// `NAME=REGEX`, or a rule in the config file's YAML form.
fn parse_rule(text: &str) -> Result<RedactionRule, String> {
    if text.trim_start().starts_with('{') {
        return serde_yaml_ng::from_str(text).map_err(|e| e.to_string());
    }
    match text.split_once('=') {
        Some((name, pattern)) if !name.trim().is_empty() && !pattern.is_empty() => {
            Ok(RedactionRule::new(name.trim(), pattern, "<redacted>"))
        }
        _ => Err("expected NAME=REGEX or {name: ..., pattern: ..., replacement: ...}".to_owned()),
    }
}

impl RuleArgs {
    /// The rules compiled; a rule that does not compile is an error naming it.
    fn redactor(&self) -> Result<Redactor, Error> {
        let mut config = match &self.config {
            Some(path) => ExportConfig::load(path).map_err(|e| Error::Config(e.to_string()))?.redaction,
            None => RedactionConfig::default(),
        };
        if self.no_default_redaction {
            config.defaults = false;
        }
        if !self.rules.is_empty() {
            config.rules.clone_from(&self.rules);
        }
        Redactor::new(&config).map_err(|e| Error::Config(e.to_string()))
    }
}

/// `gpu-events redact`.
pub(crate) fn run(args: RedactArgs) -> Result<ExitCode, Error> {
    if args.list_rules {
        let mut out = io::stdout().lock();
        for rule in builtin_rules() {
            use std::io::Write;
            writeln!(out, "{:<28} {:<19} {}", rule.name, rule.family, rule.matches)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let redactor = args.rules.redactor()?;
    let input: Box<dyn Read> = match args.file.as_deref() {
        Some(path) if path != Path::new("-") => {
            if path.is_dir() {
                return Err(Error::Open { path: path.to_owned(), source: io::Error::other("is a directory") });
            }
            Box::new(File::open(path).map_err(|source| Error::Open { path: path.to_owned(), source })?)
        }
        None if io::stdin().is_terminal() => {
            eprintln!("{USAGE_HINT}");
            return Ok(ExitCode::from(2));
        }
        _ => Box::new(io::stdin().lock()),
    };
    let counts = redactor.redact_stream(input, io::stdout().lock())?;
    eprintln!("gpu-events: {}", redactor.summary(&counts));
    Ok(ExitCode::SUCCESS)
}

/// `explain --redact`: the input read through the redactor (on a thread of its own, so
/// redaction and decoding overlap), or as it is.
pub(crate) fn reader(input: impl Read + Send + 'static, redactor: Option<&Arc<Redactor>>) -> Box<dyn Read + Send> {
    match redactor {
        Some(redactor) => Box::new(RedactingReader::spawn(Arc::clone(redactor), input)),
        None => Box::new(input),
    }
}

/// `explain --redact` of a text held in memory (the bundled sample).
pub(crate) fn text<'t>(text: &'t str, redactor: Option<&Arc<Redactor>>) -> Cow<'t, str> {
    match redactor {
        Some(redactor) => redactor.redact_text(text, &mut Counts::default()),
        None => Cow::Borrowed(text),
    }
}

/// `explain --redact` in live mode: the records come typed from the cluster, so they are
/// redacted as the exporter redacts them (note, names, details).
pub(crate) fn record(
    record: gpu_events_core::EventRecord,
    redactor: Option<&Arc<Redactor>>,
) -> gpu_events_core::EventRecord {
    let Some(redactor) = redactor else { return record };
    let mut export =
        gpu_events_export::ExportRecord::new(record, gpu_events_export::Delta::new(1, 1, None, None, None));
    redactor.redact(&mut export);
    export.record
}
