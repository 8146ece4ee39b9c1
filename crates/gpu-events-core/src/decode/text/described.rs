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

/// The kubectl-like commands people type: kubectl itself, its common alias `k`, OpenShift's
/// `oc`, `kubecolor` (`microk8s kubectl` ends in `kubectl`).
const KUBECTLS: &[&str] = &["kubectl", "k", "oc", "kubecolor"];

/// Global flags whose value is the next word when not written `--flag=value`.
const VALUE_FLAGS: &[&str] =
    &["--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "-o", "--output"];

/// The object a typed `kubectl describe pod NAME [-n NS]` command names (also `pods`, `po`,
/// `pod/NAME`, `--namespace NS`, `--namespace=NS`, `-nNS`, flags before the verb, the `k`, `oc`
/// and `kubecolor` spellings, a pipe after it), or `kubectl events --for pod/NAME`, for the
/// output pasted below it.
pub(super) fn from_command(line: &str) -> Option<Described> {
    // A typed command is one short line; most lines are not one (and some are megabytes long).
    if line.len() > 4096 || !(line.contains("describe") || line.contains("events")) {
        return None;
    }
    let words: Vec<&str> = line.split_whitespace().take_while(|w| *w != "|").collect();
    let start = words.iter().position(|w| KUBECTLS.contains(&w.rsplit('/').next().unwrap_or(w)))?;
    let mut name = None;
    let mut namespace = None;
    let mut verb = None;
    // The words after the verb that are not flags: `pod NAME`.
    let mut positional = Vec::new();
    let mut i = start + 1;
    while i < words.len() {
        let word = words[i];
        match word {
            "-n" | "--namespace" => {
                namespace = words.get(i + 1).map(|s| (*s).to_owned());
                i += 1;
            }
            _ if word.starts_with("--namespace=") => namespace = Some(word["--namespace=".len()..].to_owned()),
            _ if word.starts_with("-n") && word.len() > 2 && !word.starts_with("--") => {
                namespace = Some(word[2..].to_owned());
            }
            _ if VALUE_FLAGS.contains(&word) => i += 1,
            _ if word.starts_with('-') => {}
            _ if verb.is_none() => verb = Some(word),
            _ => {
                if let Some(found) = ["pod/", "pods/", "po/"].iter().find_map(|p| word.strip_prefix(p)) {
                    name = Some(found.to_owned());
                } else {
                    positional.push(word);
                }
            }
        }
        // `kubectl events --for pod/NAME` and `--for=pod/NAME`.
        if verb == Some("events") && word.starts_with("--for") {
            let target = word.strip_prefix("--for=").or_else(|| words.get(i + 1).copied()).unwrap_or("");
            name = ["pod/", "pods/", "Pod/"].iter().find_map(|p| target.strip_prefix(p)).map(str::to_owned);
        }
        i += 1;
    }
    if !matches!(verb, Some("describe" | "events")) {
        return None;
    }
    if name.is_none()
        && verb == Some("describe")
        && let [kind, found, ..] = positional.as_slice()
        && matches!(*kind, "pod" | "pods" | "po")
    {
        name = Some((*found).to_owned());
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
        // `kubectl describe` prints conditions without their messages.
        unschedulable: None,
        time: Some(now),
    }
    .record()
}

#[cfg(test)]
mod command_tests {
    use super::from_command;

    fn named(line: &str) -> Option<(String, Option<String>)> {
        from_command(line).map(|d| (d.name.unwrap(), d.namespace))
    }

    #[test]
    fn typed_commands_name_the_pod_whatever_the_spelling() {
        let x0 = Some(("x-0".to_owned(), Some("ns-a".to_owned())));
        assert_eq!(named("user@host ~/apis (main)$ k describe pod -n ns-a x-0 | tail"), x0);
        assert_eq!(named("$ kubectl describe pods x-0 --namespace ns-a"), x0);
        assert_eq!(named("kubectl -n ns-a describe po/x-0"), x0);
        assert_eq!(named("oc describe pod x-0 -nns-a"), x0);
        assert_eq!(named("kubectl --context prod -n ns-a describe pod x-0"), x0);
        assert_eq!(named("microk8s kubectl describe pod x-0 --namespace=ns-a"), x0);
        assert_eq!(named("kubectl events -n ns-a --for pod/x-0"), x0);
        assert_eq!(named("kubectl describe pod gpu-0"), Some(("gpu-0".to_owned(), None)));
        // Not a describe of one Pod; a placeholder; prose that says "k".
        assert_eq!(named("kubectl get pod x-0 -n ns-a"), None);
        assert_eq!(named("kubectl describe pod <name>"), None);
        assert_eq!(named("kubectl describe node gpu-1"), None);
        assert_eq!(named("press k describe pod"), None);
    }
}
