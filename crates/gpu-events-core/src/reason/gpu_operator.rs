//! NVIDIA GPU Operator reasons: the driver-upgrade controller of NVIDIA/k8s-operator-libs
//! (`pkg/upgrade/{upgrade_state.go, cordon_manager.go, drain_manager.go, pod_manager.go,
//! validation_manager.go, node_upgrade_state_provider.go, util.go}`, commit 11e747a, 2026-04-30),
//! used by the GPU Operator with driver name `gpu`. The bracketed formats come from releases
//! before commit 24b9bd0 (2025-01-03, "fix bug in the logEventf method").

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by the GPU Operator's driver-upgrade state machine (component
    /// `nvidia-gpu-operator`) on the Nodes it upgrades and on the driver Pods. The reason is built
    /// as `upper(driverName) + "DriverUpgrade"`.
    pub enum GpuOperatorReason in NvidiaGpuOperator;

    GPUDriverUpgrade {
        meaning: "Progress of an automatic GPU driver upgrade on a node: each state change (upgrade-required, cordon-required, wait-for-jobs-required, pod-deletion-required, drain-required, pod-restart-required, validation-required, uncordon-required, upgrade-done, upgrade-failed), cordon, drain and workload-Pod deletion. Warnings mean a step failed (cordon, drain, Pod deletion, label update, driver Pod restart) and GPU Pods on the node may be stuck or evicted until the upgrade is retried.",
        reference: "NVIDIA/k8s-operator-libs pkg/upgrade/upgrade_state.go, util.go GetEventReason, *_manager.go (11e747a); GPU Operator cmd/gpu-operator/main.go recorder `nvidia-gpu-operator`",
        group: Device,
        types: &[Normal, Warning],
        objects: &["Node", "Pod"],
        reporting_controllers: &["nvidia-gpu-operator", "gpu-operator"],
        note_formats: &[
            "Successfully updated node state label to %s",
            "Failed to update node state label to %s, %s",
            "Successfully updated node annotation to %s=%s",
            "Failed to update node annotation %s=%s: %s",
            "Failed to update node annotation to %s=%s: %s",
            "Scheduling drain of the node",
            "Successfully drained the node",
            "Deleted workload pods on the node for the driver upgrade",
            "Failed to cordon the node, %s",
            "Failed to drain the node, %s",
            "Failed to delete workload pods on the node for the driver upgrade, %s",
            "Failed to handle timeout for job completions, %s",
            "Failed to remove annotation used to track job completions: %s",
            "Pod deletion failed but drain is enabled in spec. Will attempt a node drain",
            "Failed to restart driver pod %s",
            "Failed to handle timeout for validation state",
            "Successfully updated node state label to [%s]",
            "Successfully updated node annotation to [%s %s]=%!s(MISSING)",
        ],
        grammar: Some(&crate::details::ecosystem::DRIVER_UPGRADE),
    }
    DriverUpgrade = "<DRIVER>DriverUpgrade" {
        meaning: "Family for the same upgrade state machine run for another driver (the reason is the upper-cased driver name + `DriverUpgrade`, e.g. `OFEDDriverUpgrade` of the NVIDIA Network Operator); same steps and notes as `GPUDriverUpgrade`.",
        reference: "NVIDIA/k8s-operator-libs pkg/upgrade/util.go GetEventReason (11e747a)",
        group: Device,
        types: &[Normal, Warning],
        objects: &["Node", "Pod"],
        reporting_controllers: &["*-operator"],
        note_formats: &[
            "Successfully updated node state label to %s",
            "Failed to update node state label to %s, %s",
            "Failed to drain the node, %s",
        ],
        grammar: Some(&crate::details::ecosystem::DRIVER_UPGRADE),
    }
}
