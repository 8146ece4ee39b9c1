//! Huawei Ascend device plugin reasons (Ascend/mind-cluster
//! `component/ascend-device-plugin/pkg/device/ascendcommon.go` fault-event reporting and
//! `pkg/common/constants.go` `Component = "device-plugin"`, master 2025; documented in MindCluster
//! 7.3 "Fault Event Information").

use crate::EventType::{Normal, Warning};

reason_table! {
    /// Reasons recorded by the Ascend NPU device plugin (component `device-plugin`) for NPU
    /// faults. The event regards the device-plugin DaemonSet Pod in `kube-system`, not the Node;
    /// the reason is the fault assertion (`Occur`, `Recovery`, `Notice`) and the action is the
    /// fault level name.
    pub enum AscendReason in AscendDevicePlugin;

    Occur {
        meaning: "An NPU fault occurred on the node (card and device IDs, hexadecimal fault codes and the fault handling level in the note); depending on the level the device is marked unhealthy and training Pods using it are restarted or rescheduled.",
        reference: "Ascend/mind-cluster component/ascend-device-plugin/pkg/device/ascendcommon.go (master 2025; MindCluster 7.3 docs)",
        group: Device,
        types: &[Warning],
        objects: &["Pod"],
        reporting_controllers: &["device-plugin"],
        note_formats: &["device fault, nodeName:%s, assertion:%s, cardID:%d, deviceID:%d, faultCodes:%s, faultLevelName:%s, alarmRaisedTime:%s"],
        grammar: Some(&crate::details::ecosystem::NPU_DEVICE_FAULT),
    }
    Recovery {
        meaning: "A previously reported NPU fault cleared; the device can become healthy again.",
        reference: "Ascend/mind-cluster component/ascend-device-plugin/pkg/device/ascendcommon.go (master 2025; MindCluster 7.3 docs)",
        group: Device,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["device-plugin"],
        note_formats: &["device fault, nodeName:%s, assertion:%s, cardID:%d, deviceID:%d, faultCodes:%s, faultLevelName:%s, alarmRaisedTime:%s"],
        grammar: Some(&crate::details::ecosystem::NPU_DEVICE_FAULT),
    }
    Notice {
        meaning: "A one-off NPU fault notification that has no separate recovery.",
        reference: "Ascend/mind-cluster component/ascend-device-plugin/pkg/device/ascendcommon.go (master 2025; MindCluster 7.3 docs)",
        group: Device,
        types: &[Normal],
        objects: &["Pod"],
        reporting_controllers: &["device-plugin"],
        note_formats: &["device fault, nodeName:%s, assertion:%s, cardID:%d, deviceID:%d, faultCodes:%s, faultLevelName:%s, alarmRaisedTime:%s"],
        grammar: Some(&crate::details::ecosystem::NPU_DEVICE_FAULT),
    }
}
