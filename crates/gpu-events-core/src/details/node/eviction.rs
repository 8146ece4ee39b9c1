//! Kubelet eviction notes: `Evicted` (a concatenation of fragments, each ending in `. `) and
//! `EvictionThresholdMet` (kubernetes/kubernetes pkg/kubelet/eviction/helpers.go,
//! eviction_manager.go; v1.9–v1.36, PR #111597 for the ≥1.26 container wording).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{go_list, strip_pod_status_prefix, unquote_or_raw};
use crate::details::Quantity;
use crate::details::template::captures;

/// A container named in an eviction note for using more than it requested.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EvictedContainer {
    /// Container name.
    pub name: String,
    /// Usage; `value` in the resource's base unit (bytes for `memory` and
    /// `ephemeral-storage`, a count for `pids`).
    pub usage: Quantity,
    /// Request; `value` in the same unit as `usage`.
    pub request: Quantity,
    /// The resource: stated in the ≥1.26 wording (`has larger consumption of %v`); in the ≤1.25
    /// wording, the node's starved resource when the note names it.
    pub resource: Option<String>,
}

/// What kind of limit an eviction fragment says was exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum LimitScope {
    /// `Container %s exceeded its local ephemeral storage limit %q. `
    Container,
    /// `Pod ephemeral local storage usage exceeds the total limit of containers %s. `
    Pod,
    /// `Usage of EmptyDir volume %q exceeds the limit %q. `
    EmptyDir,
}

/// An ephemeral-storage or emptyDir limit the Pod exceeded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExceededLimit {
    /// Container, Pod or emptyDir volume.
    pub scope: LimitScope,
    /// The container or volume name (`None` for the Pod scope).
    pub name: Option<String>,
    /// The limit; `value` in bytes.
    pub limit: Quantity,
}

/// A Pod evicted by the kubelet (`Evicted`): node pressure or an exceeded limit.
///
/// Example: `The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340,
/// available: 1883424Ki. Container helmer was using 10304Ki, request is 10Mi, has larger
/// consumption of ephemeral-storage. `
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PodEvicted {
    /// The starved node resource (`memory`, `ephemeral-storage`, `pids`, ...).
    pub resource: Option<String>,
    /// The eviction threshold; `value` in the resource's base unit (bytes, or a count for pids).
    pub threshold: Option<Quantity>,
    /// What was available when the threshold was crossed; same unit as `threshold`.
    pub available: Option<Quantity>,
    /// Containers using more than their request, in note order.
    pub containers: Vec<EvictedContainer>,
    /// Node conditions that made admission evict the Pod (`The node had condition: [DiskPressure]. `).
    pub conditions: Vec<String>,
    /// Ephemeral-storage or emptyDir limits exceeded.
    pub exceeded_limits: Vec<ExceededLimit>,
    /// Fragments this parser does not know, verbatim (without the final `.`).
    pub other: Vec<String>,
}

impl PodEvicted {
    /// Parse an eviction note (also as a Pod status message with a `Pod was rejected: ` prefix).
    /// At least one fragment must be known.
    pub fn parse(note: &str) -> Option<Self> {
        let mut evicted = PodEvicted::empty();
        let (stripped, text) = strip_pod_status_prefix(note);
        // `Pod ephemeral local storage usage exceeds ...` starts with the old `Pod ` status
        // prefix: keep the note whole when its first fragment is already a known one.
        let first_known = || fragments(note).next().is_some_and(|first| PodEvicted::empty().fragment(first));
        let text = if stripped && !note.starts_with("Pod was rejected: ") && first_known() { note } else { text };
        let mut known = false;
        for fragment in fragments(text) {
            if evicted.fragment(fragment) {
                known = true;
            } else {
                evicted.other.push(fragment.to_owned());
            }
        }
        if !known {
            return None;
        }
        if let Some(resource) = &evicted.resource {
            for container in &mut evicted.containers {
                if container.resource.is_none() {
                    container.resource = Some(resource.clone());
                }
            }
        }
        Some(evicted)
    }

    /// An eviction with nothing read yet.
    fn empty() -> Self {
        PodEvicted {
            resource: None,
            threshold: None,
            available: None,
            containers: Vec::new(),
            conditions: Vec::new(),
            exceeded_limits: Vec::new(),
            other: Vec::new(),
        }
    }

    /// Read one fragment; `false` when it is not a known one.
    fn fragment(&mut self, fragment: &str) -> bool {
        if let Some([resource]) = captures("The node was low on resource: %v", fragment) {
            self.resource = Some(resource.to_owned());
        } else if let Some([threshold, available]) = captures("Threshold quantity: %v, available: %v", fragment) {
            self.threshold = Some(Quantity::parse(threshold));
            self.available = Some(Quantity::parse(available));
        } else if let Some([name, usage, request, resource]) =
            captures("Container %s was using %s, request is %s, has larger consumption of %v", fragment)
        {
            self.containers.push(EvictedContainer {
                name: name.to_owned(),
                usage: Quantity::parse(usage),
                request: Quantity::parse(request),
                resource: Some(resource.to_owned()),
            });
        } else if let Some([name, usage, request]) =
            captures("Container %s was using %s, which exceeds its request of %s", fragment)
        {
            self.containers.push(EvictedContainer {
                name: name.to_owned(),
                usage: Quantity::parse(usage),
                request: Quantity::parse(request),
                resource: None,
            });
        } else if let Some([conditions]) = captures("The node had condition: %v", fragment) {
            match go_list(conditions) {
                Some(list) => self.conditions.extend(list),
                None => self.conditions.push(conditions.to_owned()),
            }
        } else if let Some([name, limit]) =
            captures("Container %s exceeded its local ephemeral storage limit %q", fragment)
        {
            self.exceeded_limits.push(ExceededLimit {
                scope: LimitScope::Container,
                name: Some(name.to_owned()),
                limit: Quantity::parse(&unquote_or_raw(limit)),
            });
        } else if let Some([limit]) =
            captures("Pod ephemeral local storage usage exceeds the total limit of containers %s", fragment)
        {
            self.exceeded_limits.push(ExceededLimit {
                scope: LimitScope::Pod,
                name: None,
                limit: Quantity::parse(limit),
            });
        } else if let Some([volume, limit]) = captures("Usage of EmptyDir volume %q exceeds the limit %q", fragment) {
            self.exceeded_limits.push(ExceededLimit {
                scope: LimitScope::EmptyDir,
                name: Some(unquote_or_raw(volume)),
                limit: Quantity::parse(&unquote_or_raw(limit)),
            });
        } else {
            return false;
        }
        true
    }
}

/// The fragments of an eviction note: split at every `. ` followed by an upper-case letter, and
/// at the end, where the final `.` (and trailing space) may or may not be present.
fn fragments(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text.trim());
    std::iter::from_fn(move || {
        let text = rest?;
        let split = text.match_indices(". ").find(|(at, _)| {
            text.get(at + 2..).and_then(|tail| tail.chars().next()).is_some_and(|c| c.is_ascii_uppercase())
        });
        let fragment = match split {
            Some((at, _)) => {
                rest = text.get(at + 2..);
                text.get(..at)?
            }
            None => {
                rest = None;
                text.strip_suffix('.').unwrap_or(text)
            }
        };
        Some(fragment)
    })
    .filter(|fragment| !fragment.is_empty())
}

/// A node-pressure eviction threshold was crossed (`EvictionThresholdMet`,
/// pkg/kubelet/eviction/eviction_manager.go): `Attempting to reclaim %s`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceReclaim {
    /// The resource being reclaimed (`memory`, `ephemeral-storage`, `nodefs`, `imagefs`, `pids`).
    pub resource: String,
}

impl ResourceReclaim {
    /// Parse `Attempting to reclaim %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let [resource] = captures("Attempting to reclaim %s", note)?;
        (!resource.is_empty()).then(|| ResourceReclaim { resource: resource.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_wording_with_threshold() {
        let e = PodEvicted::parse(
            "The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340, available: 1883424Ki. Container helmer was using 10304Ki, request is 10Mi, has larger consumption of ephemeral-storage. ",
        )
        .unwrap();
        assert_eq!(e.resource.as_deref(), Some("ephemeral-storage"));
        let threshold = e.threshold.unwrap();
        assert_eq!((threshold.quantity.as_str(), threshold.value), ("2146223340", Some(2146223340.0)));
        assert_eq!(e.available.unwrap().value, Some(1883424.0 * 1024.0));
        assert_eq!(e.containers.len(), 1);
        let c = &e.containers[0];
        assert_eq!(c.name, "helmer");
        assert_eq!(c.usage.value, Some(10304.0 * 1024.0));
        assert_eq!(c.request.quantity, "10Mi");
        assert_eq!(c.resource.as_deref(), Some("ephemeral-storage"));
        assert!(e.other.is_empty() && e.conditions.is_empty() && e.exceeded_limits.is_empty());
    }

    #[test]
    fn old_wording_without_trailing_space() {
        let e = PodEvicted::parse(
            "The node was low on resource: memory. Container wait was using 23608Ki, which exceeds its request of 0. Container main was using 2581084Ki, which exceeds its request of 0.",
        )
        .unwrap();
        assert_eq!(e.resource.as_deref(), Some("memory"));
        let names: Vec<_> = e.containers.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["wait", "main"]);
        assert_eq!(e.containers[1].usage.value, Some(2581084.0 * 1024.0));
        assert_eq!(e.containers[1].request.value, Some(0.0));
        assert_eq!(e.containers[1].resource.as_deref(), Some("memory"), "inferred from the node");
        assert_eq!(e.threshold, None);
    }

    #[test]
    fn conditions_limits_and_unknown_fragments() {
        let admission =
            PodEvicted::parse("Pod was rejected: The node had condition: [DiskPressure MemoryPressure]. ").unwrap();
        assert_eq!(admission.conditions, ["DiskPressure", "MemoryPressure"]);
        assert_eq!(admission.resource, None);

        let limits = PodEvicted::parse(
            "Container trainer exceeded its local ephemeral storage limit \"20Gi\". Pod ephemeral local storage usage exceeds the total limit of containers 40Gi. Usage of EmptyDir volume \"dshm\" exceeds the limit \"8Gi\". Something new happened. ",
        )
        .unwrap();
        let scopes: Vec<_> = limits.exceeded_limits.iter().map(|l| l.scope).collect();
        assert_eq!(scopes, [LimitScope::Container, LimitScope::Pod, LimitScope::EmptyDir]);
        assert_eq!(limits.exceeded_limits[0].name.as_deref(), Some("trainer"));
        assert_eq!(limits.exceeded_limits[0].limit.value, Some(20.0 * 1024f64.powi(3)));
        assert_eq!(limits.exceeded_limits[1].limit.quantity, "40Gi");
        assert_eq!(limits.exceeded_limits[2].name.as_deref(), Some("dshm"));
        assert_eq!(limits.exceeded_limits[2].limit.quantity, "8Gi");
        assert_eq!(limits.other, ["Something new happened"]);

        for bad in ["", "Evicted", "Something else entirely. ", "The node was fine."] {
            assert_eq!(PodEvicted::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn single_pod_limit_fragment_is_not_taken_for_the_status_prefix() {
        let pod_limit = ExceededLimit { scope: LimitScope::Pod, name: None, limit: Quantity::parse("20Gi") };
        for note in [
            "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. ",
            "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.",
            "Pod was rejected: Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. ",
        ] {
            let e = PodEvicted::parse(note).unwrap_or_else(|| panic!("{note}"));
            assert_eq!(e.exceeded_limits, std::slice::from_ref(&pod_limit), "{note}");
            assert!(e.other.is_empty() && e.containers.is_empty() && e.resource.is_none(), "{note}");
            assert_eq!(e.exceeded_limits[0].limit.value, Some(20.0 * 1024f64.powi(3)));
        }
        // The Pod fragment first, then others: the note is still read whole.
        let two = PodEvicted::parse(
            "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. Usage of EmptyDir volume \"dshm\" exceeds the limit \"8Gi\". ",
        )
        .unwrap();
        let scopes: Vec<_> = two.exceeded_limits.iter().map(|l| l.scope).collect();
        assert_eq!(scopes, [LimitScope::Pod, LimitScope::EmptyDir]);
        // The old `Pod ` status prefix before another fragment is still removed.
        let prefixed = PodEvicted::parse("Pod The node had condition: [DiskPressure]. ").unwrap();
        assert_eq!(prefixed.conditions, ["DiskPressure"]);
        assert!(prefixed.other.is_empty());
        assert_eq!(PodEvicted::parse("Pod ephemeral local storage usage is fine. "), None);
    }

    #[test]
    fn fragments_split_only_before_capitals() {
        let parts: Vec<_> = fragments("A v1.2. b. C x. ").collect();
        assert_eq!(parts, ["A v1.2. b", "C x"]);
        assert_eq!(fragments("é. É").collect::<Vec<_>>(), ["é. É"]);
    }

    #[test]
    fn reclaim() {
        assert_eq!(
            ResourceReclaim::parse("Attempting to reclaim ephemeral-storage").unwrap().resource,
            "ephemeral-storage"
        );
        assert_eq!(ResourceReclaim::parse("Attempting to reclaim "), None);
        assert_eq!(ResourceReclaim::parse("Reclaiming memory"), None);
    }
}
