//! NVIDIA GPU Operator driver-upgrade note grammar (NVIDIA/k8s-operator-libs `pkg/upgrade`,
//! commit 11e747a, with the pre-2025 un-spread argument artefacts).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::template::captures;

/// A step of the driver-upgrade state machine on a node, reason `GPUDriverUpgrade` (or
/// `<DRIVER>DriverUpgrade`) (NVIDIA/k8s-operator-libs pkg/upgrade/upgrade_state.go,
/// cordon_manager.go, drain_manager.go, pod_manager.go, validation_manager.go,
/// node_upgrade_state_provider.go, 11e747a).
///
/// Before commit 24b9bd0 (2025-01-03) the arguments were passed to `Eventf` un-spread, so the
/// first verb printed all arguments as a Go slice (`[upgrade-required]`, `[key value]`), later
/// verbs printed `%!s(MISSING)` and argument-less notes ended with `%!(EXTRA []interface {}=[])`.
/// Those artefacts are removed here and [`DriverUpgrade::legacy_format`] is set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DriverUpgrade {
    /// The step reported.
    pub step: DriverUpgradeStep,
    /// The upgrade state written to the node label (`upgrade-required`, `cordon-required`,
    /// `wait-for-jobs-required`, `pod-deletion-required`, `drain-required`,
    /// `node-maintenance-required`, `post-maintenance-required`, `pod-restart-required`,
    /// `validation-required`, `uncordon-required`, `upgrade-done`, `upgrade-failed`).
    pub state: Option<String>,
    /// The node annotation key written.
    pub annotation_key: Option<String>,
    /// The node annotation value written.
    pub annotation_value: Option<String>,
    /// The error of a failed step, as written.
    pub error: Option<String>,
    /// The note had the pre-2025 artefacts (`[...]`, `%!s(MISSING)`, `%!(EXTRA ...)`).
    pub legacy_format: bool,
}

/// The step of a [`DriverUpgrade`] note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum DriverUpgradeStep {
    /// `Successfully updated node state label to %s`.
    StateLabelUpdated,
    /// `Failed to update node state label to %s, %s`.
    StateLabelUpdateFailed,
    /// `Successfully updated node annotation to %s=%s`.
    AnnotationUpdated,
    /// `Failed to update node annotation [to ]%s=%s: %s`.
    AnnotationUpdateFailed,
    /// `Scheduling drain of the node`.
    DrainScheduled,
    /// `Successfully drained the node`.
    Drained,
    /// `Deleted workload pods on the node for the driver upgrade`.
    WorkloadPodsDeleted,
    /// `Failed to cordon the node, %s`.
    CordonFailed,
    /// `Failed to drain the node, %s`.
    DrainFailed,
    /// `Failed to delete workload pods on the node for the driver upgrade, %s`.
    WorkloadPodDeletionFailed,
    /// `Failed to handle timeout for job completions, %s`.
    JobCompletionTimeoutFailed,
    /// `Failed to remove annotation used to track job completions: %s`.
    JobCompletionAnnotationRemovalFailed,
    /// `Pod deletion failed but drain is enabled in spec. Will attempt a node drain`.
    PodDeletionFallbackToDrain,
    /// `Failed to restart driver pod %s` (on the driver Pod).
    DriverPodRestartFailed,
    /// `Failed to handle timeout for validation state`.
    ValidationTimeoutFailed,
}

/// What a verb of a format holds.
#[derive(Clone, Copy)]
enum Role {
    State,
    Key,
    Value,
    Error,
}

/// The note formats, most specific first, with the roles of their verbs.
const FORMATS: &[(&str, DriverUpgradeStep, &[Role])] = {
    use DriverUpgradeStep as S;
    use Role::{Error, Key, State, Value};
    &[
        ("Successfully updated node state label to %s", S::StateLabelUpdated, &[State]),
        ("Failed to update node state label to %s, %s", S::StateLabelUpdateFailed, &[State, Error]),
        ("Successfully updated node annotation to %s=%s", S::AnnotationUpdated, &[Key, Value]),
        ("Failed to update node annotation to %s=%s: %s", S::AnnotationUpdateFailed, &[Key, Value, Error]),
        ("Failed to update node annotation %s=%s: %s", S::AnnotationUpdateFailed, &[Key, Value, Error]),
        ("Scheduling drain of the node", S::DrainScheduled, &[]),
        ("Successfully drained the node", S::Drained, &[]),
        ("Deleted workload pods on the node for the driver upgrade", S::WorkloadPodsDeleted, &[]),
        ("Failed to cordon the node, %s", S::CordonFailed, &[Error]),
        ("Failed to drain the node, %s", S::DrainFailed, &[Error]),
        (
            "Failed to delete workload pods on the node for the driver upgrade, %s",
            S::WorkloadPodDeletionFailed,
            &[Error],
        ),
        ("Failed to handle timeout for job completions, %s", S::JobCompletionTimeoutFailed, &[Error]),
        (
            "Failed to remove annotation used to track job completions: %s",
            S::JobCompletionAnnotationRemovalFailed,
            &[Error],
        ),
        (
            "Pod deletion failed but drain is enabled in spec. Will attempt a node drain",
            S::PodDeletionFallbackToDrain,
            &[],
        ),
        ("Failed to restart driver pod %s", S::DriverPodRestartFailed, &[Error]),
        ("Failed to handle timeout for validation state", S::ValidationTimeoutFailed, &[]),
    ]
};

/// Up to three verb texts of a modern note.
fn modern<'n>(format: &str, verbs: usize, note: &'n str) -> Option<[&'n str; 3]> {
    match verbs {
        0 => captures::<0>(format, note).map(|_| ["", "", ""]),
        1 => captures::<1>(format, note).map(|[a]| [a, "", ""]),
        2 => captures::<2>(format, note).map(|[a, b]| [a, b, ""]),
        3 => captures::<3>(format, note),
        _ => None,
    }
}

/// Up to three argument texts of a pre-2025 note: the first verb printed `[arg1 arg2 ...]`, each
/// later verb `%!s(MISSING)`.
fn legacy<'n>(format: &str, verbs: usize, note: &'n str) -> Option<[&'n str; 3]> {
    if verbs == 0 {
        return None;
    }
    let (prefix, tail) = format.split_once("%s")?;
    // The rest of the format, with each later verb printed as Go prints a missing argument,
    // removed from the end of the note piece by piece.
    let mut rest = note.strip_prefix(prefix)?;
    for (i, piece) in tail.rsplit("%s").enumerate() {
        if i > 0 {
            rest = rest.strip_suffix("%!s(MISSING)")?;
        }
        rest = rest.strip_suffix(piece)?;
    }
    let list = rest.strip_prefix('[')?.strip_suffix(']')?;
    let mut args = ["", "", ""];
    let mut parts = list.splitn(verbs, ' ');
    for slot in args.iter_mut().take(verbs) {
        *slot = parts.next().unwrap_or("");
    }
    Some(args)
}

impl DriverUpgrade {
    /// Parse a driver-upgrade note in its current or pre-2025 form.
    pub fn parse(note: &str) -> Option<Self> {
        // Pre-2025 argument-less notes: `...%!(EXTRA []interface {}=[])`.
        let (note, extra) = match note.find("%!(EXTRA ") {
            Some(at) => (note.get(..at)?, true),
            None => (note, false),
        };
        for (format, step, roles) in FORMATS {
            let verbs = roles.len();
            let (args, legacy_format) = match legacy(format, verbs, note) {
                Some(args) => (args, true),
                None => match modern(format, verbs, note) {
                    Some(args) => (args, extra),
                    None => continue,
                },
            };
            let mut out = DriverUpgrade {
                step: *step,
                state: None,
                annotation_key: None,
                annotation_value: None,
                error: None,
                legacy_format,
            };
            for (role, arg) in roles.iter().zip(args) {
                let arg = Some(arg.to_owned());
                match role {
                    Role::State => out.state = arg,
                    Role::Key => out.annotation_key = arg,
                    Role::Value => out.annotation_value = arg,
                    Role::Error => out.error = arg,
                }
            }
            if out.state.as_deref() == Some("") || out.annotation_key.as_deref() == Some("") {
                return None;
            }
            return Some(out);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_labels_in_both_forms() {
        let d = DriverUpgrade::parse("Successfully updated node state label to upgrade-done").unwrap();
        assert_eq!(d.step, DriverUpgradeStep::StateLabelUpdated);
        assert_eq!((d.state.as_deref(), d.legacy_format), (Some("upgrade-done"), false));
        let d = DriverUpgrade::parse("Successfully updated node state label to [cordon-required]").unwrap();
        assert_eq!((d.state.as_deref(), d.legacy_format), (Some("cordon-required"), true));
        let d = DriverUpgrade::parse("Failed to update node state label to upgrade-failed, nodes \"node-a\" not found")
            .unwrap();
        assert_eq!(d.step, DriverUpgradeStep::StateLabelUpdateFailed);
        assert_eq!(d.state.as_deref(), Some("upgrade-failed"));
        assert_eq!(d.error.as_deref(), Some("nodes \"node-a\" not found"));
        let d =
            DriverUpgrade::parse("Failed to update node state label to [upgrade-failed conflict, retry], %!s(MISSING)")
                .unwrap();
        assert!(d.legacy_format);
        assert_eq!(d.state.as_deref(), Some("upgrade-failed"));
        assert_eq!(d.error.as_deref(), Some("conflict, retry"));
    }

    #[test]
    fn annotations_in_both_forms() {
        let d = DriverUpgrade::parse(
            "Successfully updated node annotation to nvidia.com/gpu-driver-upgrade-validation-start-time=1727183014",
        )
        .unwrap();
        assert_eq!(d.step, DriverUpgradeStep::AnnotationUpdated);
        assert_eq!(d.annotation_key.as_deref(), Some("nvidia.com/gpu-driver-upgrade-validation-start-time"));
        assert_eq!(d.annotation_value.as_deref(), Some("1727183014"));
        let d = DriverUpgrade::parse(
            "Successfully updated node annotation to [nvidia.com/gpu-driver-upgrade-validation-start-time 1727183014]=%!s(MISSING)",
        )
        .unwrap();
        assert!(d.legacy_format);
        assert_eq!(d.annotation_key.as_deref(), Some("nvidia.com/gpu-driver-upgrade-validation-start-time"));
        assert_eq!(d.annotation_value.as_deref(), Some("1727183014"));
        let d = DriverUpgrade::parse("Failed to update node annotation to k=v: conflict").unwrap();
        assert_eq!(d.step, DriverUpgradeStep::AnnotationUpdateFailed);
        assert_eq!((d.annotation_key.as_deref(), d.error.as_deref()), (Some("k"), Some("conflict")));
        let d = DriverUpgrade::parse("Failed to update node annotation k=v: conflict").unwrap();
        assert_eq!((d.annotation_key.as_deref(), d.annotation_value.as_deref()), (Some("k"), Some("v")));
    }

    #[test]
    fn drain_cordon_and_pod_steps() {
        for (note, step) in [
            ("Scheduling drain of the node", DriverUpgradeStep::DrainScheduled),
            ("Successfully drained the node", DriverUpgradeStep::Drained),
            ("Deleted workload pods on the node for the driver upgrade", DriverUpgradeStep::WorkloadPodsDeleted),
            (
                "Pod deletion failed but drain is enabled in spec. Will attempt a node drain",
                DriverUpgradeStep::PodDeletionFallbackToDrain,
            ),
            ("Failed to handle timeout for validation state", DriverUpgradeStep::ValidationTimeoutFailed),
        ] {
            let d = DriverUpgrade::parse(note).unwrap();
            assert_eq!((d.step, d.error, d.legacy_format), (step, None, false), "{note}");
        }
        let d = DriverUpgrade::parse("Successfully drained the node%!(EXTRA []interface {}=[])").unwrap();
        assert_eq!((d.step, d.legacy_format), (DriverUpgradeStep::Drained, true));
        for (note, step, error) in [
            ("Failed to cordon the node, timeout", DriverUpgradeStep::CordonFailed, "timeout"),
            (
                "Failed to drain the node, [cannot evict pod as it would violate the pod's disruption budget]",
                DriverUpgradeStep::DrainFailed,
                "cannot evict pod as it would violate the pod's disruption budget",
            ),
            (
                "Failed to delete workload pods on the node for the driver upgrade, pods not deleted",
                DriverUpgradeStep::WorkloadPodDeletionFailed,
                "pods not deleted",
            ),
            ("Failed to handle timeout for job completions, x", DriverUpgradeStep::JobCompletionTimeoutFailed, "x"),
            (
                "Failed to remove annotation used to track job completions: y",
                DriverUpgradeStep::JobCompletionAnnotationRemovalFailed,
                "y",
            ),
            (
                "Failed to restart driver pod pods \"nvidia-driver-daemonset-x\" not found",
                DriverUpgradeStep::DriverPodRestartFailed,
                "pods \"nvidia-driver-daemonset-x\" not found",
            ),
        ] {
            let d = DriverUpgrade::parse(note).unwrap();
            assert_eq!((d.step, d.error.as_deref()), (step, Some(error)), "{note}");
        }
    }

    #[test]
    fn near_misses() {
        for bad in [
            "Successfully updated node state label to ",
            "Successfully updated node state label to []",
            "Successfully updated node label to upgrade-done",
            "Scheduling drain of the node now",
            "",
        ] {
            assert_eq!(DriverUpgrade::parse(bad), None, "{bad}");
        }
    }
}
