//! Symptom to cause: why a GPU Pod (or its node, pool, workload) is stuck, from its events.
//!
//! [`diagnose`] groups records by their `regarding` object and reads each object's events as a
//! person does, latest first: the newest record that implies a phase gives the phase (`Pending`,
//! `ContainerCreating`, `CrashLoopBackOff`, ...), and the newest record that points at a cause in
//! that phase gives the [`Cause`]. Typed details decide where they exist (a FitError's
//! `Insufficient nvidia.com/gpu`, a runtime chain's missing `nvidia` handler); otherwise the
//! catalogue reason does, with lower confidence. Objects with no Warning and no stuck signal are
//! left out.
//!
//! Records within two seconds of each other are read in lifecycle order (clocks of the
//! scheduler and the kubelet differ); an object that got past the phase of its problem
//! (`Scheduled` after `FailedScheduling`) is not stuck on it; a pasted status or container state
//! (`fromStatus`) is the object now.
//!
//! # Next steps
//!
//! Each [`Cause`] declares its steps once; a step may be scoped ([`StepScope`]) to an object kind
//! (a Pod's `jsonpath`, a Node's `describe`) or to an ecosystem whose CRDs or components it names
//! (`kubectl get gpupools` only when the evidence is TensorFusion's, `nodeclaims` only for
//! Karpenter's). The evidence's typed details add steps that name what they found first: the
//! Secret, ConfigMap, claim or CSI driver a volume lacks, the failing container, the DRA claim,
//! the node of a faulty device, the Pod of a memory cgroup.
//!
//! # Rules over the reason alone
//!
//! Each motivated by a real text (the test that holds it names the corpus case):
//!
//! 1. An admission failure ends the Pod (phase `Failed`): later mount and sandbox errors are its
//!    fallout, not the cause.
//! 2. Nominations of two or more new NodeClaims that never take the Pod are `node-never-ready`
//!    churn, not `node-expansion-pending`; so is one NodeClaim nominated ten times or more
//!    (`43x Nominated`, corpus 151).
//! 3. An admission error whose plugin says the device is gone (`nvml: GPU is lost`, `fallen off
//!    the bus`, an Xid) is `device-fault`, not `device-plugin-unavailable`.
//! 4. A probe whose output says `No devices were found` (or an Xid) is `device-fault`.
//! 5. A FailedMount of a hostPath GPU driver directory that is not there
//!    (`/home/kubernetes/bin/nvidia is not a directory`) is the driver missing
//!    (`cuda-driver-mismatch`), not a volume problem.
//! 6. An NVIDIA toolkit hook that ran and failed (`nvidia-container-cli: mount error`) is
//!    `container-start-failed`: the runtime is there.
//! 7. A record that sums up others' errors (the kubelet's `Unable to attach or mount volumes:
//!    ... timed out waiting for the condition`) defers to the newest specific error in its phase;
//!    alone, it is `volume-mount-failed` at Medium.
//! 8. A `kubectl get pods` STATUS that names a problem (`CrashLoopBackOff`,
//!    `UnexpectedAdmissionError`) is the Pod's status now (a `fromStatus` record), so a paste of
//!    only a pods table and logs is still diagnosed.
//! 9. HAMi's filter codes name their cause (one table, `fit.rs`): `node unregistered` and the
//!    card shortages are `insufficient-gpu`, `ResourceQuotaNotFit` a quota, `ModeNotFit` and the
//!    type/UUID/NUMA mismatches `invalid-gpu-request`, `CardNotHealth` a device fault.
//! 10. A Volcano gang summary with no per-node reason (`10/30 tasks in gang unschedulable: job
//!     is not ready`) is `gang-waiting`; `queue resource quota insufficient` is a quota; a gang
//!     of one (`1 minAvailable`) waits for no member: `insufficient-resources` (corpus 101).
//! 11. A scale-up that was tried for the Pod and failed (GKE's `FailedScaleUp`) is
//!     `node-expansion-failed`, from its typed details (corpus 156).
//! 12. An extender's `binding rejected` (HAMi's node lock) is `gpu-allocation-failed`;
//!     Karpenter's `would schedule against uninitialized nodeclaim` is `node-never-ready`
//!     (corpus 137, 151).
//! 13. An admission error in which the plugin answered with its own error (`code = Unknown
//!     desc = ...`) is at most Medium: the plugin is up. From its Allocate it refused the devices
//!     the scheduler chose: `gpu-allocation-failed`, `device-plugin-unavailable` also possible
//!     (corpus 116, 225, 256); from GetPreferredAllocation or in words the kubelet's forms do
//!     not cover: `device-plugin-unavailable` (corpus 259).
//! 14. A cause read only from messages quoted without their reason (flag `inferredReason`: an
//!     issue title, a sentence that quotes a scheduler message) is at most Medium: the rest of
//!     the object's events, which could contradict it, are not in the input.
//! 15. A waiting container's message (`RunContainerError`'s runtime chain) names the runtime
//!     cause as the kubelet's `Failed` event would (corpus 160).
//! 16. A Pod seen waiting with no cause of its own (a `get pods` row or a describe that says
//!     `Pending`, nothing else) takes the cause of its group: the PodGroup, Job or Workload it
//!     belongs to by the controllers' naming, or the one group of the input when that is
//!     unnamed; a Job takes its PodGroup's. At most Medium (corpus 101, 108).
//! 17. A container the runtime failed to start (a terminated `StartError` or `ContainerCannotRun`
//!     state, `RunContainerError`, a create or start error chain of no more specific cause) is
//!     `container-start-failed`, not a crash loop or `unknown`: the program never ran. Beside
//!     describe's `Status: Failed`, the phase is `Failed` (corpus 201, 211).
//! 18. A node group that would fit the Pod but cannot grow (cluster-autoscaler's `in backoff
//!     after failed scale-up`, `max node group size reached`; Karpenter's own FailedScheduling;
//!     GKE's `FailedScaleUp`) explains the shortage the scheduler reports, newer or not:
//!     `node-expansion-failed`. A `NotTriggerScaleUp` that says only that no group fits sums up
//!     the FitError, whose shortage is the cause (corpus 144).
//! 19. A Node whose `Allocatable:` counts fewer of an accelerator than its `Capacity:` has
//!     devices the plugin withholds as unhealthy (`device-fault`), or none a plugin serves
//!     (allocatable 0: `device-plugin-missing`); a Karpenter node that stays uninitialized
//!     (`DisruptionBlocked: Node isn't initialized`) waits for its extended resources to register
//!     (`device-plugin-missing`, Medium, `node-never-ready` also possible) (corpus 123, 226).
//! 20. A node that serves no GPU (its device plugin found none or cannot load NVML, its driver
//!     is not loaded, its allocatable is 0), serves them badly (the plugin's stream ended, it
//!     failed) or reports a GPU fault explains the Pods of the same input that wait for a GPU
//!     (their own cause `insufficient-gpu`, `device-plugin-missing` or `unknown`): they take the
//!     node's cause at Medium, their own reading also possible. Only when one node (or unnamed
//!     node evidence) says so: two nodes could be anyone's (the diag28 texts of a new user's
//!     review: device plugin logs beside a Pending Pod).
//! 21. A name printed without its namespace or kind (a Pod's YAML without `namespace:`, a
//!     `get pods` row of one namespace) is the one object of that name the input prints in
//!     full: one object, not two (diag29's review, k8s-device-plugin#165). `unknown` is always
//!     Low: not knowing the cause is no sure reading of it.
//! 22. Records of an unnamed Pod (a message quoted in prose, rows pasted above the describe)
//!     beside exactly one Pod the input names are diagnosed as that Pod, when their
//!     namespaces agree; the records keep their own unnamed `regarding` (corpus 187).
//! 23. An event Kubeflow's notebook controller copied onto its Notebook (`Reissued from
//!     pod/NAME: E`) is about the object it came from: the Pod is diagnosed, not the Notebook
//!     (corpus 244).
//!
//! # FitErrors: which per-node reason is the cause
//!
//! The scheduler filters each node in plugin order (NodeUnschedulable, NodeName,
//! TaintToleration, NodeAffinity, NodeResourcesFit, the volume plugins, ...) and reports, per
//! node, the plugin that rejected it. So a node counted under `Insufficient nvidia.com/gpu`
//! passed the taint and affinity filters: it is a node the Pod may run on, and it is short.
//! Nodes counted under a taint or an affinity mismatch are nodes the Pod may not run on at all.
//! The rule, in order:
//!
//! 1. A quota token (an extender's `ExceedsGPUQuota`) names the cause outright:
//!    `gpu-quota-exceeded`.
//! 2. Every node short of a vendor accelerator whose plugin registers names per model or mode
//!    (Ascend, gpu-manager's vCUDA, Neuron, Intel, gpushare, TPU, Gaudi) by the scheduler's
//!    count (`0/1 nodes are available: 1 Insufficient huawei.com/Ascend910B3-memory`, `0/2 ...:
//!    2 Insufficient aliyun.com/gpu-mem`), or HAMi's `node unregistered` on every node, nothing
//!    else wrong: `device-plugin-missing` at Medium (nothing advertises the resource more often
//!    than Pods hold all of it; corpus 134, 135, 140, 262, 271). NVIDIA's and AMD's whole GPUs
//!    stay `insufficient-gpu` (rule 3), but short on every node at most Medium, with
//!    `device-plugin-missing` also possible (corpus 237, 274: a fresh node whose plugin never
//!    registered looks the same as one whose GPUs are all taken).
//! 3. Nodes short of an accelerator (`Insufficient nvidia.com/gpu`, `amd.com/gpu`, MIG
//!    profiles, vendor tokens such as HAMi's `NodeUnfitPod`, DRA's `cannot allocate all
//!    claims`): `insufficient-gpu`, however many other nodes taints or affinity exclude; unless
//!    more nodes are short of CPU, memory or Pod slots than of GPUs, so that some nodes have a
//!    GPU to spare and lack the rest: `insufficient-resources`.
//! 4. Otherwise nodes that passed placement and failed later: short of CPU, memory or Pod slots
//!    (`insufficient-resources`), or of a volume's zone or attach limit (`volume-mount-failed`),
//!    the one on more nodes.
//! 5. Otherwise every node is excluded by placement. Only taints: `untolerated-taint`; only
//!    affinity: `node-affinity-mismatch`. Both: a taint that names an accelerator
//!    (`nvidia.com/gpu`, `dedicated: gpu`) means the GPU nodes are the tainted ones
//!    (`untolerated-taint`); taints that are only node states or roles
//!    (`node.kubernetes.io/unreachable`, `node-role.kubernetes.io/control-plane`) mean the
//!    tainted nodes were never candidates (`node-affinity-mismatch`); else the reason on more
//!    nodes, a tie going to the taint (its filter runs first).
//! 6. A FitError with no per-node reason but a PVC PreFilter message (`pod has unbound immediate
//!    PersistentVolumeClaims`): `volume-mount-failed`. Anything else: no cause.

mod cause;
mod fit;
mod reading;
mod signal;
mod specific;
mod steps;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use cause::{Cause, Step, StepScope};

use crate::EventRecord;
use reading::{Reading, conclude};

/// The phase an object is stuck in, as `kubectl get pods` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub enum Phase {
    /// Not scheduled yet.
    Pending,
    /// Scheduled; sandbox, volumes or images not ready.
    ContainerCreating,
    /// An init container keeps failing.
    #[serde(rename = "Init:CrashLoopBackOff")]
    InitCrashLoopBackOff,
    /// A container keeps failing.
    CrashLoopBackOff,
    /// Killed for memory.
    #[serde(rename = "OOMKilled")]
    OomKilled,
    /// Evicted from its node.
    Evicted,
    /// Rejected or failed for good (admission errors).
    Failed,
    /// Running (problems are on the node or the workload).
    Running,
    /// The events do not say.
    Unknown,
}

/// How sure a diagnosis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Confidence {
    /// Only that something is wrong.
    Low,
    /// From the reason alone.
    Medium,
    /// From the typed details of the note.
    High,
}

/// The object a diagnosis is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ObjectKey {
    /// Kind (`Pod`, `Node`, `GPUPool`, ...), when known.
    pub kind: Option<String>,
    /// Namespace, for namespaced objects.
    pub namespace: Option<String>,
    /// Name, when known.
    pub name: Option<String>,
}

/// What is wrong with one object, and what to do next (`gpu-events explain --diagnose -o json`
/// prints one per line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Diagnosis {
    /// The object.
    pub object: ObjectKey,
    /// The phase it is stuck in.
    pub phase: Phase,
    /// The most likely cause (`unknown` when none is recognized).
    pub cause: Cause,
    /// How sure the cause is.
    pub confidence: Confidence,
    /// The records that support the cause, latest first (at most five), then the latest record.
    #[serde(deserialize_with = "evidence")]
    pub evidence: Vec<EventRecord>,
    /// kubectl commands and checks, with the object's names filled in.
    pub next_steps: Vec<String>,
    /// Other causes the evidence supports, surest and newest first (empty when none; omitted
    /// from JSON then). Causes the top one explains (a shortage behind a scale-up) and the
    /// fallout of an admission failure are not listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_possible: Vec<Alternative>,
}

/// A cause the evidence also supports, below the [`Diagnosis`]'s own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Alternative {
    /// The cause.
    pub cause: Cause,
    /// How sure it is: at most Medium, since the top cause's evidence speaks against it.
    pub confidence: Confidence,
    /// The records that support it, latest first (at most three).
    #[serde(deserialize_with = "evidence")]
    pub evidence: Vec<EventRecord>,
}

/// Evidence read back resolves each reason's catalogue row as the decoders do.
fn evidence<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<EventRecord>, D::Error> {
    let mut records = Vec::<EventRecord>::deserialize(deserializer)?;
    records.iter_mut().for_each(EventRecord::resolve_reason);
    Ok(records)
}

impl Diagnosis {
    /// The object's kind: as the input names it, else the one kind the catalogue gives every
    /// evidence reason (a pasted Events section of a Pod has no kind), else `None`.
    pub fn kind(&self) -> Option<String> {
        steps::likely_kind(&self.object, self.evidence.iter())
    }
}

/// Diagnose every object that has a Warning event or a stuck signal, in object order.
pub fn diagnose(records: &[EventRecord]) -> Vec<Diagnosis> {
    let mut by_object: BTreeMap<ObjectKey, Vec<&EventRecord>> = BTreeMap::new();
    for record in records {
        by_object.entry(ObjectKey::subject_of(record)).or_default().push(record);
    }
    unite_partial_keys(&mut by_object);
    adopt_unnamed_pod(&mut by_object);
    let mut diagnoses: Vec<Diagnosis> =
        by_object.into_iter().filter_map(|(object, records)| diagnose_object(object, &records)).collect();
    inherit_group_causes(&mut diagnoses);
    explain_by_the_node(&mut diagnoses);
    diagnoses
}

/// A name printed without its namespace or kind (a `get pods` row of one namespace, a Pod's YAML
/// without `namespace:`, prose) is the one object of that name the input shows in full: its
/// records join that object's. Two candidates (`default/x` and `gpu/x`, `Pod/x` and `Node/x`)
/// leave it apart; unnamed objects are never joined (they may be anyone).
fn unite_partial_keys(by_object: &mut BTreeMap<ObjectKey, Vec<&EventRecord>>) {
    let partial: Vec<ObjectKey> =
        by_object.keys().filter(|k| k.name.is_some() && (k.namespace.is_none() || k.kind.is_none())).cloned().collect();
    for key in partial {
        let agrees = |a: &Option<String>, b: &Option<String>| a.is_none() || a == b;
        let mut fuller = by_object.keys().filter(|other| {
            **other != key
                && other.name == key.name
                && agrees(&key.kind, &other.kind)
                && agrees(&key.namespace, &other.namespace)
                && (other.kind.is_some() || key.kind.is_none())
                && (other.namespace.is_some() || key.namespace.is_none())
        });
        let (Some(target), None) = (fuller.next().cloned(), fuller.next()) else { continue };
        join_into(by_object, &key, target);
    }
}

/// Move `key`'s records to `target`'s, in input order (which the reading keeps for records of
/// equal time; all records are of one input slice, so their addresses are that order).
fn join_into(by_object: &mut BTreeMap<ObjectKey, Vec<&EventRecord>>, key: &ObjectKey, target: ObjectKey) {
    if let Some(records) = by_object.remove(key) {
        let joined = by_object.entry(target).or_default();
        joined.extend(records);
        joined.sort_by_key(|r| std::ptr::from_ref::<EventRecord>(r) as usize);
    }
}

/// An unnamed Pod's records (an Events table pasted without its describe, a message quoted in
/// prose) beside exactly one Pod the input names (its describe, its YAML, a `get pods` row that
/// shows it stuck) are that Pod's, when their namespaces agree: a person pasting about one Pod
/// shows its events and names it somewhere else. The records keep their own (unnamed)
/// `regarding`; only the diagnosis is the named Pod's (rule 22).
fn adopt_unnamed_pod(by_object: &mut BTreeMap<ObjectKey, Vec<&EventRecord>>) {
    let is_pod = |k: &ObjectKey| k.kind.as_deref() == Some("Pod");
    let mut named = by_object.keys().filter(|k| is_pod(k) && k.name.is_some());
    let (Some(pod), None) = (named.next().cloned(), named.next()) else { return };
    let unnamed: Vec<ObjectKey> = by_object
        .keys()
        .filter(|k| {
            k.name.is_none()
                && (k.kind.is_none() || is_pod(k))
                && (k.namespace.is_none() || pod.namespace.is_none() || k.namespace == pod.namespace)
        })
        .cloned()
        .collect();
    for key in unnamed {
        join_into(by_object, &key, pod.clone());
    }
}

/// Node causes that leave a Pod waiting for a GPU on that node (rule 20).
const NODE_GPU_CAUSES: &[Cause] = &[
    Cause::DevicePluginMissing,
    Cause::NvidiaRuntimeMissing,
    Cause::CudaDriverMismatch,
    Cause::DevicePluginUnavailable,
    Cause::DeviceFault,
];

/// Rule 20: the one node that serves no GPU, or serves them badly, explains the Pods waiting for
/// one.
fn explain_by_the_node(diagnoses: &mut [Diagnosis]) {
    let nodes: Vec<Diagnosis> = diagnoses
        .iter()
        .filter(|d| d.kind().as_deref() == Some("Node") && NODE_GPU_CAUSES.contains(&d.cause))
        .cloned()
        .collect();
    let [node] = nodes.as_slice() else { return };
    for diagnosis in diagnoses.iter_mut() {
        let waiting = matches!(diagnosis.cause, Cause::InsufficientGpu | Cause::DevicePluginMissing | Cause::Unknown)
            && matches!(diagnosis.phase, Phase::Pending | Phase::ContainerCreating | Phase::Unknown);
        if !waiting || diagnosis.cause == node.cause || !matches!(diagnosis.kind().as_deref(), Some("Pod") | None) {
            continue;
        }
        if diagnosis.cause != Cause::Unknown {
            let own = Alternative {
                cause: diagnosis.cause,
                confidence: diagnosis.confidence.min(Confidence::Medium),
                evidence: diagnosis.evidence.iter().take(3).cloned().collect(),
            };
            diagnosis.also_possible.retain(|a| a.cause != node.cause && a.cause != own.cause);
            diagnosis.also_possible.insert(0, own);
        }
        diagnosis.cause = node.cause;
        diagnosis.confidence = node.confidence.min(Confidence::Medium);
        let own = std::mem::take(&mut diagnosis.evidence);
        diagnosis.evidence = node.evidence.iter().take(3).cloned().chain(own).collect();
        diagnosis.next_steps.clone_from(&node.next_steps);
    }
}

/// Kinds whose objects stand for a group of Pods that wait together (a gang, a job, a queued
/// workload): when one is stuck on a cause, its Pods are stuck on it too (rule 16).
const GROUP_KINDS: &[&str] = &["PodGroup", "Job", "Workload", "TensorFusionWorkload", "RayCluster", "RayJob"];

/// Whether `member` (a Pod, or the Job of a PodGroup) belongs to `group` by the names the
/// controllers give: Volcano's Pods are `<job>-<task>-<index>` and its PodGroups `<job>` or
/// `<job>-<uid>`, a Job's Pods `<job>-<suffix>`, KAI's PodGroups `pg-<pod>-<uid>`, Kueue's
/// Workloads `<kind>-<name>-<hash>`. An unnamed group is anyone's when it is the only group.
fn member_of(member: &ObjectKey, group: &ObjectKey, only_group: bool) -> bool {
    let namespaces_agree = match (&member.namespace, &group.namespace) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    let named = match (member.name.as_deref(), group.name.as_deref()) {
        (Some(m), Some(g)) => {
            let prefix = |long: &str, short: &str| long.strip_prefix(short).is_some_and(|rest| rest.starts_with('-'));
            prefix(m, g) || prefix(g, m) || (m.len() >= 4 && g.split('-').count() > 2 && g.contains(m))
        }
        (Some(_), None) => only_group,
        _ => false,
    };
    namespaces_agree && named
}

/// Rule 16: a Pod (or a Job) seen waiting with no cause of its own takes the cause of the group
/// it belongs to (its PodGroup, Job or Workload, [`member_of`]), at most Medium: the group's
/// events are about it, not its own. Its evidence leads with the group's.
fn inherit_group_causes(diagnoses: &mut [Diagnosis]) {
    let group_kind = |d: &Diagnosis| d.kind().is_some_and(|k| GROUP_KINDS.contains(&k.as_str()));
    let groups: Vec<Diagnosis> =
        diagnoses.iter().filter(|d| d.cause != Cause::Unknown && group_kind(d)).cloned().collect();
    let only_group = groups.len() == 1;
    for diagnosis in diagnoses.iter_mut().filter(|d| d.cause == Cause::Unknown) {
        let kind = diagnosis.kind();
        let may_inherit = matches!(kind.as_deref(), Some("Pod" | "Job") | None);
        if !may_inherit || diagnosis.object.name.is_none() {
            continue;
        }
        let found = groups.iter().find(|group| {
            group.object != diagnosis.object
                && member_of(&diagnosis.object, &group.object, only_group)
                // A Job takes only a PodGroup's cause (its own gang), not another Job's.
                && (kind.as_deref() != Some("Job") || group.object.kind.as_deref() == Some("PodGroup"))
        });
        if let Some(group) = found {
            diagnosis.cause = group.cause;
            diagnosis.confidence = group.confidence.min(Confidence::Medium);
            let own = std::mem::take(&mut diagnosis.evidence);
            diagnosis.evidence = group.evidence.iter().cloned().chain(own).collect();
            diagnosis.next_steps.clone_from(&group.next_steps);
        }
    }
}

impl ObjectKey {
    /// The regarding object of a record.
    pub fn of(record: &EventRecord) -> ObjectKey {
        ObjectKey {
            kind: record.regarding.kind.clone(),
            namespace: record.regarding.namespace.clone(),
            name: record.regarding.name.clone(),
        }
    }

    /// The object a record is evidence about: its regarding object, except for an event a
    /// Kubeflow controller copied from an object it owns (`Reissued from pod/NAME: ...` on the
    /// Notebook, its `related`), which is about that object, in the same namespace (rule 23).
    fn subject_of(record: &EventRecord) -> ObjectKey {
        match &record.related {
            Some(related) if record.note.starts_with("Reissued from ") && related.name.is_some() => ObjectKey {
                kind: related.kind.clone(),
                namespace: record.regarding.namespace.clone(),
                name: related.name.clone(),
            },
            _ => ObjectKey::of(record),
        }
    }
}

fn diagnose_object(object: ObjectKey, records: &[&EventRecord]) -> Option<Diagnosis> {
    let mut readings: Vec<Reading> = records.iter().enumerate().map(|(i, r)| Reading::of(r, i)).collect();
    let (phase, cause, confidence) = conclude(&mut readings, object.kind.as_deref() == Some("Node"))?;
    // Churn is read from the nominations together, not from one record's signal.
    // The shortage a failed or pending scale-up answers is part of the story: it is evidence.
    let supports = |r: &Reading| {
        r.signal.cause.is_some_and(|(c, _)| c == cause || reading::explains(cause, c))
            || (cause == Cause::NodeNeverReady && r.claim.is_some())
    };
    let supporting: Vec<&EventRecord> = readings.iter().filter(|r| supports(r)).map(|r| records[r.index]).collect();
    let mut evidence: Vec<EventRecord> = supporting.iter().take(5).map(|r| (*r).clone()).collect();
    if let Some(latest) = readings.first().map(|r| records[r.index])
        && !evidence.iter().any(|e| e == latest)
    {
        evidence.push(latest.clone());
    }
    // Steps read every supporting record: the one error that names a missing Secret may be
    // older than the last five timeouts.
    let next_steps = steps::next_steps(cause, &object, &supporting, &evidence);
    // A runner-up is never surer than the diagnosis: the evidence that made the diagnosis less
    // sure (another cause) speaks against the runner-up as much.
    let also_possible = reading::alternatives(&readings, phase, cause)
        .into_iter()
        .map(|(alternative, surety)| Alternative {
            cause: alternative,
            confidence: surety.min(confidence),
            evidence: readings
                .iter()
                .filter(|r| r.signal.cause.is_some_and(|(c, _)| c == alternative) || r.signal.also == Some(alternative))
                .take(3)
                .map(|r| records[r.index].clone())
                .collect(),
        })
        .collect();
    Some(Diagnosis { object, phase, cause, confidence, evidence, next_steps, also_possible })
}

/// Counts over a stream of records (`gpu-events explain --summary`), keeping one small reading
/// per record instead of the records, so a 200 000-event dump is summarized in bounded memory.
#[derive(Debug, Default)]
pub struct Summary {
    records: u64,
    unrecognized: u64,
    by_reason: BTreeMap<String, u64>,
    /// Each object's readings, in the order objects were first seen.
    objects: Vec<(ObjectKey, Vec<Reading>)>,
    /// Hash of an object's (kind, namespace, name) to its places in `objects`: looked up with
    /// the record's own strings, so only a new object allocates its key.
    index: foldhash::HashMap<u64, Vec<usize>>,
}

/// The result of a [`Summary`]: `{"records": N, "byReason": {...}, "byCause": {...},
/// "unrecognized": N}`. `byCause` counts diagnosed objects per cause id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SummaryReport {
    /// Records read.
    pub records: u64,
    /// Records per reason string.
    pub by_reason: BTreeMap<String, u64>,
    /// Diagnosed objects per cause id.
    pub by_cause: BTreeMap<String, u64>,
    /// Records whose note did not match its reason's grammar.
    pub unrecognized: u64,
}

/// One record's share of a [`Summary`], taken apart from it: built where the record is (a
/// decoding thread, see `Decoder::parallel_map`), so the record is dropped there and only this
/// small value travels. Add it with [`Summary::add_entry`], in input order.
#[derive(Debug)]
pub struct SummaryEntry {
    reason: crate::ReasonName,
    unrecognized: bool,
    object: ObjectKey,
    reading: Reading,
}

impl SummaryEntry {
    /// The entry of one record (its reason, object and reading; the rest is dropped).
    pub fn of(record: EventRecord) -> SummaryEntry {
        let reading = Reading::of(&record, 0);
        let unrecognized = record.has_flag(crate::record::Flag::UnrecognizedNote);
        let r = record.regarding;
        SummaryEntry {
            reason: record.reason,
            unrecognized,
            object: ObjectKey { kind: r.kind, namespace: r.namespace, name: r.name },
            reading,
        }
    }
}

impl Summary {
    /// Count one record.
    pub fn add(&mut self, record: &EventRecord) {
        self.count(record.reason.as_str(), record.has_flag(crate::record::Flag::UnrecognizedNote));
        let (hash, found) = self.find(&record.regarding.kind, &record.regarding.namespace, &record.regarding.name);
        let at = found.unwrap_or_else(|| self.new_object(hash, ObjectKey::of(record)));
        self.push_reading(at, Reading::of(record, 0));
    }

    /// Count one record from its [`SummaryEntry`]; the same as [`Summary::add`] of the record.
    pub fn add_entry(&mut self, entry: SummaryEntry) {
        let SummaryEntry { reason, unrecognized, object, reading } = entry;
        self.count(reason.as_str(), unrecognized);
        let (hash, found) = self.find(&object.kind, &object.namespace, &object.name);
        let at = found.unwrap_or_else(|| self.new_object(hash, object));
        self.push_reading(at, reading);
    }

    fn count(&mut self, reason: &str, unrecognized: bool) {
        self.records += 1;
        if unrecognized {
            self.unrecognized += 1;
        }
        match self.by_reason.get_mut(reason) {
            Some(count) => *count += 1,
            None => {
                self.by_reason.insert(reason.to_owned(), 1);
            }
        }
    }

    /// The object's hash and its place, when it was seen before.
    fn find(&self, kind: &Option<String>, namespace: &Option<String>, name: &Option<String>) -> (u64, Option<usize>) {
        let object = (kind.as_deref(), namespace.as_deref(), name.as_deref());
        let hash = std::hash::BuildHasher::hash_one(&foldhash::fast::FixedState::default(), object);
        let found = self.index.get(&hash).and_then(|places| {
            places.iter().copied().find(|&at| {
                let key = &self.objects[at].0;
                (key.kind.as_deref(), key.namespace.as_deref(), key.name.as_deref()) == object
            })
        });
        (hash, found)
    }

    fn new_object(&mut self, hash: u64, key: ObjectKey) -> usize {
        self.index.entry(hash).or_default().push(self.objects.len());
        self.objects.push((key, Vec::new()));
        self.objects.len() - 1
    }

    fn push_reading(&mut self, at: usize, mut reading: Reading) {
        let readings = &mut self.objects[at].1;
        reading.index = readings.len();
        readings.push(reading);
    }

    /// The counts, with each object diagnosed.
    pub fn finish(self) -> SummaryReport {
        let mut by_cause = BTreeMap::new();
        for (object, mut readings) in self.objects {
            if let Some((_, cause, _)) = conclude(&mut readings, object.kind.as_deref() == Some("Node")) {
                *by_cause.entry(cause.id().to_owned()).or_insert(0) += 1;
            }
        }
        SummaryReport { records: self.records, by_reason: self.by_reason, by_cause, unrecognized: self.unrecognized }
    }
}
/// The cause one record points at on its own, with how sure the reading is; `None` when the
/// record alone names no cause (a Normal event, an unknown reason). For streams (exporters,
/// metrics, alerts), where records arrive one by one; [`diagnose`] weighs a whole object's
/// events instead.
pub fn cause_of(record: &EventRecord) -> Option<(Cause, Confidence)> {
    signal::read(record).cause
}
