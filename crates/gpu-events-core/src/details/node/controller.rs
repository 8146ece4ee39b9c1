//! kube-controller-manager notes (kubernetes/kubernetes pkg/controller/controller_utils.go,
//! statefulset/stateful_pod_control.go, cronjob/cronjob_controllerv2.go, deployment/sync.go,
//! job/pod_failure_policy.go, nodelifecycle/, util/node/controller_utils.go, tainteviction/,
//! daemon/daemon_controller.go; the ResourceQuota admission text from
//! staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go; v1.9–v1.36) and
//! the node-scoped kubelet notes that share their shapes (`Node %s status is now: %s`,
//! `Rebooted`; pkg/kubelet/nodestatus/setters.go).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::admission::OutOfResource;
use super::{NodeDetails, after, split_quoted, unquote_or_raw};
use crate::details::template::captures;
use crate::details::{Details, Grammar, Note, Quantity};

/// One word (a Kubernetes object name): non-empty, no whitespace.
fn name(text: &str) -> Option<String> {
    (!text.is_empty() && !text.contains(char::is_whitespace)).then(|| text.to_owned())
}

/// A workload controller created an object (`SuccessfulCreate`): `Created pod: %v`
/// (ReplicaSet, Job, DaemonSet, ReplicationController), `create Pod %s in StatefulSet %s
/// successful`, `create Claim %s Pod %s in StatefulSet %s success`, `Created job %v` (CronJob).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ControllerCreated {
    /// The Pod created (or, for a claim, the Pod it is for).
    pub pod: Option<String>,
    /// The PersistentVolumeClaim created by a StatefulSet.
    pub claim: Option<String>,
    /// The StatefulSet, in the StatefulSet forms.
    pub stateful_set: Option<String>,
    /// The Job created by a CronJob.
    pub job: Option<String>,
}

impl ControllerCreated {
    /// Parse any `SuccessfulCreate` form.
    pub fn parse(note: &str) -> Option<Self> {
        let mut created = ControllerCreated { pod: None, claim: None, stateful_set: None, job: None };
        if let Some([pod]) = captures("Created pod: %v", note) {
            created.pod = Some(name(pod)?);
        } else if let Some([job]) = captures("Created job %v", note) {
            created.job = Some(name(job)?);
        } else if let Some([pod, set]) = captures("create Pod %s in StatefulSet %s successful", note) {
            created.pod = Some(name(pod)?);
            created.stateful_set = Some(name(set)?);
        } else {
            let [claim, pod, set] = captures("create Claim %s Pod %s in StatefulSet %s success", note)?;
            created.claim = Some(name(claim)?);
            created.pod = Some(name(pod)?);
            created.stateful_set = Some(name(set)?);
        }
        Some(created)
    }
}

/// A workload controller deleted an object (`SuccessfulDelete`): `Deleted pod: %v`, `delete Pod
/// %s in StatefulSet %s successful`, `Deleted job %v` (CronJob).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ControllerDeleted {
    /// The Pod deleted.
    pub pod: Option<String>,
    /// The StatefulSet, in the StatefulSet form.
    pub stateful_set: Option<String>,
    /// The Job deleted by a CronJob.
    pub job: Option<String>,
}

impl ControllerDeleted {
    /// Parse any `SuccessfulDelete` form.
    pub fn parse(note: &str) -> Option<Self> {
        let mut deleted = ControllerDeleted { pod: None, stateful_set: None, job: None };
        if let Some([pod]) = captures("Deleted pod: %v", note) {
            deleted.pod = Some(name(pod)?);
        } else if let Some([job]) = captures("Deleted job %v", note) {
            deleted.job = Some(name(job)?);
        } else {
            let [pod, set] = captures("delete Pod %s in StatefulSet %s successful", note)?;
            deleted.pod = Some(name(pod)?);
            deleted.stateful_set = Some(name(set)?);
        }
        Some(deleted)
    }
}

/// One resource of an exceeded ResourceQuota.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuotaResource {
    /// The quota resource name (`requests.nvidia.com/gpu`, `limits.memory`, `pods`).
    pub resource: String,
    /// What the new object requests; `value` in the resource's base unit (cores for CPU, bytes
    /// for memory and storage, a count for devices and objects).
    pub requested: Option<Quantity>,
    /// What the namespace already uses; same unit.
    pub used: Option<Quantity>,
    /// The quota's hard limit; same unit.
    pub limited: Option<Quantity>,
}

/// A ResourceQuota rejected the object: `exceeded quota: %s, requested: %s, used: %s, limited:
/// %s`, each list `resource=quantity` joined with `,`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuotaExceeded {
    /// The ResourceQuota name.
    pub quota: String,
    /// The exceeded resources, in the order of the `requested` list.
    pub resources: Vec<QuotaResource>,
}

impl QuotaExceeded {
    /// The quota rejection inside an API error, wherever it starts.
    pub fn find(error: &str) -> Option<Self> {
        let rest = after(error, "exceeded quota: ")?;
        let [quota, requested, used, limited] = captures("%s, requested: %s, used: %s, limited: %s", rest.trim_end())?;
        let mut resources: Vec<QuotaResource> = Vec::new();
        let lists = [(0, requested), (1, used), (2, limited)];
        for (column, list) in lists {
            for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (resource, quantity) = item.split_once('=')?;
                let at = match resources.iter().position(|r| r.resource == resource) {
                    Some(at) => at,
                    None => {
                        resources.push(QuotaResource {
                            resource: resource.to_owned(),
                            requested: None,
                            used: None,
                            limited: None,
                        });
                        resources.len() - 1
                    }
                };
                let entry = resources.get_mut(at)?;
                let slot = match column {
                    0 => &mut entry.requested,
                    1 => &mut entry.used,
                    _ => &mut entry.limited,
                };
                *slot = Some(Quantity::parse(quantity));
            }
        }
        Some(QuotaExceeded { quota: quota.to_owned(), resources })
    }
}

/// A workload controller could not create an object (`FailedCreate`): `Error creating: %v`,
/// `Error creating job: %v` (CronJob), `create Pod %s in StatefulSet %s failed error: %s`,
/// `create Claim %s for Pod %s in StatefulSet %s failed error: %s`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ControllerCreateFailed {
    /// The Pod, in the StatefulSet forms.
    pub pod: Option<String>,
    /// The claim, in the StatefulSet claim form.
    pub claim: Option<String>,
    /// The StatefulSet, in the StatefulSet forms.
    pub stateful_set: Option<String>,
    /// `true` for the CronJob form (`Error creating job: %v`).
    pub job: bool,
    /// The ResourceQuota rejection, when the error is one.
    pub quota: Option<QuotaExceeded>,
    /// The API error, verbatim.
    pub error: String,
}

impl ControllerCreateFailed {
    /// Parse any `FailedCreate` form.
    pub fn parse(note: &str) -> Option<Self> {
        let mut failed = ControllerCreateFailed {
            pod: None,
            claim: None,
            stateful_set: None,
            job: false,
            quota: None,
            error: String::new(),
        };
        let error = if let Some(error) = note.strip_prefix("Error creating job: ") {
            failed.job = true;
            error
        } else if let Some(error) = note.strip_prefix("Error creating: ") {
            error
        } else if let Some([claim, pod, set, error]) =
            captures("create Claim %s for Pod %s in StatefulSet %s failed error: %s", note)
        {
            failed.claim = Some(name(claim)?);
            failed.pod = Some(name(pod)?);
            failed.stateful_set = Some(name(set)?);
            error
        } else {
            let [pod, set, error] = captures("create Pod %s in StatefulSet %s failed error: %s", note)?;
            failed.pod = Some(name(pod)?);
            failed.stateful_set = Some(name(set)?);
            error
        };
        failed.quota = QuotaExceeded::find(error);
        failed.error = error.to_owned();
        Some(failed)
    }
}

pub use crate::details::ScaleDirection;

/// The Deployment controller scaled a ReplicaSet (`ScalingReplicaSet`): ≈1.31+ (PR #125118)
/// `Scaled %s replica set %s from %d to %d`; PR #101142 `Scaled %s replica set %s to %d from
/// %d`; older `Scaled up replica set %s to %d` / `Scaled down replica set %s to %d`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReplicaSetScaled {
    /// Up or down.
    pub direction: ScaleDirection,
    /// The ReplicaSet name.
    pub replica_set: String,
    /// Replicas before (count); `None` in the oldest form.
    pub from: Option<u32>,
    /// Replicas after (count).
    pub to: u32,
}

impl ReplicaSetScaled {
    /// Parse any `ScalingReplicaSet` form.
    pub fn parse(note: &str) -> Option<Self> {
        let [direction, replica_set, counts] = captures("Scaled %s replica set %s %s", note)?;
        let direction = match direction {
            "up" => ScaleDirection::Up,
            "down" => ScaleDirection::Down,
            _ => return None,
        };
        let (from, to) = if let Some([from, to]) = captures("from %d to %d", counts) {
            (Some(from.parse().ok()?), to.parse().ok()?)
        } else if let Some([to, from]) = captures("to %d from %d", counts) {
            (Some(from.parse().ok()?), to.parse().ok()?)
        } else {
            let [to] = captures("to %d", counts)?;
            (None, to.parse().ok()?)
        };
        Some(ReplicaSetScaled { direction, replica_set: name(replica_set)?, from, to })
    }
}

/// A failed Pod matched a `FailJob` (or other) rule of the Job's pod failure policy
/// (`PodFailurePolicy`, pkg/controller/job/pod_failure_policy.go): `Container %s for pod %s/%s
/// failed with exit code %v matching %v rule at index %d`, or `Pod %s/%s has condition %v
/// matching %v rule at index %d`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodFailurePolicyMatched {
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
    /// The container whose exit code matched (exit-code rules).
    pub container: Option<String>,
    /// The container's exit code (exit-code rules).
    pub exit_code: Option<i32>,
    /// The Pod condition type that matched (condition rules, e.g. `DisruptionTarget`).
    pub condition: Option<String>,
    /// The rule's action (`FailJob`, `FailIndex`, `Ignore`, `Count`).
    pub action: String,
    /// The rule's index in `podFailurePolicy.rules`.
    pub rule_index: u32,
}

impl PodFailurePolicyMatched {
    /// Parse either `PodFailurePolicy` form.
    pub fn parse(note: &str) -> Option<Self> {
        let (container, pod, exit_code, condition, action, index) = if let Some([container, pod, code, action, index]) =
            captures("Container %s for pod %s failed with exit code %v matching %v rule at index %d", note)
        {
            (Some(name(container)?), pod, Some(code.parse().ok()?), None, action, index)
        } else {
            let [pod, condition, action, index] =
                captures("Pod %s has condition %v matching %v rule at index %d", note)?;
            (None, pod, None, Some(name(condition)?), action, index)
        };
        let (namespace, pod) = pod.split_once('/')?;
        Some(PodFailurePolicyMatched {
            namespace: name(namespace)?,
            pod: name(pod)?,
            container,
            exit_code,
            condition,
            action: name(action)?,
            rule_index: index.parse().ok()?,
        })
    }
}

/// The node controller marked this Pod not ready because its node is (`NodeNotReady` on a Pod,
/// pkg/controller/util/node/controller_utils.go `MarkPodsNotReady`): the fixed note `Node is not
/// ready`. It carries no fields; the node is the Pod's `spec.nodeName`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodNodeNotReady {}

/// A node condition or schedulability change (`NodeReady`, `NodeNotReady`, `NodeHasDiskPressure`,
/// ...; kubelet pkg/kubelet/nodestatus/setters.go and node controller `RecordNodeStatusChange`):
/// `Node %s status is now: %s`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeStatus {
    /// Node name.
    pub node: String,
    /// The new status word, the same as the reason (`NodeNotReady`, `NodeHasSufficientMemory`).
    pub status: String,
}

impl NodeStatus {
    /// Parse `Node %s status is now: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let [node, status] = captures("Node %s status is now: %s", note)?;
        Some(NodeStatus { node: name(node)?, status: name(status.trim_end())? })
    }
}

/// Grammar of the node controller's `NodeNotReady`: on a Pod `Node is not ready`, on the Node
/// `Node %s status is now: %s`.
pub(crate) static NODE_NOT_READY: Grammar =
    Grammar::new(&[PodNodeNotReady::KIND, NodeStatus::KIND], |note: &Note<'_>| {
        if note.text.trim_end() == "Node is not ready" {
            return Some(Details::Node(NodeDetails::PodNodeNotReady(PodNodeNotReady {})));
        }
        NodeStatus::parse(note.text).map(|d| Details::Node(NodeDetails::NodeStatus(d)))
    });

/// A Pod marked for deletion because of a NoExecute taint, or the marking cancelled
/// (`TaintManagerEviction`, pkg/controller/tainteviction/taint_eviction.go: `Marking for deletion
/// Pod %s`, `Cancelling deletion of Pod %s`; old `NodeControllerEviction`: `Marking for deletion
/// Pod %s from Node %s`). The Pod is printed as `namespace/name`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodDeletionMarked {
    /// Pod namespace (`None` when the note gives a bare name).
    pub namespace: Option<String>,
    /// Pod name.
    pub pod: String,
    /// The node, in the old node-controller form.
    pub node: Option<String>,
    /// `true` for `Cancelling deletion of Pod %s` (the taint went away or is now tolerated).
    pub cancelled: bool,
}

impl PodDeletionMarked {
    /// Parse any of the three forms.
    pub fn parse(note: &str) -> Option<Self> {
        let (pod, node, cancelled) = if let Some([pod]) = captures("Cancelling deletion of Pod %s", note) {
            (pod, None, true)
        } else if let Some([pod, node]) = captures("Marking for deletion Pod %s from Node %s", note) {
            (pod, Some(name(node)?), false)
        } else {
            let [pod] = captures("Marking for deletion Pod %s", note)?;
            (pod, None, false)
        };
        let (namespace, pod) = match pod.split_once('/') {
            Some((namespace, pod)) => (Some(name(namespace)?), pod),
            None => (None, pod),
        };
        Some(PodDeletionMarked { namespace, pod: name(pod)?, node, cancelled })
    }
}

/// The node's boot ID changed (`Rebooted`, pkg/kubelet/nodestatus/setters.go):
/// `Node %s has been rebooted, boot id: %s`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeRebooted {
    /// Node name.
    pub node: String,
    /// The new boot ID (`/proc/sys/kernel/random/boot_id`).
    pub boot_id: String,
}

impl NodeRebooted {
    /// Parse `Node %s has been rebooted, boot id: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let [node, boot_id] = captures("Node %s has been rebooted, boot id: %s", note)?;
        Some(NodeRebooted { node: name(node)?, boot_id: name(boot_id.trim_end())? })
    }
}

/// The old DaemonSet controller could not place a daemon Pod on a node (`FailedPlacement`,
/// pkg/controller/daemon/daemon_controller.go ≤1.9): `failed to place pod on %q: %s`, the reason
/// usually the kubelet's insufficient-resource text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DaemonPlacementFailed {
    /// The node.
    pub node: String,
    /// The insufficient resource, when the reason is `Node didn't have enough resource: ...`.
    pub insufficient: Option<OutOfResource>,
    /// The reason, verbatim.
    pub error: String,
}

impl DaemonPlacementFailed {
    /// Parse `failed to place pod on %q: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.strip_prefix("failed to place pod on ")?;
        let (node, error) = match split_quoted(rest) {
            Some((node, rest)) => (node, rest.strip_prefix(": ")?),
            None => {
                let (node, error) = rest.split_once(": ")?;
                (unquote_or_raw(node), error)
            }
        };
        Some(DaemonPlacementFailed { node, insufficient: OutOfResource::parse(error), error: error.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_and_deleted() {
        let pod = ControllerCreated::parse("Created pod: nvidia-dcgm-exporter-qd6vj").unwrap();
        assert_eq!(pod.pod.as_deref(), Some("nvidia-dcgm-exporter-qd6vj"));
        let set = ControllerCreated::parse("create Pod llm-0 in StatefulSet llm successful").unwrap();
        assert_eq!((set.pod.as_deref(), set.stateful_set.as_deref()), (Some("llm-0"), Some("llm")));
        let claim = ControllerCreated::parse("create Claim cache-llm-0 Pod llm-0 in StatefulSet llm success").unwrap();
        assert_eq!(claim.claim.as_deref(), Some("cache-llm-0"));
        assert_eq!(claim.pod.as_deref(), Some("llm-0"));
        let job = ControllerCreated::parse("Created job nightly-eval-29000000").unwrap();
        assert_eq!(job.job.as_deref(), Some("nightly-eval-29000000"));
        assert_eq!(ControllerCreated::parse("Created pod: "), None);
        assert_eq!(ControllerCreated::parse("Created pods"), None);

        let deleted = ControllerDeleted::parse("Deleted pod: trainer-abcde").unwrap();
        assert_eq!(deleted.pod.as_deref(), Some("trainer-abcde"));
        let set = ControllerDeleted::parse("delete Pod llm-1 in StatefulSet llm successful").unwrap();
        assert_eq!(set.stateful_set.as_deref(), Some("llm"));
        assert_eq!(ControllerDeleted::parse("Deleted everything"), None);
    }

    #[test]
    fn failed_create_with_quota() {
        let f = ControllerCreateFailed::parse(
            "Error creating: pods \"trainer-7c9f8-\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=8, limited: requests.nvidia.com/gpu=8",
        )
        .unwrap();
        let quota = f.quota.unwrap();
        assert_eq!(quota.quota, "gpu-quota");
        assert_eq!(quota.resources.len(), 1);
        let gpu = &quota.resources[0];
        assert_eq!(gpu.resource, "requests.nvidia.com/gpu");
        assert_eq!(gpu.requested.as_ref().unwrap().value, Some(1.0));
        assert_eq!(gpu.used.as_ref().unwrap().value, Some(8.0));
        assert_eq!(gpu.limited.as_ref().unwrap().quantity, "8");

        let many = ControllerCreateFailed::parse(
            "Error creating: pods \"x-\" is forbidden: exceeded quota: team-a, requested: limits.memory=64Gi,requests.cpu=8, used: limits.memory=960Gi,requests.cpu=120, limited: limits.memory=1Ti,requests.cpu=128",
        )
        .unwrap();
        let resources = many.quota.unwrap().resources;
        let names: Vec<_> = resources.iter().map(|r| r.resource.as_str()).collect();
        assert_eq!(names, ["limits.memory", "requests.cpu"]);
        assert_eq!(resources[0].limited.as_ref().unwrap().value, Some(1024f64.powi(4)));
        assert_eq!(resources[1].used.as_ref().unwrap().value, Some(120.0));

        let runtime_class = ControllerCreateFailed::parse(
            "Error creating: pods \"gpu-\" is forbidden: pod rejected: RuntimeClass \"nvidia\" not found",
        )
        .unwrap();
        assert_eq!(runtime_class.quota, None);
        assert!(runtime_class.error.ends_with("not found"));

        let set = ControllerCreateFailed::parse(
            "create Pod llm-0 in StatefulSet llm failed error: pods \"llm-0\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10",
        )
        .unwrap();
        assert_eq!(set.pod.as_deref(), Some("llm-0"));
        assert_eq!(set.quota.unwrap().quota, "q");
        let claim = ControllerCreateFailed::parse(
            "create Claim cache-llm-0 for Pod llm-0 in StatefulSet llm failed error: storageclass missing",
        )
        .unwrap();
        assert_eq!(claim.claim.as_deref(), Some("cache-llm-0"));
        let job = ControllerCreateFailed::parse("Error creating job: jobs.batch \"x\" already exists").unwrap();
        assert!(job.job);
        assert_eq!(ControllerCreateFailed::parse("Failed creating"), None);
    }

    #[test]
    fn scaling_every_wording() {
        for (note, direction, from, to) in [
            ("Scaled up replica set vllm-7d9b8c7f5 from 1 to 3", ScaleDirection::Up, Some(1), 3),
            ("Scaled down replica set vllm-7d9b8c7f5 to 0 from 2", ScaleDirection::Down, Some(2), 0),
            ("Scaled up replica set vllm-7d9b8c7f5 to 3", ScaleDirection::Up, None, 3),
            ("Scaled down replica set vllm-7d9b8c7f5 to 1", ScaleDirection::Down, None, 1),
        ] {
            let s = ReplicaSetScaled::parse(note).unwrap();
            assert_eq!((s.direction, s.from, s.to), (direction, from, to), "{note}");
            assert_eq!(s.replica_set, "vllm-7d9b8c7f5");
        }
        for bad in ["Scaled sideways replica set x to 1", "Scaled up replica set x to many", "Scaled up replica set x"]
        {
            assert_eq!(ReplicaSetScaled::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn pod_failure_policy() {
        let exit = PodFailurePolicyMatched::parse(
            "Container main for pod ml/train-0-abcde failed with exit code 42 matching FailJob rule at index 0",
        )
        .unwrap();
        assert_eq!((exit.namespace.as_str(), exit.pod.as_str()), ("ml", "train-0-abcde"));
        assert_eq!((exit.container.as_deref(), exit.exit_code), (Some("main"), Some(42)));
        assert_eq!((exit.action.as_str(), exit.rule_index), ("FailJob", 0));
        let condition = PodFailurePolicyMatched::parse(
            "Pod ml/train-0-abcde has condition DisruptionTarget matching Ignore rule at index 1",
        )
        .unwrap();
        assert_eq!(condition.condition.as_deref(), Some("DisruptionTarget"));
        assert_eq!((condition.container, condition.exit_code, condition.rule_index), (None, None, 1));
        assert_eq!(
            PodFailurePolicyMatched::parse("Pod train-0 has condition X matching FailJob rule at index 0"),
            None,
            "needs namespace/name"
        );
    }

    #[test]
    fn node_notes() {
        let status = NodeStatus::parse("Node gpu-node-7 status is now: NodeNotReady").unwrap();
        assert_eq!((status.node.as_str(), status.status.as_str()), ("gpu-node-7", "NodeNotReady"));
        assert_eq!(NodeStatus::parse("Node status is now: NodeReady"), None);
        let pod_level = NODE_NOT_READY.parse(&Note::new("Node is not ready"));
        assert_eq!(pod_level.kind(), "podNodeNotReady");
        assert_eq!(
            NODE_NOT_READY.parse(&Note::new("Node gpu-node-7 status is now: NodeNotReady")).kind(),
            "nodeStatus"
        );
        assert_eq!(NODE_NOT_READY.parse(&Note::new("Node is ready")).kind(), "unrecognized");

        let reboot =
            NodeRebooted::parse("Node gpu-node-7 has been rebooted, boot id: 5d3c2a1e-aaaa-bbbb-cccc-0123456789ab")
                .unwrap();
        assert_eq!(reboot.boot_id, "5d3c2a1e-aaaa-bbbb-cccc-0123456789ab");
        assert_eq!(NodeRebooted::parse("Node x has been rebooted"), None);
    }

    #[test]
    fn deletion_marks() {
        let mark = PodDeletionMarked::parse("Marking for deletion Pod ml/trainer-0").unwrap();
        assert_eq!((mark.namespace.as_deref(), mark.pod.as_str(), mark.cancelled), (Some("ml"), "trainer-0", false));
        let cancel = PodDeletionMarked::parse("Cancelling deletion of Pod ml/trainer-0").unwrap();
        assert!(cancel.cancelled);
        let old = PodDeletionMarked::parse("Marking for deletion Pod trainer-0 from Node gpu-node-7").unwrap();
        assert_eq!((old.namespace, old.node.as_deref()), (None, Some("gpu-node-7")));
        assert_eq!(PodDeletionMarked::parse("Marking for deletion"), None);
    }

    #[test]
    fn daemon_placement() {
        let p = DaemonPlacementFailed::parse(
            "failed to place pod on \"bootstrap-e2e-master\": Node didn't have enough resource: cpu, requested: 150, used: 950, capacity: 1000",
        )
        .unwrap();
        assert_eq!(p.node, "bootstrap-e2e-master");
        let out = p.insufficient.unwrap();
        assert_eq!((out.resource.as_str(), out.requested, out.used, out.capacity), ("cpu", 150, 950, 1000));
        let other =
            DaemonPlacementFailed::parse("failed to place pod on \"n\": Predicate NodeAffinity failed").unwrap();
        assert_eq!(other.insufficient, None);
        assert_eq!(DaemonPlacementFailed::parse("failed to place pod"), None);
    }
}
