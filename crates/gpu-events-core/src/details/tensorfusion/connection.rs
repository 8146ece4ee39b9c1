//! The workload autoscaler (`autoscaler`, internal/autoscaler/workload/handler.go @3e0a490) and
//! the remote-GPU connection controller (`TensorFusionConnection`,
//! internal/controller/tensorfusionconnection_controller.go @3e0a490).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::template::{Arg, captures, fill};
use super::super::{Grammar, Note, Quantity};
use crate::details::Details;

pub use crate::details::ScaleDirection;

/// The autoscaler changed a workload's TFLOPS/VRAM requests (handler.go:234-247 @3e0a490; v1
/// line handler.go:281 @c7a2417). The code pre-formats the note from `Quantity.String()` values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceScaled {
    /// Up or down (`ResourceScaledUp` / `ResourceScaledDown`).
    pub direction: ScaleDirection,
    /// The previous TFLOPS request; `value` in TFLOPS.
    pub compute_from: Quantity,
    /// The new TFLOPS request; `value` in TFLOPS.
    pub compute_to: Quantity,
    /// The previous VRAM request; `value` in bytes.
    pub vram_from: Quantity,
    /// The new VRAM request; `value` in bytes.
    pub vram_to: Quantity,
}

impl ResourceScaled {
    /// The Go format of `ResourceScaledUp`.
    pub const UP_FORMAT: &'static str = "Resources scaled up: Compute %s->%s, VRAM %s->%s";
    /// The Go format of `ResourceScaledDown`.
    pub const DOWN_FORMAT: &'static str = "Resources scaled down: Compute %s->%s, VRAM %s->%s";

    /// From the direction and the four quantity strings (compute old/new, VRAM old/new).
    pub fn new(
        direction: ScaleDirection,
        compute_from: &str,
        compute_to: &str,
        vram_from: &str,
        vram_to: &str,
    ) -> Self {
        ResourceScaled {
            direction,
            compute_from: Quantity::parse(compute_from),
            compute_to: Quantity::parse(compute_to),
            vram_from: Quantity::parse(vram_from),
            vram_to: Quantity::parse(vram_to),
        }
    }

    fn format(direction: ScaleDirection) -> &'static str {
        match direction {
            ScaleDirection::Up => Self::UP_FORMAT,
            ScaleDirection::Down => Self::DOWN_FORMAT,
        }
    }

    /// Parse a note of either direction.
    pub fn parse(note: &str) -> Option<Self> {
        Self::parse_direction(note, ScaleDirection::Up).or_else(|| Self::parse_direction(note, ScaleDirection::Down))
    }

    /// Parse a note of the given direction only.
    pub fn parse_direction(note: &str, direction: ScaleDirection) -> Option<Self> {
        let [compute_from, compute_to, vram_from, vram_to] = captures(Self::format(direction), note)?;
        Some(Self::new(direction, compute_from, compute_to, vram_from, vram_to))
    }

    /// The note as TensorFusion writes it.
    pub fn render(&self) -> String {
        fill(
            Self::format(self.direction),
            &[
                Arg::Text(&self.compute_from.quantity),
                Arg::Text(&self.compute_to.quantity),
                Arg::Text(&self.vram_from.quantity),
                Arg::Text(&self.vram_to.quantity),
            ],
        )
    }
}

single_format! {
    /// A worker Pod was chosen for the connection (tensorfusionconnection_controller.go:161 @3e0a490).
    pub struct WorkerSelected {
        /// The worker Pod's name.
        pub worker: String,
    }
    /// The Go format.
    FORMAT = "Worker %s successfully selected for connection";
    /// From the worker Pod name.
    new;
}

single_format! {
    /// Selecting a worker failed with an API error (tensorfusionconnection_controller.go:158
    /// @3e0a490).
    pub struct WorkerSelectionFailed {
        /// The error, e.g. `can not list worker pods: …`.
        pub error: String,
    }
    /// The Go format.
    FORMAT = "Failed to select worker: %v";
    /// From the error.
    new;
}

/// The parts of a connection URL `native+<podIP>+<port>+<workerPodName>-<resourceVersion>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConnectionUrl {
    /// The scheme (`native`).
    pub scheme: String,
    /// The worker Pod's IP; empty when the Pod had none yet (TensorFusion builds the URL from
    /// `pod.Status.PodIP`, which is empty until the kubelet assigns one).
    pub ip: String,
    /// The worker port (8000, `TensorFusionRemoteWorkerPortNumber`).
    pub port: u16,
    /// The worker Pod's name (contains dashes).
    pub worker_pod: String,
    /// The worker Pod's resourceVersion (after the last dash; `0` when it was empty).
    pub resource_version: String,
}

impl ConnectionUrl {
    /// Split a URL; `None` when it does not have the shape. The IP may be empty (a worker Pod
    /// without an IP yet gives `native++8000+<pod>-<resourceVersion>`); the scheme, port, Pod
    /// name and resourceVersion may not.
    pub fn parse(url: &str) -> Option<Self> {
        let mut parts = url.splitn(4, '+');
        let (scheme, ip, port, worker) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let (worker_pod, resource_version) = worker.rsplit_once('-')?;
        if scheme.is_empty() || worker_pod.is_empty() || resource_version.is_empty() {
            return None;
        }
        Some(ConnectionUrl {
            scheme: scheme.to_owned(),
            ip: ip.to_owned(),
            port: port.parse().ok()?,
            worker_pod: worker_pod.to_owned(),
            resource_version: resource_version.to_owned(),
        })
    }
}

/// The connection is ready; the note gives the URL the client uses
/// (tensorfusionconnection_controller.go:196 @3e0a490).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConnectionReady {
    /// The URL, verbatim.
    pub url: String,
    /// The URL's parts, when it has the `native+…` shape.
    pub parts: Option<ConnectionUrl>,
}

single_format! {
    impl ConnectionReady {
        /// The Go format.
        FORMAT = "Connection URL: %s";
        fields(url: String);
        /// From the URL.
        pub fn new(url: &str) -> Self {
            ConnectionReady { url: url.to_owned(), parts: ConnectionUrl::parse(url) }
        }
    }
}

/// Grammar of `ResourceScaledUp`.
pub(crate) static RESOURCE_SCALED_UP: Grammar = Grammar::new(&[ResourceScaled::KIND], |note: &Note<'_>| {
    ResourceScaled::parse_direction(note.text, ScaleDirection::Up).map(Details::from)
});

/// Grammar of `ResourceScaledDown`.
pub(crate) static RESOURCE_SCALED_DOWN: Grammar = Grammar::new(&[ResourceScaled::KIND], |note: &Note<'_>| {
    ResourceScaled::parse_direction(note.text, ScaleDirection::Down).map(Details::from)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled() {
        let d = ResourceScaled::parse("Resources scaled up: Compute 10->20, VRAM 4Gi->8Gi").unwrap();
        assert_eq!(d.direction, ScaleDirection::Up);
        assert_eq!(d.compute_from.value, Some(10.0));
        assert_eq!(d.compute_to.value, Some(20.0));
        assert_eq!(d.vram_to.value, Some(8.0 * 1024f64.powi(3)));
        let note = "Resources scaled down: Compute 20->10, VRAM 8Gi->6Gi";
        let d = ResourceScaled::parse(note).unwrap();
        assert_eq!(d.direction, ScaleDirection::Down);
        assert_eq!(d.render(), note);
        assert_eq!(ResourceScaled::parse_direction(note, ScaleDirection::Up), None);
        assert_eq!(ResourceScaled::parse("Resources scaled down: Compute 20->10"), None);
    }

    #[test]
    fn connection() {
        let d = WorkerSelected::parse("Worker llama-tf-worker-x7k2p successfully selected for connection").unwrap();
        assert_eq!(d.worker, "llama-tf-worker-x7k2p");
        assert_eq!(WorkerSelected::parse("Worker x selected for connection"), None);
        let d = WorkerSelectionFailed::parse("Failed to select worker: can not list worker pods: <err>").unwrap();
        assert_eq!(d.error, "can not list worker pods: <err>");
        assert_eq!(WorkerSelectionFailed::parse("Failed to select: x"), None);

        let note = "Connection URL: native+10.244.3.17+8000+llama-tf-worker-x7k2p-1843392";
        let d = ConnectionReady::parse(note).unwrap();
        assert_eq!(d.url, "native+10.244.3.17+8000+llama-tf-worker-x7k2p-1843392");
        let parts = d.parts.as_ref().unwrap();
        assert_eq!(parts.scheme, "native");
        assert_eq!(parts.ip, "10.244.3.17");
        assert_eq!(parts.port, 8000);
        assert_eq!(parts.worker_pod, "llama-tf-worker-x7k2p");
        assert_eq!(parts.resource_version, "1843392");
        assert_eq!(d.render(), note);
        let ipv6 = ConnectionUrl::parse("native+fd00::1+8000+w-0").unwrap();
        assert_eq!((ipv6.ip.as_str(), ipv6.resource_version.as_str()), ("fd00::1", "0"));
        for opaque in
            ["", "native+1.2.3.4+8000", "native+1.2.3.4+port+w-1", "native+1.2.3.4+8000+w", "native+1.2.3.4+8000+-1"]
        {
            assert_eq!(ConnectionUrl::parse(opaque), None, "{opaque}");
        }
        assert_eq!(ConnectionReady::parse("Connection: x"), None);
    }

    #[test]
    fn connection_without_pod_ip() {
        let note = "Connection URL: native++8000+llama-tf-worker-x7k2p-0";
        let d = ConnectionReady::parse(note).unwrap();
        assert_eq!(d.url, "native++8000+llama-tf-worker-x7k2p-0");
        assert_eq!(
            d.parts,
            Some(ConnectionUrl {
                scheme: "native".to_owned(),
                ip: String::new(),
                port: 8000,
                worker_pod: "llama-tf-worker-x7k2p".to_owned(),
                resource_version: "0".to_owned(),
            })
        );
        assert_eq!(d.render(), note);
        // Only the IP may be empty.
        for opaque in
            ["native++8000", "native+++w-0", "native++port+w-0", "native++8000+w", "native++8000+-0", "+++w-0"]
        {
            assert_eq!(ConnectionUrl::parse(opaque), None, "{opaque}");
        }
    }
}
