//! The GPUResourcesFit scheduler plugin (`tensor-fusion-scheduler`,
//! internal/scheduler/gpuresources/gpuresources.go @3e0a490; v1 line @c7a2417) and the
//! GPUNetworkTopologyAware plugin (internal/scheduler/gputopo/gpu_network_topo.go @3e0a490).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::Quantity;
use super::super::template::{Arg, captures, fill};
use super::go_uint;

single_format! {
    /// PreFilter done: how many nodes have at least one matching GPU (gpuresources.go:304 @3e0a490).
    pub struct PreScheduleDone {
        /// Nodes with at least one GPU that matches the request (count).
        pub valid_gpu_nodes: u32,
    }
    /// The Go format (the code concatenates `strconv.Itoa`).
    FORMAT = "TensorFusion pre schedule done, valid GPU node count: %d";
    /// From the node count.
    new;
}

single_format! {
    /// Progressive migration: the Pod asks for native GPUs (gpuresources.go:167 @3e0a490).
    pub struct ScheduleWithNativeGpu {
        /// Nodes not used by TensorFusion (count).
        pub native_gpu_nodes: u32,
    }
    /// The Go format (the code concatenates `strconv.Itoa`).
    FORMAT = "use native GPU resources, available native GPU nodes: %d";
    /// From the node count.
    new;
}

/// Split a comma-joined GPU name list (`""` is the empty list).
fn gpu_list(text: &str) -> Vec<String> {
    if text.is_empty() { Vec::new() } else { text.split(',').map(str::to_owned).collect() }
}

/// GPU device IDs written onto the Pod (PreBind on main, gpuresources.go:1036 @3e0a490; PostBind
/// on the v1 line, gpuresources.go:747 @c7a2417).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GpuDeviceAllocated {
    /// GPU custom resource names (lower-cased device UUIDs, e.g. `gpu-3f2a…`), in note order.
    pub gpu_ids: Vec<String>,
}

impl GpuDeviceAllocated {
    /// The Go format (the code concatenates the comma-joined list).
    pub const FORMAT: &'static str = "Attach TensorFusion GPU device IDs to Pod: %s";

    /// From the GPU names.
    pub fn new<S: AsRef<str>>(gpu_ids: &[S]) -> Self {
        GpuDeviceAllocated { gpu_ids: gpu_ids.iter().map(|s| s.as_ref().to_owned()).collect() }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [ids] = captures(Self::FORMAT, note)?;
        Some(GpuDeviceAllocated { gpu_ids: gpu_list(ids) })
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.gpu_ids.join(","))])
    }
}

/// Writing the GPU device IDs onto the Pod failed; the allocation was rolled back
/// (gpuresources.go:1024 @3e0a490; v1 line gpuresources.go:750 @c7a2417).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GpuDeviceAllocatedFailed {
    /// GPU custom resource names, in note order.
    pub gpu_ids: Vec<String>,
}

impl GpuDeviceAllocatedFailed {
    /// The Go format (the code concatenates the comma-joined list).
    pub const FORMAT: &'static str = "Can not add GPU device IDs: %s";

    /// From the GPU names.
    pub fn new<S: AsRef<str>>(gpu_ids: &[S]) -> Self {
        GpuDeviceAllocatedFailed { gpu_ids: gpu_ids.iter().map(|s| s.as_ref().to_owned()).collect() }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [ids] = captures(Self::FORMAT, note)?;
        Some(GpuDeviceAllocatedFailed { gpu_ids: gpu_list(ids) })
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.gpu_ids.join(","))])
    }
}

single_format! {
    /// The Pod's TensorFusion index is still held by another Pod on the node
    /// (gpuresources.go:1046 @3e0a490).
    pub struct PodIndexAllocationPending {
        /// The Pod's index (from the TensorFusion index resource limit).
        pub index: u32,
        /// The node name.
        pub node: String,
    }
    /// The Go format.
    FORMAT = "Index %d will be patched into pod after released by other pod on the same node: %s";
    /// From the index and node.
    new;
}

single_format! {
    /// The allocator could not commit the Pod's assumed allocation (gpuresources.go:911 @3e0a490).
    pub struct CommitFailed {
        /// Pod name.
        pub pod: String,
        /// The allocator's error, e.g. `pod <uid> has no assumed allocation to commit`.
        pub error: String,
    }
    /// The Go format.
    FORMAT = "Commit failed for pod %s after retries: %v";
    /// From the Pod name and error.
    new;
}

/// The typed form of a [`ContainerGpuAllocationFailed`] error (gpuresources.go @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum ContainerAllocationError {
    /// `failed to parse container GPU counts: <json error>`.
    ParseGpuCounts {
        /// The JSON error.
        error: String,
    },
    /// `invalid GPU count: must be non-negative`.
    NegativeGpuCount,
    /// `not enough GPUs: need <n> more for container <name>`.
    NotEnoughGpus {
        /// GPUs missing (count).
        more: u32,
        /// The container name.
        container: String,
    },
    /// `failed to marshal container allocation: <error>`.
    MarshalAllocation {
        /// The marshalling error.
        error: String,
    },
    /// Any other error (the text is in `error` of the details).
    Other,
}

impl ContainerAllocationError {
    /// Read the typed form of an error text.
    pub fn classify(error: &str) -> Self {
        if let Some(rest) = error.strip_prefix("failed to parse container GPU counts: ") {
            return ContainerAllocationError::ParseGpuCounts { error: rest.to_owned() };
        }
        if error == "invalid GPU count: must be non-negative" {
            return ContainerAllocationError::NegativeGpuCount;
        }
        if let Some([more, container]) = captures("not enough GPUs: need %d more for container %s", error)
            && let Some(more) = go_uint(more)
        {
            return ContainerAllocationError::NotEnoughGpus { more, container: container.to_owned() };
        }
        if let Some(rest) = error.strip_prefix("failed to marshal container allocation: ") {
            return ContainerAllocationError::MarshalAllocation { error: rest.to_owned() };
        }
        ContainerAllocationError::Other
    }
}

/// The Pod's GPUs could not be mapped onto its containers; PreBind goes on
/// (gpuresources.go:987 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContainerGpuAllocationFailed {
    /// The error, verbatim.
    pub error: String,
    /// The error's typed form.
    pub cause: ContainerAllocationError,
}

single_format! {
    impl ContainerGpuAllocationFailed {
        /// The Go format.
        FORMAT = "Error: %v";
        fields(error: String);
        /// From the error text.
        pub fn new(error: &str) -> Self {
            ContainerGpuAllocationFailed { error: error.to_owned(), cause: ContainerAllocationError::classify(error) }
        }
    }
}

/// The typed form of an `apply filters: <error>` tail (internal/gpuallocator/filter @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum FilterError {
    /// `no node has at least <n> available GPUs` (same-node multi-GPU filter).
    NoNodeWithEnoughGpus {
        /// GPUs the Pod needs on one node (count).
        gpus: u32,
    },
    /// `get node <node>: <error>`.
    GetNode {
        /// The node name.
        node: String,
        /// The API error.
        error: String,
    },
    /// `match node selector terms: <error>`.
    MatchNodeSelectorTerms {
        /// The matching error.
        error: String,
    },
    /// Any other filter error (the text is in `error` of the variant that holds this).
    Other,
}

impl FilterError {
    /// Read the typed form of a filter error text.
    pub fn classify(error: &str) -> Self {
        if let Some([gpus]) = captures("no node has at least %d available GPUs", error)
            && let Ok(gpus) = gpus.parse()
        {
            return FilterError::NoNodeWithEnoughGpus { gpus };
        }
        if let Some((node, rest)) = error.strip_prefix("get node ").and_then(|rest| rest.split_once(": ")) {
            return FilterError::GetNode { node: node.to_owned(), error: rest.to_owned() };
        }
        if let Some(rest) = error.strip_prefix("match node selector terms: ") {
            return FilterError::MatchNodeSelectorTerms { error: rest.to_owned() };
        }
        FilterError::Other
    }
}

/// The typed form of a [`GpuQuotaOrCapacityNotEnough`] error (`CheckQuotaAndFilter`,
/// internal/quota/quota_store.go:673-676 and internal/gpuallocator @3e0a490).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum CapacityError {
    /// `quota exceeded in namespace <ns> for <resource>: requested <q>, limit <q>` (older
    /// releases also print `available <q>` before `limit`).
    QuotaExceeded {
        /// The namespace whose GPUResourceQuota is exceeded.
        namespace: String,
        /// The quota resource, kept as written: on main one of `single.max.tflops.limit`,
        /// `single.max.vram.limit`, `single.max.tflops.request`, `single.max.vram.request`,
        /// `single.max.gpuCount.limit`, `total.max.tflops.limit`, `total.max.vram.limit`,
        /// `total.max.tflops.request`, `total.max.vram.request`, `total.max.workers.limit`
        /// (quota_store.go:18-29); older releases wrote e.g. `total.requests.tflops`.
        resource: String,
        /// What the Pod asks for, in the resource's unit (TFLOPS, bytes for VRAM, a count for
        /// GPUs and workers); total quotas print a plain integer.
        requested: Quantity,
        /// What was still available (older releases only), same unit.
        available: Option<Quantity>,
        /// The quota limit, same unit.
        limit: Quantity,
    },
    /// `GPU Pool name is empty, can not find GPUs`.
    PoolNameEmpty,
    /// `no gpu devices in pool <pool>`.
    NoGpuDevicesInPool {
        /// The GPUPool name.
        pool: String,
    },
    /// `no gpus available or valid in pool <pool> after filtering`.
    NoGpusAfterFiltering {
        /// The GPUPool name.
        pool: String,
    },
    /// `dynamic policy does not support partitioned allocation`.
    DynamicPolicyPartitioned,
    /// `apply filters: <filter error>`.
    ApplyFilters {
        /// The filter error, verbatim.
        error: String,
        /// The filter error's typed form.
        filter: FilterError,
    },
    /// Any other error (the text is in `error` of the details).
    Other,
}

impl CapacityError {
    /// Read the typed form of an error text.
    pub fn classify(error: &str) -> Self {
        if let Some(quota) = Self::quota_exceeded(error) {
            return quota;
        }
        if error == "GPU Pool name is empty, can not find GPUs" {
            return CapacityError::PoolNameEmpty;
        }
        if let Some([pool]) = captures("no gpus available or valid in pool %s after filtering", error) {
            return CapacityError::NoGpusAfterFiltering { pool: pool.to_owned() };
        }
        if let Some(pool) = error.strip_prefix("no gpu devices in pool ") {
            return CapacityError::NoGpuDevicesInPool { pool: pool.to_owned() };
        }
        if error == "dynamic policy does not support partitioned allocation" {
            return CapacityError::DynamicPolicyPartitioned;
        }
        if let Some(inner) = error.strip_prefix("apply filters: ") {
            return CapacityError::ApplyFilters { error: inner.to_owned(), filter: FilterError::classify(inner) };
        }
        CapacityError::Other
    }

    fn quota_exceeded(error: &str) -> Option<Self> {
        const WITH_AVAILABLE: &str = "quota exceeded in namespace %s for %s: requested %s, available %s, limit %s";
        const CURRENT: &str = "quota exceeded in namespace %s for %s: requested %s, limit %s";
        let (namespace, resource, requested, available, limit) =
            if let Some([ns, resource, requested, available, limit]) = captures(WITH_AVAILABLE, error) {
                (ns, resource, requested, Some(available), limit)
            } else {
                let [ns, resource, requested, limit] = captures(CURRENT, error)?;
                (ns, resource, requested, None, limit)
            };
        Some(CapacityError::QuotaExceeded {
            namespace: namespace.to_owned(),
            resource: resource.to_owned(),
            requested: Quantity::parse(requested),
            available: available.map(Quantity::parse),
            limit: Quantity::parse(limit),
        })
    }
}

/// Quota or capacity check failed in PreFilter (gpuresources.go:209 @3e0a490; v1 line
/// gpuresources.go:140 @c7a2417).
///
/// The code concatenates the error into the format, so a `%` in it is mangled by Go
/// (`50% used` → `50%!u(MISSING)sed`); the error is kept exactly as it appears in the note.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GpuQuotaOrCapacityNotEnough {
    /// The error text after the fixed prefix, verbatim (including any Go `%!…` mangling).
    pub error: String,
    /// The error's typed form.
    pub cause: CapacityError,
}

impl GpuQuotaOrCapacityNotEnough {
    /// The fixed text before the error.
    pub const PREFIX: &'static str = "TensorFusion schedule failed, no enough resource or quotas: ";

    /// From the error text as it appears in the note.
    pub fn new(error: &str) -> Self {
        GpuQuotaOrCapacityNotEnough { error: error.to_owned(), cause: CapacityError::classify(error) }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        note.strip_prefix(Self::PREFIX).map(Self::new)
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        [Self::PREFIX, &self.error].concat()
    }
}

/// The typed form of a [`PartitionTemplateMatchFailed`] error (gpuallocator.go:1047-1097
/// @3e0a490).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum PartitionMatchError {
    /// `GetMatchedPartition only supports partitioned isolation mode`.
    UnsupportedIsolationMode,
    /// `no GPUs available for partition matching`.
    NoGpusAvailable,
    /// `no suitable partition template found for request: TFLOPs=<q>, VRAM=<q>` (also found
    /// inside a wrapped error).
    NoSuitableTemplate {
        /// The requested compute (TFLOPS).
        tflops: Quantity,
        /// The requested VRAM (bytes).
        vram: Quantity,
    },
    /// Any other error (the text is in `error` of the details).
    Other,
}

impl PartitionMatchError {
    /// Read the typed form of an error text.
    pub fn classify(error: &str) -> Self {
        const NO_TEMPLATE: &str = "no suitable partition template found for request: ";
        match error {
            "GetMatchedPartition only supports partitioned isolation mode" => {
                return PartitionMatchError::UnsupportedIsolationMode;
            }
            "no GPUs available for partition matching" => {
                return PartitionMatchError::NoGpusAvailable;
            }
            _ => {}
        }
        if let Some(at) = error.find(NO_TEMPLATE)
            && let Some(tail) = error.get(at + NO_TEMPLATE.len()..)
            && let Some([tflops, vram]) = captures("TFLOPs=%s, VRAM=%s", tail)
        {
            return PartitionMatchError::NoSuitableTemplate {
                tflops: Quantity::parse(tflops),
                vram: Quantity::parse(vram),
            };
        }
        PartitionMatchError::Other
    }
}

/// No partition template fits the Pod on the available GPUs (partitioned isolation only;
/// gpuresources.go:229 @3e0a490). The error is concatenated into the format, like
/// [`GpuQuotaOrCapacityNotEnough`], and kept verbatim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PartitionTemplateMatchFailed {
    /// The error text after the fixed prefix, verbatim.
    pub error: String,
    /// The error's typed form.
    pub cause: PartitionMatchError,
}

impl PartitionTemplateMatchFailed {
    /// The fixed text before the error.
    pub const PREFIX: &'static str = "Failed to match partition template: ";

    /// From the error text as it appears in the note.
    pub fn new(error: &str) -> Self {
        PartitionTemplateMatchFailed { error: error.to_owned(), cause: PartitionMatchError::classify(error) }
    }

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        note.strip_prefix(Self::PREFIX).map(Self::new)
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        [Self::PREFIX, &self.error].concat()
    }
}

single_format! {
    /// A hard GPU topology constraint cannot be met (gputopo/gpu_network_topo.go:209 @3e0a490).
    pub struct GpuInterconnectTopologyUnsatisfied {
        /// The worst interconnect tier allowed: 0 = same interconnect (NVLink), 1 = same NUMA node,
        /// 2 = across NUMA nodes, 3 = unknown. From the plugin arguments, overridable per Pod by the
        /// annotation `tensor-fusion.ai/gpu-topology-max-tier`.
        pub max_tier: i64,
    }
    /// The Go format.
    FORMAT = "No node satisfies GPU topology constraint (mode=hard, maxTier=%d)";
    /// From the tier.
    new;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_ids() {
        let d = PreScheduleDone::parse("TensorFusion pre schedule done, valid GPU node count: 3").unwrap();
        assert_eq!(d.valid_gpu_nodes, 3);
        let d = ScheduleWithNativeGpu::parse("use native GPU resources, available native GPU nodes: 4").unwrap();
        assert_eq!(d.native_gpu_nodes, 4);
        assert_eq!(PreScheduleDone::parse("TensorFusion pre schedule done, valid GPU node count: x"), None);
        assert_eq!(ScheduleWithNativeGpu::parse("use native GPU resources, available native GPU nodes: "), None);

        let note = "Attach TensorFusion GPU device IDs to Pod: gpu-3f2a1b4c,gpu-9c8d7e6f";
        let d = GpuDeviceAllocated::parse(note).unwrap();
        assert_eq!(d.gpu_ids, ["gpu-3f2a1b4c", "gpu-9c8d7e6f"]);
        assert_eq!(d.render(), note);
        let note = "Can not add GPU device IDs: gpu-3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b";
        let d = GpuDeviceAllocatedFailed::parse(note).unwrap();
        assert_eq!(d.gpu_ids, ["gpu-3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b"]);
        assert_eq!(d.render(), note);
        let d = GpuDeviceAllocated::parse("Attach TensorFusion GPU device IDs to Pod: ").unwrap();
        assert!(d.gpu_ids.is_empty());
        assert_eq!(GpuDeviceAllocated::parse("Attach GPU device IDs to Pod: g"), None);

        let d = PodIndexAllocationPending::parse(
            "Index 3 will be patched into pod after released by other pod on the same node: gpu-node-a",
        )
        .unwrap();
        assert_eq!((d.index, d.node.as_str()), (3, "gpu-node-a"));
        assert_eq!(PodIndexAllocationPending::parse("Index 3 will be patched into pod: gpu-node-a"), None);
    }

    #[test]
    fn commit_and_container_errors() {
        let d = CommitFailed::parse(
            "Commit failed for pod llama-0 after retries: pod 5f0c-uid has no assumed allocation to commit",
        )
        .unwrap();
        assert_eq!(d.pod, "llama-0");
        assert_eq!(d.error, "pod 5f0c-uid has no assumed allocation to commit");
        assert_eq!(CommitFailed::parse("Commit failed for pod llama-0: x"), None);

        let d =
            ContainerGpuAllocationFailed::parse("Error: not enough GPUs: need 1 more for container sidecar").unwrap();
        assert_eq!(d.cause, ContainerAllocationError::NotEnoughGpus { more: 1, container: "sidecar".into() });
        for (error, cause) in [
            (
                "failed to parse container GPU counts: unexpected end of JSON input",
                ContainerAllocationError::ParseGpuCounts { error: "unexpected end of JSON input".into() },
            ),
            ("invalid GPU count: must be non-negative", ContainerAllocationError::NegativeGpuCount),
            (
                "failed to marshal container allocation: boom",
                ContainerAllocationError::MarshalAllocation { error: "boom".into() },
            ),
            ("something else", ContainerAllocationError::Other),
        ] {
            let note = format!("Error: {error}");
            let d = ContainerGpuAllocationFailed::parse(&note).unwrap();
            assert_eq!(d.cause, cause);
            assert_eq!(d.render(), note);
        }
        assert_eq!(ContainerGpuAllocationFailed::parse("error: x"), None);
    }

    #[test]
    fn quota_and_capacity_errors() {
        let note = "TensorFusion schedule failed, no enough resource or quotas: quota exceeded in namespace ml for total.max.tflops.request: requested 120, limit 100";
        let d = GpuQuotaOrCapacityNotEnough::parse(note).unwrap();
        let CapacityError::QuotaExceeded { namespace, resource, requested, available, limit } = &d.cause else {
            panic!("{:?}", d.cause)
        };
        assert_eq!((namespace.as_str(), resource.as_str()), ("ml", "total.max.tflops.request"));
        assert_eq!(requested.value, Some(120.0));
        assert_eq!(*available, None);
        assert_eq!(limit.quantity, "100");
        assert_eq!(d.render(), note);

        let d = GpuQuotaOrCapacityNotEnough::new(
            "quota exceeded in namespace test-ns for total.requests.tflops: requested 150, available 50, limit 100",
        );
        let CapacityError::QuotaExceeded { available, limit, .. } = &d.cause else { panic!("{:?}", d.cause) };
        assert_eq!(available.as_ref().and_then(|q| q.value), Some(50.0));
        assert_eq!(limit.value, Some(100.0));

        let d = GpuQuotaOrCapacityNotEnough::new(
            "quota exceeded in namespace ml for single.max.vram.limit: requested 20Gi, limit 16Gi",
        );
        let CapacityError::QuotaExceeded { requested, .. } = &d.cause else { panic!() };
        assert_eq!(requested.value, Some(20.0 * 1024f64.powi(3)));

        for (error, cause) in [
            ("GPU Pool name is empty, can not find GPUs", CapacityError::PoolNameEmpty),
            ("no gpu devices in pool default-pool", CapacityError::NoGpuDevicesInPool { pool: "default-pool".into() }),
            (
                "no gpus available or valid in pool default-pool after filtering",
                CapacityError::NoGpusAfterFiltering { pool: "default-pool".into() },
            ),
            ("dynamic policy does not support partitioned allocation", CapacityError::DynamicPolicyPartitioned),
            (
                "apply filters: no node has at least 4 available GPUs",
                CapacityError::ApplyFilters {
                    error: "no node has at least 4 available GPUs".into(),
                    filter: FilterError::NoNodeWithEnoughGpus { gpus: 4 },
                },
            ),
            (
                "apply filters: get node gpu-node-a: nodes \"gpu-node-a\" not found",
                CapacityError::ApplyFilters {
                    error: "get node gpu-node-a: nodes \"gpu-node-a\" not found".into(),
                    filter: FilterError::GetNode {
                        node: "gpu-node-a".into(),
                        error: "nodes \"gpu-node-a\" not found".into(),
                    },
                },
            ),
            (
                "apply filters: match node selector terms: bad term",
                CapacityError::ApplyFilters {
                    error: "match node selector terms: bad term".into(),
                    filter: FilterError::MatchNodeSelectorTerms { error: "bad term".into() },
                },
            ),
            // Go mangles a literal `%` of a concatenated error; the text is kept as is.
            (
                "apply filters: compute 50%!u(MISSING)sed",
                CapacityError::ApplyFilters { error: "compute 50%!u(MISSING)sed".into(), filter: FilterError::Other },
            ),
            ("something new", CapacityError::Other),
            ("", CapacityError::Other),
        ] {
            let note = format!("{}{error}", GpuQuotaOrCapacityNotEnough::PREFIX);
            let d = GpuQuotaOrCapacityNotEnough::parse(&note).unwrap();
            assert_eq!(d.cause, cause, "{error}");
            assert_eq!(d.error, error);
            assert_eq!(d.render(), note);
        }
        assert_eq!(GpuQuotaOrCapacityNotEnough::parse("TensorFusion schedule failed: x"), None);
    }

    #[test]
    fn partition_and_topology() {
        let note = "Failed to match partition template: no suitable partition template found for request: TFLOPs=50, VRAM=20Gi";
        let d = PartitionTemplateMatchFailed::parse(note).unwrap();
        let PartitionMatchError::NoSuitableTemplate { tflops, vram } = &d.cause else { panic!("{:?}", d.cause) };
        assert_eq!(tflops.value, Some(50.0));
        assert_eq!(vram.quantity, "20Gi");
        assert_eq!(d.render(), note);
        assert_eq!(
            PartitionTemplateMatchFailed::new("GetMatchedPartition only supports partitioned isolation mode").cause,
            PartitionMatchError::UnsupportedIsolationMode
        );
        assert_eq!(
            PartitionTemplateMatchFailed::new("no GPUs available for partition matching").cause,
            PartitionMatchError::NoGpusAvailable
        );
        assert!(matches!(
            PartitionTemplateMatchFailed::new(
                "match: no suitable partition template found for request: TFLOPs=1, VRAM=1Gi"
            )
            .cause,
            PartitionMatchError::NoSuitableTemplate { .. }
        ));
        assert_eq!(PartitionTemplateMatchFailed::new("x").cause, PartitionMatchError::Other);
        assert_eq!(PartitionTemplateMatchFailed::parse("Failed to match template: x"), None);

        let d = GpuInterconnectTopologyUnsatisfied::parse(
            "No node satisfies GPU topology constraint (mode=hard, maxTier=1)",
        )
        .unwrap();
        assert_eq!(d.max_tier, 1);
        assert_eq!(
            GpuInterconnectTopologyUnsatisfied::parse(
                "No node satisfies GPU topology constraint (mode=soft, maxTier=1)"
            ),
            None
        );
    }
}
