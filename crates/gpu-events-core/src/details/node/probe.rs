//! Probe notes of the kubelet: `Unhealthy` and `ProbeWarning`
//! (kubernetes/kubernetes pkg/kubelet/prober/prober.go, pkg/probe/http/http.go; v1.9–v1.36,
//! PR #125901 for `probe errored and resulted in %s state`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::template::captures;

/// The probe kind, as the kubelet prints it (`Liveness`, `Readiness`, `Startup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ProbeKind {
    /// `Liveness`: failure restarts the container.
    Liveness,
    /// `Readiness`: failure removes the Pod from Service endpoints.
    Readiness,
    /// `Startup`: failure restarts the container before liveness probing begins.
    Startup,
}

impl ProbeKind {
    /// The kind of a probe type word.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "Liveness" => Some(ProbeKind::Liveness),
            "Readiness" => Some(ProbeKind::Readiness),
            "Startup" => Some(ProbeKind::Startup),
            _ => None,
        }
    }
}

/// A probe failed or errored (`Unhealthy`): `%s probe failed: %s`, `%s probe errored: %v`
/// (before ≈1.33), `%s probe errored and resulted in %s state: %s` (≈1.33+).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProbeFailed {
    /// The probe kind.
    pub probe: ProbeKind,
    /// `true` when the probe could not run (`errored`), `false` when it ran and failed.
    pub errored: bool,
    /// The result the error was counted as (`Failure`, `Unknown`), in the ≈1.33+ errored form.
    pub resulting_state: Option<String>,
    /// The probe output or error, verbatim (may span lines).
    pub output: String,
    /// The HTTP status code, for `HTTP probe failed with statuscode: %d`.
    pub http_status_code: Option<u16>,
}

impl ProbeFailed {
    /// Parse any `Unhealthy` form.
    pub fn parse(note: &str) -> Option<Self> {
        let (probe, errored, resulting_state, output) =
            if let Some([probe, state, output]) = captures("%s probe errored and resulted in %s state: %s", note) {
                (probe, true, Some(state.to_owned()), output)
            } else if let Some([probe, output]) = captures("%s probe errored: %v", note) {
                (probe, true, None, output)
            } else {
                let [probe, output] = captures("%s probe failed: %s", note)?;
                (probe, false, None, output)
            };
        let http_status_code = output.strip_prefix("HTTP probe failed with statuscode: ").and_then(|code| {
            let end = code.find(|c: char| !c.is_ascii_digit()).unwrap_or(code.len());
            code.get(..end)?.parse().ok()
        });
        Some(ProbeFailed {
            probe: ProbeKind::parse(probe)?,
            errored,
            resulting_state,
            output: output.to_owned(),
            http_status_code,
        })
    }
}

/// A probe succeeded with a warning (`ProbeWarning`): `%s probe warning: %s`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProbeWarning {
    /// The probe kind.
    pub probe: ProbeKind,
    /// The warning, verbatim (for example `Probe terminated redirects, Response body: ...`).
    pub warning: String,
}

impl ProbeWarning {
    /// Parse `%s probe warning: %s`.
    pub fn parse(note: &str) -> Option<Self> {
        let [probe, warning] = captures("%s probe warning: %s", note)?;
        Some(ProbeWarning { probe: ProbeKind::parse(probe)?, warning: warning.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_probes() {
        let http = ProbeFailed::parse("Readiness probe failed: HTTP probe failed with statuscode: 503").unwrap();
        assert_eq!((http.probe, http.errored, http.http_status_code), (ProbeKind::Readiness, false, Some(503)));
        assert_eq!(http.output, "HTTP probe failed with statuscode: 503");

        let dial = ProbeFailed::parse(
            "Liveness probe failed: Get \"http://10.0.0.5:8000/health\": dial tcp 10.0.0.5:8000: connect: connection refused",
        )
        .unwrap();
        assert_eq!((dial.probe, dial.http_status_code), (ProbeKind::Liveness, None));
        assert!(dial.output.ends_with("connection refused"));

        let exec = ProbeFailed::parse("Startup probe failed: model not loaded\nretrying").unwrap();
        assert_eq!((exec.probe, exec.output.as_str()), (ProbeKind::Startup, "model not loaded\nretrying"));
    }

    #[test]
    fn errored_probes_old_and_new() {
        let old = ProbeFailed::parse(
            "Liveness probe errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
        )
        .unwrap();
        assert!(old.errored);
        assert_eq!(old.resulting_state, None);
        assert!(old.output.starts_with("rpc error"));
        let new = ProbeFailed::parse(
            "Readiness probe errored and resulted in Unknown state: rpc error: code = NotFound desc = container is not created or running",
        )
        .unwrap();
        assert!(new.errored);
        assert_eq!(new.resulting_state.as_deref(), Some("Unknown"));
        assert!(new.output.ends_with("not created or running"));
    }

    #[test]
    fn warnings_and_near_misses() {
        let w = ProbeWarning::parse("Readiness probe warning: Probe terminated redirects, Response body: ok").unwrap();
        assert_eq!(
            (w.probe, w.warning.as_str()),
            (ProbeKind::Readiness, "Probe terminated redirects, Response body: ok")
        );
        assert_eq!(ProbeWarning::parse("Custom probe warning: x"), None);
        for bad in ["Liveness probe failed", "Healthz probe failed: x", "probe failed: x", "Liveness failed: x"] {
            assert_eq!(ProbeFailed::parse(bad), None, "{bad}");
        }
    }
}
