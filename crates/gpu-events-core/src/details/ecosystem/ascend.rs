//! Huawei Ascend device plugin note grammar (Ascend/mind-cluster
//! component/ascend-device-plugin/pkg/device/ascendcommon.go, master 2025; MindCluster 7.3
//! "Fault Event Information").

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::template::captures;

/// An NPU fault reported by the Ascend device plugin, reasons `Occur`, `Recovery` and `Notice`:
/// `device fault, nodeName:%s, assertion:%s, cardID:%d, deviceID:%d, faultCodes:%s,
/// faultLevelName:%s, alarmRaisedTime:%s`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NpuDeviceFault {
    /// The node with the faulty NPU.
    pub node_name: String,
    /// `Occur`, `Recovery` or `Notice` (also the event reason).
    pub assertion: String,
    /// The NPU card id.
    pub card_id: i64,
    /// The device id on the card.
    pub device_id: i64,
    /// The fault codes, upper-case hexadecimal (e.g. `8C084E00`); the plugin prints one, a
    /// comma-separated list is split.
    pub fault_codes: Vec<String>,
    /// The fault handling level (`NotHandleFault`, `RestartRequest`, `RestartBusiness`,
    /// `FreeRestartNPU`, `RestartNPU`, `SeparateNPU`, ...; also the event action).
    pub fault_level_name: String,
    /// When the alarm was raised, as written in the node's local time (`2023-11-21 05:36:53`).
    pub alarm_raised_time: String,
}

impl NpuDeviceFault {
    /// Parse the `device fault, ...` key:value list (the last value contains colons and a space).
    pub fn parse(note: &str) -> Option<Self> {
        let [node, assertion, card, device, codes, level, time] = captures(
            "device fault, nodeName:%s, assertion:%s, cardID:%d, deviceID:%d, faultCodes:%s, faultLevelName:%s, alarmRaisedTime:%s",
            note,
        )?;
        Some(NpuDeviceFault {
            node_name: node.to_owned(),
            assertion: assertion.to_owned(),
            card_id: card.parse().ok()?,
            device_id: device.parse().ok()?,
            fault_codes: codes.split(',').map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned).collect(),
            fault_level_name: level.to_owned(),
            alarm_raised_time: time.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_fault() {
        let d = NpuDeviceFault::parse(
            "device fault, nodeName:node-a, assertion:Occur, cardID:2, deviceID:0, faultCodes:8C084E00, faultLevelName:RestartBusiness, alarmRaisedTime:2023-11-21 05:36:53",
        )
        .unwrap();
        assert_eq!(d.node_name, "node-a");
        assert_eq!(d.assertion, "Occur");
        assert_eq!((d.card_id, d.device_id), (2, 0));
        assert_eq!(d.fault_codes, ["8C084E00"]);
        assert_eq!(d.fault_level_name, "RestartBusiness");
        assert_eq!(d.alarm_raised_time, "2023-11-21 05:36:53");

        let d = NpuDeviceFault::parse(
            "device fault, nodeName:node-a, assertion:Recovery, cardID:-1, deviceID:7, faultCodes:80E01801,80CB8009, faultLevelName:NotHandleFault, alarmRaisedTime:2024-01-02 03:04:05",
        )
        .unwrap();
        assert_eq!(d.card_id, -1);
        assert_eq!(d.fault_codes, ["80E01801", "80CB8009"]);
    }

    #[test]
    fn near_misses() {
        for bad in [
            "device fault, nodeName:node-a, assertion:Occur, cardID:x, deviceID:0, faultCodes:8C084E00, faultLevelName:RestartBusiness, alarmRaisedTime:2023-11-21 05:36:53",
            "device fault, nodeName:node-a, assertion:Occur, cardID:2, deviceID:0, faultCodes:8C084E00, faultLevelName:RestartBusiness",
            "device fault nodeName:node-a",
        ] {
            assert_eq!(NpuDeviceFault::parse(bad), None, "{bad}");
        }
    }
}
