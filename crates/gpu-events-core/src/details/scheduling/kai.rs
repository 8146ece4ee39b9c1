//! KAI-Scheduler `Unschedulable` notes.
//!
//! Source: kai-scheduler/KAI-Scheduler `pkg/scheduler/api/common_info/pod_errors.go`
//! (`TasksFitErrors.Error`) and `job_errors.go` (`JobFitErrorsToMessage`), d5bc503a (v0.17.0);
//! the capitalised `No nodes with enough resources were found` of earlier releases is seen in
//! real dumps (`045-kai-scheduler-unschedulable-no-age.txt`). Grammar:
//!
//! ```text
//! MSG   := SUMMARY [": " ENTRY {". \n" ENTRY} "."]
//! ENTRY := [COUNT " "] REASON     -- the job histogram omits a count of 1
//! ```
//!
//! SUMMARY is `no nodes with enough resources were found`, `Unable to schedule podgroup`,
//! `Not enough resources for the workload`, or a job's own unschedulable reason. REASON is
//! `node(s) didn't have enough resources: GPUs|GPU memory|CPU cores|memory|<resource>`,
//! `node(s) didn't have enough of mig profile: <profile>`, `node-group(s) ...` for topology,
//! or a Kubernetes predicate text. Queue and quota explanations are free text (no entries).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fit_error::{ReasonCount, count_prefix};
use super::node_reason::NodeReason;

/// A KAI-Scheduler explanation of why a Pod or PodGroup is not scheduled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KaiUnschedulable {
    /// The summary before the histogram (e.g. `No nodes with enough resources were found`), or
    /// the whole note (without its final period) when it has no histogram.
    pub summary: String,
    /// The histogram: how many nodes (or node groups, or tasks) reported each reason, in
    /// message order. An entry written without a count has count 1.
    pub reasons: Vec<ReasonCount>,
}

impl KaiUnschedulable {
    /// Parse a KAI-Scheduler note; `None` only for an empty note.
    pub fn parse(note: &str) -> Option<Self> {
        let text = note.trim();
        if text.is_empty() {
            return None;
        }
        // A PodGroup's condition (`Resources were found for 5 pods while 17 are required for gang
        // scheduling. Additional pods cannot be scheduled due to: <error>`, `Resources were not
        // found for pod NS/P due to: <error>`): the gang sentence is the summary, the
        // allocation error's histogram the reasons.
        if text.starts_with("Resources were ")
            && let Some((gang, error)) = text.split_once(" due to: ")
        {
            let inner = Self::parse(error)?;
            return Some(KaiUnschedulable { summary: gang.trim().to_owned(), reasons: inner.reasons });
        }
        if let Some((summary, body)) = text.split_once(": ")
            && looks_like_entry(body)
        {
            let body = body.trim_end().trim_end_matches('.');
            let reasons = split_kai_entries(body)
                .into_iter()
                .filter(|entry| !entry.is_empty())
                .map(|entry| match count_prefix(entry) {
                    Some((count, reason)) => ReasonCount::new(count, NodeReason::parse(reason)),
                    None => ReasonCount::new(1, NodeReason::parse(entry)),
                })
                .collect();
            return Some(KaiUnschedulable { summary: summary.trim().to_owned(), reasons });
        }
        Some(KaiUnschedulable { summary: text.trim_end_matches('.').to_owned(), reasons: Vec::new() })
    }
}

/// An entry starts with a count or with `node`.
fn looks_like_entry(text: &str) -> bool {
    count_prefix(text).is_some() || text.starts_with("node")
}

/// Split on `.` + optional blanks + newline (`". \n"` as KAI joins), or on `. ` followed by
/// something that looks like an entry (when the newlines were flattened).
fn split_kai_entries(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut from = 0;
    while let Some(found) = body[from..].find('.') {
        let dot = from + found;
        let after = &body[dot + 1..];
        let blanks = after.trim_start_matches([' ', '\t', '\r']);
        let next = if let Some(rest) = blanks.strip_prefix('\n') {
            Some(body.len() - rest.trim_start().len())
        } else if let Some(rest) = after.strip_prefix(' ')
            && looks_like_entry(rest)
        {
            Some(dot + 2)
        } else {
            None
        };
        match next {
            Some(next) => {
                out.push(body[start..dot].trim());
                start = next;
                from = next;
            }
            None => from = dot + 1,
        }
    }
    out.push(body[start..].trim());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_podgroups_gang_condition_keeps_the_allocation_errors_histogram() {
        // corpus 253 (KAI on GB200 NVL72, ComputeDomain claims).
        let k = super::KaiUnschedulable::parse("Resources were found for 5 pods while 17 are required for gang scheduling. Additional pods cannot be scheduled due to: no nodes with enough resources were found: 12 cannot allocate all claims.").unwrap();
        assert_eq!(
            k.summary,
            "Resources were found for 5 pods while 17 are required for gang scheduling. Additional pods cannot be scheduled"
        );
        assert_eq!(k.reasons.len(), 1);
        assert_eq!(k.reasons[0].count, 12);
        assert!(matches!(k.reasons[0].reason, super::NodeReason::Dra { .. }), "{:?}", k.reasons[0].reason);
    }

    use super::*;

    fn entries(k: &KaiUnschedulable) -> Vec<(u32, &str)> {
        k.reasons.iter().map(|e| (e.count, e.reason.text())).collect()
    }

    #[test]
    fn case_045_and_lowercase_head() {
        let k = KaiUnschedulable::parse(
            "No nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.",
        )
        .unwrap();
        assert_eq!(k.summary, "No nodes with enough resources were found");
        assert_eq!(entries(&k), [(2, "node(s) didn't have enough resources: GPUs")]);
        assert_eq!(k.reasons[0].reason.insufficient_resource(), Some("GPUs"));

        let k = KaiUnschedulable::parse(
            "no nodes with enough resources were found: 1 node(s) didn't have enough resources: GPU memory. \n3 node(s) didn't match Pod's node affinity/selector.",
        )
        .unwrap();
        assert_eq!(
            entries(&k),
            [
                (1, "node(s) didn't have enough resources: GPU memory"),
                (3, "node(s) didn't match Pod's node affinity/selector")
            ]
        );
        assert!(matches!(k.reasons[1].reason, NodeReason::NodeAffinity { .. }));
    }

    #[test]
    fn flattened_newlines_and_counts_of_one() {
        let k = KaiUnschedulable::parse(
            "Unable to schedule podgroup: node-group(s) didn't have enough resources: GPUs. 2 node(s) didn't have enough of mig profile: nvidia.com/mig-1g.5gb.",
        )
        .unwrap();
        assert_eq!(k.summary, "Unable to schedule podgroup");
        assert_eq!(
            entries(&k),
            [
                (1, "node-group(s) didn't have enough resources: GPUs"),
                (2, "node(s) didn't have enough of mig profile: nvidia.com/mig-1g.5gb")
            ]
        );
        assert_eq!(k.reasons[1].reason.insufficient_resource(), Some("nvidia.com/mig-1g.5gb"));
    }

    #[test]
    fn free_text_is_a_summary() {
        let k = KaiUnschedulable::parse(
            "Non-preemptible workload is over quota. Workload requested 1 GPUs, but queue-a quota is 0 GPUs.",
        )
        .unwrap();
        assert!(k.reasons.is_empty());
        assert_eq!(
            k.summary,
            "Non-preemptible workload is over quota. Workload requested 1 GPUs, but queue-a quota is 0 GPUs"
        );
        assert_eq!(KaiUnschedulable::parse("  "), None);
    }
}
