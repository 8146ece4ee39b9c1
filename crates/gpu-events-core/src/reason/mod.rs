//! The reason catalogue: one typed entry per event reason that a GPU Pod, node, pool or workload meets.
//!
//! Each source (kube-scheduler, kubelet, TensorFusion, Karpenter, ...) declares its reasons once,
//! in its own table module, with `reason_table!`. The per-source enums are joined into [`Reason`]
//! here by `sources!`; everything else (wire strings, lookups, iteration, the Markdown table in
//! `docs/reasons.md`, the JSON listing) is derived from those rows.
//!
//! One wire string can name different reasons depending on who reports it (`FailedScheduling`
//! from `default-scheduler` or from `karpenter`, `Preempted` from the scheduler or from Kueue, the
//! gang reasons from `tensor-fusion-scheduler` or `GangScheduler`). [`ReasonName::resolve`] takes
//! the reporting controller into account; [`ReasonName::parse`] picks the primary entry.

#[macro_use]
mod macros;

mod group;
mod info;
mod lookup;
mod name;
mod render;

mod ascend;
mod cluster_autoscaler;
mod controller_manager;
mod coscheduling;
mod gpu_operator;
mod hami;
mod kai;
mod karpenter;
mod kubelet;
mod kueue;
mod node_problem_detector;
mod scheduler;
mod tensorfusion;
mod volcano;

pub use ascend::AscendReason;
pub use cluster_autoscaler::ClusterAutoscalerReason;
pub use controller_manager::ControllerManagerReason;
pub use coscheduling::CoschedulingReason;
pub use gpu_operator::GpuOperatorReason;
pub use group::Group;
pub use hami::HamiReason;
pub use info::ReasonInfo;
pub use kai::KaiSchedulerReason;
pub use karpenter::KarpenterReason;
pub use kubelet::KubeletReason;
pub use kueue::KueueReason;
pub use lookup::UnknownReasonError;
pub use name::ReasonName;
pub use node_problem_detector::NodeProblemDetectorReason;
pub use render::{catalogue_json, catalogue_markdown};
pub use scheduler::SchedulerReason;
pub use tensorfusion::TensorFusionReason;
pub use volcano::VolcanoReason;

/// Joins the per-source tables into [`Source`] and [`Reason`]. The order of the list is the
/// order of precedence when a wire string is shared and the reporter does not decide.
macro_rules! sources {
    ($( $(#[doc = $doc:literal])+ $Source:ident($name:literal) => $Enum:ident, )+) => {
        /// The component (or project) that records a reason.
        ///
        /// `Display` and serde use the kebab-case name (`kube-scheduler`, `tensorfusion`, ...).
        /// `#[non_exhaustive]`: adding a source is not a breaking change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Source {
            $( $(#[doc = $doc])+ $Source, )+
        }

        impl Source {
            /// Every source, in order of precedence.
            pub const ALL: &'static [Source] = &[$(Source::$Source),+];

            /// The kebab-case name.
            pub fn as_str(self) -> &'static str {
                match self { $(Source::$Source => $name,)+ }
            }

            /// Look a source up by its kebab-case name.
            pub fn from_name(name: &str) -> Option<Source> {
                match name { $($name => Some(Source::$Source),)+ _ => None }
            }
        }

        /// A catalogued event reason: one variant per source, holding that source's reason enum.
        ///
        /// Build one from a source enum with `From` (`Reason::from(TensorFusionReason::GangScheduled)`),
        /// or look one up with [`Reason::from_wire`] / [`ReasonName::resolve`].
        /// `#[non_exhaustive]`: adding a source is not a breaking change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Reason {
            $( $(#[doc = $doc])+ $Source($Enum), )+
        }

        impl Reason {
            /// The catalogue entry of this reason.
            pub fn info(self) -> &'static ReasonInfo {
                match self { $(Reason::$Source(r) => r.info(),)+ }
            }

            /// Every catalogued reason, sources in order of precedence, rows in declaration order.
            pub fn all() -> &'static [Reason] {
                static ALL: std::sync::LazyLock<Vec<Reason>> = std::sync::LazyLock::new(|| {
                    let mut all = Vec::new();
                    $( all.extend($Enum::ALL.iter().copied().map(Reason::$Source)); )+
                    all
                });
                &ALL
            }
        }
    };
}

sources! {
    /// kube-scheduler (`default-scheduler` and any profile built on the scheduler framework).
    KubeScheduler("kube-scheduler") => SchedulerReason,
    /// The kubelet on each node: images, containers, probes, sandboxes, admission, eviction, volumes.
    Kubelet("kubelet") => KubeletReason,
    /// node-problem-detector monitors (kernel, readonly filesystem).
    NodeProblemDetector("node-problem-detector") => NodeProblemDetectorReason,
    /// kube-controller-manager: node lifecycle, workload, job and storage controllers.
    ControllerManager("kube-controller-manager") => ControllerManagerReason,
    /// kubernetes/autoscaler cluster-autoscaler.
    ClusterAutoscaler("cluster-autoscaler") => ClusterAutoscalerReason,
    /// kubernetes-sigs/karpenter.
    Karpenter("karpenter") => KarpenterReason,
    /// kubernetes-sigs/kueue.
    Kueue("kueue") => KueueReason,
    /// volcano-sh/volcano scheduler and job controller.
    Volcano("volcano") => VolcanoReason,
    /// kubernetes-sigs/scheduler-plugins Coscheduling (PodGroup controller).
    Coscheduling("coscheduling") => CoschedulingReason,
    /// Project-HAMi/HAMi scheduler.
    Hami("hami") => HamiReason,
    /// NVIDIA KAI-Scheduler.
    KaiScheduler("kai-scheduler") => KaiSchedulerReason,
    /// NVIDIA GPU Operator (k8s-operator-libs driver upgrade controller).
    NvidiaGpuOperator("nvidia-gpu-operator") => GpuOperatorReason,
    /// Huawei Ascend NPU device plugin.
    AscendDevicePlugin("ascend-device-plugin") => AscendReason,
    /// NexusGPU/tensor-fusion: scheduler plugins, gang manager, node expander and controllers.
    TensorFusion("tensorfusion") => TensorFusionReason,
}

impl Reason {
    /// The wire string (for a family such as `OutOf<resource>`, the pattern).
    pub fn as_str(self) -> &'static str {
        self.info().wire
    }

    /// A stable identifier unique across the catalogue, `Source::Variant` (e.g. `Karpenter::FailedScheduling`).
    pub fn id(self) -> &'static str {
        self.info().id
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl serde::Serialize for Reason {
    /// The wire string (a family serializes as its pattern, e.g. `OutOf<resource>`).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Reason {
    /// A catalogued wire string (primary entry when shared); unknown strings are an error, use
    /// [`ReasonName`] to keep them.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        wire.parse().map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Reason {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Reason".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A catalogued event reason (see `gpu-events reasons`).",
            "examples": name::known_wire_strings()
        })
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl serde::Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Source {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Source::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "unknown source {name:?}; expected one of the kebab-case names of gpu_events_core::Source"
            ))
        })
    }
}

impl schemars::JsonSchema for Source {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Source".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Source::ALL.iter().map(|s| s.as_str()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "Component that records the reason; new sources may be added.",
            "examples": names
        })
    }
}
