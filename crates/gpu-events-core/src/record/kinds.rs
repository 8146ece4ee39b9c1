//! The object kinds events are about, as a table: each kind's API group and whether it is
//! cluster-scoped. Pasted text names objects by kind alone (`pod/x`, `gpupool/y`, a `describe`
//! section), so the readers take the kind's spelling, group and scope from here.
//!
//! Sources: the Kubernetes API reference (v1.35) for the built-in kinds; TensorFusion's
//! `api/v1` types (`tensor-fusion.ai`, `+kubebuilder:resource:scope=Cluster` on GPU, GPUPool,
//! GPUNode, GPUNodeClaim, GPUNodeClass, TensorFusionCluster); Karpenter's `karpenter.sh/v1`
//! (NodeClaim, NodePool: cluster-scoped); Kueue `kueue.x-k8s.io/v1beta1` (ClusterQueue,
//! ResourceFlavor cluster-scoped); Volcano `scheduling.volcano.sh/v1beta1` (Queue
//! cluster-scoped); KAI `scheduling.run.ai/v2` (Queue cluster-scoped).

/// One kind: its spelling, API group (`""` for the core group) and scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct KindInfo {
    /// The kind as the API spells it (`GPUPool`).
    pub kind: &'static str,
    /// The API group (`tensor-fusion.ai`; `""` for core).
    pub group: &'static str,
    /// Whether objects of the kind have no namespace.
    pub cluster_scoped: bool,
}

const fn kind(kind: &'static str, group: &'static str, cluster_scoped: bool) -> KindInfo {
    KindInfo { kind, group, cluster_scoped }
}

/// Every kind the readers know by name.
pub const KINDS: &[KindInfo] = &[
    kind("Pod", "", false),
    kind("Node", "", true),
    kind("Namespace", "", true),
    kind("Service", "", false),
    kind("ConfigMap", "", false),
    kind("Secret", "", false),
    kind("PersistentVolumeClaim", "", false),
    kind("PersistentVolume", "", true),
    kind("Job", "batch", false),
    kind("CronJob", "batch", false),
    kind("DaemonSet", "apps", false),
    kind("Deployment", "apps", false),
    kind("ReplicaSet", "apps", false),
    kind("StatefulSet", "apps", false),
    kind("HorizontalPodAutoscaler", "autoscaling", false),
    kind("ResourceClaim", "resource.k8s.io", false),
    kind("ResourceSlice", "resource.k8s.io", true),
    kind("DeviceClass", "resource.k8s.io", true),
    kind("RuntimeClass", "node.k8s.io", true),
    kind("GPU", "tensor-fusion.ai", true),
    kind("GPUPool", "tensor-fusion.ai", true),
    kind("GPUNode", "tensor-fusion.ai", true),
    kind("GPUNodeClaim", "tensor-fusion.ai", true),
    kind("GPUNodeClass", "tensor-fusion.ai", true),
    kind("GPUResourceQuota", "tensor-fusion.ai", false),
    kind("TensorFusionCluster", "tensor-fusion.ai", true),
    kind("TensorFusionConnection", "tensor-fusion.ai", false),
    kind("TensorFusionWorkload", "tensor-fusion.ai", false),
    kind("SchedulingConfigTemplate", "tensor-fusion.ai", true),
    kind("WorkloadProfile", "tensor-fusion.ai", false),
    kind("NodeClaim", "karpenter.sh", true),
    kind("NodePool", "karpenter.sh", true),
    kind("Workload", "kueue.x-k8s.io", false),
    kind("ClusterQueue", "kueue.x-k8s.io", true),
    kind("LocalQueue", "kueue.x-k8s.io", false),
    kind("ResourceFlavor", "kueue.x-k8s.io", true),
    kind("PodGroup", "scheduling.volcano.sh", false),
    kind("Queue", "scheduling.volcano.sh", true),
];

/// The kind named `name`, in any letter case (`gpupool`, `GPUPool`); a `kind.group` form
/// (`nodeclaim.karpenter.sh`) is looked up by its kind.
pub fn kind_info(name: &str) -> Option<&'static KindInfo> {
    let kind = name.split('.').next().unwrap_or(name);
    KINDS.iter().find(|k| k.kind.eq_ignore_ascii_case(kind))
}

/// The proper Kind for a kind as `kubectl` writes it in `kind/name` (`pod`, `gpupool`,
/// `nodeclaim.karpenter.sh`): the known kind's spelling, else the word capitalised.
pub(crate) fn spelled(lower: &str) -> String {
    let kind = lower.split('.').next().unwrap_or(lower);
    kind_info(kind).map_or_else(
        || {
            let mut chars = kind.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        },
        |k| k.kind.to_owned(),
    )
}

/// kubectl's short names (`kubectl api-resources`, v1.35; Volcano's `vcjob`/`vj` and `pg`,
/// Karpenter's `nc`), for the resource a typed command names.
const SHORT_NAMES: &[(&str, &str)] = &[
    ("po", "Pod"),
    ("no", "Node"),
    ("ns", "Namespace"),
    ("svc", "Service"),
    ("cm", "ConfigMap"),
    ("pvc", "PersistentVolumeClaim"),
    ("pv", "PersistentVolume"),
    ("cj", "CronJob"),
    ("ds", "DaemonSet"),
    ("deploy", "Deployment"),
    ("rs", "ReplicaSet"),
    ("sts", "StatefulSet"),
    ("hpa", "HorizontalPodAutoscaler"),
    ("pg", "PodGroup"),
    ("podgroups", "PodGroup"),
    ("vcjob", "Job"),
    ("vcjobs", "Job"),
    ("vj", "Job"),
    ("nc", "NodeClaim"),
];

/// The kind of a resource as a kubectl command names it: the kind in any case, its plural
/// (`pods`, `gpupools`, `nodeclaims.karpenter.sh`) or a short name (`po`, `pg`, `vcjob`);
/// `None` for a word that names no kind the readers know.
pub fn of_resource(resource: &str) -> Option<&'static str> {
    let resource = resource.split('.').next().unwrap_or(resource);
    if let Some((_, kind)) = SHORT_NAMES.iter().find(|(short, _)| short.eq_ignore_ascii_case(resource)) {
        return Some(kind);
    }
    let singular = [resource.strip_suffix("es"), resource.strip_suffix('s'), Some(resource)];
    singular
        .into_iter()
        .flatten()
        .find_map(|word| KINDS.iter().find(|k| k.kind.eq_ignore_ascii_case(word)))
        .map(|k| k.kind)
}

/// Whether objects of `kind` have no namespace (a kind not in [`KINDS`] is taken as namespaced).
pub fn is_cluster_scoped(kind: &str) -> bool {
    kind_info(kind).is_some_and(|k| k.cluster_scoped)
}

/// The kinds of one API group.
pub fn of_group(group: &str) -> impl Iterator<Item = &'static str> + '_ {
    KINDS.iter().filter(move |k| k.group == group).map(|k| k.kind)
}

/// The kube-controller-manager controllers that record events only on objects of their own
/// kind, by the component name they record as (pkg/controller/*: `replicaset-controller`,
/// `job-controller`, ... v1.36): a row from one of them is about that kind.
const CONTROLLERS: &[(&str, &str)] = &[
    ("replicaset-controller", "ReplicaSet"),
    ("deployment-controller", "Deployment"),
    ("job-controller", "Job"),
    ("cronjob-controller", "CronJob"),
    ("daemonset-controller", "DaemonSet"),
    ("statefulset-controller", "StatefulSet"),
    ("replication-controller", "ReplicationController"),
];

/// The kind a controller's events are about ([`CONTROLLERS`]), by its component name.
pub(crate) fn of_controller(component: &str) -> Option<&'static str> {
    CONTROLLERS.iter().find(|(name, _)| *name == component).map(|(_, kind)| *kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_found_in_any_case_and_scoped() {
        assert_eq!(kind_info("gpupool").map(|k| k.kind), Some("GPUPool"));
        assert_eq!(kind_info("nodeclaim.karpenter.sh").map(|k| k.group), Some("karpenter.sh"));
        assert!(is_cluster_scoped("Node") && is_cluster_scoped("GPUPool") && !is_cluster_scoped("Pod"));
        assert!(!is_cluster_scoped("SomethingElse"));
        assert_eq!(of_resource("po"), Some("Pod"));
        assert_eq!(of_resource("pods"), Some("Pod"));
        assert_eq!(of_resource("gpupools"), Some("GPUPool"));
        assert_eq!(of_resource("nodeclaims.karpenter.sh"), Some("NodeClaim"));
        assert_eq!(of_resource("pg"), Some("PodGroup"));
        assert_eq!(of_resource("vcjob"), Some("Job"));
        assert_eq!(of_resource("classes"), None);
        assert_eq!(of_resource("logs"), None);
        let mut seen = std::collections::BTreeSet::new();
        assert!(KINDS.iter().all(|k| seen.insert(k.kind.to_ascii_lowercase())), "one row per kind");
    }
}
