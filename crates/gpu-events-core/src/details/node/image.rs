//! Image notes of the kubelet (kubernetes/kubernetes pkg/kubelet/images/image_manager.go,
//! pkg/kubelet/kuberuntime/kuberuntime_container.go; v1.9–v1.36), and the `Failed` reason, which
//! carries image-pull failures, container waiting reasons and CRI error chains.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::runtime::{RuntimeFailure, RuntimePhase};
use super::{GoDuration, NodeDetails, PodRef, contains_ci, grpc_parts, split_quoted};
use crate::details::template::captures;
use crate::details::{Details, Grammar, Note};

/// The kubelet started pulling an image (pkg/kubelet/images/image_manager.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PullingImage {
    /// The image reference.
    pub image: String,
}

impl PullingImage {
    /// Parse `Pulling image "ref"` (and the pre-1.10 lower-case `pulling image "ref"`).
    pub fn parse(note: &str) -> Option<Self> {
        let rest = note.strip_prefix("Pulling image ").or_else(|| note.strip_prefix("pulling image "))?;
        let (image, rest) = split_quoted(rest)?;
        rest.is_empty().then_some(PullingImage { image })
    }
}

/// The image is ready for the container: pulled now, or already on the node
/// (pkg/kubelet/images/image_manager.go).
///
/// Formats, newest first: `Successfully pulled image %q in %v (%v including waiting). Image size:
/// %v bytes.` (≈1.30+), `... in %v (%v including waiting)` (1.26, PR #111772), `... in %v`
/// (≈1.20, issue #91560), `Successfully pulled image %q`; and `Container image %q already present
/// on machine` (`... and can be accessed by the pod` with KubeletEnsureSecretPulledImages, 1.33+).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PulledImage {
    /// The image reference as written in the container spec.
    pub image: String,
    /// `true` when the image was already on the node (no pull happened).
    pub already_present: bool,
    /// `true` for the `... and can be accessed by the pod` form: the kubelet checked that this
    /// Pod's credentials may use the present image.
    pub access_verified: bool,
    /// Time the pull itself took, when the note gives it.
    pub pull_duration: Option<GoDuration>,
    /// Time including waiting in the pull queue (`%v including waiting`), when given.
    pub total_duration: Option<GoDuration>,
    /// Image size in bytes (`Image size: %v bytes.`), when given.
    pub size_bytes: Option<u64>,
}

impl PulledImage {
    /// Parse any `Pulled` note form.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some(rest) = note.strip_prefix("Container image ") {
            let (image, rest) = split_quoted(rest)?;
            let access_verified = match rest {
                " already present on machine" => false,
                " already present on machine and can be accessed by the pod" => true,
                _ => return None,
            };
            return Some(PulledImage {
                image,
                already_present: true,
                access_verified,
                pull_duration: None,
                total_duration: None,
                size_bytes: None,
            });
        }
        let (image, rest) = split_quoted(note.strip_prefix("Successfully pulled image ")?)?;
        let mut pulled = PulledImage {
            image,
            already_present: false,
            access_verified: false,
            pull_duration: None,
            total_duration: None,
            size_bytes: None,
        };
        if rest.is_empty() {
            return Some(pulled);
        }
        let rest = rest.strip_prefix(" in ")?;
        let Some((pull, rest)) = rest.split_once(" (") else {
            pulled.pull_duration = Some(GoDuration::parse(rest));
            return Some(pulled);
        };
        let (total, rest) = rest.split_once(" including waiting)")?;
        pulled.pull_duration = Some(GoDuration::parse(pull));
        pulled.total_duration = Some(GoDuration::parse(total));
        if !rest.is_empty() {
            let [size] = captures(". Image size: %v bytes.", rest)?;
            pulled.size_bytes = Some(size.parse().ok()?);
        }
        Some(pulled)
    }
}

/// The kubelet is backing off before pulling the image again (`BackOff`, Normal;
/// pkg/kubelet/images/image_manager.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImagePullBackOff {
    /// The image reference.
    pub image: String,
    /// The previous pull error, which the container status message (not the event) appends as
    /// `: <error>` since ≈1.33; `None` for event notes.
    pub last_error: Option<String>,
}

/// The container keeps exiting and is restarted with back-off (`BackOff`, Warning;
/// pkg/kubelet/kuberuntime/kuberuntime_manager.go). ≥1.26 (PR #113216): `Back-off restarting
/// failed container %s in pod %s`; before: `Back-off restarting failed container`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RestartBackOff {
    /// Container name (`None` in the pre-1.26 form; use the event's fieldPath).
    pub container: Option<String>,
    /// The Pod, from the kubelet's `NAME_NAMESPACE(UID)` (`None` in the pre-1.26 form).
    pub pod: Option<PodRef>,
}

/// Grammar of kubelet `BackOff` (image pull back-off or restart back-off).
pub(crate) static BACK_OFF: Grammar =
    Grammar::new(&[ImagePullBackOff::KIND, RestartBackOff::KIND], |note: &Note<'_>| {
        let text = note.text;
        if let Some(rest) = text.strip_prefix("Back-off pulling image ") {
            let (image, rest) = split_quoted(rest)?;
            let last_error = match rest {
                "" => None,
                rest => Some(rest.strip_prefix(": ")?.to_owned()),
            };
            return Some(Details::Node(NodeDetails::ImagePullBackOff(ImagePullBackOff { image, last_error })));
        }
        let back_off = if text == "Back-off restarting failed container" {
            RestartBackOff { container: None, pod: None }
        } else {
            let [container, pod] = captures("Back-off restarting failed container %s in pod %s", text)?;
            if container.is_empty() || container.contains(' ') {
                return None;
            }
            RestartBackOff { container: Some(container.to_owned()), pod: Some(PodRef::parse(pod)?) }
        };
        Some(Details::Node(NodeDetails::RestartBackOff(back_off)))
    });

/// The image is not on the node and `imagePullPolicy` is `Never` (`ErrImageNeverPull`;
/// pkg/kubelet/images/image_manager.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImageNeverPull {
    /// The image reference.
    pub image: String,
}

impl ImageNeverPull {
    /// Parse `Container image %q is not present with pull policy of Never`.
    pub fn parse(note: &str) -> Option<Self> {
        let (image, rest) = split_quoted(note.strip_prefix("Container image ")?)?;
        (rest == " is not present with pull policy of Never").then_some(ImageNeverPull { image })
    }
}

/// Which step of image inspection failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum InspectStep {
    /// `Failed to apply default image tag %q: %v`: the reference is invalid (InvalidImageName).
    ApplyDefaultTag,
    /// `Failed to inspect image %q: %v`: the runtime could not inspect it (ImageInspectError).
    Inspect,
}

/// The kubelet could not normalise or inspect an image (`InspectFailed`;
/// pkg/kubelet/images/image_manager.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImageInspectFailed {
    /// The image reference (empty when the runtime returned no reference).
    pub image: String,
    /// Which step failed.
    pub step: InspectStep,
    /// The error, verbatim.
    pub error: String,
}

impl ImageInspectFailed {
    /// Parse either `InspectFailed` form.
    pub fn parse(note: &str) -> Option<Self> {
        let (step, rest) = if let Some(rest) = note.strip_prefix("Failed to apply default image tag ") {
            (InspectStep::ApplyDefaultTag, rest)
        } else {
            (InspectStep::Inspect, note.strip_prefix("Failed to inspect image ")?)
        };
        let (image, rest) = split_quoted(rest)?;
        Some(ImageInspectFailed { image, step, error: rest.strip_prefix(": ")?.to_owned() })
    }
}

/// Why an image pull failed, classified from the error text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PullFailureCause {
    /// The image, tag or repository does not exist (`not found`, `manifest unknown`).
    NotFound,
    /// The registry refused the credentials (`401 Unauthorized`, `403 Forbidden`,
    /// `pull access denied`, `requested access to the resource is denied`,
    /// `no basic auth credentials`).
    Unauthorized,
    /// The pull timed out or was cancelled by the kubelet (`i/o timeout`,
    /// `context deadline exceeded`, `context canceled`).
    Timeout,
    /// The pull was rate-limited: by the registry (`429 Too Many Requests`, `toomanyrequests`)
    /// or by the kubelet's own `registryPullQPS` limit (`pull QPS exceeded`).
    RateLimited,
    /// The registry could not be reached (`no such host`, `connection refused`, the kubelet's
    /// `because the registry is unavailable`).
    RegistryUnavailable,
    /// The image signature could not be validated (the kubelet's `because the signature
    /// validation failed`).
    SignatureValidationFailed,
    /// Any other error.
    Other,
}

impl PullFailureCause {
    /// Classify a pull error by the markers registries and runtimes write.
    pub fn classify(error: &str) -> Self {
        let any = |markers: &[&str]| markers.iter().any(|m| contains_ci(error, m));
        if any(&["429 Too Many Requests", "toomanyrequests", "rate limit", "pull QPS exceeded"]) {
            PullFailureCause::RateLimited
        } else if any(&[
            "401 Unauthorized",
            "403 Forbidden",
            "unauthorized",
            "pull access denied",
            "access denied",
            "requested access to the resource is denied",
            "insufficient_scope",
            "authentication required",
            "no basic auth credentials",
            "denied: ",
        ]) {
            PullFailureCause::Unauthorized
        } else if any(&["not found", "manifest unknown", "name unknown", "NotFound"]) {
            PullFailureCause::NotFound
        } else if any(&[
            "i/o timeout",
            "deadline exceeded",
            "DeadlineExceeded",
            "timeout",
            "timed out",
            "context canceled",
        ]) {
            PullFailureCause::Timeout
        } else if any(&[
            "no such host",
            "connection refused",
            "network is unreachable",
            "server misbehaving",
            "503 Service Unavailable",
            "502 Bad Gateway",
            "registry is unavailable",
        ]) {
            PullFailureCause::RegistryUnavailable
        } else if contains_ci(error, "signature") {
            PullFailureCause::SignatureValidationFailed
        } else {
            PullFailureCause::Other
        }
    }
}

/// An image pull failed (`Failed`; pkg/kubelet/images/image_manager.go): `Failed to pull image
/// %q: %v`, or the kubelet's rewritten CRI errors `image pull failed for %s because the registry
/// is unavailable%s` / `... because the signature validation failed%s` (older: with a final `.`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImagePullFailed {
    /// The image reference.
    pub image: String,
    /// The classified cause.
    pub cause: PullFailureCause,
    /// The outermost gRPC code of the CRI error (`NotFound`, `Unknown`, ...), when present.
    pub grpc_code: Option<String>,
    /// The error, verbatim (empty when the rewritten form carries none).
    pub error: String,
}

impl ImagePullFailed {
    /// Parse any image-pull `Failed` form.
    pub fn parse(note: &str) -> Option<Self> {
        if let Some(rest) = note.strip_prefix("Failed to pull image ") {
            let (image, rest) = split_quoted(rest)?;
            let error = rest.strip_prefix(": ")?;
            return Some(ImagePullFailed {
                image,
                cause: PullFailureCause::classify(error),
                grpc_code: grpc_parts(error).map(|(code, _)| code.to_owned()),
                error: error.to_owned(),
            });
        }
        let rest = note.strip_prefix("image pull failed for ")?;
        for (marker, cause) in [
            (" because the registry is unavailable", PullFailureCause::RegistryUnavailable),
            (" because the signature validation failed", PullFailureCause::SignatureValidationFailed),
        ] {
            if let Some((image, detail)) = rest.split_once(marker) {
                let error = detail.strip_prefix(':').unwrap_or(detail).trim();
                let error = if error == "." { "" } else { error };
                return Some(ImagePullFailed {
                    image: image.to_owned(),
                    cause,
                    grpc_code: grpc_parts(error).map(|(code, _)| code.to_owned()),
                    error: error.to_owned(),
                });
            }
        }
        None
    }
}

/// `Error: <reason>` where the reason is a container waiting reason set by the image manager
/// (`Failed`; pkg/kubelet/kuberuntime/kuberuntime_container.go, pkg/kubelet/images/types.go).
/// It follows the detailed `Failed to pull image` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContainerWaiting {
    /// The waiting reason: `ErrImagePull`, `ImagePullBackOff`, `ErrImageNeverPull`,
    /// `InvalidImageName`, `ImageInspectError`, `RegistryUnavailable`,
    /// `SignatureValidationFailed`.
    pub reason: String,
}

/// The waiting reasons the kubelet's image manager returns (and so prints as `Error: %v`).
const IMAGE_WAITING_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "ErrImageNeverPull",
    "InvalidImageName",
    "ImageInspectError",
    "RegistryUnavailable",
    "SignatureValidationFailed",
];

impl ContainerWaiting {
    /// Parse `Error: ErrImagePull` and the other image waiting reasons.
    pub fn parse(note: &str) -> Option<Self> {
        let reason = note.strip_prefix("Error: ")?.trim_end();
        IMAGE_WAITING_REASONS.contains(&reason).then(|| ContainerWaiting { reason: reason.to_owned() })
    }
}

/// Grammar of kubelet `Failed`: image pull failures, waiting reasons, and CRI error chains.
pub(crate) static FAILED: Grammar =
    Grammar::new(&[ImagePullFailed::KIND, ContainerWaiting::KIND, RuntimeFailure::KIND], |note: &Note<'_>| {
        let text = note.text;
        if let Some(d) = ImagePullFailed::parse(text) {
            return Some(Details::Node(NodeDetails::ImagePullFailed(d)));
        }
        if let Some(d) = ContainerWaiting::parse(text) {
            return Some(Details::Node(NodeDetails::ContainerWaiting(d)));
        }
        let (phase, error) = if let Some(error) = text.strip_prefix("Error: ") {
            (None, error)
        } else if let Some(error) = text.strip_prefix("Internal PreStartContainer hook failed: ") {
            (Some(RuntimePhase::PreStartHook), error)
        } else if let Some(error) = text.strip_prefix("Internal PreCreateContainer hook failed: ") {
            (Some(RuntimePhase::PreCreateHook), error)
        } else if let Some(error) = text.strip_prefix("error making pod data directories: ") {
            (Some(RuntimePhase::PodDataDirectories), error)
        } else {
            return None;
        };
        Some(Details::Node(NodeDetails::RuntimeFailure(RuntimeFailure::classify(phase, error))))
    });

#[cfg(test)]
mod tests {
    use super::*;

    fn node(grammar: &Grammar, text: &str) -> Option<NodeDetails> {
        match grammar.parse(&Note::new(text)) {
            Details::Node(d) => Some(d),
            _ => None,
        }
    }

    #[test]
    fn pulling() {
        assert_eq!(
            PullingImage::parse("Pulling image \"nvcr.io/nvidia/cuda:12.4.1-base\"").unwrap().image,
            "nvcr.io/nvidia/cuda:12.4.1-base"
        );
        assert_eq!(PullingImage::parse("pulling image \"busybox\"").unwrap().image, "busybox");
        assert_eq!(PullingImage::parse("Pulling image busybox"), None);
        assert_eq!(PullingImage::parse("Pulling image \"busybox\" now"), None);
    }

    #[test]
    fn pulled_every_version() {
        let newest = PulledImage::parse(
            "Successfully pulled image \"nvcr.io/nvidia/pytorch:24.05-py3\" in 1m21.284s (2m3.5s including waiting). Image size: 9876543210 bytes.",
        )
        .unwrap();
        assert_eq!(newest.image, "nvcr.io/nvidia/pytorch:24.05-py3");
        assert!(!newest.already_present);
        let pull = newest.pull_duration.unwrap();
        assert_eq!(pull.duration, "1m21.284s");
        assert!((pull.seconds.unwrap() - 81.284).abs() < 1e-9);
        assert_eq!(newest.total_duration.unwrap().seconds, Some(123.5));
        assert_eq!(newest.size_bytes, Some(9_876_543_210));

        let waiting =
            PulledImage::parse("Successfully pulled image \"busybox\" in 2.134s (2.134s including waiting)").unwrap();
        assert_eq!(waiting.pull_duration.unwrap().seconds, Some(2.134));
        assert_eq!(waiting.total_duration.unwrap().duration, "2.134s");
        assert_eq!(waiting.size_bytes, None);

        let duration = PulledImage::parse("Successfully pulled image \"busybox\" in 523.1ms").unwrap();
        assert_eq!(duration.pull_duration.unwrap().duration, "523.1ms");
        assert_eq!(duration.total_duration, None);

        let oldest = PulledImage::parse("Successfully pulled image \"busybox\"").unwrap();
        assert_eq!(oldest.pull_duration, None);

        let present = PulledImage::parse("Container image \"ubuntu:22.04\" already present on machine").unwrap();
        assert!(present.already_present && !present.access_verified);
        assert_eq!(present.image, "ubuntu:22.04");
        let verified = PulledImage::parse(
            "Container image \"ubuntu:22.04\" already present on machine and can be accessed by the pod",
        )
        .unwrap();
        assert!(verified.already_present && verified.access_verified);

        for bad in [
            "Successfully pulled image busybox",
            "Successfully pulled image \"busybox\" in 2s (3s)",
            "Successfully pulled image \"busybox\" in 2s (3s including waiting). Image size: many bytes.",
            "Container image \"ubuntu\" already present",
            "Container image \"ubuntu\" is not present with pull policy of Never",
        ] {
            assert_eq!(PulledImage::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn back_off_pull_and_restart() {
        let Some(NodeDetails::ImagePullBackOff(pull)) =
            node(&BACK_OFF, "Back-off pulling image \"nvcr.io/nvidia/cuda:bad\"")
        else {
            panic!("image pull back-off")
        };
        assert_eq!(pull.image, "nvcr.io/nvidia/cuda:bad");
        assert_eq!(pull.last_error, None);
        let Some(NodeDetails::ImagePullBackOff(status)) =
            node(&BACK_OFF, "Back-off pulling image \"x\": ErrImagePull: failed to pull")
        else {
            panic!("status form")
        };
        assert_eq!(status.last_error.as_deref(), Some("ErrImagePull: failed to pull"));

        let Some(NodeDetails::RestartBackOff(restart)) = node(
            &BACK_OFF,
            "Back-off restarting failed container trainer in pod llama-0_ml(0f1e2d3c-aaaa-bbbb-cccc-111122223333)",
        ) else {
            panic!("restart back-off")
        };
        assert_eq!(restart.container.as_deref(), Some("trainer"));
        let pod = restart.pod.unwrap();
        assert_eq!((pod.name.as_str(), pod.namespace.as_str()), ("llama-0", "ml"));
        assert_eq!(pod.uid, "0f1e2d3c-aaaa-bbbb-cccc-111122223333");

        let Some(NodeDetails::RestartBackOff(old)) = node(&BACK_OFF, "Back-off restarting failed container") else {
            panic!("old form")
        };
        assert_eq!((old.container, old.pod), (None, None));

        for bad in [
            "Back-off restarting failed container trainer in pod llama-0",
            "Back-off pulling image x",
            "Back-off restarting failed containers",
        ] {
            assert_eq!(node(&BACK_OFF, bad), None, "{bad}");
        }
    }

    #[test]
    fn never_pull_and_inspect() {
        assert_eq!(
            ImageNeverPull::parse("Container image \"local/cuda:dev\" is not present with pull policy of Never")
                .unwrap()
                .image,
            "local/cuda:dev"
        );
        assert_eq!(ImageNeverPull::parse("Container image \"x\" is not present"), None);

        let tag = ImageInspectFailed::parse(
            "Failed to apply default image tag \"Nvidia/CUDA\": couldn't parse image reference \"Nvidia/CUDA\": invalid reference format: repository name must be lowercase",
        )
        .unwrap();
        assert_eq!(tag.step, InspectStep::ApplyDefaultTag);
        assert_eq!(tag.image, "Nvidia/CUDA");
        assert!(tag.error.ends_with("must be lowercase"));
        let inspect = ImageInspectFailed::parse(
            "Failed to inspect image \"\": rpc error: code = Unavailable desc = connection closed",
        )
        .unwrap();
        assert_eq!((inspect.step, inspect.image.as_str()), (InspectStep::Inspect, ""));
        assert_eq!(ImageInspectFailed::parse("Failed to inspect image \"x\""), None);
    }

    #[test]
    fn pull_failures_are_classified() {
        let cases = [
            (
                "Failed to pull image \"nvcr.io/nvidia/cuda:99\": rpc error: code = NotFound desc = failed to pull and unpack image \"nvcr.io/nvidia/cuda:99\": failed to resolve reference \"nvcr.io/nvidia/cuda:99\": nvcr.io/nvidia/cuda:99: not found",
                PullFailureCause::NotFound,
                Some("NotFound"),
            ),
            (
                "Failed to pull image \"nvcr.io/nvaie/private:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"nvcr.io/nvaie/private:1\": failed to resolve reference \"nvcr.io/nvaie/private:1\": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized",
                PullFailureCause::Unauthorized,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"busybox\": rpc error: code = Unknown desc = failed to pull and unpack image \"docker.io/library/busybox:latest\": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/busybox/manifests/sha256:abc: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.",
                PullFailureCause::RateLimited,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"quay.io/x/y:1\": rpc error: code = Unknown desc = pinging container registry quay.io: Get \"https://quay.io/v2/\": dial tcp 10.0.0.1:443: i/o timeout",
                PullFailureCause::Timeout,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"r.example/x\": rpc error: code = Unknown desc = dial tcp: lookup r.example: no such host",
                PullFailureCause::RegistryUnavailable,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"x\": rpc error: code = Canceled desc = context canceled",
                PullFailureCause::Timeout,
                Some("Canceled"),
            ),
            ("Failed to pull image \"x\": Error response from daemon: something odd", PullFailureCause::Other, None),
            // CRI-O / containers-image: the registry's `denied` error without the `denied: ` code.
            (
                "Failed to pull image \"docker.io/library/privateimg:latest\": rpc error: code = Unknown desc = reading manifest latest in docker.io/library/privateimg: requested access to the resource is denied",
                PullFailureCause::Unauthorized,
                Some("Unknown"),
            ),
            // Docker daemon wording of the same refusal.
            (
                "Failed to pull image \"privateimg\": rpc error: code = Unknown desc = Error response from daemon: pull access denied for privateimg, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
                PullFailureCause::Unauthorized,
                Some("Unknown"),
            ),
            // The kubelet's own pull rate limit (registryPullQPS), not a registry error.
            ("Failed to pull image \"x\": pull QPS exceeded", PullFailureCause::RateLimited, None),
            (
                "Failed to pull image \"busybox\": Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit",
                PullFailureCause::RateLimited,
                None,
            ),
            (
                "Failed to pull image \"x\": rpc error: code = Unknown desc = failed to pull and unpack image \"docker.io/library/x:latest\": failed to resolve reference \"docker.io/library/x:latest\": unexpected status from HEAD request to https://registry-1.docker.io/v2/library/x/manifests/latest: 429 Too Many Requests",
                PullFailureCause::RateLimited,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"123.dkr.ecr.us-east-1.amazonaws.com/x:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"123.dkr.ecr.us-east-1.amazonaws.com/x:1\": failed to resolve reference \"123.dkr.ecr.us-east-1.amazonaws.com/x:1\": pulling from host 123.dkr.ecr.us-east-1.amazonaws.com failed with status code [manifests 1]: 403 Forbidden",
                PullFailureCause::Unauthorized,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"quay.io/x/y:v9\": rpc error: code = Unknown desc = reading manifest v9 in quay.io/x/y: manifest unknown: manifest unknown",
                PullFailureCause::NotFound,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"quay.io/x/y:v9\": rpc error: code = Unknown desc = Error response from daemon: manifest for quay.io/x/y:v9 not found: manifest unknown: manifest unknown",
                PullFailureCause::NotFound,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"r.example/x:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"r.example/x:1\": failed to resolve reference \"r.example/x:1\": failed to do request: Head \"https://r.example/v2/x/manifests/1\": dial tcp 10.0.0.1:443: i/o timeout",
                PullFailureCause::Timeout,
                Some("Unknown"),
            ),
            (
                "Failed to pull image \"nvcr.io/nvidia/pytorch:24.05-py3\": rpc error: code = DeadlineExceeded desc = context deadline exceeded",
                PullFailureCause::Timeout,
                Some("DeadlineExceeded"),
            ),
            (
                "Failed to pull image \"nvcr.io/nvidia/pytorch:24.05-py3\": rpc error: code = Unknown desc = failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.05-py3\": failed to copy: read tcp 10.0.0.2:50000->10.0.0.1:443: read: connection reset by peer: context deadline exceeded",
                PullFailureCause::Timeout,
                Some("Unknown"),
            ),
        ];
        for (note, cause, code) in cases {
            let failed = ImagePullFailed::parse(note).unwrap();
            assert_eq!(failed.cause, cause, "{note}");
            assert_eq!(failed.grpc_code.as_deref(), code, "{note}");
        }
        let unavailable = ImagePullFailed::parse(
            "image pull failed for registry.local/x:1 because the registry is unavailable: dial tcp: connection refused",
        )
        .unwrap();
        assert_eq!(unavailable.image, "registry.local/x:1");
        assert_eq!(unavailable.cause, PullFailureCause::RegistryUnavailable);
        assert_eq!(unavailable.error, "dial tcp: connection refused");
        let old =
            ImagePullFailed::parse("image pull failed for registry.local/x:1 because the registry is unavailable.")
                .unwrap();
        assert_eq!(old.error, "");
        let signature =
            ImagePullFailed::parse("image pull failed for x because the signature validation failed: policy denied")
                .unwrap();
        assert_eq!(signature.cause, PullFailureCause::SignatureValidationFailed);
        assert_eq!(ImagePullFailed::parse("Failed to pull image x: y"), None);
        assert_eq!(ImagePullFailed::parse("image pull failed for x"), None);
    }

    #[test]
    fn failed_dispatches_by_form() {
        let kinds = [
            ("Failed to pull image \"x\": not found", "imagePullFailed"),
            ("Error: ErrImagePull", "containerWaiting"),
            ("Error: ImagePullBackOff", "containerWaiting"),
            ("Error: InvalidImageName", "containerWaiting"),
            ("Error: configmap \"model-config\" not found", "runtimeFailure"),
            ("Internal PreStartContainer hook failed: rpc error: code = Unknown desc = plugin down", "runtimeFailure"),
            (
                "error making pod data directories: mkdir /var/lib/kubelet/pods/x: read-only file system",
                "runtimeFailure",
            ),
        ];
        for (text, kind) in kinds {
            let d = node(&FAILED, text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(d.kind(), kind, "{text}");
        }
        let Some(NodeDetails::RuntimeFailure(hook)) =
            node(&FAILED, "Internal PreStartContainer hook failed: rpc error: code = Unknown desc = plugin down")
        else {
            panic!()
        };
        assert_eq!(hook.phase, Some(RuntimePhase::PreStartHook));
        assert_eq!(hook.grpc_code.as_deref(), Some("Unknown"));
        assert_eq!(ContainerWaiting::parse("Error: EOF"), None);
        assert_eq!(node(&FAILED, "Started container x"), None);
    }
}
