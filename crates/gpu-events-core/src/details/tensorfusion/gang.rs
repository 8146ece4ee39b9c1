//! Gang scheduling progress, from both reporters: the GPUResourcesFit scheduler plugin
//! (`tensor-fusion-scheduler`, internal/scheduler/gpuresources/gpuresources.go:775-834 @3e0a490)
//! and the gang manager (`GangScheduler`, internal/gang/manager.go:833,1040,1092 @3e0a490).
//! Both record the same three reasons with different notes, so each reason's grammar accepts
//! both reporters' formats.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, fill};
use super::super::{Grammar, Note};
use super::{go_uint, rcaptures};
use crate::details::Details;

/// A gang's group key (`PodGroupKey`, internal/gang/types.go:28-48 @3e0a490), kept verbatim and
/// split best-effort.
///
/// TensorFusion writes `<namespace>/<workload>` (from the `tensor-fusion.ai/workload` label),
/// `<namespace>/<workloadRef.name>/<podGroup>[/<replicaKey>]` (from `pod.spec.workloadRef`), or the
/// verbatim value of the `tensor-fusion.ai/gang-group-key` annotation (any string). The parts are
/// filled when the key has two to four non-empty `/`-separated parts, else all are `None`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodGroupKey {
    /// The key exactly as written, e.g. `ml/llama-train`.
    pub key: String,
    /// First part: the namespace.
    pub namespace: Option<String>,
    /// Second part: the workload (or `workloadRef.name`).
    pub workload: Option<String>,
    /// Third part: the pod group of a `workloadRef`.
    pub pod_group: Option<String>,
    /// Fourth part: the replica key of a `workloadRef`.
    pub replica_key: Option<String>,
}

impl PodGroupKey {
    /// Keep `key` and split it into its parts when it has that shape.
    pub fn new(key: &str) -> Self {
        let mut parts = key.split('/');
        let found = [parts.next(), parts.next(), parts.next(), parts.next()];
        let shaped =
            parts.next().is_none() && found[1].is_some() && found.iter().flatten().all(|part| !part.is_empty());
        let part = |i: usize| {
            if shaped { found.get(i).copied().flatten().map(str::to_owned) } else { None }
        };
        PodGroupKey {
            key: key.to_owned(),
            namespace: part(0),
            workload: part(1),
            pod_group: part(2),
            replica_key: part(3),
        }
    }
}

single_format! {
    /// Plugin Permit waiting for the rest of the gang (gpuresources.go:828 @3e0a490).
    pub struct GangWaitingInGroup {
        /// The gang's group key.
        pub group: PodGroupKey,
    }
    /// The Go format.
    FORMAT = "Waiting for other members in group %s";
    /// From the group key.
    new;
}

single_format! {
    /// Plugin Permit releasing the gang once quorum is reached (gpuresources.go:822 @3e0a490).
    pub struct GangMembersReady {
        /// The gang's group key.
        pub group: PodGroupKey,
    }
    /// The Go format.
    FORMAT = "All gang members ready for group %s";
    /// From the group key.
    new;
}

single_format! {
    /// Plugin Permit rejecting a member after the group timed out (gpuresources.go:834 @3e0a490).
    pub struct GangTimeout {
        /// The gang's group key.
        pub group: PodGroupKey,
    }
    /// The Go format.
    FORMAT = "Gang scheduling timeout for group %s";
    /// From the group key.
    new;
}

single_format! {
    /// Gang progress as the gang manager reports it (internal/gang/manager.go:833 @3e0a490).
    pub struct GangMembersWaiting {
        /// Pods of the group waiting at Permit, this one included (count).
        pub ready: u32,
        /// The group's required members (`RequiredMembers`, count).
        pub required: u32,
    }
    /// The Go format.
    FORMAT = "Waiting for gang members: %d/%d ready";
    /// From the two counts.
    new;
}

/// The gang manager scheduled the whole group (internal/gang/manager.go:1092 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodGroupScheduled {
    /// The gang's group key.
    pub group: PodGroupKey,
    /// Pods waiting when quorum was reached (count).
    pub members: u32,
}

impl PodGroupScheduled {
    /// The Go format.
    pub const FORMAT: &'static str = "Pod group %s scheduled with %d members";

    /// From the group key and member count.
    pub fn new(group: &str, members: u32) -> Self {
        PodGroupScheduled { group: PodGroupKey::new(group), members }
    }

    /// Parse a note of this format (the group key may contain anything).
    pub fn parse(note: &str) -> Option<Self> {
        let [group, members] = rcaptures(Self::FORMAT, note)?;
        Some(Self::new(group, go_uint(members)?))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.group.key), Arg::Int(self.members.into())])
    }
}

/// The gang manager timed the group out before quorum (internal/gang/manager.go:1040 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodGroupTimedOut {
    /// The gang's group key.
    pub group: PodGroupKey,
    /// Members waiting when the timeout fired (count).
    pub ready: u32,
    /// The group's required members (count).
    pub required: u32,
}

impl PodGroupTimedOut {
    /// The Go format.
    pub const FORMAT: &'static str = "Pod group %s timed out with %d/%d members ready";

    /// From the group key and the two counts.
    pub fn new(group: &str, ready: u32, required: u32) -> Self {
        PodGroupTimedOut { group: PodGroupKey::new(group), ready, required }
    }

    /// Parse a note of this format (the group key may contain anything).
    pub fn parse(note: &str) -> Option<Self> {
        let [group, ready, required] = rcaptures(Self::FORMAT, note)?;
        Some(Self::new(group, go_uint(ready)?, go_uint(required)?))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.group.key), Arg::Int(self.ready.into()), Arg::Int(self.required.into())])
    }
}

/// Strict gang mode rejected the group because one member could not be scheduled
/// (gpuresources.go:775 @3e0a490, PostFilter).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GangStrictRejected {
    /// The gang's group key.
    pub group: PodGroupKey,
    /// Name of the member Pod that could not be scheduled.
    pub member: String,
}

impl GangStrictRejected {
    /// The Go format.
    pub const FORMAT: &'static str = "Gang group %s rejected because member %s could not be scheduled";

    /// From the group key and the member Pod's name.
    pub fn new(group: &str, member: &str) -> Self {
        GangStrictRejected { group: PodGroupKey::new(group), member: member.to_owned() }
    }

    /// Parse a note of this format (the group key may contain anything; the Pod name may not
    /// contain the format's literals).
    pub fn parse(note: &str) -> Option<Self> {
        let [group, member] = rcaptures(Self::FORMAT, note)?;
        Some(Self::new(group, member))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(Self::FORMAT, &[Arg::Text(&self.group.key), Arg::Text(&self.member)])
    }
}

/// Grammar of `GangWaitingForMembers` from either reporter (plugin group note or gang manager
/// counts).
pub(crate) static GANG_MEMBERS_WAITING: Grammar =
    Grammar::new(&[GangMembersWaiting::KIND, GangWaitingInGroup::KIND], |note: &Note<'_>| {
        GangMembersWaiting::parse(note.text)
            .map(Details::from)
            .or_else(|| GangWaitingInGroup::parse(note.text).map(Details::from))
    });

/// Grammar of `GangScheduled` from either reporter.
pub(crate) static GANG_SCHEDULED: Grammar =
    Grammar::new(&[GangMembersReady::KIND, PodGroupScheduled::KIND], |note: &Note<'_>| {
        GangMembersReady::parse(note.text)
            .map(Details::from)
            .or_else(|| PodGroupScheduled::parse(note.text).map(Details::from))
    });

/// Grammar of `GangSchedulingTimeout` from either reporter.
pub(crate) static GANG_SCHEDULING_TIMEOUT: Grammar =
    Grammar::new(&[GangTimeout::KIND, PodGroupTimedOut::KIND], |note: &Note<'_>| {
        GangTimeout::parse(note.text)
            .map(Details::from)
            .or_else(|| PodGroupTimedOut::parse(note.text).map(Details::from))
    });

#[cfg(test)]
mod tests {
    use super::*;
    use crate::details::Details;
    use crate::details::tensorfusion::GANG_STRICT_REJECTED;

    fn round_trip(grammar: &Grammar, note: &str) -> Details {
        let details = grammar.parse(&Note::new(note));
        assert_eq!(details.render().as_deref(), Some(note), "{details:?}");
        details
    }

    #[test]
    fn group_keys_split_best_effort() {
        let key = PodGroupKey::new("ml/llama-train");
        assert_eq!(key.namespace.as_deref(), Some("ml"));
        assert_eq!(key.workload.as_deref(), Some("llama-train"));
        assert_eq!(key.pod_group, None);
        let key = PodGroupKey::new("ml/train/workers/r-0");
        assert_eq!(
            [&key.namespace, &key.workload, &key.pod_group, &key.replica_key].map(|p| p.as_deref()),
            [Some("ml"), Some("train"), Some("workers"), Some("r-0")]
        );
        for opaque in ["my-gang", "a//b", "/a", "a/b/c/d/e", ""] {
            let key = PodGroupKey::new(opaque);
            assert_eq!(key.key, opaque);
            assert_eq!(key.namespace, None, "{opaque}");
            assert_eq!(key.workload, None, "{opaque}");
        }
    }

    #[test]
    fn plugin_notes() {
        let d = GangWaitingInGroup::parse("Waiting for other members in group ml/llama-train").unwrap();
        assert_eq!(d.group.key, "ml/llama-train");
        assert_eq!(d.group.namespace.as_deref(), Some("ml"));
        let d = GangMembersReady::parse("All gang members ready for group ml/llama-train").unwrap();
        assert_eq!(d.group.workload.as_deref(), Some("llama-train"));
        let d = GangTimeout::parse("Gang scheduling timeout for group custom key").unwrap();
        assert_eq!(d.group.key, "custom key");
        assert_eq!(d.group.namespace, None);
        let d = GangStrictRejected::parse(
            "Gang group ml/llama-train rejected because member llama-train-worker-3 could not be scheduled",
        )
        .unwrap();
        assert_eq!(d.group.key, "ml/llama-train");
        assert_eq!(d.member, "llama-train-worker-3");

        assert_eq!(GangWaitingInGroup::parse("Waiting for other members in grou x"), None);
        assert_eq!(GangMembersReady::parse("All gang members ready for group"), None);
        assert_eq!(GangStrictRejected::parse("Gang group g rejected because member m could not be"), None);
    }

    #[test]
    fn manager_notes() {
        let d = GangMembersWaiting::parse("Waiting for gang members: 2/4 ready").unwrap();
        assert_eq!((d.ready, d.required), (2, 4));
        let d = PodGroupTimedOut::parse("Pod group ml/llama-train timed out with 3/4 members ready").unwrap();
        assert_eq!((d.group.key.as_str(), d.ready, d.required), ("ml/llama-train", 3, 4));
        let d = PodGroupScheduled::parse("Pod group ml/llama-train scheduled with 4 members").unwrap();
        assert_eq!((d.group.key.as_str(), d.members), ("ml/llama-train", 4));

        assert_eq!(GangMembersWaiting::parse("Waiting for gang members: 2/4"), None);
        assert_eq!(GangMembersWaiting::parse("Waiting for gang members: 02/4 ready"), None);
        assert_eq!(GangMembersWaiting::parse("Waiting for gang members: -1/4 ready"), None);
        assert_eq!(PodGroupTimedOut::parse("Pod group g timed out with 3 members ready"), None);
        assert_eq!(PodGroupScheduled::parse("Pod group g scheduled with four members"), None);
    }

    #[test]
    fn each_grammar_takes_both_reporters() {
        for (grammar, notes) in [
            (
                &GANG_MEMBERS_WAITING,
                ["Waiting for other members in group ml/llama-train", "Waiting for gang members: 2/4 ready"],
            ),
            (
                &GANG_SCHEDULED,
                [
                    "All gang members ready for group ml/llama-train",
                    "Pod group ml/llama-train scheduled with 4 members",
                ],
            ),
            (
                &GANG_SCHEDULING_TIMEOUT,
                [
                    "Gang scheduling timeout for group ml/llama-train",
                    "Pod group ml/llama-train timed out with 3/4 members ready",
                ],
            ),
        ] {
            let kinds: Vec<_> = notes.iter().map(|n| round_trip(grammar, n).kind()).collect();
            for kind in &kinds {
                assert!(grammar.kinds.contains(kind), "{kind}");
            }
            assert_ne!(kinds[0], kinds[1]);
        }
        round_trip(
            &GANG_STRICT_REJECTED,
            "Gang group ml/llama-train rejected because member llama-train-worker-3 could not be scheduled",
        );
        assert_eq!(GANG_SCHEDULED.parse(&Note::new("Gang scheduling timeout for group x")), Details::Unrecognized);
    }
}
