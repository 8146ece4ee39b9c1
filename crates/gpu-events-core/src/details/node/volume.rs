//! Volume notes: kubelet `FailedMount` and `FailedMapVolume`
//! (kubernetes/kubernetes pkg/kubelet/volumemanager/volume_manager.go,
//! pkg/volume/util/operationexecutor/operation_generator.go) and the attach/detach controller's
//! `FailedAttachVolume` (pkg/controller/volume/attachdetach/reconciler/reconciler.go); v1.9–v1.36.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{NodeDetails, go_list, grpc_parts, split_quoted};
use crate::details::{Details, Grammar, Note};

/// The kubelet gave up waiting for the Pod's volumes (`FailedMount`).
///
/// Forms: `Unable to attach or mount volumes: unmounted volumes=[%s], unattached volumes=[%s],
/// failed to process volumes=[%s]: %v` (the last list is newer), the same without `failed to
/// process volumes`, the old `Unable to mount volumes for pod %q: timeout expired waiting
/// for volumes to attach or mount for pod %q. list of unmounted volumes=%v. list of unattached
/// volumes=%v` (v1.10-v1.16), and the older `... to attach/mount for pod %q/%q. list of
/// unattached/unmounted volumes=%v` (v1.5-v1.9, whose one list is kept as `unmounted`). Lists
/// are space-separated volume names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolumesNotMounted {
    /// Volumes not mounted yet (in the v1.5-v1.9 form, not attached or not mounted).
    pub unmounted: Vec<String>,
    /// Volumes not attached yet.
    pub unattached: Vec<String>,
    /// Volumes the volume manager failed to process (newer kubelets; empty otherwise).
    pub failed_to_process: Vec<String>,
    /// The Pod as the old form names it (`name_namespace(uid)`), verbatim.
    pub pod: Option<String>,
    /// The error (`timed out waiting for the condition`, `context deadline exceeded`, or the old
    /// form's `timeout expired waiting for volumes to attach or mount for pod ...`).
    pub error: String,
}

impl VolumesNotMounted {
    /// Parse any of the three forms.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some(rest) = note.strip_prefix("Unable to attach or mount volumes: ") {
            let (unmounted, rest) = bracketed(rest, "unmounted volumes=")?;
            let (unattached, rest) = bracketed(rest.strip_prefix(", ")?, "unattached volumes=")?;
            let (failed_to_process, rest) = match rest.strip_prefix(", ") {
                Some(rest) => bracketed(rest, "failed to process volumes=")?,
                None => (Vec::new(), rest),
            };
            return Some(VolumesNotMounted {
                unmounted,
                unattached,
                failed_to_process,
                pod: None,
                error: rest.strip_prefix(": ")?.to_owned(),
            });
        }
        let rest = note.strip_prefix("Unable to mount volumes for pod ")?;
        let (pod, rest) = match split_quoted(rest) {
            Some((pod, rest)) => (pod, rest),
            None => {
                let (pod, rest) = rest.split_once(": ")?;
                (pod.to_owned(), rest)
            }
        };
        let rest = rest.strip_prefix(": ").unwrap_or(rest);
        // v1.5-v1.9: one list of the volumes not attached or not mounted.
        if let Some((error, list)) = rest.split_once(". list of unattached/unmounted volumes=") {
            return Some(VolumesNotMounted {
                unmounted: go_list(list.trim_end().trim_end_matches('.'))?,
                unattached: Vec::new(),
                failed_to_process: Vec::new(),
                pod: Some(pod),
                error: error.to_owned(),
            });
        }
        let (error, lists) = rest.split_once(". list of unmounted volumes=")?;
        let (unmounted, unattached) = lists.split_once(". list of unattached volumes=")?;
        Some(VolumesNotMounted {
            unmounted: go_list(unmounted)?,
            unattached: go_list(unattached.trim_end().trim_end_matches('.'))?,
            failed_to_process: Vec::new(),
            pod: Some(pod),
            error: error.to_owned(),
        })
    }
}

/// `<label>[a b c]` at the start of `text`: the list and the rest after `]`.
fn bracketed<'a>(text: &'a str, label: &str) -> Option<(Vec<String>, &'a str)> {
    let inner = text.strip_prefix(label)?.strip_prefix('[')?;
    let (list, rest) = inner.split_once(']')?;
    Some((list.split_whitespace().map(str::to_owned).collect(), rest))
}

/// A volume operation failed for one volume: `%s failed for volume %q : %v`, where the
/// operation is `MountVolume.SetUp`, `MountVolume.MountDevice`, `MountVolume.WaitForAttach`,
/// `MapVolume.*` (kubelet) or `AttachVolume.Attach` (attach/detach controller).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolumeOperationFailed {
    /// The operation (`MountVolume.SetUp`, `AttachVolume.Attach`, ...).
    pub operation: String,
    /// The volume name (the Pod's volume, or the PersistentVolume for attach).
    pub volume: String,
    /// The outermost gRPC code of a CSI error, when present.
    pub grpc_code: Option<String>,
    /// The error, verbatim (empty when the note has none).
    pub error: String,
}

impl VolumeOperationFailed {
    /// Parse `%s failed for volume %q : %v`.
    pub fn parse(note: &str) -> Option<Self> {
        let (operation, rest) = note.split_once(" failed for volume ")?;
        if operation.is_empty() || operation.contains(' ') || !operation.contains('.') {
            return None;
        }
        let (volume, rest) = split_quoted(rest)?;
        let error = match rest.strip_prefix(" : ") {
            Some(error) => error,
            None if rest.trim().is_empty() => "",
            None => rest.strip_prefix(": ")?,
        };
        Some(VolumeOperationFailed {
            operation: operation.to_owned(),
            volume,
            grpc_code: grpc_parts(error).map(|(code, _)| code.to_owned()),
            error: error.to_owned(),
        })
    }
}

impl VolumeOperationFailed {
    /// What the error says is missing or failing, when it says so.
    pub fn problem(&self) -> Option<VolumeProblem> {
        VolumeProblem::find(&self.error)
    }
}

/// What keeps a volume from mounting (or a container from being configured), read from a kubelet
/// error (volume plugins, the CSI client, API `NotFound` errors, CreateContainerConfigError).
/// The kind decides what to look at next: a Secret, a ConfigMap, a claim, or the CSI driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", tag = "type")]
#[non_exhaustive]
pub enum VolumeProblem {
    /// `secret "x" not found` (also `secrets "x" not found`).
    SecretNotFound {
        /// The Secret's name.
        name: String,
    },
    /// `configmap "x" not found` (also `configmaps "x" not found`).
    ConfigMapNotFound {
        /// The ConfigMap's name.
        name: String,
    },
    /// `persistentvolumeclaim "x" not found` (also plural).
    ClaimNotFound {
        /// The PersistentVolumeClaim's name.
        name: String,
    },
    /// A key the Pod references is not in the ConfigMap: `couldn't find key K in ConfigMap
    /// ns/name` (the kubelet's CreateContainerConfigError).
    ConfigMapKeyNotFound {
        /// The ConfigMap's name.
        name: String,
        /// The missing key.
        key: String,
    },
    /// A key the Pod references is not in the Secret: `couldn't find key K in Secret ns/name`.
    SecretKeyNotFound {
        /// The Secret's name.
        name: String,
        /// The missing key.
        key: String,
    },
    /// The CSI driver is not registered with the kubelet of the node: `driver name X not found
    /// in the list of registered CSI drivers`.
    CsiDriverNotRegistered {
        /// The driver name (`ebs.csi.aws.com`).
        driver: String,
    },
    /// The CSI driver answered with a gRPC error (`rpc error: code = ... desc = ...`), or the
    /// error comes from the `kubernetes.io/csi` plugin.
    CsiDriverError,
}

impl VolumeProblem {
    /// The first problem named in `error`.
    pub fn find(error: &str) -> Option<VolumeProblem> {
        if let Some(driver) = after_marker(error, "driver name ", " not found in the list of registered CSI drivers") {
            return Some(VolumeProblem::CsiDriverNotRegistered { driver: driver.to_owned() });
        }
        if let Some(rest) = error.split("couldn't find key ").nth(1)
            && let Some((key, rest)) = rest.split_once(" in ")
            && let Some((kind, object)) = rest.split_once(' ')
        {
            let object = object.split([' ', ',', ';']).next().unwrap_or(object);
            let name = object.rsplit('/').next().unwrap_or(object).to_owned();
            let key = key.to_owned();
            match kind {
                "ConfigMap" => return Some(VolumeProblem::ConfigMapKeyNotFound { name, key }),
                "Secret" => return Some(VolumeProblem::SecretKeyNotFound { name, key }),
                _ => {}
            }
        }
        let mut rest = error;
        while let Some(at) = rest.find("\" not found") {
            let before = &rest[..at];
            if let Some(open) = before.rfind('"') {
                let name = &before[open + 1..];
                let kind = before[..open].trim_end().rsplit([' ', '[', ':', '(']).next().unwrap_or("");
                let kind = kind.to_ascii_lowercase();
                let kind = kind.strip_suffix('s').unwrap_or(&kind);
                let name = name.to_owned();
                match kind {
                    "secret" => return Some(VolumeProblem::SecretNotFound { name }),
                    "configmap" => return Some(VolumeProblem::ConfigMapNotFound { name }),
                    "persistentvolumeclaim" => return Some(VolumeProblem::ClaimNotFound { name }),
                    _ => {}
                }
            }
            rest = &rest[at + 1..];
        }
        (error.contains("kubernetes.io/csi") || super::grpc_parts(error).is_some())
            .then_some(VolumeProblem::CsiDriverError)
    }
}

/// The text between `start` and `end`, when `end` follows `start` with no space in between.
fn after_marker<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let end_at = text.find(end)?;
    let head = &text[..end_at];
    let value = &head[head.rfind(start)? + start.len()..];
    (!value.is_empty() && !value.contains(' ')).then_some(value)
}

/// A ReadWriteOnce volume is still attached or in use elsewhere (`FailedAttachVolume`,
/// pkg/controller/volume/attachdetach/reconciler/reconciler.go): `Multi-Attach error for volume
/// %q Volume is already exclusively attached to one node and can't be attached to another`,
/// `... Volume is already used by pod(s) %s[ and %d pod(s) in different namespaces]`, or
/// `... Volume is already used by %d pod(s) in different namespaces`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VolumeMultiAttach {
    /// The volume name.
    pub volume: String,
    /// `true` for the `exclusively attached to one node` form (no Pods named).
    pub exclusively_attached: bool,
    /// Pods in the same namespace that use the volume.
    pub pods: Vec<String>,
    /// Number of Pods in other namespaces that use it (count), when given.
    pub other_namespace_pods: Option<u32>,
}

impl VolumeMultiAttach {
    /// Parse any Multi-Attach form.
    pub fn parse(note: &str) -> Option<Self> {
        let (volume, rest) = split_quoted(note.strip_prefix("Multi-Attach error for volume ")?)?;
        let rest = rest.strip_prefix(" Volume is already ")?;
        let mut attach =
            VolumeMultiAttach { volume, exclusively_attached: false, pods: Vec::new(), other_namespace_pods: None };
        if rest.starts_with("exclusively attached to one node") {
            attach.exclusively_attached = true;
            return Some(attach);
        }
        let used_by = rest.strip_prefix("used by ")?;
        const OTHERS: &str = " pod(s) in different namespaces";
        if let Some(pods) = used_by.strip_prefix("pod(s) ") {
            let pods = match pods.rsplit_once(" and ") {
                Some((pods, count)) if count.ends_with(OTHERS) => {
                    attach.other_namespace_pods = Some(count.strip_suffix(OTHERS)?.trim().parse().ok()?);
                    pods
                }
                _ => pods,
            };
            attach.pods = pods.split(", ").map(|p| p.trim().to_owned()).collect();
        } else {
            attach.other_namespace_pods = Some(used_by.strip_suffix(OTHERS)?.trim().parse().ok()?);
        }
        Some(attach)
    }
}

/// Grammar of kubelet `FailedMount`.
pub(crate) static FAILED_MOUNT: Grammar =
    Grammar::new(&[VolumesNotMounted::KIND, VolumeOperationFailed::KIND], |note: &Note<'_>| {
        if let Some(d) = VolumesNotMounted::parse(note.text) {
            return Some(Details::Node(NodeDetails::VolumesNotMounted(d)));
        }
        VolumeOperationFailed::parse(note.text).map(|d| Details::Node(NodeDetails::VolumeOperationFailed(d)))
    });

/// Grammar of attach/detach controller `FailedAttachVolume`.
pub(crate) static FAILED_ATTACH_VOLUME: Grammar =
    Grammar::new(&[VolumeOperationFailed::KIND, VolumeMultiAttach::KIND], |note: &Note<'_>| {
        if let Some(d) = VolumeMultiAttach::parse(note.text) {
            return Some(Details::Node(NodeDetails::VolumeMultiAttach(d)));
        }
        VolumeOperationFailed::parse(note.text).map(|d| Details::Node(NodeDetails::VolumeOperationFailed(d)))
    });

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_v1_7_form_has_one_list() {
        // kubernetes/kubernetes#48968 (a new user's paste).
        let old = VolumesNotMounted::parse("Unable to mount volumes for pod \"imgs-640158079-lq5rg_imgs(cc617d27-76c1)\": timeout expired waiting for volumes to attach/mount for pod \"imgs\"/\"imgs-640158079-lq5rg\". list of unattached/unmounted volumes=[nginx-cache]").unwrap();
        assert_eq!(old.unmounted, ["nginx-cache"]);
        assert_eq!(old.pod.as_deref(), Some("imgs-640158079-lq5rg_imgs(cc617d27-76c1)"));
        assert!(old.error.starts_with("timeout expired waiting for volumes to attach/mount"));
    }

    #[test]
    fn volume_lists_in_every_form() {
        let newest = VolumesNotMounted::parse(
            "Unable to attach or mount volumes: unmounted volumes=[model-cache dshm], unattached volumes=[kube-api-access-x model-cache dshm], failed to process volumes=[]: timed out waiting for the condition",
        )
        .unwrap();
        assert_eq!(newest.unmounted, ["model-cache", "dshm"]);
        assert_eq!(newest.unattached, ["kube-api-access-x", "model-cache", "dshm"]);
        assert!(newest.failed_to_process.is_empty());
        assert_eq!(newest.error, "timed out waiting for the condition");

        let middle = VolumesNotMounted::parse(
            "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[]: context deadline exceeded",
        )
        .unwrap();
        assert_eq!((middle.unmounted.len(), middle.unattached.len()), (1, 0));
        assert_eq!(middle.error, "context deadline exceeded");

        let old = VolumesNotMounted::parse(
            "Unable to mount volumes for pod \"trainer-0_ml(8c1f)\": timeout expired waiting for volumes to attach or mount for pod \"ml\"/\"trainer-0\". list of unmounted volumes=[data]. list of unattached volumes=[data default-token-abc]",
        )
        .unwrap();
        assert_eq!(old.pod.as_deref(), Some("trainer-0_ml(8c1f)"));
        assert_eq!(old.unmounted, ["data"]);
        assert_eq!(old.unattached, ["data", "default-token-abc"]);
        assert!(old.error.starts_with("timeout expired"));

        for bad in [
            "Unable to attach or mount volumes: unmounted volumes=[a]",
            "Unable to attach or mount volumes: unmounted volumes=[a], unattached volumes=[b]",
            "Unable to mount volumes for pod \"x\": timeout",
        ] {
            assert_eq!(VolumesNotMounted::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn operations() {
        let setup = VolumeOperationFailed::parse(
            "MountVolume.SetUp failed for volume \"model-config\" : configmap \"model-config\" not found",
        )
        .unwrap();
        assert_eq!((setup.operation.as_str(), setup.volume.as_str()), ("MountVolume.SetUp", "model-config"));
        assert_eq!(setup.error, "configmap \"model-config\" not found");
        assert_eq!(setup.grpc_code, None);
        let device = VolumeOperationFailed::parse(
            "MountVolume.MountDevice failed for volume \"pvc-1\" : rpc error: code = Internal desc = mount failed: exit status 32",
        )
        .unwrap();
        assert_eq!(device.grpc_code.as_deref(), Some("Internal"));
        let attach = VolumeOperationFailed::parse(
            "AttachVolume.Attach failed for volume \"pvc-2\" : rpc error: code = DeadlineExceeded desc = context deadline exceeded",
        )
        .unwrap();
        assert_eq!(attach.operation, "AttachVolume.Attach");
        let bare = VolumeOperationFailed::parse("MapVolume.MapPodDevice failed for volume \"raw\" ").unwrap();
        assert_eq!(bare.error, "");
        for bad in [
            "MountVolume.SetUp failed for volume data : x",
            "something failed for volume \"x\" : y",
            "failed for volume \"x\" : y",
        ] {
            assert_eq!(VolumeOperationFailed::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn what_a_volume_lacks() {
        let problem = |error: &str| VolumeProblem::find(error);
        let name = |n: &str| n.to_owned();
        assert_eq!(
            problem("secret \"hf-token\" not found"),
            Some(VolumeProblem::SecretNotFound { name: name("hf-token") })
        );
        assert_eq!(
            problem("secrets \"hf-token\" not found"),
            Some(VolumeProblem::SecretNotFound { name: name("hf-token") })
        );
        assert_eq!(
            problem("configmap \"model-config\" not found"),
            Some(VolumeProblem::ConfigMapNotFound { name: name("model-config") })
        );
        assert_eq!(
            problem("error getting ConfigMaps \"x\" not found"),
            Some(VolumeProblem::ConfigMapNotFound { name: name("x") })
        );
        assert_eq!(
            problem("persistentvolumeclaim \"cache\" not found"),
            Some(VolumeProblem::ClaimNotFound { name: name("cache") })
        );
        assert_eq!(
            problem(
                "kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ebs.csi.aws.com not found in the list of registered CSI drivers"
            ),
            Some(VolumeProblem::CsiDriverNotRegistered { driver: name("ebs.csi.aws.com") })
        );
        assert_eq!(
            problem("rpc error: code = Internal desc = mount failed: exit status 32"),
            Some(VolumeProblem::CsiDriverError)
        );
        assert_eq!(
            problem("couldn't find key HF_TOKEN in Secret ml/hf"),
            Some(VolumeProblem::SecretKeyNotFound { name: name("hf"), key: name("HF_TOKEN") })
        );
        assert_eq!(
            problem("couldn't find key model in ConfigMap ml/cfg"),
            Some(VolumeProblem::ConfigMapKeyNotFound { name: name("cfg"), key: name("model") })
        );
        // A quoted name of another kind is skipped; the kind after it still counts.
        assert_eq!(
            problem("node \"a\" not found, secret \"s\" not found"),
            Some(VolumeProblem::SecretNotFound { name: name("s") })
        );
        for none in ["timed out waiting for the condition", "node \"a\" not found", "\" not found", ""] {
            assert_eq!(problem(none), None, "{none}");
        }
        let setup =
            VolumeOperationFailed::parse("MountVolume.SetUp failed for volume \"x\" : secret \"y\" not found").unwrap();
        assert_eq!(setup.problem(), Some(VolumeProblem::SecretNotFound { name: name("y") }));
    }

    #[test]
    fn multi_attach() {
        let exclusive = VolumeMultiAttach::parse(
            "Multi-Attach error for volume \"pvc-9\" Volume is already exclusively attached to one node and can't be attached to another",
        )
        .unwrap();
        assert!(exclusive.exclusively_attached && exclusive.pods.is_empty());
        let pods = VolumeMultiAttach::parse(
            "Multi-Attach error for volume \"pvc-9\" Volume is already used by pod(s) trainer-0, trainer-1 and 2 pod(s) in different namespaces",
        )
        .unwrap();
        assert_eq!(pods.pods, ["trainer-0", "trainer-1"]);
        assert_eq!(pods.other_namespace_pods, Some(2));
        let same_ns = VolumeMultiAttach::parse(
            "Multi-Attach error for volume \"pvc-9\" Volume is already used by pod(s) trainer-0",
        )
        .unwrap();
        assert_eq!((same_ns.pods.len(), same_ns.other_namespace_pods), (1, None));
        let others = VolumeMultiAttach::parse(
            "Multi-Attach error for volume \"pvc-9\" Volume is already used by 3 pod(s) in different namespaces",
        )
        .unwrap();
        assert_eq!((others.pods.len(), others.other_namespace_pods), (0, Some(3)));
        assert_eq!(
            VolumeMultiAttach::parse("Multi-Attach error for volume \"x\" Volume is already used by many"),
            None
        );
    }
}
