//! node-problem-detector reasons (kubernetes/node-problem-detector `config/kernel-monitor.json`,
//! `config/readonly-monitor.json`, `pkg/systemlogmonitor/log_monitor.go`, `pkg/util/helpers.go`;
//! master @6632ca67, 2026-08-22). Reasons are configurable: these are the rules of the upstream
//! default configs; vendor configs (for example NVIDIA Xid monitors) add their own.

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by node-problem-detector on the Node. The reporter (`source.component`) is
    /// the monitor's configured `source` (`kernel-monitor`, `readonly-monitor`, ...). Temporary
    /// rules give a Warning whose note is the matched kernel log line(s), joined with `\n` and
    /// followed by `; <suffix>` when the rule sets `patternGeneratedMessageSuffix`; permanent rules
    /// set a Node condition and record a condition-change event.
    pub enum NodeProblemDetectorReason in NodeProblemDetector;

    // --- Temporary rules (events only) --------------------------------------------------------

    OOMKilling {
        meaning: "The kernel OOM killer killed a process on the node (matched from the kernel log); the note names the process and its memory use. Processes of GPU Pods that stage large models in host memory are frequent victims.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &[
            "Killed process %d (%s) total-vm:%dkB, anon-rss:%dkB, file-rss:%dkB, shmem-rss:%dkB, UID:%d pgtables:%dkB oom_score_adj:%d",
            "Killed process %d (%s) total-vm:%dkB, anon-rss:%dkB, file-rss:%dkB",
        ],
        grammar: Some(&crate::details::node::OOM_KILLING),
    }
    TaskHung {
        meaning: "A task was blocked in the kernel for longer than the hung-task timeout; on GPU nodes this often means a process stuck in the GPU driver or on slow storage.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["task %s:%d blocked for more than %d seconds."],
    }
    UnregisterNetDevice {
        meaning: "The kernel is waiting for a network device to be released (`unregister_netdevice`); Pod networking teardown can hang and new Pods may fail to start on the node.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["unregister_netdevice: waiting for %s to become free. Usage count = %d"],
    }
    KernelOops {
        meaning: "The kernel hit an oops (NULL pointer dereference or divide error); the node may be unstable and a reboot is usually needed, especially when the faulting code is a GPU driver module.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["BUG: unable to handle kernel NULL pointer dereference at %s", "divide error: 0000 [#%d] SMP"],
    }
    Ext4Error {
        meaning: "The kernel reported an ext4 filesystem error; the filesystem may be remounted read-only and Pods using it can fail.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["EXT4-fs error %s"],
    }
    Ext4Warning {
        meaning: "The kernel reported an ext4 filesystem warning; usually harmless alone, but worth watching when it repeats.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["EXT4-fs warning %s"],
    }
    IOError {
        meaning: "The kernel reported a block-device I/O error (`Buffer I/O error`); the disk behind a volume or the node's root filesystem may be failing.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["Buffer I/O error %s"],
    }
    MemoryReadError {
        meaning: "EDAC reported a corrected memory read error (`CE memory read error`) on host memory; repeated errors point at a failing DIMM.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["CE memory read error %s"],
    }
    CperHardwareErrorCorrected {
        meaning: "The firmware reported a corrected hardware error through UEFI CPER; the node keeps running, but a rising rate can precede a fatal fault.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["{%d}[Hardware Error]: event severity: corrected"],
    }
    CperHardwareErrorRecoverable {
        meaning: "The firmware reported a recoverable (uncorrected but contained) hardware error through UEFI CPER; the affected component, which can be a PCIe device such as a GPU, may need attention.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json (@6632ca67)",
        group: NodeHealth,
        types: &[Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["{%d}[Hardware Error]: event severity: recoverable"],
    }

    // --- Permanent rules (Node condition plus condition-change event) -------------------------

    CperHardwareErrorFatal {
        meaning: "The firmware reported a fatal hardware error through UEFI CPER and NPD set the `CperHardwareErrorFatal` condition; the node should be drained and repaired, and its GPU Pods moved.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json, pkg/systemlogmonitor/log_monitor.go (@6632ca67)",
        group: NodeHealth,
        types: &[Normal, Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["Node condition %s is now: %s, reason: %s, message: %q"],
    }
    DockerHung {
        meaning: "A docker task was blocked in the kernel for too long, so NPD set the `KernelDeadlock` condition; containers on the node may no longer start or stop.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json, pkg/systemlogmonitor/log_monitor.go (@6632ca67)",
        group: NodeHealth,
        types: &[Normal, Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["Node condition %s is now: %s, reason: %s, message: %q"],
    }
    XfsHasShutdown {
        meaning: "An XFS filesystem shut itself down after an error and NPD set the `XfsShutdown` condition; Pods using it fail until the node is repaired.",
        reference: "kubernetes/node-problem-detector config/kernel-monitor.json, pkg/systemlogmonitor/log_monitor.go (@6632ca67)",
        group: NodeHealth,
        types: &[Normal, Warning],
        objects: &["Node"],
        reporting_controllers: &["kernel-monitor", "*-monitor"],
        note_formats: &["Node condition %s is now: %s, reason: %s, message: %q"],
    }
    FilesystemIsReadOnly {
        meaning: "The kernel remounted a filesystem read-only and NPD set the `ReadonlyFilesystem` condition; Pods writing to it (logs, caches, checkpoints) fail.",
        reference: "kubernetes/node-problem-detector config/readonly-monitor.json, pkg/systemlogmonitor/log_monitor.go (@6632ca67)",
        group: NodeHealth,
        types: &[Normal, Warning],
        objects: &["Node"],
        reporting_controllers: &["readonly-monitor", "kernel-monitor", "*-monitor"],
        note_formats: &["Node condition %s is now: %s, reason: %s, message: %q"],
    }
}
