//! Where redaction's time goes on a large text: `cargo run --release -p gpu-events-export
//! --example redact_cost -- FILE` prints the time of the whole engine on FILE.

use std::time::Instant;

use gpu_events_export::redact::Counts;
use gpu_events_export::{RedactionConfig, Redactor};

fn main() {
    let path = std::env::args().nth(1).expect("usage: redact_cost FILE");
    let text = std::fs::read_to_string(&path).expect("FILE is UTF-8 text");
    let redactor = Redactor::new(&RedactionConfig::default()).expect("the rules compile");
    blocks(text.as_bytes());
    for _ in 0..2 {
        let start = Instant::now();
        let mut counts = Counts::default();
        // Chunks as the stream functions cut them.
        let mut total = 0;
        for chunk in text.as_bytes().chunks(256 * 1024) {
            total += redactor.redact_bytes(chunk, &mut counts).len();
        }
        println!("{} bytes in {:?}: {}", total, start.elapsed(), redactor.summary(&counts));
    }
}

/// The building blocks alone (what the prefilter does), to see where the time goes.
fn blocks(bytes: &[u8]) {
    let literals = [
        "eyj",
        "secret",
        "akia",
        "asia",
        "abia",
        "acca",
        "x-amz-security-token=",
        "session_token",
        "session-token",
        "security_token",
        "security-token",
        "sessiontoken",
        "x-amz-signature=",
        "x-amz-credential=",
        "aiza",
        "ya29.",
        "private_key_id",
        "x-goog-signature=",
        "x-goog-credential=",
        "accountkey",
        "sharedaccesskey",
        "sig=",
        "signature=",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "gldt-",
        "glrt-",
        "glptt-",
        "glsoat-",
        "hf_",
        "xox",
        "xapp-",
        "hooks.slack.com/",
        "sk-",
        "\"auth",
        "\"identitytoken",
        "\"registrytoken",
        ".dockerconfigjson",
        ".dockercfg",
        "authorization",
        "bearer",
        "://",
        "password",
        "passwd",
        "passphrase",
        "token",
        "apikey",
        "api_key",
        "api-key",
        "accesskey",
        "access_key",
        "access-key",
        "privatekey",
        "private_key",
        "private-key",
        "authkey",
        "auth_key",
        "auth-key",
        "credential",
        "@",
        "arn:",
        "i-",
        "eni-",
        "vol-",
        "subnet-",
        "sg-",
        "vpc-",
        "snap-",
        "ami-",
        "igw-",
        "nat-",
        "rtb-",
        "eipalloc-",
        "fs-",
        "fsap-",
        "/subscriptions/",
        "gce://",
        "projects/",
    ];
    let ac = aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(aho_corasick::MatchKind::Standard)
        .build(literals)
        .unwrap();
    let start = Instant::now();
    let n = ac.find_overlapping_iter(bytes).count();
    println!(
        "aho-corasick overlapping ({} patterns, {:?}): {n} hits in {:?}",
        literals.len(),
        ac.kind(),
        start.elapsed()
    );
    let start = Instant::now();
    let n = ac.find_iter(bytes).count();
    println!("aho-corasick non-overlapping: {n} hits in {:?}", start.elapsed());
    let stems = [
        "eyj",
        "secret",
        "akia",
        "asia",
        "abia",
        "acca",
        "x-amz-",
        "session",
        "security",
        "aiza",
        "ya29.",
        "private",
        "x-goog-",
        "accountkey",
        "access",
        "sig=",
        "signature=",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "gldt-",
        "glrt-",
        "glptt-",
        "glsoat-",
        "hf_",
        "xox",
        "xapp-",
        "hooks.slack.com/",
        "sk-",
        "auth",
        "token",
        ".docker",
        "bearer",
        "://",
        "pass",
        "apikey",
        "api_key",
        "api-key",
        "credential",
        "arn:",
        "eni-",
        "vol-",
        "subnet-",
        "sg-",
        "vpc-",
        "snap-",
        "ami-",
        "igw-",
        "nat-",
        "rtb-",
        "eipalloc-",
        "fs-",
        "fsap-",
        "/subscriptions/",
        "gce://",
        "projects/",
    ];
    let folded_ac =
        aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::Standard).build(stems).unwrap();
    let start = Instant::now();
    let folded = bytes.to_ascii_lowercase();
    println!("fold in {:?}", start.elapsed());
    let start = Instant::now();
    let n = folded_ac.find_overlapping_iter(&folded).count();
    println!("folded overlapping ({} stems, {:?}): {n} hits in {:?}", stems.len(), folded_ac.kind(), start.elapsed());
    let start = Instant::now();
    let n = folded_ac.find_iter(&folded).count();
    println!("folded non-overlapping: {n} hits in {:?}", start.elapsed());
    let start = Instant::now();
    let n = memchr::memchr3_iter(b'.', b':', b'-', bytes).count();
    println!("memchr3 . : -: {n} hits in {:?}", start.elapsed());
    let start = Instant::now();
    let n = memchr::memchr2_iter(b'.', b':', bytes).count();
    println!("memchr2 . :: {n} hits in {:?}", start.elapsed());
    let start = Instant::now();
    let ok = std::str::from_utf8(bytes).is_ok();
    println!("utf-8 check {ok} in {:?}", start.elapsed());
}
