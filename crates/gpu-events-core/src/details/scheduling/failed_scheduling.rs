//! kube-scheduler `FailedScheduling` notes: the FitError (see [`FitError`]) and the notes that
//! are not one (`kubernetes-gpu-reasons.md` §2.4).
//!
//! Sources: kubernetes/kubernetes `pkg/scheduler/schedule_one.go` (`skip schedule deleting pod`,
//! `ErrNoNodesAvailable`, binding and assume errors), `pkg/scheduler/framework/runtime/framework.go`
//! (the `running ... plugin` wrappers), v1.20–v1.36.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::SchedulingDetails;
use super::fit_error::FitError;
use crate::details::template::{captures, go_unquote};
use crate::details::{Details, Grammar, Note};

/// `skip schedule deleting pod: %v/%v`: the Pod was being deleted when its turn came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SkipDeletingPod {
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
}

impl SkipDeletingPod {
    /// The Go format (schedule_one.go).
    pub const FORMAT: &'static str = "skip schedule deleting pod: %v/%v";

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [namespace, pod] = captures(Self::FORMAT, note.trim())?;
        (!namespace.is_empty() && !pod.is_empty())
            .then(|| SkipDeletingPod { namespace: namespace.to_owned(), pod: pod.to_owned() })
    }
}

/// The framework extension point whose plugin returned an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PluginStage {
    /// `running PreFilter plugin %q: %w`
    PreFilter,
    /// `running %q filter plugin: %w` (older `running %q filter plugin for pod %q: %w`)
    Filter,
    /// `running PostFilter plugin %q: %w`
    PostFilter,
    /// `running PreScore plugin %q: %w`
    PreScore,
    /// `running Score plugin %q: %w`
    Score,
    /// `running Normalize on Score plugin %q: %w`
    NormalizeScore,
    /// `running Reserve plugin %q: %w`
    Reserve,
    /// `running Permit plugin %q: %w`
    Permit,
    /// `waiting on permit for pod: %w` (no plugin name)
    WaitOnPermit,
    /// `running PreBind plugin %q: %w`
    PreBind,
    /// `running PreBindPreFlight %q: %w`
    PreBindPreFlight,
    /// `running Bind plugin %q: %w`
    Bind,
}

/// A plugin returned an error (status `Error`, not `Unschedulable`): the framework's wrapper
/// names the stage and the plugin, the inner error follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PluginError {
    /// The extension point.
    pub stage: PluginStage,
    /// The plugin name (`%q` unquoted); absent for `waiting on permit for pod`.
    pub plugin: Option<String>,
    /// The wrapped error as written (e.g. a volume binding timeout, `binding rejected: ...`).
    pub error: String,
}

/// `running <Stage> plugin %q: %w` prefixes, longest first where they share a start.
const STAGE_PREFIXES: &[(&str, PluginStage)] = &[
    ("PreFilter plugin ", PluginStage::PreFilter),
    ("PostFilter plugin ", PluginStage::PostFilter),
    ("PreScore plugin ", PluginStage::PreScore),
    ("Normalize on Score plugin ", PluginStage::NormalizeScore),
    ("Score plugin ", PluginStage::Score),
    ("Reserve plugin ", PluginStage::Reserve),
    ("Permit plugin ", PluginStage::Permit),
    ("PreBindPreFlight ", PluginStage::PreBindPreFlight),
    ("PreBind plugin ", PluginStage::PreBind),
    ("Bind plugin ", PluginStage::Bind),
];

impl PluginError {
    /// Parse a wrapped plugin error; `None` for other notes.
    pub fn parse(note: &str) -> Option<Self> {
        let note = note.trim();
        if let Some(error) = note.strip_prefix("waiting on permit for pod: ") {
            return Some(PluginError { stage: PluginStage::WaitOnPermit, plugin: None, error: error.to_owned() });
        }
        let rest = note.strip_prefix("running ")?;
        if rest.starts_with('"') {
            let (plugin, after) = split_quoted(rest)?;
            let after = after.strip_prefix(" filter plugin")?;
            let error = match after.strip_prefix(": ") {
                Some(error) => error,
                None => {
                    let (_, after_pod) = split_quoted(after.strip_prefix(" for pod ")?)?;
                    after_pod.strip_prefix(": ")?
                }
            };
            return Some(PluginError { stage: PluginStage::Filter, plugin: Some(plugin), error: error.to_owned() });
        }
        let (stage, quoted) =
            STAGE_PREFIXES.iter().find_map(|(prefix, stage)| Some((*stage, rest.strip_prefix(prefix)?)))?;
        let (plugin, after) = split_quoted(quoted)?;
        Some(PluginError { stage, plugin: Some(plugin), error: after.strip_prefix(": ")?.to_owned() })
    }
}

/// Split a leading Go-quoted string (`"name" rest`) into its value and the rest.
fn split_quoted(text: &str) -> Option<(String, &str)> {
    let mut escaped = false;
    for (at, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                let (quoted, rest) = text.split_at(at + 1);
                return Some((go_unquote(quoted)?, rest));
            }
            _ => {}
        }
    }
    None
}

/// Any other `FailedScheduling` text: binding and assume errors (`Operation cannot be fulfilled
/// on pods/binding ...`, `AssumePod failed: ...`), extender errors, third-party schedulers' text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SchedulingError {
    /// The note as written.
    pub message: String,
}

/// Whether a note claims to be a FitError, so that it must parse as one.
fn looks_like_fit_error(text: &str) -> bool {
    text.starts_with("0/")
        || text.starts_with("In hyperNode ")
        || text.starts_with("No nodes are available that match all of the")
        || (text.starts_with("pod (") && text.contains(") failed to fit in any node"))
        || text.starts_with("Cannot schedule pods: ")
}

/// Parse a kube-scheduler `FailedScheduling` note into its kind.
pub(super) fn parse_failed_scheduling(note: &str) -> Option<SchedulingDetails> {
    let text = note.trim();
    if text.is_empty() {
        return None;
    }
    if looks_like_fit_error(text) || text.starts_with("all nodes are unavailable") {
        return FitError::parse(text).map(SchedulingDetails::FitError);
    }
    if text == "no nodes available to schedule pods" {
        return Some(SchedulingDetails::NoNodesAvailable);
    }
    if let Some(d) = SkipDeletingPod::parse(text) {
        return Some(SchedulingDetails::SkipDeletingPod(d));
    }
    if let Some(d) = PluginError::parse(text) {
        return Some(SchedulingDetails::PluginError(d));
    }
    Some(SchedulingDetails::SchedulingError(SchedulingError { message: text.to_owned() }))
}

/// Grammar of kube-scheduler `FailedScheduling` (also the framework-based secondary schedulers:
/// HAMi's `hami-scheduler`, GKE's, ...).
pub(crate) static FAILED_SCHEDULING: Grammar = Grammar::new(
    &[
        FitError::KIND,
        SchedulingDetails::NO_NODES_AVAILABLE,
        SkipDeletingPod::KIND,
        PluginError::KIND,
        SchedulingError::KIND,
    ],
    |note: &Note<'_>| parse_failed_scheduling(note.text).map(Details::Scheduling),
);

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(note: &str) -> Option<&'static str> {
        parse_failed_scheduling(note).map(|d| d.kind())
    }

    #[test]
    fn every_non_fit_error_form() {
        assert_eq!(
            parse_failed_scheduling("skip schedule deleting pod: ml/train-0"),
            Some(SchedulingDetails::SkipDeletingPod(SkipDeletingPod { namespace: "ml".into(), pod: "train-0".into() }))
        );
        assert_eq!(
            parse_failed_scheduling("no nodes available to schedule pods"),
            Some(SchedulingDetails::NoNodesAvailable)
        );
        assert_eq!(kind("0/3 nodes are available: 3 Insufficient nvidia.com/gpu."), Some("fitError"));
        assert_eq!(
            kind("Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n\""),
            Some("schedulingError")
        );
        assert_eq!(kind("AssumePod failed: pod 1234 is in the cache, so can't be assumed"), Some("schedulingError"));
    }

    #[test]
    fn plugin_error_wrappers() {
        let cases: &[(&str, PluginStage, Option<&str>, &str)] = &[
            (
                "running PreFilter plugin \"VolumeBinding\": error getting PVC \"ml/data\": persistentvolumeclaim \"data\" not found",
                PluginStage::PreFilter,
                Some("VolumeBinding"),
                "error getting PVC \"ml/data\": persistentvolumeclaim \"data\" not found",
            ),
            (
                "running \"DynamicResources\" filter plugin: timed out",
                PluginStage::Filter,
                Some("DynamicResources"),
                "timed out",
            ),
            (
                "running \"VolumeBinding\" filter plugin for pod \"p\": boom",
                PluginStage::Filter,
                Some("VolumeBinding"),
                "boom",
            ),
            ("running Reserve plugin \"VolumeBinding\": x", PluginStage::Reserve, Some("VolumeBinding"), "x"),
            ("running Permit plugin \"Coscheduling\": x", PluginStage::Permit, Some("Coscheduling"), "x"),
            (
                "waiting on permit for pod: rejected due to timeout after waiting 10s at plugin Coscheduling",
                PluginStage::WaitOnPermit,
                None,
                "rejected due to timeout after waiting 10s at plugin Coscheduling",
            ),
            (
                "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded",
                PluginStage::PreBind,
                Some("VolumeBinding"),
                "binding volumes: context deadline exceeded",
            ),
            (
                "running Bind plugin \"DefaultBinder\": binding rejected: node gone",
                PluginStage::Bind,
                Some("DefaultBinder"),
                "binding rejected: node gone",
            ),
            ("running Normalize on Score plugin \"X\": y", PluginStage::NormalizeScore, Some("X"), "y"),
            ("running Score plugin \"a\\\"b\": y", PluginStage::Score, Some("a\"b"), "y"),
        ];
        for (note, stage, plugin, error) in cases {
            let parsed = PluginError::parse(note).unwrap_or_else(|| panic!("{note}"));
            assert_eq!(parsed.stage, *stage, "{note}");
            assert_eq!(parsed.plugin.as_deref(), *plugin, "{note}");
            assert_eq!(parsed.error, *error, "{note}");
            assert_eq!(kind(note), Some("pluginError"));
        }
    }

    #[test]
    fn near_misses() {
        assert_eq!(SkipDeletingPod::parse("skip schedule deleting pod: nopod"), None);
        assert_eq!(SkipDeletingPod::parse("skip schedule deleting pod: /p"), None);
        assert_eq!(PluginError::parse("running PreFilter plugin VolumeBinding: x"), None);
        assert_eq!(PluginError::parse("running \"X\" filter plugin"), None);
        assert_eq!(PluginError::parse("running \"X filter plugin: y"), None);
        assert_eq!(PluginError::parse("running Foo plugin \"X\": y"), None);
        // A note that claims to be a FitError must be one.
        assert_eq!(kind("0/3 nodes are availabl: 3 Insufficient cpu."), None);
        assert_eq!(kind("   "), None);
    }

    #[test]
    fn grammar_lists_its_kinds() {
        for note in [
            "0/1 nodes are available: 1 Insufficient cpu.",
            "no nodes available to schedule pods",
            "skip schedule deleting pod: a/b",
            "running Bind plugin \"B\": e",
            "anything else",
        ] {
            let details = FAILED_SCHEDULING.parse(&Note::new(note));
            assert!(FAILED_SCHEDULING.kinds.contains(&details.kind()), "{note}");
        }
    }
}
