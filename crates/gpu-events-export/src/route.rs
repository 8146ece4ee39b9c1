//! Routing: which sinks a record goes to, from `routes` in the configuration.
//!
//! # Semantics
//!
//! * A [`Matcher`] has one list per field; a record matches when **every non-empty field**
//!   matches (AND across fields) and a field matches when the record's value is **any of** the
//!   listed values (OR within a field). An empty list, or an absent one, matches every record; an
//!   empty matcher matches every record. `details` entries all have to hold (AND).
//! * With **no routes** configured, every record goes to every sink.
//! * Otherwise routes are looked at independently of their order:
//!   1. a record goes to the union of the sinks of every matching route whose `drop` is false;
//!   2. then every matching route whose `drop` is true takes its sinks away again;
//!   3. a route's sinks are the listed ones, or **every sink** when `sinks` is empty or absent.
//!      So `drop: true` without `sinks` drops the record altogether, and `drop: true` with
//!      `sinks: [webhook]` keeps it from the webhook only.
//! * A record that no non-drop route matches goes nowhere.
//!
//! [`Router::sinks_for`] returns the indices of the chosen sinks in the order of the sink names
//! given to [`Router::new`], each once.
//!
//! # Fields
//!
//! | field | compares with | values |
//! |---|---|---|
//! | `reasons` | `reason` | wire strings (`FailedScheduling`), catalogued or not; exact |
//! | `groups` | the catalogue group | kebab-case names (`scheduling`, `admission`, ...) |
//! | `types` | `type` | `Normal`, `Warning` (exact case) or a newer type string |
//! | `namespaces` | `regarding.namespace` | cluster-scoped objects (Nodes, GPUPools) have none and never match |
//! | `kinds` | `regarding.kind` | `Pod`, `Node`, `GPUPool`, ... exact |
//! | `causes` | the record's GPU cause | stable ids (`insufficient-gpu`, ...) |
//! | `details` | the serialized `details` | a map from a JSON pointer (`/kind`, `/reasons/0/reason/resource`) to a value that must be equal (numbers compare by value: `4` equals `4.0`); a record without details never matches a non-empty `details` |
//!
//! ```yaml
//! routes:
//!   - name: gpu-warnings
//!     match: {types: [Warning], groups: [scheduling, admission], causes: [insufficient-gpu, gpu-allocation-failed]}
//!     sinks: [webhook, file]
//!   - name: everything-to-file
//!     sinks: [file]
//!   - name: no-normal-to-webhook
//!     match: {types: [Normal]}
//!     sinks: [webhook]
//!     drop: true
//! ```

use std::cell::OnceCell;
use std::collections::BTreeMap;

use gpu_events_core::diagnose::Cause;
use gpu_events_core::{EventType, Group};
use serde::Deserialize;

use crate::ExportRecord;
use crate::error::ConfigError;

/// One routing rule. See the [module docs](self) for how routes combine.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Route {
    /// A unique name, used in errors.
    pub name: String,
    /// Which records the route applies to (all, when absent).
    #[serde(rename = "match", default)]
    pub matcher: Matcher,
    /// The sinks, by name; every sink when empty.
    #[serde(default)]
    pub sinks: Vec<String>,
    /// Take the sinks away from matching records instead of adding them.
    #[serde(default)]
    pub drop: bool,
}

impl Route {
    /// A route to `sinks` for the records `matcher` matches.
    pub fn new(name: impl Into<String>, matcher: Matcher, sinks: &[&str]) -> Self {
        Route { name: name.into(), matcher, sinks: sinks.iter().map(|s| (*s).to_owned()).collect(), drop: false }
    }

    /// A route that takes `sinks` (every sink when empty) away from the records `matcher` matches.
    pub fn drop(name: impl Into<String>, matcher: Matcher, sinks: &[&str]) -> Self {
        Route { drop: true, ..Route::new(name, matcher, sinks) }
    }
}

/// Which records a route or an alert rule applies to. See the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Matcher {
    /// Reason wire strings.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// Catalogue group names (kebab-case).
    #[serde(default)]
    pub groups: Vec<String>,
    /// Event types (`Normal`, `Warning`).
    #[serde(default)]
    pub types: Vec<String>,
    /// Namespaces of the regarding object.
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// Kinds of the regarding object.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// GPU cause ids (`insufficient-gpu`, ...).
    #[serde(default)]
    pub causes: Vec<String>,
    /// JSON pointer into the serialized details -> the value found there.
    #[serde(default)]
    pub details: BTreeMap<String, serde_json::Value>,
}

impl Matcher {
    /// A matcher for any of `reasons` (other fields empty).
    pub fn reasons(reasons: &[&str]) -> Self {
        Matcher { reasons: reasons.iter().map(|r| (*r).to_owned()).collect(), ..Matcher::default() }
    }

    /// The same matcher, also requiring one of `causes`.
    pub fn with_causes(mut self, causes: &[&str]) -> Self {
        self.causes = causes.iter().map(|c| (*c).to_owned()).collect();
        self
    }

    /// The same matcher, also requiring one of `groups`.
    pub fn with_groups(mut self, groups: &[&str]) -> Self {
        self.groups = groups.iter().map(|g| (*g).to_owned()).collect();
        self
    }

    /// The same matcher, also requiring one of `types`.
    pub fn with_types(mut self, types: &[&str]) -> Self {
        self.types = types.iter().map(|t| (*t).to_owned()).collect();
        self
    }

    /// The same matcher, also requiring one of `namespaces`.
    pub fn with_namespaces(mut self, namespaces: &[&str]) -> Self {
        self.namespaces = namespaces.iter().map(|n| (*n).to_owned()).collect();
        self
    }

    /// The same matcher, also requiring one of `kinds`.
    pub fn with_kinds(mut self, kinds: &[&str]) -> Self {
        self.kinds = kinds.iter().map(|k| (*k).to_owned()).collect();
        self
    }

    /// The same matcher, also requiring the details value at `pointer` to equal `value`.
    pub fn with_detail(mut self, pointer: &str, value: serde_json::Value) -> Self {
        self.details.insert(pointer.to_owned(), value);
        self
    }

    /// Check the values and prepare them for matching. `what` and `name` say whose matcher it
    /// is, for errors.
    pub(crate) fn compile(&self, what: &'static str, name: &str) -> Result<CompiledMatcher, ConfigError> {
        let invalid = |field: &'static str, problem: String| ConfigError::InvalidMatch {
            what,
            name: name.to_owned(),
            field,
            problem,
        };
        let groups = self
            .groups
            .iter()
            .map(|group| {
                Group::from_name(group).ok_or_else(|| {
                    let known: Vec<_> = Group::ALL.iter().map(|g| g.as_str()).collect();
                    invalid("groups", format!("unknown group {group:?}; groups are {}", known.join(", ")))
                })
            })
            .collect::<Result<_, _>>()?;
        let causes = self
            .causes
            .iter()
            .map(|cause| {
                Cause::ALL.iter().copied().find(|c| c.id() == cause).ok_or_else(|| {
                    let known: Vec<_> = Cause::ALL.iter().map(|c| c.id()).collect();
                    invalid("causes", format!("unknown cause {cause:?}; causes are {}", known.join(", ")))
                })
            })
            .collect::<Result<_, _>>()?;
        let types = self
            .types
            .iter()
            .map(|type_| {
                let parsed = EventType::parse(type_);
                match parsed {
                    EventType::Other(_)
                        if type_.eq_ignore_ascii_case("normal") || type_.eq_ignore_ascii_case("warning") =>
                    {
                        Err(invalid(
                            "types",
                            format!("{type_:?} never matches: types are case-sensitive (Normal, Warning)"),
                        ))
                    }
                    EventType::Other(_) if type_.is_empty() => {
                        Err(invalid("types", "an empty type never matches".into()))
                    }
                    parsed => Ok(parsed),
                }
            })
            .collect::<Result<_, _>>()?;
        for pointer in self.details.keys() {
            if !pointer.starts_with('/') {
                return Err(invalid(
                    "details",
                    format!("{pointer:?} is not a JSON pointer; write it like \"/kind\" or \"/reasons/0/count\""),
                ));
            }
        }
        Ok(CompiledMatcher {
            reasons: self.reasons.clone(),
            groups,
            types,
            namespaces: self.namespaces.clone(),
            kinds: self.kinds.clone(),
            causes,
            details: self.details.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        })
    }
}

/// A checked [`Matcher`].
#[derive(Clone, Debug)]
pub(crate) struct CompiledMatcher {
    reasons: Vec<String>,
    groups: Vec<Group>,
    types: Vec<EventType>,
    namespaces: Vec<String>,
    kinds: Vec<String>,
    causes: Vec<Cause>,
    details: Vec<(String, serde_json::Value)>,
}

/// A record being matched, with its details serialized at most once, and only if a matcher
/// looks at them.
pub(crate) struct Candidate<'a> {
    pub(crate) record: &'a ExportRecord,
    details: OnceCell<Option<serde_json::Value>>,
}

impl<'a> Candidate<'a> {
    pub(crate) fn new(record: &'a ExportRecord) -> Self {
        Candidate { record, details: OnceCell::new() }
    }

    pub(crate) fn details(&self) -> Option<&serde_json::Value> {
        self.details
            .get_or_init(|| self.record.record.details.as_ref().and_then(|d| serde_json::to_value(d).ok()))
            .as_ref()
    }
}

/// The namespace routing, alert grouping and metrics use: the regarding object's (none for
/// cluster-scoped objects).
pub(crate) fn namespace_of(record: &ExportRecord) -> Option<&str> {
    record.record.regarding.namespace.as_deref()
}

/// Equality of JSON values, numbers by value (`4` equals `4.0`).
fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| json_eq(x, y)))
        }
        _ => a == b,
    }
}

impl CompiledMatcher {
    /// Whether the record matches (see the [module docs](self)).
    pub(crate) fn matches(&self, candidate: &Candidate<'_>) -> bool {
        let record = &candidate.record.record;
        let any = |list: &[String], value: Option<&str>| {
            list.is_empty() || value.is_some_and(|v| list.iter().any(|l| l == v))
        };
        any(&self.reasons, Some(record.reason.as_str()))
            && (self.groups.is_empty() || record.group.is_some_and(|g| self.groups.contains(&g)))
            && (self.types.is_empty() || record.type_.as_ref().is_some_and(|t| self.types.contains(t)))
            && any(&self.namespaces, namespace_of(candidate.record))
            && any(&self.kinds, record.regarding.kind.as_deref())
            && (self.causes.is_empty() || candidate.record.cause.is_some_and(|c| self.causes.contains(&c)))
            && (self.details.is_empty()
                || candidate.details().is_some_and(|details| {
                    self.details
                        .iter()
                        .all(|(pointer, want)| details.pointer(pointer).is_some_and(|got| json_eq(got, want)))
                }))
    }
}

/// A checked [`Route`].
#[derive(Debug)]
struct CompiledRoute {
    matcher: CompiledMatcher,
    /// Indices into the sink names, sorted.
    sinks: Vec<usize>,
    drop: bool,
}

/// The compiled routes: answers which sinks a record goes to.
#[derive(Debug)]
pub struct Router {
    sink_names: Vec<String>,
    routes: Vec<CompiledRoute>,
    names: Vec<String>,
}

impl Router {
    /// Check `routes` against the configured sink names (`known_sinks`, in the order sinks are
    /// indexed) and compile them.
    ///
    /// # Errors
    ///
    /// [`ConfigError::UnknownSink`] when a route names a sink not in `known_sinks` (all unknown
    /// names listed), [`ConfigError::DuplicateName`] for two routes or two sinks with one name,
    /// [`ConfigError::EmptyName`] for a route without a name, [`ConfigError::InvalidMatch`] for an
    /// unknown group or cause id, a wrongly cased type, or a details key that is not a JSON
    /// pointer.
    pub fn new<S: AsRef<str>>(routes: &[Route], known_sinks: &[S]) -> Result<Router, ConfigError> {
        let sink_names: Vec<String> = known_sinks.iter().map(|s| s.as_ref().to_owned()).collect();
        for (index, sink) in sink_names.iter().enumerate() {
            if sink_names[..index].contains(sink) {
                return Err(ConfigError::DuplicateName { what: "sink", name: sink.clone() });
            }
        }
        let mut compiled = Vec::with_capacity(routes.len());
        let mut names: Vec<String> = Vec::with_capacity(routes.len());
        for route in routes {
            if route.name.trim().is_empty() {
                return Err(ConfigError::EmptyName { what: "route" });
            }
            if names.contains(&route.name) {
                return Err(ConfigError::DuplicateName { what: "route", name: route.name.clone() });
            }
            let sinks = sink_indices(&sink_names, &route.sinks, "route", &route.name)?;
            let matcher = route.matcher.compile("route", &route.name)?;
            names.push(route.name.clone());
            compiled.push(CompiledRoute { matcher, sinks, drop: route.drop });
        }
        Ok(Router { sink_names, routes: compiled, names })
    }

    /// The sink names, in index order.
    pub fn sink_names(&self) -> &[String] {
        &self.sink_names
    }

    /// The indices (into [`Router::sink_names`]) of the sinks `record` goes to, ascending, each
    /// once; empty when the record goes nowhere.
    pub fn sinks_for(&self, record: &ExportRecord) -> Vec<usize> {
        if self.routes.is_empty() {
            return (0..self.sink_names.len()).collect();
        }
        let candidate = Candidate::new(record);
        let mut chosen = vec![false; self.sink_names.len()];
        let matching: Vec<&CompiledRoute> =
            self.routes.iter().filter(|route| route.matcher.matches(&candidate)).collect();
        for route in matching.iter().filter(|route| !route.drop) {
            route.sinks.iter().for_each(|&sink| chosen[sink] = true);
        }
        for route in matching.iter().filter(|route| route.drop) {
            route.sinks.iter().for_each(|&sink| chosen[sink] = false);
        }
        chosen.iter().enumerate().filter(|(_, chosen)| **chosen).map(|(index, _)| index).collect()
    }

    /// The names of the routes that match `record`, in configuration order (for `--dry-run`
    /// style explanations and tests).
    pub fn matching_routes(&self, record: &ExportRecord) -> Vec<&str> {
        let candidate = Candidate::new(record);
        self.routes
            .iter()
            .zip(&self.names)
            .filter(|(route, _)| route.matcher.matches(&candidate))
            .map(|(_, name)| name.as_str())
            .collect()
    }
}

/// The sorted indices of `wanted` in `known` (all of `known` when `wanted` is empty).
pub(crate) fn sink_indices(
    known: &[String],
    wanted: &[String],
    what: &'static str,
    name: &str,
) -> Result<Vec<usize>, ConfigError> {
    if wanted.is_empty() {
        return Ok((0..known.len()).collect());
    }
    let mut unknown: Vec<String> = wanted.iter().filter(|w| !known.contains(w)).cloned().collect();
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        return Err(ConfigError::UnknownSink { what, name: name.to_owned(), unknown, known: known.to_vec() });
    }
    let mut indices: Vec<usize> =
        known.iter().enumerate().filter(|(_, k)| wanted.contains(k)).map(|(i, _)| i).collect();
    indices.sort_unstable();
    Ok(indices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    const SINKS: &[&str] = &["stdout", "file", "webhook"];

    fn gpu_pending() -> ExportRecord {
        record(&event_json(
            "FailedScheduling",
            "Warning",
            "Pod",
            Some("ml"),
            "llama-0",
            "0/8 nodes are available: 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod.",
        ))
    }

    fn scheduled() -> ExportRecord {
        record(&event_json(
            "Scheduled",
            "Normal",
            "Pod",
            Some("ml"),
            "llama-0",
            "Successfully assigned ml/llama-0 to gpu-node-3",
        ))
    }

    fn node_event() -> ExportRecord {
        record(&event_json(
            "NodeNotReady",
            "Normal",
            "Node",
            None,
            "gpu-node-3",
            "Node gpu-node-3 status is now: NodeNotReady",
        ))
    }

    fn custom() -> ExportRecord {
        record(&event_json("MyControllerSaidHi", "Normal", "ConfigMap", Some("ops"), "cm", "hi"))
    }

    fn router(yaml: &str) -> Router {
        let routes: Vec<Route> = serde_yaml_ng::from_str(yaml).expect("the routes parse");
        Router::new(&routes, SINKS).expect("the routes are valid")
    }

    #[test]
    fn the_test_records_are_what_the_tests_assume() {
        let pending = gpu_pending();
        assert_eq!(pending.record.group, Some(Group::Scheduling));
        assert_eq!(pending.cause, Some(Cause::InsufficientGpu));
        assert_eq!(pending.record.details.as_ref().map(|d| d.kind()), Some("fitError"));
        assert_eq!(node_event().record.regarding.namespace, None);
        assert!(!custom().record.known);
    }

    #[test]
    fn no_routes_send_everything_everywhere() {
        let router = Router::new(&[], SINKS).expect("no routes is valid");
        assert_eq!(router.sinks_for(&gpu_pending()), [0, 1, 2]);
        assert_eq!(router.sinks_for(&custom()), [0, 1, 2]);
        assert_eq!(router.sink_names(), SINKS);
    }

    #[test]
    fn matching_routes_add_up_and_unmatched_records_go_nowhere() {
        let router = router(
            r#"
- name: gpu-to-webhook
  match: {types: [Warning], causes: [insufficient-gpu]}
  sinks: [webhook]
- name: scheduling-to-file
  match: {groups: [scheduling]}
  sinks: [file]
"#,
        );
        assert_eq!(router.sinks_for(&gpu_pending()), [1, 2]);
        assert_eq!(router.matching_routes(&gpu_pending()), ["gpu-to-webhook", "scheduling-to-file"]);
        assert_eq!(router.sinks_for(&scheduled()), [1]);
        assert!(router.sinks_for(&node_event()).is_empty());
        assert!(router.sinks_for(&custom()).is_empty());
    }

    #[test]
    fn drop_routes_take_sinks_away_whatever_their_position() {
        let router = router(
            r#"
- name: no-normal-to-webhook
  match: {types: [Normal]}
  sinks: [webhook]
  drop: true
- name: all
- name: no-configmaps
  match: {kinds: [ConfigMap]}
  drop: true
"#,
        );
        assert_eq!(router.sinks_for(&gpu_pending()), [0, 1, 2], "a route without sinks means every sink");
        assert_eq!(router.sinks_for(&scheduled()), [0, 1], "Normal events do not reach the webhook");
        assert!(router.sinks_for(&custom()).is_empty(), "a drop without sinks drops the record");
    }

    #[test]
    fn each_field_is_any_of_and_fields_combine_with_and() {
        let route = |matcher: Matcher| Router::new(&[Route::new("r", matcher, &["file"])], SINKS).expect("valid");
        let hits = |matcher: Matcher, record: &ExportRecord| !route(matcher).sinks_for(record).is_empty();
        let pending = gpu_pending();
        assert!(hits(Matcher::reasons(&["Scheduled", "FailedScheduling"]), &pending));
        assert!(!hits(Matcher::reasons(&["failedscheduling"]), &pending), "reasons are exact");
        assert!(hits(Matcher::default().with_namespaces(&["ml", "prod"]), &pending));
        assert!(!hits(Matcher::default().with_namespaces(&["prod"]), &pending));
        assert!(!hits(Matcher::default().with_namespaces(&["default"]), &node_event()), "cluster-scoped: no namespace");
        assert!(hits(Matcher::default().with_kinds(&["Node"]), &node_event()));
        assert!(hits(Matcher::reasons(&["FailedScheduling"]).with_types(&["Warning"]).with_kinds(&["Pod"]), &pending));
        assert!(!hits(Matcher::reasons(&["FailedScheduling"]).with_types(&["Normal"]), &pending), "AND across fields");
        assert!(!hits(Matcher::default().with_causes(&["insufficient-gpu"]), &scheduled()), "no cause, no match");
        assert!(hits(Matcher::reasons(&["MyControllerSaidHi"]), &custom()), "uncatalogued reasons route too");
        assert!(!hits(Matcher::default().with_groups(&["scheduling"]), &custom()), "no group, no match");
    }

    #[test]
    fn details_pointers_compare_values() {
        let route = |matcher: Matcher| Router::new(&[Route::new("r", matcher, &["file"])], SINKS).expect("valid");
        let hits = |matcher: Matcher, record: &ExportRecord| !route(matcher).sinks_for(record).is_empty();
        let pending = gpu_pending();
        let fit = || Matcher::default().with_detail("/kind", "fitError".into());
        assert!(hits(fit(), &pending));
        assert!(hits(fit().with_detail("/totalNodes", 8.into()), &pending));
        assert!(hits(fit().with_detail("/totalNodes", serde_json::json!(8.0)), &pending), "numbers by value");
        assert!(!hits(fit().with_detail("/totalNodes", 7.into()), &pending));
        assert!(hits(fit().with_detail("/reasons/0/reason/resource", "nvidia.com/gpu".into()), &pending));
        assert!(!hits(fit().with_detail("/no/such/field", serde_json::Value::Null), &pending), "missing is not null");
        assert!(!hits(fit(), &custom()), "no details, no match");
        let yaml = router("- name: big\n  match: {details: {/kind: fitError, /totalNodes: 8}}\n  sinks: [stdout]");
        assert_eq!(yaml.sinks_for(&pending), [0]);
    }

    #[test]
    fn configuration_errors_name_what_to_fix() {
        let error = |routes: &[Route]| Router::new(routes, SINKS).map(|_| ()).unwrap_err();

        let e = error(&[Route::new("gpu", Matcher::default(), &["slack", "webhook", "pager", "slack"])]);
        assert!(
            matches!(&e, ConfigError::UnknownSink { name, unknown, .. } if name == "gpu" && unknown == &["pager", "slack"])
        );
        assert_eq!(
            e.to_string(),
            r#"route "gpu" names unknown sink(s) ["pager", "slack"]; configured sinks are ["stdout", "file", "webhook"]"#
        );

        let e = error(&[Route::new("a", Matcher::default(), &[]), Route::new("a", Matcher::default(), &[])]);
        assert!(matches!(e, ConfigError::DuplicateName { what: "route", .. }));
        assert!(matches!(error(&[Route::new("", Matcher::default(), &[])]), ConfigError::EmptyName { what: "route" }));

        let e = error(&[Route::new("g", Matcher::default().with_groups(&["sched"]), &[])]);
        assert!(
            e.to_string()
                .starts_with("route \"g\": match.groups: unknown group \"sched\"; groups are scheduling-allocation,"),
            "{e}"
        );
        let e = error(&[Route::new("c", Matcher::default().with_causes(&["no-gpu"]), &[])]);
        assert!(e.to_string().contains("unknown cause \"no-gpu\"; causes are insufficient-gpu,"), "{e}");
        let e = error(&[Route::new("t", Matcher::default().with_types(&["warning"]), &[])]);
        assert!(e.to_string().contains("types are case-sensitive"), "{e}");
        let e = error(&[Route::new("d", Matcher::default().with_detail("kind", "fitError".into()), &[])]);
        assert!(e.to_string().contains("\"kind\" is not a JSON pointer"), "{e}");

        let e = Router::new(&[], &["file", "file"]).map(|_| ()).unwrap_err();
        assert!(matches!(e, ConfigError::DuplicateName { what: "sink", .. }));

        let typo = serde_yaml_ng::from_str::<Vec<Route>>("- name: a\n  match: {reason: [X]}").expect_err("typo");
        assert!(typo.to_string().contains("unknown field `reason`"), "{typo}");
        let typo = serde_yaml_ng::from_str::<Vec<Route>>("- name: a\n  sink: [file]").expect_err("typo");
        assert!(typo.to_string().contains("unknown field `sink`"), "{typo}");
    }
}
