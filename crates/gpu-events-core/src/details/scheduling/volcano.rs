//! Volcano scheduler and job-controller notes.
//!
//! Sources: volcano-sh/volcano `pkg/scheduler/api/job_info.go` (`FitError`,
//! `TaskSchedulingReason`), `pkg/scheduler/api/unschedule_info.go` (`FitErrors.Error`),
//! `pkg/scheduler/cache/cache.go` (`taskUnschedulable`, PodGroup events),
//! `pkg/scheduler/plugins/{capacity,proportion,overcommit}` and `pkg/scheduler/util`
//! `FormatResourceNames`, `pkg/controllers/job/job_controller_actions.go` (`PodGroupPending`);
//! ed72c7c8 (v1.16.0-alpha.1) and the older wordings noted on each type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::SchedulingDetails;
use super::failed_scheduling::SchedulingError;
use super::fit_error::{FitError, count_prefix, split_entries};
use crate::details::template::captures;
use crate::details::{Details, Grammar, Note};

/// The job (PodGroup) fit error, `JobInfo.FitError()`:
/// `pod group is not ready, 6 Pending, 6 minAvailable; Pending: 3 Unschedulable, 3 Schedulable`
/// optionally followed by `. Origin reason is ...`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoJobFit {
    /// `pod group is ready` (true) or `pod group is not ready` (false); the kube-batch era
    /// wrote `job is (not) ready`.
    pub ready: bool,
    /// Tasks per status (`Pending`, `Allocated`, `Pipelined`, `Binding`, `Bound`, `Running`,
    /// `Releasing`, `Succeeded`, `Failed`, `Unknown`), `minAvailable` excluded; counts of tasks.
    pub tasks: Vec<TaskCount>,
    /// The PodGroup's minAvailable (count of tasks), from the `N minAvailable` entry.
    pub min_available: Option<u32>,
    /// The `; Pending: ` section: pending tasks per scheduling reason (`Unschedulable`,
    /// `Schedulable`, ...).
    pub pending: Vec<TaskCount>,
    /// Other `; `-separated sections of newer releases (`HyperNode: ...`, `Node: ...`), as
    /// written.
    pub extra: Vec<String>,
    /// The `. Origin reason is ...` tail: the first failure that explains the others.
    pub origin: Option<VolcanoOrigin>,
}

/// A `<count> <label>` entry of a Volcano job histogram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskCount {
    /// Number of tasks (count).
    pub count: u32,
    /// The task status or scheduling reason, as written.
    pub label: String,
}

/// `. Origin reason is: %s` (the job's own error, e.g. an enqueue failure) or
/// `. Origin reason is %v: %v` (the first task with node fit errors, and those errors).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoOrigin {
    /// The task (Pod) name, in the per-task form.
    pub task: Option<String>,
    /// The origin error as written.
    pub message: String,
    /// The message parsed as a node FitError (`0/N nodes are unavailable: ...`), when it is one.
    pub fit_error: Option<FitError>,
}

const READY_PREFIXES: &[(&str, bool)] = &[
    ("pod group is not ready", false),
    ("pod group is ready", true),
    ("job is not ready", false),
    ("job is ready", true),
];

impl VolcanoJobFit {
    /// Parse a job fit error; `None` if the text does not start with the PodGroup status.
    pub fn parse(note: &str) -> Option<Self> {
        let text = note.trim();
        let (ready, rest) =
            READY_PREFIXES.iter().find_map(|(prefix, ready)| Some((*ready, text.strip_prefix(prefix)?)))?;
        let (main, origin) = match rest.find(". Origin reason is") {
            Some(at) => (&rest[..at], Some(&rest[at + ". Origin reason is".len()..])),
            None => (rest, None),
        };
        let main = main.strip_suffix('.').unwrap_or(main);
        let main = if main.is_empty() { main } else { main.strip_prefix(", ")? };
        let mut sections = main.split("; ");
        let mut tasks = task_counts(sections.next().unwrap_or(""))?;
        let min_available = tasks.iter().position(|t| t.label == "minAvailable").map(|at| tasks.remove(at).count);
        let mut pending = Vec::new();
        let mut extra = Vec::new();
        for section in sections {
            match section.strip_prefix("Pending: ") {
                Some(counts) => pending = task_counts(counts)?,
                None => extra.push(section.to_owned()),
            }
        }
        let origin = match origin {
            None => None,
            Some(origin) => Some(parse_origin(origin)?),
        };
        Some(VolcanoJobFit { ready, tasks, min_available, pending, extra, origin })
    }
}

fn task_counts(text: &str) -> Option<Vec<TaskCount>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    split_entries(text)
        .map(|entry| {
            let (count, label) = count_prefix(entry)?;
            Some(TaskCount { count, label: label.to_owned() })
        })
        .collect()
}

fn parse_origin(origin: &str) -> Option<VolcanoOrigin> {
    let (task, message) = if let Some(message) = origin.strip_prefix(": ") {
        (None, message)
    } else {
        let (task, message) = origin.strip_prefix(' ')?.split_once(": ")?;
        (Some(task.to_owned()), message)
    };
    Some(VolcanoOrigin { task, message: message.to_owned(), fit_error: FitError::parse(message) })
}

/// `Pod %s/%s can possibly be assigned to %s, once minAvailable is satisfied` (task allocated,
/// gang incomplete) or `..., once resource is released and minAvailable is satisfied`
/// (pipelined onto resources still held by other Pods).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoPossiblyAssigned {
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
    /// The node the Pod would go to.
    pub node: String,
    /// Whether it also waits for resources to be released (pipelined).
    pub waits_for_release: bool,
}

impl VolcanoPossiblyAssigned {
    /// The allocated form.
    pub const FORMAT: &'static str = "Pod %s/%s can possibly be assigned to %s, once minAvailable is satisfied";
    /// The pipelined form.
    pub const PIPELINED_FORMAT: &'static str =
        "Pod %s/%s can possibly be assigned to %s, once resource is released and minAvailable is satisfied";

    /// Parse either form.
    pub fn parse(note: &str) -> Option<Self> {
        let note = note.trim();
        let ([namespace, pod, node], waits_for_release) = match captures(Self::PIPELINED_FORMAT, note) {
            Some(c) => (c, true),
            None => (captures(Self::FORMAT, note)?, false),
        };
        Some(VolcanoPossiblyAssigned {
            namespace: namespace.to_owned(),
            pod: pod.to_owned(),
            node: node.to_owned(),
            waits_for_release,
        })
    }
}

/// PodGroup `Unschedulable` (Warning): `%v/%v tasks in gang unschedulable: %v`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoGangUnschedulable {
    /// Tasks that could not be scheduled (count).
    pub unschedulable_tasks: u32,
    /// All tasks of the gang (count).
    pub total_tasks: u32,
    /// The job fit error after the colon.
    pub job_fit: VolcanoJobFit,
}

impl VolcanoGangUnschedulable {
    /// The Go format.
    pub const FORMAT: &'static str = "%v/%v tasks in gang unschedulable: %v";

    /// Parse a note of this format.
    pub fn parse(note: &str) -> Option<Self> {
        let [unschedulable, total, fit] = captures(Self::FORMAT, note.trim())?;
        Some(VolcanoGangUnschedulable {
            unschedulable_tasks: unschedulable.parse().ok()?,
            total_tasks: total.parse().ok()?,
            job_fit: VolcanoJobFit::parse(fit)?,
        })
    }
}

/// Why the queue plugins keep a PodGroup from being enqueued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum EnqueueLimit {
    /// capacity / proportion: `queue resource quota insufficient`.
    QueueQuotaInsufficient,
    /// overcommit: `resource in cluster is overused`.
    ClusterOverused,
}

/// PodGroup `Unschedulable` (Normal) from the queue plugins: `queue resource quota
/// insufficient[: insufficient <res>, ...]` or `resource in cluster is overused[: ...]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoEnqueueRejected {
    /// Which limit blocks the PodGroup.
    pub limit: EnqueueLimit,
    /// The resources named after the colon (`nvidia.com/gpu` of `insufficient nvidia.com/gpu`);
    /// empty in releases that name none.
    pub resources: Vec<String>,
}

impl VolcanoEnqueueRejected {
    /// Parse a note of either plugin.
    pub fn parse(note: &str) -> Option<Self> {
        let note = note.trim();
        let (limit, rest) = if let Some(rest) = note.strip_prefix("queue resource quota insufficient") {
            (EnqueueLimit::QueueQuotaInsufficient, rest)
        } else {
            (EnqueueLimit::ClusterOverused, note.strip_prefix("resource in cluster is overused")?)
        };
        let resources = if rest.is_empty() {
            Vec::new()
        } else {
            rest.strip_prefix(": ")?
                .split(", ")
                .map(|part| part.split_once(' ').map_or(part, |(_, r)| r).to_owned())
                .collect()
        };
        Some(VolcanoEnqueueRejected { limit, resources })
    }
}

/// Job `PodGroupPending` (vc-controller-manager): `PodGroup %s:%s %s, reason: %s`, older
/// `PodGroup %s:%s unschedule,reason: %s`: the PodGroup condition copied onto the Job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolcanoPodGroupPending {
    /// Job (and PodGroup) namespace.
    pub namespace: String,
    /// PodGroup name.
    pub pod_group: String,
    /// The condition type as written (lower-cased, e.g. `unschedulable`; `unschedule` in the
    /// older form).
    pub condition: String,
    /// The condition message as written.
    pub message: String,
    /// The message parsed as the gang status, when it is one.
    pub gang: Option<VolcanoGangUnschedulable>,
}

impl VolcanoPodGroupPending {
    /// Parse either form.
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.trim().strip_prefix("PodGroup ")?;
        let (namespace, rest) = rest.split_once(':')?;
        let (pod_group, rest) = rest.split_once(' ')?;
        let (condition, message) = match rest.strip_prefix("unschedule,reason: ") {
            Some(message) => ("unschedule", message),
            None => rest.split_once(", reason: ")?,
        };
        if namespace.is_empty() || pod_group.is_empty() || condition.is_empty() {
            return None;
        }
        Some(VolcanoPodGroupPending {
            namespace: namespace.to_owned(),
            pod_group: pod_group.to_owned(),
            condition: condition.to_owned(),
            message: message.to_owned(),
            gang: VolcanoGangUnschedulable::parse(message),
        })
    }
}

/// Parse a Volcano `FailedScheduling` note on a Pod.
fn parse_failed_scheduling(note: &str) -> Option<SchedulingDetails> {
    let text = note.trim();
    if text.is_empty() {
        return None;
    }
    if text.starts_with("0/") || text.starts_with("In hyperNode ") || text.starts_with("all nodes are unavailable") {
        return FitError::parse(text).map(SchedulingDetails::FitError);
    }
    if let Some(d) = VolcanoJobFit::parse(text) {
        return Some(SchedulingDetails::VolcanoJobFit(d));
    }
    if let Some(d) = VolcanoPossiblyAssigned::parse(text) {
        return Some(SchedulingDetails::VolcanoPossiblyAssigned(d));
    }
    Some(SchedulingDetails::SchedulingError(SchedulingError { message: text.to_owned() }))
}

/// Grammar of Volcano `FailedScheduling` (on Pods).
pub(crate) static VOLCANO_FAILED_SCHEDULING: Grammar = Grammar::new(
    &[FitError::KIND, VolcanoJobFit::KIND, VolcanoPossiblyAssigned::KIND, SchedulingError::KIND],
    |note: &Note<'_>| parse_failed_scheduling(note.text).map(Details::Scheduling),
);

/// Grammar of Volcano `Unschedulable` (on PodGroups).
pub(crate) static VOLCANO_UNSCHEDULABLE: Grammar =
    Grammar::new(&[VolcanoGangUnschedulable::KIND, VolcanoEnqueueRejected::KIND], |note: &Note<'_>| {
        let details = match VolcanoGangUnschedulable::parse(note.text) {
            Some(d) => SchedulingDetails::VolcanoGangUnschedulable(d),
            None => SchedulingDetails::VolcanoEnqueueRejected(VolcanoEnqueueRejected::parse(note.text)?),
        };
        Some(Details::Scheduling(details))
    });

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::scheduling::NodeReason;

    fn counts(tasks: &[TaskCount]) -> Vec<(u32, &str)> {
        tasks.iter().map(|t| (t.count, t.label.as_str())).collect()
    }

    #[test]
    fn gang_unschedulable_with_pending_section() {
        let gang = VolcanoGangUnschedulable::parse(
            "3/6 tasks in gang unschedulable: pod group is not ready, 6 Pending, 6 minAvailable; Pending: 3 Unschedulable, 3 Schedulable",
        )
        .unwrap();
        assert_eq!((gang.unschedulable_tasks, gang.total_tasks), (3, 6));
        let fit = &gang.job_fit;
        assert!(!fit.ready);
        assert_eq!(counts(&fit.tasks), [(6, "Pending")]);
        assert_eq!(fit.min_available, Some(6));
        assert_eq!(counts(&fit.pending), [(3, "Unschedulable"), (3, "Schedulable")]);
        assert_eq!(fit.origin, None);

        let gang = VolcanoGangUnschedulable::parse(
            "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable; Pending: 1 Unschedulable",
        )
        .unwrap();
        assert_eq!(counts(&gang.job_fit.pending), [(1, "Unschedulable")]);

        let gang =
            VolcanoGangUnschedulable::parse("0/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable")
                .unwrap();
        assert!(gang.job_fit.tasks.is_empty());
        assert_eq!(gang.job_fit.min_available, Some(1));
    }

    #[test]
    fn origin_reason_with_node_fit_error() {
        let fit = VolcanoJobFit::parse(
            "pod group is not ready, 33 Pending, 33 minAvailable; Pending: 16 Schedulable, 17 Unschedulable. Origin reason is overflow-gang-16: 0/7 nodes are unavailable: 7 Insufficient nvidia.com/gpu.",
        )
        .unwrap();
        let origin = fit.origin.unwrap();
        assert_eq!(origin.task.as_deref(), Some("overflow-gang-16"));
        let node_fit = origin.fit_error.unwrap();
        assert_eq!(node_fit.total_nodes, Some(7));
        assert_eq!(node_fit.insufficient("nvidia.com/gpu"), Some(7));

        let fit = VolcanoJobFit::parse(
            "pod group is not ready, 6 Pending, 6 minAvailable; Pending: 3 Schedulable, 3 Unschedulable. Origin reason is task-6: 0/3 nodes are unavailable: 1 node(s) pod number exceeded, 2 node(s) resource fit failed.",
        )
        .unwrap();
        let node_fit = fit.origin.unwrap().fit_error.unwrap();
        assert!(matches!(node_fit.reasons[0].reason, NodeReason::TooManyPods { .. }));

        let fit = VolcanoJobFit::parse(
            "pod group is not ready, 2 Pending, 2 minAvailable. Origin reason is: queue q1 is closed",
        )
        .unwrap();
        let origin = fit.origin.unwrap();
        assert_eq!((origin.task, origin.message.as_str()), (None, "queue q1 is closed"));
        assert_eq!(origin.fit_error, None);
    }

    #[test]
    fn failed_scheduling_forms() {
        let kind = |note: &str| parse_failed_scheduling(note).map(|d| d.kind());
        assert_eq!(kind("0/7 nodes are unavailable: 7 Insufficient nvidia.com/gpu."), Some("fitError"));
        assert_eq!(kind("In hyperNode s1: 0/2 nodes are unavailable: 2 Insufficient cpu."), Some("fitError"));
        assert_eq!(kind("all nodes are unavailable"), Some("fitError"));
        assert_eq!(
            kind("pod group is not ready, 1 Pending, 1 minAvailable; Pending: 1 Unschedulable"),
            Some("volcanoJobFit")
        );
        assert_eq!(
            kind("Pod ml/w-0 can possibly be assigned to node-a, once minAvailable is satisfied"),
            Some("volcanoPossiblyAssigned")
        );
        assert_eq!(kind("plugin predicates failed"), Some("schedulingError"));
        assert_eq!(kind("0/x nodes are unavailable: 1 a."), None);

        let p = VolcanoPossiblyAssigned::parse(
            "Pod ml/w-0 can possibly be assigned to node-a, once resource is released and minAvailable is satisfied",
        )
        .unwrap();
        assert_eq!(
            (p.namespace.as_str(), p.pod.as_str(), p.node.as_str(), p.waits_for_release),
            ("ml", "w-0", "node-a", true)
        );
        let p = VolcanoPossiblyAssigned::parse(
            "Pod ml/w-0 can possibly be assigned to node-a, once minAvailable is satisfied",
        )
        .unwrap();
        assert!(!p.waits_for_release);
    }

    #[test]
    fn enqueue_rejections() {
        let r = VolcanoEnqueueRejected::parse("queue resource quota insufficient").unwrap();
        assert_eq!(r.limit, EnqueueLimit::QueueQuotaInsufficient);
        assert!(r.resources.is_empty());
        let r = VolcanoEnqueueRejected::parse(
            "queue resource quota insufficient: insufficient nvidia.com/gpu, insufficient cpu",
        )
        .unwrap();
        assert_eq!(r.resources, ["nvidia.com/gpu", "cpu"]);
        let r = VolcanoEnqueueRejected::parse("resource in cluster is overused").unwrap();
        assert_eq!(r.limit, EnqueueLimit::ClusterOverused);
        assert_eq!(VolcanoEnqueueRejected::parse("queue is closed"), None);
        assert_eq!(VolcanoEnqueueRejected::parse("queue resource quota insufficientX"), None);
    }

    #[test]
    fn pod_group_pending_both_forms() {
        let p = VolcanoPodGroupPending::parse(
            "PodGroup ml:train-pg unschedulable, reason: 3/6 tasks in gang unschedulable: pod group is not ready, 6 Pending, 6 minAvailable; Pending: 3 Unschedulable, 3 Schedulable",
        )
        .unwrap();
        assert_eq!(
            (p.namespace.as_str(), p.pod_group.as_str(), p.condition.as_str()),
            ("ml", "train-pg", "unschedulable")
        );
        assert_eq!(p.gang.unwrap().unschedulable_tasks, 3);
        let p = VolcanoPodGroupPending::parse("PodGroup ml:train unschedule,reason: quota").unwrap();
        assert_eq!((p.condition.as_str(), p.message.as_str()), ("unschedule", "quota"));
        assert_eq!(p.gang, None);
    }

    #[test]
    fn near_misses() {
        assert_eq!(VolcanoGangUnschedulable::parse("x/6 tasks in gang unschedulable: pod group is not ready"), None);
        assert_eq!(VolcanoGangUnschedulable::parse("3/6 tasks in gang unschedulable: queue closed"), None);
        assert_eq!(VolcanoJobFit::parse("pod group is not ready; 6 Pending"), None);
        assert_eq!(VolcanoJobFit::parse("pod group is not ready, Pending 6"), None);
        assert_eq!(VolcanoJobFit::parse("podgroup is not ready, 6 Pending"), None);
        assert_eq!(VolcanoPossiblyAssigned::parse("Pod w-0 can possibly be assigned to node-a"), None);
        assert_eq!(VolcanoPodGroupPending::parse("PodGroup ml train"), None);
        assert_eq!(VOLCANO_UNSCHEDULABLE.parse(&Note::new("pod group is ready")).kind(), "unrecognized");
    }
}
