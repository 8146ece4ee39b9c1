//! `gpu-events redact` and `explain --redact` end to end: the same engine, byte for byte outside
//! the secrets, user rules from flags and the exporter's config file, clear errors.

mod common;

use std::process::Output;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::gpu_events_output(args, stdin)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A `kubectl describe` paste with secrets in its events, CRLF line ends in part, a byte that is
/// not UTF-8, and a PEM block over several lines.
const PASTE: &str = "Name:         llama-0\r\nNamespace:    ml\r\nNode:         gpu-node-3/10.0.1.23\r\nEvents:\n  Type     Reason       Age   From     Message\n  ----     ------       ----  ----     -------\n  Warning  FailedMount  2m    kubelet  MountVolume.SetUp failed for volume \"models\" : mount failed: s3fs: AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n  Warning  Failed       1m    kubelet  Error: pull https://hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567@huggingface.co/x at 10:23:45 on GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead\n  Warning  BackOff      30s   kubelet  Back-off: GET https://b.s3.amazonaws.com/m.bin?X-Amz-Expires=60&X-Amz-Signature=0f1e2d3c4b5a6978 (1g.10gb, 80Gi, sha256:0123abcd)\nkey: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";

const REDACTED: &str = "Name:         llama-0\r\nNamespace:    ml\r\nNode:         gpu-node-3/<ipv4>\r\nEvents:\n  Type     Reason       Age   From     Message\n  ----     ------       ----  ----     -------\n  Warning  FailedMount  2m    kubelet  MountVolume.SetUp failed for volume \"models\" : mount failed: s3fs: <aws-access-key-id>:<aws-secret-key>\n  Warning  Failed       1m    kubelet  Error: pull https://<huggingface-token>@huggingface.co/x at 10:23:45 on GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead\n  Warning  BackOff      30s   kubelet  Back-off: GET https://b.s3.amazonaws.com/m.bin?X-Amz-Expires=60&X-Amz-Signature=<aws-signature> (1g.10gb, 80Gi, sha256:0123abcd)\nkey: <pem-private-key>\n";

#[test]
fn redact_writes_the_input_back_with_only_the_secrets_replaced() {
    let mut input = PASTE.as_bytes().to_vec();
    input.extend_from_slice(b"latin-1 \xe9 token=hunter2\n");
    let output = run(&["redact", "-"], &input);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut expected = REDACTED.as_bytes().to_vec();
    expected.extend_from_slice(b"latin-1 \xe9 token=<secret>\n");
    assert_eq!(String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&expected));
    assert_eq!(output.stdout, expected);
    assert_eq!(
        stderr(&output),
        "gpu-events: redacted 7: pem-private-key 1, aws-signature 1, aws-secret-key 1, aws-access-key-id 1, huggingface-token 1, key-value-secret 1, ipv4 1\n"
    );
}

#[test]
fn redact_of_a_file_without_secrets_is_the_file() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases/009-cdi-unresolvable-gpu-uuid-rke2.txt");
    let output = run(&["redact", path], b"");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(output.stdout, std::fs::read(path).unwrap());
    assert_eq!(stderr(&output), "gpu-events: redacted 0\n");
}

#[test]
fn explain_redact_shows_no_secret_in_any_format_and_reads_as_redact_then_explain() {
    let piped = run(&["redact"], PASTE.as_bytes()).stdout;
    for format in ["json", "yaml", "table"] {
        let redacted =
            run(&["explain", "-", "--redact", "-o", format, "--now", "2026-12-02T00:00:00Z"], PASTE.as_bytes());
        let text = String::from_utf8(redacted.stdout).unwrap();
        for secret in ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "hf_QwErTy", "0f1e2d3c4b5a6978", "10.0.1.23"] {
            assert!(!text.contains(secret), "{format}: {secret} in {text}");
        }
        assert!(
            text.contains("<aws-secret-key>") && text.contains("GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead"),
            "{text}"
        );
        let plain = run(&["explain", "-", "-o", format, "--now", "2026-12-02T00:00:00Z"], &piped);
        assert_eq!(text, String::from_utf8(plain.stdout).unwrap(), "{format}");
    }
    // A file is redacted on its own thread; the records are the same.
    let dir = std::env::temp_dir().join(format!("gpu-events-redact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("describe.txt");
    std::fs::write(&file, PASTE).unwrap();
    let from_file =
        run(&["explain", file.to_str().unwrap(), "--redact", "-o", "json", "--now", "2026-12-02T00:00:00Z"], b"");
    let from_pipe = run(&["explain", "-", "-o", "json", "--now", "2026-12-02T00:00:00Z"], &piped);
    assert_eq!(from_file.stdout, from_pipe.stdout);
    // Without --redact nothing changes.
    let plain = run(&["explain", file.to_str().unwrap(), "-o", "json", "--now", "2026-12-02T00:00:00Z"], b"");
    assert!(String::from_utf8_lossy(&plain.stdout).contains("AKIAIOSFODNN7EXAMPLE"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn user_rules_from_flags_and_from_the_exporters_config_work_in_redact_and_explain() {
    let input = b"tenant-42 pulled llama from 10.0.0.9\n";
    let output = run(&["redact", "--rule", "tenant=tenant-[0-9]+"], input);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "<redacted> pulled llama from <ipv4>\n");
    assert_eq!(stderr(&output), "gpu-events: redacted 2: ipv4 1, tenant 1\n");
    let output = run(
        &[
            "redact",
            "--no-default-redaction",
            "--rule",
            "{name: t, pattern: 'tenant-([0-9]+)', replacement: 'tenant-<$1>'}",
        ],
        input,
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "tenant-<42> pulled llama from 10.0.0.9\n");

    let dir = std::env::temp_dir().join(format!("gpu-events-redact-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("export.yaml");
    std::fs::write(
        &config,
        "cluster: lab\nredaction:\n  rules:\n    - name: model\n      pattern: 'llama'\n      replacement: '<model>'\n",
    )
    .unwrap();
    let output = run(&["redact", "--config", config.to_str().unwrap()], input);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "tenant-42 pulled <model> from <ipv4>\n");
    let event = "Events:\n  Warning  Failed  1m  kubelet  Error: pull llama from 10.0.0.9 failed\n";
    let output = run(&["explain", "-", "--redact-config", config.to_str().unwrap(), "-o", "json"], event.as_bytes());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Error: pull <model> from <ipv4> failed"), "{text}");
    let output = run(&["explain", "-", "--redact-rule", "m=llama", "-o", "json"], event.as_bytes());
    assert!(String::from_utf8_lossy(&output.stdout).contains("pull <redacted> from <ipv4>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rule_that_does_not_compile_is_an_error_naming_it() {
    for args in [&["redact", "--rule", "tenant=tenant-("][..], &["explain", "-", "--redact-rule", "tenant=tenant-("]] {
        let output = run(args, b"x\n");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let message = stderr(&output);
        assert!(message.starts_with("gpu-events: error: redaction rule \"tenant\": invalid pattern: "), "{message}");
        assert!(message.contains("unclosed group"), "{message}");
        assert!(output.stdout.is_empty());
    }
    let output = run(&["redact", "--rule", "no-equals-sign"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("expected NAME=REGEX"), "{}", stderr(&output));
    let output = run(&["redact", "--rule", "ipv4=x"], b"");
    assert!(stderr(&output).contains("\"ipv4\" is used twice"), "{}", stderr(&output));
}
