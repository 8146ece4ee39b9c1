//! GPUPool capacity events: the GPUNodeClaim controller (internal/controller/gpunodeclaim_controller.go
//! @3e0a490), pool compaction (gpupool_compaction_controller.go) and node provisioning
//! (gpupool_node_provision.go).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};

/// A new GPU node was provisioned for the pool (`ManagedNodeCreated`,
/// gpunodeclaim_controller.go:159 @3e0a490; before PR #52 the same note had reason
/// `GPUNodeCreated`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeCreated {
    /// The cloud instance ID, e.g. `i-0a1b2c3d4e5f67890`.
    pub instance_id: String,
    /// The node's private IP; `None` when the cloud gave none (the note then ends `IP: `).
    pub ip: Option<String>,
}

impl NodeCreated {
    /// The Go format.
    pub const FORMAT: &'static str = "Created node: %s, IP: %s";

    /// From the instance ID and IP (an empty IP is `None`).
    pub fn new(instance_id: &str, ip: &str) -> Self {
        NodeCreated { instance_id: instance_id.to_owned(), ip: (!ip.is_empty()).then(|| ip.to_owned()) }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [instance_id, ip] = captures(Self::FORMAT, note)?;
        Some(Self::new(instance_id, ip))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.instance_id), Arg::Text(self.ip.as_deref().unwrap_or_default())])
    }
}

single_format! {
    /// Compaction is terminating an empty node (gpupool_compaction_controller.go:228 @3e0a490).
    pub struct Compaction {
        /// The GPUNode name (= the Kubernetes node name).
        pub node: String,
    }
    /// The Go format.
    FORMAT = "Node %s is empty and deletion won't impact warm-up capacity, try terminating it";
    /// From the node name.
    new;
}

/// One `resource.Quantity` as Go's `%v` prints its internals:
/// `{{<int64> <scale>} {<*inf.Dec>} <cached string> <Format>}`, e.g.
/// `{{1073741824000 0} {<nil>}  BinarySI}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DumpedQuantity {
    /// The unscaled integer (`int64Amount.value`).
    pub unscaled: i64,
    /// The decimal exponent (`int64Amount.scale`).
    pub scale: i32,
    /// `unscaled × 10^scale` in the field's unit; `None` when the quantity is held as an
    /// `inf.Dec` (then Go prints a pointer, not the number).
    pub value: Option<f64>,
    /// The `inf.Dec` part as printed when it is not `<nil>` (a pointer address).
    pub dec: Option<String>,
    /// The cached canonical string (`100` for a quantity parsed from `"100"`), when present.
    pub cached: Option<String>,
    /// The format: `DecimalSI`, `BinarySI`, `DecimalExponent`, or empty for a zero quantity.
    pub format: String,
}

impl DumpedQuantity {
    /// Parse one dumped quantity at the start of `text`; the quantity and the text after it.
    fn parse_prefix(text: &str) -> Option<(Self, &str)> {
        let rest = text.strip_prefix("{{")?;
        let (unscaled, rest) = rest.split_once(' ')?;
        let (scale, rest) = rest.split_once("} {")?;
        let (dec, rest) = rest.split_once("} ")?;
        let end = rest.find('}')?;
        let (cached, format) = rest.get(..end)?.split_once(' ')?;
        let unscaled: i64 = unscaled.parse().ok()?;
        let scale: i32 = scale.parse().ok()?;
        let dec = (dec != "<nil>").then(|| dec.to_owned());
        // Precision is what a float gives; the exact digits are in `unscaled` and `scale`.
        let value = dec.is_none().then(|| unscaled as f64 * 10f64.powi(scale)).filter(|value| value.is_finite());
        let quantity = DumpedQuantity {
            unscaled,
            scale,
            value,
            dec,
            cached: (!cached.is_empty()).then(|| cached.to_owned()),
            format: format.to_owned(),
        };
        Some((quantity, rest.get(end + 1..)?))
    }
}

/// The pool's `MaxResources` (`*GPUOrCPUResourceUnit{TFlops, VRAM, CPU, Memory}`) decoded from
/// its Go struct dump `&{<Q> <Q> <Q> <Q>}`; fields are filled in that order, so a dump of an
/// older, shorter struct fills the first ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MaxResources {
    /// Maximum compute; `value` in TFLOPS.
    pub tflops: Option<DumpedQuantity>,
    /// Maximum VRAM; `value` in bytes.
    pub vram: Option<DumpedQuantity>,
    /// Maximum CPU; `value` in cores.
    pub cpu: Option<DumpedQuantity>,
    /// Maximum memory; `value` in bytes.
    pub memory: Option<DumpedQuantity>,
}

impl MaxResources {
    /// Decode a dump; `None` when it does not have the shape.
    pub fn parse(dump: &str) -> Option<Self> {
        let mut rest = dump.strip_prefix("&{")?.strip_suffix('}')?;
        let mut fields: [Option<DumpedQuantity>; 4] = [None, None, None, None];
        for (index, slot) in fields.iter_mut().enumerate() {
            if index > 0 {
                if rest.is_empty() {
                    break;
                }
                rest = rest.strip_prefix(' ')?;
            }
            let (quantity, after) = DumpedQuantity::parse_prefix(rest)?;
            *slot = Some(quantity);
            rest = after;
        }
        if !rest.is_empty() {
            return None;
        }
        let [tflops, vram, cpu, memory] = fields;
        Some(MaxResources { tflops, vram, cpu, memory })
    }
}

/// The pool wanted more nodes but its maximum resources would be exceeded
/// (gpupool_node_provision.go:131 @3e0a490). The note prints `*GPUOrCPUResourceUnit` with `%v`,
/// which dumps `resource.Quantity` internals (Go 1.19+ layout).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MaxResourceConstraintReached {
    /// The struct dump after the fixed text, verbatim (rendered as kept).
    pub dump: String,
    /// The dump decoded, when it has the expected shape.
    pub max_resources: Option<MaxResources>,
}

single_format! {
    impl MaxResourceConstraintReached {
        /// The Go format.
        FORMAT = "Max resource constraint can not be satisfied, can not scale up: %v";
        fields(dump: String);
        /// From the dump text.
        pub fn new(dump: &str) -> Self {
            MaxResourceConstraintReached { dump: dump.to_owned(), max_resources: MaxResources::parse(dump) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_created_and_compaction() {
        let d = NodeCreated::parse("Created node: i-0a1b2c3d4e5f67890, IP: 10.0.12.34").unwrap();
        assert_eq!(d.instance_id, "i-0a1b2c3d4e5f67890");
        assert_eq!(d.ip.as_deref(), Some("10.0.12.34"));
        let d = NodeCreated::parse("Created node: i-0a1b, IP: ").unwrap();
        assert_eq!(d.ip, None);
        assert_eq!(d.render(), "Created node: i-0a1b, IP: ");
        assert_eq!(NodeCreated::parse("Created node: i-0a1b"), None);

        let note = "Node gpu-node-7 is empty and deletion won't impact warm-up capacity, try terminating it";
        let d = Compaction::parse(note).unwrap();
        assert_eq!(d.node, "gpu-node-7");
        assert_eq!(d.render(), note);
        assert_eq!(Compaction::parse("Node gpu-node-7 is empty"), None);
    }

    #[test]
    fn struct_dump_is_decoded() {
        let note = "Max resource constraint can not be satisfied, can not scale up: &{{{2000 0} {<nil>}  DecimalSI} {{1073741824000 0} {<nil>}  BinarySI} {{0 0} {<nil>}  } {{0 0} {<nil>}  }}";
        let d = MaxResourceConstraintReached::parse(note).unwrap();
        assert_eq!(d.render(), note);
        let max = d.max_resources.unwrap();
        let tflops = max.tflops.unwrap();
        assert_eq!((tflops.unscaled, tflops.scale), (2000, 0));
        assert_eq!(tflops.value, Some(2000.0));
        assert_eq!(tflops.cached, None);
        assert_eq!(tflops.format, "DecimalSI");
        let vram = max.vram.unwrap();
        assert_eq!(vram.value, Some(1_073_741_824_000.0));
        assert_eq!(vram.format, "BinarySI");
        let cpu = max.cpu.unwrap();
        assert_eq!((cpu.value, cpu.format.as_str()), (Some(0.0), ""));
        assert!(max.memory.is_some());

        let cached = MaxResources::parse(
            "&{{{100 0} {<nil>} 100 DecimalSI} {{5 3} {<nil>} 5k DecimalSI} {{-5 -1} {0xc000123456}  DecimalSI} {{0 0} {<nil>}  }}",
        )
        .unwrap();
        let tflops = cached.tflops.unwrap();
        assert_eq!(tflops.cached.as_deref(), Some("100"));
        assert_eq!(cached.vram.unwrap().value, Some(5000.0));
        let cpu = cached.cpu.unwrap();
        assert_eq!(cpu.dec.as_deref(), Some("0xc000123456"));
        assert_eq!(cpu.value, None);

        let short = MaxResources::parse("&{{{2000 0} {<nil>}  DecimalSI} {{0 0} {<nil>}  }}").unwrap();
        assert!(short.vram.is_some() && short.cpu.is_none());

        for opaque in [
            "<nil>",
            "&{}",
            "&{{{x 0} {<nil>}  }}",
            "&{{{1 0} {<nil>}  } {{1 0} {<nil>}  } {{1 0} {<nil>}  } {{1 0} {<nil>}  } {{1 0} {<nil>}  }}",
            "{2000 0}",
        ] {
            let d = MaxResourceConstraintReached::new(opaque);
            assert_eq!(d.max_resources, None, "{opaque}");
            assert_eq!(MaxResourceConstraintReached::parse(&d.render()).unwrap(), d);
        }
        assert_eq!(MaxResourceConstraintReached::parse("Max resource constraint: x"), None);
    }
}
