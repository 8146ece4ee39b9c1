//! Container lifecycle notes of the kubelet: `Created`, `Started`, `Killing`
//! (kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go, kuberuntime_manager.go;
//! v1.9–v1.36: PR #73892 for `Stopping container`, PR #130471 for `Created container: %s`,
//! PR #134043 for `Container created` / `Container started`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::template::captures;

/// A container name as printed in a note: one non-empty word.
fn container_name(text: &str) -> Option<String> {
    (!text.is_empty() && !text.contains(char::is_whitespace)).then(|| text.to_owned())
}

/// The runtime created a container (`Created`): ≥1.35 `Container created`, 1.33–1.34 `Created
/// container: %s`, 1.14–1.32 `Created container %s`, ≤1.13 `Created container`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContainerCreated {
    /// Container name; `None` in the ≥1.35 and ≤1.13 forms (take it from the event's fieldPath).
    pub container: Option<String>,
}

impl ContainerCreated {
    /// Parse any `Created` form.
    pub fn parse(note: &str) -> Option<Self> {
        let container = match note {
            "Container created" | "Created container" => None,
            _ => {
                let rest = note.strip_prefix("Created container")?;
                let name = rest.strip_prefix(": ").or_else(|| rest.strip_prefix(' '))?;
                Some(container_name(name)?)
            }
        };
        Some(ContainerCreated { container })
    }
}

/// The runtime started a container (`Started`): ≥1.35 `Container started`, 1.14–1.34 `Started
/// container %s`, ≤1.13 `Started container`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContainerStarted {
    /// Container name; `None` in the ≥1.35 and ≤1.13 forms (take it from the event's fieldPath).
    pub container: Option<String>,
}

impl ContainerStarted {
    /// Parse any `Started` form.
    pub fn parse(note: &str) -> Option<Self> {
        let container = match note {
            "Container started" | "Started container" => None,
            _ => {
                let rest = note.strip_prefix("Started container")?;
                let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix(": "))?;
                Some(container_name(name)?)
            }
        };
        Some(ContainerStarted { container })
    }
}

/// Why the kubelet is stopping a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum KillCause {
    /// `Stopping container %s`: Pod deletion, eviction or preemption (no specific reason).
    Stopping,
    /// `Container %s failed liveness probe, will be restarted`.
    LivenessProbeFailed,
    /// `Container %s failed startup probe, will be restarted`.
    StartupProbeFailed,
    /// `Container %s definition changed, will be restarted`.
    DefinitionChanged,
    /// `FailedPostStartHook`: the postStart hook failed.
    PostStartHookFailed,
    /// Another reason; its text is in `message`.
    Other,
}

/// The kubelet is stopping a container (`Killing`).
///
/// Forms: `Stopping container %s` (≥1.14), `Container %s failed liveness probe, will be
/// restarted`, `Container %s failed startup probe, will be restarted`, `Container %s definition
/// changed, will be restarted`, `FailedPostStartHook`, and ≤1.13 `Killing container with id
/// %s:%s` (a runtime-prefixed ID such as `docker://app`, then the reason).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContainerKilling {
    /// Container name (`None` for `FailedPostStartHook`).
    pub container: Option<String>,
    /// The classified reason.
    pub cause: KillCause,
    /// The reason text when it is not one of the fixed forms (`Other`, and the ≤1.13 form).
    pub message: Option<String>,
}

impl ContainerKilling {
    /// Parse any `Killing` form.
    pub fn parse(note: &str) -> Option<Self> {
        if note == "FailedPostStartHook" {
            return Some(ContainerKilling { container: None, cause: KillCause::PostStartHookFailed, message: None });
        }
        if let Some([name]) = captures("Stopping container %s", note) {
            return Some(ContainerKilling {
                container: Some(container_name(name)?),
                cause: KillCause::Stopping,
                message: None,
            });
        }
        if let Some(rest) = note.strip_prefix("Killing container with id ") {
            // `docker://app:Need to kill Pod`: the ID itself contains `://`.
            let id_end = rest.find("://").map_or(0, |at| at + 3);
            let (id, message) = rest.get(id_end..)?.split_once(':')?;
            let message = message.trim();
            return Some(ContainerKilling {
                container: Some(container_name(id)?),
                cause: legacy_cause(message),
                message: Some(message.to_owned()),
            });
        }
        let [name, reason] = captures("Container %s %s", note)?;
        let cause = match reason {
            "failed liveness probe, will be restarted" => KillCause::LivenessProbeFailed,
            "failed startup probe, will be restarted" => KillCause::StartupProbeFailed,
            "definition changed, will be restarted" => KillCause::DefinitionChanged,
            _ => KillCause::Other,
        };
        Some(ContainerKilling {
            container: Some(container_name(name)?),
            cause,
            message: (cause == KillCause::Other).then(|| reason.to_owned()),
        })
    }
}

/// The cause behind a ≤1.13 `Killing container with id` reason text.
fn legacy_cause(message: &str) -> KillCause {
    if message.contains("liveness probe") {
        KillCause::LivenessProbeFailed
    } else if message.contains("startup probe") {
        KillCause::StartupProbeFailed
    } else if message.contains("definition changed") {
        KillCause::DefinitionChanged
    } else if message.contains("Need to kill Pod") {
        KillCause::Stopping
    } else if message.contains("PostStartHook") {
        KillCause::PostStartHookFailed
    } else {
        KillCause::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_and_started_every_version() {
        for (note, want) in [
            ("Container created", None),
            ("Created container: trainer", Some("trainer")),
            ("Created container trainer", Some("trainer")),
            ("Created container", None),
        ] {
            assert_eq!(ContainerCreated::parse(note).unwrap().container.as_deref(), want, "{note}");
        }
        for (note, want) in
            [("Container started", None), ("Started container trainer", Some("trainer")), ("Started container", None)]
        {
            assert_eq!(ContainerStarted::parse(note).unwrap().container.as_deref(), want, "{note}");
        }
        for bad in ["Created container ", "Created containers x", "Created container a b", "Container is created"] {
            assert_eq!(ContainerCreated::parse(bad), None, "{bad}");
        }
        for bad in ["Started container ", "Started", "Container started now"] {
            assert_eq!(ContainerStarted::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn killing_every_form() {
        let cases = [
            ("Stopping container trainer", Some("trainer"), KillCause::Stopping, None),
            (
                "Container vllm failed liveness probe, will be restarted",
                Some("vllm"),
                KillCause::LivenessProbeFailed,
                None,
            ),
            (
                "Container vllm failed startup probe, will be restarted",
                Some("vllm"),
                KillCause::StartupProbeFailed,
                None,
            ),
            ("Container app definition changed, will be restarted", Some("app"), KillCause::DefinitionChanged, None),
            ("FailedPostStartHook", None, KillCause::PostStartHookFailed, None),
            ("Container app resize requires restart", Some("app"), KillCause::Other, Some("resize requires restart")),
            (
                "Killing container with id docker://app:Need to kill Pod",
                Some("app"),
                KillCause::Stopping,
                Some("Need to kill Pod"),
            ),
            (
                "Killing container with id docker://liveness:Container failed liveness probe.. Container will be killed and recreated.",
                Some("liveness"),
                KillCause::LivenessProbeFailed,
                Some("Container failed liveness probe.. Container will be killed and recreated."),
            ),
        ];
        for (note, container, cause, message) in cases {
            let k = ContainerKilling::parse(note).unwrap_or_else(|| panic!("{note}"));
            assert_eq!(k.container.as_deref(), container, "{note}");
            assert_eq!(k.cause, cause, "{note}");
            assert_eq!(k.message.as_deref(), message, "{note}");
        }
        for bad in ["Stopping container", "Stopping container a b", "Killing container with id nocolon", "Killing"] {
            assert_eq!(ContainerKilling::parse(bad), None, "{bad}");
        }
    }
}
