//! The `kubectl describe` header of an Events section: which object the events belong to
//! (`Name:`, `Namespace:`, the sections that tell a Pod from a Node), and the Pod's status block
//! and container states, which become a `fromStatus` record ([`PodStatus`]).

use chrono::{DateTime, Utc};

use crate::EventRecord;
use crate::decode::pod::{ContainerState, PodStatus};

/// The object a describe section is about, from its `Name:`/`Namespace:`/`Kind:` lines.
#[derive(Clone, Debug, Default)]
pub(super) struct Described {
    pub(super) name: Option<String>,
    pub(super) namespace: Option<String>,
    pub(super) kind: Option<String>,
    /// The Pod status block's top-level `Reason:` and `Message:` (kubelet admission and eviction
    /// mirror their event there; the event itself may have expired).
    status_reason: Option<String>,
    status_message: Option<String>,
    /// Inside `Init Containers:` (`Some(true)`) or `Containers:` (`Some(false)`).
    containers: Option<bool>,
    /// The container whose block is being read.
    container: Option<String>,
    /// Whether the indented lines being read are a container's `State:` or `Last State:`.
    in_last_state: bool,
    /// The first `State: Waiting` `Reason:` (`CrashLoopBackOff`, `ImagePullBackOff`, ...).
    waiting: Option<ContainerState>,
    /// The first container whose state or last state is `Terminated` `Reason: OOMKilled`.
    oom_killed: Option<ContainerState>,
}

impl Described {
    /// Learn from a line of `kubectl describe` outside its Events table; whether it is one: a
    /// `Capitalized Key:` field at column 0 (its value padded to the value column, or empty),
    /// or an indented line under a describe's fields.
    pub(super) fn learn(&mut self, line: &str) -> bool {
        let inside = self.name.is_some() || self.kind.is_some() || self.status_reason.is_some();
        let indented = line.starts_with(char::is_whitespace);
        let Some((key, value)) = line.split_once(':') else {
            return inside && indented;
        };
        if indented {
            self.learn_container(line, key, value.trim());
            return inside;
        }
        // Outside a describe only its opening fields start one; prose ending in `:` does not.
        let padded = value.trim().is_empty() || value.starts_with("  ") || value.starts_with('\t');
        let field = matches!(key, "Name" | "Namespace" | "Kind" | "Status" | "Reason" | "Message")
            || inside && padded && key.starts_with(|c: char| c.is_ascii_uppercase()) && key.split(' ').count() <= 5;
        if !field {
            return false;
        }
        let value = value.trim();
        self.containers = None;
        self.container = None;
        match key {
            // A new object starts at its Name.
            "Name" => *self = Described { name: Some(value.to_owned()), ..Described::default() },
            "Namespace" => self.namespace = Some(value.to_owned()),
            "Kind" => self.kind = Some(value.to_owned()),
            "Reason" if !value.is_empty() => self.status_reason = Some(value.to_owned()),
            "Message" if !value.is_empty() => self.status_message = Some(value.to_owned()),
            "Init Containers" => self.containers = Some(true),
            "Containers" => self.containers = Some(false),
            _ => {}
        }
        match key {
            // kubectl describe pod/node print no Kind line; their sections tell them apart.
            "Containers" | "Init Containers" | "QoS Class" if self.kind.is_none() => self.kind = Some("Pod".to_owned()),
            "Taints" | "Roles" | "Capacity" if self.kind.is_none() => self.kind = Some("Node".to_owned()),
            "Completions" if self.kind.is_none() => self.kind = Some("Job".to_owned()),
            "Desired Number of Nodes Scheduled" => self.kind = Some("DaemonSet".to_owned()),
            "StrategyType" if self.kind.is_none() => self.kind = Some("Deployment".to_owned()),
            _ => {}
        }
        true
    }

    /// Container blocks: `  name:` then `State: Waiting` / `Last State: Terminated`, each with a
    /// `Reason:`.
    fn learn_container(&mut self, line: &str, key: &str, value: &str) {
        let indent = line.len() - line.trim_start().len();
        if self.containers.is_some() && indent == 2 && value.is_empty() {
            self.container = Some(key.trim().to_owned());
            self.in_last_state = false;
            return;
        }
        let state = |reason: &str| ContainerState {
            reason: reason.to_owned(),
            container: self.container.clone(),
            init: self.containers == Some(true),
        };
        match key.trim() {
            "State" => self.in_last_state = false,
            "Last State" => self.in_last_state = true,
            "Reason" if value == "OOMKilled" && self.oom_killed.is_none() => self.oom_killed = Some(state(value)),
            "Reason" if value == "OOMKilled" => {}
            "Reason" if !self.in_last_state && self.waiting.is_none() => self.waiting = Some(state(value)),
            _ => {}
        }
    }
}

impl Described {
    /// Whether the status block gave a `Reason:` (its `Message:` is then that reason's).
    pub(super) fn has_status_reason(&self) -> bool {
        self.status_reason.is_some()
    }

    /// The object, as a reference for the records of its section.
    pub(super) fn reference(&self) -> crate::ObjectReference {
        crate::ObjectReference {
            kind: self.kind.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            ..crate::ObjectReference::default()
        }
    }
}

/// The object a typed `kubectl describe pod NAME [-n NS]` command names (also `pods`, `po`,
/// `pod/NAME`, `--namespace NS`, `--namespace=NS`), for the output pasted below it.
pub(super) fn from_command(line: &str) -> Option<Described> {
    let (_, rest) = line.split_once("kubectl describe ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut name = None;
    let mut namespace = None;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        match word {
            "-n" | "--namespace" => {
                namespace = words.get(i + 1).map(|s| (*s).to_owned());
                i += 1;
            }
            _ if word.starts_with("--namespace=") => namespace = Some(word["--namespace=".len()..].to_owned()),
            "pod" | "pods" | "po" if name.is_none() => {
                name = words.get(i + 1).filter(|w| !w.starts_with('-')).map(|s| (*s).to_owned());
                i += 1;
            }
            _ => {
                if let Some(found) = ["pod/", "pods/", "po/"].iter().find_map(|p| word.strip_prefix(p)) {
                    name = Some(found.to_owned());
                }
            }
        }
        i += 1;
    }
    // A poster's placeholder is not a name.
    let name = name.filter(|n| !n.contains("...") && !n.starts_with('<') && !n.starts_with('$'))?;
    Some(Described { name: Some(name), namespace, kind: Some("Pod".to_owned()), ..Described::default() })
}

/// The Pod status block of a describe (`Status: Failed`, `Reason: UnexpectedAdmissionError`,
/// `Message: ...`) or its container states, as a record flagged `fromStatus`, true `now`.
pub(super) fn status_record(described: &Described, now: DateTime<Utc>) -> Option<EventRecord> {
    PodStatus {
        kind: described.kind.clone(),
        namespace: described.namespace.clone(),
        name: described.name.clone(),
        uid: None,
        reason: described.status_reason.clone(),
        message: described.status_message.clone(),
        oom_killed: described.oom_killed.clone(),
        waiting: described.waiting.clone(),
        time: Some(now),
    }
    .record()
}
