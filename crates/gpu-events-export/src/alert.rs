//! Alerts on sustained patterns, not single warnings, and on export silence.
//!
//! # Pattern rules
//!
//! A rule's [`Matcher`] selects records; `groupBy` splits them into groups (one per owner, per
//! node, ...). Each group has *episodes*:
//!
//! * A matching record is an observation at its **event time**: `delta.lastSeen` (else the
//!   record's `lastTimestamp`, else `now`), never later than `now`. It counts
//!   `delta.occurrences`. A record that brings several occurrences covers the span from the
//!   previous export of its event (or its `firstTimestamp` when first exported) to its last
//!   observation: `FailedScheduling (x54 over 4h)` is sustained on its own.
//! * An observation more than `resolveAfter` before `now` is stale (a replay after a restart,
//!   say) and is ignored: by the rule's own definition its pattern has ended.
//! * An episode starts with an observation and goes on while each next observation comes less
//!   than `resolveAfter` after the latest one.
//! * The group **fires once** per episode, as soon as the episode has lasted at least `for`
//!   (first to latest observation) and holds at least `minEvents` occurrences. With `window`
//!   set, the occurrences must instead fall within the last `window` (a **rate**: "at least
//!   `minEvents` per `window`"; counted in 1/60-window buckets, so it can over-count by one
//!   bucket).
//! * It **resolves once** (one resolve alert), at the first [`AlertEngine::tick`] at least
//!   `resolveAfter` after the latest observation. Episodes that never fired end silently.
//! * An episode fed by an events.k8s.io/v1 series (count 2 or more) waits at least 35 minutes
//!   instead: such a series is updated only by 30-minute heartbeats (client-go `tools/events`,
//!   `gpu-events-recorder`), so the silence between them is not the end of the pattern. The
//!   first firing of such a pattern can come only with a heartbeat.
//!
//! # Silence rules
//!
//! A rule with `silence: D` (and no `match`, `groupBy`, `for`, `minEvents` or `window`) fires
//! when no record has been exported for `D` (before the first export, counting from the first
//! tick), and resolves at the first tick after an export. Its message says whether the watch is
//! failing (as told to `tick`: the export is broken, e.g. RBAC or the API connection) or healthy
//! (the cluster may just be quiet).
//!
//! # Memory
//!
//! At most [`DEFAULT_MAX_GROUPS`] groups are kept (see [`AlertEngine::with_max_groups`]); a new
//! group beyond that evicts the group seen least recently (a firing one is resolved, with a
//! message saying so) and is counted in [`AlertEngine::evicted_groups`].
//!
//! ```yaml
//! alerts:
//!   - name: gpu-starved-workload
//!     match: {reasons: [FailedScheduling], causes: [insufficient-gpu]}
//!     groupBy: [cluster, owner]
//!     for: 10m
//!     sink: webhook
//!   - name: gpu-admission-failures
//!     match: {reasons: [UnexpectedAdmissionError]}
//!     groupBy: [cluster, node]
//!     for: 2m
//!     minEvents: 3
//!     sink: webhook
//!   - name: eviction-rate
//!     match: {groups: [eviction]}
//!     groupBy: [cluster, node]
//!     for: 0s
//!     window: 10m
//!     minEvents: 5
//!     resolveAfter: 15m
//!     sink: webhook
//!   - name: export-silence
//!     silence: 30m
//!     sink: webhook
//! ```

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Deserializer, Serialize};

use crate::ExportRecord;
use crate::error::ConfigError;
use crate::route::{Candidate, CompiledMatcher, Matcher, namespace_of};

/// How many groups an engine keeps by default (all rules together).
pub const DEFAULT_MAX_GROUPS: usize = 10_000;

/// Buckets per `window` for rate rules.
const WINDOW_BUCKETS: u32 = 60;

/// One alert rule: a pattern rule or a silence rule (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct AlertRule {
    /// A unique name; alerts carry it as `rule`.
    pub name: String,
    /// The records the rule watches (all, when absent). Pattern rules only.
    #[serde(rename = "match", default)]
    pub matcher: Matcher,
    /// What splits matching records into groups; one group for all when empty.
    #[serde(default)]
    pub group_by: Vec<GroupKey>,
    /// How long a pattern must last before it fires (`"10m"`); required for pattern rules.
    #[serde(rename = "for", default, deserialize_with = "optional_duration")]
    pub for_: Option<Duration>,
    /// Occurrences needed to fire (in the episode, or in `window`); 1 by default.
    #[serde(default = "one")]
    pub min_events: u64,
    /// Count `minEvents` within this trailing window instead of the whole episode (a rate).
    #[serde(default, deserialize_with = "optional_duration")]
    pub window: Option<Duration>,
    /// A group resolves after this long without a matching record; 5 minutes by default.
    #[serde(default = "five_minutes", deserialize_with = "duration")]
    pub resolve_after: Duration,
    /// Makes a silence rule: fire when nothing was exported for this long.
    #[serde(default, deserialize_with = "optional_duration")]
    pub silence: Option<Duration>,
    /// The sink the alerts go to, by name.
    pub sink: String,
}

impl AlertRule {
    /// A pattern rule: records matching `matcher`, grouped by `group_by`, sustained for `for_`.
    pub fn pattern(name: &str, matcher: Matcher, group_by: &[GroupKey], for_: Duration, sink: &str) -> Self {
        AlertRule {
            name: name.to_owned(),
            matcher,
            group_by: group_by.to_vec(),
            for_: Some(for_),
            min_events: 1,
            window: None,
            resolve_after: five_minutes(),
            silence: None,
            sink: sink.to_owned(),
        }
    }

    /// A silence rule.
    pub fn silence(name: &str, silence: Duration, sink: &str) -> Self {
        AlertRule {
            for_: None,
            silence: Some(silence),
            ..AlertRule::pattern(name, Matcher::default(), &[], Duration::ZERO, sink)
        }
    }

    /// The same rule with `minEvents`.
    pub fn with_min_events(mut self, min_events: u64) -> Self {
        self.min_events = min_events;
        self
    }

    /// The same rule with a rate `window`.
    pub fn with_window(mut self, window: Duration) -> Self {
        self.window = Some(window);
        self
    }

    /// The same rule with `resolveAfter`.
    pub fn with_resolve_after(mut self, resolve_after: Duration) -> Self {
        self.resolve_after = resolve_after;
        self
    }
}

fn one() -> u64 {
    1
}

fn five_minutes() -> Duration {
    Duration::from_secs(300)
}

/// What groups an alert rule's records. Serialized in camelCase; each is a label of the alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum GroupKey {
    /// The record's cluster name.
    Cluster,
    /// The regarding object's namespace.
    Namespace,
    /// The owning workload, `Kind/namespace/name` ([`crate::Owner::key`]), when resolved.
    Owner,
    /// The reason wire string.
    Reason,
    /// The GPU cause id.
    Cause,
    /// The regarding object's kind.
    Kind,
    /// The node: the regarding object when it is a Node, else the reporting instance of kubelet
    /// events (kubelet reports as its node), else a `node` / `nodeName` field of the details.
    Node,
    /// The catalogue group of the reason.
    Group,
    /// The regarding object, `Kind/namespace/name`.
    Object,
}

impl GroupKey {
    /// The label name (camelCase, as in the configuration).
    pub fn as_str(self) -> &'static str {
        match self {
            GroupKey::Cluster => "cluster",
            GroupKey::Namespace => "namespace",
            GroupKey::Owner => "owner",
            GroupKey::Reason => "reason",
            GroupKey::Cause => "cause",
            GroupKey::Kind => "kind",
            GroupKey::Node => "node",
            GroupKey::Group => "group",
            GroupKey::Object => "object",
        }
    }

    /// This key's value for a record, `None` when the record does not have it.
    fn value(self, candidate: &Candidate<'_>) -> Option<String> {
        let export = candidate.record;
        let record = &export.record;
        match self {
            GroupKey::Cluster => record.cluster.clone(),
            GroupKey::Namespace => namespace_of(export).map(str::to_owned),
            GroupKey::Owner => export.owner.as_ref().map(crate::Owner::key),
            GroupKey::Reason => Some(record.reason.as_str().to_owned()),
            GroupKey::Cause => export.cause.map(|cause| cause.id().to_owned()),
            GroupKey::Kind => record.regarding.kind.clone(),
            GroupKey::Group => record.group.map(|group| group.as_str().to_owned()),
            GroupKey::Object => {
                let part = |p: &Option<String>| p.clone().unwrap_or_default();
                let regarding = &record.regarding;
                Some(match &regarding.namespace {
                    Some(ns) => format!("{}/{ns}/{}", part(&regarding.kind), part(&regarding.name)),
                    None => format!("{}/{}", part(&regarding.kind), part(&regarding.name)),
                })
            }
            GroupKey::Node => {
                if record.regarding.kind.as_deref() == Some("Node") {
                    return record.regarding.name.clone();
                }
                if record.reporting_controller.as_deref() == Some("kubelet") && record.reporting_instance.is_some() {
                    return record.reporting_instance.clone();
                }
                let details = candidate.details()?;
                ["/node", "/nodeName"].iter().find_map(|p| details.pointer(p)?.as_str().map(str::to_owned))
            }
        }
    }
}

/// Whether an alert starts or ends a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AlertState {
    /// The pattern holds.
    Firing,
    /// The pattern ended.
    Resolved,
}

/// An alert, for the rule's sink. JSON in camelCase.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Alert {
    /// The rule's name.
    pub rule: String,
    /// The rule's sink (not serialized: it says where the alert goes, not what it is).
    #[serde(skip)]
    pub sink: String,
    /// Firing or resolved.
    pub state: AlertState,
    /// The group's labels (`groupBy` keys the group has a value for).
    pub labels: BTreeMap<String, String>,
    /// When the episode began (silence: the last export, or the first tick).
    pub since: DateTime<Utc>,
    /// The latest matching observation (silence: the last export, if any).
    pub last_seen: Option<DateTime<Utc>>,
    /// Occurrences in the episode (0 for silence).
    pub occurrences: u64,
    /// When the engine produced the alert (the `now` it was given).
    pub at: DateTime<Utc>,
    /// One sentence for people.
    pub message: String,
}

/// A checked rule.
#[derive(Debug)]
enum Kind {
    Pattern {
        matcher: Box<CompiledMatcher>,
        group_by: Vec<GroupKey>,
        for_: TimeDelta,
        min_events: u64,
        window: Option<TimeDelta>,
    },
    Silence {
        silence: TimeDelta,
    },
}

#[derive(Debug)]
struct Rule {
    name: String,
    sink: String,
    resolve_after: TimeDelta,
    kind: Kind,
}

/// One group's current episode.
#[derive(Debug)]
struct Episode {
    /// How long without a match ends the episode: `resolveAfter`, or longer when the episode is
    /// fed by events.k8s.io series, whose updates come only every 30 minutes.
    quiet: TimeDelta,
    labels: BTreeMap<String, String>,
    since: DateTime<Utc>,
    last_seen: DateTime<Utc>,
    occurrences: u64,
    firing: bool,
    /// Rate rules: `(bucket start, occurrences)`, oldest first.
    buckets: VecDeque<(DateTime<Utc>, u64)>,
}

impl Episode {
    /// The alert this episode sends in `state`.
    fn alert(&self, rule: String, sink: String, state: AlertState, now: DateTime<Utc>, message: String) -> Alert {
        Alert {
            rule,
            sink,
            state,
            labels: self.labels.clone(),
            since: self.since,
            last_seen: Some(self.last_seen),
            occurrences: self.occurrences,
            at: now,
            message,
        }
    }
}

/// How long a series-fed episode waits for the next update: client-go's and our recorder's
/// heartbeat (30 min) plus a margin.
const SERIES_QUIET: TimeDelta = TimeDelta::minutes(35);

/// Whether a record is an events.k8s.io/v1 series (count 2 or more): its next update may be a
/// heartbeat 30 minutes away, so silence in between does not mean the pattern ended.
fn is_series(record: &ExportRecord) -> bool {
    record.record.event_api_version.as_deref() == Some("events.k8s.io/v1") && record.record.count >= 2
}

/// A silence rule's state.
#[derive(Debug, Default)]
struct Silence {
    firing: bool,
}

/// Evaluates alert rules over the exported records. Not thread-safe by itself: one task owns it.
#[derive(Debug)]
pub struct AlertEngine {
    rules: Vec<Rule>,
    groups: HashMap<(usize, Vec<Option<String>>), Episode>,
    silences: HashMap<usize, Silence>,
    max_groups: usize,
    evicted: u64,
    stale: u64,
    started: Option<DateTime<Utc>>,
}

fn to_delta(rule: &str, field: &str, duration: Duration) -> Result<TimeDelta, ConfigError> {
    TimeDelta::from_std(duration)
        .map_err(|_| ConfigError::InvalidAlertRule { rule: rule.to_owned(), problem: format!("{field} is too long") })
}

impl AlertEngine {
    /// Check and compile `rules`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidAlertRule`] for a silence rule with pattern settings, a pattern rule
    /// without `for`, a zero `resolveAfter`, `silence` or `window`, or `minEvents: 0`;
    /// [`ConfigError::InvalidMatch`] for a bad `match`; [`ConfigError::EmptyName`] /
    /// [`ConfigError::DuplicateName`] for rule names.
    pub fn new(rules: &[AlertRule]) -> Result<AlertEngine, ConfigError> {
        let mut compiled: Vec<Rule> = Vec::with_capacity(rules.len());
        for rule in rules {
            let invalid =
                |problem: &str| ConfigError::InvalidAlertRule { rule: rule.name.clone(), problem: problem.to_owned() };
            if rule.name.trim().is_empty() {
                return Err(ConfigError::EmptyName { what: "alert rule" });
            }
            if compiled.iter().any(|c| c.name == rule.name) {
                return Err(ConfigError::DuplicateName { what: "alert rule", name: rule.name.clone() });
            }
            if rule.resolve_after.is_zero() {
                return Err(invalid("resolveAfter must be longer than 0s"));
            }
            let kind = match rule.silence {
                Some(silence) => {
                    if rule.matcher != Matcher::default()
                        || !rule.group_by.is_empty()
                        || rule.for_.is_some()
                        || rule.min_events != 1
                        || rule.window.is_some()
                    {
                        return Err(invalid(
                            "a silence rule watches all exports: remove match, groupBy, for, minEvents and window",
                        ));
                    }
                    if silence.is_zero() {
                        return Err(invalid("silence must be longer than 0s"));
                    }
                    Kind::Silence { silence: to_delta(&rule.name, "silence", silence)? }
                }
                None => {
                    let Some(for_) = rule.for_ else {
                        return Err(invalid(
                            "set `for` (how long the pattern must last, e.g. 10m) or `silence` (for an export-silence rule)",
                        ));
                    };
                    if rule.min_events == 0 {
                        return Err(invalid("minEvents must be at least 1"));
                    }
                    if rule.window.is_some_and(|w| w.is_zero()) {
                        return Err(invalid("window must be longer than 0s"));
                    }
                    Kind::Pattern {
                        matcher: Box::new(rule.matcher.compile("alert rule", &rule.name)?),
                        group_by: rule.group_by.clone(),
                        for_: to_delta(&rule.name, "for", for_)?,
                        min_events: rule.min_events,
                        window: rule.window.map(|w| to_delta(&rule.name, "window", w)).transpose()?,
                    }
                }
            };
            compiled.push(Rule {
                name: rule.name.clone(),
                sink: rule.sink.clone(),
                resolve_after: to_delta(&rule.name, "resolveAfter", rule.resolve_after)?,
                kind,
            });
        }
        Ok(AlertEngine {
            rules: compiled,
            groups: HashMap::new(),
            silences: HashMap::new(),
            max_groups: DEFAULT_MAX_GROUPS,
            evicted: 0,
            stale: 0,
            started: None,
        })
    }

    /// The same engine keeping at most `max_groups` groups (at least 1).
    pub fn with_max_groups(mut self, max_groups: usize) -> Self {
        self.max_groups = max_groups.max(1);
        self
    }

    /// Check that every rule's sink is one of `known_sinks`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::UnknownSink`] naming the first rule with an unknown sink.
    pub fn check_sinks<S: AsRef<str>>(&self, known_sinks: &[S]) -> Result<(), ConfigError> {
        let known: Vec<String> = known_sinks.iter().map(|s| s.as_ref().to_owned()).collect();
        for rule in &self.rules {
            crate::route::sink_indices(&known, std::slice::from_ref(&rule.sink), "alert rule", &rule.name)?;
        }
        Ok(())
    }

    /// Groups evicted so far because the engine held its maximum.
    pub fn evicted_groups(&self) -> u64 {
        self.evicted
    }

    /// Observations ignored so far as stale (older than their rule's `resolveAfter`).
    pub fn stale_observations(&self) -> u64 {
        self.stale
    }

    /// Groups held now.
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Feed one exported record at `now`; the alerts it causes (a firing alert when a pattern
    /// starts to hold; resolve alerts for episodes it ends or groups it evicts).
    pub fn observe(&mut self, record: &ExportRecord, now: DateTime<Utc>) -> Vec<Alert> {
        let mut alerts = Vec::new();
        let candidate = Candidate::new(record);
        let end = record.delta.last_seen.or(record.record.last_timestamp).unwrap_or(now).min(now);
        let start = if record.delta.occurrences > 1 {
            record.delta.previous_export.or(record.delta.first_seen).unwrap_or(end).min(end)
        } else {
            end
        };
        let occurrences = record.delta.occurrences;
        for index in 0..self.rules.len() {
            let rule = &self.rules[index];
            let Kind::Pattern { matcher, group_by, .. } = &rule.kind else { continue };
            if occurrences == 0 || !matcher.matches(&candidate) {
                continue;
            }
            let resolve_after = rule.resolve_after;
            if end < now - resolve_after {
                self.stale += 1;
                continue;
            }
            let values: Vec<Option<String>> = group_by.iter().map(|key| key.value(&candidate)).collect();
            let labels = group_by
                .iter()
                .zip(&values)
                .filter_map(|(key, value)| Some((key.as_str().to_owned(), value.clone()?)))
                .collect();
            let key = (index, values);
            // An episode whose gap already exceeded resolveAfter (no tick in between) ends first.
            if let Some(episode) = self.groups.get(&key)
                && start - episode.last_seen >= episode.quiet
                && let Some(episode) = self.groups.remove(&key)
                && episode.firing
            {
                alerts.push(self.resolved(index, &episode, now, false));
            }
            if !self.groups.contains_key(&key) && self.groups.len() >= self.max_groups {
                alerts.extend(self.evict_oldest(now));
            }
            let episode = self.groups.entry(key).or_insert_with(|| Episode {
                quiet: resolve_after,
                labels,
                since: start,
                last_seen: end,
                occurrences: 0,
                firing: false,
                buckets: VecDeque::new(),
            });
            if is_series(record) {
                episode.quiet = episode.quiet.max(SERIES_QUIET);
            }
            episode.since = episode.since.min(start);
            episode.last_seen = episode.last_seen.max(end);
            episode.occurrences = episode.occurrences.saturating_add(occurrences);
            let rule = &self.rules[index];
            let Kind::Pattern { for_, min_events, window, .. } = &rule.kind else { continue };
            let enough = match window {
                None => episode.occurrences >= *min_events,
                Some(window) => count_in_window(&mut episode.buckets, end, *window, occurrences) >= *min_events,
            };
            if !episode.firing && enough && episode.last_seen - episode.since >= *for_ {
                episode.firing = true;
                let span = human(episode.last_seen - episode.since);
                let message = format!(
                    "{}: {} matching events over {span} for {}",
                    rule.name,
                    episode.occurrences,
                    describe(&episode.labels)
                );
                alerts.push(episode.alert(rule.name.clone(), rule.sink.clone(), AlertState::Firing, now, message));
            }
        }
        alerts
    }

    /// Advance time: resolve groups whose pattern ended (no match for `resolveAfter`), forget
    /// ended groups, and evaluate silence rules against `last_export` (when the latest record
    /// was exported) and `watch_healthy`.
    pub fn tick(&mut self, now: DateTime<Utc>, last_export: Option<DateTime<Utc>>, watch_healthy: bool) -> Vec<Alert> {
        let started = *self.started.get_or_insert(now);
        let mut alerts = Vec::new();
        let ended: Vec<_> = self
            .groups
            .iter()
            .filter(|((index, _), episode)| {
                self.rules.get(*index).is_none() || now - episode.last_seen >= episode.quiet
            })
            .map(|(key, _)| key.clone())
            .collect();
        let mut ended: Vec<_> = ended.into_iter().filter_map(|key| Some((key.0, self.groups.remove(&key)?))).collect();
        ended.sort_by_key(|(index, episode)| (*index, episode.last_seen));
        for (index, episode) in ended {
            if episode.firing {
                alerts.push(self.resolved(index, &episode, now, false));
            }
        }
        for (index, rule) in self.rules.iter().enumerate() {
            let Kind::Silence { silence } = rule.kind else { continue };
            let reference = last_export.unwrap_or(started);
            let state = self.silences.entry(index).or_default();
            let quiet = now - reference;
            let last = last_export.map_or_else(|| "never".to_owned(), |t| t.to_rfc3339());
            let alert = |state: AlertState, message: String| Alert {
                rule: rule.name.clone(),
                sink: rule.sink.clone(),
                state,
                labels: BTreeMap::new(),
                since: reference,
                last_seen: last_export,
                occurrences: 0,
                at: now,
                message,
            };
            if !state.firing && quiet >= silence {
                state.firing = true;
                let watch = if watch_healthy {
                    "the watch is healthy, the cluster may be quiet"
                } else {
                    "the watch is failing: check the exporter's logs, RBAC and the API connection"
                };
                let message =
                    format!("{}: no event exported for {} ({watch}; last export: {last})", rule.name, human(quiet));
                alerts.push(alert(AlertState::Firing, message));
            } else if state.firing && quiet < silence {
                state.firing = false;
                alerts.push(alert(
                    AlertState::Resolved,
                    format!("{} resolved: events are exported again (last export: {last})", rule.name),
                ));
            }
        }
        alerts
    }

    /// Remove the group seen least recently; its resolve alert if it was firing.
    fn evict_oldest(&mut self, now: DateTime<Utc>) -> Option<Alert> {
        let key = self.groups.iter().min_by_key(|(_, episode)| episode.last_seen).map(|(key, _)| key.clone())?;
        let episode = self.groups.remove(&key)?;
        self.evicted += 1;
        episode.firing.then(|| self.resolved(key.0, &episode, now, true))
    }

    fn resolved(&self, index: usize, episode: &Episode, now: DateTime<Utc>, evicted: bool) -> Alert {
        let (name, sink, resolve_after) = match self.rules.get(index) {
            Some(rule) => (rule.name.clone(), rule.sink.clone(), rule.resolve_after),
            None => (String::new(), String::new(), TimeDelta::zero()),
        };
        let why = if evicted {
            format!("evicted: the alert engine holds its maximum of {} groups", self.max_groups)
        } else {
            format!("no matching event for {}", human(episode.quiet.max(resolve_after)))
        };
        let message = format!(
            "{name} resolved for {}: {why}; {} events from {} to {}",
            describe(&episode.labels),
            episode.occurrences,
            episode.since.to_rfc3339(),
            episode.last_seen.to_rfc3339()
        );
        episode.alert(name, sink, AlertState::Resolved, now, message)
    }
}

/// Add `occurrences` at `at` to the buckets, drop buckets older than `window` before `at`, and
/// return the occurrences left.
fn count_in_window(
    buckets: &mut VecDeque<(DateTime<Utc>, u64)>,
    at: DateTime<Utc>,
    window: TimeDelta,
    occurrences: u64,
) -> u64 {
    let width = (window / WINDOW_BUCKETS as i32).max(TimeDelta::seconds(1));
    match buckets.back_mut() {
        Some((start, count)) if at >= *start && at - *start < width => *count = count.saturating_add(occurrences),
        _ => buckets.push_back((at, occurrences)),
    }
    let horizon = at - window;
    while buckets.front().is_some_and(|(start, _)| *start + width <= horizon) {
        buckets.pop_front();
    }
    buckets.iter().map(|(_, count)| *count).fold(0u64, u64::saturating_add)
}

/// `owner=Deployment/ml/llama, reason=FailedScheduling`, or `all matching records`.
fn describe(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "all matching records".to_owned();
    }
    labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
}

/// `1h2m3s`, `10m`, `0s`.
fn human(delta: TimeDelta) -> String {
    let total = delta.num_seconds().max(0);
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if s > 0 || out.is_empty() {
        out.push_str(&format!("{s}s"));
    }
    out
}

/// Parse a duration like `10m`, `30s`, `1h30m`, `500ms`, `2d`: one or more `<integer><unit>`
/// with units `ms`, `s`, `m`, `h`, `d`.
///
/// # Errors
///
/// A message naming the input and the expected form.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("invalid duration {text:?}: expected like \"30s\", \"10m\", \"1h30m\" (units ms, s, m, h, d)");
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total = Duration::ZERO;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return Err(bad());
        }
        let value: u64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let millis_per = match &rest[..unit_len] {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        let millis = value.checked_mul(millis_per).ok_or_else(bad)?;
        total = total.checked_add(Duration::from_millis(millis)).ok_or_else(bad)?;
    }
    Ok(total)
}

fn duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_duration(&text).map_err(serde::de::Error::custom)
}

fn optional_duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Duration>, D::Error> {
    duration(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use crate::{Delta, Owner};

    fn t0() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-03-01T10:00:00Z").expect("a timestamp").with_timezone(&Utc)
    }

    fn min(minutes: i64) -> DateTime<Utc> {
        t0() + TimeDelta::minutes(minutes)
    }

    fn mins(minutes: u64) -> Duration {
        Duration::from_secs(minutes * 60)
    }

    /// A FailedScheduling (insufficient GPU) of a pod of `owner`, one occurrence seen at `at`.
    fn gpu_pending(owner: &str, at: DateTime<Utc>) -> ExportRecord {
        let note = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.";
        let mut record =
            record(&event_json("FailedScheduling", "Warning", "Pod", Some("ml"), &format!("{owner}-0"), note));
        record.record.cluster = Some("gpu-prod".to_owned());
        record.owner = Some(Owner::new("Deployment", Some("ml".to_owned()), owner));
        record.delta = delta(1, 1, Some(at));
        record
    }

    /// A kubelet event about a pod on `node`, seen at `at`.
    fn kubelet(reason: &str, message: &str, node: &str, pod: &str, at: DateTime<Utc>) -> ExportRecord {
        let json = serde_json::json!({
            "apiVersion": "v1", "kind": "Event", "metadata": {"name": format!("{pod}.1"), "namespace": "ml"},
            "reason": reason, "type": "Warning", "message": message,
            "involvedObject": {"kind": "Pod", "namespace": "ml", "name": pod},
            "source": {"component": "kubelet", "host": node},
        });
        let mut record = record(&json.to_string());
        record.delta = delta(1, 1, Some(at));
        record
    }

    fn starved_rule() -> AlertRule {
        AlertRule::pattern(
            "gpu-starved-workload",
            Matcher::reasons(&["FailedScheduling"]).with_causes(&["insufficient-gpu"]),
            &[GroupKey::Cluster, GroupKey::Owner],
            mins(10),
            "webhook",
        )
    }

    #[test]
    fn insufficient_gpu_for_one_owner_for_ten_minutes_fires_once_then_resolves_once() {
        let mut engine = AlertEngine::new(&[starved_rule()]).expect("a valid rule");
        let mut fired = Vec::new();
        // llama is pending from 10:00, retried every 2 minutes until 10:12; mistral only 4 minutes.
        for m in (0..=12).step_by(2) {
            let alerts = engine.observe(&gpu_pending("llama", min(m)), min(m));
            if m < 10 {
                assert!(alerts.is_empty(), "nothing at minute {m}: {alerts:?}");
            }
            fired.extend(alerts);
            if m <= 4 {
                assert!(engine.observe(&gpu_pending("mistral", min(m)), min(m)).is_empty());
            }
            assert!(engine.tick(min(m), Some(min(m)), true).is_empty());
        }
        assert_eq!(fired.len(), 1, "fires once: {fired:?}");
        let alert = &fired[0];
        assert_eq!(alert.state, AlertState::Firing);
        assert_eq!(alert.rule, "gpu-starved-workload");
        assert_eq!(alert.sink, "webhook");
        assert_eq!(alert.since, min(0));
        assert_eq!(alert.last_seen, Some(min(10)));
        assert_eq!(alert.occurrences, 6);
        assert_eq!(alert.at, min(10));
        let labels: Vec<_> = alert.labels.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(labels, [("cluster", "gpu-prod"), ("owner", "Deployment/ml/llama")]);
        assert_eq!(
            alert.message,
            "gpu-starved-workload: 6 matching events over 10m for cluster=gpu-prod, owner=Deployment/ml/llama"
        );

        // Other reasons do not feed it.
        let scheduled = record(&event_json(
            "Scheduled",
            "Normal",
            "Pod",
            Some("ml"),
            "llama-0",
            "Successfully assigned ml/llama-0 to gpu-node-3",
        ));
        assert!(engine.observe(&scheduled, min(13)).is_empty());

        // Last match at 10:12: nothing at 10:16, one resolve at 10:17, then nothing.
        assert!(engine.tick(min(16), Some(min(16)), true).is_empty());
        let resolved = engine.tick(min(17), Some(min(17)), true);
        assert_eq!(resolved.len(), 1, "{resolved:?}");
        assert_eq!(resolved[0].state, AlertState::Resolved);
        assert_eq!(resolved[0].occurrences, 7);
        assert_eq!(resolved[0].since, min(0));
        assert_eq!(resolved[0].last_seen, Some(min(12)));
        assert_eq!(
            resolved[0].message,
            "gpu-starved-workload resolved for cluster=gpu-prod, owner=Deployment/ml/llama: no matching event for 5m; 7 events from 2026-03-01T10:00:00+00:00 to 2026-03-01T10:12:00+00:00"
        );
        assert!(engine.tick(min(30), Some(min(30)), true).is_empty());
        assert_eq!(engine.group_count(), 0, "ended groups are forgotten");
    }

    #[test]
    fn a_gap_of_resolve_after_starts_a_new_episode() {
        let mut engine = AlertEngine::new(&[starved_rule()]).expect("a valid rule");
        // 4 -> 9 and 13 -> 18 are gaps of resolveAfter (5 minutes): each restarts the episode, so
        // 0..=18 never lasts 10 minutes in one piece.
        for m in [0, 4, 9, 13, 18] {
            let alerts = engine.observe(&gpu_pending("llama", min(m)), min(m));
            assert!(alerts.is_empty(), "minute {m}: {alerts:?}");
        }
        assert!(engine.observe(&gpu_pending("llama", min(22)), min(22)).is_empty());
        let alerts = engine.observe(&gpu_pending("llama", min(26)), min(26));
        assert!(alerts.is_empty(), "26 - 18 = 8 minutes: {alerts:?}");
        let alerts = engine.observe(&gpu_pending("llama", min(28)), min(28));
        assert_eq!(alerts.len(), 1);
        assert_eq!(alerts[0].since, min(18));
        assert_eq!(alerts[0].occurrences, 4);
    }

    #[test]
    fn one_record_aggregating_hours_of_retries_is_sustained_and_stale_ones_are_ignored() {
        let mut engine = AlertEngine::new(&[starved_rule()]).expect("a valid rule");
        let now = min(300);
        // FailedScheduling (x54 over 4h48m), exported for the first time.
        let mut record = gpu_pending("llama", now);
        record.delta = Delta {
            occurrences: 54,
            total: 54,
            first_seen: Some(min(12)),
            last_seen: Some(now),
            previous_export: None,
        };
        let alerts = engine.observe(&record, now);
        assert_eq!(alerts.len(), 1, "{alerts:?}");
        assert_eq!(alerts[0].since, min(12));
        assert_eq!(alerts[0].occurrences, 54);
        assert_eq!(
            alerts[0].message,
            "gpu-starved-workload: 54 matching events over 4h48m for cluster=gpu-prod, owner=Deployment/ml/llama"
        );

        // An hour-old record replayed after a restart opens nothing.
        let old = gpu_pending("mistral", now - TimeDelta::hours(1));
        assert!(engine.observe(&old, now).is_empty());
        assert_eq!(engine.stale_observations(), 1);
        assert_eq!(engine.group_count(), 1);

        // A timestamp from the future counts as now.
        let future = gpu_pending("gemma", now + TimeDelta::hours(2));
        assert!(engine.observe(&future, now).is_empty());
        assert!(
            engine
                .tick(now + TimeDelta::minutes(5), None, true)
                .iter()
                .any(|a| a.labels["owner"] == "Deployment/ml/llama")
        );
        assert_eq!(engine.group_count(), 0, "gemma's group ended 5 minutes after `now`");
    }

    #[test]
    fn gpu_admission_failures_grouped_by_node() {
        let rule = AlertRule::pattern(
            "gpu-admission-failures",
            Matcher::reasons(&["UnexpectedAdmissionError"]),
            &[GroupKey::Node],
            mins(2),
            "webhook",
        )
        .with_min_events(3);
        let mut engine = AlertEngine::new(&[rule]).expect("a valid rule");
        let note = "Allocate failed due to rpc error: code = Unavailable desc = error reading from server: EOF, which is unexpected";
        let mut alerts = Vec::new();
        for (m, node, pod) in [
            (0, "gpu-node-1", "a"),
            (1, "gpu-node-2", "b"),
            (1, "gpu-node-1", "c"),
            (2, "gpu-node-1", "d"),
            (3, "gpu-node-2", "e"),
        ] {
            alerts.extend(engine.observe(&kubelet("UnexpectedAdmissionError", note, node, pod, min(m)), min(m)));
        }
        assert_eq!(alerts.len(), 1, "{alerts:?}");
        assert_eq!(alerts[0].labels.get("node").map(String::as_str), Some("gpu-node-1"));
        assert_eq!(alerts[0].occurrences, 3);
        assert_eq!(alerts[0].since, min(0));
        // gpu-node-2 has lasted 2 minutes but has only 2 failures; a third fires it.
        let third = engine.observe(&kubelet("UnexpectedAdmissionError", note, "gpu-node-2", "f", min(4)), min(4));
        assert_eq!(third.len(), 1);
        assert_eq!(third[0].labels["node"], "gpu-node-2");
    }

    #[test]
    fn node_label_from_node_objects_and_details() {
        let engine_rule = AlertRule::pattern("nodes", Matcher::default(), &[GroupKey::Node], Duration::ZERO, "s");
        let mut engine = AlertEngine::new(&[engine_rule]).expect("valid");
        let node = record(&event_json(
            "NodeNotReady",
            "Normal",
            "Node",
            None,
            "gpu-node-7",
            "Node gpu-node-7 status is now: NodeNotReady",
        ));
        let alerts = engine.observe(&node, t0());
        assert_eq!(alerts[0].labels["node"], "gpu-node-7");
        let scheduled = record(&event_json(
            "Scheduled",
            "Normal",
            "Pod",
            Some("ml"),
            "p",
            "Successfully assigned ml/p to gpu-node-9",
        ));
        let alerts = engine.observe(&scheduled, t0());
        assert_eq!(alerts[0].labels["node"], "gpu-node-9", "from the details' node");
        let unknown = record(&event_json("Custom", "Normal", "Pod", Some("ml"), "p", "hi"));
        let alerts = engine.observe(&unknown, t0());
        assert!(alerts[0].labels.is_empty(), "no node: no label");
    }

    #[test]
    fn eviction_rate_counts_within_the_window() {
        let rule = AlertRule::pattern(
            "eviction-rate",
            Matcher::default().with_groups(&["eviction"]),
            &[GroupKey::Node],
            Duration::ZERO,
            "webhook",
        )
        .with_window(mins(10))
        .with_min_events(5)
        .with_resolve_after(mins(15));
        let mut engine = AlertEngine::new(&[rule]).expect("a valid rule");
        let note = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 64Mi. ";
        let evicted = |node: &str, pod: &str, m: i64| kubelet("Evicted", note, node, pod, min(m));
        // gpu-node-1: one eviction every 4 minutes for an hour: at most 3 per 10 minutes.
        for m in (0..60).step_by(4) {
            assert!(engine.observe(&evicted("gpu-node-1", &format!("slow-{m}"), m), min(m)).is_empty(), "minute {m}");
        }
        // gpu-node-2: 5 evictions within 8 minutes.
        let mut alerts = Vec::new();
        for (i, m) in [50, 52, 54, 56, 58].into_iter().enumerate() {
            let found = engine.observe(&evicted("gpu-node-2", &format!("fast-{i}"), m), min(m));
            if i < 4 {
                assert!(found.is_empty(), "eviction {i}");
            }
            alerts.extend(found);
        }
        assert_eq!(alerts.len(), 1);
        assert_eq!(alerts[0].labels["node"], "gpu-node-2");
        assert_eq!(alerts[0].occurrences, 5);
    }

    #[test]
    fn export_silence_fires_and_says_whether_the_watch_is_failing() {
        let mut failing =
            AlertEngine::new(&[AlertRule::silence("export-silence", mins(30), "webhook")]).expect("valid");
        assert!(failing.tick(min(0), None, false).is_empty());
        let broken = failing.tick(min(30), None, false);
        assert_eq!(broken.len(), 1, "a broken watch is exactly when silence matters");
        assert!(broken[0].message.contains("the watch is failing"), "{}", broken[0].message);

        let mut engine = AlertEngine::new(&[AlertRule::silence("export-silence", mins(30), "webhook")]).expect("valid");
        assert!(engine.tick(min(0), None, true).is_empty());
        assert!(engine.tick(min(29), None, true).is_empty());
        let fired = engine.tick(min(31), None, true);
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].state, AlertState::Firing);
        assert_eq!(fired[0].since, min(0));
        assert_eq!(fired[0].last_seen, None);
        assert_eq!(
            fired[0].message,
            "export-silence: no event exported for 31m (the watch is healthy, the cluster may be quiet; last export: never)"
        );
        assert!(engine.tick(min(40), None, true).is_empty(), "fires once");
        let resolved = engine.tick(min(41), Some(min(41)), true);
        assert_eq!(resolved.len(), 1);
        assert_eq!(resolved[0].state, AlertState::Resolved);
        assert_eq!(resolved[0].last_seen, Some(min(41)));
        // Exports stop again at 10:41.
        assert!(engine.tick(min(70), Some(min(41)), true).is_empty());
        let again = engine.tick(min(71), Some(min(41)), true);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].since, min(41));
    }

    #[test]
    fn alerts_serialize_in_camel_case() {
        let mut engine = AlertEngine::new(&[starved_rule()]).expect("valid");
        for m in [0, 4, 8] {
            assert!(engine.observe(&gpu_pending("llama", min(m)), min(m)).is_empty());
        }
        let alert = engine.observe(&gpu_pending("llama", min(10)), min(10)).pop().expect("fires");
        let json = serde_json::to_value(&alert).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({
                "rule": "gpu-starved-workload",
                "state": "firing",
                "labels": {"cluster": "gpu-prod", "owner": "Deployment/ml/llama"},
                "since": "2026-03-01T10:00:00Z",
                "lastSeen": "2026-03-01T10:10:00Z",
                "occurrences": 4,
                "at": "2026-03-01T10:10:00Z",
                "message": "gpu-starved-workload: 4 matching events over 10m for cluster=gpu-prod, owner=Deployment/ml/llama",
            })
        );
    }

    #[test]
    fn groups_are_capped_and_the_least_recent_is_evicted() {
        let rule =
            AlertRule::pattern("any", Matcher::reasons(&["FailedScheduling"]), &[GroupKey::Owner], Duration::ZERO, "s");
        let mut engine = AlertEngine::new(&[rule]).expect("valid").with_max_groups(2);
        assert_eq!(engine.observe(&gpu_pending("a", min(0)), min(0)).len(), 1, "for: 0s fires at once");
        engine.observe(&gpu_pending("b", min(1)), min(1));
        engine.observe(&gpu_pending("a", min(2)), min(2));
        // c evicts b (seen at 10:01, before a's 10:02); b was firing, so it is resolved.
        let alerts = engine.observe(&gpu_pending("c", min(3)), min(3));
        assert_eq!(engine.group_count(), 2);
        assert_eq!(engine.evicted_groups(), 1);
        let states: Vec<_> = alerts.iter().map(|a| (a.state, a.labels["owner"].as_str())).collect();
        assert_eq!(states, [(AlertState::Resolved, "Deployment/ml/b"), (AlertState::Firing, "Deployment/ml/c")]);
        assert!(
            alerts[0].message.contains("evicted: the alert engine holds its maximum of 2 groups"),
            "{}",
            alerts[0].message
        );
        for i in 0..1000 {
            engine.observe(&gpu_pending(&format!("w{i}"), min(4)), min(4));
        }
        assert_eq!(engine.group_count(), 2);
        assert_eq!(engine.evicted_groups(), 1001);
    }

    #[test]
    fn rules_from_yaml_and_their_errors() {
        let yaml = r#"
- name: gpu-starved-workload
  match: {reasons: [FailedScheduling], causes: [insufficient-gpu]}
  groupBy: [cluster, owner]
  for: 10m
  sink: webhook
- name: eviction-rate
  match: {groups: [eviction]}
  groupBy: [cluster, node]
  for: 0s
  window: 10m
  minEvents: 5
  resolveAfter: 1h30m
  sink: webhook
- name: export-silence
  silence: 30m
  sink: webhook
"#;
        let rules: Vec<AlertRule> = serde_yaml_ng::from_str(yaml).expect("the rules parse");
        assert_eq!(rules[0].for_, Some(mins(10)));
        assert_eq!(rules[0].min_events, 1);
        assert_eq!(rules[0].resolve_after, mins(5));
        assert_eq!(rules[1].resolve_after, mins(90));
        assert_eq!(rules[1].window, Some(mins(10)));
        assert_eq!(rules[1].group_by, [GroupKey::Cluster, GroupKey::Node]);
        assert_eq!(rules[2].silence, Some(mins(30)));
        let engine = AlertEngine::new(&rules).expect("valid");
        engine.check_sinks(&["webhook"]).expect("known sink");
        let unknown = engine.check_sinks(&["file"]).unwrap_err();
        assert!(
            unknown.to_string().starts_with("alert rule \"gpu-starved-workload\" names unknown sink(s) [\"webhook\"]"),
            "{unknown}"
        );

        let error = |yaml: &str| {
            let rules: Vec<AlertRule> = serde_yaml_ng::from_str(yaml).expect("parses");
            AlertEngine::new(&rules).map(|_| ()).unwrap_err().to_string()
        };
        assert_eq!(
            error("- {name: s, silence: 10m, for: 1m, sink: w}"),
            "alert rule \"s\": a silence rule watches all exports: remove match, groupBy, for, minEvents and window"
        );
        assert!(error("- {name: p, sink: w}").contains("set `for`"));
        assert!(error("- {name: p, for: 1m, minEvents: 0, sink: w}").contains("minEvents must be at least 1"));
        assert!(
            error("- {name: p, for: 1m, resolveAfter: 0s, sink: w}").contains("resolveAfter must be longer than 0s")
        );
        assert!(error("- {name: p, for: 1m, sink: w, match: {causes: [gpu]}}").contains("match.causes: unknown cause"));
        assert!(error("- {name: p, for: 1m, sink: w}\n- {name: p, for: 1m, sink: w}").contains("used twice"));

        let parse_error = |yaml: &str| serde_yaml_ng::from_str::<Vec<AlertRule>>(yaml).unwrap_err().to_string();
        assert!(parse_error("- {name: p, for: 10 minutes, sink: w}").contains("invalid duration \"10 minutes\""));
        assert!(parse_error("- {name: p, for: 1m, sink: w, groupBy: [pod]}").contains("unknown variant `pod`"));
        assert!(parse_error("- {name: p, for: 1m, sink: w, minEvent: 2}").contains("unknown field `minEvent`"));
    }

    #[test]
    fn durations() {
        for (text, seconds) in [("30s", 30), ("10m", 600), ("1h", 3600), ("1h30m", 5400), ("2d", 172_800), ("0s", 0)] {
            assert_eq!(parse_duration(text), Ok(Duration::from_secs(seconds)), "{text}");
        }
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        for bad in ["", "10", "m", "10 m", "1.5h", "-1s", "10y", "99999999999999999999s", "18446744073709551615d"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
        assert_eq!(human(TimeDelta::seconds(3723)), "1h2m3s");
        assert_eq!(human(TimeDelta::zero()), "0s");
    }
}
