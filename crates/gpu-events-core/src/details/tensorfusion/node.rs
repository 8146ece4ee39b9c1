//! The GPUNode controller (`GPUNode`, internal/controller/gpunode_controller.go @3e0a490).

single_format! {
    /// The node's hypervisor Pod crash-looped past the threshold and was deleted to be recreated
    /// (gpunode_controller.go:494 @3e0a490).
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
    /// The Go format.
    FORMAT = "Hypervisor pod %s deleted for recreation: container %s restarted %d times (threshold %d)";
    /// From the Pod, container and the two counts.
    new;
}

single_format! {
    /// The node's GPU driver probe Job failed through its backoff (gpunode_controller.go:854
    /// @3e0a490); re-emitted every reconcile.
    pub struct DriverProbeFailed {
        /// Failed Pods of the Job (`job.Status.Failed`, Go `int32`).
        pub attempts: i32,
    }
    /// The Go format.
    FORMAT = "Driver probe job failed after %d attempts";
    /// From the attempt count.
    new;
}

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
