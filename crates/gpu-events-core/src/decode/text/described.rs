//! The `kubectl describe` header of an Events section: which object the events belong to
//! (`Name:`, `Namespace:`, the sections that tell a Pod from a Node), and the Pod's status block
//! and container states, which become a `fromStatus` record ([`PodStatus`]).

use chrono::{DateTime, Utc};

use crate::EventRecord;
use crate::decode::pod::{ContainerState, PodStatus, START_FAILURES};

/// What `kubectl describe event` prints of an Event beside its `Reason:` and `Message:`
/// (kubectl's generic describer: the object's fields as `Capitalized Keys:`).
#[derive(Clone, Debug, Default)]
struct DescribedEvent {
    count: Option<i32>,
    first: Option<DateTime<Utc>>,
    last: Option<DateTime<Utc>>,
    type_: Option<String>,
    involved: crate::ObjectReference,
    component: Option<String>,
    host: Option<String>,
    /// Inside `Involved Object:` (`Some(true)`) or `Source:` (`Some(false)`).
    block: Option<bool>,
}

/// Which of [`Described`]'s container states a `Reason:` was kept in.
#[derive(Clone, Copy, Debug)]
enum Kept {
    OomKilled,
    StartFailure,
    Waiting,
}

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
    /// Whether a `State:` or `Last State:` line opened the indented lines being read: only then
    /// is a `Reason:` a container's (a CRD's `Conditions:` have `Reason:` and `Message:` too).
    in_state: bool,
    /// The first `State: Waiting` `Reason:` (`CrashLoopBackOff`, `ImagePullBackOff`, ...).
    waiting: Option<ContainerState>,
    /// The first container whose state or last state is `Terminated` `Reason: OOMKilled`.
    oom_killed: Option<ContainerState>,
    /// The first container whose state or last state is a start failure (`Reason: StartError`,
    /// `ContainerCannotRun`), with its `Message:`.
    start_failure: Option<ContainerState>,
    /// The state the last container `Reason:` was kept in, for the `Message:` under it.
    last_kept: Option<Kept>,
    /// `Status: Pending` (a Pod's phase), kept for a Pod only: a PVC's describe says it too.
    phase: Option<&'static str>,
    /// Inside a Node's `Capacity:` (`Some(true)`) or `Allocatable:` (`Some(false)`) block.
    in_capacity: Option<bool>,
    /// Accelerator counts read from those blocks: (resource, capacity, allocatable).
    accelerators: Vec<(String, Option<u64>, Option<u64>)>,
    /// Some resource (`cpu`, `pods`) was read in those blocks: a Node's resources were pasted.
    resources_listed: bool,
    /// The fields of a `kubectl describe event` (its `Kind: Event`).
    event: DescribedEvent,
    /// Named only by a command typed above (no `Name:` field read since): what follows may be
    /// another command's output (`describe node X | egrep ...`, then a Pod's events).
    pub(super) typed_only: bool,
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
        // A describe pasted from its middle opens at a Pod's own fields (`Controlled By:  X`,
        // `Init Containers:`).
        let pod_field = matches!(key, "Init Containers" | "Controlled By") && padded;
        // A Node's resource blocks, pasted alone too (`describe node | egrep 'Capacity|...'`).
        let node_field = matches!(key, "Capacity" | "Allocatable") && value.trim().is_empty();
        let field = matches!(key, "Name" | "Namespace" | "Kind" | "Status" | "Reason" | "Message")
            || pod_field
            || node_field
            || inside && padded && key.starts_with(|c: char| c.is_ascii_uppercase()) && key.split(' ').count() <= 5;
        if !field {
            return false;
        }
        let value = value.trim();
        self.containers = None;
        self.container = None;
        self.in_state = false;
        self.event.block = match key {
            "Involved Object" | "Regarding" => Some(true),
            "Source" => Some(false),
            _ => None,
        };
        let time = |v: &str| DateTime::parse_from_rfc3339(v).ok().map(|t| t.to_utc());
        match key {
            "Count" => self.event.count = value.trim().parse().ok(),
            "First Timestamp" => self.event.first = time(value.trim()),
            "Last Timestamp" => self.event.last = time(value.trim()),
            "Type" => self.event.type_ = Some(value.trim().to_owned()).filter(|t| !t.is_empty()),
            _ => {}
        }
        self.in_capacity = match key {
            "Capacity" => Some(true),
            "Allocatable" => Some(false),
            _ => None,
        };
        match key {
            // A new object starts at its Name; the one a typed `describe KIND NAME` named keeps
            // its kind and namespace.
            "Name" if self.typed_only && self.name.as_deref() == Some(value) => {
                *self = Described {
                    name: Some(value.to_owned()),
                    kind: self.kind.take(),
                    namespace: self.namespace.take(),
                    ..Described::default()
                }
            }
            "Name" => *self = Described { name: Some(value.to_owned()), ..Described::default() },
            "Namespace" => self.namespace = Some(value.to_owned()),
            "Kind" => self.kind = Some(value.to_owned()),
            "Reason" if !value.is_empty() => self.status_reason = Some(value.to_owned()),
            "Status" => self.phase = crate::decode::pod::waiting_phase(value),
            "Message" if !value.is_empty() => self.status_message = Some(value.to_owned()),
            "Init Containers" => self.containers = Some(true),
            "Containers" => self.containers = Some(false),
            _ => {}
        }
        match key {
            // kubectl describe pod/node print no Kind line; their sections tell them apart.
            "Containers" | "Init Containers" | "QoS Class" if self.kind.is_none() => self.kind = Some("Pod".to_owned()),
            // A Node's `Capacity:` is a block; a PVC's has its size on the line.
            "Taints" | "Roles" if self.kind.is_none() => self.kind = Some("Node".to_owned()),
            "Capacity" if self.kind.is_none() && value.is_empty() => self.kind = Some("Node".to_owned()),
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
        if let Some(involved) = self.event.block {
            let value = Some(value.to_owned()).filter(|v| !v.is_empty());
            match (involved, key.trim()) {
                (true, "Kind") => self.event.involved.kind = value,
                (true, "Name") => self.event.involved.name = value,
                (true, "Namespace") => self.event.involved.namespace = value,
                (true, "Field Path") => self.event.involved.field_path = value,
                (false, "Component") => self.event.component = value,
                (false, "Host") => self.event.host = value,
                _ => {}
            }
            return;
        }
        if let Some(capacity) = self.in_capacity {
            let resource = key.trim();
            self.resources_listed |= matches!(resource, "cpu" | "memory" | "pods");
            // `nvidia.com/gpu:  7       <=== here`: the count is the first word.
            if crate::accelerators::is_accelerator(resource)
                && let Some(count) = value.split_whitespace().next().and_then(|v| v.parse::<u64>().ok())
            {
                let at = match self.accelerators.iter().position(|(r, ..)| r == resource) {
                    Some(at) => at,
                    None => {
                        self.accelerators.push((resource.to_owned(), None, None));
                        self.accelerators.len() - 1
                    }
                };
                let entry = &mut self.accelerators[at];
                if capacity { entry.1 = Some(count) } else { entry.2 = Some(count) }
            }
            return;
        }
        if self.containers.is_some() && indent == 2 && value.is_empty() {
            self.container = Some(key.trim().to_owned());
            self.in_last_state = false;
            self.in_state = false;
            return;
        }
        let state = |reason: &str| ContainerState {
            reason: reason.to_owned(),
            container: self.container.clone(),
            init: self.containers == Some(true),
            message: None,
        };
        // Only a Pod has container states (a PodGroup's `Conditions:` have reasons too).
        if self.kind.as_deref().is_some_and(|kind| kind != "Pod") {
            return;
        }
        let start_failure = START_FAILURES.contains(&value);
        match key.trim() {
            "State" => (self.in_last_state, self.in_state) = (false, true),
            "Last State" => (self.in_last_state, self.in_state) = (true, true),
            "Reason" if !self.in_state => {}
            "Reason" => {
                self.last_kept = None;
                let slot = match () {
                    _ if value == "OOMKilled" => (&mut self.oom_killed, Kept::OomKilled),
                    _ if start_failure => (&mut self.start_failure, Kept::StartFailure),
                    _ if !self.in_last_state => (&mut self.waiting, Kept::Waiting),
                    _ => return,
                };
                if slot.0.is_none() {
                    *slot.0 = Some(state(value));
                    self.last_kept = Some(slot.1);
                }
            }
            // The state's message, on the line under its reason (kubectl writes it there).
            "Message" if !value.is_empty() => {
                let kept = match self.last_kept.take() {
                    Some(Kept::OomKilled) => &mut self.oom_killed,
                    Some(Kept::StartFailure) => &mut self.start_failure,
                    Some(Kept::Waiting) => &mut self.waiting,
                    None => return,
                };
                if let Some(kept) = kept {
                    kept.message = Some(value.to_owned());
                }
            }
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

/// The arrows shell prompt themes end in (oh-my-zsh's `➜`, pure's `❯`, `λ`, `⇒`, `»`), with
/// the directory or branch they show before the command.
const PROMPT_ARROWS: &[&str] = &["➜", "❯", "λ", "⇒", "»"];

/// The kubectl-like commands people type: kubectl itself, its common aliases `k` and `kc`, OpenShift's
/// `oc`, `kubecolor` (`microk8s kubectl` ends in `kubectl`).
const KUBECTLS: &[&str] = &["kubectl", "k", "kc", "oc", "kubecolor"];

/// Global flags whose value is the next word when not written `--flag=value`.
const VALUE_FLAGS: &[&str] =
    &["--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "-o", "--output"];

/// The words a shell prompt ends with (`$ `, `user@host:~$ `, `[root@m ~]# `, `PS C:\> `,
/// `➜  ~ `), or that run kubectl (`sudo`, `microk8s`): a command typed at a prompt, not a
/// sentence that mentions one ("it is referenced in kubectl describe ...").
/// Words a sentence puts before a command it says was run (`when i run kubectl ...`, `the
/// output of kubectl ...`).
const PROSE_BEFORE_COMMAND: &[&str] =
    &["run", "ran", "running", "execute", "executed", "executing", "of", "using", "with", "tried", "try", "typed"];

fn before_command(word: &str) -> bool {
    word.ends_with(['$', '#', '>', '%', '~', ':'])
        || matches!(word, "sudo" | "microk8s" | "-")
        || PROMPT_ARROWS.contains(&word)
}

/// The object (or namespace) a typed kubectl command names, for the output pasted below it:
///
/// * `kubectl describe RESOURCE NAME` (also `RESOURCE/NAME`; any resource spelling kubectl
///   takes: `pod`, `pods`, `po`, `node`, `pg`, `vcjob`, `gpupools`): that object; without a
///   name (`kubectl describe pods -n ns`), its kind and namespace, the `Name:` lines naming each;
/// * `kubectl get events --field-selector involvedObject.name=NAME[,involvedObject.kind=KIND]`
///   and `kubectl events --for KIND/NAME`: the object the listed events are about;
/// * `kubectl get events|pods -n NS`: the namespace of rows that print none.
///
/// Namespaces as `-n NS`, `--namespace NS`, `--namespace=NS` or `-nNS`; global flags before
/// the verb; the `k`, `oc` and `kubecolor` spellings; a pipe after it. A poster's placeholder
/// (`<name>`, `$POD`, `...`) names nothing, but the command still starts a new section.
pub(super) fn from_command(line: &str) -> Option<Described> {
    // A typed command is one short line; most lines are not one (and some are megabytes long).
    if line.len() > 4096 || !(line.contains("describe") || line.contains("events") || line.contains("get")) {
        return None;
    }
    let is_kubectl = |w: &&str| KUBECTLS.contains(&w.rsplit('/').next().unwrap_or(w));
    // Most lines that say `get` are no command: look for the command word before collecting words.
    if !line.split_whitespace().any(|w| is_kubectl(&w.trim_matches(['`', '"', '\'']))) {
        return None;
    }
    // A command quoted in a sentence (`` `kubectl describe pod x` ``, `kubectl describe pods x.`)
    // loses its quotes and the sentence's final stop.
    let words: Vec<&str> = line
        .split_whitespace()
        .take_while(|w| *w != "|")
        .map(|w| w.trim_matches(['`', '"', '\'']))
        .filter(|w| !w.is_empty())
        .collect();
    let start = words.iter().position(is_kubectl)?;
    // Prose that says it ran the command (`when i run kubectl describe pods x.`, `the output of
    // kubectl describe pod x:`): a command only when it ends the sentence or its quote, with at
    // most a resource and a name after the verb (`I ran kubectl describe pods and ...` names none).
    let ends_quote = line.split_whitespace().skip_while(|w| !is_kubectl(&w.trim_matches(['`', '"', '\'']))).count();
    let in_prose = start > 0
        && PROSE_BEFORE_COMMAND.contains(&words[start - 1].to_ascii_lowercase().as_str())
        && words.len() - start <= 8
        && ends_quote == words.len() - start;
    let words: Vec<&str> = match in_prose {
        true => words.iter().map(|w| w.trim_end_matches(['.', ',', ':', ';', ')', '`', '"', '\''])).collect(),
        false => words,
    };
    // A list's marker may open the line (`2. kubectl get po -n ns`, `* kubectl ...`, `→ kubectl`).
    let list_marker = |w: &str| {
        matches!(w, "*" | "•" | "→" | "+")
            || w.strip_suffix(['.', ')']).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    // A zsh prompt puts the directory (and a git branch) after its arrow: `➜  helm kc describe`.
    let after_prompt = start <= 4 && words[..start].iter().any(|w| PROMPT_ARROWS.contains(w));
    let opens_command = start == 0
        || before_command(words[start - 1])
        || (start == 1 && list_marker(words[0]))
        || after_prompt
        || in_prose;
    if !opens_command {
        return None;
    }
    let mut namespace = None;
    let mut verb = None;
    let mut selector = None;
    let mut target = None;
    // The words after the verb that are not flags: `pod NAME`.
    let mut positional = Vec::new();
    let mut i = start + 1;
    while i < words.len() {
        let word = words[i];
        let value = |flag: &str| word.strip_prefix(flag).and_then(|v| v.strip_prefix('='));
        match word {
            "-n" | "--namespace" => {
                namespace = words.get(i + 1).map(|s| (*s).to_owned());
                i += 1;
            }
            "--field-selector" => {
                selector = words.get(i + 1).copied();
                i += 1;
            }
            "--for" => {
                target = words.get(i + 1).copied();
                i += 1;
            }
            _ if value("--namespace").is_some() => namespace = value("--namespace").map(str::to_owned),
            _ if value("--field-selector").is_some() => selector = value("--field-selector"),
            _ if value("--for").is_some() => target = value("--for"),
            _ if word.starts_with("-n") && word.len() > 2 && !word.starts_with("--") => {
                namespace = Some(word[2..].to_owned());
            }
            _ if VALUE_FLAGS.contains(&word) => i += 1,
            _ if word.starts_with('-') => {}
            _ if verb.is_none() => verb = Some(word),
            _ => positional.push(word),
        }
        i += 1;
    }
    // A sentence's command names at most a resource and a name.
    if in_prose && positional.len() > 2 {
        return None;
    }
    let placeholder = |n: &str| n.contains("...") || n.starts_with('<') || n.starts_with('$') || n.starts_with('{');
    let object = |kind: Option<&str>, name: Option<&str>, namespace: Option<String>| Described {
        kind: kind.and_then(crate::record::kinds::of_resource).map(str::to_owned),
        name: name.filter(|n| !placeholder(n)).map(str::to_owned),
        namespace,
        typed_only: true,
        ..Described::default()
    };
    let events = match (verb, positional.first()) {
        (Some("events"), _) => true,
        (Some("get"), Some(resource)) => {
            crate::record::kinds::of_resource(resource).is_none()
                && matches!(resource.split('.').next(), Some("events" | "event" | "ev"))
        }
        _ => false,
    };
    if events {
        // `--for pod/NAME`, or the selector's involvedObject (or regarding) name and kind.
        if let Some((kind, name)) = target.and_then(|t| t.split_once('/')) {
            return Some(object(Some(kind), Some(name), namespace));
        }
        let field = |key: &str| {
            selector?.split(',').find_map(|term| {
                let (k, v) = term.split_once('=')?;
                let k = k.trim_end_matches('=').trim_end_matches('!');
                (k == format!("involvedObject.{key}") || k == format!("regarding.{key}")).then_some(v)
            })
        };
        let namespace = field("namespace").map(str::to_owned).or(namespace);
        return Some(object(field("kind"), field("name"), namespace));
    }
    match verb? {
        "describe" => {
            let (kind, name) = match positional.as_slice() {
                [] => return None,
                [one, ..] if one.contains('/') => {
                    let (kind, name) = one.split_once('/')?;
                    (kind, Some(name))
                }
                [kind, rest @ ..] => (*kind, rest.first().copied()),
            };
            // A resource kubectl knows (`kubectl describe ascend-pod says:` is a sentence).
            crate::record::kinds::of_resource(kind)?;
            let name = name.filter(|n| !n.ends_with(':'));
            Some(object(Some(kind), name, namespace))
        }
        // `kubectl get pods -n NS`: the namespace of the table's rows.
        "get" if positional.first().is_some_and(|r| crate::record::kinds::of_resource(r) == Some("Pod")) => {
            namespace.is_some().then(|| object(None, None, namespace))
        }
        _ => None,
    }
}

/// The Pod status block of a describe (`Status: Failed`, `Reason: UnexpectedAdmissionError`,
/// `Message: ...`) or its container states, as a record flagged `fromStatus`, true `now`.
/// The status word of a Node's record when its describe shows fewer of an accelerator
/// allocatable than it has (the device plugin withholds unhealthy devices; none at all when no
/// plugin serves them).
pub(crate) const ALLOCATABLE_BELOW_CAPACITY: &str = "AllocatableBelowCapacity";

/// The status word of a Node's record when its `Capacity:`/`Allocatable:` blocks list resources
/// but no accelerator at all: no device plugin registered one there. Kept only when no Node of
/// the input lists one (a GPU node pasted beside CPU nodes says nothing is missing).
pub(crate) const NO_ACCELERATOR_LISTED: &str = "NoAcceleratorListed";

impl Described {
    /// Whether this section's resource blocks list an accelerator.
    pub(super) fn lists_accelerators(&self) -> bool {
        !self.accelerators.is_empty()
    }
}

/// A Node whose `Allocatable:` counts fewer of an accelerator than its `Capacity:`, as a record
/// flagged `fromStatus` (`nvidia.com/gpu: allocatable 7 of capacity 8`); one whose blocks list no
/// accelerator, as [`NO_ACCELERATOR_LISTED`].
fn node_record(described: &Described, now: DateTime<Utc>) -> Option<EventRecord> {
    if described.kind.as_deref().is_some_and(|kind| kind != "Node") {
        return None;
    }
    let below = described.accelerators.iter().find_map(|(r, c, a)| match (c, a) {
        (Some(c), Some(a)) if a < c => Some((r, *c, *a)),
        _ => None,
    });
    let (reason, note) = match below {
        Some((resource, capacity, allocatable)) => {
            (ALLOCATABLE_BELOW_CAPACITY, format!("{resource}: allocatable {allocatable} of capacity {capacity}"))
        }
        None if described.resources_listed && described.accelerators.is_empty() => {
            (NO_ACCELERATOR_LISTED, "no accelerator resource in Capacity or Allocatable".to_owned())
        }
        None => return None,
    };
    Some(
        crate::record::RawEvent {
            reason: Some(reason),
            type_: Some("Warning"),
            note: Some(&note),
            regarding: crate::ObjectReference {
                kind: Some("Node".to_owned()),
                name: described.name.clone(),
                ..crate::ObjectReference::default()
            },
            last: [Some(now), None, None],
            first: [Some(now), None, None],
            approximate_time: true,
            from_status: true,
            status_word: true,
            ..crate::record::RawEvent::default()
        }
        .into_record(),
    )
}

/// The Event a `kubectl describe event` section shows.
fn event_record(described: &Described) -> Option<EventRecord> {
    let event = &described.event;
    let mut regarding = event.involved.clone();
    if regarding.kind.as_deref().is_some_and(crate::record::kinds::is_cluster_scoped) {
        regarding.namespace = None;
    }
    Some(
        crate::record::RawEvent {
            reason: Some(described.status_reason.as_deref()?),
            type_: event.type_.as_deref(),
            note: described.status_message.as_deref(),
            namespace: described.namespace.as_deref(),
            regarding,
            reporting_controller: event.component.as_deref(),
            reporting_instance: event.host.as_deref(),
            count: event.count,
            first: [event.first.or(event.last), None, None],
            last: [event.last.or(event.first), None, None],
            name: described.name.as_deref(),
            ..crate::record::RawEvent::default()
        }
        .into_record(),
    )
}

pub(super) fn status_record(described: &Described, now: DateTime<Utc>) -> std::vec::IntoIter<EventRecord> {
    if described.kind.as_deref() == Some("Event") {
        return event_record(described).into_iter().collect::<Vec<_>>().into_iter();
    }
    let node = node_record(described, now);
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
        waiting_phase: described.phase.filter(|_| described.kind.as_deref() == Some("Pod")),
        start_failure: described.start_failure.clone(),
    }
    .records()
    .chain(node)
    .collect::<Vec<_>>()
    .into_iter()
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
        assert_eq!(named("[root@master ~]# kubectl get events --field-selector involvedObject.name=x-0 -n ns-a"), x0);
        // argoproj/argo-workflows#788: a zsh theme's `⇒` prompt.
        assert_eq!(named("⇒  kubectl describe pod x-0 -n ns-a"), x0);
        // Not a describe of one object; a placeholder; prose that mentions a command.
        assert!(from_command("kubectl get pod x-0 -n ns-a").is_some_and(|d| d.name.is_none()));
        assert!(from_command("kubectl get pod x-0").is_none());
        assert!(from_command("kubectl describe pod <name>").is_some_and(|d| d.name.is_none()));
        assert!(from_command("press k describe pod x").is_none());
        assert!(from_command("it is referenced in kubectl describe clusterpolicies --all-namespaces").is_none());
        assert!(from_command("kubectl describe ascend-pod says:").is_none());
    }

    #[test]
    fn a_command_a_sentence_says_was_run_names_its_object() {
        // A new user's paste (triton-inference-server#4837): the command ends the sentence.
        assert_eq!(named("when i run kubectl describe pods triton-server."), Some(("triton-server".to_owned(), None)));
        let x0 = Some(("x-0".to_owned(), Some("ns-a".to_owned())));
        assert_eq!(named("This is the output of `kubectl describe pod x-0 -n ns-a`:"), x0);
        // The sentence goes on after the command: its next word is no name.
        assert!(from_command("I ran kubectl describe pods and it said nothing").is_none());
        assert!(from_command("when i run kubectl describe pods x-0 it hangs").is_none());
    }

    #[test]
    fn typed_commands_name_objects_of_any_kind() {
        let of = |line: &str| {
            from_command(line).map(|d| (d.kind.unwrap_or_default(), d.name.unwrap_or_default(), d.namespace))
        };
        assert_eq!(of("kubectl describe pg test"), Some(("PodGroup".into(), "test".into(), None)));
        assert_eq!(of("$ kubectl describe vcjob test -n ml"), Some(("Job".into(), "test".into(), Some("ml".into()))));
        assert_eq!(of("kubectl describe node gpu-1"), Some(("Node".into(), "gpu-1".into(), None)));
        assert_eq!(of("kubectl describe gpupools/pool-a"), Some(("GPUPool".into(), "pool-a".into(), None)));
        assert_eq!(
            of("kubectl get events --field-selector=involvedObject.kind=Node,involvedObject.name=gpu-1"),
            Some(("Node".into(), "gpu-1".into(), None))
        );
        assert_eq!(
            of("kubectl get events -n gpu-test3"),
            Some((String::new(), String::new(), Some("gpu-test3".into())))
        );
        assert_eq!(of("kubectl get po -n gpu-test3"), Some((String::new(), String::new(), Some("gpu-test3".into()))));
        // A list marker before the command (corpus 113's numbered steps).
        assert_eq!(
            of("2. kubectl get po -n gpu-test3"),
            Some((String::new(), String::new(), Some("gpu-test3".into())))
        );
        assert_eq!(of("→ kubectl describe pod x"), Some(("Pod".into(), "x".into(), None)));
        assert_eq!(of("version 2. kubectl describe pod x"), None);
        // oh-my-zsh's prompt: the directory after the arrow; the `kc` alias (corpus 202).
        assert_eq!(
            of("(base) ➜  helm kc describe pod  p-6s6td -n gpu"),
            Some(("Pod".into(), "p-6s6td".into(), Some("gpu".into())))
        );
        assert_eq!(of("kubectl logs x-0 -n ns-a"), None);
    }
}
