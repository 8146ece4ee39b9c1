//! Generated and copied files must match their sources.

use std::path::Path;

/// `docs/reasons.md` is generated from the reason tables.
#[test]
fn docs_reasons_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reasons.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = gpu_events::core::reason::catalogue_markdown();
    assert!(
        committed == generated,
        "docs/reasons.md is stale; regenerate it with:\n  cargo run -p gpu-events-cli -- reasons -o markdown > docs/reasons.md"
    );
}

/// `tests/fixtures/` copies `../shared/`; when the reference pack is present, they must agree.
#[test]
fn fixtures_match_the_reference_pack_when_present() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared");
    if !shared.is_dir() {
        return; // A clone without the reference pack tests against the copies alone.
    }
    for (dir, copy) in [("spec", "tests/fixtures/spec"), ("cases", "tests/fixtures/cases")] {
        for entry in std::fs::read_dir(shared.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap();
            let copied = std::fs::read(root.join(copy).join(name)).unwrap_or_default();
            assert!(
                copied == std::fs::read(&path).unwrap(),
                "tests/fixtures/{dir}/{} differs from ../shared/{dir}; refresh the copy",
                name.to_string_lossy()
            );
        }
    }
}
