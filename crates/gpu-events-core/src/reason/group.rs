//! [`Group`]: the functional area a reason belongs to.

/// Declares [`Group`] once: variant, kebab-case name and description.
macro_rules! groups {
    ($( $Variant:ident($name:literal, $desc:literal), )+) => {
        /// The functional area of a reason. TensorFusion reasons use the groups of
        /// `spec/tensorfusion-reasons.tsv`; the upstream groups are this project's choice.
        ///
        /// `Display` and serde use the kebab-case name. `#[non_exhaustive]`: adding a group is
        /// not a breaking change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Group {
            $( #[doc = $desc] $Variant, )+
        }

        impl Group {
            /// Every group.
            pub const ALL: &'static [Group] = &[$(Group::$Variant),+];

            /// The kebab-case name, e.g. `scheduling-allocation`.
            pub fn as_str(self) -> &'static str {
                match self { $(Group::$Variant => $name,)+ }
            }

            /// One sentence on what the group covers.
            pub fn description(self) -> &'static str {
                match self { $(Group::$Variant => $desc,)+ }
            }

            /// Look a group up by its kebab-case name.
            pub fn from_name(name: &str) -> Option<Group> {
                match name { $($name => Some(Group::$Variant),)+ _ => None }
            }
        }
    };
}

groups! {
    SchedulingAllocation("scheduling-allocation", "TensorFusion scheduler plugin: GPU quota, filtering, allocation and device attachment for a Pod."),
    Topology("topology", "TensorFusion GPU interconnect topology evaluation."),
    Gang("gang", "Gang (all-or-nothing) scheduling of a group of Pods."),
    NodeExpansion("node-expansion", "TensorFusion node expander: provisioning new GPU nodes for pending Pods."),
    Capacity("capacity", "TensorFusion GPU pool capacity: node creation, compaction, limits."),
    Defragmentation("defragmentation", "TensorFusion GPU pool defragmentation: evicting workers to free whole nodes."),
    Node("node", "Node-level state: GPU nodes, hypervisors, driver probes, kubelet node status."),
    Autoscaling("autoscaling", "TensorFusion workload vertical scaling of TFLOPS and VRAM."),
    Connection("connection", "TensorFusion remote-GPU connections and worker selection."),
    Quota("quota", "Quota alerts (retired TensorFusion GPUResourceQuota events)."),
    Workload("workload", "Workload health (retired TensorFusion workload events)."),
    Cluster("cluster", "Cluster-wide controller status (retired TensorFusionCluster events)."),
    Scheduling("scheduling", "Pod placement by a scheduler: assigned, unschedulable, nominated."),
    Preemption("preemption", "Pods removed to make room for others, by a scheduler, queue or kubelet."),
    Image("image", "Container image pulls and inspection."),
    Container("container", "Container lifecycle: create, start, kill, restart back-off, hooks."),
    Probe("probe", "Liveness, readiness and startup probes."),
    Sandbox("sandbox", "Pod sandbox and runtime: RuntimeClass handlers, CDI devices, OCI runtimes, CRI."),
    Admission("admission", "Kubelet admission: device-plugin allocation, topology and resource checks."),
    Eviction("eviction", "Pods evicted under node pressure or by the eviction API."),
    Volume("volume", "Volume binding, attachment and mounting."),
    NodeHealth("node-health", "Kernel and hardware problems reported on a node (OOM, hung tasks, faults)."),
    Controller("controller", "Workload controllers creating and deleting Pods (ReplicaSet, DaemonSet, StatefulSet, Deployment)."),
    Job("job", "Job completion and failure."),
    NodeAutoscaling("node-autoscaling", "Node autoscalers (cluster-autoscaler, Karpenter): scale-up, nomination, disruption."),
    Queueing("queueing", "Batch queueing and admission (Kueue, Volcano queues)."),
    Device("device", "Accelerator devices and drivers: dynamic resources, driver upgrades, device faults."),
}

impl std::fmt::Display for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl serde::Serialize for Group {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Group {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Group::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "unknown group {name:?}; expected one of the kebab-case names of gpu_events_core::Group"
            ))
        })
    }
}

impl schemars::JsonSchema for Group {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Group".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Group::ALL.iter().map(|g| g.as_str()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "Functional group of the reason; new groups may be added.",
            "examples": names
        })
    }
}
