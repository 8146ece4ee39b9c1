//! The GPUNode controller (`GPUNode`, internal/controller/gpunode_controller.go @3e0a490).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};
use super::super::{Grammar, Note};
use super::{go_int, tf};

/// The node's hypervisor Pod crash-looped past the threshold and was deleted to be recreated
/// (gpunode_controller.go:494 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HypervisorCrashLoopRecreate {
    /// The hypervisor Pod's name (`hypervisor-<node>`, ≤63 characters; long names end in
    /// `-<8 hex of sha256>`).
    pub pod: String,
    /// The crashing container's name.
    pub container: String,
    /// The container's restart count (Go `int32`).
    pub restarts: i32,
    /// The restart threshold (Go `int32`, `HypervisorMaxCrashCount`, default 5).
    pub threshold: i32,
}

impl HypervisorCrashLoopRecreate {
    /// The Go format.
    pub const FORMAT: &'static str =
        "Hypervisor pod %s deleted for recreation: container %s restarted %d times (threshold %d)";

    /// From the Pod, container and the two counts.
    pub fn new(pod: &str, container: &str, restarts: i32, threshold: i32) -> Self {
        HypervisorCrashLoopRecreate { pod: pod.to_owned(), container: container.to_owned(), restarts, threshold }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [pod, container, restarts, threshold] = captures(Self::FORMAT, note)?;
        Some(Self::new(pod, container, go_int(restarts)?, go_int(threshold)?))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(
            Self::FORMAT,
            &[
                Arg::Text(&self.pod),
                Arg::Text(&self.container),
                Arg::Int(self.restarts.into()),
                Arg::Int(self.threshold.into()),
            ],
        )
    }
}

/// The node's GPU driver probe Job failed through its backoff (gpunode_controller.go:854
/// @3e0a490); re-emitted every reconcile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DriverProbeFailed {
    /// Failed Pods of the Job (`job.Status.Failed`, Go `int32`).
    pub attempts: i32,
}

impl DriverProbeFailed {
    /// The Go format.
    pub const FORMAT: &'static str = "Driver probe job failed after %d attempts";

    /// From the attempt count.
    pub fn new(attempts: i32) -> Self {
        DriverProbeFailed { attempts }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [attempts] = captures(Self::FORMAT, note)?;
        Some(Self::new(go_int(attempts)?))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Int(self.attempts.into())])
    }
}

/// Grammar of `HypervisorCrashLoopRecreate`.
pub(crate) static HYPERVISOR_CRASH_LOOP_RECREATE: Grammar =
    Grammar::new(&["hypervisorCrashLoopRecreate"], |note: &Note<'_>| {
        HypervisorCrashLoopRecreate::parse(note.text).map(tf)
    });

/// Grammar of `DriverProbeFailed`.
pub(crate) static DRIVER_PROBE_FAILED: Grammar =
    Grammar::new(&["driverProbeFailed"], |note: &Note<'_>| DriverProbeFailed::parse(note.text).map(tf));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypervisor_and_driver_probe() {
        let note = "Hypervisor pod hypervisor-gpu-node-1 deleted for recreation: container hypervisor restarted 6 times (threshold 5)";
        let d = HypervisorCrashLoopRecreate::parse(note).unwrap();
        assert_eq!(
            (d.pod.as_str(), d.container.as_str(), d.restarts, d.threshold),
            ("hypervisor-gpu-node-1", "hypervisor", 6, 5)
        );
        assert_eq!(d.render(), note);
        assert_eq!(
            HypervisorCrashLoopRecreate::parse(
                "Hypervisor pod h deleted for recreation: container c restarted six times (threshold 5)"
            ),
            None
        );

        let d = DriverProbeFailed::parse("Driver probe job failed after 3 attempts").unwrap();
        assert_eq!(d.attempts, 3);
        assert_eq!(DriverProbeFailed::parse("Driver probe job failed after 3 attempt"), None);
        assert_eq!(DriverProbeFailed::parse("Driver probe job failed after 99999999999 attempts"), None);
    }
}
