//! The resource types the server knows: their group, version, plural, kind and scope.

use std::borrow::Cow;

/// A resource type served by the [`ApiServer`](crate::ApiServer): group, version, plural, kind and scope.
///
/// The constants cover the types the gpu-events crates read and write. Custom resources (for example
/// TensorFusion's `GPUPool`) are added with [`ApiServer::register`](crate::ApiServer::register), or implicitly by
/// [`ApiServer::insert`](crate::ApiServer::insert).
///
/// Both Event APIs ([`ResourceType::CORE_EVENTS`] and [`ResourceType::EVENTS_V1`]) share one storage, as in
/// kube-apiserver: an Event created through one is visible, converted, through the other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceType {
    /// API group, empty for the core group (`""` for `v1`, `"events.k8s.io"`, `"apps"`, ...).
    pub group: Cow<'static, str>,
    /// API version within the group (`"v1"`).
    pub version: Cow<'static, str>,
    /// Plural resource name used in URLs (`"events"`, `"pods"`).
    pub plural: Cow<'static, str>,
    /// Kind of the objects (`"Event"`, `"Pod"`).
    pub kind: Cow<'static, str>,
    /// Whether objects live in a namespace.
    pub namespaced: bool,
}

const fn builtin(group: &'static str, plural: &'static str, kind: &'static str, namespaced: bool) -> ResourceType {
    ResourceType {
        group: Cow::Borrowed(group),
        version: Cow::Borrowed("v1"),
        plural: Cow::Borrowed(plural),
        kind: Cow::Borrowed(kind),
        namespaced,
    }
}

impl ResourceType {
    /// `core/v1` `events` (`/api/v1/namespaces/{ns}/events`).
    pub const CORE_EVENTS: ResourceType = builtin("", "events", "Event", true);
    /// `events.k8s.io/v1` `events` (`/apis/events.k8s.io/v1/namespaces/{ns}/events`).
    pub const EVENTS_V1: ResourceType = builtin("events.k8s.io", "events", "Event", true);
    /// `core/v1` `pods`.
    pub const PODS: ResourceType = builtin("", "pods", "Pod", true);
    /// `core/v1` `nodes` (cluster-scoped).
    pub const NODES: ResourceType = builtin("", "nodes", "Node", false);
    /// `core/v1` `namespaces` (cluster-scoped).
    pub const NAMESPACES: ResourceType = builtin("", "namespaces", "Namespace", false);
    /// `apps/v1` `replicasets`.
    pub const REPLICA_SETS: ResourceType = builtin("apps", "replicasets", "ReplicaSet", true);
    /// `apps/v1` `deployments`.
    pub const DEPLOYMENTS: ResourceType = builtin("apps", "deployments", "Deployment", true);
    /// `apps/v1` `statefulsets`.
    pub const STATEFUL_SETS: ResourceType = builtin("apps", "statefulsets", "StatefulSet", true);
    /// `apps/v1` `daemonsets`.
    pub const DAEMON_SETS: ResourceType = builtin("apps", "daemonsets", "DaemonSet", true);
    /// `batch/v1` `jobs`.
    pub const JOBS: ResourceType = builtin("batch", "jobs", "Job", true);
    /// `coordination.k8s.io/v1` `leases` (for leader election).
    pub const LEASES: ResourceType = builtin("coordination.k8s.io", "leases", "Lease", true);

    /// A resource type with the given group, version, plural, kind and scope.
    pub fn new(
        group: impl Into<String>,
        version: impl Into<String>,
        plural: impl Into<String>,
        kind: impl Into<String>,
        namespaced: bool,
    ) -> Self {
        ResourceType {
            group: Cow::Owned(group.into()),
            version: Cow::Owned(version.into()),
            plural: Cow::Owned(plural.into()),
            kind: Cow::Owned(kind.into()),
            namespaced,
        }
    }

    /// The `apiVersion` of the objects: `"v1"` for the core group, `"group/version"` otherwise.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.to_string() } else { format!("{}/{}", self.group, self.version) }
    }

    /// The URL of the collection, relative to the server root, in `namespace` when given.
    ///
    /// `ResourceType::EVENTS_V1.collection_path(Some("ml"))` is `/apis/events.k8s.io/v1/namespaces/ml/events`.
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        let root = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        match namespace {
            Some(ns) if self.namespaced => format!("{root}/namespaces/{ns}/{}", self.plural),
            _ => format!("{root}/{}", self.plural),
        }
    }

    /// Whether this is one of the two Event APIs.
    pub fn is_event(&self) -> bool {
        self.plural == "events" && (self.group.is_empty() || self.group == "events.k8s.io")
    }

    /// The storage shared by all versions of the resource (both Event APIs share `events`).
    pub(crate) fn storage(&self) -> String {
        if self.is_event() { "events".to_string() } else { format!("{}/{}", self.group, self.plural) }
    }

    /// The qualified resource used in error messages: `events.events.k8s.io`, `pods`.
    pub(crate) fn qualified(&self) -> String {
        if self.group.is_empty() { self.plural.to_string() } else { format!("{}.{}", self.plural, self.group) }
    }

    /// The qualified kind used in validation messages: `Event.events.k8s.io`, `Event`.
    pub(crate) fn qualified_kind(&self) -> String {
        if self.group.is_empty() { self.kind.to_string() } else { format!("{}.{}", self.kind, self.group) }
    }

    /// The kind of the list objects (`EventList`).
    pub(crate) fn list_kind(&self) -> String {
        format!("{}List", self.kind)
    }

    pub(crate) fn builtins() -> Vec<ResourceType> {
        vec![
            Self::CORE_EVENTS,
            Self::EVENTS_V1,
            Self::PODS,
            Self::NODES,
            Self::NAMESPACES,
            Self::REPLICA_SETS,
            Self::DEPLOYMENTS,
            Self::STATEFUL_SETS,
            Self::DAEMON_SETS,
            Self::JOBS,
            Self::LEASES,
        ]
    }
}

/// Splits an `apiVersion` into group and version (`"v1"` is the core group).
pub(crate) fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((group, version)) => (group, version),
        None => ("", api_version),
    }
}

/// Guesses the plural of a kind as Kubernetes' default RESTMapper does.
pub(crate) fn guess_plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s') || lower.ends_with("ch") || lower.ends_with("sh") || lower.ends_with('x') {
        format!("{lower}es")
    } else if let Some(stem) = lower.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{stem}ies")
    } else {
        format!("{lower}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_names() {
        assert_eq!(ResourceType::EVENTS_V1.collection_path(Some("ml")), "/apis/events.k8s.io/v1/namespaces/ml/events");
        assert_eq!(ResourceType::NODES.collection_path(Some("ml")), "/api/v1/nodes");
        assert_eq!(ResourceType::EVENTS_V1.qualified(), "events.events.k8s.io");
        assert_eq!(ResourceType::CORE_EVENTS.storage(), ResourceType::EVENTS_V1.storage());
        assert_eq!(guess_plural("GPUPool"), "gpupools");
        assert_eq!(guess_plural("Policy"), "policies");
        assert_eq!(guess_plural("Ingress"), "ingresses");
        assert_eq!(split_api_version("apps/v1"), ("apps", "v1"));
    }
}
