//! Redaction close to collection, before any sink, and of any text before it is pasted: regex
//! rules (built-in and user-given) applied to a record's `note`, names and typed `details`
//! ([`Redactor::redact`], the exporter), or to a whole text ([`Redactor::redact_text`],
//! [`Redactor::redact_stream`], [`RedactingReader`]: `gpu-events redact` and
//! `gpu-events explain --redact`). One engine, the same rules everywhere.
//!
//! # Built-in rules
//!
//! With [`RedactionConfig::defaults`] on (the default), these run first, in this order, each
//! named as counted by `gpu-events redact` and recorded in [`ExportRecord::redactions`]. A
//! replacement says what was there (`<aws-secret-key>`, `<jwt>`), and keeps what a reader needs
//! to follow the message (the host and path of a signed URL, the user of a connection string,
//! the scheme of an `Authorization` header). The same table, with each rule's reason, comes from
//! [`builtin_rules`].
//!
#![doc = include_str!("rules.md")]
//!
//! They are written not to touch what GPU events are made of: node, Pod and GPU names
//! (`gpu-node-3`, `GPU-e78e68c0-...`, MIG UUIDs), resource names (`nvidia.com/gpu`), MIG
//! profiles (`1g.10gb`), quantities (`10Gi`, `500m`), versions (`1.28.3`, `v1.2.3.4`,
//! `535.104.05`), UIDs, image digests (`@sha256:...`) and tags, container ids, times (`12:34:56`
//! is neither an IPv6 nor a MAC address) and the counts of scheduling failures; a test runs every
//! case text of the project through the engine and checks that nothing else changes. A bare
//! four-part number such as `1.2.3.4` cannot be told from an address and is redacted. GCE numeric
//! instance ids and Azure VM ids (plain UUIDs) are *not* redacted: they cannot be told apart from
//! other numbers and from Kubernetes UIDs; GCE and Azure node names are node names and are kept
//! too. EKS node names such as `ip-10-0-1-23.ec2.internal` are kept (they are the names of the
//! objects events are about); add a user rule to hide them.
//!
//! Every rule matches within one line but the whole-text ones: the two PEM rules, `env-value`
//! (`name:` and `value:` lines) and `argument-list-secret` (a flag and the next list item).
//!
//! # User rules
//!
//! [`RedactionRule`]s run after the built-in ones, in the order given, over the whole text (they
//! see what the built-in rules wrote). `pattern` uses the [`regex`] crate's syntax (linear time:
//! no backtracking, so no input can make a rule slow); `replacement` may refer to capture groups
//! as `$1` or `${name}` (write `$$` for a literal `$`).
//!
//! ```yaml
//! redaction:
//!   defaults: true
//!   rules:
//!     - name: tenant
//!       pattern: 'tenant-[0-9]+'
//!       replacement: 'tenant-<id>'
//! ```
//!
//! # Cost
//!
//! Every pattern is compiled once, in [`Redactor::new`]. A text is first screened in one pass
//! (`prefilter.rs`: an Aho-Corasick search for the rules' literal triggers, a `memchr` walk for
//! address shapes); a built-in rule runs only on the lines where its trigger occurs, so a line
//! with nothing to redact costs the screen alone, and a text with nothing to redact is returned
//! borrowed, without a copy.

mod prefilter;
#[cfg(test)]
mod rule_tests;
mod rules;
mod stream;

use std::borrow::Cow;

use gpu_events_core::details::Details;
use regex::{Regex, RegexSet};
use serde::Deserialize;

pub use rules::{BuiltinRule, builtin_rule_names, builtin_rules, builtin_rules_markdown};
pub use stream::RedactingReader;

use self::prefilter::{Line, Prefilter};
use self::rules::{Accept, BUILTINS, Check};
use crate::ExportRecord;
use crate::error::ConfigError;

/// The `redaction` block of the exporter's configuration, and (feature `clap`) its flags
/// `--no-default-redaction` and `--redact` (one declaration for both).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct RedactionConfig {
    /// Whether the built-in rules run (see the [module docs](self)); on by default
    /// ([`Default`]). The flag `--no-default-redaction` turns them off over the file.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "no-default-redaction",
            action = clap::ArgAction::SetFalse,
            help = "Turn off the built-in redaction rules (credentials, tokens, keys, passwords, ids, addresses: \
                    `gpu-events redact --list-rules`)"
        )
    )]
    pub defaults: bool,
    /// User rules, applied after the built-in ones, in this order. `--redact` rules replace the
    /// file's.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "redact",
            value_name = "RULE",
            value_parser = crate::config::inline_yaml::<RedactionRule>,
            help = "A redaction rule (repeatable), as in the config file, inline YAML: \
                    `{name: tenant, pattern: 'tenant-[0-9]+', replacement: '<tenant>'}`"
        )
    )]
    pub rules: Vec<RedactionRule>,
}

impl Default for RedactionConfig {
    fn default() -> Self {
        RedactionConfig { defaults: true, rules: Vec::new() }
    }
}

impl RedactionConfig {
    /// The built-in rules and the given user rules.
    pub fn with_rules(rules: Vec<RedactionRule>) -> Self {
        RedactionConfig { defaults: true, rules }
    }

    /// No rule at all: records pass unchanged.
    pub fn none() -> Self {
        RedactionConfig { defaults: false, rules: Vec::new() }
    }
}

/// One user rule: every match of `pattern` becomes `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct RedactionRule {
    /// The name recorded in [`ExportRecord::redactions`] when the rule changes a record; unique,
    /// and distinct from the built-in names.
    pub name: String,
    /// A regular expression in the [`regex`] crate's syntax; it must not match the empty string.
    pub pattern: String,
    /// What each match becomes; `$1` / `${name}` insert capture groups. `<redacted>` by default.
    #[serde(default = "default_replacement")]
    pub replacement: String,
}

impl RedactionRule {
    /// A rule.
    pub fn new(name: impl Into<String>, pattern: impl Into<String>, replacement: impl Into<String>) -> Self {
        RedactionRule { name: name.into(), pattern: pattern.into(), replacement: replacement.into() }
    }
}

fn default_replacement() -> String {
    "<redacted>".to_owned()
}

/// A compiled rule.
#[derive(Debug)]
struct Rule {
    name: String,
    regex: Regex,
    replacement: String,
    /// The replacement has no `$` and no check needs the groups: no capture expansion needed.
    literal: bool,
    check: Option<Check>,
    accept: Option<Accept>,
}

impl Rule {
    /// The text with every accepted match replaced and how many were, or `None` when nothing
    /// changed (no match, or every replacement equal to what it replaces).
    fn apply(&self, text: &str) -> Option<(String, u64)> {
        self.apply_swallowing(text, None)
    }

    /// As [`Rule::apply`]; with `swallowed`, also the built-in markers (`<ipv4>`) that the
    /// replaced text held and its replacement does not (an earlier rule's replacement this one
    /// replaced in turn), one entry each.
    fn apply_swallowing(&self, text: &str, mut swallowed: Option<&mut Vec<&'static str>>) -> Option<(String, u64)> {
        let mut out = String::new();
        let mut last = 0;
        let mut changed = 0;
        let mut splice = |start: usize, end: usize, replacement: &str, out: &mut String| {
            if start < last || text.get(start..end) == Some(replacement) {
                return;
            }
            if let Some(swallowed) = swallowed.as_deref_mut() {
                swallowed_markers(&text[start..end], replacement, swallowed);
            }
            out.push_str(&text[last..start]);
            out.push_str(replacement);
            last = end;
            changed += 1;
        };
        if self.literal {
            for found in self.regex.find_iter(text) {
                if let Some((start, end)) = self.range(text, found.start(), found.end()) {
                    splice(start, end, &self.replacement, &mut out);
                }
            }
        } else {
            let mut expanded = String::new();
            for captures in self.regex.captures_iter(text) {
                let Some(found) = captures.get(0) else { continue };
                if self.accept.is_some_and(|accept| !accept(&captures)) {
                    continue;
                }
                if let Some((start, end)) = self.range(text, found.start(), found.end()) {
                    expanded.clear();
                    captures.expand(&self.replacement, &mut expanded);
                    splice(start, end, &expanded, &mut out);
                }
            }
        }
        if changed == 0 {
            return None;
        }
        out.push_str(&text[last..]);
        Some((out, changed))
    }

    fn range(&self, text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
        match self.check {
            Some(check) => check(text, start, end).filter(|&(s, e)| s >= start && e <= end && s < e),
            None => Some((start, end)),
        }
    }
}

/// The `<...>` marker a built-in replacement writes (`<ipv4>` in `<ipv4>`, `<aws-signature>` in
/// `${p}<aws-signature>`).
fn marker_of(replacement: &'static str) -> Option<&'static str> {
    let start = replacement.find('<')?;
    let end = start + replacement[start..].find('>')?;
    Some(&replacement[start..=end])
}

/// The built-in markers in `removed` that `inserted` does not also hold (as many times), added
/// to `swallowed`.
fn swallowed_markers(removed: &str, inserted: &str, swallowed: &mut Vec<&'static str>) {
    if !removed.contains('<') {
        return;
    }
    let count = |text: &str, marker: &str| text.matches(marker).count();
    for (index, builtin) in BUILTINS.iter().enumerate() {
        let Some(marker) = marker_of(builtin.replacement) else { continue };
        // Rules that share a marker (`<secret>`, `<token>`): each marker once.
        if BUILTINS[..index].iter().any(|earlier| marker_of(earlier.replacement) == Some(marker)) {
            continue;
        }
        let lost = count(removed, marker).saturating_sub(count(inserted, marker));
        swallowed.extend(std::iter::repeat_n(marker, lost));
    }
}

/// The compiled redaction rules of a [`RedactionConfig`]. Cheap to share (`&self` methods only;
/// `Send + Sync`).
#[derive(Debug)]
pub struct Redactor {
    /// The built-in rules (none with `defaults: false`), then the user rules.
    rules: Vec<Rule>,
    /// How many of `rules` are built-in.
    builtins: usize,
    /// The built-in rules' triggers.
    prefilter: Option<Prefilter>,
    /// The user rules' patterns, for a one-pass screen.
    screen: RegexSet,
}

/// A string after redaction, from [`Redactor::redact_str`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted<'t, 'r> {
    /// The text, borrowed when nothing changed.
    pub text: Cow<'t, str>,
    /// The names of the rules that changed it, in rule order.
    pub rules: Vec<&'r str>,
}

/// How many replacements each rule of a [`Redactor`] made, added up over calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// By rule index (the order of [`Redactor::rule_names`]); grown on demand.
    by_rule: Vec<u64>,
}

impl Counts {
    /// All replacements.
    pub fn total(&self) -> u64 {
        self.by_rule.iter().sum()
    }

    /// Add `other`'s counts to these.
    pub fn add(&mut self, other: &Counts) {
        for (index, count) in other.by_rule.iter().enumerate() {
            self.bump(index, *count);
        }
    }

    fn bump(&mut self, index: usize, count: u64) {
        if self.by_rule.len() <= index {
            self.by_rule.resize(index + 1, 0);
        }
        self.by_rule[index] += count;
    }

    fn get(&self, index: usize) -> u64 {
        self.by_rule.get(index).copied().unwrap_or(0)
    }
}

impl Redactor {
    /// Compile the rules of `config`: the built-in ones (unless `defaults: false`), then the user
    /// rules.
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidPattern`] for a pattern that does not compile (the error names the
    /// rule and carries the regex compiler's message), [`ConfigError::EmptyMatch`] for a pattern
    /// that matches the empty string, [`ConfigError::EmptyName`] and
    /// [`ConfigError::DuplicateName`] for a missing or repeated name (built-in names included).
    pub fn new(config: &RedactionConfig) -> Result<Redactor, ConfigError> {
        const _: () = assert!(BUILTINS.len() <= 64, "the prefilter's rule masks are u64");
        let mut rules = Vec::new();
        if config.defaults {
            for builtin in BUILTINS {
                let regex = Regex::new(builtin.pattern).map_err(|source| ConfigError::InvalidPattern {
                    rule: builtin.info.name.to_owned(),
                    source: Box::new(source),
                })?;
                rules.push(Rule {
                    name: builtin.info.name.to_owned(),
                    regex,
                    replacement: builtin.replacement.to_owned(),
                    literal: !builtin.replacement.contains('$') && builtin.accept.is_none(),
                    check: builtin.check,
                    accept: builtin.accept,
                });
            }
        }
        let builtins = rules.len();
        for user in &config.rules {
            if user.name.trim().is_empty() {
                return Err(ConfigError::EmptyName { what: "redaction rule" });
            }
            if rules.iter().any(|rule| rule.name == user.name) || builtin_rule_names().any(|name| name == user.name) {
                return Err(ConfigError::DuplicateName { what: "redaction rule", name: user.name.clone() });
            }
            let regex = Regex::new(&user.pattern)
                .map_err(|source| ConfigError::InvalidPattern { rule: user.name.clone(), source: Box::new(source) })?;
            if regex.is_match("") {
                return Err(ConfigError::EmptyMatch { rule: user.name.clone(), pattern: user.pattern.clone() });
            }
            rules.push(Rule {
                name: user.name.clone(),
                regex,
                replacement: user.replacement.clone(),
                literal: !user.replacement.contains('$'),
                check: None,
                accept: None,
            });
        }
        let screen = RegexSet::new(rules[builtins..].iter().map(|rule| rule.regex.as_str())).map_err(|source| {
            ConfigError::InvalidPattern { rule: "(all user rules together)".to_owned(), source: Box::new(source) }
        })?;
        let prefilter = config.defaults.then(|| Prefilter::new(BUILTINS));
        Ok(Redactor { rules, builtins, prefilter, screen })
    }

    /// The names of the rules, in the order they run.
    pub fn rule_names(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|rule| rule.name.as_str())
    }

    /// Redact one string (for fields the exporter redacts beyond the note and details).
    pub fn redact_str<'t>(&self, text: &'t str) -> Redacted<'t, '_> {
        let mut counts = Counts::default();
        let text = self.redact_text(text, &mut counts);
        let rules =
            self.rules.iter().enumerate().filter(|(i, _)| counts.get(*i) > 0).map(|(_, rule)| rule.name.as_str());
        Redacted { text, rules: rules.collect() }
    }

    /// Redact a whole text (a `kubectl describe` paste, a YAML or JSON dump, klog lines): every
    /// byte outside a match stays as it is. The replacements made are added to `counts`.
    pub fn redact_text<'t>(&self, text: &'t str, counts: &mut Counts) -> Cow<'t, str> {
        match self.apply(text, counts) {
            Some(redacted) => Cow::Owned(redacted),
            None => Cow::Borrowed(text),
        }
    }

    /// What `counts` holds, by rule name in rule order, rules with no replacement left out.
    pub fn counted<'a>(&'a self, counts: &'a Counts) -> impl Iterator<Item = (&'a str, u64)> + 'a {
        self.rules.iter().enumerate().map(|(i, rule)| (rule.name.as_str(), counts.get(i))).filter(|(_, n)| *n > 0)
    }

    /// One line saying what was replaced: `redacted 3: aws-secret-key 1, jwt 2`, or
    /// `redacted 0` when nothing was.
    pub fn summary(&self, counts: &Counts) -> String {
        let parts: Vec<String> = self.counted(counts).map(|(name, n)| format!("{name} {n}")).collect();
        if parts.is_empty() {
            return "redacted 0".to_owned();
        }
        format!("redacted {}: {}", counts.total(), parts.join(", "))
    }

    /// Redact `record.note`, every string inside `record.details` (object keys and the `kind`
    /// tags that name the grammar excepted), and the names that can carry the same data
    /// (`regarding.name` and `uid`, `related.name`, `reportingInstance`, `eventName`; not
    /// namespaces), and add the names of the rules that changed something to
    /// `record.redactions` (kept sorted and unique).
    ///
    /// The details are rewritten through their JSON form and read back with `Details`'s
    /// `Deserialize`. A string whose redaction would make them unreadable is a value from the
    /// grammar's fixed vocabulary (an enum tag such as `"step": "allocate"`, which a broad user
    /// rule may match), never text from the event, so it is kept as is; every other change stays.
    pub fn redact(&self, record: &mut ExportRecord) {
        let mut fired = Counts::default();
        if let Some(note) = self.apply(&record.record.note, &mut fired) {
            record.record.note = note;
        }
        // Names can carry the same data (Nodes named by their IP, instances named by their
        // host): the regarding and related names, the regarding uid (the kubelet sets a Node's
        // name there), the reporting instance and the event's name, which is `<object name>.<hex>`
        // and so carries the object's name as its prefix. Namespaces are kept: routes, alerts and
        // metrics select on them.
        let event = &mut record.record;
        let original = event.regarding.name.clone();
        let names = [
            event.regarding.name.as_mut(),
            event.regarding.uid.as_mut(),
            event.related.as_mut().and_then(|r| r.name.as_mut()),
            event.reporting_instance.as_mut(),
            event.event_name.as_mut(),
        ];
        for name in names.into_iter().flatten() {
            if let Some(redacted) = self.apply(name, &mut fired) {
                *name = redacted;
            }
        }
        if let (Some(original), Some(redacted), Some(event_name)) =
            (original, event.regarding.name.clone(), event.event_name.as_mut())
            && original != redacted
            && let Some(suffix) = event_name.strip_prefix(original.as_str()).filter(|s| s.starts_with('.'))
        {
            *event_name = format!("{redacted}{suffix}");
        }
        if let Some(details) = &record.record.details
            && let Ok(original) = serde_json::to_value(details)
        {
            let mut changes = Vec::new();
            self.collect_changes(&original, &mut String::new(), &mut changes);
            if let Some((details, kept)) = apply_changes(&original, changes) {
                record.record.details = Some(details);
                for index in kept {
                    fired.bump(index, 1);
                }
            }
        }
        if fired.total() > 0 {
            let names = self.counted(&fired).map(|(name, _)| name.to_owned());
            record.redactions.extend(names);
            record.redactions.sort();
            record.redactions.dedup();
        }
    }

    /// The redactions of every string of a JSON value (not object keys, not `kind` members), each
    /// with its JSON pointer, its new text and the rules that made it.
    fn collect_changes(&self, value: &serde_json::Value, pointer: &mut String, changes: &mut Vec<Change>) {
        let depth = pointer.len();
        match value {
            serde_json::Value::String(text) => {
                let mut fired = Counts::default();
                if let Some(redacted) = self.apply(text, &mut fired) {
                    let rules = (0..self.rules.len()).filter(|i| fired.get(*i) > 0).collect();
                    changes.push(Change { pointer: pointer.clone(), text: redacted, rules });
                }
            }
            serde_json::Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    pointer.push('/');
                    pointer.push_str(&index.to_string());
                    self.collect_changes(item, pointer, changes);
                    pointer.truncate(depth);
                }
            }
            serde_json::Value::Object(members) => {
                for (key, item) in members.iter().filter(|(key, _)| key.as_str() != "kind") {
                    pointer.push('/');
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    self.collect_changes(item, pointer, changes);
                    pointer.truncate(depth);
                }
            }
            _ => {}
        }
    }

    /// Run the rules over `text`; the new text when some rule changed it (counting the
    /// replacements in `counts`), `None` when nothing changed.
    fn apply(&self, text: &str, counts: &mut Counts) -> Option<String> {
        let mut current: Option<String> = None;
        if let Some(prefilter) = &self.prefilter {
            // The whole-text rules (PEM blocks span lines) first, then the others line by line.
            let multiline = prefilter.multiline(text);
            let mut swallowed = Vec::new();
            for index in bits(multiline) {
                let input = current.as_deref().unwrap_or(text);
                if let Some((output, n)) = self.rules[index].apply_swallowing(input, Some(&mut swallowed)) {
                    current = Some(output);
                    counts.bump(index, n);
                    uncount(index, &mut swallowed, counts);
                }
            }
            let input = current.as_deref().unwrap_or(text);
            let mut lines = Vec::new();
            prefilter.lines(input, &mut lines);
            if let Some(output) = self.apply_lines(input, &lines, multiline, counts) {
                current = Some(output);
            }
        }
        if self.rules.len() > self.builtins {
            let input = current.as_deref().unwrap_or(text);
            let candidates = self.screen.matches(input);
            let mut changed = false;
            for (offset, rule) in self.rules[self.builtins..].iter().enumerate() {
                // Once a user rule has rewritten the text, a later one may match what it wrote,
                // so the screen (run before) no longer decides.
                if !changed && !candidates.matched(offset) {
                    continue;
                }
                let input = current.as_deref().unwrap_or(text);
                if let Some((output, n)) = rule.apply(input) {
                    current = Some(output);
                    counts.bump(self.builtins + offset, n);
                    changed = true;
                }
            }
        }
        current
    }

    /// The built-in rules (but the whole-text ones in `skip`) on the lines the prefilter picked.
    fn apply_lines(&self, text: &str, lines: &[Line], skip: u64, counts: &mut Counts) -> Option<String> {
        let mut swallowed = Vec::new();
        let mut out = String::new();
        let mut last = 0;
        for &(start, end, mask) in lines {
            let line = &text[start..end];
            let mut current: Option<String> = None;
            for index in bits(mask & !skip) {
                let input = current.as_deref().unwrap_or(line);
                if let Some((output, n)) = self.rules[index].apply_swallowing(input, Some(&mut swallowed)) {
                    current = Some(output);
                    counts.bump(index, n);
                    uncount(index, &mut swallowed, counts);
                }
            }
            if let Some(redacted) = current {
                out.push_str(&text[last..start]);
                out.push_str(&redacted);
                last = end;
            }
        }
        if last == 0 {
            return None; // No line changed (a changed line ends after 0).
        }
        out.push_str(&text[last..]);
        Some(out)
    }
}

/// A built-in rule (`index`) replaced what earlier ones wrote (`swallowed`, their markers): each
/// such replacement is counted once, as the later rule's, so it is taken off the latest earlier
/// rule with that marker and a count (`Authorization: AWS4-HMAC-SHA256 Credential=AKIA...` is one
/// `authorization`, not also an `aws-access-key-id`). Empties `swallowed`.
fn uncount(index: usize, swallowed: &mut Vec<&'static str>, counts: &mut Counts) {
    for marker in swallowed.drain(..) {
        let earlier = (0..index)
            .rev()
            .find(|&rule| marker_of(BUILTINS[rule].replacement) == Some(marker) && counts.get(rule) > 0);
        if let Some(rule) = earlier {
            counts.by_rule[rule] -= 1;
        }
    }
}

/// The indices of the set bits of `mask`, lowest first (rule order).
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let index = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(index)
    })
}

/// One redacted string inside a record's details.
struct Change {
    /// Where (a JSON pointer into the serialized details).
    pointer: String,
    /// The redacted text.
    text: String,
    /// The indices of the rules that changed it.
    rules: Vec<usize>,
}

/// The details with `changes` applied, and the rules of the changes kept; `None` when there is
/// nothing to change. All changes are tried together first; if the result does not read back,
/// each is tried alone on top of those kept so far (see [`Redactor::redact`]).
fn apply_changes(original: &serde_json::Value, changes: Vec<Change>) -> Option<(Details, Vec<usize>)> {
    if changes.is_empty() {
        return None;
    }
    let set = |value: &mut serde_json::Value, change: &Change| {
        if let Some(slot) = value.pointer_mut(&change.pointer) {
            *slot = serde_json::Value::String(change.text.clone());
        }
    };
    let mut all = original.clone();
    changes.iter().for_each(|change| set(&mut all, change));
    if let Ok(details) = serde_json::from_value::<Details>(all) {
        return Some((details, changes.into_iter().flat_map(|change| change.rules).collect()));
    }
    let mut kept_value = original.clone();
    let mut kept_rules = Vec::new();
    for change in changes {
        let mut attempt = kept_value.clone();
        set(&mut attempt, &change);
        if serde_json::from_value::<Details>(attempt.clone()).is_ok() {
            kept_value = attempt;
            kept_rules.extend(change.rules);
        }
    }
    let details = serde_json::from_value::<Details>(kept_value).ok()?;
    Some((details, kept_rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    fn defaults() -> Redactor {
        Redactor::new(&RedactionConfig::default()).expect("the built-in rules compile")
    }

    /// `(input, expected output, rules that fired)`.
    const REDACTED: &[(&str, &str, &[&str])] = &[
        ("dial tcp 10.96.0.10:53: i/o timeout", "dial tcp <ipv4>:53: i/o timeout", &["ipv4"]),
        (
            r#"Readiness probe failed: Get "http://10.244.1.17:8080/ready": connection refused"#,
            r#"Readiness probe failed: Get "http://<ipv4>:8080/ready": connection refused"#,
            &["ipv4"],
        ),
        ("node IP 192.168.0.255.", "node IP <ipv4>.", &["ipv4"]),
        ("pod CIDR 10.244.0.0/16 full", "pod CIDR <ipv4>/16 full", &["ipv4"]),
        ("GPU 故障 10.0.0.1 节点", "GPU 故障 <ipv4> 节点", &["ipv4"]),
        ("lookup [fd00:10:96::a]:53 failed", "lookup [<ipv6>]:53 failed", &["ipv6"]),
        ("listen ::ffff:10.0.0.1 failed", "listen <ipv6> failed", &["ipv6"]),
        ("peer 2001:db8:0:0:0:0:2:1 and ::1.", "peer <ipv6> and <ipv6>.", &["ipv6"]),
        ("addr fe80::1ff:fe23:4567:890a%eth0: refused", "addr <ipv6>%eth0: refused", &["ipv6"]),
        ("bind 2001:db8::1: address in use", "bind <ipv6>: address in use", &["ipv6"]),
        (
            "launched nodeclaim gpu-ljvhl as i-0123456789abcdef0 (i-1a2b3c4d replaced)",
            "launched nodeclaim gpu-ljvhl as <instance-id> (<instance-id> replaced)",
            &["aws-instance-id"],
        ),
        (
            "providerID aws:///us-west-2a/i-0123456789abcdef0.",
            "providerID aws:///us-west-2a/<instance-id>.",
            &["aws-instance-id"],
        ),
        (
            "creating instance profile arn:aws:iam::123456789012:instance-profile/KarpenterNode, lt arn:aws:ec2:us-west-2:123456789012:launch-template/lt-0abc",
            "creating instance profile arn:aws:iam::<account-id>:instance-profile/KarpenterNode, lt arn:aws:ec2:us-west-2:<account-id>:launch-template/lt-0abc",
            &["aws-account-id"],
        ),
        (
            "/subscriptions/0b1f6471-1bf0-4dda-aec3-cb9272f09590/resourceGroups/mc_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-gpu-12345678-vmss/virtualMachines/0",
            "/subscriptions/<subscription-id>/resourceGroups/mc_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-gpu-12345678-vmss/virtualMachines/0",
            &["azure-subscription"],
        ),
        (
            "node gce://project-a1/us-central1-a/gke-cluster-a-gpu-pool-1a2b3c4d-x7k2 via projects/my-project-123/zones/us-central1-a/instances/gke-x",
            "node gce://<project>/us-central1-a/gke-cluster-a-gpu-pool-1a2b3c4d-x7k2 via projects/<project>/zones/us-central1-a/instances/gke-x",
            &["gcp-project"],
        ),
        (
            "request with Authorization: Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJ4In0.c2ln rejected",
            "request with Authorization: Bearer <jwt> rejected",
            &["jwt"],
        ),
        ("authorization: Basic dXNlcjpwYXNzd29yZA== denied", "authorization: Basic <token> denied", &["authorization"]),
        (
            r#"headers {"Authorization":"Basic dXNlcjpwYXNz"}"#,
            r#"headers {"Authorization":"Basic <token>"}"#,
            &["authorization"],
        ),
        ("Authorization=0123456789abcdef0123", "Authorization=<token>", &["authorization"]),
        ("using bearer abcdef123456 for the registry", "using bearer <token> for the registry", &["bearer-token"]),
        (
            r#"Failed to pull image "registry.example.com/ml/llama:1.2": https://robot:s3cr3t@registry.example.com/v2/ml/llama: 401"#,
            r#"Failed to pull image "registry.example.com/ml/llama:1.2": https://<credentials>@registry.example.com/v2/ml/llama: 401"#,
            &["url-credentials"],
        ),
        (
            "clone https://ghp_abc123@github.com/org/repo.git",
            "clone https://<credentials>@github.com/org/repo.git",
            &["url-credentials"],
        ),
        (
            "password with at: https://u:p@ss@host.example/x",
            "password with at: https://<credentials>@host.example/x",
            &["url-credentials"],
        ),
        ("owner alice.smith+gpu@example.co.uk notified", "owner <email> notified", &["email"]),
        (
            "push to http://admin:pw@10.0.0.7:5000 by ops@example.com",
            "push to http://<credentials>@<ipv4>:5000 by <email>",
            &["url-credentials", "email", "ipv4"],
        ),
    ];

    /// Texts made of what GPU events contain and must keep as they are.
    const KEPT: &[&str] = &[
        "container init caused: Running hook #0:: error running hook: exit status 1",
        "0/8 nodes are available: 1 Insufficient cpu, 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod.",
        "Successfully assigned ml/llama-0 to gpu-node-3",
        "requests: nvidia.com/gpu: 1, amd.com/gpu: 2, memory: 10Gi, cpu: 500m, ephemeral-storage: 1.5Ti",
        "kubelet v1.28.3, driver 535.104.05, CUDA 12.2, gpu-operator v23.9.1, chart v1.2.3.4, 1.2.3.4.5",
        "pod uid 8f5b1c9e-2d3a-4b5c-9d8e-7f6a5b4c3d2e on GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead",
        "unresolvable CDI devices management.nvidia.com/gpu=GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead",
        "at 2024-05-01T12:34:56.123456Z (I0605 12:34:56.789012), took 1:30:00",
        "image nvcr.io/nvidia/cuda@sha256:0123abcd4567ef890123abcd4567ef890123abcd4567ef890123abcd4567ef89 present",
        "container containerd://3f2a9c1b0d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4 exited",
        "link 00:1a:2b:3c:4d:5e:ff down (7 groups); std::vector; Foo::new; a :: b; 10:23:45 12:34:56.789",
        "pods i-am-a-pod, gpu-i-12345678, i-12345678-worker and i-12345678.example on ip-10-0-1-23.us-west-2.compute.internal",
        "bearer token expired; failed authorization: permission denied",
        "user system:serviceaccount:kube-system:default cannot list; module example.com/foo@v1.2.3",
        "octets 10.0.0.256 and 010.0.0.1 are not addresses",
        "nodeclaim gpu-ljvhl, nodepool gpu-nodepool, hyperNode s0-r1, tensor-fusion.ai/gpu-topology-max-tier",
    ];

    #[test]
    fn builtin_rules_redact_what_they_name() {
        let redactor = defaults();
        for (input, expected, rules) in REDACTED {
            let redacted = redactor.redact_str(input);
            assert_eq!(redacted.text, *expected, "input {input:?}");
            assert_eq!(redacted.rules, *rules, "rules for {input:?}");
        }
    }

    #[test]
    fn builtin_rules_keep_names_quantities_versions_uids_and_times() {
        let redactor = defaults();
        for input in KEPT {
            let redacted = redactor.redact_str(input);
            assert_eq!(redacted.text, *input);
            assert!(redacted.rules.is_empty(), "{input:?} fired {:?}", redacted.rules);
            assert!(matches!(redacted.text, Cow::Borrowed(_)), "{input:?} was copied");
        }
    }

    #[test]
    fn every_case_text_loses_only_its_ip_addresses() {
        let redactor = defaults();
        let cases = cases();
        assert!(cases.len() >= 25, "the case fixtures are there ({})", cases.len());
        let mut with_ip = 0;
        for (name, text) in &cases {
            let redacted = redactor.redact_str(text);
            // Node IPs and GCP project ids in instance-group URLs locate accounts and machines.
            let expected = text.replace("10.0.0.1", "<ipv4>").replace("/projects/project-a/", "/projects/<project>/");
            assert_eq!(redacted.text, expected, "{name}");
            if text.contains("10.0.0.1") {
                with_ip += 1;
                assert_eq!(redacted.rules, ["ipv4"], "{name}");
            } else if text.contains("/projects/project-a/") {
                assert_eq!(redacted.rules, ["gcp-project"], "{name}");
            } else {
                assert!(redacted.rules.is_empty(), "{name}: {:?}", redacted.rules);
            }
        }
        assert_eq!(with_ip, 1, "case 053 names its node by IP");
    }

    #[test]
    fn case_records_pass_unchanged() {
        let redactor = defaults();
        let mut seen = 0;
        for (name, text) in cases() {
            for mut record in case_records(&text) {
                // Instance-group URLs lose their GCP project (above); every other note is kept.
                if record.record.note.contains("/projects/") {
                    continue;
                }
                let before = record.clone();
                redactor.redact(&mut record);
                assert_eq!(record, before, "{name}: {:?}", before.record.note);
                seen += 1;
            }
        }
        assert!(seen >= 80, "the cases decode to records ({seen})");
    }

    #[test]
    fn identifiers_spliced_into_real_notes_are_redacted_in_note_and_details() {
        let redactor = defaults();
        let note = r#"Readiness probe failed: Get "http://10.244.1.17:8080/ready": dial tcp 10.244.1.17:8080: connect: connection refused"#;
        let mut record = record(&event_json("Unhealthy", "Warning", "Pod", Some("ml"), "llama-0", note));
        let Some(details) = &record.record.details else { panic!("Unhealthy has probe details") };
        assert_eq!(details.kind(), "probeFailed");
        redactor.redact(&mut record);
        assert_eq!(
            record.record.note,
            r#"Readiness probe failed: Get "http://<ipv4>:8080/ready": dial tcp <ipv4>:8080: connect: connection refused"#
        );
        let details = serde_json::to_value(&record.record.details).expect("details serialize");
        assert_eq!(details["kind"], "probeFailed");
        assert_eq!(
            details["output"],
            r#"Get "http://<ipv4>:8080/ready": dial tcp <ipv4>:8080: connect: connection refused"#
        );
        assert_eq!(record.redactions, ["ipv4"]);
        assert_eq!(record.record.regarding.name.as_deref(), Some("llama-0"));

        // Case 053's admission failure, with the node's IP in the note as kube-batch users see it.
        let (_, text) = cases().into_iter().find(|(name, _)| name.starts_with("053")).expect("case 053");
        let mut record = case_records(&text).pop().expect("case 053 decodes");
        record.record.note = format!("{} (node 10.0.0.1, instance i-0123456789abcdef0)", record.record.note);
        let original_kind = record.record.details.as_ref().map(|d| d.kind());
        redactor.redact(&mut record);
        assert!(record.record.note.ends_with("(node <ipv4>, instance <instance-id>)"), "{}", record.record.note);
        assert!(record.record.note.contains("nvidia.com/gpu"));
        assert_eq!(record.record.details.as_ref().map(|d| d.kind()), original_kind);
        assert_eq!(record.redactions, ["aws-instance-id", "ipv4"]);
    }

    #[test]
    fn redactions_stay_sorted_and_unique_across_calls() {
        let redactor = defaults();
        let mut record = record(&event_json(
            "Failed",
            "Warning",
            "Pod",
            Some("ml"),
            "llama-0",
            "pull from 10.0.0.9 by a@example.com",
        ));
        record.redactions.push("upstream".to_owned());
        redactor.redact(&mut record);
        assert_eq!(record.redactions, ["email", "ipv4", "upstream"]);
        record.record.note.push_str(" and 10.0.0.8");
        redactor.redact(&mut record);
        assert_eq!(record.redactions, ["email", "ipv4", "upstream"]);
        assert_eq!(record.record.note, "pull from <ipv4> by <email> and <ipv4>");
    }

    #[test]
    fn user_rules_run_after_the_builtins_with_capture_groups() {
        let config: RedactionConfig = serde_yaml_ng::from_str(
            r#"
rules:
  - name: tenant
    pattern: 'tenant-([0-9]+)-(?P<team>[a-z]+)'
    replacement: 'tenant-<id>-${team}'
  - name: ip-marker
    pattern: '<ipv4>'
    replacement: 'IP'
  - name: secret-word
    pattern: 'hunter2'
"#,
        )
        .expect("the config parses");
        assert!(config.defaults);
        assert_eq!(config.rules[2].replacement, "<redacted>");
        let redactor = Redactor::new(&config).expect("the rules compile");
        let names: Vec<_> = redactor.rule_names().collect();
        assert_eq!(names.len(), builtin_rule_names().count() + 3);
        assert_eq!(names.last(), Some(&"secret-word"));

        let redacted = redactor.redact_str("tenant-42-vision on 10.1.2.3 said hunter2");
        assert_eq!(redacted.text, "tenant-<id>-vision on IP said <redacted>");
        // `ip-marker` only matches what `ipv4` wrote: the screen on the original text must not
        // skip it.
        assert_eq!(redacted.rules, ["ipv4", "tenant", "ip-marker", "secret-word"]);
    }

    #[test]
    fn defaults_off_runs_only_user_rules() {
        let config: RedactionConfig = serde_yaml_ng::from_str(
            "defaults: false\nrules: [{name: gpu, pattern: 'GPU-[0-9a-f-]{36}', replacement: 'GPU-<uuid>'}]",
        )
        .expect("the config parses");
        let redactor = Redactor::new(&config).expect("the rule compiles");
        let redacted = redactor.redact_str("GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead at 10.0.0.1");
        assert_eq!(redacted.text, "GPU-<uuid> at 10.0.0.1");
        assert_eq!(redacted.rules, ["gpu"]);
        let none = Redactor::new(&RedactionConfig::none()).expect("no rules");
        assert_eq!(none.redact_str("10.0.0.1").text, "10.0.0.1");
        assert_eq!(none.rule_names().count(), 0);
    }

    #[test]
    fn config_defaults_and_unknown_fields() {
        let empty: RedactionConfig = serde_yaml_ng::from_str("{}").expect("an empty block parses");
        assert_eq!(empty, RedactionConfig::default());
        assert!(empty.defaults && empty.rules.is_empty());
        let error = serde_yaml_ng::from_str::<RedactionConfig>("default: true").expect_err("a typo is rejected");
        assert!(error.to_string().contains("unknown field `default`"), "{error}");
        let error = serde_yaml_ng::from_str::<RedactionConfig>("rules: [{name: a, pattern: b, replace: c}]")
            .expect_err("a rule typo is rejected");
        assert!(error.to_string().contains("unknown field `replace`"), "{error}");
    }

    #[test]
    fn bad_rules_are_errors_that_name_them() {
        let bad =
            |rule: RedactionRule| Redactor::new(&RedactionConfig::with_rules(vec![rule])).map(|_| ()).unwrap_err();

        let error = bad(RedactionRule::new("tenant", "tenant-(", "x"));
        assert!(matches!(&error, ConfigError::InvalidPattern { rule, .. } if rule == "tenant"), "{error:?}");
        let message = error.to_string();
        assert!(message.starts_with("redaction rule \"tenant\": invalid pattern: "), "{message}");
        assert!(message.contains("unclosed group"), "{message}");

        let error = bad(RedactionRule::new("stars", "a*", "x"));
        assert!(matches!(&error, ConfigError::EmptyMatch { rule, pattern } if rule == "stars" && pattern == "a*"));
        assert!(error.to_string().contains("matches the empty string"));

        let error = bad(RedactionRule::new("ipv4", "x", "y"));
        assert!(matches!(&error, ConfigError::DuplicateName { name, .. } if name == "ipv4"), "{error:?}");
        let error = bad(RedactionRule::new(" ", "x", "y"));
        assert!(matches!(error, ConfigError::EmptyName { .. }), "{error:?}");

        let twice =
            RedactionConfig::with_rules(vec![RedactionRule::new("a", "x", ""), RedactionRule::new("a", "y", "")]);
        let error = Redactor::new(&twice).map(|_| ()).unwrap_err();
        assert_eq!(error.to_string(), "redaction rule name \"a\" is used twice; give each redaction rule its own name");
    }

    #[test]
    fn a_user_rule_hitting_a_grammar_tag_keeps_the_details_readable() {
        // `allocate` is the `step` enum of an admission failure, `insufficient` the `type` tag of
        // a fit-error reason: rewriting them would make the details unreadable.
        let config = RedactionConfig {
            defaults: true,
            rules: vec![RedactionRule::new("words", "allocate|insufficient|Insufficient|nvidia", "X")],
        };
        let redactor = Redactor::new(&config).expect("the rule compiles");
        let (_, text) = cases().into_iter().find(|(name, _)| name.starts_with("001")).expect("case 001");
        let mut record = case_records(&text).pop().expect("case 001 decodes");
        redactor.redact(&mut record);
        assert_eq!(record.record.note, "0/2 nodes are available: 1 X X.com/gpu, 1 node(s) were unschedulable.");
        let details = serde_json::to_value(&record.record.details).expect("details serialize");
        assert_eq!(details["kind"], "fitError");
        let reason = &details["reasons"][0]["reason"];
        assert_eq!(reason["type"], "insufficient", "the tag is kept");
        assert_eq!(reason["text"], "X X.com/gpu");
        assert_eq!(reason["resource"], "X.com/gpu");
        assert_eq!(record.redactions, ["words"]);
    }

    #[test]
    fn huge_and_hostile_notes() {
        let redactor = defaults();
        // 2 MiB of ordinary event text with an address every line.
        let line = "0/8 nodes are available: 8 Insufficient nvidia.com/gpu on gpu-node-3 at 10.0.0.1, v1.28.3 10Gi\n";
        let note = line.repeat(2 * 1024 * 1024 / line.len());
        let redacted = redactor.redact_str(&note);
        assert_eq!(redacted.text, note.replace("10.0.0.1", "<ipv4>"));
        assert_eq!(redacted.rules, ["ipv4"]);

        // Nothing to redact: borrowed back, not copied.
        let clean = "Insufficient nvidia.com/gpu on gpu-node-3; ".repeat(50_000);
        assert!(matches!(redactor.redact_str(&clean).text, Cow::Borrowed(_)));

        // Candidates that are not addresses, packed together.
        for hostile in ["1.".repeat(500_000), ":".repeat(1_000_000), "ffff:".repeat(200_000), "a@".repeat(300_000)] {
            let redacted = redactor.redact_str(&hostile);
            assert_eq!(redacted.text, hostile.as_str(), "{:?}...", &hostile[..10]);
        }
        // Candidates that are addresses, packed together.
        let packed = "1.1.1.1 ".repeat(100_000);
        assert_eq!(redactor.redact_str(&packed).text, "<ipv4> ".repeat(100_000));

        // Through a record, with a multi-byte character at every boundary.
        let mut record = record(&event_json("Failed", "Warning", "Pod", Some("ml"), "llama-0", "é"));
        record.record.note = "é10.0.0.1é::1é".repeat(10_000);
        redactor.redact(&mut record);
        assert_eq!(record.record.note, "é<ipv4>é<ipv6>é".repeat(10_000));
        assert_eq!(record.redactions, ["ipv4", "ipv6"]);
    }
}
