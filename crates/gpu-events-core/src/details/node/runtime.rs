//! CRI error chains: sandbox creation (`FailedCreatePodSandBox`, `FailedPodSandBoxStatus`),
//! container creation and start (`Failed` with `Error: %v`), and DRA preparation
//! (`FailedPrepareDynamicResources`).
//!
//! Formats: kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go and
//! kuberuntime_container.go, pkg/kubelet/cm/dra/manager.go (v1.36); the inner texts come from
//! containerd (internal/cri, pkg/cdi; v1.7–v2.4), CRI-O, cri-dockerd, runc,
//! nvidia-container-toolkit (v1.20) and the CDI library (cncf-tags/container-device-interface).
//! The chain is classified by searching for markers, never by splitting on `: `.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    GrpcStatus, NodeDetails, NvmlError, after, grpc_parts, split_quoted, strip_nested_quoting, strip_runtime_suffix,
};
use crate::details::{Details, Grammar, Note};

/// Where in the Pod start sequence the runtime error happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum RuntimePhase {
    /// RunPodSandbox (`Failed to create pod sandbox: %v`).
    Sandbox,
    /// PodSandboxStatus (`Unable to get pod sandbox status: %v`).
    SandboxStatus,
    /// CreateContainer: containerd `failed to create containerd container`, CRI-O
    /// `container create failed` (where runc create runs).
    CreateContainer,
    /// StartContainer: containerd `failed to create containerd task` / `failed to start
    /// containerd task` / `failed to create shim task` (where runc create runs in containerd),
    /// dockershim `failed to start container`.
    StartContainer,
    /// The kubelet's internal PreCreateContainer hook (`Internal PreCreateContainer hook failed`).
    PreCreateHook,
    /// The kubelet's internal PreStartContainer hook, which calls device plugins'
    /// PreStartContainer (`Internal PreStartContainer hook failed`).
    PreStartHook,
    /// `error making pod data directories: %v`.
    PodDataDirectories,
}

/// The classified cause of a runtime error chain. In JSON an object whose `type` names the
/// cause, with the cause's fields beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum RuntimeCause {
    /// The RuntimeClass handler is not configured in the runtime: containerd `no runtime for %q
    /// is configured` (after `failed to get sandbox runtime:` ≤1.7, or `unable to get OCI runtime
    /// for sandbox %q:` 2.x), CRI-O `failed to find runtime handler %s from runtime list %v`,
    /// cri-dockerd `RuntimeHandler %q not supported`.
    RuntimeHandlerMissing {
        /// The handler name (`nvidia`).
        handler: String,
    },
    /// The Pod's RuntimeClass object does not exist: `runtimeclass.node.k8s.io %q not found`.
    RuntimeClassNotFound {
        /// The RuntimeClass name.
        runtime_class: String,
    },
    /// CDI device names could not be resolved (no CDI spec defines them):
    /// `unresolvable CDI devices %s`, from containerd, CRI-O or nvidia-container-runtime.
    CdiDevicesUnresolvable {
        /// The fully qualified device names (`vendor/class=name`), in order.
        devices: Vec<String>,
    },
    /// Another CDI injection error (`CDI device injection failed: %v`,
    /// `failed to inject CDI devices: %v`).
    CdiInjectionFailed {
        /// The error after the marker.
        error: String,
    },
    /// An OCI runtime or hook binary is missing: `exec: "<name>": executable file not found in
    /// $PATH` (or `exec: "<path>": stat <path>: no such file or directory`) outside the container
    /// process, or `fork/exec <path>: no such file or directory`.
    RuntimeBinaryMissing {
        /// The binary name or path (`nvidia-container-runtime`, `/usr/bin/nvidia-container-runtime`).
        path: String,
    },
    /// The container's own command is missing: `unable to start container process: exec:
    /// "<cmd>": executable file not found in $PATH`, or, for a command given as a path, `exec:
    /// "<path>": stat <path>: no such file or directory` (also with the quotes escaped, inside
    /// another quoted error).
    ExecutableNotFound {
        /// The command, or the path when the command is one (`/usr/local/bin/x`).
        command: String,
    },
    /// The CRI socket did not answer: `dial unix <path>: connect: connection refused` (or
    /// `no such file or directory`).
    CriSocketUnavailable {
        /// The socket path (`/run/containerd/containerd.sock`).
        socket: String,
    },
    /// The legacy NVIDIA prestart hook failed: `nvidia-container-cli: %v` (or
    /// `nvidia-container-cli.real: %v` where a distribution wraps the binary).
    NvidiaContainerCli {
        /// The CLI error (`initialization error: nvml error: driver not loaded`), without the
        /// runtime's `: unknown`.
        error: String,
    },
    /// runc reported `container init was OOM-killed (memory limit too low?)`: the container's
    /// memory limit is too small even to start it (not the usual `OOMKilled` termination).
    ContainerInitOomKilled,
    /// Kata / confidential containers could not cold-plug the device:
    /// `device cold plug failed: %v`.
    DeviceColdPlugFailed {
        /// The error after the marker.
        error: String,
    },
    /// The Pod's network could not be set up: containerd `failed to setup network for sandbox
    /// %q: %v`, dockershim `NetworkPlugin cni failed to set up pod %q network: %v`, CRI-O
    /// `error adding pod %s to CNI network %q: %v` (a CNI plugin missing, failing, or unable to
    /// reach the API server).
    PodNetworkFailed {
        /// The error after the marker.
        error: String,
    },
    /// No known marker: the whole chain is in the failure's `error`.
    Other,
}

/// A log line that runc or a shim embedded in the error, in logfmt: `time="..." level=error
/// msg="..."`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RuntimeLog {
    /// `time`, as written (RFC 3339).
    pub time: Option<String>,
    /// `level` (`error`, `warning`, ...).
    pub level: Option<String>,
    /// `msg`, unquoted.
    pub msg: Option<String>,
}

impl RuntimeLog {
    /// The first logfmt record (starting at `time=` or `level=`) in `text`.
    pub fn find(text: &str) -> Option<Self> {
        let start = text.find("time=").or_else(|| text.find("level="))?;
        let mut rest = text.get(start..)?;
        let mut log = RuntimeLog { time: None, level: None, msg: None };
        while let Some((key, value)) = rest.split_once('=') {
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                break;
            }
            let (value, tail) = if value.starts_with('"') {
                // A record cut short (truncated note) keeps the fields read so far.
                let Some(quoted) = split_quoted(value) else {
                    break;
                };
                quoted
            } else {
                let end = value.find(char::is_whitespace).unwrap_or(value.len());
                (value.get(..end)?.to_owned(), value.get(end..)?)
            };
            match key {
                "time" => log.time = Some(value),
                "level" => log.level = Some(value),
                "msg" => log.msg = Some(value),
                _ => {}
            }
            rest = match tail.strip_prefix(' ') {
                Some(rest) => rest,
                None => break,
            };
        }
        (log.level.is_some() || log.msg.is_some()).then_some(log)
    }
}

/// A runtime error chain from the kubelet, classified (pkg/kubelet/kuberuntime).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RuntimeFailure {
    /// Where it failed: from the kubelet's wording, else from the runtime's markers; `None` for
    /// `Error: %v` texts without a known marker (for example a missing ConfigMap).
    pub phase: Option<RuntimePhase>,
    /// The classified cause.
    pub cause: RuntimeCause,
    /// The outermost gRPC code (`Unknown`, `Unavailable`, ...), when the chain has one. Container
    /// errors (`Error: %v`) usually have none: the kubelet prints only the gRPC message.
    pub grpc_code: Option<String>,
    /// The sandbox ID (64 hex characters), when the chain names one.
    pub sandbox_id: Option<String>,
    /// An NVML error inside the chain, when there is one.
    pub nvml: Option<NvmlError>,
    /// A logfmt record runc embedded in the chain, when there is one.
    pub runtime_log: Option<RuntimeLog>,
    /// The error after the kubelet's prefix, verbatim.
    pub error: String,
}

impl RuntimeFailure {
    /// Parse a kubelet note that carries a runtime error chain: `Failed to create pod sandbox:
    /// %v` (`Failed create pod sandbox: %v` up to ~v1.15), `Unable to get pod sandbox status: %v`, `Error: %v`, `Internal PreStartContainer hook
    /// failed: %v`, `Internal PreCreateContainer hook failed: %v`, `error making pod data
    /// directories: %v`.
    pub fn parse(note: &str) -> Option<Self> {
        let prefixes = [
            ("Failed to create pod sandbox: ", Some(RuntimePhase::Sandbox)),
            // The kubelet's wording up to ~v1.15.
            ("Failed create pod sandbox: ", Some(RuntimePhase::Sandbox)),
            ("Unable to get pod sandbox status: ", Some(RuntimePhase::SandboxStatus)),
            ("Error: ", None),
            ("Internal PreStartContainer hook failed: ", Some(RuntimePhase::PreStartHook)),
            ("Internal PreCreateContainer hook failed: ", Some(RuntimePhase::PreCreateHook)),
            ("error making pod data directories: ", Some(RuntimePhase::PodDataDirectories)),
        ];
        prefixes
            .into_iter()
            .find_map(|(prefix, phase)| note.strip_prefix(prefix).map(|error| Self::classify(phase, error)))
    }

    /// Classify an error chain. `phase` is the phase the kubelet's wording fixes, if any; without
    /// one the phase is taken from the runtime's markers. Never fails and never panics.
    pub fn classify(phase: Option<RuntimePhase>, error: &str) -> Self {
        let phase = phase.or_else(|| phase_from_markers(error));
        let any_hex = matches!(phase, Some(RuntimePhase::Sandbox | RuntimePhase::SandboxStatus));
        RuntimeFailure {
            phase,
            cause: classify_cause(error),
            grpc_code: grpc_parts(error).map(|(code, _)| code.to_owned()),
            sandbox_id: sandbox_id(error, any_hex).map(str::to_owned),
            nvml: NvmlError::find(error),
            runtime_log: RuntimeLog::find(error),
            error: error.to_owned(),
        }
    }
}

/// The phase a container error chain's markers point at.
fn phase_from_markers(error: &str) -> Option<RuntimePhase> {
    const CREATE: &[&str] = &[
        "failed to create containerd container",
        "container create failed",
        "failed to generate container",
        "CDI device injection failed",
    ];
    const START: &[&str] = &[
        "failed to create containerd task",
        "failed to start containerd task",
        "failed to create shim task",
        "failed to start shim",
        "OCI runtime start failed",
        "container start failed",
        "failed to start container",
    ];
    // The outermost marker wins: containerd wraps task errors in its own words.
    let first = |markers: &[&str]| markers.iter().filter_map(|m| error.find(m)).min();
    match (first(CREATE), first(START)) {
        (Some(create), Some(start)) if start < create => Some(RuntimePhase::StartContainer),
        (Some(_), _) => Some(RuntimePhase::CreateContainer),
        (None, Some(_)) => Some(RuntimePhase::StartContainer),
        (None, None) => None,
    }
}

/// The text of a `%q` (or bare) name that starts `text` and ends at the first `"`, space or `:`.
fn leading_name(text: &str) -> Option<String> {
    if text.starts_with('"') {
        return split_quoted(text).map(|(name, _)| name);
    }
    let end = text.find(|c: char| c.is_whitespace() || c == ':' || c == ',').unwrap_or(text.len());
    let name = text.get(..end)?;
    (!name.is_empty()).then(|| name.to_owned())
}

/// Classify a chain by its markers, the most specific first.
fn classify_cause(error: &str) -> RuntimeCause {
    if let Some(handler) = after(error, "no runtime for ").and_then(leading_name) {
        return RuntimeCause::RuntimeHandlerMissing { handler };
    }
    if let Some(handler) = after(error, "failed to find runtime handler ").and_then(leading_name) {
        return RuntimeCause::RuntimeHandlerMissing { handler };
    }
    if let Some(handler) = after(error, "RuntimeHandler ").and_then(|rest| {
        let (handler, rest) = split_quoted(rest)?;
        rest.starts_with(" not supported").then_some(handler)
    }) {
        return RuntimeCause::RuntimeHandlerMissing { handler };
    }
    if let Some(runtime_class) = after(error, "runtimeclass.node.k8s.io ").and_then(|rest| {
        let (name, rest) = split_quoted(rest)?;
        rest.starts_with(" not found").then_some(name)
    }) {
        return RuntimeCause::RuntimeClassNotFound { runtime_class };
    }
    if let Some(list) = after(error, "unresolvable CDI devices ") {
        let devices: Vec<String> = strip_runtime_suffix(list)
            .split(", ")
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_owned)
            .collect();
        if !devices.is_empty() {
            return RuntimeCause::CdiDevicesUnresolvable { devices };
        }
    }
    // Distributions that wrap the binary name it `nvidia-container-cli.real` (Ubuntu, k3s).
    if let Some(rest) = after(error, "nvidia-container-cli: ").or_else(|| after(error, "nvidia-container-cli.real: ")) {
        return RuntimeCause::NvidiaContainerCli { error: strip_nested_quoting(rest).to_owned() };
    }
    const NETWORK: &[&str] =
        &["failed to setup network for sandbox ", "NetworkPlugin cni failed to set up pod ", "to CNI network "];
    if let Some(at) = NETWORK.iter().find_map(|marker| error.find(marker)) {
        let rest = &error[at..];
        let detail = rest.split_once(": ").map_or(rest, |(_, detail)| detail);
        return RuntimeCause::PodNetworkFailed { error: strip_nested_quoting(detail).to_owned() };
    }
    if error.contains("container init was OOM-killed") {
        return RuntimeCause::ContainerInitOomKilled;
    }
    if let Some(rest) = after(error, "device cold plug failed: ") {
        return RuntimeCause::DeviceColdPlugFailed { error: strip_runtime_suffix(rest).to_owned() };
    }
    for marker in ["CDI device injection failed: ", "failed to inject CDI devices: "] {
        if let Some(rest) = after(error, marker) {
            return RuntimeCause::CdiInjectionFailed { error: strip_runtime_suffix(rest).to_owned() };
        }
    }
    if let Some((at, name)) = missing_executable(error) {
        let in_container = error.get(..at).is_some_and(|head| head.contains("container process"));
        return if in_container {
            RuntimeCause::ExecutableNotFound { command: name }
        } else {
            RuntimeCause::RuntimeBinaryMissing { path: name }
        };
    }
    if let Some(rest) = after(error, "fork/exec ")
        && let Some((path, tail)) = rest.split_once(": ")
        && tail.starts_with("no such file or directory")
        && !path.is_empty()
    {
        return RuntimeCause::RuntimeBinaryMissing { path: path.to_owned() };
    }
    if let Some(socket) = after(error, "dial unix ").and_then(|rest| {
        let end = rest.find(|c: char| c == ':' || c == '"' || c.is_whitespace()).unwrap_or(rest.len());
        rest.get(..end).filter(|s| !s.is_empty())
    }) {
        return RuntimeCause::CriSocketUnavailable { socket: socket.to_owned() };
    }
    RuntimeCause::Other
}

/// The deepest `%q` nesting (backslashes before a quote) the chain classifier reads: four levels.
const MAX_ESCAPES: usize = 15;

/// The first Go `exec.Error` in `text` that says the program does not exist, and where it
/// starts: `exec: "<name>": executable file not found in $PATH` (a bare name looked up in
/// `$PATH`) or `exec: "<path>": stat <path>: no such file or directory` (a path). The quotes may
/// be escaped (`exec: \"<name>\": ...`) when the error sits inside another `%q`.
fn missing_executable(text: &str) -> Option<(usize, String)> {
    text.match_indices("exec: ").find_map(|(at, marker)| {
        let rest = text.get(at + marker.len()..)?;
        // Each level of `%q` nesting escapes the quote once more: `\"`, `\\\"`, ...
        let backslashes = rest.bytes().take_while(|&b| b == b'\\').count();
        let (name, tail) = if backslashes == 0 {
            split_quoted(rest)?
        } else if backslashes <= MAX_ESCAPES && rest.as_bytes().get(backslashes) == Some(&b'"') {
            let quote = rest.get(..=backslashes)?;
            let (name, tail) = rest.get(quote.len()..)?.split_once(quote)?;
            (name.to_owned(), tail)
        } else {
            return None;
        };
        let tail = tail.strip_prefix(": ")?;
        let missing = tail.starts_with("executable file not found in $PATH")
            || tail
                .strip_prefix("stat ")
                .and_then(|stat| stat.split_once(": "))
                .is_some_and(|(path, error)| !path.is_empty() && error.starts_with("no such file or directory"));
        (missing && !name.is_empty()).then_some((at, name))
    })
}

/// A 64-hex ID (sandbox or container): right after `sandbox ` (optionally `id ` and a quote),
/// or, when `anywhere`, the first standalone 64-hex word.
fn sandbox_id(error: &str, anywhere: bool) -> Option<&str> {
    let is_id = |word: &str| word.len() == 64 && word.bytes().all(|b| b.is_ascii_hexdigit());
    let named = error.match_indices("sandbox ").find_map(|(at, marker)| {
        let rest = error.get(at + marker.len()..)?;
        let rest = rest.strip_prefix("id ").unwrap_or(rest);
        let rest = rest.strip_prefix('"').unwrap_or(rest);
        let word = rest.get(..64)?;
        let next = rest.get(64..)?.chars().next();
        (is_id(word) && !next.is_some_and(|c| c.is_ascii_alphanumeric())).then_some(word)
    });
    named.or_else(|| {
        anywhere.then(|| error.split(|c: char| !c.is_ascii_alphanumeric()).find(|word| is_id(word))).flatten()
    })
}

/// Grammar of kubelet `FailedCreatePodSandBox`: `Failed to create pod sandbox: %v` (`Failed
/// create pod sandbox: %v` up to ~v1.15).
pub(crate) static FAILED_CREATE_POD_SANDBOX: Grammar = Grammar::new(&[RuntimeFailure::KIND], |note: &Note<'_>| {
    let error = note
        .text
        .strip_prefix("Failed to create pod sandbox: ")
        .or_else(|| note.text.strip_prefix("Failed create pod sandbox: "))?;
    Some(Details::Node(NodeDetails::RuntimeFailure(RuntimeFailure::classify(Some(RuntimePhase::Sandbox), error))))
});

/// Grammar of kubelet `FailedPodSandBoxStatus`: `Unable to get pod sandbox status: %v`.
pub(crate) static FAILED_POD_SANDBOX_STATUS: Grammar = Grammar::new(&[RuntimeFailure::KIND], |note: &Note<'_>| {
    let error = note.text.strip_prefix("Unable to get pod sandbox status: ")?;
    Some(Details::Node(NodeDetails::RuntimeFailure(RuntimeFailure::classify(Some(RuntimePhase::SandboxStatus), error))))
});

/// The kubelet could not prepare the Pod's DRA resource claims (`FailedPrepareDynamicResources`;
/// pkg/kubelet/kubelet.go, pkg/kubelet/cm/dra/manager.go): `Failed to prepare dynamic resources:
/// %v`, the error wrapping `NodePrepareResources`, the claim or the driver where it names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DynamicResourcesFailed {
    /// The DRA driver call that failed (`NodePrepareResources`), when named.
    pub call: Option<String>,
    /// The claim, `namespace/name`, from `NodePrepareResources failed for claim %s/%s: %s`.
    pub claim: Option<String>,
    /// The DRA driver, from `failed to get gRPC client for driver %s: %w`.
    pub driver: Option<String>,
    /// The gRPC status of the driver call, when the chain has one.
    pub grpc: Option<GrpcStatus>,
    /// The driver is not registered with this kubelet (its kubelet plugin is not running on the
    /// node): `DRA driver %s is not registered` (pkg/kubelet/cm/dra/plugin, v1.32+) or `plugin
    /// name %s not found in the list of registered DRA plugins` (v1.27-v1.31).
    #[serde(default)]
    pub unregistered: bool,
    /// The error after `Failed to prepare dynamic resources: `, verbatim.
    pub error: String,
}

impl DynamicResourcesFailed {
    /// The Pod the error names as the claim's user: `failed to fetch ResourceClaim %s referenced by
    /// pod %s: %w` (pkg/kubelet/cm/dra/manager.go, v1.32-v1.34), the Pod the event is about.
    pub fn referencing_pod(&self) -> Option<&str> {
        let (_, rest) = self.error.split_once(" referenced by pod ")?;
        rest.split([':', ' ', ',']).next().filter(|pod| !pod.is_empty())
    }

    /// Parse `Failed to prepare dynamic resources: %v`.
    pub fn parse(note: &str) -> Option<Self> {
        let error = note.strip_prefix("Failed to prepare dynamic resources: ")?;
        let call = ["NodePrepareResources", "NodeUnprepareResources"]
            .into_iter()
            .find(|call| error.contains(call))
            .map(str::to_owned);
        let claim = after(error, " failed for claim ")
            .and_then(|rest| rest.split_once(": "))
            .map(|(claim, _)| claim.to_owned());
        let driver = after(error, "for driver ")
            .or_else(|| after(error, "DRA driver "))
            .and_then(|rest| rest.split_once(": "))
            .map(|(driver, _)| driver.to_owned());
        let driver = driver.or_else(|| {
            after(error, "DRA driver ")
                .and_then(|rest| rest.split_once(" is not registered"))
                .map(|(d, _)| d.to_owned())
        });
        let unregistered =
            error.contains(" is not registered") || error.contains("not found in the list of registered DRA plugins");
        Some(DynamicResourcesFailed {
            call,
            claim,
            driver,
            grpc: GrpcStatus::find(error),
            unregistered,
            error: error.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SANDBOX_ID: &str = "18073b779521b77e3cbc7752dd5c2f63064efe24cec18807e917cd29f31fdf50";

    fn handler(cause: &RuntimeCause) -> &str {
        match cause {
            RuntimeCause::RuntimeHandlerMissing { handler } => handler,
            other => panic!("not a missing handler: {other:?}"),
        }
    }

    #[test]
    fn missing_runtime_handler_in_every_runtime_wording() {
        let old = RuntimeFailure::parse(
            "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured",
        )
        .unwrap();
        assert_eq!(handler(&old.cause), "nvidia");
        assert_eq!(old.phase, Some(RuntimePhase::Sandbox));
        assert_eq!(old.grpc_code.as_deref(), Some("Unknown"));
        assert_eq!(old.sandbox_id, None);

        let new = RuntimeFailure::parse(&format!(
            "Failed to create pod sandbox: rpc error: code = Unknown desc = unable to get OCI runtime for sandbox \"{SANDBOX_ID}\": no runtime for \"nvidia\" is configured"
        ))
        .unwrap();
        assert_eq!(handler(&new.cause), "nvidia");
        assert_eq!(new.sandbox_id.as_deref(), Some(SANDBOX_ID));

        let crio = RuntimeFailure::parse(
            "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler nvidia from runtime list map[crun:0xc000 runc:0xc001]",
        )
        .unwrap();
        assert_eq!(handler(&crio.cause), "nvidia");

        let dockershim = RuntimeFailure::parse(
            "Failed to create pod sandbox: rpc error: code = Unknown desc = RuntimeHandler \"nvidia\" not supported",
        )
        .unwrap();
        assert_eq!(handler(&dockershim.cause), "nvidia");
        // The kubelet's wording up to ~v1.15 (corpus 202), by the grammar too.
        let old = "Failed create pod sandbox: rpc error: code = Unknown desc = RuntimeHandler \"nvidia\" not supported";
        assert_eq!(handler(&RuntimeFailure::parse(old).unwrap().cause), "nvidia");
        let note = crate::details::Note::new(old);
        assert!(matches!(
            FAILED_CREATE_POD_SANDBOX.parse(&note),
            Details::Node(NodeDetails::RuntimeFailure(RuntimeFailure { phase: Some(RuntimePhase::Sandbox), .. }))
        ));

        let class =
            RuntimeFailure::parse("Failed to create pod sandbox: runtimeclass.node.k8s.io \"nvidia-cdi\" not found")
                .unwrap();
        assert_eq!(class.cause, RuntimeCause::RuntimeClassNotFound { runtime_class: "nvidia-cdi".to_owned() });
        assert_eq!(class.grpc_code, None);
    }

    #[test]
    fn cdi_chains() {
        let containerd = RuntimeFailure::parse(
            "Error: failed to create containerd container: CDI device injection failed: unresolvable CDI devices k8s.gpu.nvidia.com/device=gpu-1",
        )
        .unwrap();
        assert_eq!(containerd.phase, Some(RuntimePhase::CreateContainer));
        assert_eq!(
            containerd.cause,
            RuntimeCause::CdiDevicesUnresolvable { devices: vec!["k8s.gpu.nvidia.com/device=gpu-1".to_owned()] }
        );
        let toolkit = RuntimeFailure::parse(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=0, nvidia.com/gpu=1: unknown",
        )
        .unwrap();
        assert_eq!(toolkit.phase, Some(RuntimePhase::StartContainer));
        assert_eq!(
            toolkit.cause,
            RuntimeCause::CdiDevicesUnresolvable {
                devices: vec!["nvidia.com/gpu=0".to_owned(), "nvidia.com/gpu=1".to_owned()]
            }
        );
        let other = RuntimeFailure::parse(
            "Error: failed to create containerd container: CDI device injection failed: failed to inject devices: failed to stat CDI host device \"/dev/nvidia0\": no such file or directory",
        )
        .unwrap();
        assert!(matches!(
            other.cause,
            RuntimeCause::CdiInjectionFailed { ref error } if error.starts_with("failed to inject devices")
        ));
    }

    #[test]
    fn binaries_sockets_cli_oom_and_cold_plug() {
        let binary = RuntimeFailure::parse(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: unable to retrieve OCI runtime error (open /run/containerd/io.containerd.runtime.v2.task/k8s.io/abc/log.json: no such file or directory): exec: \"nvidia-container-runtime\": executable file not found in $PATH: unknown",
        )
        .unwrap();
        assert_eq!(binary.cause, RuntimeCause::RuntimeBinaryMissing { path: "nvidia-container-runtime".to_owned() });
        let fork = RuntimeFailure::classify(
            None,
            "failed to create shim task: OCI runtime create failed: unable to retrieve OCI runtime error (open /x/log.json: no such file or directory): fork/exec /usr/bin/nvidia-container-runtime: no such file or directory: unknown",
        );
        assert_eq!(
            fork.cause,
            RuntimeCause::RuntimeBinaryMissing { path: "/usr/bin/nvidia-container-runtime".to_owned() }
        );
        let entrypoint = RuntimeFailure::parse(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"python\": executable file not found in $PATH: unknown",
        )
        .unwrap();
        assert_eq!(entrypoint.cause, RuntimeCause::ExecutableNotFound { command: "python".to_owned() });
        let socket = RuntimeFailure::parse(
            "Failed to create pod sandbox: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix /run/containerd/containerd.sock: connect: connection refused\"",
        )
        .unwrap();
        assert_eq!(
            socket.cause,
            RuntimeCause::CriSocketUnavailable { socket: "/run/containerd/containerd.sock".to_owned() }
        );
        assert_eq!(socket.grpc_code.as_deref(), Some("Unavailable"));

        let cli = RuntimeFailure::parse(
            "Error: failed to create containerd task: OCI runtime create failed: container_linux.go:349: starting container process caused \"process_linux.go:449: container init caused \\\"process_linux.go:432: running prestart hook 0 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded\\\\\\\\n\\\\\\\"\\\"\": unknown",
        )
        .unwrap();
        let RuntimeCause::NvidiaContainerCli { error } = &cli.cause else { panic!("{:?}", cli.cause) };
        assert_eq!(error, "initialization error: nvml error: driver not loaded");
        assert_eq!(cli.nvml.unwrap().error, "driver not loaded");
        // The Pod's network (microsoft/pai#4572, the GKE CNI binary missing).
        for chain in [
            "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"23e4\": plugin type=\"gke\" failed (add): failed to find plugin \"gke\" in path [/opt/cni/bin]",
            "Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"p_kube-system\" network: dial tcp 10.192.0.1:443: i/o timeout",
        ] {
            let network = RuntimeFailure::parse(chain).unwrap();
            assert!(matches!(&network.cause, RuntimeCause::PodNetworkFailed { .. }), "{:?}", network.cause);
        }
        // The wrapped binary's name (NVIDIA/nvidia-container-toolkit#173, k3s on Ubuntu).
        let real = RuntimeFailure::parse(
            "Error: failed to create containerd task: OCI runtime create failed: stderr: nvidia-container-cli.real: initialization error: driver error: failed to process request: unknown",
        )
        .unwrap();
        assert!(
            matches!(&real.cause, RuntimeCause::NvidiaContainerCli { error } if error.starts_with("initialization error: driver error")),
            "{:?}",
            real.cause
        );

        let oom = RuntimeFailure::parse(
            "Error: container create failed: time=\"2022-09-14T11:35:13Z\" level=error msg=\"runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)\"",
        )
        .unwrap();
        assert_eq!(oom.cause, RuntimeCause::ContainerInitOomKilled);
        assert_eq!(oom.phase, Some(RuntimePhase::CreateContainer));
        let log = oom.runtime_log.unwrap();
        assert_eq!(log.time.as_deref(), Some("2022-09-14T11:35:13Z"));
        assert_eq!(log.level.as_deref(), Some("error"));
        assert_eq!(
            log.msg.as_deref(),
            Some(
                "runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)"
            )
        );

        let cold = RuntimeFailure::parse(
            "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox \"d0a43b5d3c6c433f011efbfacb6de3f7ac448f3d09a272cef8d43249712b12b1\": failed to create containerd task: failed to create shim task: device cold plug failed: cold plug: GetPodResources failed for pod(x) in namespace(default): rpc error: code = Unknown desc = PodResources API Get method disabled",
        )
        .unwrap();
        assert!(
            matches!(cold.cause, RuntimeCause::DeviceColdPlugFailed { ref error } if error.starts_with("cold plug: GetPodResources failed"))
        );
        assert_eq!(
            cold.sandbox_id.as_deref(),
            Some("d0a43b5d3c6c433f011efbfacb6de3f7ac448f3d09a272cef8d43249712b12b1")
        );
        assert_eq!(cold.phase, Some(RuntimePhase::Sandbox));
    }

    #[test]
    fn missing_entrypoint_path_is_executable_not_found() {
        let path = RuntimeCause::ExecutableNotFound { command: "/usr/local/bin/x".to_owned() };
        let crio = RuntimeFailure::parse(
            "Error: container create failed: time=\"2024-05-02T10:00:00Z\" level=error msg=\"runc create failed: unable to start container process: exec: \\\"/usr/local/bin/x\\\": stat /usr/local/bin/x: no such file or directory\"",
        )
        .unwrap();
        assert_eq!(crio.cause, path);
        assert_eq!(crio.phase, Some(RuntimePhase::CreateContainer));
        let bare = RuntimeFailure::parse(
            "Error: container create failed: runc create failed: unable to start container process: exec: \"/usr/local/bin/x\": stat /usr/local/bin/x: no such file or directory: unknown",
        )
        .unwrap();
        assert_eq!(bare.cause, path);
        let containerd = RuntimeFailure::parse(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"/usr/local/bin/x\": stat /usr/local/bin/x: no such file or directory: unknown",
        )
        .unwrap();
        assert_eq!((containerd.phase, containerd.cause), (Some(RuntimePhase::StartContainer), path));

        // Docker's doubly quoted wording of the `$PATH` form.
        let docker = RuntimeFailure::parse(
            "Error: failed to start container \"trainer\": Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused \"exec: \\\"python3\\\": executable file not found in $PATH\": unknown",
        )
        .unwrap();
        assert_eq!(docker.cause, RuntimeCause::ExecutableNotFound { command: "python3".to_owned() });
        // Outside the container process the same error is a missing runtime binary.
        let runtime = RuntimeFailure::classify(
            None,
            "failed to create shim task: OCI runtime create failed: exec: \"/usr/bin/nvidia-container-runtime\": stat /usr/bin/nvidia-container-runtime: no such file or directory: unknown",
        );
        assert_eq!(
            runtime.cause,
            RuntimeCause::RuntimeBinaryMissing { path: "/usr/bin/nvidia-container-runtime".to_owned() }
        );

        for other in [
            "unable to start container process: exec: \"/x\": permission denied: unknown",
            "unable to start container process: exec: \"/x\": stat : no such file or directory",
            "unable to start container process: exec: \"\": executable file not found in $PATH",
            "unable to start container process: exec: \\\"/x: stat /x: no such file or directory",
            "unable to start container process: exec: /x: stat /x: no such file or directory",
        ] {
            assert_eq!(RuntimeFailure::classify(None, other).cause, RuntimeCause::Other, "{other}");
        }
        let nested = |n: usize| format!("exec: {0}\"x{0}\": stat x: no such file or directory", "\\".repeat(n));
        assert_eq!(missing_executable(&nested(7)), Some((0, "x".to_owned())));
        assert_eq!(missing_executable(&nested(MAX_ESCAPES + 1)), None);

        // Many openers whose quotes never close: still read quickly, and nothing is found.
        let hostile: String = (0..15).rev().map(|n| format!("exec: {}\"x", "\\".repeat(n))).collect::<String>()
            + &"exec: \\\"a ".repeat(60_000);
        assert_eq!(missing_executable(&hostile), None);
        assert_eq!(RuntimeFailure::classify(None, &hostile).cause, RuntimeCause::Other);
    }

    #[test]
    fn phases_unknown_causes_and_non_matches() {
        let config = RuntimeFailure::parse("Error: configmap \"model-config\" not found").unwrap();
        assert_eq!((config.phase, config.cause), (None, RuntimeCause::Other));
        let status = RuntimeFailure::parse(
            "Unable to get pod sandbox status: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
        )
        .unwrap();
        assert_eq!(status.phase, Some(RuntimePhase::SandboxStatus));
        assert_eq!(status.grpc_code.as_deref(), Some("DeadlineExceeded"));
        let docker = RuntimeFailure::parse(
            "Error: failed to start container \"trainer\": Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused \"exec: \\\"python3\\\": executable file not found in $PATH\": unknown",
        )
        .unwrap();
        assert_eq!(docker.phase, Some(RuntimePhase::StartContainer));
        let crio_start = RuntimeFailure::classify(None, "container create failed: x");
        assert_eq!(crio_start.phase, Some(RuntimePhase::CreateContainer));
        assert_eq!(RuntimeFailure::parse("Created container x"), None);
        assert_eq!(sandbox_id(&format!("sandbox \"{SANDBOX_ID}0\""), false), None, "65 hex characters are not an ID");
        assert_eq!(sandbox_id(&format!("x {SANDBOX_ID} y"), false), None);
        assert_eq!(sandbox_id(&format!("x {SANDBOX_ID} y"), true), Some(SANDBOX_ID));
        assert_eq!(sandbox_id("sandbox é", true), None);
        assert_eq!(RuntimeLog::find("no log here"), None);
        let cut = RuntimeLog::find("x: time=\"t\" level=error msg=\"runc create failed: unab").unwrap();
        assert_eq!((cut.time.as_deref(), cut.level.as_deref(), cut.msg), (Some("t"), Some("error"), None));
    }

    #[test]
    fn dynamic_resources() {
        let d = DynamicResourcesFailed::parse(
            "Failed to prepare dynamic resources: prepare dynamic resources: NodePrepareResources: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
        )
        .unwrap();
        assert_eq!(d.call.as_deref(), Some("NodePrepareResources"));
        let grpc = d.grpc.unwrap();
        assert_eq!(grpc.code, "DeadlineExceeded");
        assert_eq!(grpc.description, "context deadline exceeded");
        assert_eq!((d.claim, d.driver), (None, None));

        let claim = DynamicResourcesFailed::parse(
            "Failed to prepare dynamic resources: NodePrepareResources failed for claim ml/gpu-claim-x7: device gpu-3 is in use",
        )
        .unwrap();
        assert_eq!(claim.claim.as_deref(), Some("ml/gpu-claim-x7"));
        let driver = DynamicResourcesFailed::parse(
            "Failed to prepare dynamic resources: failed to get gRPC client for driver gpu.nvidia.com: plugin name gpu.nvidia.com not found in the list of registered DRA plugins",
        )
        .unwrap();
        assert_eq!(driver.driver.as_deref(), Some("gpu.nvidia.com"));
        assert_eq!(driver.call, None);
        assert!(driver.unregistered && !claim.unregistered && !d.unregistered);
        let newer = DynamicResourcesFailed::parse(
            "Failed to prepare dynamic resources: prepare dynamic resources: DRA driver compute-domain.nvidia.com is not registered",
        )
        .unwrap();
        assert_eq!(newer.driver.as_deref(), Some("compute-domain.nvidia.com"));
        assert!(newer.unregistered);
        assert_eq!(DynamicResourcesFailed::parse("Failed to prepare"), None);
    }
}
