//! Notes of reasons only older TensorFusion releases emit (core/v1 recorder era): the GPUNode,
//! Node, GPUPool, TensorFusionConnection, TensorFusionWorkload, GPUResourceQuota and
//! TensorFusionCluster controllers before PRs #52, #241, #282 and #350.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};
use super::{go_bool, go_uint, take_quoted};

/// Which `OrphanedNode` note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum OrphanForm {
    /// The provisioned node was not found in the cloud.
    NotFound,
    /// The provisioned node has no instance ID.
    WithoutInstanceId,
}

impl OrphanForm {
    /// The Go format of this form.
    pub fn format(self) -> &'static str {
        match self {
            OrphanForm::NotFound => {
                "provisioned node not found, this could result in orphaned nodes, please check manually: %s"
            }
            OrphanForm::WithoutInstanceId => {
                "provisioned node without instanceID, this could result in orphaned nodes, please check manually: %s"
            }
        }
    }
}

/// A provisioned GPU node may be orphaned in the cloud (GPUNode controller, gpunode_controller.go
/// before PR #282).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OrphanedNode {
    /// Which note.
    pub form: OrphanForm,
    /// The GPUNode name.
    pub node: String,
}

impl OrphanedNode {
    /// From the form and node.
    pub fn new(form: OrphanForm, node: &str) -> Self {
        OrphanedNode { form, node: node.to_owned() }
    }

    /// Parse a note of either form.
    pub fn parse(note: &str) -> Option<Self> {
        [OrphanForm::NotFound, OrphanForm::WithoutInstanceId].into_iter().find_map(|form| {
            let [node] = captures(form.format(), note)?;
            Some(Self::new(form, node))
        })
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        fill(self.form.format(), &[Arg::Text(&self.node)])
    }
}

/// A GPUNode's provisioner, or the GPUNode of a Kubernetes node, was not found (GPUNode and Node
/// controllers before PR #282).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeProvisionerNotFound {
    /// The GPUNode whose provisioner is missing (`GPUNode %q provisioner not found, current
    /// Kubernetes node %q`); `None` for `GPUNode not found for node %s`.
    pub gpu_node: Option<String>,
    /// The Kubernetes node.
    pub node: String,
}

impl NodeProvisionerNotFound {
    /// The Go format when the provisioner is missing (both values `%q`-quoted).
    pub const PROVISIONER_FORMAT: &'static str = "GPUNode %q provisioner not found, current Kubernetes node %q";
    /// The Go format when the node has no GPUNode.
    pub const GPU_NODE_FORMAT: &'static str = "GPUNode not found for node %s";

    /// From the GPUNode (for the first form) and the node.
    pub fn new(gpu_node: Option<&str>, node: &str) -> Self {
        NodeProvisionerNotFound { gpu_node: gpu_node.map(str::to_owned), node: node.to_owned() }
    }

    /// Parse a note of either form.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some([node]) = captures(Self::GPU_NODE_FORMAT, note) {
            return Some(Self::new(None, node));
        }
        let (gpu_node, rest) = take_quoted(note.strip_prefix("GPUNode ")?)?;
        let (node, rest) = take_quoted(rest.strip_prefix(" provisioner not found, current Kubernetes node ")?)?;
        rest.is_empty().then_some(NodeProvisionerNotFound { gpu_node: Some(gpu_node), node })
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        match &self.gpu_node {
            Some(gpu_node) => fill(Self::PROVISIONER_FORMAT, &[Arg::Text(gpu_node), Arg::Text(&self.node)]),
            None => fill(Self::GPU_NODE_FORMAT, &[Arg::Text(&self.node)]),
        }
    }
}

/// The Kubernetes node of a GPUNode disappeared, so the GPUNode is deleted (GPUNode controller
/// before PR #282). The call passed the node name without a verb for it, so Go appended
/// `%!(EXTRA string=<node>)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeNotFound {
    /// The Kubernetes node name from the `%!(EXTRA string=…)` artefact, when present.
    pub kubernetes_node: Option<String>,
}

impl NodeNotFound {
    /// The fixed text.
    pub const TEXT: &'static str = "Kubernetes node has been disappeared, deleting GPUNode";
    const EXTRA_OPEN: &'static str = "%!(EXTRA string=";

    /// From the node name of the artefact.
    pub fn new(kubernetes_node: Option<&str>) -> Self {
        NodeNotFound { kubernetes_node: kubernetes_node.map(str::to_owned) }
    }

    /// Parse the note, with or without the artefact.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.strip_prefix(Self::TEXT)?;
        if rest.is_empty() {
            return Some(Self::new(None));
        }
        let node = rest.strip_prefix(Self::EXTRA_OPEN)?.strip_suffix(')')?;
        Some(Self::new(Some(node)))
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        match &self.kubernetes_node {
            Some(node) => [Self::TEXT, Self::EXTRA_OPEN, node, ")"].concat(),
            None => Self::TEXT.to_owned(),
        }
    }
}

single_format! {
    /// A GPUNode in provisioned mode has no cloud vendor parameters (GPUNode controller before PR
    /// #282).
    pub struct CloudVendorParamEmpty {
        /// The GPUNode name.
        pub node: String,
    }
    /// The Go format.
    FORMAT = "cloud vendor param is empty, but manage mode is provisioned: %s";
    /// From the node.
    new;
    render_doc = "The note as TensorFusion wrote it.";
}

single_format! {
    /// Worker selection began for a connection (TensorFusionConnection controller before PR #241).
    pub struct SelectingWorker {
        /// The TensorFusionConnection name.
        pub connection: String,
    }
    /// The Go format.
    FORMAT = "Selecting worker for connection %s";
    /// From the connection.
    new;
    render_doc = "The note as TensorFusion wrote it.";
}

single_format! {
    /// The workload controller could not allocate a GPU (TensorFusionWorkload controller before PR
    /// #241).
    pub struct ScheduleGpuFailed {
        /// The allocation error.
        pub error: String,
    }
    /// The Go format.
    FORMAT = "Failed to schedule GPU: %v";
    /// From the error.
    new;
    render_doc = "The note as TensorFusion wrote it.";
}

/// One item `<resource> usage (%d%%) has reached alert threshold (%d%%)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ThresholdAlert {
    /// The resource as written: `Requests TFlops`, `Requests VRAM` or `Workers`.
    pub resource: String,
    /// Usage in percent of the quota.
    pub usage_percent: i64,
    /// The alert threshold in percent (default 95).
    pub threshold_percent: i64,
}

/// One flag `<resource>: true|false` of the condition-style list
/// (` tflops limits: %t, tflops requests: %t, vram limits: %t, vram requests: %t, workers: %t`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AlertFlag {
    /// The resource label as written, e.g. `tflops limits`.
    pub resource: String,
    /// Whether it reached the threshold, as printed.
    pub reached: bool,
}

/// A namespace's GPU usage crossed its GPUResourceQuota alert threshold (GPUResourceQuota
/// controller before PR #241). Releases wrote either single items
/// (`Requests TFlops usage (93%) has reached alert threshold (90%)`) or a list after
/// `One of the following resources has reached alert threshold:`; the text after that prefix is
/// kept verbatim and read best-effort.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AlertThresholdReached {
    /// Whether the note starts with `One of the following resources has reached alert threshold:`.
    pub prefixed: bool,
    /// The items: the text after the prefix, or the whole note.
    pub items: String,
    /// The usage items found in `items`, in order.
    pub alerts: Vec<ThresholdAlert>,
    /// The `<resource>: true|false` flags, when `items` is such a list.
    pub flags: Vec<AlertFlag>,
}

impl AlertThresholdReached {
    /// The prefix of the list form.
    pub const PREFIX: &'static str = "One of the following resources has reached alert threshold:";
    /// The Go format of one usage item (`%%` is a literal `%`).
    pub const ITEM_FORMAT: &'static str = "%s usage (%d%%) has reached alert threshold (%d%%)";

    /// From the item text and whether the list prefix was present.
    pub fn new(prefixed: bool, items: &str) -> Self {
        let (alerts, _) = Self::read_alerts(items);
        AlertThresholdReached { prefixed, items: items.to_owned(), alerts, flags: Self::read_flags(items) }
    }

    /// Usage items separated by blanks, commas or semicolons; whether they cover all the text.
    fn read_alerts(items: &str) -> (Vec<ThresholdAlert>, bool) {
        let separators: &[char] = &[' ', ',', ';', '\n'];
        let mut alerts = Vec::new();
        let mut rest = items.trim_start_matches(separators);
        while !rest.is_empty() {
            let item = rest.split_once(" usage (").and_then(|(resource, rest)| {
                let (usage, rest) = rest.split_once("%) has reached alert threshold (")?;
                let (threshold, rest) = rest.split_once("%)")?;
                let alert = ThresholdAlert {
                    resource: resource.to_owned(),
                    usage_percent: usage.parse().ok()?,
                    threshold_percent: threshold.parse().ok()?,
                };
                Some((alert, rest))
            });
            let Some((alert, after)) = item else {
                return (alerts, false);
            };
            alerts.push(alert);
            rest = after.trim_start_matches(separators);
        }
        (alerts, true)
    }

    /// `<label>: true|false` pairs separated by `, `; empty unless every pair has that shape.
    fn read_flags(items: &str) -> Vec<AlertFlag> {
        let flags: Option<Vec<AlertFlag>> = items
            .trim_start()
            .split(", ")
            .map(|pair| {
                let (resource, reached) = pair.split_once(": ")?;
                Some(AlertFlag { resource: resource.to_owned(), reached: go_bool(reached)? })
            })
            .collect();
        flags.unwrap_or_default()
    }

    /// Parse a note: the list form (any text after the prefix), or one or more usage items.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some(items) = note.strip_prefix(Self::PREFIX) {
            return Some(Self::new(true, items));
        }
        let (alerts, whole) = Self::read_alerts(note);
        (whole && !alerts.is_empty()).then(|| Self::new(false, note))
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        if self.prefixed { [Self::PREFIX, &self.items].concat() } else { self.items.clone() }
    }
}

/// Which `WorkerFailed` wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum FailedWorkersWording {
    /// `Failed workers num: %d` (the last releases that emitted it).
    WorkersNum,
    /// `Failed workers: %d` (earlier).
    Workers,
}

impl FailedWorkersWording {
    /// The Go format of this wording.
    pub fn format(self) -> &'static str {
        match self {
            FailedWorkersWording::WorkersNum => "Failed workers num: %d",
            FailedWorkersWording::Workers => "Failed workers: %d",
        }
    }
}

/// Some worker Pods of a workload failed (TensorFusionWorkload controller before PR #350).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WorkerFailed {
    /// Failed worker Pods (count).
    pub failed: u32,
    /// Which wording the note uses.
    pub wording: FailedWorkersWording,
}

impl WorkerFailed {
    /// From the count and wording.
    pub fn new(failed: u32, wording: FailedWorkersWording) -> Self {
        WorkerFailed { failed, wording }
    }

    /// Parse a note of either wording.
    pub fn parse(note: &str) -> Option<Self> {
        [FailedWorkersWording::WorkersNum, FailedWorkersWording::Workers].into_iter().find_map(|wording| {
            let [failed] = captures(wording.format(), note)?;
            Some(Self::new(go_uint(failed)?, wording))
        })
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        fill(self.wording.format(), &[Arg::Int(self.failed.into())])
    }
}

/// A note that is a raw Go error (`CheckComponentStatusError`, `UpdateClusterStatusError` of the
/// TensorFusionCluster controller before PR #350).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RawError {
    /// The error text, verbatim.
    pub error: String,
}

impl RawError {
    /// From the error.
    pub fn new(error: &str) -> Self {
        RawError { error: error.to_owned() }
    }

    /// Any note is a raw error.
    pub fn parse(note: &str) -> Option<Self> {
        Some(Self::new(note))
    }

    /// The note as TensorFusion wrote it.
    pub fn render(&self) -> String {
        self.error.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orphaned_and_provisioner() {
        for (note, form) in [
            (
                "provisioned node not found, this could result in orphaned nodes, please check manually: gpu-node-1",
                OrphanForm::NotFound,
            ),
            (
                "provisioned node without instanceID, this could result in orphaned nodes, please check manually: gpu-node-1",
                OrphanForm::WithoutInstanceId,
            ),
        ] {
            let d = OrphanedNode::parse(note).unwrap();
            assert_eq!((d.form, d.node.as_str()), (form, "gpu-node-1"));
            assert_eq!(d.render(), note);
        }
        assert_eq!(OrphanedNode::parse("provisioned node not found: gpu-node-1"), None);

        let note = r#"GPUNode "gpu-node-1" provisioner not found, current Kubernetes node "node-a""#;
        let d = NodeProvisionerNotFound::parse(note).unwrap();
        assert_eq!((d.gpu_node.as_deref(), d.node.as_str()), (Some("gpu-node-1"), "node-a"));
        assert_eq!(d.render(), note);
        let d = NodeProvisionerNotFound::parse("GPUNode not found for node node-a").unwrap();
        assert_eq!((d.gpu_node, d.node.as_str()), (None, "node-a"));
        assert_eq!(
            NodeProvisionerNotFound::parse("GPUNode gpu-node-1 provisioner not found, current Kubernetes node node-a"),
            None
        );
        assert_eq!(
            NodeProvisionerNotFound::parse(r#"GPUNode "a" provisioner not found, current Kubernetes node "b" x"#),
            None
        );
    }

    #[test]
    fn node_not_found_artefact() {
        let d = NodeNotFound::parse("Kubernetes node has been disappeared, deleting GPUNode").unwrap();
        assert_eq!(d.kubernetes_node, None);
        let note = "Kubernetes node has been disappeared, deleting GPUNode%!(EXTRA string=node-a)";
        let d = NodeNotFound::parse(note).unwrap();
        assert_eq!(d.kubernetes_node.as_deref(), Some("node-a"));
        assert_eq!(d.render(), note);
        assert_eq!(NodeNotFound::parse("Kubernetes node has been disappeared, deleting GPUNode%!(EXTRA int=1"), None);
        assert_eq!(NodeNotFound::parse("Kubernetes node has been disappeared"), None);
    }

    #[test]
    fn small_formats() {
        let d = CloudVendorParamEmpty::parse("cloud vendor param is empty, but manage mode is provisioned: gpu-node-1")
            .unwrap();
        assert_eq!(d.node, "gpu-node-1");
        let d = SelectingWorker::parse("Selecting worker for connection llama-conn").unwrap();
        assert_eq!(d.connection, "llama-conn");
        let d = ScheduleGpuFailed::parse("Failed to schedule GPU: no gpus available").unwrap();
        assert_eq!(d.error, "no gpus available");
        assert_eq!(SelectingWorker::parse("Selecting worker llama-conn"), None);
        assert_eq!(CloudVendorParamEmpty::parse("cloud vendor param is empty"), None);
        assert_eq!(ScheduleGpuFailed::parse("Failed to schedule: x"), None);

        for (note, failed, wording) in [
            ("Failed workers num: 2", 2, FailedWorkersWording::WorkersNum),
            ("Failed workers: 1", 1, FailedWorkersWording::Workers),
        ] {
            let d = WorkerFailed::parse(note).unwrap();
            assert_eq!((d.failed, d.wording), (failed, wording));
            assert_eq!(d.render(), note);
        }
        assert_eq!(WorkerFailed::parse("Failed workers num: two"), None);

        let d = RawError::parse("failed to get cluster: not found").unwrap();
        assert_eq!(d.render(), "failed to get cluster: not found");
    }

    #[test]
    fn alert_threshold() {
        let note = "Requests TFlops usage (93%) has reached alert threshold (90%)";
        let d = AlertThresholdReached::parse(note).unwrap();
        assert!(!d.prefixed);
        assert_eq!(
            d.alerts,
            [ThresholdAlert { resource: "Requests TFlops".into(), usage_percent: 93, threshold_percent: 90 }]
        );
        assert_eq!(d.render(), note);
        assert_eq!(
            note,
            fill(AlertThresholdReached::ITEM_FORMAT, &[Arg::Text("Requests TFlops"), Arg::Int(93), Arg::Int(90)])
        );

        let note = "One of the following resources has reached alert threshold: Requests TFlops usage (93%) has reached alert threshold (90%), Workers usage (100%) has reached alert threshold (90%)";
        let d = AlertThresholdReached::parse(note).unwrap();
        assert!(d.prefixed);
        assert_eq!(d.alerts.len(), 2);
        assert_eq!(d.alerts[1].resource, "Workers");
        assert_eq!(d.render(), note);

        let note = "One of the following resources has reached alert threshold: tflops limits: false, tflops requests: true, vram limits: false, vram requests: false, workers: true";
        let d = AlertThresholdReached::parse(note).unwrap();
        assert!(d.alerts.is_empty());
        assert_eq!(d.flags.len(), 5);
        assert_eq!((d.flags[1].resource.as_str(), d.flags[1].reached), ("tflops requests", true));
        assert_eq!(d.render(), note);

        assert_eq!(AlertThresholdReached::parse("usage is high"), None);
        assert_eq!(
            AlertThresholdReached::parse("Workers usage (100%) has reached alert threshold (90%) and more"),
            None
        );
    }
}
